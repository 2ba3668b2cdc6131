//! The memory panel's header on one row: the title, then the controls,
//! the rarely used ones (pin, the two exports) as icon buttons that keep
//! their words for screen readers and their place in the tab order, so a
//! 340-pixel panel (the page at 1280 wide) holds them beside the title.
//! The zoom's reset sits under the chart, between the axis' end labels.

use gradscope_trace::EventLog;
use gradscope_trace::memory_chart::Axis;
use yew::prelude::*;

/// Props of [`MemoryHeader`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// `Memory · 148 B live`.
    pub title: AttrValue,
    /// The run shown: what Pin keeps and CSV writes.
    pub log: EventLog,
    /// Whether a run is pinned.
    pub pinned: bool,
    /// The devices that held memory, and the one drawn.
    pub devices: Vec<String>,
    pub device: String,
    pub on_device: Callback<String>,
    pub axis: Axis,
    pub on_axis: Callback<Axis>,
    /// The chart, for the SVG export, and its size.
    pub svg: NodeRef,
    pub size: (f64, f64),
}

/// The name a ledger's choice prints: `CPU`, `GPU` (or the device's name
/// where the run used more than one GPU).
fn ledger_label(device: &str, devices: &[String]) -> String {
    if device == "cpu" {
        "CPU".into()
    } else if devices.iter().filter(|d| *d != "cpu").count() > 1 {
        format!("GPU {device}")
    } else {
        "GPU".into()
    }
}

/// A 14-pixel icon drawn with strokes of `d`; what the button says is in
/// words beside it, hidden but read.
pub(super) fn icon(d: &'static str) -> Html {
    html! {
        <svg class="icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
            <path d={d} />
        </svg>
    }
}

/// A pushpin.
const PIN: &str = "M4.5 1.5h5M5.5 1.5l-.5 4-2 2h8l-2-2-.5-4M7 7.5v5";
/// A picture: a frame and a hill.
const PICTURE: &str = "M1.5 2.5h11v9h-11zM2 10.5l3.5-4 3 3 1.5-1.5 2.5 2.5";
/// A table: a frame, two rows and a column.
const TABLE: &str = "M1.5 2.5h11v9h-11zM1.5 5.5h11M1.5 8.5h11M5.5 2.5v9";
/// Arrows out to both edges: the whole run.
pub(super) const WHOLE: &str = "M1.5 7h11M1.5 7l3-3M1.5 7l3 3M12.5 7l-3-3M12.5 7l-3 3";

/// The title, the ledgers (when the run used more than one device), pin,
/// the exports and the axis, on one row.
#[function_component]
pub fn MemoryHeader(props: &Props) -> Html {
    let ledgers = (props.devices.len() > 1).then(|| {
        let buttons = props.devices.iter().map(|d| {
            let pick = d.clone();
            let on_device = props.on_device.clone();
            html! {
                <button type="button" aria-pressed={(*d == props.device).to_string()} data-device={d.clone()}
                        title={format!("bytes on {d}")}
                        onclick={move |_| on_device.emit(pick.clone())}>{ ledger_label(d, &props.devices) }</button>
            }
        });
        html! {
            <div class="toggle" role="group" aria-label="ledger: the device whose memory is drawn"
                 data-testid="memory-ledger">
                { for buttons }
            </div>
        }
    });
    let pin = {
        let log = props.log.clone();
        let pinned = props.pinned;
        let onclick = move |_: MouseEvent| {
            if pinned {
                crate::pin::unpin();
            } else {
                crate::pin::pin(&log);
            }
        };
        let title = if pinned {
            "Unpin: forget the pinned run"
        } else {
            "Pin: keep this run to compare the next one with it: memory, counts and loss drawn side by side"
        };
        html! {
            <button type="button" class={classes!("icon-button", pinned.then_some("on"))} data-testid="pin-run"
                    {onclick} {title} disabled={!pinned && props.log.is_empty()}>
                { icon(PIN) }<span class="sr-only">{ if pinned { "Unpin" } else { "Pin" } }</span>
            </button>
        }
    };
    let export_svg = {
        let (svg, size) = (props.svg.clone(), props.size);
        move |_: MouseEvent| {
            let Some(svg) = svg.cast::<web_sys::Element>() else {
                return;
            };
            if let Ok(text) = crate::components::export::standalone_svg(&svg, size, ":not(*)", &[])
            {
                crate::components::export::download("memory.svg", "image/svg+xml", &text);
            }
        }
    };
    let export_csv = {
        let log = props.log.clone();
        move |_: MouseEvent| {
            let events: Vec<gradscope_trace::Event> = log.iter().cloned().collect();
            let csv = gradscope_trace::origin::memory_csv(&events);
            crate::components::export::download("memory.csv", "text/csv", &csv);
        }
    };
    let axis_button = |axis: Axis, label: &'static str| {
        let on_axis = props.on_axis.clone();
        html! {
            <button type="button" aria-pressed={(props.axis == axis).to_string()}
                    onclick={move |_| on_axis.emit(axis)}>{ label }</button>
        }
    };
    html! {
        <div class="panel-head memory-head" data-testid="memory-head">
            <h2 data-testid="memory-title" title={props.title.clone()}>{ props.title.clone() }</h2>
            <div class="toggles">
                { for ledgers }
                <div class="tools" role="group" aria-label="pin and export">
                    { pin }
                    <button type="button" class="icon-button" data-testid="export-memory-svg" onclick={export_svg}
                            title="SVG: save the memory timeline as an SVG picture, as drawn here">
                        { icon(PICTURE) }<span class="sr-only">{ "SVG" }</span>
                    </button>
                    <button type="button" class="icon-button" data-testid="export-memory-csv" onclick={export_csv}
                            title="CSV: save the memory timeline as CSV: each change's bytes per category, with the line and name of the tensor it concerns">
                        { icon(TABLE) }<span class="sr-only">{ "CSV" }</span>
                    </button>
                </div>
                <div class="toggle" role="group" aria-label="horizontal axis">
                    { axis_button(Axis::Events, "events") }{ axis_button(Axis::Time, "time") }
                </div>
            </div>
        </div>
    }
}
