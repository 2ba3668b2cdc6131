//! The code editor: CodeMirror 6 from the site's `editor.js` (bundled by
//! `cargo xtask build-web`), or a plain text area if that failed to load.

use wasm_bindgen::prelude::*;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = gradscopeEditor, js_name = create, catch)]
    fn cm_create(
        parent: &web_sys::Element,
        doc: &str,
        on_change: &js_sys::Function,
        on_run: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = gradscopeEditor, js_name = mark, catch)]
    fn cm_mark(view: &JsValue, error: Option<u32>, current: Option<u32>) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = gradscopeEditor, js_name = setDoc, catch)]
    fn cm_set_doc(view: &JsValue, text: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = gradscopeEditor, js_name = destroy, catch)]
    fn cm_destroy(view: &JsValue) -> Result<(), JsValue>;
}

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The text to start with, and the text Reset puts back.
    pub source: AttrValue,
    /// Changes when `source` must replace what the editor holds.
    pub source_version: u32,
    /// The line that raised, marked.
    pub error_line: Option<u32>,
    /// The line the trace is stepped to, highlighted.
    pub current_line: Option<u32>,
    /// Every edit's new text.
    pub on_change: Callback<String>,
    /// Ctrl/Cmd-Enter.
    pub on_run: Callback<()>,
}

/// The Python program, with line numbers and the error and current lines marked.
#[function_component]
pub fn Editor(props: &Props) -> Html {
    let host = use_node_ref();
    let view = use_mut_ref(|| None::<JsValue>);
    let fallback = use_state(|| false);
    // The callbacks JavaScript holds read the latest props through this.
    let latest = use_mut_ref(|| (props.on_change.clone(), props.on_run.clone()));
    *latest.borrow_mut() = (props.on_change.clone(), props.on_run.clone());
    {
        let (host, view, fallback, latest) =
            (host.clone(), view.clone(), fallback.clone(), latest.clone());
        let doc = props.source.clone();
        use_effect_with((), move |_| {
            let changed = latest.clone();
            let on_change =
                Closure::<dyn FnMut(String)>::new(move |text| changed.borrow().0.emit(text));
            let on_run = Closure::<dyn FnMut()>::new(move || latest.borrow().1.emit(()));
            let created = host.cast::<web_sys::Element>().map(|parent| {
                cm_create(
                    &parent,
                    &doc,
                    on_change.as_ref().unchecked_ref(),
                    on_run.as_ref().unchecked_ref(),
                )
            });
            match created {
                Some(Ok(editor)) => *view.borrow_mut() = Some(editor),
                Some(Err(err)) => {
                    web_sys::console::warn_2(
                        &"gradscope: the code editor did not load".into(),
                        &err,
                    );
                    fallback.set(true);
                }
                None => fallback.set(true),
            }
            move || {
                if let Some(editor) = view.borrow_mut().take() {
                    let _ = cm_destroy(&editor);
                }
                drop((on_change, on_run));
            }
        });
    }
    {
        let view = view.clone();
        use_effect_with(
            (props.error_line, props.current_line),
            move |(error, current)| {
                if let Some(editor) = view.borrow().as_ref() {
                    let _ = cm_mark(editor, *error, *current);
                }
            },
        );
    }
    {
        let (view, source) = (view.clone(), props.source.clone());
        use_effect_with(props.source_version, move |version| {
            if let (true, Some(editor)) = (*version > 0, view.borrow().as_ref()) {
                let _ = cm_set_doc(editor, &source);
            }
        });
    }
    if *fallback {
        let on_change = props.on_change.clone();
        let on_run = props.on_run.clone();
        return html! {
            <textarea class="plain-editor" data-testid="code" aria-label="Python program"
                spellcheck="false" value={props.source.clone()}
                oninput={move |e: InputEvent| on_change.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value())}
                onkeydown={move |e: KeyboardEvent| if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                    e.prevent_default();
                    on_run.emit(());
                }} />
        };
    }
    html! { <div class="editor-host" ref={host} /> }
}
