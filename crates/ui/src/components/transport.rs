//! Run, stop, step, replay at a chosen speed, and the scrub slider over the
//! recorded trace.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use gradscope_trace::step::StepBy;

use crate::state::{Replay, SPEEDS};

/// Props of [`Transport`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub running: bool,
    /// Whether the engine can take a run.
    pub can_run: bool,
    pub position: usize,
    pub len: usize,
    pub line: Option<u32>,
    pub on_run: Callback<()>,
    pub on_stop: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_step: Callback<(StepBy, bool)>,
    pub on_seek: Callback<usize>,
    /// Replay: whether it plays, and its speed.
    #[prop_or_default]
    pub replay: Replay,
    /// Start (`true`) or pause replay, and a new replay speed (statements
    /// per second); without them (the widget) there is no replay control.
    #[prop_or_default]
    pub on_replay: Option<(Callback<bool>, Callback<u32>)>,
    /// Step to the next (`true`) or previous training pass (where a step's
    /// backward begins); without it there are no pass buttons.
    #[prop_or_default]
    pub on_pass: Option<Callback<bool>>,
}

/// The controls bar.
#[function_component]
pub fn Transport(props: &Props) -> Html {
    let step = |by: StepBy, forward: bool, text: &'static str, label: &'static str| {
        let on_step = props.on_step.clone();
        let disabled = if forward {
            props.position >= props.len
        } else {
            props.position == 0
        };
        html! {
            <button type="button" class="step" aria-label={label} title={label} {disabled}
                    onclick={move |_| on_step.emit((by, forward))}>{ text }</button>
        }
    };
    // The same stops as the graph's pass buttons; a trace without a
    // backward has none, and the buttons go to its ends.
    let passes = props.on_pass.as_ref().map(|on_pass| {
        let pass = |forward: bool, text: &'static str, label: &'static str, testid: &'static str| {
            let on_pass = on_pass.clone();
            let disabled = if forward {
                props.position >= props.len
            } else {
                props.position == 0
            };
            html! {
                <button type="button" class="step pass" aria-label={label} title={label}
                        data-testid={testid} {disabled}
                        onclick={move |_| on_pass.emit(forward)}>{ text }</button>
            }
        };
        html! {
            <span class="steps passes" role="group" aria-label="training passes">
                { pass(false, "◀ pass", "back to the previous step's backward", "transport-pass-back") }
                { pass(true, "pass ▶", "forward to the next step's backward", "transport-pass-next") }
            </span>
        }
    });
    let on_seek = props.on_seek.clone();
    let oninput = move |e: InputEvent| {
        let value = e.target_unchecked_into::<HtmlInputElement>().value();
        if let Ok(position) = value.parse() {
            on_seek.emit(position);
        }
    };
    let where_ = match props.line {
        Some(line) => format!("event {} / {} · line {line}", props.position, props.len),
        None => format!("event {} / {}", props.position, props.len),
    };
    let replay = props.on_replay.as_ref().map(|(on_replay, on_speed)| {
        let playing = props.replay.playing;
        let on_replay = on_replay.clone();
        let on_speed = on_speed.clone();
        let onchange = move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(per_second) = value.parse() {
                on_speed.emit(per_second);
            }
        };
        let speeds = SPEEDS.iter().map(|&s| {
            html! {
                <option value={s.to_string()} selected={s == props.replay.per_second}>
                    { format!("{s} statement{}/s", if s == 1 { "" } else { "s" }) }
                </option>
            }
        });
        html! {
            <span class="replay">
                <button type="button" data-testid="replay" aria-pressed={playing.to_string()}
                        disabled={props.running || props.len == 0}
                        title="Replay the trace a statement at a time"
                        onclick={move |_| on_replay.emit(!playing)}>
                    { if playing { "❚❚ Pause" } else { "▷ Replay" } }
                </button>
                <label for="replay-speed">{ "speed" }</label>
                <select id="replay-speed" data-testid="speed" {onchange}>{ for speeds }</select>
            </span>
        }
    });
    let on_run = props.on_run.reform(|_| ());
    let on_stop = props.on_stop.reform(|_| ());
    let on_reset = props.on_reset.reform(|_| ());
    html! {
        <div class="transport" role="toolbar" aria-label="Run and step">
            <button type="button" class="run" data-testid="run" disabled={!props.can_run}
                    title="Run (Ctrl+Enter)" onclick={on_run}>{ "▶ Run" }</button>
            <button type="button" data-testid="stop" disabled={!props.running}
                    title="Stop the program" onclick={on_stop}>{ "■ Stop" }</button>
            <span class="steps">
                { step(StepBy::Statement, false, "⇤", "back one statement") }
                { step(StepBy::Op, false, "←", "back one op") }
                { step(StepBy::Op, true, "→", "forward one op") }
                { step(StepBy::Statement, true, "⇥", "forward one statement") }
            </span>
            { for passes }
            { for replay }
            <input type="range" class="scrub" data-testid="scrub" aria-label="trace position"
                   min="0" max={props.len.to_string()} value={props.position.to_string()}
                   disabled={props.len == 0} {oninput} />
            <span class="where" data-testid="position">{ where_ }</span>
            <button type="button" class="reset" title="Put the example program back"
                    onclick={on_reset}>{ "Reset" }</button>
        </div>
    }
}
