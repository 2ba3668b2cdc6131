//! Elementwise kernels: the strided maps every elementwise op runs through
//! (one, two or three operands into a contiguous result) and the scalar
//! maths PyTorch's kernels compute that `num_traits::Float` lacks.
//!
//! Each op calls a map with its own closure, so the closure is inlined into
//! the loop: no per-element dispatch, and dense operands take a straight
//! slice loop the compiler can vectorise.

use super::{CpuBuffer, Element, Float};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::arith::Scalar;
use crate::ops::unary::GeluApproximate;
use crate::ops::{Op, UnaryOp};

pub(crate) use super::binary::{map as map2, map3};

/// `f` over a strided operand into a contiguous result.
pub(crate) fn map<A: Element, O>(data: &[A], layout: &Layout, f: impl Fn(A) -> O) -> Vec<O> {
    let start = layout.offset();
    let dense = layout
        .is_contiguous()
        .then(|| data.get(start..start + layout.numel()));
    match dense.flatten() {
        Some(dense) => dense.iter().map(|&a| f(a)).collect(),
        None => layout.indices().map(|i| f(data[i])).collect(),
    }
}

fn constant<T: Float>(v: f64) -> T {
    T::from_f64(v)
}

/// Rounds half to even, as PyTorch's `round` (C's `nearbyint`) does.
#[inline]
pub(crate) fn round_half_even<T: Float>(x: T) -> T {
    let r = x.round();
    if (r - x).abs() == constant(0.5) {
        // A tie rounded away from zero: step back toward zero to the even neighbour.
        let two = constant::<T>(2.0);
        (x / two).round() * two
    } else {
        r
    }
}

/// PyTorch's `sign`: 0 for zeros and NaN (`(0 < x) - (x < 0)`), unlike `signum`.
#[inline]
pub(crate) fn sign<T: Float>(x: T) -> T {
    let zero = T::zero();
    match (zero < x, x < zero) {
        (true, _) => T::one(),
        (_, true) => -T::one(),
        _ => zero,
    }
}

/// PyTorch's `sigmoid`: `1 / (1 + exp(-x))`, which saturates cleanly at both ends.
#[inline]
pub(crate) fn sigmoid<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

/// PyTorch's `softplus`: `log1p(exp(beta x)) / beta`, or `x` once `beta x`
/// passes `threshold`.
#[inline]
pub(crate) fn softplus<T: Float>(x: T, beta: T, threshold: T) -> T {
    if x * beta > threshold {
        x
    } else {
        (x * beta).exp().ln_1p() / beta
    }
}

/// PyTorch's exact `gelu`: `x/2 (1 + erf(x / sqrt 2))`.
#[inline]
pub(crate) fn gelu<T: Float>(x: T) -> T {
    let half = constant::<T>(0.5);
    x * half * (T::one() + erf(x * constant(std::f64::consts::FRAC_1_SQRT_2)))
}

/// PyTorch's `gelu(approximate='tanh')`.
#[inline]
pub(crate) fn gelu_tanh<T: Float>(x: T) -> T {
    let beta = constant::<T>(std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5);
    let kappa = constant::<T>(0.044715);
    let inner = beta * (x + kappa * x * x * x);
    constant::<T>(0.5) * x * (T::one() + inner.tanh())
}

/// `x ** exponent` over a tensor as PyTorch's `pow(Tensor, Scalar)` kernel
/// computes it: the common exponents take exact shortcuts (`x * x`, `sqrt`),
/// the others `powf`. The exponent is matched once, not per element.
pub(crate) fn pow_scalar<T: Float>(data: &[T], layout: &Layout, exponent: f64) -> Vec<T> {
    let one = T::one();
    match exponent {
        0.5 => map(data, layout, |x| x.sqrt()),
        2.0 => map(data, layout, |x| x * x),
        3.0 => map(data, layout, |x| x * x * x),
        -0.5 => map(data, layout, |x| one / x.sqrt()),
        -1.0 => map(data, layout, |x| one / x),
        -2.0 => map(data, layout, |x| one / (x * x)),
        _ => {
            let e = T::from_f64(exponent);
            map(data, layout, |x| x.powf(e))
        }
    }
}

/// Integer power as PyTorch's `powi`: negative exponents give 0 except for
/// bases 1 and -1; overflow wraps.
#[inline]
pub(crate) fn powi(base: i64, exponent: i64) -> i64 {
    if exponent < 0 {
        return match base {
            1 => 1,
            -1 if exponent % 2 != 0 => -1,
            -1 => 1,
            _ => 0,
        };
    }
    let (mut result, mut b, mut e) = (1i64, base, exponent);
    while e > 0 {
        if e & 1 == 1 {
            result = result.wrapping_mul(b);
        }
        b = b.wrapping_mul(b);
        e >>= 1;
    }
    result
}

