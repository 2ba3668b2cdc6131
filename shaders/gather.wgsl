// Gather and scatter by positions the host computed: what indexing,
// `gather`, `scatter_add`, `index_add`, `index_put` and `embedding`'s
// backward read and write. The host turns index tensors into storage
// positions (checking each against its dimension, where PyTorch's errors
// are raised), so one pair of kernels serves every indexing op.
//
// gather_take: out[i] = src[idx[i]], for i < numel.
//
// gather_put: out (already a contiguous copy of the base) gets, for each
// group g of sources aimed at one element, its sources folded in their
// original order: out[t] = out[t] + src[r0] + src[r1] ... (add), or the last
// one (no add). Grouping makes each element one invocation's, so repeated
// indices need no atomics (WGSL has none for f32) and the sums round exactly
// as the CPU's loop rounds them. idx holds the plan:
//
// | words                          | field                                  |
// |--------------------------------|----------------------------------------|
// | 0 .. G                         | targets, the element each group writes |
// | G .. 2G+1                      | starts, group g's sources are          |
// |                                | reads[starts[g] .. starts[g+1]]        |
// | 2G+1 .. 2G+1+N                 | reads, positions in src                |
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | idx      | array<u32>, storage, read             |
// | 2       | out      | array<f32>, storage, read_write       |
// | 3       | metadata | array<u32>, storage, read (see below) |
//
// Metadata: word 0 is numel (take) or G (put), word 1 is 1 to add and 0
// to overwrite (put). Every position is checked against its buffer here as
// well; an out-of-range one is skipped, never read or written.
//
// Dispatch: workgroups of 64 on a 2-D grid, as copy.wgsl.

const WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> metadata: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_take(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if i >= metadata[0] || i >= arrayLength(&idx) || i >= arrayLength(&out) {
        return;
    }
    let at = idx[i];
    if at < arrayLength(&src) {
        out[i] = src[at];
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_put(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let g = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let count = metadata[0];
    if g >= count || 2u * count + 1u > arrayLength(&idx) {
        return;
    }
    let dest = idx[g];
    if dest >= arrayLength(&out) {
        return;
    }
    let add = metadata[1] != 0u;
    let reads = 2u * count + 1u;
    let end = min(idx[count + g + 1u], arrayLength(&idx) - reads);
    var acc = out[dest];
    for (var k = idx[count + g]; k < end; k++) {
        let at = idx[reads + k];
        if at < arrayLength(&src) {
            acc = select(src[at], acc + src[at], add);
        }
    }
    out[dest] = acc;
}
