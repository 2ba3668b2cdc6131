//! The graph view's pan and zoom: a small reducer over
//! `gradscope_trace::viewport::Viewport`, and the wheel and drag handlers
//! of the element that shows the graph.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::viewport::{Viewport, ZOOM_STEP};
use wasm_bindgen::prelude::*;
use web_sys::{AddEventListenerOptions, Element, MouseEvent, WheelEvent};
use yew::prelude::*;

/// What the learner did to the view. Each carries the fitted view the
/// graph has now, which the first move starts from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewAction {
    /// Scale by `factor` about the view point `at`.
    Zoom {
        factor: f64,
        at: (f64, f64),
        fit: Viewport,
    },
    /// Move by (dx, dy) view pixels.
    Pan(f64, f64, Viewport),
    /// Back to the whole graph, following it as it grows.
    Fit,
}

/// The view the learner chose, or `None`: fitted to the graph.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Chosen(Option<Viewport>);

impl Reducible for Chosen {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        let next = match action {
            ViewAction::Zoom { factor, at, fit } => Some(self.0.unwrap_or(fit).zoom_at(factor, at)),
            ViewAction::Pan(dx, dy, fit) => Some(self.0.unwrap_or(fit).pan(dx, dy)),
            ViewAction::Fit => None,
        };
        Rc::new(Chosen(next))
    }
}

/// The viewport to draw with, given the fitted one, and where to send the
/// learner's moves. Installs, on `container`, wheel zoom (about the
/// pointer) and drag to pan.
#[hook]
pub fn use_view(container: NodeRef, fit: Viewport) -> (Viewport, Callback<ViewAction>) {
    let chosen = use_reducer_eq(Chosen::default);
    // The wheel and drag handlers live as long as the element; they read
    // the fitted view of the latest render from here.
    let latest_fit = use_mut_ref(|| fit);
    *latest_fit.borrow_mut() = fit;
    let dispatch = chosen.dispatcher();
    {
        let (dispatch, latest_fit) = (dispatch.clone(), latest_fit.clone());
        use_effect_with(container, move |container| {
            let element = container.cast::<Element>();
            let handlers = element.as_ref().map(|element| {
                let on_wheel = {
                    let (dispatch, latest_fit, element) =
                        (dispatch.clone(), latest_fit.clone(), element.clone());
                    Closure::<dyn FnMut(WheelEvent)>::new(move |e: WheelEvent| {
                        if e.ctrl_key() && e.delta_y() == 0.0 {
                            return;
                        }
                        e.prevent_default();
                        let factor = if e.delta_y() < 0.0 {
                            ZOOM_STEP
                        } else {
                            1.0 / ZOOM_STEP
                        };
                        let at = point_in(&element, &e);
                        let fit = *latest_fit.borrow();
                        dispatch.dispatch(ViewAction::Zoom { factor, at, fit });
                    })
                };
                let options = AddEventListenerOptions::new();
                options.set_passive(false);
                let _ = element.add_event_listener_with_callback_and_add_event_listener_options(
                    "wheel",
                    on_wheel.as_ref().unchecked_ref(),
                    &options,
                );
                let on_drag = drag_handlers(element, dispatch.clone(), latest_fit.clone());
                (on_wheel, on_drag)
            });
            let element = element.clone();
            move || {
                if let (Some(element), Some((on_wheel, on_drag))) = (element, handlers) {
                    let _ = element.remove_event_listener_with_callback(
                        "wheel",
                        on_wheel.as_ref().unchecked_ref(),
                    );
                    let (on_element, on_window) = on_drag;
                    for (name, handler) in &on_element {
                        let _ = element.remove_event_listener_with_callback(
                            name,
                            handler.as_ref().unchecked_ref(),
                        );
                    }
                    if let Some(window) = web_sys::window() {
                        let _ = window.remove_event_listener_with_callback_and_bool(
                            "click",
                            on_window.as_ref().unchecked_ref(),
                            true,
                        );
                    }
                }
            }
        });
    }
    let viewport = chosen.0.unwrap_or(fit);
    (viewport, Callback::from(move |a| dispatch.dispatch(a)))
}

