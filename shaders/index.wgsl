// index_select (and embedding, its rows of a [rows, width] weight):
// out = x with dimension `dim` walked in the order of `indices`, float32.
//
// The input is read through its layout, split by the host into the
// dimensions before `dim` (outer), `dim` itself, and those after it (inner);
// each of outer and inner arrives with size-1 dimensions dropped and dense
// runs merged. Output element i = (o * count + j) * inner_len + n reads
// x[outer(o) + indices[j] * dim_stride + inner(n)]. The host checked every
// index against the dimension (PyTorch's error is raised there); the kernel
// checks again and never reads past a buffer.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | indices  | array<u32>, storage, read             |
// | 2       | out      | array<f32>, storage, read_write       |
// | 3       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, p = outer rank, q = inner rank
// (crates/wgpu/src/index.rs packs it):
//
// | word                 | field                                      |
// |----------------------|--------------------------------------------|
// | 0                    | numel, elements of the output              |
// | 1                    | count, indices                             |
// | 2                    | inner_len, elements per (o, j)             |
// | 3                    | src offset, in elements                    |
// | 4                    | stride of `dim` (i32 bit-cast to u32)      |
// | 5                    | p                                          |
// | 6                    | q                                          |
// | 7 .. 7+p             | outer shape                                |
// | 7+p .. 7+2p          | outer strides (i32 bit-cast)               |
// | 7+2p .. 7+2p+q       | inner shape                                |
// | 7+2p+q .. 7+2p+2q    | inner strides (i32 bit-cast)               |
//
// Dispatch: workgroups of 64 on a 2-D grid, as copy.wgsl.

const WORKGROUP_SIZE: u32 = 64u;
const HEADER: u32 = 7u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read> indices: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> metadata: array<u32>;

// The storage offset of row-major position `index` over the dims starting
// at metadata word `shapes` (rank dims, then as many strides).
fn walk(index: u32, shapes: u32, rank: u32) -> i32 {
    return strided_offset(index, rank, shapes, shapes + rank);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn index_select(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if i >= metadata[0] || i >= arrayLength(&out) {
        return;
    }
    let count = metadata[1];
    let inner_len = metadata[2];
    let p = metadata[5];
    let q = metadata[6];
    let n = i % inner_len;
    let j = (i / inner_len) % count;
    let o = i / (inner_len * count);
    if j >= arrayLength(&indices) {
        return;
    }
    let at = u32(
        i32(metadata[3]) + walk(o, HEADER, p) + i32(indices[j]) * bitcast<i32>(metadata[4])
            + walk(n, HEADER + 2u * p, q),
    );
    if at < arrayLength(&src) {
        out[i] = src[at];
    }
}
