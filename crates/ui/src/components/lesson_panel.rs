//! A lesson's column: where it sits among the fourteen (previous, next,
//! which were passed), its text at a reading measure, and its controls
//! bound to the program's top lines. Its claims sit beside the views
//! (`lesson_claims`).

use gradscope_lessons::{ControlValue, Lesson, lessons};
use yew::prelude::*;

use super::lesson_claims::LessonClaims;
use super::lesson_controls::LessonControls;
use crate::state::Claims;

/// Props of [`LessonPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The lesson's slug.
    pub slug: &'static str,
    /// The editor's text: the controls show the values written in it.
    pub source: AttrValue,
    /// A control changed: its name and new value (the page rewrites the
    /// line and runs the program again).
    pub on_control: Callback<(&'static str, ControlValue)>,
    /// The lessons run with every claim holding.
    #[prop_or_default]
    pub passed: std::rc::Rc<[&'static str]>,
    /// Open another lesson (previous or next); without it (the widget)
    /// there is no way through the lessons.
    #[prop_or_default]
    pub on_open: Option<Callback<Option<&'static str>>>,
    /// The claims, drawn inside the panel (the widget); the page draws
    /// them beside its views instead.
    #[prop_or_default]
    pub claims: Option<Claims>,
}

/// The open lesson.
#[function_component]
pub fn LessonPanel(props: &Props) -> Html {
    let Some(lesson): Option<&'static Lesson> = gradscope_lessons::find(props.slug) else {
        return html! {};
    };
    let all = lessons();
    let index = all.iter().position(|l| l.slug == lesson.slug).unwrap_or(0);
    let step = |other: Option<&'static Lesson>, rel: &'static str, label: &'static str| {
        let on_open = props.on_open.clone().unwrap_or_default();
        match other {
            Some(other) => html! {
                <button class={classes!("lesson-step", rel)} data-testid={format!("lesson-{rel}")}
                        title={format!("{}. {}", other.number, other.title)}
                        aria-label={format!("{label} lesson: {}. {}", other.number, other.title)}
                        onclick={move |_| on_open.emit(Some(other.slug))}>
                    { if rel == "previous" { "← Previous" } else { "Next →" } }
                </button>
            },
            None => html! {
                <button class={classes!("lesson-step", rel)} data-testid={format!("lesson-{rel}")} disabled=true>
                    { if rel == "previous" { "← Previous" } else { "Next →" } }
                </button>
            },
        }
    };
    let previous = index.checked_sub(1).and_then(|i| all.get(i));
    let next = all.get(index + 1);
    let passed = props.passed.len();
    let progress = all.iter().map(|l| {
        let done = props.passed.contains(&l.slug);
        let here = l.slug == lesson.slug;
        let title = format!(
            "{}. {}{}",
            l.number,
            l.title,
            if done { ": every claim held" } else { "" }
        );
        html! {
            <li class={classes!(done.then_some("passed"), here.then_some("here"))}
                data-slug={l.slug} {title} aria-hidden="true"></li>
        }
    });
    html! {
        <section class="panel lesson" aria-label="Lesson" data-testid="lesson-panel">
            if props.on_open.is_some() {
            <nav class="lesson-nav" aria-label="Lessons">
                { step(previous, "previous", "Previous") }
                <span class="lesson-count" data-testid="lesson-count">
                    { format!("{} of {}", index + 1, all.len()) }
                </span>
                <ol class="lesson-progress" data-testid="lesson-progress"
                    data-passed={passed.to_string()}>{ for progress }</ol>
                <span class="sr-only">{ format!("{passed} of {} lessons run with every claim holding", all.len()) }</span>
                { step(next, "next", "Next") }
            </nav>
            }
            <h2>{ format!("Lesson {} · {}", lesson.number, lesson.title) }</h2>
            <div class="lesson-text" tabindex="0" role="region" aria-label="Lesson text">
                { for lesson.text.split("\n\n").map(|p| html! { <p>{ inline_code(&p.replace('\n', " ")) }</p> }) }
                { for lesson.files.iter().map(|file| html! {
                    <p class="data-note">
                        { "Data: " }<code>{ file.name }</code>{ ", shipped with gradscope: " }
                        <a href="data/README.md" target="_blank" rel="noopener">{ "source and licence" }</a>
                    </p>
                }) }
            </div>
            <LessonControls slug={lesson.slug} source={props.source.clone()}
                            on_control={props.on_control.clone()} />
            if let Some(claims) = props.claims.clone() {
                <LessonClaims slug={lesson.slug} {claims} shown={None} on_show={Callback::noop()} />
            }
        </section>
    }
}

/// A paragraph with its `backticked` spans as code.
pub(crate) fn inline_code(text: &str) -> Html {
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
