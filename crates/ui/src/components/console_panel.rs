//! What the program printed, and how it ended, as Python would show it.

use yew::prelude::*;

use crate::state::{Output, Run};

/// Props of [`ConsolePanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub output: Vec<Output>,
    pub run: Run,
}

/// Program output, engine notes, and a traceback pointing at the program's line.
#[function_component]
pub fn ConsolePanel(props: &Props) -> Html {
    let lines = props.output.iter().map(|o| match o {
        Output::Stdout(text) => html! { <span class="stdout">{ text.to_string() }</span> },
        Output::Stderr(text) => html! { <span class="stderr">{ text.to_string() }</span> },
        Output::Notice(text) => html! { <span class="notice">{ format!("{text}\n") }</span> },
    });
    let ending = match &props.run {
        Run::Raised {
            kind,
            message,
            line,
            traceback,
        } => {
            let text = traceback.clone().unwrap_or_else(|| match line {
                Some(l) => format!(
                    "Traceback (most recent call last):\n  File \"main.py\", line {l}, \
                     in <module>\n{kind}: {message}\n"
                ),
                None => format!("{kind}: {message}\n"),
            });
            html! {
                <span class="traceback" data-testid="traceback" data-kind={kind.clone()}
                      data-message={message.clone()}>{ text }</span>
            }
        }
        Run::Stopped => html! { <span class="notice">{ "stopped\n" }</span> },
        Run::Idle | Run::Running | Run::Finished => html! {},
    };
    let empty = props.output.is_empty() && matches!(props.run, Run::Idle);
    html! {
        <section class="panel console" aria-label="Console">
            <h2>{ "Console" }</h2>
            <pre data-testid="console" aria-live="polite">
                if empty {
                    <span class="notice">{ "Output appears here. Ctrl+Enter runs the program." }</span>
                }
                { for lines }{ ending }
            </pre>
        </section>
    }
}
