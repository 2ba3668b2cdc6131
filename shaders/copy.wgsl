// Strided copy: out[i] = src[s(i)], any layout (transposed, sliced with steps,
// expanded with stride 0, flipped) into a contiguous output; and its mirror,
// copy_scatter: out[t(i)] = src[s(i)], writing through a second layout over
// the output (the backward of slice and select, and each part of cat and
// stack, written into a buffer the host zeroed).
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | out      | array<f32>, storage, read_write       |
// | 2       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, r = rank (crates/wgpu/src/launch.rs,
// strided_metadata, packs it; the same header as unary.wgsl):
//
// | word         | field                                         |
// |--------------|-----------------------------------------------|
// | 0            | op code, unused here                          |
// | 1            | rank r (size-1 and dense runs already merged) |
// | 2            | numel, elements of the output                 |
// | 3            | src offset, in elements                       |
// | 4, 5         | parameters, unused here                       |
// | 6 .. 6+r     | shape                                         |
// | 6+r .. 6+2r  | src strides, in elements, i32 bit-cast to u32 |
//
// Dispatch: workgroups of 64 on a 2-D grid (x at most the per-dimension
// limit); invocation (gx, gy) handles element gy * x * 64 + gx, and those at
// or past numel return. The host has checked that every element the layout
// reaches lies inside src.

const WORKGROUP_SIZE: u32 = 64u;
const HEADER: u32 = 6u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn copy_strided(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let numel = metadata[2];
    if index >= numel {
        return;
    }
    let rank = metadata[1];
    let at = u32(i32(metadata[3]) + strided_offset(index, rank, HEADER, HEADER + rank));
    if at < arrayLength(&src) {
        out[index] = src[at];
    }
}

// copy_scatter's metadata: as above, with word 4 the target's offset and the
// target's strides after the source's:
//
// | word          | field                                          |
// |---------------|------------------------------------------------|
// | 2             | numel, elements copied                         |
// | 3             | src offset                                     |
// | 4             | target offset, in elements of out              |
// | 6 .. 6+r      | shape (the source's, walked row-major)         |
// | 6+r .. 6+2r   | src strides (i32 bit-cast)                     |
// | 6+2r .. 6+3r  | target strides (i32 bit-cast)                  |
//
// The host checked that the target layout reaches no element twice, so no
// two invocations write one element.
@compute @workgroup_size(WORKGROUP_SIZE)
fn copy_scatter(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let numel = metadata[2];
    if index >= numel {
        return;
    }
    let rank = metadata[1];
    let read_at = u32(i32(metadata[3]) + strided_offset(index, rank, HEADER, HEADER + rank));
    let write_at = u32(i32(metadata[4]) + strided_offset(index, rank, HEADER, HEADER + 2u * rank));
    if read_at < arrayLength(&src) && write_at < arrayLength(&out) {
        out[write_at] = src[read_at];
    }
}
