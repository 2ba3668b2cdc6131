//! Run, stop, step and the scrub slider over the recorded trace.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use gradscope_trace::step::StepBy;

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
            <input type="range" class="scrub" data-testid="scrub" aria-label="trace position"
                   min="0" max={props.len.to_string()} value={props.position.to_string()}
                   disabled={props.len == 0} {oninput} />
            <span class="where" data-testid="position">{ where_ }</span>
            <button type="button" class="reset" title="Put the example program back"
                    onclick={on_reset}>{ "Reset" }</button>
        </div>
    }
}
