//! The memory timeline: bytes per category stacked over the trace, placed by
//! `gradscope_trace::memory_chart::MemoryChart`, with the peak, the backward and
//! grad-mode spans, rows of forward, backward, step and zero_grad marks
//! under it, and the cursor at the position shown. One device's ledger at
//! a time (the CPU's or a GPU's, the run's main one unless chosen); on a
//! GPU its caching allocator's reserve is a line over the allocated bytes.
//!
//! With a run pinned (`crate::pin`) and another shown, both share the
//! axes (`gradscope_trace::compare`): the pinned run's total is a faint
//! outline, each peak has a ruler across the plot, the change is written
//! above it, and the counts of both sit side by side under it.
//!
//! It zooms with the training charts (`zoom`: one stretch of the run for
//! both, in events), from the whole run to one step, the step's phases
//! marked in the rows under the plot.
//!
//! Its parts, each in `memory_panel/`: `drawing` places the plot's
//! pictures, `layers` draws them, `marks` the rows under the plot,
//! `overlay` the pinned run, `legend` the bytes at the cursor, `header`
//! the title and controls, `zoom` the stretch shown.

use gradscope_trace::EventLog;
use gradscope_trace::compare::matching_ledger;
use gradscope_trace::memory::MemoryTracker;
use gradscope_trace::memory_chart::{Axis, MemoryRecord, bytes_label};
use gradscope_trace::memory_zoom::SharedZoom;
use gradscope_trace::svg::tenths;
use gradscope_trace::training_charts::TrainingBuilder;
use yew::prelude::*;

use super::memory_live::LiveTensors;

mod drawing;
mod header;
mod layers;
mod legend;
mod marks;
mod overlay;
pub(super) mod zoom;

use crate::follow::use_follow;
use crate::pin::use_pin;
use crate::size::use_size;
use drawing::{Shown, use_drawing};
use header::{MemoryHeader, WHOLE, icon};
use legend::{AtCursor, legend};
use marks::{MARK_ROW, mark_rows};
use overlay::{compare_block, overlay_layer};

const LEFT: f64 = 58.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 16.0;
/// The plot's height until its box is measured, and where the panel's
/// height is its content's (the widget's): the chart then keeps it.
const PLOT_HEIGHT: f64 = 92.0;
/// The plot's height in a short panel: the chart gives way down to it so
/// that the legend's rows and the compared counts under it show (issue
/// 27: at 1280x800 and 1600x1000 a pinned comparison pushed the legend's
/// second row out of the 270-pixel panel); past it, the panel scrolls.
const MIN_PLOT_HEIGHT: f64 = 40.0;
/// The plot's height in a tall panel.
const MAX_PLOT_HEIGHT: f64 = 240.0;
/// The rows of forward, backward, step and zero_grad marks under the plot.
const MARKS_HEIGHT: f64 = MARK_ROW * 4.0;
const BOTTOM: f64 = 3.0 + MARKS_HEIGHT + 16.0;

/// The plot's height in a chart box `height` tall (0: not measured yet).
fn plot_height(height: f64) -> f64 {
    if height <= 0.0 {
        return PLOT_HEIGHT;
    }
    (height - TOP - BOTTOM).clamp(MIN_PLOT_HEIGHT, MAX_PLOT_HEIGHT)
}

/// Props of [`MemoryPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: EventLog,
    pub position: usize,
    pub axis: Axis,
    pub on_axis: Callback<Axis>,
    /// The memory budget for the next run, in MiB on each device (`None`: the engine's).
    #[prop_or_default]
    pub budget_mib: Option<u32>,
    /// Where the budget control reports; without it (the widget) the
    /// panel has no control.
    #[prop_or_default]
    pub on_budget: Option<Callback<Option<u32>>>,
}

