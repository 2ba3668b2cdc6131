//! The Share button, and the bar that says what became of a share link:
//! opened (and not run), refused on opening (and why), made (to copy), or
//! too long to make; the widget's link to the page, a share link too.

use std::rc::Rc;

use gradscope_trace::protocol::Device;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::embed::Checked;
use crate::pin::use_pin;
use crate::share::PinnedProgram;
use crate::state::Link;

/// Props of [`ShareButton`].
#[derive(Properties, PartialEq)]
pub struct ButtonProps {
    pub on_share: Callback<()>,
}

/// Puts the program and its settings in a link (and the pinned run's
/// program, when one is pinned).
#[function_component]
pub fn ShareButton(props: &ButtonProps) -> Html {
    let onclick = props.on_share.reform(|_| ());
    html! {
        <button type="button" class="share" data-testid="share"
                title="Put the program and its settings in a link" {onclick}>{ "Share" }</button>
    }
}

/// Props of [`ShareBar`].
#[derive(Properties, PartialEq)]
pub struct BarProps {
    pub link: Link,
    /// Whether the opened link carries a pinned program too.
    #[prop_or_default]
    pub pair: bool,
    pub on_dismiss: Callback<()>,
}

/// One line under the header; nothing when there is nothing to say.
#[function_component]
pub fn ShareBar(props: &BarProps) -> Html {
    let (class, text, url) = match &props.link {
        Link::Hidden => return html! {},
        Link::Opened if props.pair => (
            "opened",
            "Opened a shared comparison: a pinned program (shown above the code) and this one. \
             Neither has run: Run runs the pinned one first, pins it, then runs this one beside it. \
             Your own saved code stays until you edit or run this one."
                .to_string(),
            None,
        ),
        Link::Opened => (
            "opened",
            "Opened a shared program. It has not run: press Run to run it. \
             Your own saved code stays until you edit or run this one."
                .to_string(),
            None,
        ),
        Link::Refused(why) => (
            "refused",
            format!("This share link could not be opened: {why}. Your own code is shown instead."),
            None,
        ),
        Link::Made(url) => (
            "made",
            "Link to this program and its settings (in the address bar too):".to_string(),
            Some(url.clone()),
        ),
        Link::NotMade(why) => ("refused", format!("No link made: {why}."), None),
    };
    // Selecting the whole link on focus makes copying by hand one keystroke.
    let onfocus = |e: FocusEvent| e.target_unchecked_into::<HtmlInputElement>().select();
    let on_dismiss = props.on_dismiss.reform(|_| ());
    html! {
        <div class={classes!("share-bar", class)} role="status" data-testid="link-notice">
            <span class="share-text">{ text }</span>
            if let Some(url) = url {
                <input type="text" readonly=true class="share-url" data-testid="share-url"
                       aria-label="share link" value={url} {onfocus} />
            }
            <button type="button" class="dismiss" aria-label="close this message"
                    onclick={on_dismiss}>{ "×" }</button>
        </div>
    }
}

/// Props of [`PinnedNote`].
#[derive(Properties, PartialEq)]
pub struct NoteProps {
    /// The pinned program's code.
    pub code: AttrValue,
    /// Whether it is running now (on its way to being pinned).
    pub running: bool,
    /// Where it came from, for the note's summary: `the link` (the page's
    /// share links) or `the widget` (a host page's pinned pair).
    #[prop_or(AttrValue::Static("the link"))]
    pub from: AttrValue,
    /// Set it aside: Run then runs only the code.
    pub on_drop: Callback<()>,
}

/// A share link's (or a widget's) pinned program, read-only above the
/// editor until it has run and been pinned. A note rather than a tab: it is the baseline the
/// learner's code is compared with, not a file the program imports, and
/// editing it would change what the link's author measured.
#[function_component]
pub fn PinnedNote(props: &NoteProps) -> Html {
    let on_drop = props.on_drop.reform(|_| ());
    let summary = if props.running {
        format!("Pinned program from {}: running, to be pinned", props.from)
    } else {
        format!(
            "Pinned program from {}: Run runs it first and pins it, then the code below",
            props.from
        )
    };
    html! {
        <details class="pinned-program" data-testid="pinned-program" open=true>
            <summary>{ summary }</summary>
            <pre aria-label="pinned program (read-only)" tabindex="0">{ props.code.clone() }</pre>
            <button type="button" data-testid="drop-pinned" disabled={props.running}
                    onclick={on_drop}>{ "Don't run it" }</button>
        </details>
    }
}

/// Props of [`OpenInPage`].
#[derive(Properties, PartialEq)]
pub struct OpenProps {
    /// The widget's settings (its lesson and files).
    pub config: Rc<Checked>,
    /// The code as it stands in the widget.
    pub source: Rc<str>,
    pub device: Device,
    /// The pinned program of a pair still to run, if one waits.
    pub waiting: Option<Rc<PinnedProgram>>,
}

/// The widget's "open in gradscope ↗": the page, opened on what the
/// widget shows as a share link opens it (the code, and the pinned
/// program while a pair waits or a run is pinned), unrun.
#[function_component]
pub fn OpenInPage(props: &OpenProps) -> Html {
    let pinned = use_pin().and_then(|p| p.program);
    let program = props.waiting.clone().or(pinned);
    // Deflated once per change of what it carries, not on every frame of
    // a run.
    let link = use_memo(
        (
            props.config.clone(),
            props.source.clone(),
            props.device,
            program,
        ),
        |(config, source, device, program)| {
            let widget = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default();
            let shared = config.shared(source, *device, program.as_deref());
            crate::embed::open_link(crate::embed::page_beside(&widget), &shared)
        },
    );
    match link.as_ref() {
        Some(link) => html! {
            <a class="open" href={link.href.clone()} title={link.title.clone()} target="_blank"
               rel="noopener" data-testid="open-in-page">{ "open in gradscope ↗" }</a>
        },
        None => html! {},
    }
}
