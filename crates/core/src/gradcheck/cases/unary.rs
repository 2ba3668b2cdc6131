//! The unary rows, one per [`UnaryOp::ALL`] entry.

use crate::Op;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::{FLOAT32_EPS, Input, Values, avoiding, positive, real};
use crate::ops::UnaryOp;
use crate::ops::arith::Scalar;
use crate::ops::unary::Domain;

/// The unary row for `op`: inputs clear of its kinks and jumps, in its
/// domain, as its row in the table says ([`UnaryOp::domain`]).
pub fn unary_case(op: UnaryOp) -> Case {
    let shape = [2, 3];
    let (input, eps) = match op.domain() {
        Domain::Real => (real(&shape), None),
        Domain::Positive => (positive(&shape), None),
        Domain::Avoiding(points) => (avoiding(&shape, points), None),
        Domain::Attributes => match op {
            UnaryOp::Clamp { min, max } => {
                let bounds: Vec<f64> = min.into_iter().chain(max).map(Scalar::to_f64).collect();
                (avoiding(&shape, &bounds), None)
            }
            UnaryOp::ClampMin(bound) | UnaryOp::ClampMax(bound) => {
                (avoiding(&shape, &[bound.to_f64()]), None)
            }
            UnaryOp::Softplus { beta, threshold } => {
                (avoiding(&shape, &[0.0, threshold / beta]), None)
            }
            UnaryOp::ToDtype { .. } => (
                Input {
                    shape: shape.to_vec(),
                    values: Values::Float32Exact,
                },
                Some(FLOAT32_EPS),
            ),
            _ => (real(&shape), None),
        },
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
