//! Neural-network functions with PyTorch's own nodes: `linear` (`addmm`),
//! the losses, `layer_norm`, `batch_norm`, `conv2d` (with `unfold`/`fold`),
//! `max_pool2d` and `avg_pool2d`; `dropout` is composed from `mul` as
//! PyTorch composes it on the CPU. The functions live in `nn_linear.rs`,
//! `nn_loss.rs`, `nn_norm.rs`, `nn_conv.rs` and `nn_pool.rs`; this file holds the op enum,
//! its metadata and the pieces they share.
//!
//! Ops that keep a second result for backward (`layer_norm`'s mean and
//! rstd, `max_pool2d`'s indices, `nll_loss`'s total weight) compute it
//! first and pass it as a non-differentiable input, so the node saves it as
//! it saves any input and the memory ledger counts it. Optional tensors
//! PyTorch gives a `next_functions` entry (`layer_norm`'s weight) are passed
//! as an empty placeholder when absent, so the entry is `None` as in PyTorch.

use std::cell::Ref;
use std::ops::Deref;

use super::nn_conv::{ConvParams, Im2ColParams};
use super::nn_pool::{AvgPoolParams, PoolParams};
use super::{OpInfo, SavedSlot};
use crate::cpu::Element;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// How a loss reduces its elements, PyTorch's `reduction=` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reduction {
    /// `'none'`: one loss per element.
    None,
    /// `'mean'` (the default).
    #[default]
    Mean,
    /// `'sum'`.
    Sum,
}

impl Reduction {
    /// Parses PyTorch's spelling (`"mean"`), with its error for anything else.
    ///
    /// ```
    /// use gradscope_core::ops::nn::Reduction;
    /// assert_eq!(Reduction::parse("sum")?, Reduction::Sum);
    /// assert!(Reduction::parse("avg").is_err());
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            other => Err(Error::Reduction(other.into())),
        }
    }
}

/// An op of this family; the comment on each names its inputs in order.
#[derive(Clone, Debug, PartialEq)]
pub enum NnOp {
    /// `addmm(self, mat1, mat2)`: `self + mat1 @ mat2`. As PyTorch's
    /// `AddmmBackward0` keeps mat2's strides, this records whether mat2 is
    /// column-major (the transposed weight `linear` passes): its gradient is
    /// then computed as `(grad^T @ mat1)^T`, which has mat2's layout, so the
    /// weight's gradient comes out contiguous with no copy.
    Addmm { mat2_column_major: bool },
    /// `mse_loss(self, target)`.
    MseLoss(Reduction),
    /// `nll_loss(self, target, weight, total_weight)`.
    NllLoss {
        /// The reduction.
        reduction: Reduction,
        /// The class index that contributes nothing.
        ignore_index: i64,
        /// Whether `weight` is given.
        weighted: bool,
        /// `nll_loss2d`: `[N, C, H, W]` input, `[N, H, W]` target.
        spatial: bool,
    },
    /// `binary_cross_entropy(self, target, weight)`.
    BinaryCrossEntropy {
        /// The reduction.
        reduction: Reduction,
        /// Whether `weight` is given.
        weighted: bool,
    },
    /// `binary_cross_entropy_with_logits(self, target, weight, pos_weight)`.
    BceWithLogits {
        /// The reduction.
        reduction: Reduction,
        /// Whether `weight` is given.
        weighted: bool,
        /// Whether `pos_weight` is given.
        pos_weighted: bool,
    },
    /// `native_layer_norm(input, weight, bias, mean, rstd)` over the last `dims` dimensions.
    LayerNorm {
        /// How many trailing dimensions are normalized.
        dims: usize,
        /// Added to the variance.
        eps: f64,
        /// Whether weight and bias are given.
        affine: [bool; 2],
    },
    /// `native_batch_norm(input, weight, bias, running_mean, running_var, save_mean, save_invstd)`.
    BatchNorm {
        /// Batch statistics (training) or running ones (evaluation).
        training: bool,
        /// Added to the variance.
        eps: f64,
        /// Whether weight and bias are given.
        affine: [bool; 2],
        /// Whether running statistics are given.
        stats: bool,
    },
    /// `convolution(input, weight, bias)` in two dimensions.
    Conv2d {
        /// Stride, padding, dilation and groups.
        params: ConvParams,
        /// Whether a bias is given.
        bias: bool,
    },
    /// `im2col(input)`, PyTorch's `F.unfold`.
    Im2Col(Im2ColParams),
    /// `col2im(input)`, PyTorch's `F.fold`, into an image of `output` size.
    Col2Im {
        /// Kernel, dilation, padding and stride.
        params: Im2ColParams,
        /// The image's height and width.
        output: [usize; 2],
    },
    /// `max_pool2d_with_indices(self, indices)`: the maxima at `indices`.
    MaxPool2d(PoolParams),
    /// `avg_pool2d(self)`.
    AvgPool2d(AvgPoolParams),
    /// `masked_fill(self, mask, value)` (`cross_entropy`'s label smoothing).
    MaskedFill(f64),
    /// `mul(self, other)` with a C++ number `other`, as `cross_entropy`'s
    /// label smoothing calls it (`MulBackward1`; Python numbers give `MulBackward0`).
    MulScalar(f64),
    /// `avg_pool2d_backward(grad)` into an input of `input` shape: the
    /// backward of `avg_pool2d` as an op, so double backward works.
    AvgPool2dBackward {
        /// The pooling.
        params: AvgPoolParams,
        /// The pooled input's shape.
        input: Vec<usize>,
    },
}

