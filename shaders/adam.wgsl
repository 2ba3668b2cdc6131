// One Adam (or AdamW) step over whole, equally long float32 buffers, in
// place: the same arithmetic, in the same order, as the CPU's fused update
// (crates/core/src/cpu/adam.rs, PyTorch's single-tensor Adam):
//
//   g' = g + weight_decay * p            (Adam's L2 penalty, variant 1)
//   p  = p * decay_factor                (AdamW, variant 2)
//   m  = m + (g' - m) * (1 - beta1)      (exp_avg.lerp_(grad, 1 - beta1))
//   v  = v * beta2 + (g' * g') * (1 - beta2)
//   p  = p + (m / (sqrt(v) / sqrt(1 - beta2^t) + eps)) * (-lr / (1 - beta1^t))
//
// Bindings, group 0:
//
// | binding | name       | type                                  |
// |---------|------------|---------------------------------------|
// | 0       | param      | array<f32>, storage, read_write       |
// | 1       | grad       | array<f32>, storage, read             |
// | 2       | exp_avg    | array<f32>, storage, read_write       |
// | 3       | exp_avg_sq | array<f32>, storage, read_write       |
// | 4       | metadata   | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, constants as f32 bit-cast to u32
// (crates/wgpu/src/adam.rs packs it):
//
// | word | field                                              |
// |------|----------------------------------------------------|
// | 0    | len, elements of every buffer                      |
// | 1    | variant: 0 plain, 1 L2 weight decay, 2 decoupled   |
// | 2    | 1 - beta1                                          |
// | 3    | beta2                                              |
// | 4    | 1 - beta2                                          |
// | 5    | sqrt(1 - beta2^step)                               |
// | 6    | eps                                                |
// | 7    | -lr / (1 - beta1^step)                             |
// | 8    | weight_decay (variant 1)                           |
// | 9    | decay factor 1 - lr * weight_decay (variant 2)     |
//
// Dispatch: one invocation per element, workgroups of 64 on a 2-D grid.

const WORKGROUP_SIZE: u32 = 64u;

const PLAIN: u32 = 0u;
const L2: u32 = 1u;
const DECOUPLED: u32 = 2u;

@group(0) @binding(0) var<storage, read_write> param: array<f32>;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read_write> exp_avg: array<f32>;
@group(0) @binding(3) var<storage, read_write> exp_avg_sq: array<f32>;
@group(0) @binding(4) var<storage, read> metadata: array<u32>;

fn constant(i: u32) -> f32 {
    return bitcast<f32>(metadata[i]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn adam_step(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    // Every buffer is checked: the host checked the lengths, and the kernel
    // does not rely on robust access either.
    if i >= metadata[0] || i >= arrayLength(&param) || i >= arrayLength(&grad)
        || i >= arrayLength(&exp_avg) || i >= arrayLength(&exp_avg_sq) {
        return;
    }
    let variant = metadata[1];
    var p = param[i];
    var g = grad[i];
    if variant == DECOUPLED {
        p = p * constant(9u);
    } else if variant == L2 {
        g = g + constant(8u) * p;
    }
    let m = exp_avg[i] + (g - exp_avg[i]) * constant(2u);
    let v = exp_avg_sq[i] * constant(3u) + (g * g) * constant(4u);
    let denom = sqrt(v) / constant(5u) + constant(6u);
    param[i] = p + (m / denom) * constant(7u);
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
}
