//! Lesson 12: activation checkpointing trades compute for memory.

use super::{all_close, bytes};
use crate::measure::Measurements;
use crate::runner::int;
use crate::{Claim, Control, ControlKind, Figure, Lesson, LessonError, Runs, Verdict};

pub(crate) const LESSON: Lesson = Lesson {
    number: 12,
    slug: "checkpointing",
    title: "Checkpointing: memory for compute",
    program: include_str!("../../programs/checkpointing.py"),
    text: "\
Backward needs the activations forward computed, so a deep network keeps \
all of them until backward reaches them: the 'saved for backward' band in \
the memory view climbs through the forward and peaks where backward \
begins.

`checkpoint_sequential` cuts the network into SEGMENTS pieces. Inside a \
checkpointed piece nothing is kept but its input; when backward reaches \
the piece it runs the piece's forward again, this time keeping the \
activations, and frees them once used. In the graph view those nodes show \
as deferred; in the memory view the peak drops, and the op count shows the \
extra forward work. A print inside a block would run twice: the program \
counts the calls.

With one segment nothing is checkpointed (the last segment always runs \
normally). With about sqrt(DEPTH) segments memory falls to a fraction for \
about one extra forward pass, the classic trade of sublinear-memory \
training. Try DEPTH segments and compare the peak and the recomputed ops.",
    controls: &[
        Control {
            name: "SEGMENTS",
            label: "checkpoint segments",
            kind: ControlKind::Int { min: 1, max: 32 },
        },
        Control {
            name: "DEPTH",
            label: "blocks",
            kind: ControlKind::Int { min: 16, max: 32 },
        },
    ],
    claims: &[
        Claim {
            text: "with sqrt(DEPTH) segments the saved-bytes peak is under half the peak without checkpointing",
            check: peak,
        },
        Claim {
            text: "checkpointing recomputes forward ops, and more segments recompute more",
            check: recompute,
        },
        Claim {
            text: "the gradients equal those of the plain run",
            check: gradients,
        },
    ],
    figures,
    files: &[],
};

/// (saved peak, recomputed ops, forward ops) of the training step.
fn step(runs: &mut Runs<'_>, segments: i64) -> Result<(u64, usize, usize), LessonError> {
    let m = runs.finished(&[int("SEGMENTS", segments), int("DEPTH", 16)])?;
    let p = m.phase("train step")?;
    Ok((p.saved_peak(), p.recomputed_ops, p.forward_ops))
}

fn peak(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (plain, _, _) = step(runs, 1)?;
    let (sqrt, _, _) = step(runs, 4)?;
    Ok(Verdict::new(
        plain > 0 && 2 * sqrt < plain,
        format!(
            "1 segment {}, 4 segments {} ({:.0}%)",
            bytes(plain),
            bytes(sqrt),
            100.0 * sqrt as f64 / plain as f64
        ),
    ))
}

fn recompute(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let (_, r1, _) = step(runs, 1)?;
    let (_, r4, _) = step(runs, 4)?;
    let (_, r16, _) = step(runs, 16)?;
    Ok(Verdict::new(
        r1 == 0 && r4 > 0 && r16 > r4,
        format!("recomputed ops: 1 segment {r1}, 4 segments {r4}, 16 segments {r16}"),
    ))
}

fn grads(m: &Measurements) -> Result<Vec<Vec<f64>>, LessonError> {
    Ok(m.phase("train step")?
        .final_grads()
        .into_iter()
        .map(|g| g.values)
        .collect())
}

fn gradients(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let plain = grads(&*runs.finished(&[int("SEGMENTS", 1), int("DEPTH", 16)])?)?;
    let checkpointed = grads(&*runs.finished(&[int("SEGMENTS", 4), int("DEPTH", 16)])?)?;
    let ok = !plain.is_empty()
        && plain.len() == checkpointed.len()
        && plain
            .iter()
            .zip(&checkpointed)
            .all(|(a, b)| all_close(a, b, 1e-6));
    Ok(Verdict::new(
        ok,
        format!("{} gradients compared", plain.len()),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let (plain, _, forward) = step(runs, 1)?;
    let mut figures = vec![];
    for segments in [1, 4, 16] {
        let (peak, recomputed, _) = step(runs, segments)?;
        figures.push(Figure::new(
            format!("{segments} seg"),
            format!(
                "saved peak {} ({:.0}%), recomputed {recomputed} ops ({:.0}% of the {forward} forward ops)",
                bytes(peak),
                100.0 * peak as f64 / plain.max(1) as f64,
                100.0 * recomputed as f64 / forward.max(1) as f64
            ),
        ));
    }
    Ok(figures)
}
