//! `addmm` and `linear`, which dispatches exactly as PyTorch's `linear`
//! does (one `addmm` for a 2-D input with a bias, a flattened `addmm` for a
//! contiguous input with a bias, `matmul` and an in-place `add_` otherwise),
//! so the graph shows PyTorch's nodes.

use super::nn::NnOp;
use super::view::ViewOp;
use super::{Op, apply, inputs, new_tensor};
use crate::cpu::CpuBuffer;
use crate::cpu::matmul::bmm;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped};
use crate::layout::Layout;
use crate::ops::view_shape::signed;
use crate::tensor::Tensor;

pub(crate) fn addmm_forward(op: &NnOp, ins: &[&Tensor]) -> Result<Tensor> {
    let [bias, a, b] = inputs::<3>(op, ins)?;
    for (arg, t) in [("mat1", a), ("mat2", b)] {
        if t.shape().len() != 2 {
            return Err(Error::AddmmNotMatrix {
                arg,
                rank: t.shape().len(),
            });
        }
    }
    let (sa, sb) = (a.shape(), b.shape());
    if sa[1] != sb[0] {
        return Err(Error::AddmmShapes {
            lhs: [sa[0], sa[1]],
            rhs: [sb[0], sb[1]],
        });
    }
    for (lhs, t) in [("self", bias), ("mat1", a)] {
        if t.dtype() != b.dtype() {
            return Err(Error::AddmmDtype {
                lhs,
                lhs_dtype: t.dtype(),
                rhs_dtype: b.dtype(),
            });
        }
    }
    if a.dtype() == DType::Bool {
        return Err(Error::KernelDtype {
            kernel: "addmm_impl_cpu_",
            dtype: DType::Bool,
        });
    }
    let (n, m) = (sa[0], sb[1]);
    let bias_layout = bias.layout().expand(&signed(&[n, m]))?;
    let as_3d = |l: &Layout, s: &[usize]| {
        let t = l.strides();
        Layout::new(vec![1, s[0], s[1]], vec![0, t[0], t[1]], l.offset())
    };
    let (a3, b3) = (as_3d(a.layout(), sa), as_3d(b.layout(), sb));
    let on_device = |k: &dyn Kernels| {
        let (a_op, b_op) = ((&**a.storage(), &a3), (&**b.storage(), &b3));
        if let Some(out) = k.matmul_bias(a_op, b_op, operand(bias), &[n, m])? {
            return Ok(Some(out));
        }
        // Without the fused kernel: the product, then the bias added.
        let Some(product) = shaped(k.matmul(a_op, b_op)?, &[n, m]) else {
            return Ok(None);
        };
        k.binary(
            crate::BinaryOp::Add,
            operand(&product),
            operand(bias),
            &[n, m],
            a.dtype(),
        )
    };
    let on_device = |k: &dyn Kernels| Ok(shaped(on_device(k)?, &[n, m]));
    kernels::run_or(on_device, || {
        // bfloat16 multiplies, sums and adds the bias in float32 and rounds
        // once, as PyTorch's CPU addmm does (rounding the product first
        // differs in the last bit of about a third of the elements).
        if a.dtype() == DType::BFloat16 {
            let wide = |t: &Tensor| t.storage().data().clone_as(DType::Float32);
            let mut out = bmm(
                &wide(a),
                &as_3d(a.layout(), sa),
                &wide(b),
                &as_3d(b.layout(), sb),
            )?;
            add_through(&mut out, &wide(bias), &bias_layout)?;
            return Ok(new_tensor(out.into_dtype(DType::BFloat16), &[n, m]));
        }
        let mut out = bmm(
            &a.storage().data(),
            &as_3d(a.layout(), sa),
            &b.storage().data(),
            &as_3d(b.layout(), sb),
        )?;
        add_through(&mut out, &bias.storage().data(), &bias_layout)?;
        Ok(new_tensor(out, &[n, m]))
    })
}

