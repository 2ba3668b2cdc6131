//! Backward of elementwise selection. The gradient goes to the input the
//! result was picked from; where inputs tie, each gets half, as PyTorch's
//! `maximum` formula (`where(self == other, grad / 2, grad)`) does.

use super::BackwardInputs;
use super::unary::masked;
use crate::error::Result;
use crate::ops::SelectOp;
use crate::tensor::Tensor;

fn zero() -> Tensor {
    Tensor::scalar(0.0)
}

/// `where(self == other, grad / 2, grad).masked_fill_(lost, 0)`: the
/// gradient of one side of `maximum`/`minimum`, `lost` marking where the
/// other side was picked.
fn split(grad: &Tensor, tied: &Tensor, lost: &Tensor) -> Result<Tensor> {
    let shared = grad.div(&Tensor::scalar(2.0))?.where_cond(tied, grad)?;
    zero().where_cond(lost, &shared)
}

pub(super) fn backward(op: &SelectOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match *op {
        // maximum, and clamp_min / clamp with only a lower tensor bound
        SelectOp::Maximum
        | SelectOp::ClampMin
        | SelectOp::Clamp {
            min: true,
            max: false,
        } => {
            let (x, min) = (b.input(0)?, b.input(1)?);
            let tied = x.eq(min)?;
            let mut grads = vec![
                b.when(0, || split(grad, &tied, &x.lt(min)?))?,
                b.when(1, || split(grad, &tied, &x.gt(min)?))?,
            ];
            if matches!(op, SelectOp::Clamp { .. }) {
                grads.push(None);
            }
            grads
        }
        // minimum, and clamp_max / clamp with only an upper tensor bound
        SelectOp::Minimum
        | SelectOp::ClampMax
        | SelectOp::Clamp {
            min: false,
            max: true,
        } => {
            let at = usize::from(matches!(op, SelectOp::Clamp { .. })) + 1;
            let (x, max) = (b.input(0)?, b.input(at)?);
            let tied = x.eq(max)?;
            let x_grad = b.when(0, || split(grad, &tied, &x.gt(max)?))?;
            let max_grad = b.when(at, || split(grad, &tied, &x.lt(max)?))?;
            match at {
                1 => vec![x_grad, max_grad],
                _ => vec![x_grad, None, max_grad],
            }
        }
        SelectOp::Clamp {
            min: true,
            max: true,
        } => clamp_backward(grad, b.input(0)?, b.input(1)?, b.input(2)?, b.needs_grad)?,
        SelectOp::Clamp {
            min: false,
            max: false,
        } => vec![b.when(0, || Ok(grad.clone()))?, None, None],
        SelectOp::Where => {
            let condition = b.input(2)?;
            vec![
                b.when(0, || masked(grad, condition))?,
                b.when(1, || zero().where_cond(condition, grad))?,
                None,
            ]
        }
    })
}

/// `clamp(self, min, max)` with both tensor bounds. The result is `self`
/// strictly inside the bounds, `min` below, `max` above (and wherever the
/// bounds cross); at a tie between `self` and one bound the two share the
/// gradient, and where all three are equal `self` takes it all, as PyTorch.
fn clamp_backward(
    grad: &Tensor,
    x: &Tensor,
    min: &Tensor,
    max: &Tensor,
    needs: &[bool],
) -> Result<Vec<Option<Tensor>>> {
    let needs = |i: usize| needs.get(i).copied().unwrap_or(false);
    let half = grad.div(&Tensor::scalar(2.0))?;
    let ordered = min.lt(max)?;
    let at_min = x.eq(min)?;
    let at_max = x.eq(max)?;
    // `pick` gets the whole gradient, `share` half of it, elsewhere nothing.
    let pick = |whole: &Tensor, share: &Tensor| -> Result<Tensor> {
        let halves = masked(&half, share)?;
        grad.where_cond(whole, &halves)
    };
    let x_grad = if needs(0) {
        let inside = x.gt(min)?.logical_and(&x.lt(max)?)?;
        let all_equal = at_min.logical_and(&at_max)?;
        let tie = at_min.logical_or(&at_max)?.logical_and(&ordered)?;
        Some(pick(&inside.logical_or(&all_equal)?, &tie)?)
    } else {
        None
    };
    let min_grad = if needs(1) {
        let below = x.lt(min)?.logical_and(&min.le(max)?)?;
        Some(pick(&below, &at_min.logical_and(&ordered)?)?)
    } else {
        None
    };
    let max_grad = if needs(2) {
        let above = x.gt(max)?.logical_or(&min.gt(max)?)?;
        Some(pick(&above, &at_max.logical_and(&ordered)?)?)
    } else {
        None
    };
    Ok(vec![x_grad, min_grad, max_grad])
}
