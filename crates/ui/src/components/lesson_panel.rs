//! A lesson beside its program: the text, the controls bound to the
//! program's top lines, and each claim with what the engine measured.

use gradscope_lessons::{ControlKind, ControlValue, Lesson};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::Claims;

/// Props of [`LessonPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The lesson's slug.
    pub slug: &'static str,
    /// The editor's text: the controls show the values written in it.
    pub source: AttrValue,
    pub claims: Claims,
    /// A control changed: its name and new value (the page rewrites the
    /// line and runs the program again).
    pub on_control: Callback<(&'static str, ControlValue)>,
}

/// The open lesson.
#[function_component]
pub fn LessonPanel(props: &Props) -> Html {
    let Some(lesson): Option<&'static Lesson> = gradscope_lessons::find(props.slug) else {
        return html! {};
    };
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
                <label for={id} title={control.label}><code>{ name }</code>{ " " }{ control.label }</label>
                { input }
            </div>
        }
    });
    let (summary, claims, figures) = match &props.claims {
        Claims::Unchecked => (
            "Run the program to check the claims.".to_string(),
            vec![],
            vec![],
        ),
        Claims::Checking => ("checking the claims…".to_string(), vec![], vec![]),
        Claims::Checked { claims, figures } => {
            let passed = claims.iter().filter(|c| c.passed).count();
            (
                format!("{passed} of {} claims hold, as measured", claims.len()),
                claims.to_vec(),
                figures.to_vec(),
            )
        }
    };
    let claim_list = if claims.is_empty() {
        lesson
            .claims
            .iter()
            .map(|c| html! { <li class="claim unchecked">{ inline_code(c.text) }</li> })
            .collect::<Html>()
    } else {
        claims
            .iter()
            .map(|c| {
                let (class, mark) = if c.passed { ("claim passed", "✓") } else { ("claim failed", "✗") };
                html! {
                    <li class={class} data-passed={c.passed.to_string()}>
                        <span class="mark" aria-label={if c.passed { "holds" } else { "fails" }}>{ mark }</span>
                        { inline_code(&c.text) }
                        <div class="measured">{ c.measured.clone() }</div>
                    </li>
                }
            })
            .collect::<Html>()
    };
    html! {
        <section class="panel lesson" aria-label="Lesson" data-testid="lesson-panel">
            <h2>{ format!("Lesson {} · {}", lesson.number, lesson.title) }</h2>
            <div class="lesson-text">
                { for lesson.text.split("\n\n").map(|p| html! { <p>{ inline_code(&p.replace('\n', " ")) }</p> }) }
            </div>
            { for lesson.files.iter().map(|file| html! {
                <p class="data-note">
                    { "Data: " }<code>{ file.name }</code>{ ", shipped with gradscope: " }
                    <a href="data/README.md" target="_blank" rel="noopener">{ "source and licence" }</a>
                </p>
            }) }
            if !lesson.controls.is_empty() {
                <div class="controls" data-testid="controls">{ for controls }</div>
            }
            <h3 data-testid="claims-summary">{ summary }</h3>
            <ul class="claims" data-testid="claims">{ claim_list }</ul>
            if !figures.is_empty() {
                <dl class="figures" data-testid="figures">
                    { for figures.iter().map(|(label, value)| html! {
                        <><dt>{ label.clone() }</dt><dd>{ value.clone() }</dd></>
                    }) }
                </dl>
            }
        </section>
    }
}

/// A paragraph with its `backticked` spans as code.
fn inline_code(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                html! { <code>{ part.to_string() }</code> }
            } else {
                html! { { part.to_string() } }
            }
        })
        .collect()
}
