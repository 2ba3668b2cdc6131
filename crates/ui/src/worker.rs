//! The hook that starts the engine's Web Worker and turns its messages into
//! actions.

use gradscope_trace::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::prelude::*;

use crate::state::{Action, State};

/// Starts `worker.js` once, asks it to run the demo when it is ready, and
/// terminates it when the component goes away.
#[hook]
pub fn use_engine_worker(state: UseReducerHandle<State>) {
    use_effect_with((), move |_| {
        let started = start(state.dispatcher());
        let worker = match started {
            Ok(worker) => Some(worker),
            Err(message) => {
                state.dispatch(Action::WorkerFailed(message));
                None
            }
        };
        move || {
            if let Some((worker, _handler)) = worker {
                worker.terminate();
            }
        }
    });
}

type Handler = Closure<dyn FnMut(MessageEvent)>;

fn start(dispatch: UseReducerDispatcher<State>) -> Result<(Worker, Handler), String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options("./worker.js", &options)
        .map_err(|e| format!("could not start the engine's worker: {e:?}"))?;
    let sender = worker.clone();
    let handler = Handler::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        match serde_json::from_str::<Reply>(&text) {
            Ok(Reply::Ready) => {
                send(&sender, &Request::RunDemo);
                dispatch.dispatch(Action::Reply(Reply::Ready));
            }
            Ok(reply) => dispatch.dispatch(Action::Reply(reply)),
            Err(err) => dispatch.dispatch(Action::WorkerFailed(format!("bad reply: {err}"))),
        }
    });
    worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    Ok((worker, handler))
}

fn send(worker: &Worker, request: &Request) {
    if let Ok(json) = serde_json::to_string(request) {
        // A failed post shows up as a page that never gets its result; the
        // worker's own errors arrive as replies.
        let _ = worker.post_message(&JsValue::from_str(&json));
    }
}
