//! Lesson 12: activation checkpointing trades compute for memory.

use super::bytes;
use crate::measure::{GradStats, Measurements};
use crate::runner::int;
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

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
normally). With DEPTH segments every block's input is kept, which is as \
much as no checkpointing kept. In between, memory is the kept inputs plus \
one segment's activations, lowest near sqrt(DEPTH) segments, for about \
one extra forward pass: the trade of sublinear-memory training. Compare \
the peak at 1, 4 and 16 segments.",
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
            text: "sqrt(DEPTH) segments give the lowest activation peak of 1, 2, 4, 8 and 16, under 2/3 of no checkpointing",
            #[cfg(feature = "checks")]
            check: peak,
            at: Moment::ActivationPeak("train step"),
            shown_with: &[],
        },
        Claim {
            text: "checkpointing recomputes forward ops, and more segments recompute more",
            #[cfg(feature = "checks")]
            check: recompute,
            at: Moment::Backward("train step"),
            shown_with: &[],
        },
        Claim {
            text: "the gradients equal those of the plain run",
            #[cfg(feature = "checks")]
            check: gradients,
            at: Moment::Backward("train step"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[
        Comparison {
            title: "activation peak by segments",
            kind: ChartKind::Bars { number: 0 },
            unit: Unit::Bytes,
        },
        Comparison {
            title: "ops recomputed by segments",
            kind: ChartKind::Bars { number: 4 },
            unit: Unit::Plain,
        },
    ],
    files: &[],
};

/// (activation peak, recomputed ops, forward ops) of the training step.
fn step(runs: &mut Runs<'_>, segments: i64) -> Result<(u64, usize, usize), LessonError> {
    let m = runs.finished(&[int("SEGMENTS", segments), int("DEPTH", 16)])?;
    let p = m.phase("train step")?;
    Ok((p.peak_activation, p.recomputed_ops, p.forward_ops))
}

fn peak(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let mut peaks = vec![];
    for segments in [1, 2, 4, 8, 16] {
        peaks.push((segments, step(runs, segments)?.0));
    }
    let plain = peaks[0].1;
    let sqrt = peaks[2].1;
    let lowest = peaks.iter().all(|(s, p)| *s == 4 || *p > sqrt);
    let shown: Vec<String> = peaks
        .iter()
        .map(|(s, p)| format!("{s}: {}", bytes(*p)))
        .collect();
    Ok(Verdict::new(
        plain > 0 && lowest && 3 * sqrt < 2 * plain,
        format!(
            "activation peak by segments {} ({:.0}% at 4)",
            shown.join(", "),
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

fn grads(m: &Measurements) -> Result<Vec<GradStats>, LessonError> {
    Ok(m.phase("train step")?.final_grads())
}

fn gradients(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let plain = grads(&*runs.finished(&[int("SEGMENTS", 1), int("DEPTH", 16)])?)?;
    let checkpointed = grads(&*runs.finished(&[int("SEGMENTS", 4), int("DEPTH", 16)])?)?;
    Ok(Verdict::new(
        super::same_grads(&plain, &checkpointed, 1e-6),
        format!("{} gradients compared", plain.len()),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let (plain, _, forward) = step(runs, 1)?;
    let mut figures = vec![];
    for segments in [1, 2, 4, 8, 16] {
        let (peak, recomputed, _) = step(runs, segments)?;
        let m = runs.finished(&[int("SEGMENTS", segments), int("DEPTH", 16)])?;
        let p = m.phase("train step")?;
        figures.push(Figure::new(
            format!("{segments} seg"),
            format!(
                "activation peak {} ({:.0}%; saved {}, total {}), recomputed {recomputed} ops ({:.0}% of the {forward} forward ops)",
                bytes(peak),
                100.0 * peak as f64 / plain.max(1) as f64,
                bytes(p.saved_peak()),
                bytes(p.peak_total),
                100.0 * recomputed as f64 / forward.max(1) as f64
            ),
        ));
    }
    Ok(figures)
}