/// Stacked areas, the peak, backward and grad-mode spans, and a legend that
/// reads the bytes at the cursor.
#[function_component]
pub fn MemoryPanel(props: &Props) -> Html {
    let container = use_node_ref();
    let svg_ref = use_node_ref();
    // The chart's box flexes with the panel (style.css): the plot takes
    // the height left by the header, the counts and the legend.
    let (width, height) = use_size(container.clone());
    let width = width.max(LEFT + RIGHT + 40.0);
    let plot_width = width - LEFT - RIGHT;
    let plot_height = plot_height(height);
    let marks_top = plot_height + 3.0;
    let svg_height = TOP + plot_height + BOTTOM;
    // Both follow the run: each frame costs the new events only.
    let record = use_follow::<MemoryRecord>(&props.log, props.log.len());
    // The ledger chosen; unset (or a device this run never used): the
    // device the run computed on, the GPU's from its first allocation.
    let chosen = use_state(|| None::<String>);
    let (devices, device) = {
        let record = record.borrow();
        let record = record.get();
        let devices = record.devices().to_vec();
        let device = chosen
            .as_ref()
            .filter(|d| devices.contains(d))
            .cloned()
            .or_else(|| record.main_device().map(str::to_string))
            .unwrap_or_else(|| "cpu".to_string());
        (devices, device)
    };
    // A run pinned before it finished stays pinned as it records.
    crate::pin::follow(&props.log);
    let pinned = use_pin();
    let comparing = pinned.clone().filter(|p| p.compares_with(&props.log));
    // The chart and its span layers change with the trace, not with the
    // cursor: stepping and scrubbing reuse both.
    let training = use_follow::<TrainingBuilder>(&props.log, props.log.len());
    // The stretch shown, the charts' too, on this chart's axis: its
    // extent is this run's, or both runs' when comparing.
    let extent = {
        let record = record.borrow();
        let record = record.get();
        let own = record.frame(&device);
        comparing.as_ref().map_or(own, |p| {
            own.union(p.record().frame(&matching_ledger(p.record(), &device)))
        })
    };
    let shared = zoom::use_shared_zoom(&props.log);
    let zoom = match props.axis {
        Axis::Events => shared.events_zoom(extent.events),
        Axis::Time => shared.time_zoom(&props.log, extent.end_time_us),
    };
    let on_zoom = {
        let (log, axis) = (props.log.clone(), props.axis);
        Callback::from(move |next| {
            let shared = match axis {
                Axis::Events => SharedZoom::of_events(next, extent.events),
                Axis::Time => SharedZoom::of_time(next, &log, extent.end_time_us),
            };
            zoom::share(shared, &log);
        })
    };
    zoom::use_zoom(
        container.clone(),
        zoom::PlotBox {
            left: LEFT,
            width: plot_width,
        },
        zoom,
        on_zoom.clone(),
    );
    let drawn = use_drawing(
        Shown {
            log: props.log.clone(),
            axis: props.axis,
            size: (plot_width, plot_height),
            device: device.clone(),
            comparing,
            zoom,
        },
        record.clone(),
        training,
    );
    let (chart, spans) = (&drawn.chart, &drawn.spans);
    let (pinned_chart, comparison) = match &drawn.pinned {
        Some((pinned, comparison)) => (Some(pinned), Some(comparison)),
        None => (None, None),
    };
    // Parked (stepped or scrubbed back): the bytes there; live: the
    // record's own, with this one left at the start.
    let parked = props.position < props.log.len();
    let at = use_follow::<MemoryTracker>(&props.log, if parked { props.position } else { 0 });
    let (now, reserved_now) = {
        let live = record.borrow();
        let here = at.borrow();
        let tracker = if parked {
            here.get()
        } else {
            live.get().tracker()
        };
        (tracker.device_bytes(&device), tracker.reserved(&device))
    };
    let cursor = chart.cursor_x(&props.log, props.position);
    let step_zoom = chart.step_zoom(record.borrow().get(), props.position);
    let onkeydown = move |e: KeyboardEvent| {
        if let Some(next) = zoom::key_zoom(&e, zoom, step_zoom) {
            e.prevent_default();
            on_zoom.emit(next);
        }
    };
    // Under the chart, between the axis' end labels: back to the whole run.
    let zoom_reset = (!zoom.is_whole()).then(|| {
        let log = props.log.clone();
        html! {
            <button type="button" class="icon-button zoom-reset" data-testid="memory-zoom-whole"
                    onclick={move |_| zoom::share(SharedZoom::Whole, &log)}
                    title="show the whole run again, and every step in the charts (key 0)">
                { icon(WHOLE) }{ "whole run" }
            </button>
        }
    });
    let total: u64 = now.iter().sum();
    let overlay = pinned_chart
        .map(|pinned| overlay_layer(chart, pinned, drawn.labels.pinned.as_ref(), plot_width));
    let compare_text = comparison.map(|c| {
        html! {
            <text class="compare-text" data-testid="compare-peak" x="0" y="-5">{ c.peak_text() }</text>
        }
    });
    let at_cursor = AtCursor {
        bytes: now,
        reserved: chart.reserved.as_ref().map(|_| reserved_now),
    };
    html! {
        <section class="panel memory" aria-label="Memory timeline">
            <MemoryHeader title={format!("Memory · {} live", bytes_label(total))} log={props.log.clone()}
                          pinned={pinned.is_some()} devices={devices.clone()} device={device.clone()}
                          on_device={Callback::from(move |d| chosen.set(Some(d)))}
                          axis={props.axis} on_axis={props.on_axis.clone()} svg={svg_ref.clone()}
                          size={(width, svg_height)} />
            <div class="chart" ref={container} tabindex="0" {onkeydown} data-testid="memory-zoom"
                 data-zoom={format!("{:.6},{:.6}", zoom.start, zoom.end)}
                 aria-label="memory timeline, zoomed with the training charts: + and - zoom, arrows pan, s shows the training step at the cursor, 0 the whole run; the wheel zooms and dragging pans"
                 title="wheel or + and - zoom, drag or arrows pan, s: the step at the cursor, 0: the whole run">
                <svg data-testid="memory-chart" role="img" width={tenths(width)} ref={svg_ref}
                     height={tenths(svg_height)}
                     data-device={device.clone()}
                     aria-label={format!("memory on {device} by category; peak {}", chart.peak.as_ref().map_or("none".into(), |p| bytes_label(p.bytes)))}>
                    <g transform={format!("translate({LEFT},{TOP})")}>
                        { layers::ticks(chart, plot_width) }{ layers::spans(spans) }
                        { layers::bands(chart) }{ for overlay }{ layers::reserved_line(chart, plot_width) }
                        { layers::peak(chart, drawn.labels.current.as_ref()) }
                        { layers::budget(chart, props.budget_mib, plot_width) }{ for compare_text }
                        { mark_rows(chart, marks_top) }
                        if chart.shows(cursor) {
                            <line class="cursor" x1={tenths(cursor)} x2={tenths(cursor)} y1="-4"
                                  y2={tenths(marks_top + MARKS_HEIGHT)} />
                        }
                        <text class="axis start" x="0" y={tenths(marks_top + MARKS_HEIGHT + 12.0)}>
                            { chart.start_label.clone() }
                        </text>
                        <text class="axis end" x={tenths(plot_width)} y={tenths(marks_top + MARKS_HEIGHT + 12.0)}>
                            { chart.end_label.clone() }
                        </text>
                    </g>
                </svg>
                { for zoom_reset }
            </div>
            { compare_block(comparison, pinned.as_ref()) }
            { legend(at_cursor, props.budget_mib, props.on_budget.clone()) }
            <LiveTensors log={props.log.clone()} position={props.position.min(props.log.len())}
                         device={device.clone()} />
        </section>
    }
}