impl OpInfo for NnOp {
    fn node_name(&self) -> &'static str {
        match self {
            NnOp::Addmm { .. } => "AddmmBackward0",
            NnOp::MseLoss(_) => "MseLossBackward0",
            NnOp::NllLoss { spatial: false, .. } => "NllLossBackward0",
            NnOp::NllLoss { spatial: true, .. } => "NllLoss2DBackward0",
            NnOp::BinaryCrossEntropy { .. } => "BinaryCrossEntropyBackward0",
            NnOp::BceWithLogits { .. } => "BinaryCrossEntropyWithLogitsBackward0",
            NnOp::LayerNorm { .. } => "NativeLayerNormBackward0",
            NnOp::BatchNorm { .. } => "NativeBatchNormBackward0",
            NnOp::Conv2d { .. } => "ConvolutionBackward0",
            NnOp::Im2Col(_) => "Im2ColBackward0",
            NnOp::Col2Im { .. } => "Col2ImBackward0",
            NnOp::MaxPool2d(_) => "MaxPool2DWithIndicesBackward0",
            NnOp::AvgPool2d(_) => "AvgPool2DBackward0",
            NnOp::AvgPool2dBackward { .. } => "AvgPool2DBackwardBackward0",
            NnOp::MaskedFill(_) => "MaskedFillBackward0",
            NnOp::MulScalar(_) => "MulBackward1",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            NnOp::Addmm { .. } => "addmm",
            NnOp::MseLoss(_) => "mse_loss",
            NnOp::NllLoss { spatial: false, .. } => "nll_loss",
            NnOp::NllLoss { spatial: true, .. } => "nll_loss2d",
            NnOp::BinaryCrossEntropy { .. } => "binary_cross_entropy",
            NnOp::BceWithLogits { .. } => "binary_cross_entropy_with_logits",
            NnOp::LayerNorm { .. } => "native_layer_norm",
            NnOp::BatchNorm { .. } => "native_batch_norm",
            NnOp::Conv2d { .. } => "convolution",
            NnOp::Im2Col(_) => "im2col",
            NnOp::Col2Im { .. } => "col2im",
            NnOp::MaxPool2d(_) => "max_pool2d_with_indices",
            NnOp::AvgPool2d(_) => "avg_pool2d",
            NnOp::AvgPool2dBackward { .. } => "avg_pool2d_backward",
            NnOp::MaskedFill(_) => "masked_fill",
            NnOp::MulScalar(_) => "mul",
        }
    }

    fn arity(&self) -> usize {
        match self {
            NnOp::Im2Col(_)
            | NnOp::Col2Im { .. }
            | NnOp::AvgPool2d(_)
            | NnOp::AvgPool2dBackward { .. }
            | NnOp::MulScalar(_) => 1,
            NnOp::MseLoss(_) | NnOp::MaxPool2d(_) | NnOp::MaskedFill(_) => 2,
            NnOp::Addmm { .. } | NnOp::BinaryCrossEntropy { .. } | NnOp::Conv2d { .. } => 3,
            NnOp::NllLoss { .. } | NnOp::BceWithLogits { .. } => 4,
            NnOp::LayerNorm { .. } => 5,
            NnOp::BatchNorm { .. } => 7,
        }
    }

    fn is_differentiable_input(&self, i: usize) -> bool {
        match self {
            // Class indices, class weights and the total weight carry no gradient.
            NnOp::NllLoss { .. } | NnOp::MaxPool2d(_) | NnOp::MaskedFill(_) => i == 0,
            NnOp::BinaryCrossEntropy { .. } | NnOp::BceWithLogits { .. } => i <= 1,
            // Statistics (given or computed) carry no gradient.
            NnOp::LayerNorm { .. } | NnOp::BatchNorm { .. } => i <= 2,
            NnOp::Addmm { .. }
            | NnOp::MseLoss(_)
            | NnOp::Conv2d { .. }
            | NnOp::Im2Col(_)
            | NnOp::Col2Im { .. }
            | NnOp::AvgPool2d(_)
            | NnOp::AvgPool2dBackward { .. }
            | NnOp::MulScalar(_) => true,
        }
    }

    fn saved(&self, needs: &[bool]) -> Vec<SavedSlot> {
        use SavedSlot::Input;
        let needs = |i: usize| needs.get(i).copied().unwrap_or(false);
        let when = |flag: bool, i: usize| flag.then_some(Input(i));
        // As PyTorch's derivatives.yaml: each formula's tensors, saved
        // whenever the node exists unless only one input's formula reads them.
        match self {
            // mat1: grad @ mat2^T needs mat2; mat2: mat1^T @ grad needs mat1.
            NnOp::Addmm { .. } => [when(needs(2), 1), when(needs(1), 2)]
                .into_iter()
                .flatten()
                .collect(),
            NnOp::MseLoss(_) | NnOp::Conv2d { .. } | NnOp::MaxPool2d(_) => vec![Input(0), Input(1)],
            NnOp::NllLoss { weighted, .. } => [
                Some(Input(0)),
                Some(Input(1)),
                when(*weighted, 2),
                Some(Input(3)),
            ]
            .into_iter()
            .flatten()
            .collect(),
            NnOp::BinaryCrossEntropy { weighted, .. } => {
                [Some(Input(0)), Some(Input(1)), when(*weighted, 2)]
                    .into_iter()
                    .flatten()
                    .collect()
            }
            NnOp::BceWithLogits {
                weighted,
                pos_weighted,
                ..
            } => [
                Some(Input(0)),
                Some(Input(1)),
                when(*weighted, 2),
                when(*pos_weighted, 3),
            ]
            .into_iter()
            .flatten()
            .collect(),
            NnOp::LayerNorm { affine, .. } => [
                Some(Input(0)),
                when(affine[0], 1),
                when(affine[1], 2),
                Some(Input(3)),
                Some(Input(4)),
            ]
            .into_iter()
            .flatten()
            .collect(),
            // PyTorch also saves the running statistics in training, where no
            // formula reads them; here they would fail the version check
            // once the next training step updates them, so they are not.
            NnOp::BatchNorm {
                training,
                affine,
                stats,
                ..
            } => {
                let running = *stats && !*training;
                [
                    Some(Input(0)),
                    when(affine[0], 1),
                    when(running, 3),
                    when(running, 4),
                    Some(Input(5)),
                    Some(Input(6)),
                ]
                .into_iter()
                .flatten()
                .collect()
            }
            NnOp::AvgPool2d(_) => vec![Input(0)],
            // self: grad.masked_fill(mask, 0)
            NnOp::MaskedFill(_) => vec![Input(1)],
            NnOp::Im2Col(_)
            | NnOp::Col2Im { .. }
            | NnOp::AvgPool2dBackward { .. }
            | NnOp::MulScalar(_) => vec![],
        }
    }
}

