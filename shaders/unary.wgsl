// Strided elementwise unary maths: out[i] = op(src[s(i)]), any layout into a
// contiguous output, float32.
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
// strided_metadata, packs it; the same header as copy.wgsl):
//
// | word         | field                                               |
// |--------------|-----------------------------------------------------|
// | 0            | op code (table below; crates/wgpu/src/unary.rs)     |
// | 1            | rank r (size-1 and dense runs already merged)       |
// | 2            | numel, elements of the output                       |
// | 3            | src offset, in elements                             |
// | 4            | parameter p0, f32 bit-cast to u32                   |
// | 5            | parameter p1, f32 bit-cast to u32                   |
// | 6 .. 6+r     | shape                                               |
// | 6+r .. 6+2r  | src strides, in elements, i32 bit-cast to u32       |
//
// Op codes: 0 neg, 1 exp, 2 log, 3 sqrt, 4 rsqrt, 5 abs, 6 sign, 7 sin,
// 8 cos, 9 tanh, 10 sigmoid, 11 relu, 12 gelu (erf), 13 gelu (tanh),
// 14 leaky_relu (p0 slope), 15 softplus (p0 beta, p1 threshold),
// 16 clamp (p0 min, p1 max; +-inf when absent), 17 round (half to even),
// 18 floor, 19 reciprocal, 20 erf, 21 log1p, 22 expm1, 23 log10, 24 log2,
// 25 angle.
//
// Special values follow PyTorch's CPU kernels and are handled explicitly,
// since WGSL leaves many builtins' NaN and infinity results to the
// implementation: NaN in gives NaN out except sign(NaN) = 0; relu keeps NaN
// and -0.0; clamp passes NaN through; log(0) = -inf, log(<0) = NaN;
// rsqrt(+-0) = +-inf; exp past 88.72 = inf.
//
// Dispatch: workgroups of 64 on a 2-D grid, as copy.wgsl.

const WORKGROUP_SIZE: u32 = 64u;
const HEADER: u32 = 6u;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> metadata: array<u32>;

const INF_BITS: u32 = 0x7f800000u;
const NAN_BITS: u32 = 0x7fc00000u;
const SIGN_BIT: u32 = 0x80000000u;

// Bit tests rather than comparisons: a compiler that assumes no NaN cannot
// fold them away.
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) > INF_BITS;
}

fn is_finite(x: f32) -> bool {
    return (bitcast<u32>(x) & ~SIGN_BIT) < INF_BITS;
}

// Infinity and NaN are made at run time from bit patterns held in private
// variables: WGSL's constant evaluation rejects non-finite values (Chromium's
// Tint refuses `bitcast<f32>(0x7f800000u)` outright), and a load from a
// variable is not a constant expression.
var<private> inf_bits: u32 = INF_BITS;
var<private> nan_bits: u32 = NAN_BITS;

fn inf() -> f32 {
    return bitcast<f32>(inf_bits);
}

fn nan() -> f32 {
    return bitcast<f32>(nan_bits);
}

// +inf with the sign bit of `s`.
fn signed_inf(s: f32) -> f32 {
    return bitcast<f32>(inf_bits | (bitcast<u32>(s) & SIGN_BIT));
}

fn exp_safe(x: f32) -> f32 {
    // exp(88.72284) is the largest finite float32; past it, inf.
    if x > 88.72284 {
        return inf();
    }
    return exp(x);
}

// log(1 + x) for any x; NaN below -1 and -inf at -1, as log's. Near 0 by
// its series: a GPU's log is held only to an absolute 2^-21 around 1
// (WGSL's bound; lavapipe's misses 1e-3 by 5e-5 relative), which a tiny
// log1p cannot afford. Elsewhere log(1 + x), corrected for the rounding of
// 1 + x by x / (u - 1) (Goldberg).
fn log1p_f32(x: f32) -> f32 {
    if is_nan(x) || x < -1.0 {
        return nan();
    }
    if x == -1.0 {
        return -inf();
    }
    if abs(x) < 0.1 {
        // x - x^2/2 + x^3/3 - ... + x^9/9: the next term is below 1e-10 of it.
        var p = 1.0 / 8.0 - x / 9.0;
        p = 1.0 / 7.0 - x * p;
        p = 1.0 / 6.0 - x * p;
        p = 1.0 / 5.0 - x * p;
        p = 1.0 / 4.0 - x * p;
        p = 1.0 / 3.0 - x * p;
        p = 0.5 - x * p;
        p = 1.0 - x * p;
        return x * p;
    }
    let u = 1.0 + x;
    if !is_finite(u) {
        return u;
    }
    return log(u) * (x / (u - 1.0));
}

