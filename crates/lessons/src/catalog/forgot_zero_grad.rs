//! Lesson 3: gradients add up when `zero_grad()` is forgotten.

use super::{all_close, max_diff};
use crate::measure::Measurements;
use crate::runner::{off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

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

Each step also asks `torch.autograd.grad` for the batch's own gradient, \
which returns it without touching `.grad`. With zero_grad, `.grad` equals \
it at every step; without, `.grad` is the running sum of all of them.",
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
            text: "with zero_grad, .grad after each backward equals that batch's gradient (autograd.grad on the same loss)",
            #[cfg(feature = "checks")]
            check: batch_gradient,
            at: Moment::Backward("step"),
            shown_with: &[],
        },
        Claim {
            text: "without zero_grad, .grad after each backward equals the running sum of the batch gradients",
            #[cfg(feature = "checks")]
            check: running_sum,
            at: Moment::LastBackward("step"),
            shown_with: &[("ZERO_GRAD", "False")],
        },
        Claim {
            text: "without zero_grad the gradient norm at the last step is at least twice the norm with it",
            #[cfg(feature = "checks")]
            check: norm_ratio,
            at: Moment::LastBackward("step"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "gradient norm per step",
        kind: ChartKind::Lines,
        unit: Unit::Plain,
    }],
    files: &[],
};

/// One step's gradients, `w`'s then `b`'s.
struct Step {
    /// `.grad` after backward (leaves in creation order).
    grads: Vec<Vec<f64>>,
    /// The batch's own gradients from `autograd.grad` (inputs in order).
    batch: Vec<Vec<f64>>,
}

fn steps(m: &Measurements) -> Vec<Step> {
    m.phases_named("step")
        .map(|p| {
            let grads = p.final_grads().into_iter().map(|g| g.values).collect();
            let batch = p
                .backwards
                .iter()
                .flat_map(|b| b.captured.iter().map(|c| c.values.clone()))
                .collect();
            Step { grads, batch }
        })
        .collect()
}

fn step_norms(m: &Measurements) -> Vec<f64> {
    m.phases_named("step")
        .filter_map(|p| p.backwards.last().map(|b| b.grad_norm()))
        .collect()
}

/// Whether two lists of tensors' values agree, and their largest difference.
fn agree(a: &[Vec<f64>], b: &[Vec<f64>]) -> (bool, f64) {
    let ok =
        !a.is_empty() && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| all_close(x, y, 1e-5));
    let diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| max_diff(x, y))
        .fold(0.0, f64::max);
    (ok, diff)
}

fn batch_gradient(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let steps = steps(&*runs.finished(&[on("ZERO_GRAD")])?);
    let results: Vec<(bool, f64)> = steps.iter().map(|s| agree(&s.grads, &s.batch)).collect();
    let ok = !results.is_empty() && results.iter().all(|(ok, _)| *ok);
    let diff = results.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    Ok(Verdict::new(
        ok,
        format!("{} steps, largest difference {diff:.2e}", results.len()),
    ))
}

fn running_sum(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let steps = steps(&*runs.finished(&[off("ZERO_GRAD")])?);
    let mut sum: Vec<Vec<f64>> = vec![];
    let mut results = vec![];
    for step in &steps {
        if sum.is_empty() {
            sum = step.batch.clone();
        } else {
            for (s, g) in sum.iter_mut().zip(&step.batch) {
                for (a, b) in s.iter_mut().zip(g) {
                    *a += b;
                }
            }
        }
        results.push(agree(&step.grads, &sum));
    }
    let ok = results.len() > 1 && results.iter().all(|(ok, _)| *ok);
    let diff = results.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    Ok(Verdict::new(
        ok,
        format!("{} steps, largest difference {diff:.2e}", results.len()),
    ))
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