impl NnOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        match self {
            NnOp::Addmm { .. } => super::nn_linear::addmm_forward(self, ins),
            NnOp::MseLoss(_)
            | NnOp::NllLoss { .. }
            | NnOp::BinaryCrossEntropy { .. }
            | NnOp::BceWithLogits { .. }
            | NnOp::MaskedFill(_)
            | NnOp::MulScalar(_) => super::nn_loss::forward(self, ins),
            NnOp::LayerNorm { .. } | NnOp::BatchNorm { .. } => super::nn_norm::forward(self, ins),
            NnOp::Conv2d { .. } | NnOp::Im2Col(_) | NnOp::Col2Im { .. } => {
                super::nn_conv::forward(self, ins)
            }
            NnOp::MaxPool2d(_) | NnOp::AvgPool2d(_) | NnOp::AvgPool2dBackward { .. } => {
                super::nn_pool::forward(self, ins)
            }
        }
    }
}

thread_local! {
    // On the CPU whatever the default device is when it is first made: it
    // is shared by every op of the thread, on either device.
    static ABSENT: Tensor = {
        let _cpu = crate::device::Scope::new(crate::Device::Cpu);
        Tensor::zeros(&[0])
    };
    /// Whether [`ABSENT`] was made: asking [`is_absent`] must not make it,
    /// which would record an allocation in the trace of the op that asked.
    static ABSENT_MADE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The placeholder for an optional tensor that was not given: no gradient
/// flows to it, no formula reads it, and it is made once per thread.
pub(crate) fn absent() -> Tensor {
    ABSENT_MADE.with(|made| made.set(true));
    ABSENT.with(Tensor::clone)
}

/// Whether `t` is [`absent`]'s placeholder, which takes no part in
/// deciding which device an op runs on.
pub(crate) fn is_absent(t: &Tensor) -> bool {
    ABSENT_MADE.with(std::cell::Cell::get)
        && ABSENT.with(|a| std::rc::Rc::ptr_eq(a.storage(), t.storage()))
}

/// `tensor`, or the placeholder.
pub(crate) fn or_absent(tensor: Option<&Tensor>) -> Tensor {
    tensor.cloned().unwrap_or_else(absent)
}

/// A tensor's elements in row-major order as `T`: borrowed when the
/// tensor is contiguous and of type `T`, else gathered into scratch.
pub(crate) enum Dense<'a, T> {
    Borrowed(Ref<'a, [T]>),
    Owned(Vec<T>),
}

impl<T> Deref for Dense<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Dense::Borrowed(r) => r,
            Dense::Owned(v) => v,
        }
    }
}

