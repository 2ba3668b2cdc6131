//! Lesson 11: custom autograd Functions: a stable log-sum-exp, a
//! straight-through estimator, and gradcheck.

use super::all_close;
use crate::runner::int;
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs, Verdict};

pub(crate) const LESSON: Lesson = Lesson {
    number: 11,
    slug: "custom-function",
    title: "Writing your own backward",
    program: include_str!("../../programs/custom-function.py"),
    text: "\
`torch.autograd.Function` lets you write forward and backward yourself. Two \
reasons to: numerical stability and gradients that autograd cannot derive.

log(sum(exp(x))) written naively overflows: float32's exp is infinite past \
about 88, so at SCALE = 100 the naive value is inf and its gradient NaN. \
Subtracting the maximum first keeps every exp at most 1. The custom \
Function does that and supplies its own backward, softmax times the \
incoming gradient, saving only x and the result: look at what its node \
keeps in the graph view.

Rounding has a zero gradient almost everywhere, which stops learning. A \
straight-through estimator rounds in forward and passes the gradient \
through unchanged in backward.

Hand-written backwards deserve a test: `gradcheck` compares them with \
finite differences in float64. Lower SCALE below 88 and the naive version \
works again.",
    controls: &[Control {
        name: "SCALE",
        label: "input scale",
        kind: ControlKind::Int { min: 1, max: 200 },
    }],
    claims: &[
        Claim {
            text: "at large SCALE the naive result is not finite and the stable one is",
            #[cfg(feature = "checks")]
            check: overflow,
            at: Moment::End("naive"),
            shown_with: &[],
        },
        Claim {
            text: "the stable Function's gradient equals autograd's softmax gradient",
            #[cfg(feature = "checks")]
            check: softmax,
            at: Moment::Backward("stable"),
            shown_with: &[],
        },
        Claim {
            text: "gradcheck passes for the stable Function",
            #[cfg(feature = "checks")]
            check: gradcheck,
            at: Moment::End("gradcheck"),
            shown_with: &[],
        },
        Claim {
            text: "the straight-through estimator passes the gradient through unchanged",
            #[cfg(feature = "checks")]
            check: straight_through,
            at: Moment::Backward("straight-through"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[],
    files: &[],
};

fn root(runs: &mut Runs<'_>, scale: i64, phase: &str) -> Result<f64, LessonError> {
    let m = runs.finished(&[int("SCALE", scale)])?;
    m.phase(phase)?
        .backwards
        .first()
        .and_then(|b| b.root_value)
        .ok_or_else(|| LessonError::NotMeasured(format!("the {phase} value")))
}

fn overflow(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let naive = root(runs, 100, "naive")?;
    let stable = root(runs, 100, "stable")?;
    let small = root(runs, 10, "naive")?;
    Ok(Verdict::new(
        !naive.is_finite() && stable.is_finite() && small.is_finite(),
        format!("SCALE 100: naive {naive}, stable {stable}; SCALE 10: naive {small}"),
    ))
}

fn softmax(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let stable = super::first_grad(m.phase("stable")?)?;
    let reference = super::first_grad(m.phase("reference")?)?;
    Ok(Verdict::new(
        all_close(&stable, &reference, 1e-6),
        format!("custom {stable:?}, autograd {reference:?}"),
    ))
}

fn gradcheck(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    // gradcheck raises when a gradient is wrong; it passed if the run
    // finished and it ran backward passes.
    let m = runs.finished(&[])?;
    let passes = m.phase("gradcheck")?.backwards.len();
    Ok(Verdict::new(
        passes > 0,
        format!("{passes} backward passes, no error"),
    ))
}

fn straight_through(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let through = super::first_grad(m.phase("straight-through")?)?;
    let identity = super::first_grad(m.phase("identity")?)?;
    Ok(Verdict::new(
        all_close(&through, &identity, 0.0),
        format!("through round {through:?}, through identity {identity:?}"),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    Ok(vec![
        Figure::new("naive at SCALE 100", root(runs, 100, "naive")?.to_string()),
        Figure::new(
            "stable at SCALE 100",
            format!("{:.4}", root(runs, 100, "stable")?),
        ),
    ])
}
