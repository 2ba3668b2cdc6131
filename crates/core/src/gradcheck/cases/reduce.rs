//! Reductions: sums, means, extremes, variance, norms, products.

use crate::gradcheck::Case;
use crate::gradcheck::inputs::real;

/// The family's rows.
pub(super) fn cases() -> Vec<Case> {
    let x = || vec![real(&[3, 4])];
    vec![
        Case::new("sum", x(), |t| t[0].sum()),
        Case::new("sum (dim=1)", x(), |t| t[0].sum_dim(&[1], false)),
        Case::new("mean", x(), |t| t[0].mean()),
        Case::new("mean (dim=0, keepdim)", x(), |t| t[0].mean_dim(&[0], true)),
        Case::new("sum_to_size", x(), |t| t[0].sum_to_size(&[1, 4])),
        Case::new("max", x(), |t| t[0].max()),
        Case::new("min", x(), |t| t[0].min()),
        Case::new("max (dim=1)", x(), |t| Ok(t[0].max_dim(1, false)?.0)),
        Case::new("min (dim=0, keepdim)", x(), |t| {
            Ok(t[0].min_dim(0, true)?.0)
        }),
        Case::new("amax (dim=1)", x(), |t| t[0].amax(&[1], false)),
        Case::new("amin (dim=0)", x(), |t| t[0].amin(&[0], false)),
        Case::new("var", x(), |t| t[0].var(None, 1.0, false)),
        Case::new("var (dim=1, correction=0)", x(), |t| {
            t[0].var(Some(&[1]), 0.0, false)
        }),
        Case::new("std", x(), |t| t[0].std(None, 1.0, false)),
        Case::new("std (dim=0, keepdim)", x(), |t| {
            t[0].std(Some(&[0]), 1.0, true)
        }),
        Case::new("linalg_vector_norm (ord=2)", x(), |t| {
            t[0].norm(2.0, None, false)
        }),
        Case::new("linalg_vector_norm (ord=1, dim=1)", x(), |t| {
            t[0].norm(1.0, Some(&[1]), false)
        }),
        Case::new("linalg_vector_norm (ord=3, dim=0)", x(), |t| {
            t[0].norm(3.0, Some(&[0]), false)
        }),
        Case::new("prod", vec![real(&[2, 3])], |t| t[0].prod()),
        Case::new("prod (dim=1)", x(), |t| t[0].prod_dim(1, false)),
        Case::new("logsumexp (dim=1)", x(), |t| t[0].logsumexp(&[1], false)),
    ]
}
