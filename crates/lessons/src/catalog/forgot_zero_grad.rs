//! Lesson 3: gradients add up when `zero_grad()` is forgotten.

use super::{all_close, max_diff};
use crate::measure::Measurements;
use crate::runner::{off, on};
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Runs, Verdict};

pub(crate) const LESSON: Lesson = Lesson {
    number: 3,
    slug: "forgot-zero-grad",
    title: "Forgetting zero_grad",
    program: include_str!("../../programs/forgot-zero-grad.py"),
    text: "\
`backward()` adds into `.grad`; it never overwrites it. That is why every \
training loop calls `optimizer.zero_grad()` before the next backward. \
Forget it and each step's gradient is the sum of all the batches so far.

Run the loop with ZERO_GRAD on and off. The graph view shows the same \
AccumulateGrad nodes either way; the difference is in what they write: \
with zero_grad each step starts from an empty `.grad`, without it each \
backward adds to the last one. The printed gradient norm keeps climbing, \
the optimizer takes steps that are too long, and with a larger LR the loss \
shoots up instead of falling.

The claims compare the two runs: the first two steps see the same weights \
in both, so the forgotten-zero_grad gradient at step two is exactly the \
sum of the two batch gradients of the correct run.",
    controls: &[
        Control {
            name: "ZERO_GRAD",
            label: "call optimizer.zero_grad()",
            kind: ControlKind::Bool,
        },
        Control {
            name: "STEPS",
            label: "steps",
            kind: ControlKind::Int { min: 2, max: 20 },
        },
        Control {
            name: "LR",
            label: "learning rate",
            kind: ControlKind::Float {
                min: 0.01,
                max: 1.0,
            },
        },
    ],
    claims: &[
        Claim {
            text: "with zero_grad, every backward starts from an empty .grad",
            check: fresh,
        },
        Claim {
            text: "without zero_grad, .grad at step 2 is the sum of the first two batch gradients",
            check: running_sum,
        },
        Claim {
            text: "without zero_grad the gradient norm at the last step is at least twice the norm with it",
            check: norm_ratio,
        },
    ],
    figures,
    files: &[],
};

/// Per step, each leaf's `.grad` after backward, in creation order.
fn step_grads(m: &Measurements) -> Vec<Vec<Vec<f64>>> {
    m.phases_named("step")
        .map(|p| p.final_grads().into_iter().map(|g| g.values).collect())
        .collect()
}

fn step_norms(m: &Measurements) -> Vec<f64> {
    m.phases_named("step")
        .filter_map(|p| p.backwards.last().map(|b| b.grad_norm()))
        .collect()
}

fn fresh(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[on("ZERO_GRAD")])?;
    let writes: Vec<bool> = m
        .backwards
        .iter()
        .flat_map(|b| b.grads.iter().map(|g| g.accumulated))
        .collect();
    let summed = writes.iter().filter(|a| **a).count();
    Ok(Verdict::new(
        !writes.is_empty() && summed == 0,
        format!(
            "{} writes to .grad, {summed} summed into an old one",
            writes.len()
        ),
    ))
}

fn running_sum(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let with = step_grads(&*runs.finished(&[on("ZERO_GRAD")])?);
    let without = step_grads(&*runs.finished(&[off("ZERO_GRAD")])?);
    let (Some(g0), Some(g1), Some(sum)) = (with.first(), with.get(1), without.get(1)) else {
        return Err(LessonError::NotMeasured("two steps' gradients".into()));
    };
    let expected: Vec<Vec<f64>> = g0
        .iter()
        .zip(g1)
        .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x + y).collect())
        .collect();
    let ok =
        expected.len() == sum.len() && expected.iter().zip(sum).all(|(e, s)| all_close(e, s, 1e-5));
    let diff = expected
        .iter()
        .zip(sum)
        .map(|(e, s)| max_diff(e, s))
        .fold(0.0, f64::max);
    Ok(Verdict::new(ok, format!("largest difference {diff:.2e}")))
}

fn norm_ratio(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let with = step_norms(&*runs.finished(&[on("ZERO_GRAD")])?);
    let without = step_norms(&*runs.finished(&[off("ZERO_GRAD")])?);
    let (Some(a), Some(b)) = (with.last(), without.last()) else {
        return Err(LessonError::NotMeasured("gradient norms per step".into()));
    };
    Ok(Verdict::new(
        *b >= 2.0 * a,
        format!("last step: {a:.4} with, {b:.4} without ({:.1}x)", b / a),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let show = |v: Vec<f64>| {
        v.iter()
            .map(|n| format!("{n:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let with = step_norms(&*runs.finished(&[on("ZERO_GRAD")])?);
    let without = step_norms(&*runs.finished(&[off("ZERO_GRAD")])?);
    Ok(vec![
        Figure::new("grad norm per step, zero_grad", show(with)),
        Figure::new("grad norm per step, forgotten", show(without)),
    ])
}
