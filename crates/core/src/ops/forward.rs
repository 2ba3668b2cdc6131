//! Forward computation of each op on the CPU backend.

use std::rc::Rc;

use gradscope_trace::EventKind;

use super::Op;
use crate::cpu;
use crate::error::Result;
use crate::layout::{Layout, broadcast_shapes};
use crate::storage::Storage;
use crate::tensor::Tensor;
use crate::trace;

fn new_tensor(data: Vec<f32>, shape: &[usize]) -> Tensor {
    Tensor::from_parts(Rc::new(Storage::new(data)), Layout::contiguous(shape))
}

/// Computes `op` on `inputs` without recording anything.
pub(crate) fn forward(op: &Op, inputs: &[&Tensor]) -> Result<Tensor> {
    let output = match (op, inputs) {
        (Op::Binary(kernel), [lhs, rhs]) => {
            let shape = broadcast_shapes(lhs.shape(), rhs.shape())?;
            let l = lhs.layout().broadcast_to(&shape)?;
            let r = rhs.layout().broadcast_to(&shape)?;
            let data = cpu::binary_map(
                *kernel,
                &lhs.storage().data(),
                &l,
                &rhs.storage().data(),
                &r,
            );
            new_tensor(data, &shape)
        }
        (Op::Neg, [x]) => {
            let data = cpu::gather(&x.storage().data(), x.layout());
            new_tensor(data.into_iter().map(|v| -v).collect(), x.shape())
        }
        (Op::Sum, [x]) => new_tensor(vec![cpu::sum_all(&x.storage().data(), x.layout())], &[]),
        (Op::Mean, [x]) => {
            let sum = cpu::sum_all(&x.storage().data(), x.layout());
            new_tensor(vec![sum / x.numel() as f32], &[])
        }
        (Op::SumToSize(shape), [x]) => {
            let data = cpu::sum_to_shape(&x.storage().data(), x.layout(), shape)?;
            new_tensor(data, shape)
        }
        (Op::Expand(shape), [x]) => {
            Tensor::from_parts(x.storage().clone(), x.layout().broadcast_to(shape)?)
        }
        _ => {
            return Err(crate::Error::Backend(format!(
                "{} takes {} inputs",
                op.name(),
                op.arity()
            )));
        }
    };
    trace::emit(|| EventKind::OpCalled {
        op: op.name().into(),
        shape: output.shape().to_vec(),
    });
    Ok(output)
}
