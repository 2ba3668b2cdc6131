//! Lesson 8: three ways a model silently stops learning.

use super::raised;
use crate::measure::Measurements;
use crate::runner::choice;
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

const BUGS: [&str; 4] = ["none", "no_grad", "detach", "frozen"];

pub(crate) const LESSON: Lesson = Lesson {
    number: 8,
    slug: "not-learning",
    title: "Why isn't it learning?",
    program: include_str!("../../programs/not-learning.py"),
    text: "\
A model that does not learn rarely says so. Three common causes, each one \
line, selected with BUG:

- `no_grad`: the forward runs under `torch.no_grad()`, so no graph is \
built. This one at least fails loudly: `backward()` raises, because the loss \
has no `grad_fn`. The graph view stays empty.
- `detach`: a `.detach()` in the middle cuts the graph. The graph view \
shows the cut: the body's Linear never connects to the loss, its \
AccumulateGrad nodes are missing, and its weights never get a gradient. \
The head still learns, so the loss falls a little and hides the bug.
- `frozen`: the head's parameters have `requires_grad=False` (left over \
from fine-tuning code). The head gets no gradient and never changes.

Compare each with `none`: count the AccumulateGrad nodes in the graph view \
and watch the printed loss.",
    controls: &[Control {
        name: "BUG",
        label: "which bug",
        kind: ControlKind::Choice(&BUGS),
    }],
    claims: &[
        Claim {
            text: "the fixed program's loss falls",
            #[cfg(feature = "checks")]
            check: falls,
            at: Moment::LastEnd("step"),
            shown_with: &[],
        },
        Claim {
            text: "with the forward under no_grad, backward raises PyTorch's error",
            #[cfg(feature = "checks")]
            check: no_grad,
            at: Moment::Raised,
            shown_with: &[("BUG", "\"no_grad\"")],
        },
        Claim {
            text: "with detach or a frozen head, fewer parameters get a gradient than in the fixed program",
            #[cfg(feature = "checks")]
            check: starved,
            at: Moment::LastBackward("step"),
            shown_with: &[],
        },
        Claim {
            text: "the starved layer's weights are unchanged after training; in the fixed program both change",
            #[cfg(feature = "checks")]
            check: unchanged,
            at: Moment::End("check"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "last loss by bug",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Plain,
    }],
    files: &[],
};

fn losses(m: &Measurements) -> Vec<f64> {
    m.backwards.iter().filter_map(|b| b.root_value).collect()
}

/// How many distinct parameters received a gradient over the run.
fn learning(m: &Measurements) -> usize {
    let ids: std::collections::BTreeSet<u64> = m
        .backwards
        .iter()
        .flat_map(|b| b.grads.iter().map(|g| g.tensor))
        .collect();
    ids.len()
}

fn falls(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let l = losses(&*runs.finished(&[choice("BUG", "none")])?);
    let (Some(first), Some(last)) = (l.first(), l.last()) else {
        return Err(LessonError::NotMeasured("losses".into()));
    };
    Ok(Verdict::new(
        last < first,
        format!("loss {first:.4} at the first step, {last:.4} at the last"),
    ))
}

fn no_grad(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[choice("BUG", "no_grad")])?;
    let (ok, measured) = raised(
        &m,
        "RuntimeError",
        "element 0 of tensors does not require grad and does not have a grad_fn",
    );
    Ok(Verdict::new(ok, measured))
}

fn starved(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let fixed = learning(&*runs.finished(&[choice("BUG", "none")])?);
    let detach = learning(&*runs.finished(&[choice("BUG", "detach")])?);
    let frozen = learning(&*runs.finished(&[choice("BUG", "frozen")])?);
    Ok(Verdict::new(
        detach < fixed && frozen < fixed,
        format!("parameters with a gradient: fixed {fixed}, detach {detach}, frozen {frozen}"),
    ))
}

/// How far the body's and the head's weights moved, as the check phase read them.
fn moved(runs: &mut Runs<'_>, bug: &str) -> Result<(f64, f64), LessonError> {
    let m = runs.finished(&[choice("BUG", bug)])?;
    match m.phase("check")?.values_read[..] {
        [body, head, ..] => Ok((body, head)),
        _ => Err(LessonError::NotMeasured("the weights' movement".into())),
    }
}

fn unchanged(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (fixed_body, fixed_head) = moved(runs, "none")?;
    let (detach_body, detach_head) = moved(runs, "detach")?;
    let (frozen_body, frozen_head) = moved(runs, "frozen")?;
    let ok = fixed_body > 0.0
        && fixed_head > 0.0
        && detach_body == 0.0
        && detach_head > 0.0
        && frozen_body > 0.0
        && frozen_head == 0.0;
    Ok(Verdict::new(
        ok,
        format!(
            "sum |change| of body / head weights: fixed {fixed_body:.4} / {fixed_head:.4}, \
             detach {detach_body:.4} / {detach_head:.4}, frozen {frozen_body:.4} / {frozen_head:.4}"
        ),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let mut figures = vec![];
    for bug in ["none", "detach", "frozen"] {
        let l = losses(&*runs.finished(&[choice("BUG", bug)])?);
        if let Some(last) = l.last() {
            figures.push(Figure::new(
                format!("last loss, {bug}"),
                format!("{last:.4}"),
            ));
        }
    }
    Ok(figures)
}
