//! Lesson 6: evaluation with grad, under no_grad, and under inference_mode.

use super::{bytes, raised};
use crate::runner::{choice, int, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

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

Turn on READ_VERSION to run an in-place `mul_` on the output and read its \
version counter. Under no_grad the output is an ordinary tensor: the \
in-place op bumps `_version` to 1, as it would with grad. Under \
inference_mode the output has no version counter at all, so there is \
nothing to bump, and reading `_version` raises PyTorch's error.

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
            name: "READ_VERSION",
            label: "mul_ the output in place, then read out._version",
            kind: ControlKind::Bool,
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
            at: Moment::SavedPeak("eval"),
            shown_with: &[],
        },
        Claim {
            text: "with grad, the saved bytes grow with BATCH",
            #[cfg(feature = "checks")]
            check: grows,
            at: Moment::SavedPeak("eval"),
            shown_with: &[("MODE", "\"grad\"")],
        },
        Claim {
            text: "the eval pass peaks lower under no_grad than with grad",
            #[cfg(feature = "checks")]
            check: peak,
            at: Moment::Peak("eval"),
            shown_with: &[],
        },
        Claim {
            text: "an inference tensor used by a layer that needs grad raises PyTorch's error",
            #[cfg(feature = "checks")]
            check: reuse,
            at: Moment::Raised,
            shown_with: &[("REUSE_INFERENCE_TENSOR", "True")],
        },
        Claim {
            text: "no version bump in inference mode: the in-place op that bumps _version under no_grad leaves an inference tensor without a counter, and reading it raises PyTorch's error",
            #[cfg(feature = "checks")]
            check: version,
            at: Moment::Raised,
            shown_with: &[("MODE", "\"inference_mode\""), ("READ_VERSION", "True")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[
        Comparison {
            title: "eval pass peak by mode and batch",
            kind: ChartKind::Bars { number: 0 },
            unit: Unit::Bytes,
        },
        Comparison {
            title: "saved for backward by mode and batch",
            kind: ChartKind::Bars { number: 1 },
            unit: Unit::Bytes,
        },
    ],
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

/// The same in-place op on the eval output under no_grad and under
/// inference_mode: the version the no_grad run printed must equal the
/// in-place ops its phase ran (each a bump), and the inference run, having
/// run the same op, must refuse to read a version.
fn version(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let label = "out._version:";
    let plain = runs.finished(&[choice("MODE", "no_grad"), on("READ_VERSION")])?;
    let bumps = plain.phase("in-place")?.inplace_ops;
    let printed = plain
        .printed_after(label)
        .ok_or_else(|| LessonError::NotMeasured(format!("the printed '{label}'")))?;
    let counted = printed.parse::<usize>().is_ok_and(|v| v == bumps && v > 0);
    let inference = runs.with(&[choice("MODE", "inference_mode"), on("READ_VERSION")])?;
    let same_op = inference.phase("in-place")?.inplace_ops == bumps;
    let (refused, measured) = raised(
        &inference,
        "RuntimeError",
        "Inference tensors do not track version counter",
    );
    let read = match inference.printed_after(label) {
        Some(v) => format!(", yet printed {label} {v}"),
        None => String::new(),
    };
    Ok(Verdict::new(
        counted && same_op && refused,
        format!(
            "no_grad: {bumps} in-place op(s), {label} {printed}; \
             inference_mode: {} in-place op(s), {measured}{read}",
            inference.phase("in-place")?.inplace_ops
        ),
    ))
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
