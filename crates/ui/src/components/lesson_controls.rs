//! A lesson's controls: a checkbox, slider or choice per assignment at the
//! top of its program, each labelled with the variable and what it changes.

use gradscope_lessons::{ControlKind, ControlValue, Lesson};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`LessonControls`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The lesson's slug.
    pub slug: &'static str,
    /// The editor's text: the controls show the values written in it.
    pub source: AttrValue,
    /// A control changed: its name and new value.
    pub on_control: Callback<(&'static str, ControlValue)>,
}

/// The open lesson's controls, in a labelled group.
#[function_component]
pub fn LessonControls(props: &Props) -> Html {
    let Some(lesson): Option<&'static Lesson> = gradscope_lessons::find(props.slug) else {
        return html! {};
    };
    if lesson.controls.is_empty() {
        return html! {};
    }
    let controls = lesson.controls.iter().map(|control| {
        let value = lesson.value_in(&props.source, control.name).ok();
        let name = control.name;
        let on_control = props.on_control.clone();
        let id = format!("control-{name}");
        let input = match (control.kind, value) {
            (ControlKind::Bool, value) => {
                let checked = value == Some(ControlValue::Bool(true));
                let onchange = move |e: Event| {
                    let on = e.target_unchecked_into::<HtmlInputElement>().checked();
                    on_control.emit((name, ControlValue::Bool(on)));
                };
                html! { <input type="checkbox" id={id.clone()} {checked} {onchange} /> }
            }
            (ControlKind::Int { min, max }, value) => {
                let current = match value {
                    Some(ControlValue::Int(v)) => v,
                    _ => min,
                };
                let onchange = move |e: Event| {
                    let text = e.target_unchecked_into::<HtmlInputElement>().value();
                    if let Ok(v) = text.parse() {
                        on_control.emit((name, ControlValue::Int(v)));
                    }
                };
                html! {
                    <>
                        <input type="range" id={id.clone()} min={min.to_string()} max={max.to_string()}
                               value={current.to_string()} {onchange} />
                        <output for={id.clone()}>{ current }</output>
                    </>
                }
            }
            (ControlKind::Float { min, max }, value) => {
                let current = match value {
                    Some(ControlValue::Float(v)) => v,
                    _ => min,
                };
                let step = ((max - min) / 100.0).to_string();
                let onchange = move |e: Event| {
                    let text = e.target_unchecked_into::<HtmlInputElement>().value();
                    if let Ok(v) = text.parse::<f64>() {
                        // Two significant decimals: a learning rate, not a float dump.
                        let v = (v * 1000.0).round() / 1000.0;
                        on_control.emit((name, ControlValue::Float(v)));
                    }
                };
                html! {
                    <>
                        <input type="range" id={id.clone()} min={min.to_string()} max={max.to_string()}
                               {step} value={current.to_string()} {onchange} />
                        <output for={id.clone()}>{ current }</output>
                    </>
                }
            }
            (ControlKind::Choice(options), value) => {
                let current = match value {
                    Some(ControlValue::Choice(v)) => v,
                    _ => String::new(),
                };
                let onchange = move |e: Event| {
                    let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                    on_control.emit((name, ControlValue::Choice(v)));
                };
                html! {
                    <select id={id.clone()} {onchange}>
                        { for options.iter().map(|o| html! {
                            <option value={*o} selected={current == *o}>{ *o }</option>
                        }) }
                    </select>
                }
            }
        };
        html! {
            <div class="control" data-control={name}>
                <label for={id}><code>{ name }</code>{ " " }{ control.label }</label>
                { input }
            </div>
        }
    });
    html! {
        <div class="controls" role="group" data-testid="controls"
             aria-label="Controls: each sets a line at the top of the program and runs it">
            { for controls }
        </div>
    }
}
