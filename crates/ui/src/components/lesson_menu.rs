//! The lesson choice: free play, or one of the lessons.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`LessonMenu`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open lesson's slug.
    pub lesson: Option<&'static str>,
    pub on_change: Callback<Option<&'static str>>,
}

/// A labelled select of every lesson.
#[function_component]
pub fn LessonMenu(props: &Props) -> Html {
    let on_change = props.on_change.clone();
    let onchange = move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        on_change.emit(gradscope_lessons::find(&value).map(|l| l.slug));
    };
    html! {
        <div class="lesson-menu">
            <label for="lesson">{ "Lesson" }</label>
            <select id="lesson" data-testid="lesson" {onchange}>
                <option value="" selected={props.lesson.is_none()}>{ "Free play" }</option>
                { for gradscope_lessons::lessons().iter().map(|l| html! {
                    <option value={l.slug} selected={props.lesson == Some(l.slug)}>
                        { format!("{}. {}", l.number, l.title) }
                    </option>
                }) }
            </select>
        </div>
    }
}
