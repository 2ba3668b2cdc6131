//! The size of an element, kept current as the window resizes, for charts
//! whose text must stay readable at any width.

use wasm_bindgen::prelude::*;
use web_sys::{ResizeObserver, ResizeObserverEntry};
use yew::prelude::*;

/// The content width of `node` in CSS pixels (0 until it is mounted).
/// Only a change of width draws the caller again: a chart's container
/// grows taller when its first chart or legend line appears, and that,
/// seen as a new size, drew the panel twice in one frame (a second style
/// and layout pass in a frame that already carried the panel's update).
#[hook]
pub fn use_width(node: NodeRef) -> f64 {
    use_observed(node, |width, _| (width, 0.0)).0
}

/// The size the views draw at where their elements have none: in the
/// rehearsal's detached element (`components::rehearsal`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageSize {
    pub width: f64,
    pub height: f64,
}

/// The content width and height of `node` in CSS pixels (0 until it is
/// mounted), or the [`StageSize`] a rehearsal provides.
#[hook]
pub fn use_size(node: NodeRef) -> (f64, f64) {
    use_observed(node, |width, height| (width, height))
}

/// What `keep` takes of `node`'s content size (width, height in whole CSS
/// pixels), kept current; the caller is drawn again only when that changes.
#[hook]
fn use_observed(node: NodeRef, keep: fn(f64, f64) -> (f64, f64)) -> (f64, f64) {
    let stage = use_context::<StageSize>();
    let size = use_state_eq(|| (0.0, 0.0));
    {
        let size = size.clone();
        use_effect_with(node, move |node| {
            let element = node.cast::<web_sys::Element>();
            let on_resize =
                Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    if let Ok(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>() {
                        let rect = entry.content_rect();
                        size.set(keep(rect.width().floor(), rect.height().floor()));
                    }
                });
            let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
            if let (Some(observer), Some(element)) = (&observer, &element) {
                observer.observe(element);
            }
            move || {
                if let Some(observer) = observer {
                    observer.disconnect();
                }
                drop(on_resize);
            }
        });
    }
    stage.map_or(*size, |s| keep(s.width, s.height))
}
