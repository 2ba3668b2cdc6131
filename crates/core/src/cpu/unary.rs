//! Elementwise kernels: the strided maps every elementwise op runs through
//! (one, two or three operands into a contiguous result) and the scalar
//! maths PyTorch's kernels compute that `num_traits::Float` lacks.
//!
//! Each op calls a map with its own closure, so the closure is inlined into
//! the loop: no per-element dispatch, and dense operands take a straight
//! slice loop the compiler can vectorise.

use super::{Element, Float};
use crate::layout::Layout;

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
