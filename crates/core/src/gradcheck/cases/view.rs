//! Views and copies: expand, view, reshape, transposes, squeezes, slices,
//! diagonals, and the backward ops of slice, select and diagonal.

use super::first_grad;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::real;

/// The family's rows.
pub(super) fn cases() -> Vec<Case> {
    let x = || vec![real(&[2, 3])];
    vec![
        Case::new("expand", vec![real(&[1, 3])], |t| t[0].expand(&[2, 3])),
        Case::new("view", x(), |t| t[0].view(&[3, 2])),
        Case::new("reshape (of a strided view)", vec![real(&[4, 3])], |t| {
            t[0].slice(0, None, None, 2)?.reshape(&[2, 3, 1])
        }),
        Case::new("reshape (of a transpose: a copy)", x(), |t| {
            t[0].t()?.reshape(&[6])
        }),
        Case::new("alias (x[...])", x(), |t| t[0].alias()),
        Case::new("clone", x(), |t| t[0].clone_tensor()),
        Case::new("contiguous", x(), |t| t[0].t()?.contiguous()),
        Case::new("transpose", vec![real(&[2, 3, 4])], |t| {
            t[0].transpose(0, 2)
        }),
        Case::new("t", x(), |t| t[0].t()),
        Case::new("permute", vec![real(&[2, 3, 4])], |t| {
            t[0].permute(&[2, 0, 1])
        }),
        Case::new("squeeze", vec![real(&[2, 1, 3])], |t| t[0].squeeze()),
        Case::new("squeeze (dim=1)", vec![real(&[2, 1, 3])], |t| {
            t[0].squeeze_dim(1)
        }),
        Case::new("squeeze (dims=[1, 3])", vec![real(&[2, 1, 3, 1])], |t| {
            t[0].squeeze_dims(&[1, 3])
        }),
        Case::new("unsqueeze", x(), |t| t[0].unsqueeze(1)),
        Case::new("unsqueeze_ (of a non-leaf)", x(), |t| {
            t[0].mul(&crate::Tensor::scalar(1.0))?
                .view_inplace(crate::ops::ViewOp::Unsqueeze(1))
        }),
        Case::new("slice (x[:, 1:5:2])", vec![real(&[2, 5])], |t| {
            t[0].slice(1, Some(1), Some(5), 2)
        }),
        Case::new("select (x[:, 2])", x(), |t| t[0].select(1, 2)),
        Case::new(
            "slice_backward (double backward)",
            vec![real(&[2, 5])],
            |t| first_grad(&t[0], |x| x.slice(1, Some(1), Some(5), 2)),
        ),
        Case::new("select_backward (double backward)", x(), |t| {
            first_grad(&t[0], |x| x.select(1, 2))
        }),
        Case::new("diagonal (offset=1)", vec![real(&[3, 4])], |t| {
            t[0].diagonal(1, 0, 1)
        }),
        Case::new("diagonal (dims 2, 0)", vec![real(&[3, 2, 3])], |t| {
            t[0].diagonal(-1, 2, 0)
        }),
        Case::new(
            "diagonal_backward (double backward)",
            vec![real(&[3, 4])],
            |t| first_grad(&t[0], |x| x.diagonal(1, 0, 1)),
        ),
    ]
}
