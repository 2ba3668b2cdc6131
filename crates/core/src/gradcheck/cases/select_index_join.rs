//! Selection (maximum, where, clamp by tensors), indexing, gather and
//! scatter, and joining and splitting.

use super::{ints, last};
use crate::Tensor;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::real;
use crate::ops::view_index::TensorIndex;

/// The family's rows.
pub(super) fn cases() -> Vec<Case> {
    let two = || vec![real(&[2, 3]), real(&[3])];
    vec![
        Case::new("maximum", two(), |t| t[0].maximum(&t[1])),
        Case::new("minimum", two(), |t| t[0].minimum(&t[1])),
        Case::new("where", two(), |t| {
            let condition = Tensor::from_vec(vec![true, false, true, false, false, true], &[2, 3])?;
            t[0].where_cond(&condition, &t[1])
        }),
        Case::new("clamp_min (tensor)", two(), |t| {
            t[0].clamp_min_tensor(&t[1])
        }),
        Case::new("clamp_max (tensor)", two(), |t| {
            t[0].clamp_max_tensor(&t[1])
        }),
        Case::new("clamp (tensors)", vec![real(&[2, 3]), real(&[3])], |t| {
            // The upper bound lies 0.5 above the lower one.
            let upper = t[1].add(&Tensor::scalar(0.5))?;
            t[0].clamp_tensor(Some(&t[1]), Some(&upper))
        }),
        Case::new("index (x[idx])", vec![real(&[4, 3])], |t| {
            t[0].index(&[TensorIndex::Tensor(ints(&[2, 0, 2], &[3])?)])
        }),
        Case::new("index (x[:, idx])", vec![real(&[2, 4])], |t| {
            let all = TensorIndex::Slice {
                start: None,
                stop: None,
                step: None,
            };
            t[0].index(&[all, TensorIndex::Tensor(ints(&[3, 1], &[2])?)])
        }),
        Case::new("index_put", vec![real(&[4, 3]), real(&[2, 3])], |t| {
            t[0].index_put(&[Some(ints(&[2, 0], &[2])?)], &t[1], false)
        }),
        Case::new(
            "index_put (accumulate=True)",
            vec![real(&[4, 3]), real(&[3, 3])],
            |t| t[0].index_put(&[Some(ints(&[1, 3, 1], &[3])?)], &t[1], true),
        ),
        Case::new("gather", vec![real(&[2, 3])], |t| {
            t[0].gather(1, &ints(&[0, 2, 1, 1], &[2, 2])?)
        }),
        Case::new("scatter_add", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            t[0].scatter_add(1, &ints(&[0, 2, 1, 1], &[2, 2])?, &t[1])
        }),
        Case::new("scatter", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            t[0].scatter(1, &ints(&[0, 2, 1, 0], &[2, 2])?, &t[1])
        }),
        Case::new("scatter (value)", vec![real(&[2, 3])], |t| {
            t[0].scatter_value(1, &ints(&[0, 2, 1, 0], &[2, 2])?, 0.5)
        }),
        Case::new("index_select", vec![real(&[3, 2])], |t| {
            t[0].index_select(0, &ints(&[1, 0, 1], &[3])?)
        }),
        Case::new("index_add", vec![real(&[2, 3]), real(&[3, 3])], |t| {
            t[0].index_add(0, &ints(&[0, 1, 0], &[3])?, &t[1])
        }),
        Case::new("embedding", vec![real(&[4, 3])], |t| {
            Tensor::embedding(&ints(&[0, 2, 3, 2], &[2, 2])?, &t[0], None)
        }),
        Case::new("cat", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            Tensor::cat(&[&t[0], &t[1]], 1)
        }),
        Case::new("stack", vec![real(&[2, 3]), real(&[2, 3])], |t| {
            Tensor::stack(&[&t[0], &t[1]], 1)
        }),
        Case::new("split (second piece)", vec![real(&[2, 5])], |t| {
            last(t[0].split(2, 1)?)
        }),
        Case::new(
            "split_with_sizes (second piece)",
            vec![real(&[2, 5])],
            |t| last(t[0].split_with_sizes(&[1, 4], 1)?),
        ),
        Case::new("unbind (last piece)", vec![real(&[3, 2])], |t| {
            last(t[0].unbind(0)?)
        }),
    ]
}
