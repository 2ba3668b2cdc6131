// Adds a bias in place to a batched matrix product: out[b, i, j] += bias[i, j]
// read through a strided layout (stride 0 where it repeats). `linear` runs
// the product and this on one buffer, so `a @ w.T + b` needs no second
// buffer the size of its result, as PyTorch's fused addmm does.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | out      | array<f32>, storage, read_write       |
// | 1       | bias     | array<f32>, storage, read             |
// | 2       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words (crates/wgpu/src/bias.rs packs it):
//
// | word | field                                          |
// |------|------------------------------------------------|
// | 0    | numel of out (batch * m * n)                   |
// | 1    | m, rows                                        |
// | 2    | n, columns                                     |
// | 3    | bias offset, in elements                       |
// | 4    | bias row stride, i32 bit-cast to u32           |
// | 5    | bias column stride, i32 bit-cast to u32        |
//
// Dispatch: workgroups of 64 on a 2-D grid, as binary.wgsl; invocations past
// numel return. The host checks that every bias index lies in its buffer;
// the shader checks it again, never relying on robust-access clamping.

const WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> bias: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn bias_add(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let numel = metadata[0];
    if index >= numel || index >= arrayLength(&out) {
        return;
    }
    let m = metadata[1];
    let n = metadata[2];
    let col = index % n;
    let row = (index / n) % m;
    let at = i32(metadata[3]) + i32(row) * bitcast<i32>(metadata[4])
        + i32(col) * bitcast<i32>(metadata[5]);
    if at < 0 || u32(at) >= arrayLength(&bias) {
        return;
    }
    out[index] = out[index] + bias[u32(at)];
}
