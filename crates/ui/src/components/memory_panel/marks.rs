//! The rows under the plot: one per kind of mark (forward, backward,
//! step, zero_grad), in the order a training step runs them, each a single
//! path of ticks, so a thousand steps are four elements. Rows and labels
//! tell the kinds apart, not colour alone.

use gradscope_trace::memory_chart::{MarkerKind, MemoryChart};
use gradscope_trace::svg::{push_command, push_tenths, tenths};
use yew::prelude::*;

/// The height of one row of marks, in chart units.
pub const MARK_ROW: f64 = 7.5;

/// The CSS class of a marker kind.
fn marker_class(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Forward => "forward",
        MarkerKind::Backward => "backward",
        MarkerKind::Step => "step",
        MarkerKind::ZeroGrad => "zero-grad",
    }
}

/// What one mark of a kind stands for, in words (for assistive technology).
fn marker_meaning(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Forward => "a forward pass began",
        MarkerKind::Backward => "backward() began",
        MarkerKind::Step => "optimizer.step()",
        MarkerKind::ZeroGrad => "optimizer.zero_grad()",
    }
}

/// The rows of `chart`'s marks, the first at `top`.
pub fn mark_rows(chart: &MemoryChart, top: f64) -> Html {
    let rows = MarkerKind::ALL.iter().enumerate().map(|(row, &kind)| {
        let found = chart.markers.iter().find(|m| m.kind == kind);
        let count = found.map_or(0, |m| m.count);
        let y = top + MARK_ROW * row as f64;
        let mut d = String::new();
        for x in found.map(|m| m.xs.as_slice()).unwrap_or_default() {
            push_command(&mut d, 'M', &[(*x, y + 1.0)]);
            d.push('v');
            push_tenths(&mut d, MARK_ROW - 2.0);
        }
        let words = format!("{}: {count} × {}", kind.label(), marker_meaning(kind));
        html! {
            <g class={classes!("marks", marker_class(kind))} data-testid={format!("marks-{}", marker_class(kind))}
               data-count={count.to_string()} role="img" aria-label={words.clone()}>
                <title>{ words }</title>
                <text x="-6" y={tenths(y + MARK_ROW - 1.0)}>{ kind.label() }</text>
                if !d.is_empty() {
                    <path d={d} />
                }
            </g>
        }
    });
    html! { <g data-testid="memory-markers">{ for rows }</g> }
}
