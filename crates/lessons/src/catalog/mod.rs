//! The fourteen lessons, one file each, with the helpers their claims share.

mod accumulate_on_purpose;
mod beyond_scalar;
mod checkpointing;
mod custom_function;
mod digits;
mod eval_is_not_no_grad;
mod forgot_zero_grad;
mod graph_lifecycle;
mod inplace_version;
mod loss_vs_item;
mod nan_hunt;
mod no_grad_eval;
mod not_learning;
mod retain_graph;

use crate::error::LessonError;
use crate::measure::{GradStats, Measurements, Phase};
use crate::{Figure, Lesson};

/// Every lesson, in the order of LESSONS.md.
pub(crate) static LESSONS: [Lesson; 14] = [
    graph_lifecycle::LESSON,
    retain_graph::LESSON,
    forgot_zero_grad::LESSON,
    accumulate_on_purpose::LESSON,
    loss_vs_item::LESSON,
    no_grad_eval::LESSON,
    eval_is_not_no_grad::LESSON,
    not_learning::LESSON,
    inplace_version::LESSON,
    beyond_scalar::LESSON,
    custom_function::LESSON,
    checkpointing::LESSON,
    nan_hunt::LESSON,
    digits::LESSON,
];

pub(crate) use crate::compare::format_bytes as bytes;

/// Whether `a` and `b` agree within `tol`, relative to their size (and
/// absolutely near zero).
pub(crate) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// Whether two value lists have the same length and agree element-wise.
pub(crate) fn all_close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y, tol))
}

/// Whether two lists of gradients agree leaf by leaf: shapes, norms (over
/// every element) and the values the trace keeps.
pub(crate) fn same_grads(a: &[GradStats], b: &[GradStats], tol: f64) -> bool {
    !a.is_empty()
        && a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.shape == y.shape && close(x.norm, y.norm, tol) && all_close(&x.values, &y.values, tol)
        })
}

/// The largest element-wise difference of two gradients' values.
pub(crate) fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Whether the run ended with `type_name` and a message containing `text`
/// (PyTorch's words, the specification of the message).
pub(crate) fn raised(m: &Measurements, type_name: &str, text: &str) -> (bool, String) {
    match &m.error {
        Some(e) => (
            e.type_name == type_name && e.message.contains(text),
            format!("{}: {}", e.type_name, e.message),
        ),
        None => (false, "no exception".into()),
    }
}

/// The values of the last `.grad` written in `phase` to its first leaf.
pub(crate) fn first_grad(phase: &Phase) -> Result<Vec<f64>, LessonError> {
    phase
        .final_grads()
        .into_iter()
        .next()
        .map(|g| g.values)
        .ok_or_else(|| LessonError::NotMeasured(format!("a gradient in phase '{}'", phase.name)))
}

/// A figure that is a byte count.
pub(crate) fn bytes_figure(label: impl Into<String>, n: u64) -> Figure {
    Figure::new(label, bytes(n))
}
