//! Loss and gradient norms per step, on a linear or log scale, from
//! `gradscope_trace::training_charts`: this only writes the SVG. With a
//! run pinned (`crate::pin`) and another shown, the pinned run's loss is
//! drawn faint under this run's, both over the longer run's steps.
//!
//! The charts zoom with the memory view: one zoom for both (its `zoom`
//! module's shared store, in events), drawn here over the steps whose
//! events it shows (`StepStretches`), with the same keys, wheel and drag,
//! from the whole run to one step. Zooming the memory view to a step shows
//! that step here; zooming here moves the memory view. The value axis fits
//! the steps shown, so a late loss that the first steps dwarfed can be read.

use gradscope_trace::EventLog;
use gradscope_trace::compare::shared_steps;
use gradscope_trace::memory_zoom::{SharedZoom, StepStretches};
use gradscope_trace::svg::{push_command, tenths};
use gradscope_trace::training_charts::{
    Marker, Plot, PlotLine, Scale, TrainingBuilder, line_style, step_zoom, window_points,
    zoomed_steps,
};
use yew::prelude::*;

use super::memory_panel::zoom;

use crate::follow::use_follow;
use crate::pin::use_pin;
use crate::size::use_width;

const LEFT: f64 = 44.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 16.0;
const PLOT_HEIGHT: f64 = 52.0;
const BOTTOM: f64 = 14.0;
/// Parameters drawn one line each; the rest are counted in the legend.
const MAX_PARAMS: usize = 7;

/// Props of [`ChartsPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: EventLog,
    pub position: usize,
}

