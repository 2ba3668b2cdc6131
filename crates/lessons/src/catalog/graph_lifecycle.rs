//! Lesson 1: the graph is built as the forward runs and freed by backward.

use super::{close, raised};
use crate::runner::on;
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs, Verdict};

pub(crate) const LESSON: Lesson = Lesson {
    number: 1,
    slug: "graph-lifecycle",
    title: "A graph is built, used once, and freed",
    program: include_str!("../../programs/graph-lifecycle.py"),
    text: "\
Every operation on a tensor that requires grad adds a node to a graph: \
`x + 2` adds AddBackward0, each `*` a MulBackward0, `mean()` a MeanBackward0, \
and the leaf `x` gets an AccumulateGrad node that will write `x.grad`.

Watch the graph view while the forward phase runs: nodes appear one by one, \
and the memory view shows the bytes they keep in 'saved for backward' \
(a multiplication keeps both of its inputs, because its gradient needs them).

Then `backward()` runs the nodes from the output back to the leaf, fills \
`x.grad`, and releases every saved tensor as soon as its node has run: the \
saved bytes fall to zero. The graph is spent. Turn on SECOND_BACKWARD and \
the second call fails with PyTorch's error, because the tensors it would \
need are gone.",
    controls: &[Control {
        name: "SECOND_BACKWARD",
        label: "call backward() a second time",
        kind: ControlKind::Bool,
    }],
    claims: &[
        Claim {
            text: "out = mean(3(x+2)^2) = 27 and x.grad = 6(x+2)/4 = 4.5 in every element, for x = 1",
            #[cfg(feature = "checks")]
            check: values,
            at: Moment::Backward("backward"),
            shown_with: &[],
        },
        Claim {
            text: "forward builds AddBackward0, MulBackward0, MeanBackward0 and AccumulateGrad",
            #[cfg(feature = "checks")]
            check: nodes,
            at: Moment::End("forward"),
            shown_with: &[],
        },
        Claim {
            text: "saved bytes are above zero after forward and zero after backward",
            #[cfg(feature = "checks")]
            check: saved,
            at: Moment::End("forward"),
            shown_with: &[],
        },
        Claim {
            text: "a second backward raises 'Trying to backward through the graph a second time'",
            #[cfg(feature = "checks")]
            check: second_backward,
            at: Moment::Raised,
            shown_with: &[("SECOND_BACKWARD", "True")],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[],
    files: &[],
};

fn values(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let backward = m.phase("backward")?;
    let out = backward
        .backwards
        .first()
        .and_then(|b| b.root_value)
        .ok_or_else(|| LessonError::NotMeasured("the value backward started from".into()))?;
    let grad = super::first_grad(backward)?;
    // The chain rule for the program's own formula, at x = 1.
    let x = 1.0_f64;
    let (want_out, want_grad) = (3.0 * (x + 2.0).powi(2), 6.0 * (x + 2.0) / 4.0);
    let ok = close(out, want_out, 1e-6)
        && grad.len() == 4
        && grad.iter().all(|g| close(*g, want_grad, 1e-6));
    Ok(Verdict::new(ok, format!("out = {out}, x.grad = {grad:?}")))
}

fn nodes(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let forward = m.phase("forward")?;
    let wanted = [
        "AddBackward0",
        "MulBackward0",
        "MeanBackward0",
        "AccumulateGrad",
    ];
    let ok = wanted.iter().all(|w| forward.nodes.iter().any(|n| n == w));
    Ok(Verdict::new(ok, forward.nodes.join(", ")))
}

fn saved(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let after_forward = m.phase("forward")?.saved_at_end();
    let after_backward = m.phase("backward")?.saved_at_end();
    Ok(Verdict::new(
        after_forward > 0 && after_backward == 0,
        format!(
            "after forward {}, after backward {}",
            super::bytes(after_forward),
            super::bytes(after_backward)
        ),
    ))
}

fn second_backward(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[on("SECOND_BACKWARD")])?;
    let (ok, measured) = raised(
        &m,
        "RuntimeError",
        "Trying to backward through the graph a second time",
    );
    Ok(Verdict::new(ok, measured))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let m = runs.finished(&[])?;
    Ok(vec![
        super::bytes_figure("saved after forward", m.phase("forward")?.saved_at_end()),
        Figure::new("nodes", m.nodes.len().to_string()),
    ])
}
