//! Matrix products: `mm`, `bmm`, `dot`, `mv`, and `matmul`, which
//! dispatches on its operands' dimensions exactly as PyTorch's
//! `_matmul_impl` does (folding batches into `mm` when that saves a copy,
//! else broadcasting batches into `bmm`), so its graph shows PyTorch's nodes.

use std::rc::Rc;

use super::view::ViewOp;
use super::{Op, OpInfo, SavedSlot, apply, inputs};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Layout, broadcast_shapes};
use crate::ops::view_shape::signed;
use crate::tensor::Tensor;

/// A matrix product, or the in-place squeeze `matmul` records after one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatmulOp {
    /// `mm(mat1, mat2)`: 2-D by 2-D.
    Mm,
    /// `bmm(batch1, batch2)`: 3-D by 3-D.
    Bmm,
    /// `dot(a, b)`: 1-D by 1-D.
    Dot,
    /// `mv(mat, vec)`: 2-D by 1-D.
    Mv,
    /// `squeeze_(dim)` of a size-1 dimension of `mm`'s fresh result, as
    /// `matmul` of a vector and a matrix records it.
    SqueezeInplace(usize),
}

impl OpInfo for MatmulOp {
    fn node_name(&self) -> &'static str {
        match self {
            MatmulOp::Mm => "MmBackward0",
            MatmulOp::Bmm => "BmmBackward0",
            MatmulOp::Dot => "DotBackward0",
            MatmulOp::Mv => "MvBackward0",
            MatmulOp::SqueezeInplace(_) => "SqueezeBackward4",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            MatmulOp::Mm => "mm",
            MatmulOp::Bmm => "bmm",
            MatmulOp::Dot => "dot",
            MatmulOp::Mv => "mv",
            MatmulOp::SqueezeInplace(_) => "squeeze_",
        }
    }

    fn arity(&self) -> usize {
        match self {
            MatmulOp::Mm | MatmulOp::Bmm | MatmulOp::Dot | MatmulOp::Mv => 2,
            MatmulOp::SqueezeInplace(_) => 1,
        }
    }

    fn saved(&self, needs: &[bool]) -> Vec<SavedSlot> {
        let needs = |i: usize| needs.get(i).copied().unwrap_or(false);
        match self {
            // self: grad @ other^T needs other; other: self^T @ grad needs self.
            MatmulOp::Mm | MatmulOp::Bmm | MatmulOp::Dot | MatmulOp::Mv => {
                [(0, needs(1)), (1, needs(0))]
                    .into_iter()
                    .filter(|s| s.1)
                    .map(|s| SavedSlot::Input(s.0))
                    .collect()
            }
            // grad.unsqueeze(dim) needs only the dimension.
            MatmulOp::SqueezeInplace(_) => vec![],
        }
    }
}

impl MatmulOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        if let MatmulOp::SqueezeInplace(dim) = *self {
            let [x] = inputs::<1>(self, ins)?;
            let (mut shape, mut strides) = (x.shape().to_vec(), x.layout().strides().to_vec());
            if shape.get(dim) == Some(&1) {
                shape.remove(dim);
                strides.remove(dim);
            }
            let layout = Layout::new(shape, strides, x.layout().offset());
            return Ok(Tensor::from_parts(x.storage().clone(), layout));
        }
        let [a, b] = inputs::<2>(self, ins)?;
        let (sa, sb) = (a.shape(), b.shape());
        let (la, lb) = (a.layout(), b.layout());
        // Each product is one batched GEMM over 3-D views of its operands.
        let (ta, tb) = (la.strides(), lb.strides());
        let (a3, b3, out) = match self {
            MatmulOp::Mm => {
                check_mm(a, b)?;
                (
                    as_3d(la, [1, sa[0], sa[1]], [0, ta[0], ta[1]]),
                    as_3d(lb, [1, sb[0], sb[1]], [0, tb[0], tb[1]]),
                    vec![sa[0], sb[1]],
                )
            }
            MatmulOp::Bmm => {
                check_bmm(a, b)?;
                (la.clone(), lb.clone(), vec![sa[0], sa[1], sb[2]])
            }
            MatmulOp::Dot => {
                check_dot(a, b)?;
                (
                    as_3d(la, [1, 1, sa[0]], [0, 0, ta[0]]),
                    as_3d(lb, [1, sb[0], 1], [0, tb[0], 0]),
                    vec![],
                )
            }
            MatmulOp::Mv => {
                check_mv(a, b)?;
                (
                    as_3d(la, [1, sa[0], sa[1]], [0, ta[0], ta[1]]),
                    as_3d(lb, [1, sb[0], 1], [0, tb[0], 0]),
                    vec![sa[0]],
                )
            }
            MatmulOp::SqueezeInplace(_) => {
                return Err(Error::Backend("internal error: not a product".into()));
            }
        };
        let (a, b) = ((&**a.storage(), &a3), (&**b.storage(), &b3));
        let product = crate::kernels::run(|k| k.matmul(a, b))?;
        Ok(Tensor::from_parts(
            Rc::new(product),
            Layout::contiguous(&out),
        ))
    }
}

