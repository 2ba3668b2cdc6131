//! Work for the moments the page would otherwise idle:
//! `requestIdleCallback`, or a timeout where the browser has none
//! (Safari). Work done there is not in any frame: the browser calls it
//! after a frame's rendering, with the time left before the next, or,
//! once the limit it was given has passed, as a task of its own.

/// How an idle callback found the page.
pub struct Idle {
    /// `None` where the browser gives no deadline (a timeout stood in),
    /// and natively.
    deadline: Option<web_sys::IdleDeadline>,
}

impl Idle {
    /// The time left in this idle period (ms), as of now; `None` where
    /// the browser gives none.
    pub fn left_ms(&self) -> Option<f64> {
        self.deadline
            .as_ref()
            .map(web_sys::IdleDeadline::time_remaining)
    }

    /// Whether the page did not idle before the callback's limit ran out.
    pub fn timed_out(&self) -> bool {
        self.deadline
            .as_ref()
            .is_some_and(web_sys::IdleDeadline::did_timeout)
    }
}

/// Runs `work` when the page next idles, or once `limit_ms` have passed
/// if it has not (`None`: no limit). Natively, at once.
pub fn when_idle(limit_ms: Option<u32>, work: impl FnOnce(Idle) + 'static) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let work = move |deadline: wasm_bindgen::JsValue| {
            work(Idle {
                deadline: deadline.dyn_into::<web_sys::IdleDeadline>().ok(),
            })
        };
        call_back(work, |window, callback| {
            let options = web_sys::IdleRequestOptions::new();
            if let Some(ms) = limit_ms {
                options.set_timeout(ms);
            }
            // Where `requestIdleCallback` is missing the call throws, and
            // a timeout stands in; the callback then gets no deadline.
            window
                .request_idle_callback_with_options(callback, &options)
                .is_ok()
                || window
                    .set_timeout_with_callback_and_timeout_and_arguments_0(callback, 0)
                    .is_ok()
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = limit_ms;
        work(Idle { deadline: None });
    }
}

/// Runs `work` after `ms` milliseconds (at once if `ms` is not positive;
/// natively, at once).
pub fn after(ms: f64, work: impl FnOnce() + 'static) {
    #[cfg(target_arch = "wasm32")]
    if ms > 0.0 {
        return call_back(
            move |_| work(),
            |window, callback| {
                window
                    .set_timeout_with_callback_and_timeout_and_arguments_0(
                        callback,
                        ms.ceil() as i32,
                    )
                    .is_ok()
            },
        );
    }
    let _ = ms;
    work();
}

/// Hands `ask` the window and a function that runs `work` with what it is
/// called with; where there is no window, or `ask` could not schedule it
/// (says `false`), `work` runs at once, with `undefined`, instead of never.
#[cfg(target_arch = "wasm32")]
fn call_back(
    work: impl FnOnce(wasm_bindgen::JsValue) + 'static,
    ask: impl FnOnce(&web_sys::Window, &js_sys::Function) -> bool,
) {
    use wasm_bindgen::JsCast;
    let work = std::rc::Rc::new(std::cell::Cell::new(Some(work)));
    let callback = {
        let work = work.clone();
        wasm_bindgen::closure::Closure::once_into_js(move |arg: wasm_bindgen::JsValue| {
            if let Some(work) = work.take() {
                work(arg)
            }
        })
    };
    let asked = web_sys::window().is_some_and(|window| ask(&window, callback.unchecked_ref()));
    if !asked && let Some(work) = work.take() {
        work(wasm_bindgen::JsValue::UNDEFINED)
    }
}
