//! Lesson 5: logging a tensor keeps its graph alive; `item()` does not.

use super::bytes;
use crate::runner::{int, off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 5,
    slug: "loss-vs-item",
    title: "Keeping the loss tensor instead of loss.item()",
    program: include_str!("../../programs/loss-vs-item.py"),
    text: "\
A value you keep for logging is a tensor unless you ask for a number. If it \
was computed with grad enabled, it carries its `grad_fn`, and through it the \
whole graph that made it, saved activations included. Put it in a list and \
none of that can be freed.

Here each training step also computes a value on a probe batch, the kind \
of thing people log. With KEEP_TENSOR on, the list holds those tensors: \
watch 'saved for backward' in the memory view rise by the same amount \
every step, a straight line that never comes down, and the graph view keep \
every probe graph pending. With KEEP_TENSOR off, `.item()` turns each value \
into a Python float, the graph is dropped at once and memory stays flat \
however many steps run.

The same holds for `total_loss += loss`: write `loss.item()`, or compute \
logged values under `torch.no_grad()`.",
    controls: &[
        Control {
            name: "KEEP_TENSOR",
            label: "keep the tensor (not .item())",
            kind: ControlKind::Bool,
        },
        Control {
            name: "STEPS",
            label: "steps",
            kind: ControlKind::Int { min: 1, max: 100 },
        },
    ],
    claims: &[
        Claim {
            text: "keeping tensors, memory after 100 steps grows linearly from 1 and 10 steps",
            #[cfg(feature = "checks")]
            check: linear,
            at: Moment::End("train"),
            shown_with: &[],
        },
        Claim {
            text: "with item(), memory after 1, 10 and 100 steps is the same",
            #[cfg(feature = "checks")]
            check: flat,
            at: Moment::End("train"),
            shown_with: &[("KEEP_TENSOR", "False")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "live bytes after the training steps",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Bytes,
    }],
    files: &[],
};

/// Live bytes (all categories) when the training phase ends.
fn after(runs: &mut Runs<'_>, keep: bool, steps: i64) -> Result<u64, LessonError> {
    let flag = if keep {
        on("KEEP_TENSOR")
    } else {
        off("KEEP_TENSOR")
    };
    let m = runs.finished(&[flag, int("STEPS", steps)])?;
    Ok(m.phase("train")?.end.iter().sum())
}

fn linear(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (m1, m10, m100) = (
        after(runs, true, 1)?,
        after(runs, true, 10)?,
        after(runs, true, 100)?,
    );
    // Equal increments per step: (m100 - m1) = 11 (m10 - m1).
    let per_step_10 = (m10 as f64 - m1 as f64) / 9.0;
    let per_step_100 = (m100 as f64 - m1 as f64) / 99.0;
    let ok = per_step_10 > 0.0 && super::close(per_step_10, per_step_100, 0.01);
    Ok(Verdict::new(
        ok,
        format!(
            "1 step {}, 10 steps {}, 100 steps {} ({} per step)",
            bytes(m1),
            bytes(m10),
            bytes(m100),
            bytes(per_step_100 as u64)
        ),
    ))
}

fn flat(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (m1, m10, m100) = (
        after(runs, false, 1)?,
        after(runs, false, 10)?,
        after(runs, false, 100)?,
    );
    Ok(Verdict::new(
        m1 == m10 && m10 == m100,
        format!(
            "1 step {}, 10 steps {}, 100 steps {}",
            bytes(m1),
            bytes(m10),
            bytes(m100)
        ),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let mut figures = vec![];
    for steps in [1, 10, 100] {
        figures.push(super::bytes_figure(
            format!("kept, after {steps}"),
            after(runs, true, steps)?,
        ));
    }
    for steps in [1, 100] {
        figures.push(super::bytes_figure(
            format!("item(), after {steps}"),
            after(runs, false, steps)?,
        ));
    }
    Ok(figures)
}
