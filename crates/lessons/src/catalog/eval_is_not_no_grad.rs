//! Lesson 7: `model.eval()` and `torch.no_grad()` are independent.

use super::bytes;
use crate::measure::Measurements;
use crate::runner::{off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 7,
    slug: "eval-is-not-no-grad",
    title: "eval() is not no_grad()",
    program: include_str!("../../programs/eval-is-not-no-grad.py"),
    text: "\
Two switches that sound alike do unrelated things. `model.eval()` tells \
layers to behave as at test time: Dropout stops dropping units and \
BatchNorm normalises with its running statistics instead of the batch's \
and stops updating them. It does nothing to autograd. `torch.no_grad()` \
stops autograd from recording, and does nothing to the layers.

Try the four combinations. With EVAL on and NO_GRAD off, the graph view \
still fills with nodes and the memory view still shows saved tensors: an \
evaluation loop written this way pays for a backward it never runs. With \
EVAL off and NO_GRAD on, nothing is saved, yet two passes over the same \
input give different outputs (Dropout draws new masks) and BatchNorm's \
running mean moves.

For evaluation you want both: `model.eval()` and `with torch.no_grad():`.",
    controls: &[
        Control {
            name: "EVAL",
            label: "model.eval()",
            kind: ControlKind::Bool,
        },
        Control {
            name: "NO_GRAD",
            label: "forward under torch.no_grad()",
            kind: ControlKind::Bool,
        },
    ],
    claims: &[
        Claim {
            text: "eval() without no_grad still saves tensors for backward",
            #[cfg(feature = "checks")]
            check: eval_saves,
            at: Moment::SavedPeak("forward"),
            shown_with: &[],
        },
        Claim {
            text: "no_grad in train mode still drops units: two passes differ, and agree in eval mode",
            #[cfg(feature = "checks")]
            check: dropout,
            at: Moment::End("compare"),
            shown_with: &[],
        },
        Claim {
            text: "BatchNorm's running statistics change in train mode only, with or without no_grad",
            #[cfg(feature = "checks")]
            check: running_stats,
            at: Moment::End("compare"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "saved for backward in the forward",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Bytes,
    }],
    files: &[],
};

/// The values the compare phase read: (pass difference, running-mean change).
fn compared(m: &Measurements) -> Result<(f64, f64), LessonError> {
    let p = m.phase("compare")?;
    match p.values_read.as_slice() {
        [differ, moved, ..] => Ok((*differ, *moved)),
        _ => Err(LessonError::NotMeasured(
            "the compare phase's two values".into(),
        )),
    }
}

fn run(
    runs: &mut Runs<'_>,
    eval: bool,
    no_grad: bool,
) -> Result<std::rc::Rc<Measurements>, LessonError> {
    let e = if eval { on("EVAL") } else { off("EVAL") };
    let n = if no_grad {
        on("NO_GRAD")
    } else {
        off("NO_GRAD")
    };
    runs.finished(&[e, n])
}

fn eval_saves(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let eval_only = run(runs, true, false)?.phase("forward")?.saved_peak();
    let both = run(runs, true, true)?.phase("forward")?.saved_peak();
    Ok(Verdict::new(
        eval_only > 0 && both == 0,
        format!(
            "eval(): {}, eval() + no_grad: {}",
            bytes(eval_only),
            bytes(both)
        ),
    ))
}

fn dropout(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (train, _) = compared(&*run(runs, false, true)?)?;
    let (eval, _) = compared(&*run(runs, true, true)?)?;
    Ok(Verdict::new(
        train > 0.0 && eval == 0.0,
        format!("sum |first - second|: train {train:.4}, eval {eval:.4}"),
    ))
}

fn running_stats(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let mut moved = vec![];
    for (eval, no_grad) in [(false, false), (false, true), (true, false), (true, true)] {
        moved.push(compared(&*run(runs, eval, no_grad)?)?.1);
    }
    let ok = moved[0] > 0.0 && moved[1] > 0.0 && moved[2] == 0.0 && moved[3] == 0.0;
    Ok(Verdict::new(
        ok,
        format!(
            "running mean moved by: train {:.4}, train+no_grad {:.4}, eval {:.4}, eval+no_grad {:.4}",
            moved[0], moved[1], moved[2], moved[3]
        ),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    Ok(vec![
        super::bytes_figure(
            "saved, eval()",
            run(runs, true, false)?.phase("forward")?.saved_peak(),
        ),
        super::bytes_figure(
            "saved, train()",
            run(runs, false, false)?.phase("forward")?.saved_peak(),
        ),
    ])
}
