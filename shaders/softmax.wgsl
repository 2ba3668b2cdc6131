// softmax and log_softmax along one axis, float32: each slice (row) is
// shifted by its maximum before exponentiating, so large inputs stay
// finite, and each row is read in place, written once.
//
//   softmax:     out = exp(x - max) / sum(exp(x - max))
//   log_softmax: out = (x - max) - log(sum(exp(x - max)))
//
// A NaN in a row makes the whole row NaN (it wins the maximum), and a row
// of -inf gives NaN (-inf - -inf), as PyTorch's CPU kernel; subnormal
// probabilities are built from their bits, so a device that flushes
// subnormals still prints e^-100 as 3.7835e-44.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | src      | array<f32>, storage, read             |
// | 1       | out      | array<f32>, storage, read_write       |
// | 2       | metadata | array<u32>, storage, read (see below) |
//
// Metadata, in u32 words, k = rank of the kept (non-softmax) dimensions
// (crates/wgpu/src/softmax.rs packs it):
//
// | word          | field                                                |
// |---------------|------------------------------------------------------|
// | 0             | rows: slices, the product of the kept dimensions     |
// | 1             | len: elements per slice (the softmax dimension)      |
// | 2             | inner: product of the dimensions after the softmax one |
// | 3             | src offset, in elements                              |
// | 4             | src stride of the softmax dimension (i32 bit-cast)   |
// | 5             | 1 for log_softmax, 0 for softmax                     |
// | 6             | k                                                    |
// | 7 .. 7+k      | kept shape (size-1 dropped, dense runs merged)       |
// | 7+k .. 7+2k   | kept strides (i32 bit-cast to u32)                   |
//
// The output is contiguous in the input's shape: element j of row
// r = a * inner + b goes to (a * len + j) * inner + b.
//
// Entry points:
// - softmax_serial: one invocation per row (workgroups of 64 on a 2-D
//   grid), for short rows.
// - softmax_tree: one workgroup of 256 per row (workgroup gy * x + gx),
//   each invocation taking every 256th element and the workgroup folding
//   the maximum and the sum as trees in shared memory.

const SERIAL_SIZE: u32 = 64u;
const TREE_SIZE: u32 = 256u;
const HEADER: u32 = 7u;

const INF_BITS: u32 = 0x7f800000u;
const SIGN_BIT: u32 = 0x80000000u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

// -inf is made at run time: WGSL's constant evaluation rejects non-finite
// values (see unary.wgsl).
var<private> inf_bits: u32 = INF_BITS;

var<workgroup> partials: array<f32, TREE_SIZE>;

fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) > INF_BITS;
}

fn neg_inf() -> f32 {
    return -bitcast<f32>(inf_bits);
}

// The larger, NaN winning.
fn larger(a: f32, b: f32) -> f32 {
    if is_nan(a) {
        return a;
    }
    if is_nan(b) || b > a {
        return b;
    }
    return a;
}

// exp, with underflow to 0 explicit (exp(-inf) included) and NaN kept.
fn exp_shifted(d: f32) -> f32 {
    if is_nan(d) {
        return d;
    }
    if d < -104.0 {
        return 0.0;
    }
    return exp(d);
}

// The storage index of row r's first element.
fn row_base(r: u32) -> i32 {
    let k = metadata[6];
    return i32(metadata[3]) + strided_offset(r, k, HEADER, HEADER + k);
}

// Element j of the row at `base`; the host checked the layout, and the
// kernel checks again rather than rely on robust access.
fn load(base: i32, j: u32) -> f32 {
    let at = u32(base + i32(j) * bitcast<i32>(metadata[4]));
    if at < arrayLength(&src) {
        return src[at];
    }
    return 0.0;
}

fn store(r: u32, j: u32, value: f32) {
    let len = metadata[1];
    let inner = metadata[2];
    let at = ((r / inner) * len + j) * inner + r % inner;
    if at < arrayLength(&out) {
        out[at] = value;
    }
}

// The smallest normal f32, 2^-126, and 149 ln 2 (2^-149 is the smallest
// subnormal).
const MIN_NORMAL: f32 = 1.17549435e-38;
const LN_2_POW_149: f32 = 103.27893;

fn result(x: f32, max: f32, denominator: f32) -> f32 {
    if metadata[5] == 1u {
        return (x - max) - denominator;
    }
    let value = exp_shifted(x - max) / denominator;
    if is_nan(value) || value >= MIN_NORMAL {
        return value;
    }
    // A subnormal probability (the CPU computes in float64 and rounds, so
    // e^-100 is 3.7835e-44, not 0): devices may flush subnormals, so count
    // its 2^-149 quanta from an exp scaled into the normal range and build
    // the bits directly.
    let quanta = exp_shifted(x - max + LN_2_POW_149) / denominator;
    return bitcast<f32>(u32(round(quanta)));
}

// The denominator from the sum: its log for log_softmax.
fn denominator_of(sum: f32) -> f32 {
    if metadata[5] == 1u {
        return log(sum);
    }
    return sum;
}

@compute @workgroup_size(SERIAL_SIZE)
fn softmax_serial(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let r = gid.y * groups.x * SERIAL_SIZE + gid.x;
    if r >= metadata[0] {
        return;
    }
    let len = metadata[1];
    let base = row_base(r);
    var max = neg_inf();
    for (var j = 0u; j < len; j++) {
        max = larger(max, load(base, j));
    }
    var sum = 0.0;
    for (var j = 0u; j < len; j++) {
        sum += exp_shifted(load(base, j) - max);
    }
    let denominator = denominator_of(sum);
    for (var j = 0u; j < len; j++) {
        store(r, j, result(load(base, j), max, denominator));
    }
}

@compute @workgroup_size(TREE_SIZE)
fn softmax_tree(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    // Uniform across the workgroup, so the barriers stay in uniform control flow.
    let r = wid.y * groups.x + wid.x;
    if r >= metadata[0] {
        return;
    }
    let len = metadata[1];
    let base = row_base(r);
    var max = neg_inf();
    for (var j = lid; j < len; j += TREE_SIZE) {
        max = larger(max, load(base, j));
    }
    partials[lid] = max;
    workgroupBarrier();
    for (var width = TREE_SIZE / 2u; width > 0u; width = width / 2u) {
        if lid < width {
            partials[lid] = larger(partials[lid], partials[lid + width]);
        }
        workgroupBarrier();
    }
    max = partials[0];
    workgroupBarrier();
    var sum = 0.0;
    for (var j = lid; j < len; j += TREE_SIZE) {
        sum += exp_shifted(load(base, j) - max);
    }
    partials[lid] = sum;
    workgroupBarrier();
    for (var width = TREE_SIZE / 2u; width > 0u; width = width / 2u) {
        if lid < width {
            partials[lid] = partials[lid] + partials[lid + width];
        }
        workgroupBarrier();
    }
    let denominator = denominator_of(partials[0]);
    for (var j = lid; j < len; j += TREE_SIZE) {
        store(r, j, result(load(base, j), max, denominator));
    }
}