/// The two charts (loss; gradient norms, joint and per parameter), a
/// scale toggle, and the legend.
#[function_component]
pub fn ChartsPanel(props: &Props) -> Html {
    let scale = use_state_eq(|| Scale::Linear);
    let container = use_node_ref();
    let width = use_width(container.clone()).max(LEFT + RIGHT + 40.0);
    let plot_width = width - LEFT - RIGHT;
    let builder = use_follow::<TrainingBuilder>(&props.log, props.log.len());
    let series = use_memo(props.log.clone(), move |_| builder.borrow().get().series());
    let pinned = use_pin().filter(|p| p.compares_with(&props.log));
    // The longer run's steps, when a pinned run shares the axis.
    let steps = pinned
        .as_ref()
        .map_or(series.steps(), |p| shared_steps(&series, p.series()));
    let stretches = use_memo((props.log.clone(), steps), |(log, steps)| {
        StepStretches::new(&series.begins, log.len(), *steps)
    });
    let zoom = stretches.steps_zoom(zoom::use_shared_zoom(&props.log));
    let on_zoom = {
        let (stretches, log) = (stretches.clone(), props.log.clone());
        Callback::from(move |next| zoom::share(stretches.shared(next), &log))
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
    let plots = use_memo(
        (
            props.log.clone(),
            *scale,
            plot_width as i64,
            pinned.clone(),
            zoom,
        ),
        |(_, scale, w, pinned, zoom)| {
            let pinned_series = pinned.as_ref().map(|p| p.series());
            let window = zoomed_steps(steps, *zoom);
            let cut = |points: &[_]| window_points(points, &window);
            let (w, h) = (*w as f64, PLOT_HEIGHT);
            let mut losses = vec![cut(&series.loss)];
            // A pinned run without a loss (no backward) adds no line.
            losses.extend(
                pinned_series
                    .filter(|p| !p.loss.is_empty())
                    .map(|p| cut(&p.loss)),
            );
            let losses: Vec<&[_]> = losses.iter().map(Vec::as_slice).collect();
            let loss = Plot::of(&losses, window.len(), *scale, w, h);
            let mut lines = vec![cut(&series.grad_norm)];
            lines.extend(
                series
                    .params
                    .iter()
                    .take(MAX_PARAMS)
                    .map(|p| cut(&p.points)),
            );
            let lines: Vec<&[_]> = lines.iter().map(Vec::as_slice).collect();
            let grad = Plot::of(&lines, window.len(), *scale, w, h);
            (loss, grad, window)
        },
    );
    let (loss_plot, grad_plot, window) = (&plots.0, &plots.1, plots.2.clone());
    let own_steps = series.steps();
    let cursor_step = series.steps_at(props.position).checked_sub(1);
    let cursor = cursor_step
        .filter(|step| window.contains(step))
        .map(|step| loss_plot.step_x(step - window.start));
    let at_cursor = cursor_step.and_then(|step| step_zoom(steps, step));
    let onkeydown = move |e: KeyboardEvent| {
        if let Some(next) = zoom::key_zoom(&e, zoom, at_cursor) {
            e.prevent_default();
            on_zoom.emit(next);
        }
    };
    let zoom_reset = (!zoom.is_whole()).then(|| {
        let log = props.log.clone();
        html! {
            <button type="button" data-testid="charts-zoom-whole" onclick={move |_| zoom::share(SharedZoom::Whole, &log)}
                    title="show every step again, and the whole run in the memory view (key 0)">{ "all steps" }</button>
        }
    });
    let axis_label = if window.len() == steps {
        if steps == 1 {
            "step 1".to_string()
        } else {
            format!("steps 1–{steps}")
        }
    } else if window.len() == 1 {
        format!("step {} of {steps}", window.start + 1)
    } else {
        format!("steps {}–{} of {steps}", window.start + 1, window.end)
    };
    let scale_button = |value: Scale, label: &'static str| {
        let scale = scale.clone();
        html! {
            <button type="button" aria-pressed={(*scale == value).to_string()}
                    onclick={move |_| scale.set(value)}>{ label }</button>
        }
    };
    let title = match own_steps {
        0 => "Charts".to_string(),
        1 => "Charts · 1 step".to_string(),
        n => format!("Charts · {n} steps"),
    };
    let chart = |testid: &'static str, name: &'static str, plot: &Plot, styles: &[usize]| {
        let off_count: usize = plot.lines.iter().map(|l| l.off.len()).sum();
        let label = if off_count == 0 {
            format!("{name} per step")
        } else {
            format!("{name} per step; {off_count} values not finite or off the scale, marked")
        };
        html! {
            <svg data-testid={testid} role="img" aria-label={label} width={tenths(width)}
                 height={tenths(TOP + PLOT_HEIGHT + BOTTOM)}>
                <text class="chart-name" x="2" y="11">{ name }</text>
                <g transform={format!("translate({LEFT},{TOP})")}>
                    { for plot.ticks.iter().map(|t| html! {
                        <g class="tick">
                            <line x1="0" x2={tenths(plot_width)} y1={tenths(t.y)} y2={tenths(t.y)} />
                            <text x="-5" y={(t.y + 3.5).to_string()}>{ t.label.clone() }</text>
                        </g>
                    }) }
                    { for plot.lines.get(styles.len()..).unwrap_or_default().iter().map(pinned_line) }
                    { for plot.lines.iter().zip(styles).map(|(line, &k)| series_line(line, k)) }
                    if let Some(x) = cursor {
                        <line class="cursor" x1={tenths(x)} x2={tenths(x)} y1="-4"
                              y2={tenths(PLOT_HEIGHT)} />
                    }
                    <text class="axis end" x={tenths(plot_width)} y={tenths(PLOT_HEIGHT + 12.0)}
                          data-testid="charts-steps">
                        { axis_label.clone() }
                    </text>
                </g>
            </svg>
        }
    };
    let grad_styles: Vec<usize> = (0..grad_plot.lines.len()).collect();
    let pinned_loss = loss_plot.lines.len() > 1;
    let hidden = series.params.len().saturating_sub(MAX_PARAMS);
    let legend_entries = std::iter::once("joint norm".to_string())
        .chain(
            series
                .params
                .iter()
                .take(MAX_PARAMS)
                .map(|p| p.label.clone()),
        )
        .enumerate()
        .map(|(k, label)| {
            let style = line_style(k);
            html! {
                <li>
                    <svg class="line-swatch" width="26" height="10" aria-hidden="true">
                        <line x1="1" x2="25" y1="5" y2="5" stroke={style.colour}
                              stroke-dasharray={style.dash} />
                        { marker(style.marker, 13.0, 5.0, style.colour) }
                    </svg>
                    { label }
                </li>
            }
        });
    html! {
        <section class="panel charts" aria-label="Training charts">
            <div class="panel-head">
                <h2 data-testid="charts-title">{ title }</h2>
                <div class="toggles">
                    { for zoom_reset }
                    <div class="toggle" role="group" aria-label="value scale">
                        { scale_button(Scale::Linear, "linear") }{ scale_button(Scale::Log, "log") }
                    </div>
                </div>
            </div>
            <div class="chart" ref={container} tabindex="0" {onkeydown} data-testid="charts-zoom"
                 data-zoom={format!("{:.6},{:.6}", zoom.start, zoom.end)}
                 aria-label="training charts, zoomed with the memory view: + and - zoom, arrows pan, s shows the step at the cursor, 0 every step; the wheel zooms and dragging pans"
                 title="wheel or + and - zoom, drag or arrows pan, s: the step at the cursor, 0: every step">
                if own_steps == 0 && !pinned_loss {
                    <p class="empty">{ "Loss and gradient norms appear here: one point per backward()." }</p>
                } else {
                    { chart("loss-chart", "loss", loss_plot, &[0]) }
                    { chart("grad-chart", "gradient norm", grad_plot, &grad_styles) }
                }
            </div>
            if own_steps > 0 || pinned_loss {
                <ul class="legend" data-testid="charts-legend">
                    { for legend_entries }
                    if pinned_loss {
                        <li data-testid="pinned-loss-legend">
                            <svg class="line-swatch" width="26" height="10" aria-hidden="true">
                                <line class="pinned-swatch" x1="1" x2="25" y1="5" y2="5" />
                            </svg>
                            { "pinned run's loss" }
                        </li>
                    }
                    if hidden > 0 {
                        <li>{ format!("+{hidden} more parameters, not drawn") }</li>
                    }
                </ul>
            }
        </section>
    }
}

