//! The unary rows, one per [`UnaryOp::ALL`] entry.

use crate::Op;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::{FLOAT32_EPS, Input, Values, avoiding, positive, real};
use crate::ops::UnaryOp;
use crate::ops::arith::Scalar;

/// The unary row for `op`: inputs clear of its kinks and jumps, in its
/// domain.
pub fn unary_case(op: UnaryOp) -> Case {
    let shape = [2, 3];
    let (input, eps) = match op {
        UnaryOp::Log
        | UnaryOp::Sqrt
        | UnaryOp::Rsqrt
        | UnaryOp::Log1p
        | UnaryOp::Log10
        | UnaryOp::Log2 => (positive(&shape), None),
        UnaryOp::Round => (avoiding(&shape, &[-1.5, -0.5, 0.5, 1.5]), None),
        UnaryOp::Floor => (avoiding(&shape, &[-1.0, 0.0, 1.0]), None),
        UnaryOp::Clamp { min, max } => {
            let bounds: Vec<f64> = min.into_iter().chain(max).map(Scalar::to_f64).collect();
            (avoiding(&shape, &bounds), None)
        }
        UnaryOp::ClampMin(bound) | UnaryOp::ClampMax(bound) => {
            (avoiding(&shape, &[bound.to_f64()]), None)
        }
        UnaryOp::Softplus { beta, threshold } => (avoiding(&shape, &[0.0, threshold / beta]), None),
        UnaryOp::ToDtype { .. } => (
            Input {
                shape: shape.to_vec(),
                values: Values::Float32Exact,
            },
            Some(FLOAT32_EPS),
        ),
        UnaryOp::Neg
        | UnaryOp::Exp
        | UnaryOp::Abs
        | UnaryOp::Sign
        | UnaryOp::Sin
        | UnaryOp::Cos
        | UnaryOp::Tanh
        | UnaryOp::Sigmoid
        | UnaryOp::Relu
        | UnaryOp::Gelu(_)
        | UnaryOp::LeakyRelu { .. }
        | UnaryOp::Reciprocal
        | UnaryOp::Erf
        | UnaryOp::Expm1
        | UnaryOp::ToDevice { .. } => (real(&shape), None),
    };
    let name = match op {
        UnaryOp::Gelu(crate::ops::unary::GeluApproximate::Tanh) => {
            "gelu (approximate='tanh')".to_string()
        }
        UnaryOp::ToDtype { from, to } => {
            format!("to (float64 -> {} -> {})", from.name(), to.name())
        }
        _ => Op::Unary(op).name().to_string(),
    };
    Case::new(name, vec![input], move |t| op.call(&t[0])).with_eps(eps)
}