/// `layout` read as the 3-D `shape` with `strides` (a leading batch of 1
/// and size-1 dimensions get stride 0), for the batched kernel.
fn as_3d(layout: &Layout, shape: [usize; 3], strides: [isize; 3]) -> Layout {
    Layout::new(shape.to_vec(), strides.to_vec(), layout.offset())
}

fn float_kernel(kernel: &'static str, a: &Tensor) -> Result<()> {
    if a.dtype() == DType::Bool {
        return Err(Error::KernelDtype {
            kernel,
            dtype: a.dtype(),
        });
    }
    Ok(())
}

fn check_mm(a: &Tensor, b: &Tensor) -> Result<()> {
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() != 2 {
        return Err(Error::MmNotMatrix {
            arg: "self",
            rank: sa.len(),
        });
    }
    if sb.len() != 2 {
        return Err(Error::MmNotMatrix {
            arg: "mat2",
            rank: sb.len(),
        });
    }
    if sa[1] != sb[0] {
        return Err(Error::MmShapes {
            lhs: [sa[0], sa[1]],
            rhs: [sb[0], sb[1]],
        });
    }
    if a.dtype() != b.dtype() {
        return Err(Error::MatmulDtype {
            lhs: a.dtype(),
            rhs: b.dtype(),
        });
    }
    float_kernel("addmm_impl_cpu_", a)
}

fn check_bmm(a: &Tensor, b: &Tensor) -> Result<()> {
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() != 3 {
        return Err(Error::BmmNot3d { arg: "batch1" });
    }
    if sb.len() != 3 {
        return Err(Error::BmmNot3d { arg: "batch2" });
    }
    if sb[0] != sa[0] || sb[1] != sa[2] {
        return Err(Error::BmmShapes {
            expected: [sa[0], sa[2]],
            actual: [sb[0], sb[1]],
        });
    }
    if a.dtype() != b.dtype() {
        return Err(Error::ScalarTypeMismatch {
            expected: a.dtype(),
            found: b.dtype(),
        });
    }
    float_kernel("bmm", a)
}

fn check_dot(a: &Tensor, b: &Tensor) -> Result<()> {
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() != 1 || sb.len() != 1 {
        return Err(Error::DotNot1d {
            lhs: sa.len(),
            rhs: sb.len(),
        });
    }
    if a.dtype() != b.dtype() {
        return Err(Error::DotDtype {
            lhs: a.dtype(),
            rhs: b.dtype(),
        });
    }
    if sa[0] != sb[0] {
        return Err(Error::DotSizes {
            lhs: sa[0],
            rhs: sb[0],
        });
    }
    float_kernel("dot", a)
}

fn check_mv(a: &Tensor, b: &Tensor) -> Result<()> {
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() != 2 || sb.len() != 1 {
        return Err(Error::MvRanks {
            mat: sa.len(),
            vec: sb.len(),
        });
    }
    if sa[1] != sb[0] {
        return Err(Error::MvSizes {
            mat: [sa[0], sa[1]],
            vec: sb[0],
        });
    }
    if a.dtype() != b.dtype() {
        return Err(Error::MvDtype {
            mat: a.dtype(),
            vec: b.dtype(),
        });
    }
    float_kernel("addmv_impl_cpu", a)
}

