//! A pinned run drawn beside the one shown: its outline and peak over
//! the chart, and the two runs' counts side by side under it.

use gradscope_trace::compare::{CompareRow, Comparison};
use gradscope_trace::memory_chart::{MemoryChart, PlacedLabel, bytes_label};
use gradscope_trace::svg::tenths;
use yew::prelude::*;

use super::layers::placed_text;
use crate::pin::Pinned;

/// The pinned run over this one's bands: its total's outline, faint, and
/// a ruler across the plot at each run's peak, the pinned one labelled
/// `label` (at an end of its ruler, clear of the span labels: see
/// [`gradscope_trace::memory_chart::peak_labels`]; this run's peak keeps
/// its own label).
pub fn overlay_layer(
    chart: &MemoryChart,
    pinned: &MemoryChart,
    label: Option<&PlacedLabel>,
    plot_width: f64,
) -> Html {
    let ruler = |class: &'static str, y: f64| {
        html! {
            <line class={classes!("ruler", class)} x1="0" x2={tenths(plot_width)}
                  y1={tenths(y)} y2={tenths(y)} />
        }
    };
    let pinned_peak = pinned.peak.as_ref().map(|p| {
        html! {
            <g class="pinned-peak" data-testid="pinned-peak" data-bytes={p.bytes.to_string()}>
                { ruler("pinned", p.y) }
                if pinned.shows(p.x) {
                    <circle cx={tenths(p.x)} cy={tenths(p.y)} r="3.5" />
                }
                { for label.map(placed_text) }
            </g>
        }
    });
    let current_ruler = chart.peak.as_ref().map(|p| ruler("current", p.y));
    html! {
        <g class="pinned-run" data-testid="pinned-overlay" role="img"
           aria-label={format!("the pinned run's total; peak {}", pinned.peak.as_ref().map_or("none".into(), |p| bytes_label(p.bytes)))}>
            if !pinned.outline.is_empty() {
                <path class="outline" d={pinned.outline.clone()} />
            }
            { for current_ruler }{ for pinned_peak }
        </g>
    }
}

/// Under the chart: the two runs' counts side by side when comparing, or
/// what the pin is waiting for.
pub fn compare_block(comparison: Option<&Comparison>, pinned: Option<&Pinned>) -> Html {
    match (comparison, pinned) {
        (Some(c), _) => {
            // One column per count, a row per run: three short lines
            // under the chart rather than a line per count.
            let rows = c.rows();
            let line = |name: &'static str, cell: fn(&CompareRow) -> &String| {
                html! {
                    <tr>
                        <th scope="row">{ name }</th>
                        { for rows.iter().map(|r| html! { <td>{ cell(r).clone() }</td> }) }
                    </tr>
                }
            };
            html! {
                <table class="compare-counts" data-testid="compare-counts">
                    <thead>
                        <tr>
                            <td></td>
                            { for rows.iter().map(|r| html! {
                                <th scope="col" title={r.label} data-label={r.label}>{ r.short }</th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { line("pinned", |r| &r.pinned) }{ line("this run", |r| &r.current) }
                        <tr class="change">
                            <th scope="row">{ "change" }</th>
                            { for rows.iter().map(|r| html! { <td>{ r.change.clone() }</td> }) }
                        </tr>
                    </tbody>
                </table>
            }
        }
        (None, Some(p)) => html! {
            <p class="compare-note" data-testid="compare-note" role="status">
                { format!("Pinned this run ({} events): change the program and run it to compare.", p.log.len()) }
            </p>
        },
        (None, None) => html! {},
    }
}
