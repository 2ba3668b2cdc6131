//! A small chart of a lesson's figures that compare settings: a bar per
//! figure, or a line per figure through its values per step. Inline SVG,
//! labelled for screen readers with the same numbers as text.

use gradscope_lessons::{ChartKind, ChartRows, Comparison, Unit};
use yew::prelude::*;

/// Props of [`LessonChart`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub comparison: Comparison,
    /// A row per figure: its label and values.
    pub rows: ChartRows,
}

const WIDTH: f64 = 320.0;
/// Where the bars begin (the labels end just before).
const BAR_X: f64 = 118.0;
/// The longest bar, leaving room for its value.
const BAR_MAX: f64 = 140.0;
const ROW: f64 = 16.0;
/// Series colours from the page's palette, in order.
const COLOURS: [&str; 4] = [
    "var(--blue)",
    "var(--vermillion)",
    "var(--green)",
    "var(--purple)",
];

/// One comparison, drawn.
#[function_component]
pub fn LessonChart(props: &Props) -> Html {
    let Props { comparison, rows } = props;
    if rows.is_empty() {
        return html! {};
    }
    let unit = comparison.unit;
    let said: Vec<String> = rows
        .iter()
        .map(|(label, values)| {
            let values: Vec<String> = values.iter().map(|v| format_value(*v, unit)).collect();
            format!("{label} {}", values.join(", "))
        })
        .collect();
    let label = format!("{}: {}", comparison.title, said.join("; "));
    let chart = match comparison.kind {
        ChartKind::Bars { .. } => bars(rows, unit),
        ChartKind::Lines => lines(rows, unit),
    };
    html! {
        <figure class="lesson-chart" data-testid="lesson-chart" data-kind={kind_name(comparison.kind)}>
            <figcaption>{ comparison.title }</figcaption>
            <svg role="img" aria-label={label} viewBox={chart.0} preserveAspectRatio="xMinYMin meet">
                { chart.1 }
            </svg>
        </figure>
    }
}

fn kind_name(kind: ChartKind) -> &'static str {
    match kind {
        ChartKind::Bars { .. } => "bars",
        ChartKind::Lines => "lines",
    }
}

/// A horizontal bar per row, its label left and its value right.
fn bars(rows: &ChartRows, unit: Unit) -> (String, Html) {
    let most = rows
        .iter()
        .flat_map(|(_, v)| v.first().copied())
        .fold(0.0f64, |a, b| a.max(b.abs()));
    let height = ROW * rows.len() as f64 + 2.0;
    let drawn = rows.iter().enumerate().map(|(i, (label, values))| {
        let value = values.first().copied().unwrap_or(0.0);
        let y = 1.0 + ROW * i as f64;
        let width = if most > 0.0 { BAR_MAX * value.abs() / most } else { 0.0 };
        html! {
            <g class="bar" data-value={value.to_string()}>
                <text class="bar-label" x={(BAR_X - 4.0).to_string()} y={(y + 11.0).to_string()}>{ label.clone() }</text>
                <rect x={BAR_X.to_string()} y={(y + 2.0).to_string()} width={format!("{width:.1}")}
                      height={(ROW - 4.0).to_string()} />
                <text class="bar-value" x={format!("{:.1}", BAR_X + width + 4.0)} y={(y + 11.0).to_string()}>
                    { format_value(value, unit) }
                </text>
            </g>
        }
    });
    (format!("0 0 {WIDTH} {height}"), html! { { for drawn } })
}

/// A line per row through its values (one per step), with a legend.
fn lines(rows: &ChartRows, unit: Unit) -> (String, Html) {
    let (left, right, top, bottom) = (40.0, WIDTH - 8.0, 6.0, 86.0);
    let steps = rows.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let most = rows
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::max);
    let x = |i: usize| left + (right - left) * i as f64 / (steps.max(2) - 1) as f64;
    let y = |v: f64| bottom - (bottom - top) * if most > 0.0 { v / most } else { 0.0 };
    let paths = rows.iter().enumerate().map(|(s, (label, values))| {
        let colour = COLOURS[s % COLOURS.len()];
        let d: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{}{:.1},{:.1}", if i == 0 { "M" } else { "L" }, x(i), y(*v)))
            .collect();
        let legend_y = bottom + 16.0 + 12.0 * s as f64;
        html! {
            <g class="series-line" data-label={label.clone()}>
                <path d={d.join(" ")} stroke={colour} />
                { for values.iter().enumerate().map(|(i, v)| html! {
                    <circle cx={format!("{:.1}", x(i))} cy={format!("{:.1}", y(*v))} r="2" fill={colour} />
                }) }
                <line x1={left.to_string()} x2={(left + 14.0).to_string()} y1={(legend_y - 3.0).to_string()}
                      y2={(legend_y - 3.0).to_string()} stroke={colour} />
                <text class="legend-text" x={(left + 18.0).to_string()} y={legend_y.to_string()}>{ label.clone() }</text>
            </g>
        }
    });
    let height = bottom + 10.0 + 12.0 * rows.len() as f64;
    let axis = html! {
        <g class="chart-axis">
            <line x1={left.to_string()} x2={right.to_string()} y1={bottom.to_string()} y2={bottom.to_string()} />
            <text x={(left - 4.0).to_string()} y={(top + 4.0).to_string()} class="end">{ format_value(most, unit) }</text>
            <text x={(left - 4.0).to_string()} y={bottom.to_string()} class="end">{ "0" }</text>
            <text x={left.to_string()} y={(bottom + 9.0).to_string()}>{ "step 1" }</text>
            <text x={right.to_string()} y={(bottom + 9.0).to_string()} class="end">{ format!("step {steps}") }</text>
        </g>
    };
    (
        format!("0 0 {WIDTH} {height}"),
        html! { <>{ axis }{ for paths }</> },
    )
}

/// A value as the figures write it: bytes in B, KiB or MiB, other numbers
/// to four significant digits.
fn format_value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Bytes => gradscope_lessons::format_bytes(v.round().max(0.0) as u64),
        Unit::Plain if v.fract() == 0.0 && v.abs() < 1e9 => format!("{v:.0}"),
        Unit::Plain if v.abs() >= 100.0 => format!("{v:.1}"),
        Unit::Plain => format!("{v:.4}"),
    }
}
