//! The tensors alive at the moment the memory view shows, largest first,
//! each with its category, bytes, name and the program line that made it
//! (and the learner's lines that called that one): PyTorch's memory
//! snapshot's stack on hover, for a learner's program. Choosing one puts
//! the editor's cursor on its line.

use gradscope_trace::EventLog;
use gradscope_trace::memory_chart::bytes_label;
use gradscope_trace::origin::{LiveTensor, Origins};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::follow::use_follow;

/// How many of the largest live tensors are listed.
const LISTED: usize = 8;

/// Props of [`LiveTensors`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: EventLog,
    /// The moment shown: the events applied.
    pub position: usize,
    /// The ledger shown (`cpu`, `webgpu`).
    pub device: String,
}

/// One row's words: `y · other · 48 B · line 4 ← 12`.
pub fn row_label(t: &LiveTensor) -> String {
    format!(
        "{} · {} · {} · {}",
        t.name.as_deref().unwrap_or("(unnamed)"),
        t.category.label(),
        bytes_label(t.bytes),
        t.stack_label()
    )
}

/// The live tensors at `position`, largest first, as buttons.
#[function_component]
pub fn LiveTensors(props: &Props) -> Html {
    let origins = use_follow::<Origins>(&props.log, props.position);
    let origins = origins.borrow();
    let live: Vec<LiveTensor> = origins
        .get()
        .largest_first()
        .into_iter()
        .filter(|t| t.device == props.device)
        .take(LISTED)
        .cloned()
        .collect();
    if live.is_empty() {
        return html! {};
    }
    let rows = live.iter().map(|t| {
        let line = t.line;
        let onclick = move |_: MouseEvent| {
            if let Some(line) = line {
                put_cursor_on_line(line);
            }
        };
        html! {
            <li>
                <button type="button" class="live-tensor" data-testid="live-tensor"
                        style="font:inherit;padding:0 0.3em;margin:0;border:0;background:none;color:inherit;cursor:pointer;text-align:left"
                        data-line={t.line.map(|l| l.to_string())} data-name={t.name.clone()}
                        data-bytes={t.bytes.to_string()} disabled={t.line.is_none()}
                        title="put the editor's cursor on the line that made it" {onclick}>
                    { row_label(t) }
                </button>
            </li>
        }
    });
    // A short scrolling list under the legend: the panel keeps its height.
    html! {
        <div class="live-tensors" data-testid="live-tensors"
             style="font: 11px ui-monospace, 'DejaVu Sans Mono', monospace; margin: 0.1rem 0 0">
            <span>{ "live here, largest first:" }</span>
            <ul style="list-style:none;margin:0;padding:0;max-height:3.6em;overflow-y:auto">
                { for rows }
            </ul>
        </div>
    }
}

/// Moves the program editor's cursor to the start of `line` (from 1) and
/// focuses it: CodeMirror takes a selection set in its lines' elements as
/// its own (it follows the document's selection); the plain text area,
/// when CodeMirror failed to load, by offset.
fn put_cursor_on_line(line: u32) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let line_element = document
        .query_selector(&format!(
            ".editor-main:not([hidden]) .cm-content > .cm-line:nth-child({line})"
        ))
        .ok()
        .flatten();
    if let Some(element) = line_element {
        let _ = select_start_of(&document, &element);
        return;
    }
    let editor = document
        .query_selector("textarea[data-testid=code]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok());
    let Some(editor) = editor else { return };
    let text = editor.value();
    // The textarea counts UTF-16 units.
    let offset: usize = text
        .split('\n')
        .take(line.saturating_sub(1) as usize)
        .map(|l| l.encode_utf16().count() + 1)
        .sum();
    let offset = u32::try_from(offset).unwrap_or(u32::MAX);
    let _ = editor.focus();
    let _ = editor.set_selection_range(offset, offset);
}

/// Calls `object.name(args...)` (DOM methods whose web-sys features the
/// page does not build: Range, Selection).
fn call(object: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let method: js_sys::Function =
        js_sys::Reflect::get(object, &JsValue::from_str(name))?.dyn_into()?;
    let args: js_sys::Array = args.iter().copied().collect();
    method.apply(object, &args)
}

/// Focuses the editor holding `element` and puts the selection at its start.
fn select_start_of(
    document: &web_sys::Document,
    element: &web_sys::Element,
) -> Result<(), JsValue> {
    if let Some(content) = element.parent_element() {
        call(&content, "focus", &[])?;
    }
    let range = call(document, "createRange", &[])?;
    call(&range, "setStart", &[element, &JsValue::from(0)])?;
    call(&range, "collapse", &[&JsValue::TRUE])?;
    let window: JsValue = web_sys::window().map(JsValue::from).unwrap_or_default();
    let selection = call(&window, "getSelection", &[])?;
    call(&selection, "removeAllRanges", &[])?;
    call(&selection, "addRange", &[&range])?;
    call(element, "scrollIntoView", &[&JsValue::FALSE])?;
    Ok(())
}
