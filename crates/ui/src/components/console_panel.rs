//! What the program printed, and how it ended, as Python would show it.

use yew::prelude::*;

use gradscope_trace::EventLog;

use crate::console::{Console, FigureMarks, MAX_LINES, Stream, later_note};
use crate::figure::Figure;
use crate::state::Run;

/// Props of [`ConsolePanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub output: Console,
    pub run: Run,
    /// The run's trace: where its figures were shown.
    #[prop_or_default]
    pub log: EventLog,
    /// The position the views show, when parked before the end (`None`:
    /// live, the whole console).
    #[prop_or_default]
    pub position: Option<usize>,
}

/// Program output, engine notes, and a traceback pointing at the program's line.
#[function_component]
pub fn ConsolePanel(props: &Props) -> Html {
    // Stepped or scrubbed back: the console as it was there, without the
    // figures shown later and what was printed after them.
    let marks = use_mut_ref(FigureMarks::default);
    let shown = props.position.map(|position| {
        let mut marks = marks.borrow_mut();
        marks.follow(&props.log);
        marks.shown_by(position)
    });
    let kept = props.output.lines_before_figure(shown);
    // How the run ended (a traceback, "stopped") comes after every event:
    // parked before the end, it has not happened yet.
    let parked = props.position.is_some();
    let ended = matches!(props.run, Run::Raised { .. } | Run::Stopped);
    let later = props.output.lines().len() - kept;
    let later = later_note(later, parked && ended).map(|note| {
        html! { <span class="notice" data-testid="console-later">{ note }</span> }
    });
    // Keyed by line number: a new line adds one element, and dropping
    // the oldest removes one (see `console`).
    let lines = props.output.lines().take(kept).map(|line| {
        if let Some(figure) = &line.figure {
            return figure_html(line.number, figure);
        }
        let class = match line.stream {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
            Stream::Notice => "notice",
        };
        let text = if line.cut == 0 {
            // Shared, not copied: the view is remade each frame a run prints.
            html! { { AttrValue::from(line.text.clone()) } }
        } else {
            let (body, end) = match line.text.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (&*line.text, ""),
            };
            html! {
                <>{ body.to_string() }<span class="notice">{ format!(" … {} more bytes not shown", line.cut) }</span>{ end }</>
            }
        };
        html! { <span key={line.number} {class}>{ text }</span> }
    });
    let dropped = props.output.dropped();
    let dropped = (dropped > 0).then(|| {
        let lines = if dropped == 1 { "line" } else { "lines" };
        html! {
            <span class="notice" data-testid="console-dropped">
                { format!("… {dropped} earlier {lines} not shown: the console keeps the newest {MAX_LINES}\n") }
            </span>
        }
    });
    let ending = match &props.run {
        _ if parked => html! {},
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
                { for dropped }<span class="lines">{ for lines }</span>{ for later }{ ending }
            </pre>
        </section>
    }
}

/// A figure the program showed, where it showed it.
fn figure_html(number: u64, figure: &std::rc::Rc<Figure>) -> Html {
    html! { <FigureView key={number} figure={figure.clone()} /> }
}

/// Props of [`FigureView`].
#[derive(Properties, PartialEq)]
struct FigureProps {
    figure: std::rc::Rc<Figure>,
}

/// A figure: the image sized to the console's width (a click shows it at
/// its full size, another fits it again), labelled with its titles for
/// screen readers, and a link that saves it.
#[function_component]
fn FigureView(props: &FigureProps) -> Html {
    let full = use_state(|| false);
    let figure = &props.figure;
    let shown = figure.shown_ms.map(|ms| format!("{ms:.1}"));
    let toggle = {
        let full = full.clone();
        Callback::from(move |_: MouseEvent| full.set(!*full))
    };
    let class = if *full { "figure full" } else { "figure" };
    let image = use_node_ref();
    let png_name = match figure.file_name.rsplit_once('.') {
        Some((stem, _)) => format!("{stem}.png"),
        None => format!("{}.png", figure.file_name),
    };
    let save_png = {
        let (image, name) = (image.clone(), png_name.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(img) = image.get() {
                save_as_png(&img, &name);
            }
        })
    };
    html! {
        <span {class} role="group" aria-label={figure.label.clone()}
              data-testid="figure" data-shown={shown}>
            <img ref={image} src={AttrValue::from(figure.src.clone())} alt={figure.label.clone()}
                 title={if *full { "click to fit" } else { "click for full size" }}
                 onclick={toggle} />
            <a class="figure-save" href={AttrValue::from(figure.src.clone())}
               download={figure.file_name.clone()}>{ format!("save {}", figure.file_name) }</a>
            { " · " }
            <button type="button" class="figure-save" data-testid="figure-png" onclick={save_png}>
                { format!("save {}", png_name) }
            </button>
            { "\n" }
        </span>
    }
}

/// Draws the figure's image on a canvas at twice its size, on white, and
/// saves that as the PNG file `name`. Through `Reflect`, so the page's
/// `web-sys` needs no canvas bindings.
fn save_as_png(img: &web_sys::Node, name: &str) {
    use wasm_bindgen::JsValue;
    fn call(this: &JsValue, method: &str, args: &[JsValue]) -> Option<JsValue> {
        let f: js_sys::Function = js_sys::Reflect::get(this, &method.into()).ok()?.into();
        f.apply(this, &args.iter().collect::<js_sys::Array>()).ok()
    }
    let number = |key: &str| {
        js_sys::Reflect::get(img, &key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    let (width, height) = (number("naturalWidth"), number("naturalHeight"));
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Ok(canvas), Ok(link)) = (
        document.create_element("canvas"),
        document.create_element("a"),
    ) else {
        return;
    };
    const SCALE: f64 = 2.0;
    let _ = js_sys::Reflect::set(&canvas, &"width".into(), &(width * SCALE).into());
    let _ = js_sys::Reflect::set(&canvas, &"height".into(), &(height * SCALE).into());
    let Some(context) = call(&canvas, "getContext", &["2d".into()]) else {
        return;
    };
    let _ = js_sys::Reflect::set(&context, &"fillStyle".into(), &"#fff".into());
    let (w, h) = ((width * SCALE).into(), (height * SCALE).into());
    call(&context, "fillRect", &[0.into(), 0.into(), w, h]);
    let (w, h) = ((width * SCALE).into(), (height * SCALE).into());
    call(
        &context,
        "drawImage",
        &[img.into(), 0.into(), 0.into(), w, h],
    );
    let Some(url) = call(&canvas, "toDataURL", &["image/png".into()]).and_then(|u| u.as_string())
    else {
        return;
    };
    let _ = link.set_attribute("href", &url);
    let _ = link.set_attribute("download", name);
    call(&link, "click", &[]);
}