type Handler = Closure<dyn FnMut(MouseEvent)>;

/// How far (in view pixels, summed over the moves) the pointer travels
/// with the button down before the gesture is a drag, not a click.
const DRAG_AFTER: f64 = 4.0;

/// Dragging with the main button pans; the handlers on the element, by
/// event name, and the window's click handler.
///
/// A drag that begins and ends on a box (the box moves with the pointer)
/// ends in a click on it, which opened a module group or selected a node
/// the learner only meant to move the view by. The window's handler, in
/// the capture phase, stops that click before the page's handlers see it
/// (yew's listen at the app's root, in the capture phase too, so a handler
/// on the element itself would run after them).
fn drag_handlers(
    element: &Element,
    dispatch: UseReducerDispatcher<Chosen>,
    latest_fit: Rc<RefCell<Viewport>>,
) -> (Vec<(&'static str, Handler)>, Handler) {
    // Where the pointer was at the last move, while the button is down.
    let last: Rc<Cell<Option<(f64, f64)>>> = Rc::default();
    // How far it has moved since the button went down.
    let travelled: Rc<Cell<f64>> = Rc::default();
    // Set from a drag's end until its click, or the next task.
    let dragged: Rc<Cell<bool>> = Rc::default();
    let down = {
        let (last, travelled, dragged) = (last.clone(), travelled.clone(), dragged.clone());
        Handler::new(move |e: MouseEvent| {
            if e.button() == 0 {
                last.set(Some((f64::from(e.client_x()), f64::from(e.client_y()))));
                travelled.set(0.0);
                dragged.set(false);
            }
        })
    };
    let moved = {
        let (last, travelled) = (last.clone(), travelled.clone());
        Handler::new(move |e: MouseEvent| {
            let Some((x0, y0)) = last.get() else { return };
            if e.buttons() & 1 == 0 {
                last.set(None);
                return;
            }
            let (x, y) = (f64::from(e.client_x()), f64::from(e.client_y()));
            last.set(Some((x, y)));
            travelled.set(travelled.get() + (x - x0).hypot(y - y0));
            let fit = *latest_fit.borrow();
            dispatch.dispatch(ViewAction::Pan(x - x0, y - y0, fit));
        })
    };
    let up = {
        let dragged = dragged.clone();
        Handler::new(move |_: MouseEvent| {
            if last.take().is_some() && travelled.get() > DRAG_AFTER {
                dragged.set(true);
                // The click, if any, comes before the next task.
                let dragged = dragged.clone();
                let clear = Closure::once_into_js(move || dragged.set(false));
                if let Some(window) = web_sys::window() {
                    let _ = window.set_timeout_with_callback(clear.unchecked_ref());
                }
            }
        })
    };
    let handlers = vec![("mousedown", down), ("mousemove", moved), ("mouseup", up)];
    for (name, handler) in &handlers {
        let _ = element.add_event_listener_with_callback(name, handler.as_ref().unchecked_ref());
    }
    let on_click = {
        let element = element.clone();
        Handler::new(move |e: MouseEvent| {
            let inside = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                .is_some_and(|t| element.contains(Some(&t)));
            if dragged.replace(false) && inside {
                e.stop_propagation();
                e.prevent_default();
            }
        })
    };
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback_and_bool(
            "click",
            on_click.as_ref().unchecked_ref(),
            true,
        );
    }
    (handlers, on_click)
}

/// Where a mouse event happened in `element`'s box.
fn point_in(element: &Element, e: &MouseEvent) -> (f64, f64) {
    let rect = element.get_bounding_client_rect();
    (
        f64::from(e.client_x()) - rect.left(),
        f64::from(e.client_y()) - rect.top(),
    )
}
