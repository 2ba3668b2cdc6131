//! Neural-network functions: softmax, norms, convolution, pooling, linear
//! layers and losses.

use super::{constant, first_grad, ints};
use crate::Tensor;
use crate::gradcheck::Case;
use crate::gradcheck::inputs::{between, real};
use crate::ops::nn::Reduction;
use crate::ops::nn_conv::{Conv2dOptions, Window2d};
use crate::ops::nn_loss::NllLossOptions;
use crate::ops::nn_norm::BatchNormOptions;
use crate::ops::nn_pool::Pool2dOptions;

/// The family's rows.
pub(super) fn cases() -> Vec<Case> {
    let image = || real(&[1, 2, 4, 4]);
    vec![
        Case::new("softmax (dim=1)", vec![real(&[2, 3])], |t| t[0].softmax(1)),
        Case::new("log_softmax (dim=0)", vec![real(&[2, 3])], |t| {
            t[0].log_softmax(0)
        }),
        Case::new(
            "layer_norm",
            vec![real(&[2, 4]), real(&[4]), real(&[4])],
            |t| t[0].layer_norm(&[4], Some(&t[1]), Some(&t[2]), 1e-5),
        ),
        Case::new(
            "batch_norm (training)",
            vec![real(&[3, 2, 2]), real(&[2]), real(&[2])],
            |t| {
                t[0].batch_norm(&BatchNormOptions {
                    weight: Some(t[1].clone()),
                    bias: Some(t[2].clone()),
                    training: true,
                    ..Default::default()
                })
            },
        ),
        Case::new(
            "batch_norm (eval)",
            vec![real(&[3, 2, 2]), real(&[2]), real(&[2])],
            |t| {
                t[0].batch_norm(&BatchNormOptions {
                    running_mean: Some(constant(&t[0], vec![0.1, -0.2])?),
                    running_var: Some(constant(&t[0], vec![0.8, 1.3])?),
                    weight: Some(t[1].clone()),
                    bias: Some(t[2].clone()),
                    ..Default::default()
                })
            },
        ),
        Case::new(
            "conv2d (padding=1)",
            vec![image(), real(&[3, 2, 2, 2]), real(&[3])],
            |t| {
                let options = Conv2dOptions {
                    padding: [1, 1],
                    ..Default::default()
                };
                t[0].conv2d(&t[1], Some(&t[2]), &options)
            },
        ),
        Case::new(
            "conv2d (stride=2, groups=2)",
            vec![image(), real(&[2, 1, 2, 2])],
            |t| {
                let options = Conv2dOptions {
                    stride: [2, 2],
                    groups: 2,
                    ..Default::default()
                };
                t[0].conv2d(&t[1], None, &options)
            },
        ),
        Case::new("im2col (unfold)", vec![image()], |t| t[0].im2col(&window())),
        Case::new("col2im (fold)", vec![real(&[1, 8, 4])], |t| {
            t[0].col2im([3, 3], &window())
        }),
        Case::new("max_pool2d", vec![image()], |t| {
            t[0].max_pool2d(&Pool2dOptions::new(2))
        }),
        Case::new("avg_pool2d (padding=1)", vec![image()], |t| {
            t[0].avg_pool2d(&avg_pool())
        }),
        Case::new(
            "avg_pool2d_backward (double backward)",
            vec![image()],
            |t| first_grad(&t[0], |x| x.avg_pool2d(&avg_pool())),
        ),
        Case::new(
            "linear",
            vec![real(&[3, 4]), real(&[2, 4]), real(&[2])],
            |t| t[0].linear(&t[1], Some(&t[2])),
        ),
        Case::new(
            "addmm",
            vec![real(&[1, 2]), real(&[3, 4]), real(&[4, 2])],
            |t| t[0].addmm(&t[1], &t[2]),
        ),
        Case::new("mse_loss", vec![real(&[3, 4]), real(&[3, 4])], |t| {
            t[0].mse_loss(&t[1], Reduction::Mean)
        }),
        Case::new(
            "mse_loss (reduction='none')",
            vec![real(&[2, 3]), real(&[3])],
            |t| t[0].mse_loss(&t[1], Reduction::None),
        ),
        Case::new("cross_entropy", vec![real(&[3, 4])], |t| {
            t[0].cross_entropy(&ints(&[1, 0, 3], &[3])?, &NllLossOptions::default())
        }),
        Case::new(
            "cross_entropy (label_smoothing=0.2)",
            vec![real(&[3, 4])],
            |t| {
                let options = NllLossOptions {
                    label_smoothing: 0.2,
                    ..NllLossOptions::default()
                };
                t[0].cross_entropy(&ints(&[1, 0, 3], &[3])?, &options)
            },
        ),
        Case::new("nll_loss (weight)", vec![real(&[3, 4])], |t| {
            let options = NllLossOptions {
                weight: Some(constant(&t[0], vec![0.5, 1.0, 1.5, 2.0])?),
                ..NllLossOptions::default()
            };
            t[0].nll_loss(&ints(&[2, 0, 3], &[3])?, &options)
        }),
        Case::new(
            "binary_cross_entropy",
            vec![between(&[2, 3], 0.1, 0.9), between(&[2, 3], 0.0, 1.0)],
            |t| t[0].binary_cross_entropy(&t[1], None, Reduction::Mean),
        ),
        Case::new(
            "binary_cross_entropy_with_logits (pos_weight)",
            vec![real(&[2, 3]), between(&[2, 3], 0.0, 1.0)],
            |t| {
                let pos_weight = Tensor::from_vec(vec![0.5f64, 1.0, 2.0], &[3])?;
                t[0].binary_cross_entropy_with_logits(
                    &t[1],
                    None,
                    Some(&pos_weight),
                    Reduction::Sum,
                )
            },
        ),
    ]
}

/// A 2x2 window of stride 1, unpadded.
fn window() -> Window2d {
    Window2d {
        kernel: [2, 2],
        stride: [1, 1],
        padding: [0, 0],
        dilation: [1, 1],
    }
}

/// Average pooling over 2x2 windows, padded by 1.
fn avg_pool() -> Pool2dOptions {
    Pool2dOptions {
        padding: [1, 1],
        ..Pool2dOptions::new(2)
    }
}
