//! Lesson 13: finding where a NaN comes from, fixing it, clipping.

use super::raised;
use crate::runner::{off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 13,
    slug: "nan-hunt",
    title: "Hunting a NaN",
    program: include_str!("../../programs/nan-hunt.py"),
    text: "\
A softmax of a very negative logit underflows to exactly 0 in float32, and \
log(0) is -inf. The loss here only picks finite entries, so it prints a \
normal number; the NaN appears in backward, where log's gradient divides \
by p: 0 / 0. Every gradient downstream is poisoned, and one optimizer \
step later so are the weights.

Turn on ANOMALY: `detect_anomaly` checks each backward node's output and \
stops at the first NaN, naming the node (LogBackward0) and, in its \
warning, the forward line that created it. The graph view shows the same \
node; the trace gives its program line.

Turn on FIX: `log_softmax` computes the same values without forming p, \
and the gradients are finite.

Then turn on CLIP (with FIX): `clip_grad_norm_` returns the norm before \
clipping and scales the gradients so their joint norm is at most \
max_norm, capping the size of the next update.",
    controls: &[
        Control {
            name: "ANOMALY",
            label: "detect_anomaly",
            kind: ControlKind::Bool,
        },
        Control {
            name: "FIX",
            label: "log_softmax instead of log(softmax)",
            kind: ControlKind::Bool,
        },
        Control {
            name: "CLIP",
            label: "clip_grad_norm_",
            kind: ControlKind::Bool,
        },
    ],
    claims: &[
        Claim {
            text: "without the fix the gradient has NaN; with it, none",
            #[cfg(feature = "checks")]
            check: nan,
            at: Moment::Backward("backward"),
            shown_with: &[],
        },
        Claim {
            text: "anomaly mode raises naming LogBackward0, a node created on the line of torch.log",
            #[cfg(feature = "checks")]
            check: anomaly,
            at: Moment::Raised,
            shown_with: &[("ANOMALY", "True")],
        },
        Claim {
            text: "after clip_grad_norm_ the gradients' norm is at most max_norm",
            #[cfg(feature = "checks")]
            check: clip,
            at: Moment::End("clip"),
            shown_with: &[("FIX", "True"), ("CLIP", "True")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "gradient norm around clip_grad_norm_",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Plain,
    }],
    files: &[],
};

/// Whether any gradient written in the backward phase has a NaN.
fn has_nan(runs: &mut Runs<'_>, fix: bool) -> Result<bool, LessonError> {
    let flag = if fix { on("FIX") } else { off("FIX") };
    let m = runs.finished(&[flag])?;
    Ok(m.phase("backward")?
        .final_grads()
        .iter()
        .any(|g| g.values.iter().any(|v| v.is_nan())))
}

fn nan(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let broken = has_nan(runs, false)?;
    let fixed = has_nan(runs, true)?;
    Ok(Verdict::new(
        broken && !fixed,
        format!("NaN in gradient: log(softmax) {broken}, log_softmax {fixed}"),
    ))
}

fn anomaly(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[on("ANOMALY")])?;
    let (named, measured) = raised(
        &m,
        "RuntimeError",
        "Function 'LogBackward0' returned nan values",
    );
    // The line of the program's own `torch.log(` call, 1-based.
    let log_line = runs
        .lesson()
        .program
        .lines()
        .position(|l| l.contains("torch.log("))
        .map(|i| i as u32 + 1);
    let node_line = m
        .node_lines
        .iter()
        .find(|(name, _)| name == "LogBackward0")
        .and_then(|(_, line)| *line);
    Ok(Verdict::new(
        named && log_line.is_some() && node_line == log_line,
        format!(
            "{measured}; LogBackward0 created on line {node_line:?}, torch.log on line {log_line:?}"
        ),
    ))
}

fn clip(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[on("FIX"), on("CLIP")])?;
    let Some((before, after, max_norm)) = m.clips.last().copied() else {
        return Err(LessonError::NotMeasured("a clip_grad_norm_ call".into()));
    };
    Ok(Verdict::new(
        before > max_norm && after <= max_norm * (1.0 + 1e-6),
        format!("norm {before:.4} before, {after:.4} after, max_norm {max_norm}"),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let m = runs.finished(&[on("FIX"), on("CLIP")])?;
    Ok(m.clips
        .last()
        .map(|(before, after, _)| {
            vec![
                Figure::new("norm before clip", format!("{before:.4}")),
                Figure::new("norm after clip", format!("{after:.4}")),
            ]
        })
        .unwrap_or_default())
}