// exp(x) - 1 without losing a small result: by its series where |x| < 0.5
// (exp is no more exact than log near 1), else exp(x) - 1, whose
// cancellation there costs at most a factor 2.5; -1 once exp(x) is 0.
fn expm1_f32(x: f32) -> f32 {
    if is_nan(x) {
        return x;
    }
    if abs(x) < 0.5 {
        // x + x^2/2! + ... + x^12/12!: the next term is below 1e-13 of it.
        var p = 1.0 + x / 12.0;
        p = 1.0 + x / 11.0 * p;
        p = 1.0 + x / 10.0 * p;
        p = 1.0 + x / 9.0 * p;
        p = 1.0 + x / 8.0 * p;
        p = 1.0 + x / 7.0 * p;
        p = 1.0 + x / 6.0 * p;
        p = 1.0 + x / 5.0 * p;
        p = 1.0 + x / 4.0 * p;
        p = 1.0 + x / 3.0 * p;
        p = 1.0 + x / 2.0 * p;
        return x * p;
    }
    return exp_safe(x) - 1.0;
}

// A logarithm of x where log's special cases hold, else `value` (computed
// by the caller): NaN below 0, -inf at 0, +inf at +inf.
fn log_special(x: f32, value: f32) -> f32 {
    if is_nan(x) || x < 0.0 {
        return nan();
    }
    if x == 0.0 {
        return -inf();
    }
    if !is_finite(x) {
        return x;
    }
    return value;
}

// log(x) in units of `scale` (1 for ln, 1 / ln 2 for log2, ...), to a few
// ulp also near x = 1, where the result is near 0: there a GPU's log and
// log2 are held only to an absolute 2^-21 (WGSL's bound), which on an
// NVIDIA H100 left log2(1.0000238) 0.3% off. x - 1 is exact there
// (Sterbenz), and log1p_f32 takes it by its series. Elsewhere `builtin`,
// the builtin's own value (log2 stays exact at powers of two).
fn log_scaled(x: f32, scale: f32, builtin: f32) -> f32 {
    if abs(x - 1.0) < 0.1 {
        return log1p_f32(x - 1.0) * scale;
    }
    return builtin;
}

// tanh without the overflow of sinh / cosh: past 10 it is +-1 in float32.
fn tanh_safe(x: f32) -> f32 {
    if is_nan(x) {
        return x;
    }
    if abs(x) > 10.0 {
        return sign(x);
    }
    return tanh(x);
}

// erf to about 2.4 ulp in float32 (checked against double-precision erf on
// 200,001 points in [-5, 5] by emulating these float32 steps):
// |x| < 1: x * P(x^2), P of degree 6 fitted to erf(x) / x;
// 1 <= |x| < 4: 1 - exp(-x^2) R(|x|), R of degree 11 in (|x| - 2.5) / 1.5
// fitted to erfc(x) exp(x^2); from 4 on, erfc is below half an ulp of 1.
fn erf_f32(x: f32) -> f32 {
    if is_nan(x) {
        return x;
    }
    let a = abs(x);
    if a < 1.0 {
        let s = a * a;
        var p = 7.898139e-05;
        p = p * s - 8.024335e-04;
        p = p * s + 5.1900516e-03;
        p = p * s - 2.6854808e-02;
        p = p * s + 1.1283612e-01;
        p = p * s - 3.761263e-01;
        p = p * s + 1.1283792;
        return x * p;
    }
    if a >= 4.0 {
        return sign(x);
    }
    let u = (a - 2.5) * (1.0 / 1.5);
    var r = -3.3179313e-05;
    r = r * u + 9.565895e-05;
    r = r * u - 1.5413163e-04;
    r = r * u + 3.69713e-04;
    r = r * u - 1.0070918e-03;
    r = r * u + 2.424293e-03;
    r = r * u - 5.571633e-03;
    r = r * u + 1.2484594e-02;
    r = r * u - 2.7004978e-02;
    r = r * u + 5.611089e-02;
    r = r * u - 1.1152104e-01;
    r = r * u + 2.1080635e-01;
    let erfc = exp(-(a * a)) * r;
    return sign(x) * (1.0 - erfc);
}

// sin and cos as Cephes' sinf and cosf compute them: reduction by pi/4 in
// three parts (exact for |x| up to 8192), then a minimax polynomial on
// [-pi/4, pi/4]; about 1 ulp there, on every implementation, where WGSL's
// builtins promise only 2^-11 absolute inside [-pi, pi]. Past 8192 the
// reduction loses digits and the builtin is used as is.
fn sin_poly(x: f32, z: f32) -> f32 {
    return ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * x + x;
}

fn cos_poly(z: f32) -> f32 {
    let y = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z;
    return y - 0.5 * z + 1.0;
}

// The octant j (made even, as Cephes does) and x reduced by j * pi/4, for x >= 0.
fn reduce_quarter_pi(a: f32) -> vec2<f32> {
    var j = u32(a * 1.2732395447351628);
    var y = f32(j);
    if (j & 1u) == 1u {
        j += 1u;
        y += 1.0;
    }
    let r = ((a - y * 0.78515625) - y * 2.4187564849853515625e-4) - y * 3.77489497744594108e-8;
    return vec2<f32>(f32(j & 7u), r);
}

