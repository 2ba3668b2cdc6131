//! The Share button, and the bar that says what became of a share link:
//! opened (and not run), refused on opening (and why), made (to copy), or
//! too long to make.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::Link;

/// Props of [`ShareButton`].
#[derive(Properties, PartialEq)]
pub struct ButtonProps {
    pub on_share: Callback<()>,
}

/// Puts the program and its settings in a link.
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
    pub on_dismiss: Callback<()>,
}

/// One line under the header; nothing when there is nothing to say.
#[function_component]
pub fn ShareBar(props: &BarProps) -> Html {
    let (class, text, url) = match &props.link {
        Link::Hidden => return html! {},
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
