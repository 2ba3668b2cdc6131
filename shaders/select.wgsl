// PyTorch's where(condition, a, b) with broadcasting:
// out[i] = a[a(i)] if condition[c(i)] != 0 else b[b(i)], float32.
//
// The condition is a bool mask held as float32 (1.0 true, 0.0 false: what
// the compare ops of binary.wgsl write); nonzero is true. All three
// operands are read through layouts already broadcast to the output shape
// (stride 0 where one repeats); the output is contiguous.
//
// Bindings, group 0:
//
// | binding | name      | type                                  |
// |---------|-----------|---------------------------------------|
// | 0       | condition | array<f32>, storage, read             |
// | 1       | lhs       | array<f32>, storage, read             |
// | 2       | rhs       | array<f32>, storage, read             |
// | 3       | out       | array<f32>, storage, read_write       |
// | 4       | metadata  | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, r = rank (crates/wgpu/src/select.rs packs it;
// neighbouring dimensions dense in all three operands arrive merged):
//
// | word          | field                                           |
// |---------------|-------------------------------------------------|
// | 0             | rank r                                          |
// | 1             | numel, elements of the output                   |
// | 2             | condition offset, in elements                   |
// | 3             | lhs offset                                      |
// | 4             | rhs offset                                      |
// | 5 .. 5+r      | shape                                           |
// | 5+r .. 5+2r   | condition strides, i32 bit-cast to u32          |
// | 5+2r .. 5+3r  | lhs strides                                     |
// | 5+3r .. 5+4r  | rhs strides                                     |
//
// Dispatch: workgroups of 64 on a 2-D grid, as binary.wgsl.

const WORKGROUP_SIZE: u32 = 64u;
const HEADER: u32 = 5u;

@group(0) @binding(0) var<storage, read> condition: array<f32>;
@group(0) @binding(1) var<storage, read> lhs: array<f32>;
@group(0) @binding(2) var<storage, read> rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> metadata: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn select_where(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let rank = metadata[0];
    if index >= metadata[1] || index >= arrayLength(&out) {
        return;
    }
    var rest = index;
    var c = i32(metadata[2]);
    var l = i32(metadata[3]);
    var r = i32(metadata[4]);
    for (var k = rank; k > 0u; k--) {
        let d = k - 1u;
        let size = metadata[HEADER + d];
        let coord = i32(rest % size);
        rest = rest / size;
        c += coord * bitcast<i32>(metadata[HEADER + rank + d]);
        l += coord * bitcast<i32>(metadata[HEADER + 2u * rank + d]);
        r += coord * bitcast<i32>(metadata[HEADER + 3u * rank + d]);
    }
    // The host checked the layouts against their buffers; the kernel checks
    // again rather than rely on robust access.
    let ci = u32(c);
    let li = u32(l);
    let ri = u32(r);
    if ci >= arrayLength(&condition) {
        return;
    }
    if condition[ci] != 0.0 {
        if li < arrayLength(&lhs) {
            out[index] = lhs[li];
        }
    } else if ri < arrayLength(&rhs) {
        out[index] = rhs[ri];
    }
}
