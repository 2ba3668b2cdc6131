//! Which op variants the table checks: every variant of every op enum is
//! named here through an exhaustive `match`, so a new variant fails to
//! compile until it is named, and then fails the coverage test until a row
//! checks it.

use super::Row;
use crate::Device;
use crate::Op;
use crate::ops::index::IndexOp;
use crate::ops::nn::NnOp;
use crate::ops::{ArithOp, JoinOp, MatmulOp, ReduceOp, SelectOp, SoftmaxOp, UnaryOp, ViewOp};

/// Names every variant of every op family, from the same list as
/// [`variants`]: a new variant fails to compile in this `match` until it
/// is named, and the test `every_op_variant_has_a_row` then fails until a
/// row checks it. The unary and arithmetic ops name themselves from their
/// tables ([`UnaryOp::VARIANTS`], [`ArithOp::VARIANTS`]).
macro_rules! variants {
    ($($pattern:pat => $name:literal,)*) => {
        /// Every op variant's name.
        pub fn variants() -> impl Iterator<Item = &'static str> {
            UnaryOp::VARIANTS
                .iter()
                .chain(ArithOp::VARIANTS)
                .copied()
                .chain([$($name),*])
        }

        /// The name of `op`'s variant.
        pub fn variant(op: &Op) -> &'static str {
            match op {
                Op::Unary(op) => op.variant(),
                Op::Arith(op) => op.variant(),
                $($pattern => $name,)*
            }
        }
    };
}

variants! {
    Op::Reduce(ReduceOp::Sum) => "ReduceOp::Sum",
    Op::Reduce(ReduceOp::SumDim(_)) => "ReduceOp::SumDim",
    Op::Reduce(ReduceOp::Mean) => "ReduceOp::Mean",
    Op::Reduce(ReduceOp::MeanDim(_)) => "ReduceOp::MeanDim",
    Op::Reduce(ReduceOp::SumToSize(_)) => "ReduceOp::SumToSize",
    Op::Reduce(ReduceOp::Extreme(_)) => "ReduceOp::Extreme",
    Op::Reduce(ReduceOp::ExtremeDim { .. }) => "ReduceOp::ExtremeDim",
    Op::Reduce(ReduceOp::Amax(..)) => "ReduceOp::Amax",
    Op::Reduce(ReduceOp::Var(..)) => "ReduceOp::Var",
    Op::Reduce(ReduceOp::Std(..)) => "ReduceOp::Std",
    Op::Reduce(ReduceOp::Norm(..)) => "ReduceOp::Norm",
    Op::Reduce(ReduceOp::Prod) => "ReduceOp::Prod",
    Op::Reduce(ReduceOp::ProdDim(_)) => "ReduceOp::ProdDim",
    Op::Reduce(ReduceOp::Logsumexp(_)) => "ReduceOp::Logsumexp",
    Op::View(ViewOp::Expand(_)) => "ViewOp::Expand",
    Op::View(ViewOp::View(_)) => "ViewOp::View",
    Op::View(ViewOp::ReshapeAlias(_)) => "ViewOp::ReshapeAlias",
    Op::View(ViewOp::UnsafeView(_)) => "ViewOp::UnsafeView",
    Op::View(ViewOp::Alias) => "ViewOp::Alias",
    Op::View(ViewOp::Clone) => "ViewOp::Clone",
    Op::View(ViewOp::Contiguous) => "ViewOp::Contiguous",
    Op::View(ViewOp::Transpose(..)) => "ViewOp::Transpose",
    Op::View(ViewOp::T) => "ViewOp::T",
    Op::View(ViewOp::Permute(_)) => "ViewOp::Permute",
    Op::View(ViewOp::SqueezeAll) => "ViewOp::SqueezeAll",
    Op::View(ViewOp::SqueezeDim(_)) => "ViewOp::SqueezeDim",
    Op::View(ViewOp::SqueezeDims(_)) => "ViewOp::SqueezeDims",
    Op::View(ViewOp::Unsqueeze(_)) => "ViewOp::Unsqueeze",
    Op::View(ViewOp::Slice { .. }) => "ViewOp::Slice",
    Op::View(ViewOp::Select { .. }) => "ViewOp::Select",
    Op::View(ViewOp::SliceBackward { .. }) => "ViewOp::SliceBackward",
    Op::View(ViewOp::SelectBackward { .. }) => "ViewOp::SelectBackward",
    Op::View(ViewOp::Diagonal { .. }) => "ViewOp::Diagonal",
    Op::View(ViewOp::DiagonalBackward { .. }) => "ViewOp::DiagonalBackward",
    Op::View(ViewOp::Inplace(_)) => "ViewOp::Inplace",
    Op::Select(SelectOp::Maximum) => "SelectOp::Maximum",
    Op::Select(SelectOp::Minimum) => "SelectOp::Minimum",
    Op::Select(SelectOp::Where) => "SelectOp::Where",
    Op::Select(SelectOp::ClampMin) => "SelectOp::ClampMin",
    Op::Select(SelectOp::ClampMax) => "SelectOp::ClampMax",
    Op::Select(SelectOp::Clamp { .. }) => "SelectOp::Clamp",
    Op::Index(IndexOp::Index { .. }) => "IndexOp::Index",
    Op::Index(IndexOp::IndexPut { .. }) => "IndexOp::IndexPut",
    Op::Index(IndexOp::Gather { .. }) => "IndexOp::Gather",
    Op::Index(IndexOp::ScatterAdd { .. }) => "IndexOp::ScatterAdd",
    Op::Index(IndexOp::Scatter { .. }) => "IndexOp::Scatter",
    Op::Index(IndexOp::IndexSelect { .. }) => "IndexOp::IndexSelect",
    Op::Index(IndexOp::IndexAdd { .. }) => "IndexOp::IndexAdd",
    Op::Index(IndexOp::Embedding { .. }) => "IndexOp::Embedding",
    Op::Join(JoinOp::Cat { .. }) => "JoinOp::Cat",
    Op::Join(JoinOp::Stack { .. }) => "JoinOp::Stack",
    Op::Join(JoinOp::Split { .. }) => "JoinOp::Split",
    Op::Join(JoinOp::Unbind { .. }) => "JoinOp::Unbind",
    Op::Matmul(MatmulOp::Mm) => "MatmulOp::Mm",
    Op::Matmul(MatmulOp::Bmm) => "MatmulOp::Bmm",
    Op::Matmul(MatmulOp::Dot) => "MatmulOp::Dot",
    Op::Matmul(MatmulOp::Mv) => "MatmulOp::Mv",
    Op::Matmul(MatmulOp::SqueezeInplace(_)) => "MatmulOp::SqueezeInplace",
    Op::Nn(NnOp::Addmm { .. }) => "NnOp::Addmm",
    Op::Nn(NnOp::MseLoss(_)) => "NnOp::MseLoss",
    Op::Nn(NnOp::NllLoss { .. }) => "NnOp::NllLoss",
    Op::Nn(NnOp::BinaryCrossEntropy { .. }) => "NnOp::BinaryCrossEntropy",
    Op::Nn(NnOp::BceWithLogits { .. }) => "NnOp::BceWithLogits",
    Op::Nn(NnOp::LayerNorm { .. }) => "NnOp::LayerNorm",
    Op::Nn(NnOp::BatchNorm { .. }) => "NnOp::BatchNorm",
    Op::Nn(NnOp::Conv2d { .. }) => "NnOp::Conv2d",
    Op::Nn(NnOp::Im2Col(_)) => "NnOp::Im2Col",
    Op::Nn(NnOp::Col2Im { .. }) => "NnOp::Col2Im",
    Op::Nn(NnOp::MaxPool2d(_)) => "NnOp::MaxPool2d",
    Op::Nn(NnOp::AvgPool2d(_)) => "NnOp::AvgPool2d",
    Op::Nn(NnOp::MaskedFill(_)) => "NnOp::MaskedFill",
    Op::Nn(NnOp::MulScalar(_)) => "NnOp::MulScalar",
    Op::Nn(NnOp::AvgPool2dBackward { .. }) => "NnOp::AvgPool2dBackward",
    Op::Softmax(SoftmaxOp::Softmax(_)) => "SoftmaxOp::Softmax",
    Op::Softmax(SoftmaxOp::LogSoftmax(_)) => "SoftmaxOp::LogSoftmax",
}

