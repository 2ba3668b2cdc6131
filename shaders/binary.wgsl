// Strided elementwise binary kernels with broadcasting: out[i] = op(lhs[l(i)], rhs[r(i)]).
//
// Both operands are read through layouts already broadcast to the output
// shape (a broadcast dimension has stride 0); the output is contiguous.
//
// Bindings, group 0:
//
// | binding | name     | type                                  |
// |---------|----------|---------------------------------------|
// | 0       | lhs      | array<f32>, storage, read             |
// | 1       | rhs      | array<f32>, storage, read             |
// | 2       | out      | array<f32>, storage, read_write       |
// | 3       | metadata | array<u32>, storage, read (see below) |
//
// Metadata layout, in u32 words, with r = rank (crates/wgpu/src/binary.rs packs it):
//
// | word             | field                                               |
// |------------------|-----------------------------------------------------|
// | 0                | op code: 0 add, 1 sub, 2 mul, 3 div, 10 pow,        |
// |                  | 11 maximum, 12 minimum, 13 tanh_backward, 14 hypot  |
// |                  | (BinaryOp::code); 4 eq, 5 ne, 6 lt, 7 le, 8 gt,     |
// |                  | 9 ge (CompareKernel::code)                          |
// | 1                | rank r                                              |
// | 2                | numel, elements of the output                       |
// | 3                | lhs offset, in elements                             |
// | 4                | rhs offset, in elements                             |
// | 5 .. 5+r         | shape                                               |
// | 5+r .. 5+2r      | lhs strides, in elements, i32 bit-cast to u32       |
// | 5+2r .. 5+3r     | rhs strides, in elements, i32 bit-cast to u32       |
//
// Comparisons write 1.0 where they hold and 0.0 elsewhere (a bool mask as
// float32); NaN compares unequal to everything, so only `ne` holds for it.
//
// Strides are signed so that flipped views need no copy; 0 means broadcast.
//
// Neighbouring dimensions that are dense in both operands arrive merged.
//
// Dispatch: workgroups of 64 on a 2-D grid, because one grid dimension holds at
// most 65535 workgroups. The host sends x = min(groups, limit) and enough rows y;
// invocation (gx, gy) handles element gy * x * 64 + gx, and those past numel return.

const WORKGROUP_SIZE: u32 = 64u;

const OP_ADD: u32 = 0u;
const OP_SUB: u32 = 1u;
const OP_MUL: u32 = 2u;
const OP_DIV: u32 = 3u;
const OP_EQ: u32 = 4u;
const OP_NE: u32 = 5u;
const OP_LT: u32 = 6u;
const OP_LE: u32 = 7u;
const OP_GT: u32 = 8u;
const OP_GE: u32 = 9u;
const OP_POW: u32 = 10u;
const OP_MAXIMUM: u32 = 11u;
const OP_MINIMUM: u32 = 12u;
const OP_TANH_BACKWARD: u32 = 13u;
const OP_HYPOT: u32 = 14u;

// Header words before the per-dimension arrays.
const HEADER: u32 = 5u;

@group(0) @binding(0) var<storage, read> lhs: array<f32>;
@group(0) @binding(1) var<storage, read> rhs: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> metadata: array<u32>;

fn apply(op: u32, a: f32, b: f32) -> f32 {
    switch op {
        case OP_ADD: {
            return a + b;
        }
        case OP_SUB: {
            return a - b;
        }
        case OP_MUL: {
            return a * b;
        }
        case OP_POW: {
            return pow_c(a, b);
        }
        // NaN wins either way, as PyTorch's maximum and minimum.
        case OP_MAXIMUM: {
            return select(b, a, is_nan(a) || (!is_nan(b) && a >= b));
        }
        case OP_MINIMUM: {
            return select(b, a, is_nan(a) || (!is_nan(b) && a <= b));
        }
        // grad * (1 - y * y), `1 - y * y` rounded once as PyTorch's CPU
        // kernel's fused multiply-add rounds it.
        case OP_TANH_BACKWARD: {
            return fma(-b, b, 1.0) * a;
        }
        case OP_HYPOT: {
            return hypot_c(a, b);
        }
        case OP_EQ: {
            return mask(ordered(a, b) && a == b);
        }
        case OP_NE: {
            return mask(!ordered(a, b) || a != b);
        }
        case OP_LT: {
            return mask(ordered(a, b) && a < b);
        }
        case OP_LE: {
            return mask(ordered(a, b) && a <= b);
        }
        case OP_GT: {
            return mask(ordered(a, b) && a > b);
        }
        case OP_GE: {
            return mask(ordered(a, b) && a >= b);
        }
        case OP_DIV, default: {
            return a / b;
        }
    }
}

