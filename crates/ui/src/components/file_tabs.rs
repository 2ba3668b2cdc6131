//! The editor's tabs: the program (`main.py`) and the learner's extra
//! files beside it (`model.py`, `data.csv`), which can be added, renamed,
//! removed, or dropped on the editor (see `files`).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::files::{Change, PROGRAM, ProgramFile};

/// Props of [`FileTabs`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub files: Rc<[ProgramFile]>,
    /// The file shown (`None`: the program).
    pub active: Option<AttrValue>,
    pub on_select: Callback<Option<AttrValue>>,
    pub on_change: Callback<Change>,
}

/// One tab per file, then "+".
#[function_component]
pub fn FileTabs(props: &Props) -> Html {
    let tab = |name: Option<&str>| {
        let selected = props.active.as_deref() == name;
        let on_select = props.on_select.clone();
        let key = name.map(AttrValue::from);
        let select = {
            let key = key.clone();
            Callback::from(move |_: MouseEvent| on_select.emit(key.clone()))
        };
        let Some(name) = name else {
            return html! {
                <button role="tab" aria-selected={selected.to_string()} class="file-tab"
                        data-testid="file-tab" data-name={PROGRAM} onclick={select}>{ PROGRAM }</button>
            };
        };
        let (rename, remove) = {
            let (on_change, from) = (props.on_change.clone(), name.to_string());
            let on_select = props.on_select.clone();
            let rename = Callback::from(move |_: MouseEvent| {
                if let Some(to) = ask("Rename the file to:", &from) {
                    on_select.emit(Some(to.clone().into()));
                    on_change.emit(Change::Rename {
                        from: from.clone(),
                        to,
                    });
                }
            });
            let (on_change, name) = (props.on_change.clone(), name.to_string());
            let on_select = props.on_select.clone();
            let remove = Callback::from(move |_: MouseEvent| {
                on_select.emit(None);
                on_change.emit(Change::Remove(name.clone()));
            });
            (rename, remove)
        };
        html! {
            <span class="file-tab-group" key={name.to_string()}>
                <button role="tab" aria-selected={selected.to_string()} class="file-tab"
                        data-testid="file-tab" data-name={name.to_string()} onclick={select}
                        ondblclick={rename.clone()} title="double-click to rename">{ name }</button>
                <button class="file-tab-action" aria-label={format!("Rename {name}")}
                        data-testid="file-rename" onclick={rename}>{ "✎" }</button>
                <button class="file-tab-action" aria-label={format!("Remove {name}")}
                        data-testid="file-remove" onclick={remove}>{ "×" }</button>
            </span>
        }
    };
    let add = {
        let (files, on_change, on_select) = (
            props.files.clone(),
            props.on_change.clone(),
            props.on_select.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if let Some(name) = ask("Name of the new file:", &crate::files::new_name(&files)) {
                on_change.emit(Change::Put(ProgramFile {
                    name: name.clone(),
                    text: String::new(),
                }));
                on_select.emit(Some(name.into()));
            }
        })
    };
    html! {
        <div class="file-tabs" role="tablist" aria-label="Files">
            { tab(None) }
            { for props.files.iter().map(|f| tab(Some(&f.name))) }
            <button class="file-tab-action" aria-label="Add a file" data-testid="file-add"
                    title="add a file (or drop files on the editor)" onclick={add}>{ "+" }</button>
        </div>
    }
}

/// Asks the reader for a name, `default` filled in; `None` if cancelled.
fn ask(message: &str, default: &str) -> Option<String> {
    let answer = web_sys::window()?
        .prompt_with_message_and_default(message, default)
        .ok()??;
    let answer = answer.trim().to_string();
    (!answer.is_empty()).then_some(answer)
}

/// Reads the files of a drop (`DataTransfer.files`) as text and hands each
/// to `on_file` as it is read. Read through `Reflect`, so the page's
/// `web-sys` needs no more of the file API's bindings.
pub fn read_dropped(event: &DragEvent, on_file: Callback<ProgramFile>) {
    let files = js_sys::Reflect::get(event, &"dataTransfer".into())
        .and_then(|t| js_sys::Reflect::get(&t, &"files".into()))
        .ok()
        .filter(|files| !files.is_undefined() && !files.is_null());
    let Some(files) = files else { return };
    let count = js_sys::Reflect::get(&files, &"length".into())
        .ok()
        .and_then(|n| n.as_f64())
        .unwrap_or(0.0) as u32;
    for i in 0..count {
        let Ok(file) = js_sys::Reflect::get(&files, &i.into()) else {
            continue;
        };
        let name = js_sys::Reflect::get(&file, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        let text = js_sys::Reflect::get(&file, &"text".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(&file).ok());
        let then = text.as_ref().and_then(|promise| {
            js_sys::Reflect::get(promise, &"then".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        });
        let (Some(text), Some(then)) = (text, then) else {
            continue;
        };
        let on_file = on_file.clone();
        let done = Closure::once_into_js(move |text: JsValue| {
            on_file.emit(ProgramFile {
                name,
                text: text.as_string().unwrap_or_default(),
            });
        });
        let _ = then.call1(&text, &done);
    }
}