/// `out += src` read through `layout` (the bias broadcast over the product).
fn add_through(out: &mut CpuBuffer, src: &CpuBuffer, layout: &Layout) -> Result<()> {
    fn go<T: Copy + std::ops::AddAssign>(out: &mut [T], src: &[T], layout: &Layout) {
        // The bias of `linear` is one dense row repeated (strides [0, 1]):
        // add it row by row, a loop the compiler vectorises.
        if let (&[_, cols], &[0, 1]) = (layout.shape(), layout.strides())
            && let Some(row) = src.get(layout.offset()..layout.offset() + cols)
            && cols > 0
        {
            for chunk in out.chunks_exact_mut(cols) {
                for (o, &b) in chunk.iter_mut().zip(row) {
                    *o += b;
                }
            }
            return;
        }
        for (o, i) in out.iter_mut().zip(layout.indices()) {
            *o += src[i];
        }
    }
    match (out, src) {
        (CpuBuffer::F32(o), CpuBuffer::F32(s)) => go(o, s, layout),
        (CpuBuffer::F64(o), CpuBuffer::F64(s)) => go(o, s, layout),
        (CpuBuffer::I64(o), CpuBuffer::I64(s)) => {
            for (o, i) in o.iter_mut().zip(layout.indices()) {
                *o = o.wrapping_add(s[i]);
            }
        }
        (o, s) => {
            return Err(Error::Backend(format!(
                "internal error: addmm adding {} to {}",
                s.dtype(),
                o.dtype()
            )));
        }
    }
    Ok(())
}

impl Tensor {
    /// `self + mat1 @ mat2` with `self` broadcast to the product, PyTorch's
    /// `torch.addmm(self, mat1, mat2)` (with `beta = alpha = 1`).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let bias = Tensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let out = bias.addmm(&Tensor::ones(&[3, 4]), &Tensor::ones(&[4, 2]))?;
    /// assert_eq!(out.to_vec::<f32>(), vec![5.0, 6.0, 5.0, 6.0, 5.0, 6.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn addmm(&self, mat1: &Tensor, mat2: &Tensor) -> Result<Tensor> {
        // PyTorch's test in mm_mat2_backward: strides (1, rows).
        let (shape, strides) = (mat2.shape(), mat2.layout().strides());
        let mat2_column_major =
            shape.len() == 2 && strides[0] == 1 && strides[1] == shape[0] as isize;
        apply(
            Op::Nn(NnOp::Addmm { mat2_column_major }),
            &[self, mat1, mat2],
        )
    }

    /// `self @ weight^T + bias`, PyTorch's `F.linear(input, weight, bias)`,
    /// decomposed as PyTorch decomposes it (`AddmmBackward0` for a 2-D
    /// input with a bias).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::ones(&[8, 20]);
    /// let w = Tensor::ones(&[16, 20]).requires_grad_(true);
    /// let b = Tensor::zeros(&[16]).requires_grad_(true);
    /// let y = x.linear(&w, Some(&b))?;
    /// assert_eq!(y.shape(), &[8, 16]);
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_string()).as_deref(), Some("AddmmBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn linear(&self, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor> {
        let (input_dim, weight_dim) = (self.shape().len(), weight.shape().len());
        if input_dim == 0 || weight_dim == 0 {
            return Err(Error::LinearZeroDim {
                input: input_dim,
                weight: weight_dim,
            });
        }
        if let Some(bias) = bias {
            if input_dim == 2 {
                return bias.addmm(self, &weight.t()?);
            }
            let contiguous = self.layout().is_contiguous();
            if contiguous && (input_dim > 2 || bias.shape().len() == 1) {
                return flatten_nd_linear(self, weight, bias);
            }
        }
        let output = self.matmul(&weight.t()?)?;
        match bias {
            Some(bias) => output.add_(bias),
            None => Ok(output),
        }
    }
}

/// PyTorch's `_flatten_nd_linear`: the leading dimensions folded into the
/// rows of one `addmm`, viewed back.
fn flatten_nd_linear(input: &Tensor, weight: &Tensor, bias: &Tensor) -> Result<Tensor> {
    let sizes = input.shape();
    let (last, leading) = sizes.split_last().map_or((0, &[][..]), |(l, r)| (*l, r));
    let rows: usize = leading.iter().product();
    let folded = input.reshape(&signed(&[rows, last]))?;
    let result = bias.addmm(&folded, &weight.t()?)?;
    let mut shape = leading.to_vec();
    shape.push(result.shape().get(1).copied().unwrap_or(0));
    apply(Op::View(ViewOp::UnsafeView(shape)), &[&result])
}
