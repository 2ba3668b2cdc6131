//! Lesson 2: `retain_graph=True` keeps saved tensors for another backward.

use super::{bytes, close};
use crate::runner::{int, off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 2,
    slug: "retain-graph",
    title: "retain_graph keeps the graph, and its memory",
    program: include_str!("../../programs/retain-graph.py"),
    text: "\
`backward(retain_graph=True)` runs the graph but keeps its saved tensors, so \
a second backward can run. That second backward does not replace `x.grad`: \
it adds to it. For y = x^3 at x = 1 the first backward leaves 3, the second 6.

The loop shows the cost. Each step builds a new graph, runs backward, and \
keeps the loss in a list. With RETAIN on, every graph in that list still \
holds its saved tensors: watch 'saved for backward' climb step after step \
in the memory view, and the graph view fill with executed but unreleased \
nodes. With RETAIN off, each backward releases its graph's tensors; the \
list keeps only small losses and the saved bytes stay flat. Raise STEPS to \
see the line grow.

Use retain_graph only when you really backward twice through the same graph.",
    controls: &[
        Control {
            name: "RETAIN",
            label: "retain_graph=True in the loop",
            kind: ControlKind::Bool,
        },
        Control {
            name: "STEPS",
            label: "loop steps",
            kind: ControlKind::Int { min: 1, max: 50 },
        },
    ],
    claims: &[
        Claim {
            text: "the gradient after two backwards is twice the gradient after one",
            #[cfg(feature = "checks")]
            check: doubles,
            at: Moment::Backward("second backward"),
            shown_with: &[],
        },
        Claim {
            text: "saved bytes after the loop grow linearly with STEPS when retaining",
            #[cfg(feature = "checks")]
            check: linear,
            at: Moment::End("loop"),
            shown_with: &[],
        },
        Claim {
            text: "without retain_graph the saved bytes after the loop do not grow with STEPS",
            #[cfg(feature = "checks")]
            check: flat,
            at: Moment::End("loop"),
            shown_with: &[("RETAIN", "False")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "saved after 8 steps",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Bytes,
    }],
    files: &[],
};

fn doubles(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let first = super::first_grad(m.phase("first backward")?)?;
    let second = super::first_grad(m.phase("second backward")?)?;
    let ok = first.len() == second.len()
        && !first.is_empty()
        && first
            .iter()
            .zip(&second)
            .all(|(a, b)| close(2.0 * a, *b, 1e-6));
    Ok(Verdict::new(ok, format!("{first:?} then {second:?}")))
}

fn loop_saved(runs: &mut Runs<'_>, retain: bool, steps: i64) -> Result<u64, LessonError> {
    let flag = if retain { on("RETAIN") } else { off("RETAIN") };
    let m = runs.finished(&[flag, int("STEPS", steps)])?;
    Ok(m.phase("loop")?.saved_at_end())
}

fn linear(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (a, b) = (loop_saved(runs, true, 4)?, loop_saved(runs, true, 8)?);
    Ok(Verdict::new(
        a > 0 && b == 2 * a,
        format!("4 steps: {}, 8 steps: {}", bytes(a), bytes(b)),
    ))
}

fn flat(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (a, b) = (loop_saved(runs, false, 4)?, loop_saved(runs, false, 8)?);
    Ok(Verdict::new(
        a == b,
        format!("4 steps: {}, 8 steps: {}", bytes(a), bytes(b)),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    Ok(vec![
        super::bytes_figure("saved, 8 steps retained", loop_saved(runs, true, 8)?),
        super::bytes_figure("saved, 8 steps released", loop_saved(runs, false, 8)?),
    ])
}
