//! What the plot draws, placed once per change of the trace, the plot's
//! width, the ledger, the pin or the zoom (not of the cursor: stepping
//! and scrubbing reuse it): this run's chart and span layers, and, with a
//! run pinned beside it, the pinned run's chart on the same axes and the
//! two runs' facts.

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_trace::EventLog;
use gradscope_trace::compare::{Comparison, MemoryOverlay, RunFacts, matching_ledger};
use gradscope_trace::follow::Follow;
use gradscope_trace::memory_chart::{
    Axis, Frame, LabelBox, MemoryChart, MemoryRecord, PeakLabels, peak_labels,
};
use gradscope_trace::memory_zoom::Zoom;
use gradscope_trace::training_charts::{SpanLayer, TrainingBuilder, span_layers};
use yew::prelude::*;

use crate::pin::Pinned;

/// About how wide one character of a span's label is, in chart units.
const LABEL_CHAR_WIDTH: f64 = 6.0;
/// About how wide one character of a peak's label is (10 px, the current
/// peak's semi-bold), with room to spare: the placing must err wide.
const PEAK_CHAR_WIDTH: f64 = 6.4;
/// About how wide one character of the change written over the plot is
/// (10 px bold).
const CHANGE_CHAR_WIDTH: f64 = 6.8;

/// The plot's pictures.
pub struct Drawing {
    pub chart: MemoryChart,
    pub spans: Vec<SpanLayer>,
    /// The pinned run's chart and both runs' facts, when comparing.
    pub pinned: Option<(MemoryChart, Comparison)>,
    /// Where the peaks' labels go, clear of the span labels.
    pub labels: PeakLabels,
}

/// What the plot shows: `log` on `device`'s ledger, `size` (width,
/// height) in chart units, the stretch `zoom` of `axis`, beside
/// `comparing` if a pinned run compares with it.
pub struct Shown {
    pub log: EventLog,
    pub axis: Axis,
    pub size: (f64, f64),
    pub device: String,
    pub comparing: Option<Pinned>,
    pub zoom: Zoom,
}

/// The drawing of `shown`, from the followed `record` and `training`.
#[hook]
pub fn use_drawing(
    shown: Shown,
    record: Rc<RefCell<Follow<MemoryRecord>>>,
    training: Rc<RefCell<Follow<TrainingBuilder>>>,
) -> Rc<Drawing> {
    let Shown {
        log,
        axis,
        size: (width, height),
        device,
        comparing,
        zoom,
    } = shown;
    use_memo(
        (
            log,
            axis,
            width as i64,
            height as i64,
            device,
            comparing,
            zoom,
        ),
        move |(_, axis, w, h, device, comparing, zoom)| {
            let record = record.borrow();
            let height = *h as f64;
            let size = (*w as f64, height);
            let (chart, pinned) = match comparing {
                Some(p) => {
                    let overlay = MemoryOverlay::of_zoomed(
                        record.get(),
                        device,
                        p.record(),
                        *axis,
                        size,
                        *zoom,
                    );
                    let pinned_device = matching_ledger(p.record(), device);
                    let series = training.borrow().get().series();
                    let comparison = Comparison {
                        pinned: RunFacts::of(p.record(), &pinned_device, p.series()),
                        current: RunFacts::of(record.get(), device, &series),
                    };
                    (overlay.current, Some((overlay.pinned, comparison)))
                }
                None => (
                    MemoryChart::of_ledger_zoomed(
                        record.get(),
                        device,
                        *axis,
                        size,
                        Frame::default(),
                        *zoom,
                    ),
                    None,
                ),
            };
            // Spans closer than a pixel join, and each kind is one path:
            // the same picture with a few elements instead of one or two
            // per span.
            let spans = span_layers(&chart.spans, height, 1.0, |label| {
                LABEL_CHAR_WIDTH * label.chars().count() as f64
            });
            // Every word already on the plot: the span labels, and the
            // change written over it (`compare-text`, at y -5).
            let mut taken: Vec<LabelBox> = spans
                .iter()
                .flat_map(|l| {
                    let width = LABEL_CHAR_WIDTH * l.label.chars().count() as f64;
                    l.labels
                        .iter()
                        .map(move |&(x, y)| LabelBox::of_text(x, y, width, false))
                })
                .collect();
            if let Some((_, comparison)) = &pinned {
                let width = CHANGE_CHAR_WIDTH * comparison.peak_text().chars().count() as f64;
                taken.push(LabelBox::of_text(0.0, -5.0, width, false));
            }
            let labels = peak_labels(&chart, pinned.as_ref().map(|(p, _)| p), &taken, |text| {
                PEAK_CHAR_WIDTH * text.chars().count() as f64
            });
            Drawing {
                chart,
                spans,
                pinned,
                labels,
            }
        },
    )
}