/// The error function, computed in `f64` for either float type.
#[inline]
pub(crate) fn erf<T: Float>(x: T) -> T {
    T::from_f64(erf_f64(Element::to_f64(x)))
}

/// `erf(x)` to within a few ulps: for |x| < 2.5 the series
/// `2/sqrt(pi) exp(-x^2) sum (2x^2)^n x / (1*3*...*(2n+1))`, whose terms are
/// all positive so nothing cancels; beyond, `1 - erfc(x)` from erfc's
/// continued fraction, which converges quickly there; past 6, `erfc` is below
/// half an ulp of 1.
pub(crate) fn erf_f64(x: f64) -> f64 {
    let a = x.abs();
    if x.is_nan() {
        return x;
    }
    let magnitude = if a < 2.5 {
        let two_x2 = 2.0 * a * a;
        let (mut term, mut sum, mut n) = (a, a, 0.0);
        while term > sum * 1e-17 {
            n += 1.0;
            term *= two_x2 / (2.0 * n + 1.0);
            sum += term;
        }
        std::f64::consts::FRAC_2_SQRT_PI * (-a * a).exp() * sum
    } else if a < 6.0 {
        // erfc(a) = exp(-a^2) / sqrt(pi) / (a + (1/2)/(a + (2/2)/(a + (3/2)/(a + ...))))
        let mut f = a;
        for k in (1..=60).rev() {
            f = a + f64::from(k) * 0.5 / f;
        }
        let erfc = (-a * a).exp() / (std::f64::consts::PI.sqrt() * f);
        1.0 - erfc
    } else {
        1.0
    };
    magnitude.copysign(x)
}

/// `op` on each element `l` selects from `data`, whose dtype is already
/// the op's result dtype: the host's unary kernels
/// ([`crate::kernels`]'s `Host`), one `match` per element type.
pub(crate) fn unary(op: &UnaryOp, data: &CpuBuffer, l: &Layout, dtype: DType) -> Result<CpuBuffer> {
    Ok(match data {
        CpuBuffer::F32(d) => CpuBuffer::F32(float(op, d, l)),
        CpuBuffer::F64(d) => CpuBuffer::F64(float(op, d, l)),
        // bfloat16 computes in float32 and rounds back, as PyTorch's CPU kernels do.
        CpuBuffer::BF16(_) => {
            let CpuBuffer::F32(wide) = data.gather_as(l, DType::Float32) else {
                return Err(no_kernel(op, dtype));
            };
            let out = float(op, &wide, &Layout::contiguous(l.shape()));
            CpuBuffer::F32(out).into_dtype(DType::BFloat16)
        }
        CpuBuffer::U8(_)
        | CpuBuffer::I8(_)
        | CpuBuffer::I16(_)
        | CpuBuffer::I32(_)
        | CpuBuffer::I64(_) => super::via_i64(data, l, |d, l| int(op, d, l, dtype))?,
        CpuBuffer::Bool(d) => match op {
            // sign(True) is True: the only op that keeps bool.
            UnaryOp::Sign => CpuBuffer::Bool(map(d, l, |v| v)),
            _ => return Err(no_kernel(op, dtype)),
        },
    })
}

fn no_kernel(op: &UnaryOp, dtype: DType) -> Error {
    Error::Backend(format!(
        "internal error: no {} kernel for {dtype}",
        Op::Unary(*op).name()
    ))
}