/// See [`Dense`].
pub(crate) fn dense<T: Element>(t: &Tensor) -> Dense<'_, T> {
    let layout = t.layout();
    if layout.is_contiguous() {
        let range = layout.offset()..layout.offset() + layout.numel();
        let borrowed = Ref::filter_map(t.storage().data(), |d| {
            T::slice(d).and_then(|s| s.get(range))
        });
        if let Ok(slice) = borrowed {
            return Dense::Borrowed(slice);
        }
    }
    let data = t.storage().data();
    Dense::Owned(crate::cpu_dispatch!(&*data, d => layout
        .indices()
        .map(|i| d[i].cast::<T>())
        .collect()))
}

/// A float result as a new contiguous tensor of `shape`.
pub(crate) fn float_tensor<T: Element>(data: Vec<T>, shape: &[usize]) -> Tensor {
    super::new_tensor(T::into_buffer(data), shape)
}

/// Writes `values` into `t`'s elements in place (running statistics).
pub(crate) fn write_values<T: Element>(t: &Tensor, values: Vec<T>) -> Result<()> {
    let buffer = T::into_buffer(values).gather_as(&Layout::contiguous(t.shape()), t.dtype());
    t.storage().data_mut().write_through(t.layout(), &buffer)
}

/// Runs `$body` with `$t` the element type of a float dtype, or returns
/// PyTorch's "not implemented" error for `$kernel`.
macro_rules! float_dispatch {
    ($dtype:expr, $kernel:expr, $t:ident => $body:expr) => {
        match $dtype {
            $crate::dtype::DType::Float32 => {
                type $t = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $t = f64;
                $body
            }
            dtype => Err($crate::error::Error::KernelDtype {
                kernel: $kernel,
                dtype,
            }),
        }
    };
}
pub(crate) use float_dispatch;

/// Checks that `other` has `x`'s dtype, PyTorch's "expected scalar type" error.
pub(crate) fn same_dtype(x: &Tensor, other: &Tensor) -> Result<()> {
    if other.dtype() != x.dtype() {
        return Err(Error::ScalarTypeMismatch {
            expected: x.dtype(),
            found: other.dtype(),
        });
    }
    Ok(())
}
