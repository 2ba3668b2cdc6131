//! Lesson 4: gradient accumulation on purpose, micro-batch by micro-batch.

use super::{bytes, max_diff};
use crate::runner::int;
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 4,
    slug: "accumulate-on-purpose",
    title: "Accumulating gradients on purpose",
    program: include_str!("../../programs/accumulate-on-purpose.py"),
    text: "\
The same summing that hurts when zero_grad is forgotten is a tool when you \
mean it. Split a batch into MICRO_BATCHES pieces, divide each piece's loss \
by their number, call backward on each, and step once: the summed gradient \
is the full batch's gradient.

Compare the two phases in the memory view. The full batch saves the \
activations of all 32 rows at once; each micro-batch saves only its share \
and releases it in its own backward, so the peak of 'saved for backward' \
falls about as one over MICRO_BATCHES. The price is more, smaller \
operations: count the nodes in the graph view. The peak does not reach \
zero: each chunk is a view of `x`, and a saved view keeps all of `x` alive.

One caveat: layers that look across the batch, like BatchNorm, see smaller \
batches and compute different statistics, so the equality holds only for \
models whose rows are independent, as here.",
    controls: &[Control {
        name: "MICRO_BATCHES",
        label: "micro-batches",
        kind: ControlKind::Int { min: 1, max: 8 },
    }],
    claims: &[
        Claim {
            text: "the accumulated gradient equals the full-batch gradient within 1e-5",
            #[cfg(feature = "checks")]
            check: equal,
            at: Moment::Backward("micro-batches"),
            shown_with: &[],
        },
        Claim {
            text: "peak saved bytes of the micro-batches fall as 1/MICRO_BATCHES above a constant part",
            #[cfg(feature = "checks")]
            check: peak,
            at: Moment::SavedPeak("micro-batches"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "saved peak by micro-batch count",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Bytes,
    }],
    files: &[],
};

fn equal(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let full = m.phase("full batch")?.final_grads();
    let micro = m.phase("micro-batches")?.final_grads();
    let ok = super::same_grads(&full, &micro, 1e-5);
    let diff = full
        .iter()
        .zip(&micro)
        .map(|(a, b)| max_diff(&a.values, &b.values))
        .fold(0.0, f64::max);
    Ok(Verdict::new(
        ok,
        format!("{} parameters, largest difference {diff:.2e}", full.len()),
    ))
}

fn micro_peak(runs: &mut Runs<'_>, n: i64) -> Result<(u64, u64), LessonError> {
    let m = runs.finished(&[int("MICRO_BATCHES", n)])?;
    Ok((
        m.phase("full batch")?.saved_peak(),
        m.phase("micro-batches")?.saved_peak(),
    ))
}

fn peak(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let mut peaks = vec![];
    for n in [1, 2, 4, 8] {
        peaks.push(micro_peak(runs, n)?.1 as f64);
    }
    let [p1, p2, p4, p8] = peaks[..] else {
        return Err(LessonError::NotMeasured("four peaks".into()));
    };
    // peak(N) = constant + scaled / N, fitted on N = 1 and 2, must
    // predict N = 4 and 8. The constant is `x` itself: each chunk is a
    // view, and saving a view keeps its whole storage alive.
    let scaled = 2.0 * (p1 - p2);
    let constant = p1 - scaled;
    let predicted = |n: f64| constant + scaled / n;
    let ok = scaled > constant.max(0.0)
        && super::close(p4, predicted(4.0), 0.1)
        && super::close(p8, predicted(8.0), 0.1);
    Ok(Verdict::new(
        ok,
        format!(
            "peaks {} / {} / {} / {} for 1 / 2 / 4 / 8: {} + {} / N",
            bytes(p1 as u64),
            bytes(p2 as u64),
            bytes(p4 as u64),
            bytes(p8 as u64),
            bytes(constant.max(0.0) as u64),
            bytes(scaled as u64)
        ),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let mut figures = vec![];
    for n in [1, 2, 4, 8] {
        let (_, p) = micro_peak(runs, n)?;
        figures.push(super::bytes_figure(format!("saved peak, {n} micro"), p));
    }
    Ok(figures)
}