/// The unary ops on floats: an op's CPU kernel is its arm here.
fn float<T: Float>(op: &UnaryOp, d: &[T], l: &Layout) -> Vec<T> {
    let t = |v: f64| T::from_f64(v);
    let bound = |s: Option<Scalar>, default: f64| t(s.map_or(default, Scalar::to_f64));
    match *op {
        UnaryOp::Neg => map(d, l, |x| -x),
        UnaryOp::Exp => map(d, l, |x| x.exp()),
        UnaryOp::Log => map(d, l, |x| x.ln()),
        UnaryOp::Sqrt => map(d, l, |x| x.sqrt()),
        UnaryOp::Rsqrt => map(d, l, |x| T::one() / x.sqrt()),
        UnaryOp::Abs => map(d, l, |x| x.abs()),
        UnaryOp::Sign => map(d, l, sign),
        UnaryOp::Sin => map(d, l, |x| x.sin()),
        UnaryOp::Cos => map(d, l, |x| x.cos()),
        UnaryOp::Tanh => map(d, l, |x| x.tanh()),
        UnaryOp::Sigmoid => map(d, l, sigmoid),
        // `x < 0` keeps NaN and -0.0 as they are, as PyTorch's relu does.
        UnaryOp::Relu => map(d, l, |x| if x < T::zero() { T::zero() } else { x }),
        UnaryOp::Gelu(GeluApproximate::None) => map(d, l, gelu),
        UnaryOp::Gelu(GeluApproximate::Tanh) => map(d, l, gelu_tanh),
        UnaryOp::LeakyRelu { negative_slope } => {
            let slope = t(negative_slope);
            map(d, l, |x| if x > T::zero() { x } else { x * slope })
        }
        UnaryOp::Softplus { beta, threshold } => {
            let (beta, threshold) = (t(beta), t(threshold));
            map(d, l, |x| softplus(x, beta, threshold))
        }
        UnaryOp::Clamp { min, max } => {
            let (lo, hi) = (bound(min, f64::NEG_INFINITY), bound(max, f64::INFINITY));
            // min(max(x, lo), hi), NaN passing through.
            map(d, l, |x| if x.is_nan() { x } else { x.max(lo).min(hi) })
        }
        UnaryOp::ClampMin(lo) => {
            let lo = t(lo.to_f64());
            map(d, l, |x| if x.is_nan() { x } else { x.max(lo) })
        }
        UnaryOp::ClampMax(hi) => {
            let hi = t(hi.to_f64());
            map(d, l, |x| if x.is_nan() { x } else { x.min(hi) })
        }
        UnaryOp::Round => map(d, l, round_half_even),
        UnaryOp::Floor => map(d, l, |x| x.floor()),
        UnaryOp::Reciprocal => map(d, l, |x| T::one() / x),
        UnaryOp::Erf => map(d, l, erf),
        UnaryOp::Log1p => map(d, l, |x| x.ln_1p()),
        UnaryOp::Expm1 => map(d, l, |x| x.exp_m1()),
        UnaryOp::Log10 => map(d, l, |x| x.log10()),
        UnaryOp::Log2 => map(d, l, |x| x.log2()),
        UnaryOp::Angle => {
            let pi = t(std::f64::consts::PI);
            map(d, l, |x| match x {
                x if x.is_nan() => x,
                x if x < T::zero() => pi,
                _ => T::zero(),
            })
        }
        UnaryOp::ToDtype { .. } | UnaryOp::ToDevice { .. } => map(d, l, |x| x),
    }
}

fn int(op: &UnaryOp, d: &[i64], l: &Layout, dtype: DType) -> Result<Vec<i64>> {
    Ok(match *op {
        UnaryOp::Neg => map(d, l, i64::wrapping_neg),
        UnaryOp::Abs => map(d, l, i64::wrapping_abs),
        UnaryOp::Sign => map(d, l, i64::signum),
        UnaryOp::Relu => map(d, l, |x| x.max(0)),
        UnaryOp::Round | UnaryOp::Floor => map(d, l, |x| x),
        UnaryOp::Clamp { min, max } => {
            let lo = min.map_or(i64::MIN, Scalar::to_i64);
            let hi = max.map_or(i64::MAX, Scalar::to_i64);
            map(d, l, |x| x.max(lo).min(hi))
        }
        UnaryOp::ClampMin(lo) => map(d, l, |x| x.max(lo.to_i64())),
        UnaryOp::ClampMax(hi) => map(d, l, |x| x.min(hi.to_i64())),
        _ => return Err(no_kernel(op, dtype)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Values from CPython's `math.erf` (the C library's, within an ulp).
        let known = [
            (0.0, 0.0),
            (1e-10, 1.1283791670955126e-10),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (2.4999, 0.9995928300996666),
            (2.5, 0.999593047982555),
            (3.0, 0.9999779095030014),
            (5.0, 0.9999999999984626),
        ];
        for (x, want) in known {
            let got = erf_f64(x);
            assert!(
                (got - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1e-300),
                "erf({x}) = {got}, want {want}"
            );
            assert_eq!(erf_f64(-x), -got);
        }
        assert_eq!(erf_f64(f64::INFINITY), 1.0);
        assert!(erf_f64(f64::NAN).is_nan());
    }

    #[test]
    fn round_half_even_ties() {
        let got: Vec<f64> = [0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6]
            .map(round_half_even)
            .to_vec();
        assert_eq!(got, vec![0.0, 2.0, 2.0, -0.0, -2.0, 2.0, -3.0]);
    }

    #[test]
    fn powi_negative_exponents() {
        assert_eq!(
            [
                powi(-1, -3),
                powi(1, -3),
                powi(2, -3),
                powi(-1, -2),
                powi(3, 4)
            ],
            [-1, 1, 0, 1, 81]
        );
    }
}
