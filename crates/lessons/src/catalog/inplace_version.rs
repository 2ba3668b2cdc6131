//! Lesson 9: in-place ops, version counters, and the error they cause.

use super::{all_close, raised};
use crate::runner::{off, on};
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs, Verdict};

pub(crate) const LESSON: Lesson = Lesson {
    number: 9,
    slug: "inplace-version",
    title: "In-place operations and version counters",
    program: include_str!("../../programs/inplace-version.py"),
    text: "\
`sigmoid` saves its own output: its gradient is s(1 - s), computed from the \
result. If you then change that result in place with `mul_(2)`, backward \
would read the wrong numbers. PyTorch notices: every tensor has a version \
counter, bumped by each in-place op, and each saved tensor remembers the \
version it was saved at. Backward compares the two and refuses with \
'modified by an inplace operation ... is at version 1; expected version 0'.

In the graph view, SigmoidBackward0 holds its saved result; step to the \
`mul_` line and watch the program print the version going from 0 to 1, \
then backward fail.

Turn on USE_CLONE: `clone()` makes a new tensor with its own storage and \
counter, the in-place op changes only the copy, and backward gives exactly \
the gradient of the out-of-place program above it (the clone costs one \
more tensor of memory).",
    controls: &[Control {
        name: "USE_CLONE",
        label: "clone() before the in-place op",
        kind: ControlKind::Bool,
    }],
    claims: &[
        Claim {
            text: "without clone, backward raises PyTorch's error, at the version the in-place ops reached",
            #[cfg(feature = "checks")]
            check: error,
            at: Moment::Raised,
            shown_with: &[],
        },
        Claim {
            text: "with clone, the gradient equals the out-of-place program's",
            #[cfg(feature = "checks")]
            check: same_gradient,
            at: Moment::Backward("in-place"),
            shown_with: &[("USE_CLONE", "True")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[],
    files: &[],
};

fn error(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[off("USE_CLONE")])?;
    let bumps = m.phase("in-place")?.inplace_ops;
    let version = format!("is at version {bumps}; expected version 0");
    let (modified, measured) = raised(&m, "RuntimeError", "modified by an inplace operation");
    let (at_version, _) = raised(&m, "RuntimeError", &version);
    Ok(Verdict::new(
        bumps > 0 && modified && at_version,
        format!("{bumps} in-place op(s); {measured}"),
    ))
}

fn same_gradient(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[on("USE_CLONE")])?;
    let reference = super::first_grad(m.phase("out-of-place")?)?;
    let cloned = super::first_grad(m.phase("in-place")?)?;
    Ok(Verdict::new(
        all_close(&reference, &cloned, 1e-6),
        format!("out-of-place {reference:?}, with clone {cloned:?}"),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let m = runs.with(&[off("USE_CLONE")])?;
    Ok(vec![Figure::new(
        "in-place ops before backward",
        m.phase("in-place")?.inplace_ops.to_string(),
    )])
}
