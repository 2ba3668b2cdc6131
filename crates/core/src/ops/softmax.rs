//! The softmax family: `softmax` and `log_softmax` along one dimension,
//! each one kernel that shifts by the slice's maximum so large inputs stay
//! finite, and one node whose backward reads only the result.

use super::reduce::normalize_dim;
use std::rc::Rc;

use super::{Op, OpInfo, SavedSlot, apply, inputs};
use crate::error::Result;
use crate::layout::Layout;
use crate::tensor::Tensor;

/// A softmax-family op along a dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftmaxOp {
    /// `softmax(dim)`.
    Softmax(usize),
    /// `log_softmax(dim)`.
    LogSoftmax(usize),
}

impl OpInfo for SoftmaxOp {
    fn node_name(&self) -> &'static str {
        match self {
            SoftmaxOp::Softmax(_) => "SoftmaxBackward0",
            SoftmaxOp::LogSoftmax(_) => "LogSoftmaxBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            SoftmaxOp::Softmax(_) => "softmax",
            SoftmaxOp::LogSoftmax(_) => "log_softmax",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            // self: _softmax_backward_data(grad, result, dim)
            // self: _log_softmax_backward_data(grad, result, dim)
            SoftmaxOp::Softmax(_) | SoftmaxOp::LogSoftmax(_) => vec![SavedSlot::Output],
        }
    }
}

impl SoftmaxOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        let (dim, log) = match *self {
            SoftmaxOp::Softmax(dim) => (dim, false),
            SoftmaxOp::LogSoftmax(dim) => (dim, true),
        };
        let x_operand = (&**x.storage(), x.layout());
        let out = crate::kernels::run(|k| k.softmax(x_operand, dim, log))?;
        Ok(Tensor::from_parts(
            Rc::new(out),
            Layout::contiguous(x.shape()),
        ))
    }
}

impl Tensor {
    /// `exp(x) / sum(exp(x))` along `dim`, PyTorch's `softmax(dim)`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1000.0f32, 1000.0], &[2])?;
    /// assert_eq!(x.softmax(-1)?.to_vec::<f32>(), vec![0.5, 0.5]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn softmax(&self, dim: i64) -> Result<Tensor> {
        let dim = normalize_dim(dim, self.shape().len())?;
        apply(Op::Softmax(SoftmaxOp::Softmax(dim)), &[self])
    }

    /// `x - logsumexp(x)` along `dim`, PyTorch's `log_softmax(dim)`.
    pub fn log_softmax(&self, dim: i64) -> Result<Tensor> {
        let dim = normalize_dim(dim, self.shape().len())?;
        apply(Op::Softmax(SoftmaxOp::LogSoftmax(dim)), &[self])
    }
}
