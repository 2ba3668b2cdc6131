//! gradscope's page: a yew app on the main thread. It owns no maths: the
//! engine runs in the Web Worker, and layouts come from `gradscope-trace`.

mod components;
mod size;
mod state;
mod storage;
mod worker;

use wasm_bindgen::prelude::*;

/// Mounts the app on the page's `<main id="app">` (or the body).
#[wasm_bindgen(start)]
pub fn start() {
    let document = web_sys::window().and_then(|w| w.document());
    match document.and_then(|d| d.get_element_by_id("app")) {
        Some(root) => yew::Renderer::<components::App>::with_root(root).render(),
        None => yew::Renderer::<components::App>::new().render(),
    };
}
