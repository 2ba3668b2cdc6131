//! A lesson's claims beside the views: each with whether it held and what
//! the engine measured, a button that moves the views to the moment of the
//! run it is about, and the figures that compare settings as small charts.

use gradscope_lessons::{Lesson, Moment};
use yew::prelude::*;

use super::lesson_chart::LessonChart;
use super::lesson_panel::inline_code;
use crate::state::{ClaimShown, Claims};

/// Props of [`LessonClaims`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The lesson's slug.
    pub slug: &'static str,
    pub claims: Claims,
    /// The claim the views were moved to.
    pub shown: Option<ClaimShown>,
    /// Show claim `index` in the views.
    pub on_show: Callback<usize>,
}

/// The open lesson's claims and figures.
#[function_component]
pub fn LessonClaims(props: &Props) -> Html {
    let Some(lesson): Option<&'static Lesson> = gradscope_lessons::find(props.slug) else {
        return html! {};
    };
    let (summary, results, figures) = match &props.claims {
        Claims::Unchecked => (
            "Run the program to check the claims.".to_string(),
            None,
            None,
        ),
        Claims::Checking => ("checking the claims…".to_string(), None, None),
        Claims::Checked { claims, figures } => {
            let passed = claims.iter().filter(|c| c.passed).count();
            (
                format!("{passed} of {} claims hold, as measured", claims.len()),
                Some(claims.clone()),
                Some(figures.clone()),
            )
        }
    };
    let items = lesson.claims.iter().enumerate().map(|(i, claim)| {
        let result = results.as_ref().and_then(|r| r.get(i));
        let (class, mark, verdict) = match result {
            Some(r) if r.passed => ("passed", "✓", "holds: "),
            Some(_) => ("failed", "✗", "does not hold: "),
            None => ("unchecked", "·", ""),
        };
        let measured_id = format!("claim-measured-{i}");
        let shown = props.shown.filter(|s| s.index == i);
        let on_show = props.on_show.clone();
        html! {
            <li class={classes!("claim", class, shown.is_some().then_some("shown"))}
                data-passed={result.map(|r| r.passed.to_string())} data-claim={i.to_string()}>
                <span class="mark" aria-hidden="true">{ mark }</span>
                <button class="claim-show" data-testid="claim-show"
                        aria-describedby={result.is_some().then(|| measured_id.clone())}
                        title={format!("Show {} in the views", claim.at.describe())}
                        onclick={move |_| on_show.emit(i)}>
                    <span class="sr-only">{ verdict }</span>
                    { inline_code(claim.text) }
                </button>
                if let Some(r) = result {
                    <div class="measured" id={measured_id}>{ r.measured.clone() }</div>
                }
                if let Some(shown) = shown {
                    <div class="claim-where" data-testid="claim-where">{ where_text(claim.at, claim.shown_with, shown.position) }</div>
                }
            </li>
        }
    });
    let figures = figures.filter(|f| !f.is_empty());
    let measured_badly = figures.as_ref().is_some_and(|f| {
        f.iter()
            .any(|(_, v)| v.starts_with("could not be measured"))
    });
    html! {
        <section class="panel lesson-claims" aria-label="Claims" data-testid="lesson-claims">
            <h2 data-testid="claims-summary" role="status">{ summary }</h2>
            <ul class="claims" data-testid="claims" aria-live="polite">{ for items }</ul>
            if let Some(figures) = figures {
                <div class="lesson-figures">
                    <h3>{ "Measured" }</h3>
                    <dl class="figures" data-testid="figures">
                        { for figures.iter().map(|(label, value)| html! {
                            <><dt>{ label.clone() }</dt><dd>{ value.clone() }</dd></>
                        }) }
                    </dl>
                    if !measured_badly {
                        { for lesson.comparisons.iter().map(|c| html! {
                            <LessonChart comparison={*c} rows={c.rows(&figures)} />
                        }) }
                    }
                </div>
            }
        </section>
    }
}

/// Where the views went for a claim, or how to make a run that shows it.
fn where_text(at: Moment, shown_with: &[(&str, &str)], position: Option<usize>) -> String {
    match position {
        Some(position) => format!("Shown: {} (event {position})", at.describe()),
        None if shown_with.is_empty() => {
            format!("Not in this run: run the program to see {}.", at.describe())
        }
        None => {
            let settings: Vec<String> = shown_with
                .iter()
                .map(|(name, value)| format!("{name} = {value}"))
                .collect();
            format!(
                "Not in this run: set {} and run it to see {}.",
                settings.join(", "),
                at.describe()
            )
        }
    }
}
