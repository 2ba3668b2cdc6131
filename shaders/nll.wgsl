// nll_loss with class-index targets, float32: the forward's losses
// -weight[t] * x[n, t, s], summed or one per target.
//
// x is read through a [batch, classes, spatial] layout; target i is the
// one at (n, s) = (i / spatial, i % spatial). Targets arrive as u32 class
// indices the host checked against the classes (PyTorch's 'Target ... is
// out of bounds.' is raised there); 0xffffffff marks an ignored target
// (ignore_index), which selects nothing and adds 0. Without a weight the
// weight binding holds any buffer and is not read.
//
// Bindings of nll_each and nll_sum, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | x        | array<f32>, storage, read             |
// | 1       | targets  | array<u32>, storage, read             |
// | 2       | weight   | array<f32>, storage, read             |
// | 3       | out      | array<f32>, storage, read_write       |
// | 4       | metadata | array<u32>, storage, read (see below) |
//
// Their metadata, in u32 words (crates/wgpu/src/nll.rs packs it):
//
// | word | field                                                     |
// |------|-----------------------------------------------------------|
// | 0    | count: targets (batch * spatial)                          |
// | 1    | classes                                                   |
// | 2    | spatial                                                   |
// | 3    | x offset, in elements                                     |
// | 4    | x stride of batch (i32 bit-cast to u32)                   |
// | 5    | x stride of classes                                       |
// | 6    | x stride of spatial                                       |
// | 7    | 1 when weighted                                           |
// | 8    | divisor of the sum (f32 bit-cast; nll_sum only)           |
//
// The backward's coefficients are nll_backward.wgsl's.
//
// Entry points:
// - nll_each: one invocation per target, out[i] = its loss (workgroups of
//   64 on a 2-D grid).
// - nll_sum: one workgroup of 256; out[0] = (sum of the losses) / divisor
//   (1 for sum, the total weight for mean: 0 / 0 = NaN when every target
//   is ignored, as PyTorch).

const WORKGROUP_SIZE: u32 = 64u;
const TREE_SIZE: u32 = 256u;
const IGNORED: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> targets: array<u32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> metadata: array<u32>;

var<workgroup> partials: array<f32, TREE_SIZE>;

// Target i's class, or IGNORED (also for one past the classes, which the
// host never sends, or past the targets buffer).
fn class_of(i: u32, classes: u32) -> u32 {
    if i >= arrayLength(&targets) {
        return IGNORED;
    }
    let t = targets[i];
    if t >= classes {
        return IGNORED;
    }
    return t;
}

// The class weight of t (1 unweighted).
fn weight_of(t: u32, weighted: bool) -> f32 {
    if !weighted {
        return 1.0;
    }
    if t < arrayLength(&weight) {
        return weight[t];
    }
    return 0.0;
}

fn loss(i: u32) -> f32 {
    let classes = metadata[1];
    let t = class_of(i, classes);
    if t == IGNORED {
        return 0.0;
    }
    let spatial = metadata[2];
    let n = i / spatial;
    let s = i % spatial;
    let at = u32(
        i32(metadata[3]) + i32(n) * bitcast<i32>(metadata[4]) + i32(t) * bitcast<i32>(metadata[5])
            + i32(s) * bitcast<i32>(metadata[6]),
    );
    if at >= arrayLength(&x) {
        return 0.0;
    }
    return -weight_of(t, metadata[7] == 1u) * x[at];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn nll_each(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if i >= metadata[0] || i >= arrayLength(&out) {
        return;
    }
    out[i] = loss(i);
}

@compute @workgroup_size(TREE_SIZE)
fn nll_sum(@builtin(local_invocation_index) lid: u32) {
    let count = metadata[0];
    var acc = 0.0;
    for (var i = lid; i < count; i += TREE_SIZE) {
        acc += loss(i);
    }
    partials[lid] = acc;
    workgroupBarrier();
    for (var width = TREE_SIZE / 2u; width > 0u; width = width / 2u) {
        if lid < width {
            partials[lid] = partials[lid] + partials[lid + width];
        }
        workgroupBarrier();
    }
    if lid == 0u && arrayLength(&out) > 0u {
        out[0] = partials[0] / bitcast<f32>(metadata[8]);
    }
}
