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

use gradscope_trace::compare::{Comparison, MemoryOverlay, RunFacts, matching_ledger};
use gradscope_trace::memory::MemoryTracker;
use gradscope_trace::memory_chart::{
    Axis, Frame, MarkerKind, MemoryChart, MemoryRecord, bytes_label,
};
use gradscope_trace::memory_zoom::SharedZoom;

use gradscope_trace::svg::{push_command, push_tenths, tenths};
use gradscope_trace::training_charts::{TrainingBuilder, budget_y, span_layers};
use gradscope_trace::{Category, EventLog};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::memory_live::LiveTensors;

mod header;
mod overlay;
pub(super) mod zoom;

use crate::follow::use_follow;
use crate::pin::use_pin;
use crate::size::use_width;
use crate::storage::{MAX_BUDGET_MIB, parse_budget};
use header::{MemoryHeader, WHOLE, icon};
use overlay::{compare_block, overlay_layer};

const LEFT: f64 = 58.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 16.0;
const PLOT_HEIGHT: f64 = 92.0;
/// The rows of forward, backward, step and zero_grad marks under the plot.
const MARK_ROW: f64 = 7.5;
const MARKS_TOP: f64 = PLOT_HEIGHT + 3.0;
const MARKS_HEIGHT: f64 = MARK_ROW * 4.0;
const BOTTOM: f64 = 3.0 + MARKS_HEIGHT + 16.0;

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

/// The CSS class of a category.
fn category_class(category: Category) -> &'static str {
    match category {
        Category::Parameter => "parameter",
        Category::Gradient => "gradient",
        Category::OptimizerState => "optimizer",
        Category::SavedForBackward => "saved",
        Category::Other => "other",
    }
}

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

/// About how wide one character of a span's label is, in chart units.
const LABEL_CHAR_WIDTH: f64 = 6.0;

