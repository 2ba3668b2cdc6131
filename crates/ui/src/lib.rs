//! gradscope's page: a yew app on the main thread. It owns no maths: the
//! engine runs in the Web Worker, and layouts come from `gradscope-trace`.
//!
//! The same module is the embeddable widget: in `embed.html`, whose
//! `<main id="app">` carries the settings `embed.js` checked in its
//! `data-config` attribute, it mounts the widget (`EmbedApp`) instead.

mod components;
mod console;
mod embed;
mod figure;
mod files;
mod follow;
mod frame;
mod graph_window;
mod listeners;
mod pin;
mod share;
mod size;
mod state;
mod storage;
mod views;
mod worker;

use std::rc::Rc;

use wasm_bindgen::prelude::*;

/// How much of the wasm heap is grown at start (bytes): about what the
/// page holds after a 1,000-step training loop (its trace and views).
const HEAP_RESERVE: usize = 64 << 20;

/// Grows the heap once, now. The allocator grows wasm memory 64 KiB at a
/// time as the trace comes in, and each `memory.grow` costs the main
/// thread: a traced 1,000-step run spent 6-42 ms in 109-119 of them, up
/// to 7.7 ms in one frame. One growth at start, freed at once, leaves the
/// space to the allocator; pages never written are not made resident.
fn reserve_heap() {
    drop(Vec::<u8>::with_capacity(HEAP_RESERVE));
}

/// Mounts the app on the page's `<main id="app">` (or the body): the
/// widget when that element has a `data-config`, else the playground.
#[wasm_bindgen(start)]
pub fn start() {
    reserve_heap();
    let document = web_sys::window().and_then(|w| w.document());
    match document.and_then(|d| d.get_element_by_id("app")) {
        Some(root) => match root.get_attribute("data-config") {
            Some(json) => {
                let props = components::EmbedAppProps {
                    config: Rc::new(embed::Config::from_json(&json)),
                };
                yew::Renderer::<components::EmbedApp>::with_root_and_props(root, props).render();
            }
            None => {
                yew::Renderer::<components::App>::with_root(root).render();
            }
        },
        None => {
            yew::Renderer::<components::App>::new().render();
        }
    }
}