/// Variants that no public call records as its last op: PyTorch's
/// composite functions record them inside. Each must still run inside a
/// checked row's graph, which the coverage test asserts.
pub const INSIDE_COMPOSITES: &[(&str, &str)] = &[
    (
        "NnOp::MaskedFill",
        "cross_entropy with label_smoothing masks the ignored targets",
    ),
    (
        "NnOp::MulScalar",
        "cross_entropy with label_smoothing scales the smoothing term",
    ),
];

/// The op variants no row checks: neither a row's last op nor, for
/// [`INSIDE_COMPOSITES`], an op inside a row's graph.
pub fn unchecked_variants(rows: &[Row], device: Device) -> Vec<&'static str> {
    let last: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.op.as_ref())
        .map(variant)
        .collect();
    let inside: Vec<&str> = rows
        .iter()
        .flat_map(|r| &r.graph_ops)
        .map(variant)
        .collect();
    variants()
        .filter(|name| !not_checkable(device).iter().any(|(v, _)| v == name))
        .filter(
            |name| match INSIDE_COMPOSITES.iter().any(|(v, _)| v == name) {
                true => !inside.contains(name),
                false => !last.contains(name),
            },
        )
        .collect()
}

/// Variants no row can check on `device`, each with the reason the table
/// prints under itself: a skip is shown, never silent.
pub fn not_checkable(device: Device) -> &'static [(&'static str, &'static str)] {
    match device {
        Device::Cpu => &[(
            "UnaryOp::ToDevice",
            "to(device) needs a GPU, and gradcheck's float64 cannot go to WebGPU \
             (checked by gradcheck --device webgpu)",
        )],
        Device::WebGpu => &[(
            "UnaryOp::ToDtype",
            "its rows convert from float64, which WebGPU does not have (checked on the CPU)",
        )],
    }
}
