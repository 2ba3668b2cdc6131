//! Arithmetic: add, sub, rsub, mul, div, pow and their scalar forms, and
//! tanh_backward.

use crate::Tensor;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::{positive, real};
use crate::ops::OpInfo;
use crate::ops::arith::{ArithOp, Domain, Scalar};

/// The family's rows: one per sample of each op without attributes, from
/// its row in the table ([`ArithOp::samples`]), then the forms with
/// attributes and Python numbers.
pub(super) fn cases() -> Vec<Case> {
    let plain = ArithOp::PLAIN.iter().flat_map(|op| {
        op.samples().iter().filter_map(move |domains| {
            let method = op.method()?;
            let inputs = domains
                .iter()
                .zip([&[2, 3][..], &[3]])
                .map(|(domain, shape)| match domain {
                    Domain::Positive => positive(shape),
                    _ => real(shape),
                })
                .collect();
            Some(Case::new(op.name(), inputs, move |t| method(&t[0], &t[1])))
        })
    });
    plain.chain(others()).collect()
}

/// The rows of ops with attributes or a Python number.
fn others() -> Vec<Case> {
    let number = Tensor::scalar;
    vec![
        Case::new("add", vec![real(&[2, 3]), real(&[3])], |t| t[0].add(&t[1])),
        Case::new("add (alpha=2)", vec![real(&[2, 3]), real(&[2, 1])], |t| {
            t[0].add_alpha(&t[1], Scalar::Int(2))
        }),
        Case::new("add (x + 1.5)", vec![real(&[2, 3])], move |t| {
            t[0].add(&number(1.5))
        }),
        Case::new("sub", vec![real(&[2, 3]), real(&[2, 1])], |t| {
            t[0].sub(&t[1])
        }),
        Case::new("rsub", vec![real(&[2, 3]), real(&[3])], |t| {
            t[0].rsub(&t[1])
        }),
        Case::new("rsub (2 - x)", vec![real(&[2, 3])], move |t| {
            t[0].rsub(&number(2.0))
        }),
        Case::new("mul (x * 3)", vec![real(&[2, 3])], move |t| {
            t[0].mul(&number(3.0))
        }),
        Case::new("div (x / 4)", vec![real(&[2, 3])], move |t| {
            t[0].div(&number(4.0))
        }),
        Case::new("pow", vec![positive(&[2, 3]), real(&[3])], |t| {
            t[0].pow(&t[1])
        }),
        Case::new("pow (x ** 2)", vec![real(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Int(2))
        }),
        Case::new("pow (x ** 2.5)", vec![positive(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Float(2.5))
        }),
        Case::new("pow (x ** -0.5)", vec![positive(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Float(-0.5))
        }),
        Case::new("pow (2 ** x)", vec![real(&[2, 3])], |t| {
            Tensor::scalar_pow(Scalar::Float(2.0), &t[0])
        }),
    ]
}