/// One series: its path, its markers, and its non-finite values marked at
/// the edge with their name.
fn series_line(line: &PlotLine, k: usize) -> Html {
    let style = line_style(k);
    html! {
        <g class="series">
            <path d={line.path.clone()} stroke={style.colour} stroke-dasharray={style.dash} />
            { for line.points.iter().map(|&(x, y)| marker(style.marker, x, y, style.colour)) }
            { for line.off.iter().map(|m| html! {
                <g class="off" data-testid="off-mark" data-step={(m.step + 1).to_string()}>
                    <path d={cross(m.x, m.y)} />
                    <text x={m.x.to_string()} y={if m.y <= 0.0 { "8".to_string() } else { (m.y - 3.0).to_string() }}>
                        { m.label }
                    </text>
                </g>
            }) }
        </g>
    }
}

/// The pinned run's series: a faint dashed path under this run's, its
/// values off the chart left unmarked (they are the pinned run's story).
fn pinned_line(line: &PlotLine) -> Html {
    html! {
        <g class="pinned-run" data-testid="pinned-loss">
            <path d={line.path.clone()} />
        </g>
    }
}

/// The cross that marks a value off the chart at (x, y).
fn cross(x: f64, y: f64) -> String {
    let mut d = String::with_capacity(48);
    push_command(&mut d, 'M', &[(x, y)]);
    d.push_str("l-3,-3m3,3l3,3m-3,-3l3,-3m-3,3l-3,3");
    d
}

/// A small marker shape centred on (x, y).
fn marker(shape: Marker, x: f64, y: f64, colour: &'static str) -> Html {
    let mut d = String::with_capacity(40);
    match shape {
        Marker::Circle => {
            push_command(&mut d, 'M', &[(x - 2.5, y)]);
            d.push_str("a2.5,2.5 0 1,0 5,0a2.5,2.5 0 1,0 -5,0");
        }
        Marker::Square => {
            push_command(&mut d, 'M', &[(x - 2.5, y - 2.5)]);
            d.push_str("h5v5h-5z");
        }
        Marker::Triangle => {
            push_command(&mut d, 'M', &[(x, y - 3.0)]);
            d.push_str("l3,5h-6z");
        }
        Marker::Diamond => {
            push_command(&mut d, 'M', &[(x, y - 3.0)]);
            d.push_str("l3,3l-3,3l-3,-3z");
        }
    }
    html! { <path class="marker" d={d} fill={colour} /> }
}