/// PyTorch's `should_fold`: fold the larger operand's batch into `mm`/`mv`
/// when it is 3-D or more and the other 1-D or 2-D, if the smaller one needs
/// a gradient (so backward never builds a batch of its gradients) or the
/// larger one folds without a copy.
fn should_fold(a: &Tensor, b: &Tensor) -> bool {
    let a_larger = a.shape().len() >= b.shape().len();
    let (t1, dim_t2, t2_requires_grad) = if a_larger {
        (a, b.shape().len(), b.requires_grad())
    } else {
        (b, a.shape().len(), a.requires_grad())
    };
    let mut shape = t1.shape().to_vec();
    let mut strides = t1.layout().strides().to_vec();
    let dim_t1 = shape.len();
    if !(dim_t1 >= 3 && dim_t2 <= 2) {
        return false;
    }
    if t2_requires_grad {
        return true;
    }
    if a.shape().len() == 2 {
        return false;
    }
    if t1.numel() == 0 {
        return true;
    }
    if !a_larger {
        // The larger operand is `b.mT`.
        shape.swap(dim_t1 - 2, dim_t1 - 1);
        strides.swap(dim_t1 - 2, dim_t1 - 1);
    }
    (0..dim_t1 - 2).all(|i| strides[i] == strides[i + 1] * shape[i + 1] as isize)
}

impl Tensor {
    /// The matrix product of two 2-D tensors, PyTorch's `mm`.
    pub fn mm(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Matmul(MatmulOp::Mm), &[self, other])
    }

    /// Matrix products of two batches of matrices, PyTorch's `bmm`.
    pub fn bmm(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Matmul(MatmulOp::Bmm), &[self, other])
    }

    /// The inner product of two vectors, PyTorch's `dot`.
    pub fn dot(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Matmul(MatmulOp::Dot), &[self, other])
    }

    /// A matrix times a vector, PyTorch's `mv`.
    pub fn mv(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Matmul(MatmulOp::Mv), &[self, other])
    }

    /// PyTorch's `matmul` (`@`): `dot`, `mv`, `mm`, or batched products with
    /// broadcast batch dimensions, decomposed as PyTorch decomposes it.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let a = Tensor::ones(&[5, 2, 3]);
    /// let b = Tensor::ones(&[3, 4]).requires_grad_(true);
    /// let c = a.matmul(&b)?;
    /// assert_eq!(c.shape(), &[5, 2, 4]);
    /// let node = c.grad_fn().map(|n| n.name().to_string());
    /// assert_eq!(node.as_deref(), Some("UnsafeViewBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn matmul(&self, other: &Tensor) -> Result<Tensor> {
        let (a, b) = (self, other);
        let (dim_a, dim_b) = (a.shape().len(), b.shape().len());
        match (dim_a, dim_b) {
            (0, _) | (_, 0) => Err(Error::MatmulZeroDim {
                lhs: dim_a,
                rhs: dim_b,
            }),
            (1, 1) => a.dot(b),
            (2, 1) => a.mv(b),
            (1, 2) => {
                let product = a.unsqueeze(0)?.mm(b)?;
                apply(Op::Matmul(MatmulOp::SqueezeInplace(0)), &[&product])
            }
            (2, 2) => a.mm(b),
            _ if should_fold(a, b) => matmul_folded(a, b),
            _ => matmul_batched(a, b),
        }
    }
}

/// The larger operand's batch folded into the rows of one `mm`/`mv`.
fn matmul_folded(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dim_a, dim_b) = (a.shape().len(), b.shape().len());
    let transpose = dim_b > dim_a;
    let t1 = if transpose {
        b.transpose(-2, -1)?
    } else {
        a.clone()
    };
    let t2 = match (transpose, dim_a) {
        (false, _) => b.clone(),
        (true, 2) => a.t()?,
        (true, _) => a.clone(),
    };
    let sizes = t1.shape().to_vec();
    let (last, leading) = sizes.split_last().map_or((0, &[][..]), |(l, r)| (*l, r));
    let mut out_shape = leading.to_vec();
    let folded: usize = leading.iter().product();
    let t1_folded = t1.reshape(&[folded as i64, last as i64])?;
    if t2.shape().len() == 2 {
        out_shape.push(t2.shape()[1]);
        let output = unsafe_view(&t1_folded.mm(&t2)?, &out_shape)?;
        if transpose {
            output.transpose(-2, -1)?.contiguous()
        } else {
            Ok(output)
        }
    } else {
        unsafe_view(&t1_folded.mv(&t2)?, &out_shape)
    }
}