/// Stacked areas, the peak, backward and grad-mode spans, and a legend that
/// reads the bytes at the cursor.
#[function_component]
pub fn MemoryPanel(props: &Props) -> Html {
    let container = use_node_ref();
    let svg_ref = use_node_ref();
    let width = use_width(container.clone()).max(LEFT + RIGHT + 40.0);
    let plot_width = width - LEFT - RIGHT;
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
    let drawn = {
        let record = record.clone();
        use_memo(
            (
                props.log.clone(),
                props.axis,
                plot_width as i64,
                device.clone(),
                comparing.clone(),
                zoom,
            ),
            move |(_, axis, w, device, comparing, zoom)| {
                let record = record.borrow();
                let size = (*w as f64, PLOT_HEIGHT);
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
                let layers = span_layers(&chart.spans, PLOT_HEIGHT, 1.0, |label| {
                    LABEL_CHAR_WIDTH * label.chars().count() as f64
                });
                (chart, layers, pinned)
            },
        )
    };
    let (chart, layers) = (&drawn.0, &drawn.1);
    let (pinned_chart, comparison) = match &drawn.2 {
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
    let spans = layers.iter().map(|layer| {
        let words = format!("{} ({} in the trace)", layer.label, layer.count);
        html! {
            <g class={classes!("span", layer.label.replace('_', "-"))}
               data-count={layer.count.to_string()} data-stretches={layer.stretches.to_string()}
               role="img" aria-label={words}>
                <path d={layer.path.clone()} />
                { for layer.labels.iter().map(|&(x, y)| html! {
                    <text x={tenths(x)} y={tenths(y)}>{ layer.label.clone() }</text>
                }) }
            </g>
        }
    });
    let bands = chart.bands.iter().filter(|b| !b.path.is_empty()).map(|b| {
        html! {
            <path class={classes!("band", category_class(b.category))} d={b.path.clone()} />
        }
    });
    let ticks = chart.ticks.iter().map(|t| {
        html! {
            <g class="tick">
                <line x1="0" x2={tenths(plot_width)} y1={tenths(t.y)} y2={tenths(t.y)} />
                <text x="-6" y={(t.y + 4.0).to_string()}>{ t.label.clone() }</text>
            </g>
        }
    });
    let peak = chart.peak.as_ref().filter(|p| chart.shows(p.x)).map(|p| {
        let anchor = if p.x > plot_width * 0.7 {
            "end"
        } else {
            "start"
        };
        html! {
            <g class="peak" data-testid="memory-peak">
                <circle cx={tenths(p.x)} cy={tenths(p.y)} r="3.5" />
                <text x={tenths(p.x)} y={tenths(p.y - 6.0)} text-anchor={anchor}>
                    { format!("peak {}", bytes_label(p.bytes)) }
                </text>
            </g>
        }
    });
    // One row per kind, in the order a training step runs them, each a
    // single path of ticks: a thousand steps are four elements. Rows and
    // labels tell the kinds apart, not colour alone.
    let marks = MarkerKind::ALL.iter().enumerate().map(|(row, &kind)| {
        let found = chart.markers.iter().find(|m| m.kind == kind);
        let count = found.map_or(0, |m| m.count);
        let y = MARKS_TOP + MARK_ROW * row as f64;
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
    let legend = Category::ALL.iter().map(|&c| html! {
        <li class={category_class(c)}>
            <span class="swatch" aria-hidden="true" />{ format!("{} {}", c.label(), bytes_label(now[c as usize])) }
        </li>
    });
    // The reserve: a line over the stack, labelled at its right end where
    // it sits, and in the legend with its value at the cursor.
    let reserved_line = chart.reserved.as_ref().map(|r| {
        html! {
            <g class="reserved" data-testid="memory-reserved" role="img"
               aria-label={format!("reserved by the GPU's caching allocator; at most {}", bytes_label(r.peak_bytes))}>
                <path d={r.path.clone()} />
                <text x={tenths(plot_width - 2.0)} y={tenths((r.end_y - 3.0).max(9.0))}>{ "reserved" }</text>
            </g>
        }
    });
    let reserved_legend = chart.reserved.as_ref().map(|_| html! {
        <li class="reserved" data-testid="memory-reserved-legend"
            title="Bytes the GPU's caching allocator holds from the device (torch.webgpu.memory_reserved()); the stack under it is allocated to tensors.">
            <span class="swatch" aria-hidden="true" />{ format!("reserved {}", bytes_label(reserved_now)) }
        </li>
    });
    let total: u64 = now.iter().sum();
    let budget = props.budget_mib.map(|mib| {
        let bytes = u64::from(mib) << 20;
        let label = format!("budget {}", bytes_label(bytes));
        match budget_y(chart, bytes) {
            Some(y) => html! {
                <g class="budget" data-testid="memory-budget">
                    <line x1="0" x2={tenths(plot_width)} y1={tenths(y)} y2={tenths(y)} />
                    <text x={tenths(plot_width)} y={tenths((y + 10.0).max(9.0))}>{ label }</text>
                </g>
            },
            // Far above what the run used: say so rather than squash the chart.
            None => html! {
                <g class="budget above" data-testid="memory-budget">
                    <text x={plot_width.to_string()} y="-5">{ format!("{label} ↑ (above the chart)") }</text>
                </g>
            },
        }
    });
    let overlay = pinned_chart.map(|pinned| overlay_layer(chart, pinned, plot_width));
    let compare_text = comparison.map(|c| {
        html! {
            <text class="compare-text" data-testid="compare-peak" x="0" y="-5">{ c.peak_text() }</text>
        }
    });
    let on_budget = props.on_budget.clone();
    let onchange = move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let mib = parse_budget(&input.value());
        // Show the value as capped, or empty for the default.
        input.set_value(&mib.map(|m| m.to_string()).unwrap_or_default());
        if let Some(on_budget) = &on_budget {
            on_budget.emit(mib);
        }
    };
    html! {
        <section class="panel memory" aria-label="Memory timeline">
            <MemoryHeader title={format!("Memory · {} live", bytes_label(total))} log={props.log.clone()}
                          pinned={pinned.is_some()} devices={devices.clone()} device={device.clone()}
                          on_device={Callback::from(move |d| chosen.set(Some(d)))}
                          axis={props.axis} on_axis={props.on_axis.clone()} svg={svg_ref.clone()}
                          size={(width, TOP + PLOT_HEIGHT + BOTTOM)} />
            <div class="chart" ref={container} tabindex="0" {onkeydown} data-testid="memory-zoom"
                 data-zoom={format!("{:.6},{:.6}", zoom.start, zoom.end)}
                 aria-label="memory timeline, zoomed with the training charts: + and - zoom, arrows pan, s shows the training step at the cursor, 0 the whole run; the wheel zooms and dragging pans"
                 title="wheel or + and - zoom, drag or arrows pan, s: the step at the cursor, 0: the whole run">
                <svg data-testid="memory-chart" role="img" width={tenths(width)} ref={svg_ref}
                     height={tenths(TOP + PLOT_HEIGHT + BOTTOM)}
                     data-device={device.clone()}
                     aria-label={format!("memory on {device} by category; peak {}", chart.peak.as_ref().map_or("none".into(), |p| bytes_label(p.bytes)))}>
                    <g transform={format!("translate({LEFT},{TOP})")}>
                        { for ticks }{ for spans }{ for bands }{ for overlay }{ for reserved_line }{ for peak }
                        { for budget }{ for compare_text }
                        <g data-testid="memory-markers">{ for marks }</g>
                        if chart.shows(cursor) {
                            <line class="cursor" x1={tenths(cursor)} x2={tenths(cursor)} y1="-4"
                                  y2={tenths(MARKS_TOP + MARKS_HEIGHT)} />
                        }
                        <text class="axis start" x="0" y={tenths(MARKS_TOP + MARKS_HEIGHT + 12.0)}>
                            { chart.start_label.clone() }
                        </text>
                        <text class="axis end" x={tenths(plot_width)} y={tenths(MARKS_TOP + MARKS_HEIGHT + 12.0)}>
                            { chart.end_label.clone() }
                        </text>
                    </g>
                </svg>
                { for zoom_reset }
            </div>
            { compare_block(comparison, pinned.as_ref()) }
            <ul class="legend" data-testid="memory-legend">
                { for legend }{ for reserved_legend }
                if props.on_budget.is_some() {
                    <li class="budget-control"
                        title="Tensor memory the next run may hold; past it an allocation raises torch.OutOfMemoryError. Empty: 1 GiB, the most.">
                        <label for="memory-budget">{ "budget" }</label>
                        <input type="number" id="memory-budget" data-testid="budget-input" min="1"
                               max={MAX_BUDGET_MIB.to_string()} step="1" placeholder={MAX_BUDGET_MIB.to_string()}
                               value={props.budget_mib.map(|m| m.to_string()).unwrap_or_default()}
                               aria-describedby="memory-budget-unit" {onchange} />
                        <span id="memory-budget-unit">{ "MiB on each device, for the next run" }</span>
                    </li>
                }
            </ul>
            <LiveTensors log={props.log.clone()} position={props.position.min(props.log.len())}
                         device={device.clone()} />
        </section>
    }
}
