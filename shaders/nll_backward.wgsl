// nll_loss's backward coefficients, float32: -weight[t] at each target's
// class, 0 at every other class and for ignored targets; the core scales
// them by the incoming gradient (and 1 / total weight for the mean).
//
// Targets as in nll.wgsl: u32 class indices the host checked, 0xffffffff
// for an ignored one; target i sits at (n, s) = (i / spatial, i % spatial).
// Without a weight the weight binding holds any buffer and is not read.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | targets  | array<u32>, storage, read             |
// | 1       | weight   | array<f32>, storage, read             |
// | 2       | out      | array<f32>, storage, read_write       |
// | 3       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words (crates/wgpu/src/nll.rs packs it):
//
// | word | field                                       |
// |------|---------------------------------------------|
// | 0    | numel: batch * classes * spatial            |
// | 1    | classes                                     |
// | 2    | spatial                                     |
// | 3    | 1 when weighted                             |
//
// The output is contiguous [batch, classes, spatial]: one invocation per
// element (workgroups of 64 on a 2-D grid) reads its (n, s) target, so no
// two invocations write one element.

const WORKGROUP_SIZE: u32 = 64u;
const IGNORED: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> targets: array<u32>;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> metadata: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn nll_backward_coefficients(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if index >= metadata[0] || index >= arrayLength(&out) {
        return;
    }
    let classes = metadata[1];
    let spatial = metadata[2];
    let s = index % spatial;
    let c = (index / spatial) % classes;
    let n = index / (spatial * classes);
    let i = n * spatial + s;
    var value = 0.0;
    if i < arrayLength(&targets) {
        let t = targets[i];
        if t != IGNORED && t == c {
            if metadata[3] == 1u {
                if t < arrayLength(&weight) {
                    value = -weight[t];
                }
            } else {
                value = -1.0;
            }
        }
    }
    out[index] = value;
}