/// Batches broadcast against each other, flattened into one `bmm`.
fn matmul_batched(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.shape(), b.shape());
    let (dim_a, dim_b) = (sa.len(), sb.len());
    let n = if dim_a > 1 { sa[dim_a - 2] } else { 1 };
    let m1 = sa[dim_a - 1];
    let batch_a = &sa[..dim_a.saturating_sub(2)];
    let (m2, p) = if dim_b > 1 {
        (sb[dim_b - 2], sb[dim_b - 1])
    } else {
        (sb[0], 1)
    };
    let batch_b = &sb[..dim_b.saturating_sub(2)];
    // A 3-D operand with a batch of 1 against another batch folds instead,
    // so its gradient is not built per batch.
    if dim_a == 3 && dim_b == 3 && batch_a[0] != batch_b[0] {
        if batch_a[0] == 1 && a.requires_grad() {
            return a.squeeze_dim(0)?.matmul(b);
        }
        if batch_b[0] == 1 && b.requires_grad() {
            return a.matmul(&b.squeeze_dim(0)?);
        }
    }
    let mut out_shape = broadcast_shapes(batch_a, batch_b)?;
    let batch: usize = out_shape.iter().product();
    let a_size: Vec<usize> = out_shape.iter().copied().chain([n, m1]).collect();
    let a_expanded = a.expand(&a_size)?.reshape(&signed(&[batch, n, m1]))?;
    let vector_rhs = dim_b == 1;
    let b_size: Vec<usize> = if vector_rhs {
        out_shape.iter().copied().chain([m2]).collect()
    } else {
        out_shape.iter().copied().chain([m2, p]).collect()
    };
    let b_expanded = b.expand(&b_size)?;
    let b_expanded = if vector_rhs {
        b_expanded.reshape(&signed(&[batch, m2]))?.unsqueeze(2)?
    } else {
        b_expanded.reshape(&signed(&[batch, m2, p]))?
    };
    if dim_a > 1 {
        out_shape.push(n);
    }
    if dim_b > 1 {
        out_shape.push(p);
    }
    let product = a_expanded.bmm(&b_expanded)?;
    let product = if vector_rhs {
        product.squeeze_dim(-1)?
    } else {
        product
    };
    unsafe_view(&product, &out_shape)
}

/// PyTorch's `_unsafe_view`: `matmul`'s contiguous product seen as `shape`.
fn unsafe_view(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    apply(Op::View(ViewOp::UnsafeView(shape.to_vec())), &[x])
}

#[cfg(test)]
mod tests {
    use crate::dtype::DType;
    use crate::tensor::Tensor;

    /// `linear` passes the weight transposed; its gradient is computed in
    /// the weight's own layout (PyTorch's `mm_mat2_backward`), so `.grad`
    /// is contiguous and equals the plain formula `(x^T @ grad)^T`.
    #[test]
    fn linear_weight_grad_layout() {
        crate::ops::random::manual_seed(1);
        let x = Tensor::randn(&[3, 4], DType::Float64).unwrap();
        let w = Tensor::randn(&[5, 4], DType::Float64)
            .unwrap()
            .requires_grad_(true);
        let b = Tensor::full_dtype(&[5], 0.0, DType::Float64).requires_grad_(true);
        let g = Tensor::randn(&[3, 5], DType::Float64).unwrap();
        x.linear(&w, Some(&b))
            .unwrap()
            .mul(&g)
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        let grad = w.grad().unwrap();
        assert!(grad.layout().is_contiguous());
        let want = x.t().unwrap().mm(&g).unwrap().t().unwrap();
        assert_eq!(grad.to_vec::<f64>(), want.to_vec::<f64>());
    }
}
