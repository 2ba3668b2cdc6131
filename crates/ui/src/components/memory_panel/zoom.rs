//! The zoom of the memory view and the training charts: the wheel (about
//! the pointer), a drag and the keys move a view's
//! `gradscope_trace::memory_zoom::Zoom`, which the view hands over as the
//! one `SharedZoom` of the page (its events), and each view draws the
//! stretch that says on its own axis. One store for the page, as the pin
//! is: the two panels share it without the app passing it down.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::EventLog;
use gradscope_trace::memory_zoom::{PAN_STEP, SharedZoom, ZOOM_STEP, Zoom};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{AddEventListenerOptions, Element, KeyboardEvent, WheelEvent};
use yew::prelude::*;

use crate::listeners::{self, Listeners, use_listener};

/// Where the plot sits in the chart's box: its left edge and width, in
/// CSS pixels, as the latest render drew it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlotBox {
    pub left: f64,
    pub width: f64,
}

impl PlotBox {
    /// The view fraction (0 the plot's left edge, 1 its right) at a
    /// client x in `element`.
    fn at(&self, element: &Element, client_x: i32) -> f64 {
        let rect = element.get_bounding_client_rect();
        ((f64::from(client_x) - rect.left() - self.left) / self.width.max(1.0)).clamp(0.0, 1.0)
    }
}

/// The stretch the memory view and the charts show, the run it is a
/// stretch of, and who is told when it changes.
#[derive(Default)]
struct Store {
    zoom: SharedZoom,
    run: EventLog,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::default();
    static LISTENERS: RefCell<Listeners> = RefCell::default();
}

/// Shows `zoom`, a stretch of the run `log` (a view's), in both views.
pub fn share(zoom: SharedZoom, log: &EventLog) {
    let changed = STORE.with(|s| {
        let mut store = s.borrow_mut();
        if store.zoom == zoom && same_run(log, &store.run) {
            return false;
        }
        store.zoom = zoom;
        store.run = log.clone();
        true
    });
    if changed {
        listeners::notify(&LISTENERS);
    }
}

/// Whether two logs are one run, one of them recorded further.
fn same_run(a: &EventLog, b: &EventLog) -> bool {
    a.extends(b) || b.extends(a)
}

/// The stretch both views show of the run `log`: the whole of another
/// run (a new run starts whole). The component re-renders when it changes.
#[hook]
pub fn use_shared_zoom(log: &EventLog) -> SharedZoom {
    use_listener(&LISTENERS);
    STORE.with(|s| {
        let store = s.borrow();
        if same_run(log, &store.run) {
            store.zoom
        } else {
            SharedZoom::Whole
        }
    })
}

/// Installs the wheel and drag handlers on `container`, which move `zoom`
/// (the view's, as drawn) and report each new one to `on_zoom` (the wheel's
/// listener is not passive, so the page does not scroll under a zoom).
#[hook]
pub fn use_zoom(container: NodeRef, plot: PlotBox, zoom: Zoom, on_zoom: Callback<Zoom>) {
    // The handlers live as long as the element; they read the latest
    // zoom, plot box and callback from here.
    let latest = use_mut_ref(|| (zoom, plot, on_zoom.clone()));
    *latest.borrow_mut() = (zoom, plot, on_zoom);
    {
        let latest = latest.clone();
        use_effect_with(container, move |container| {
            let element = container.cast::<Element>();
            let handlers = element.as_ref().map(|element| install(element, latest));
            move || {
                if let (Some(element), Some(handlers)) = (element, handlers) {
                    for (name, handler) in &handlers {
                        let _ = element.remove_event_listener_with_callback(
                            name,
                            handler.as_ref().unchecked_ref(),
                        );
                    }
                }
            }
        });
    }
}

/// What the handlers read: the zoom drawn, the plot box, where to report.
type Latest = Rc<RefCell<(Zoom, PlotBox, Callback<Zoom>)>>;

type Handler = Closure<dyn FnMut(web_sys::Event)>;

/// The wheel, mousedown, mousemove and mouseup handlers, installed.
fn install(element: &Element, latest: Latest) -> Vec<(&'static str, Handler)> {
    // Until the view draws it, the next event starts from this one.
    let set = |latest: &Latest, next: Zoom| {
        let on_zoom = {
            let mut latest = latest.borrow_mut();
            latest.0 = next;
            latest.2.clone()
        };
        on_zoom.emit(next);
    };
    let wheel = {
        let (latest, element) = (latest.clone(), element.clone());
        Handler::new(move |e: web_sys::Event| {
            let Some(e) = e.dyn_ref::<WheelEvent>() else {
                return;
            };
            if e.delta_y() == 0.0 {
                return;
            }
            e.prevent_default();
            let (zoom, plot) = (latest.borrow().0, latest.borrow().1);
            let factor = if e.delta_y() < 0.0 {
                ZOOM_STEP
            } else {
                1.0 / ZOOM_STEP
            };
            set(
                &latest,
                zoom.zoom_at(factor, plot.at(&element, e.client_x())),
            );
        })
    };
    // Where the pointer was at the last move, while the button is down.
    let last: Rc<Cell<Option<i32>>> = Rc::default();
    let down = {
        let last = last.clone();
        Handler::new(move |e: web_sys::Event| {
            if let Some(e) = e.dyn_ref::<web_sys::MouseEvent>()
                && e.button() == 0
            {
                last.set(Some(e.client_x()));
            }
        })
    };
    let moved = {
        let last = last.clone();
        Handler::new(move |e: web_sys::Event| {
            let Some(e) = e.dyn_ref::<web_sys::MouseEvent>() else {
                return;
            };
            let Some(x0) = last.get() else { return };
            if e.buttons() & 1 == 0 {
                last.set(None);
                return;
            }
            last.set(Some(e.client_x()));
            let (zoom, plot) = (latest.borrow().0, latest.borrow().1);
            // Dragging right shows what lies to the left.
            set(
                &latest,
                zoom.pan(-f64::from(e.client_x() - x0) / plot.width.max(1.0)),
            );
        })
    };
    let up = Handler::new(move |_: web_sys::Event| last.set(None));
    let options = AddEventListenerOptions::new();
    options.set_passive(false);
    let _ = element.add_event_listener_with_callback_and_add_event_listener_options(
        "wheel",
        wheel.as_ref().unchecked_ref(),
        &options,
    );
    let handlers = vec![("mousedown", down), ("mousemove", moved), ("mouseup", up)];
    for (name, handler) in &handlers {
        let _ = element.add_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
    }
    let mut all = vec![("wheel", wheel)];
    all.extend(handlers);
    all
}

/// The zoom a key asks for, from `zoom`: `+` and `-` about the middle,
/// the arrows pan, `0` (or Home) the whole run, `s` the training step at
/// the cursor (`step`, when the run has one there). `None`: not a zoom key.
pub fn key_zoom(e: &KeyboardEvent, zoom: Zoom, step: Option<Zoom>) -> Option<Zoom> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    Some(match e.key().as_str() {
        "+" | "=" => zoom.zoom_at(ZOOM_STEP, 0.5),
        "-" | "_" => zoom.zoom_at(1.0 / ZOOM_STEP, 0.5),
        "ArrowLeft" => zoom.pan(-PAN_STEP),
        "ArrowRight" => zoom.pan(PAN_STEP),
        "0" | "Home" => Zoom::WHOLE,
        "s" | "S" => step?,
        _ => return None,
    })
}
