//! Lesson 6: evaluation with grad, under no_grad, and under inference_mode.

use super::{bytes, raised};
use crate::runner::{choice, int, on};
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Runs, Verdict};

const MODES: [&str; 3] = ["grad", "no_grad", "inference_mode"];

pub(crate) const LESSON: Lesson = Lesson {
    number: 6,
    slug: "no-grad-eval",
    title: "Evaluating without building a graph",
    program: include_str!("../../programs/no-grad-eval.py"),
    text: "\
An evaluation pass needs outputs, not gradients. With grad enabled, each \
Linear and ReLU still records a node and keeps its inputs for a backward \
that never comes: the memory view shows 'saved for backward' growing with \
the batch, and the graph view a full graph.

Switch MODE to no_grad: the same forward records nothing, saves nothing, \
and the peak of the eval phase is lower. inference_mode goes one step \
further: its tensors skip the bookkeeping autograd would need later \
(version counters, views' history), which makes them cheaper but also \
marks them: they can never enter autograd. Turn on \
REUSE_INFERENCE_TENSOR to feed such a tensor to a layer that needs a \
gradient, and PyTorch refuses with its error.

Change BATCH and compare the peaks: the saving grows with the batch.",
    controls: &[
        Control {
            name: "MODE",
            label: "grad mode of the eval pass",
            kind: ControlKind::Choice(&MODES),
        },
        Control {
            name: "BATCH",
            label: "batch size",
            kind: ControlKind::Int { min: 1, max: 512 },
        },
        Control {
            name: "REUSE_INFERENCE_TENSOR",
            label: "use an inference tensor in autograd",
            kind: ControlKind::Bool,
        },
    ],
    claims: &[
        Claim {
            text: "no_grad and inference_mode save nothing in the eval pass; grad mode does",
            #[cfg(feature = "checks")]
            check: saved,
        },
        Claim {
            text: "with grad, the saved bytes grow with BATCH",
            #[cfg(feature = "checks")]
            check: grows,
        },
        Claim {
            text: "the eval pass peaks lower under no_grad than with grad",
            #[cfg(feature = "checks")]
            check: peak,
        },
        Claim {
            text: "an inference tensor used by a layer that needs grad raises PyTorch's error",
            #[cfg(feature = "checks")]
            check: reuse,
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    files: &[],
};

/// (saved peak, peak total) of the eval phase.
fn eval(runs: &mut Runs<'_>, mode: &str, batch: i64) -> Result<(u64, u64), LessonError> {
    let m = runs.finished(&[choice("MODE", mode), int("BATCH", batch)])?;
    let p = m.phase("eval")?;
    Ok((p.saved_peak(), p.peak_total))
}

fn saved(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (grad, _) = eval(runs, "grad", 64)?;
    let (no_grad, _) = eval(runs, "no_grad", 64)?;
    let (inference, _) = eval(runs, "inference_mode", 64)?;
    Ok(Verdict::new(
        grad > 0 && no_grad == 0 && inference == 0,
        format!(
            "grad {}, no_grad {}, inference_mode {}",
            bytes(grad),
            bytes(no_grad),
            bytes(inference)
        ),
    ))
}

fn grows(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (small, _) = eval(runs, "grad", 64)?;
    let (large, _) = eval(runs, "grad", 256)?;
    Ok(Verdict::new(
        large > small,
        format!("batch 64: {}, batch 256: {}", bytes(small), bytes(large)),
    ))
}

fn peak(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (_, grad) = eval(runs, "grad", 256)?;
    let (_, no_grad) = eval(runs, "no_grad", 256)?;
    Ok(Verdict::new(
        no_grad < grad,
        format!(
            "batch 256 peak: grad {}, no_grad {}",
            bytes(grad),
            bytes(no_grad)
        ),
    ))
}

fn reuse(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[on("REUSE_INFERENCE_TENSOR")])?;
    let (ok, measured) = raised(
        &m,
        "RuntimeError",
        "Inference tensors cannot be saved for backward",
    );
    Ok(Verdict::new(ok, measured))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let mut figures = vec![];
    for batch in [64, 256] {
        for mode in MODES {
            let (saved, total) = eval(runs, mode, batch)?;
            figures.push(Figure::new(
                format!("b{batch} {mode}"),
                format!("peak {} (saved {})", bytes(total), bytes(saved)),
            ));
        }
    }
    Ok(figures)
}