const INF_BITS: u32 = 0x7f800000u;
const SIGN_BIT: u32 = 0x80000000u;

// A bit test rather than a comparison: a compiler that assumes no NaN
// cannot fold it away.
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) > INF_BITS;
}

// Whether neither operand is NaN; comparisons test it explicitly rather
// than trust the implementation's NaN comparisons.
fn ordered(a: f32, b: f32) -> bool {
    return !is_nan(a) && !is_nan(b);
}

// C's hypot: the larger magnitude times sqrt(1 + r * r), r the ratio of
// the smaller to it, so no square overflows; infinity wins over NaN.
fn hypot_c(a: f32, b: f32) -> f32 {
    let x = abs(a);
    let y = abs(b);
    if is_inf(x) || is_inf(y) {
        return bitcast<f32>(inf_bits);
    }
    if is_nan(x) || is_nan(y) {
        return bitcast<f32>(nan_bits);
    }
    let big = max(x, y);
    if big == 0.0 {
        return 0.0;
    }
    let r = min(x, y) / big;
    return big * sqrt(1.0 + r * r);
}

fn is_inf(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) == INF_BITS;
}

// Infinity and NaN from bit patterns in private variables: WGSL's constant
// evaluation rejects non-finite values, and a load is not a constant.
var<private> inf_bits: u32 = INF_BITS;
var<private> nan_bits: u32 = 0x7fc00000u;

// A positive finite base to a small integer power by repeated squaring:
// exact wherever the power is representable (x ** 1 is x, 3 ** 4 is 81),
// which exp2(b * log2(a)) is not.
fn int_pow(a: f32, b: f32) -> f32 {
    var result = 1.0;
    var base = a;
    var e = u32(abs(b));
    while e > 0u {
        if (e & 1u) == 1u {
            result *= base;
        }
        base *= base;
        e = e >> 1u;
    }
    if b < 0.0 {
        return 1.0 / result;
    }
    return result;
}

// C's powf (what the CPU computes), case by case where WGSL's pow, which
// is exp2(b * log2(a)), leaves the result undefined: a <= 0, a infinite,
// b infinite or NaN.
fn pow_c(a: f32, b: f32) -> f32 {
    let inf = bitcast<f32>(inf_bits);
    let nan = bitcast<f32>(nan_bits);
    if b == 0.0 || a == 1.0 {
        return 1.0;
    }
    if is_nan(a) || is_nan(b) {
        return nan;
    }
    let size = abs(a);
    if abs(b) == inf {
        if size == 1.0 {
            return 1.0;
        }
        return select(0.0, inf, (size > 1.0) == (b > 0.0));
    }
    let integer = floor(b) == b;
    // An odd integer exponent keeps the base's sign (below 2^24 every
    // float32 integer is exact, above it every one is even).
    let odd = integer && abs(b) < 16777216.0 && (i32(abs(b)) & 1) == 1;
    let negative = (bitcast<u32>(a) & SIGN_BIT) != 0u;
    var magnitude: f32;
    if size == 0.0 {
        magnitude = select(inf, 0.0, b > 0.0);
    } else if size == inf {
        magnitude = select(0.0, inf, b > 0.0);
    } else if negative && !integer {
        return nan;
    } else if integer && abs(b) <= 64.0 {
        magnitude = int_pow(size, b);
    } else {
        magnitude = pow(size, b);
    }
    if negative && odd {
        return -magnitude;
    }
    return magnitude;
}

fn mask(holds: bool) -> f32 {
    return select(0.0, 1.0, holds);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_strided(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    let numel = metadata[2];
    if index >= numel {
        return;
    }
    let rank = metadata[1];

    // Walk the dimensions innermost first, peeling one coordinate off the
    // row-major output index each time.
    var rest = index;
    var l = i32(metadata[3]);
    var r = i32(metadata[4]);
    for (var k = rank; k > 0u; k--) {
        let d = k - 1u;
        let size = metadata[HEADER + d];
        let coord = i32(rest % size);
        rest = rest / size;
        l += coord * bitcast<i32>(metadata[HEADER + rank + d]);
        r += coord * bitcast<i32>(metadata[HEADER + 2u * rank + d]);
    }
    // The host checked both layouts against their buffers; the kernel checks
    // again rather than rely on WebGPU's robust-access clamping.
    let li = u32(l);
    let ri = u32(r);
    if li < arrayLength(&lhs) && ri < arrayLength(&rhs) {
        out[index] = apply(metadata[0], lhs[li], rhs[ri]);
    }
}
