//! Lesson 14: the whole training loop on real data.

use super::bytes;
use crate::measure::Measurements;
use crate::{
    Claim, Control, ControlKind, DataFile, Figure, Lesson, LessonError, Moment, Runs, Verdict,
};

/// The handwritten digits (UCI, CC BY 4.0; see data/README.md).
const DIGITS: DataFile = DataFile {
    name: "digits.csv.gz",
    #[cfg(feature = "checks")]
    bytes: include_bytes!("../../data/digits.csv.gz"),
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 14,
    slug: "digits",
    title: "Training on real data: handwritten digits",
    program: include_str!("../../programs/digits.py"),
    text: "\
Everything together, on 1797 real 8x8 images of handwritten digits (the \
UCI data set, CC BY 4.0). The first 1500 train a small network; the last \
297, written by other people, are held out to measure accuracy.

Each step is the loop you will write a thousand times: `zero_grad()`, \
forward, loss, `backward()`, `step()`. In the memory view each step is a \
tooth: saved tensors rise during the forward and drop to zero when \
backward releases them, while parameters and gradients stay level. The \
graph view shows one step's graph, rebuilt every time.

Validation runs under `model.eval()` and `torch.no_grad()`: its phase in \
the memory view has no saved-for-backward band at all. Accuracy starts \
near chance (one in ten) and climbs within a few epochs.

Try a smaller LR, or a BATCH of 1500 (one step per epoch), and see how \
much slower the loss falls.",
    controls: &[
        Control {
            name: "EPOCHS",
            label: "epochs",
            kind: ControlKind::Int { min: 1, max: 20 },
        },
        Control {
            name: "LR",
            label: "learning rate",
            kind: ControlKind::Float {
                min: 0.01,
                max: 2.0,
            },
        },
        Control {
            name: "BATCH",
            label: "batch size",
            kind: ControlKind::Int { min: 1, max: 1500 },
        },
    ],
    claims: &[
        Claim {
            text: "the training loss of the last epoch is below the first's",
            #[cfg(feature = "checks")]
            check: loss_falls,
            at: Moment::LastEnd("train"),
            shown_with: &[],
        },
        Claim {
            text: "held-out accuracy rises from near chance to at least 80%",
            #[cfg(feature = "checks")]
            check: accuracy,
            at: Moment::LastEnd("validate"),
            shown_with: &[],
        },
        Claim {
            text: "the validation phases save no tensors for backward",
            #[cfg(feature = "checks")]
            check: validation_saves_nothing,
            at: Moment::SavedPeak("validate"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[],
    files: &[DIGITS],
};

fn epoch_losses(m: &Measurements) -> Vec<f64> {
    m.phases_named("train")
        .map(|p| {
            let l: Vec<f64> = p.backwards.iter().filter_map(|b| b.root_value).collect();
            l.iter().sum::<f64>() / l.len().max(1) as f64
        })
        .collect()
}

fn accuracies(m: &Measurements) -> Vec<f64> {
    m.phases_named("validate")
        .filter_map(|p| p.values_read.last().copied())
        .collect()
}

fn loss_falls(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let l = epoch_losses(&*runs.finished(&[])?);
    let (Some(first), Some(last)) = (l.first(), l.last()) else {
        return Err(LessonError::NotMeasured("epoch losses".into()));
    };
    Ok(Verdict::new(
        l.len() > 1 && last < first,
        format!(
            "mean loss per epoch {:?}",
            l.iter().map(|v| format!("{v:.3}")).collect::<Vec<_>>()
        ),
    ))
}

fn accuracy(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let a = accuracies(&*runs.finished(&[])?);
    let (Some(first), Some(last)) = (a.first(), a.last()) else {
        return Err(LessonError::NotMeasured("validation accuracies".into()));
    };
    // Ten classes: chance is 0.1; "near" allows a lucky start.
    Ok(Verdict::new(
        *first < 0.25 && *last >= 0.8,
        format!("accuracy {first:.3} before training, {last:.3} after"),
    ))
}

fn validation_saves_nothing(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let phases: Vec<_> = m.phases_named("validate").collect();
    let most = phases
        .iter()
        .map(|p| p.saved_peak() - p.begin[3].min(p.saved_peak()))
        .max()
        .unwrap_or(0);
    let train_peak = m
        .phases_named("train")
        .map(|p| p.saved_peak())
        .max()
        .unwrap_or(0);
    Ok(Verdict::new(
        !phases.is_empty() && most == 0 && train_peak > 0,
        format!(
            "{} validations, most saved {}; training peak {}",
            phases.len(),
            bytes(most),
            bytes(train_peak)
        ),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let m = runs.finished(&[])?;
    let a = accuracies(&m);
    let l = epoch_losses(&m);
    Ok(vec![
        Figure::new(
            "final accuracy",
            a.last().map(|v| format!("{v:.3}")).unwrap_or_default(),
        ),
        Figure::new(
            "last epoch loss",
            l.last().map(|v| format!("{v:.3}")).unwrap_or_default(),
        ),
        super::bytes_figure("peak total", m.peak.iter().sum()),
    ])
}
