//! What the plot draws of one run, back to front: the value ticks, the
//! backward and grad-mode spans, the bands of bytes by category, the GPU
//! allocator's reserve, the peak and the memory budget. The pinned run's
//! layer is `overlay`'s; the marks under the plot are `marks`'.

use gradscope_trace::Category;
use gradscope_trace::memory_chart::{MemoryChart, PlacedLabel, bytes_label};
use gradscope_trace::svg::tenths;
use gradscope_trace::training_charts::{SpanLayer, budget_y};
use yew::prelude::*;

/// The CSS class of a category (a band's and its legend entry's).
pub fn category_class(category: Category) -> &'static str {
    match category {
        Category::Parameter => "parameter",
        Category::Gradient => "gradient",
        Category::OptimizerState => "optimizer",
        Category::SavedForBackward => "saved",
        Category::Other => "other",
    }
}

/// The horizontal lines at the axis' values, labelled left of the plot.
pub fn ticks(chart: &MemoryChart, plot_width: f64) -> Html {
    let ticks = chart.ticks.iter().map(|t| {
        html! {
            <g class="tick">
                <line x1="0" x2={tenths(plot_width)} y1={tenths(t.y)} y2={tenths(t.y)} />
                <text x="-6" y={(t.y + 4.0).to_string()}>{ t.label.clone() }</text>
            </g>
        }
    });
    html! { { for ticks } }
}

/// The spans (backward, no_grad, ...), one path per kind with its labels.
pub fn spans(layers: &[SpanLayer]) -> Html {
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
    html! { { for spans } }
}

/// The stacked bands of bytes, one per category that held any.
pub fn bands(chart: &MemoryChart) -> Html {
    let bands = chart.bands.iter().filter(|b| !b.path.is_empty()).map(|b| {
        html! {
            <path class={classes!("band", category_class(b.category))} d={b.path.clone()} />
        }
    });
    html! { { for bands } }
}

/// The reserve: a line over the stack, labelled at its right end where
/// it sits (the legend gives its value at the cursor).
pub fn reserved_line(chart: &MemoryChart, plot_width: f64) -> Html {
    match &chart.reserved {
        Some(r) => html! {
            <g class="reserved" data-testid="memory-reserved" role="img"
               aria-label={format!("reserved by the GPU's caching allocator; at most {}", bytes_label(r.peak_bytes))}>
                <path d={r.path.clone()} />
                <text x={tenths(plot_width - 2.0)} y={tenths((r.end_y - 3.0).max(9.0))}>{ "reserved" }</text>
            </g>
        },
        None => html! {},
    }
}

/// The peak, when the stretch shown holds it, its label where
/// [`gradscope_trace::memory_chart::peak_labels`] placed it (clear of the
/// span labels and the pinned run's).
pub fn peak(chart: &MemoryChart, label: Option<&PlacedLabel>) -> Html {
    match chart.peak.as_ref().filter(|p| chart.shows(p.x)) {
        Some(p) => html! {
            <g class="peak" data-testid="memory-peak">
                <circle cx={tenths(p.x)} cy={tenths(p.y)} r="3.5" />
                { for label.map(placed_text) }
            </g>
        },
        None => html! {},
    }
}

/// A placed label's `<text>`.
pub fn placed_text(label: &PlacedLabel) -> Html {
    html! {
        <text x={tenths(label.x)} y={tenths(label.y)} text-anchor={if label.end { "end" } else { "start" }}>
            { label.text.clone() }
        </text>
    }
}

/// The memory budget of the next run, `mib` on each device, as a line
/// across the plot; far above what the run used, a note at the top
/// rather than a squashed chart.
pub fn budget(chart: &MemoryChart, mib: Option<u32>, plot_width: f64) -> Html {
    let Some(mib) = mib else {
        return html! {};
    };
    let bytes = u64::from(mib) << 20;
    let label = format!("budget {}", bytes_label(bytes));
    match budget_y(chart, bytes) {
        Some(y) => html! {
            <g class="budget" data-testid="memory-budget">
                <line x1="0" x2={tenths(plot_width)} y1={tenths(y)} y2={tenths(y)} />
                <text x={tenths(plot_width)} y={tenths((y + 10.0).max(9.0))}>{ label }</text>
            </g>
        },
        None => html! {
            <g class="budget above" data-testid="memory-budget">
                <text x={plot_width.to_string()} y="-5">{ format!("{label} ↑ (above the chart)") }</text>
            </g>
        },
    }
}