fn sin_f32(x: f32) -> f32 {
    let a = abs(x);
    if a > 8192.0 {
        return sin(x);
    }
    let reduced = reduce_quarter_pi(a);
    var j = u32(reduced.x);
    let r = reduced.y;
    var negative = x < 0.0;
    if j > 3u {
        negative = !negative;
        j -= 4u;
    }
    let z = r * r;
    var y = sin_poly(r, z);
    if j == 2u {
        y = cos_poly(z);
    }
    return select(y, -y, negative);
}

fn cos_f32(x: f32) -> f32 {
    let a = abs(x);
    if a > 8192.0 {
        return cos(x);
    }
    let reduced = reduce_quarter_pi(a);
    var j = u32(reduced.x);
    let r = reduced.y;
    var negative = false;
    if j > 3u {
        negative = !negative;
        j -= 4u;
    }
    if j > 1u {
        negative = !negative;
    }
    let z = r * r;
    var y = cos_poly(z);
    if j == 2u {
        y = sin_poly(r, z);
    }
    return select(y, -y, negative);
}

fn apply(op: u32, x: f32, p0: f32, p1: f32) -> f32 {
    switch op {
        case 0u: {
            return -x;
        }
        case 1u: {
            if is_nan(x) {
                return x;
            }
            return exp_safe(x);
        }
        case 2u: {
            return log_special(x, log_scaled(x, 1.0, log(x)));
        }
        case 3u: {
            if is_nan(x) || x < 0.0 {
                return nan();
            }
            if !is_finite(x) {
                return x;
            }
            return sqrt(x);
        }
        case 4u: {
            if is_nan(x) || x < 0.0 {
                return nan();
            }
            if x == 0.0 {
                return signed_inf(x);
            }
            if !is_finite(x) {
                return 0.0;
            }
            return 1.0 / sqrt(x);
        }
        case 5u: {
            return bitcast<f32>(bitcast<u32>(x) & ~SIGN_BIT);
        }
        case 6u: {
            // (0 < x) - (x < 0): 0 for zeros and NaN.
            return select(0.0, 1.0, x > 0.0) - select(0.0, 1.0, x < 0.0);
        }
        case 7u: {
            if !is_finite(x) {
                return nan();
            }
            return sin_f32(x);
        }
        case 8u: {
            if !is_finite(x) {
                return nan();
            }
            return cos_f32(x);
        }
        case 9u: {
            return tanh_safe(x);
        }
        case 10u: {
            if is_nan(x) {
                return x;
            }
            return 1.0 / (1.0 + exp_safe(-x));
        }
        case 11u: {
            // NaN passes through, tested by its bits: an NVIDIA H100's
            // driver made the select below a max, and max(NaN, 0) is 0.
            // x < 0 is false for -0.0, which passes through.
            if is_nan(x) {
                return x;
            }
            return select(x, 0.0, x < 0.0);
        }
        case 12u: {
            return x * 0.5 * (1.0 + erf_f32(x * 0.70710677));
        }
        case 13u: {
            let inner = 0.7978846 * (x + 0.044715 * x * x * x);
            return 0.5 * x * (1.0 + tanh_safe(inner));
        }
        case 14u: {
            return select(x * p0, x, x > 0.0);
        }
        case 15u: {
            if is_nan(x) {
                return x;
            }
            if x * p0 > p1 {
                return x;
            }
            return log1p_f32(exp_safe(x * p0)) / p0;
        }
        case 16u: {
            if is_nan(x) {
                return x;
            }
            return min(max(x, p0), p1);
        }
        case 17u: {
            if !is_finite(x) {
                return x;
            }
            // WGSL's round breaks ties to even, as PyTorch's does.
            return round(x);
        }
        case 18u: {
            if !is_finite(x) {
                return x;
            }
            return floor(x);
        }
        case 19u: {
            if x == 0.0 {
                return signed_inf(x);
            }
            return 1.0 / x;
        }
        case 20u: {
            return erf_f32(x);
        }
        case 21u: {
            return log1p_f32(x);
        }
        case 22u: {
            return expm1_f32(x);
        }
        case 23u: {
            // log10(2) * log2(x): log2 is exact at powers of two.
            return log_special(x, log_scaled(x, 0.43429448190325182, log2(x) * 0.30102999566398120));
        }
        case 24u: {
            return log_special(x, log_scaled(x, 1.4426950408889634, log2(x)));
        }
        case 25u: {
            // pi below zero (-inf too), 0 for -0.0 and above, NaN kept.
            if is_nan(x) {
                return x;
            }
            return select(0.0, 3.14159265358979, x < 0.0);
        }
        default: {
            return nan();
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn unary_strided(
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
        let p0 = bitcast<f32>(metadata[4]);
        let p1 = bitcast<f32>(metadata[5]);
        out[index] = apply(metadata[0], src[at], p0, p1);
    }
}
