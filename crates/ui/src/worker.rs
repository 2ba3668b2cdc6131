//! The hook that owns the engine's Web Worker: it starts it, sends it runs,
//! restarts it on Stop, and turns its replies into actions, at most one per
//! animation frame.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::protocol::Device;
use gradscope_trace::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::prelude::*;

use crate::files::ProgramFile;
use crate::frame::Rehearsal;
use crate::frame::inbox::{self, Chunks, Inbox};
use crate::state::{Action, State};

/// A started worker with the handlers it calls, which live as long as it does.
struct Spawned {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// A run's time-limit timer: its id, and the callback it will call.
type Deadline = (i32, Closure<dyn FnMut()>);

/// What the page holds of the worker.
pub struct Engine {
    dispatch: UseReducerDispatcher<State>,
    worker: RefCell<Option<Spawned>>,
    /// Whether the current worker said Ready.
    ready: Rc<Cell<bool>>,
    /// Requests made before the worker was ready, in order, as sent.
    waiting: Rc<RefCell<Vec<String>>>,
    receiver: Rc<Receiver>,
    /// The pending time-limit timer of the current run: its id and callback.
    deadline: RefCell<Option<Deadline>>,
    /// The views' warm-up on the worker's warm-up trace, once asked for.
    rehearsal: Rehearsal,
}

/// A cheap handle to the page's worker, for callbacks.
#[derive(Clone)]
pub struct EngineHandle(Rc<Engine>);

impl PartialEq for EngineHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl EngineHandle {
    /// Runs `source` from the start, with the learner's extra `files`
    /// beside it, stopping any run in progress first, under a memory budget
    /// of `memory_budget` bytes (`None`: the engine's).
    pub fn run(
        &self,
        source: &str,
        files: &[ProgramFile],
        device: Device,
        memory_budget: Option<u64>,
    ) {
        if self.0.receiver.running.get() || self.0.receiver.broken.get() {
            self.stop();
        }
        self.0.rehearsal.give_up();
        self.0.receiver.inbox.borrow_mut().want_rehearsal(false);
        self.0.dispatch.dispatch(Action::Started);
        self.0.receiver.running.set(true);
        let run = Request::RunProgram {
            source: source.to_string(),
            device,
            memory_budget,
        };
        if let Some(message) = crate::files::run_message(&run, files) {
            self.send_text(message);
        }
        self.arm_time_limit();
    }

    /// Sends `request` now, or once the worker is ready.
    fn request(&self, request: Request) {
        if let Ok(json) = serde_json::to_string(&request) {
            self.send_text(json);
        }
    }

    /// Sends a request's JSON now, or once the worker is ready.
    fn send_text(&self, json: String) {
        match self.0.worker.borrow().as_ref() {
            Some(spawned) if self.0.ready.get() => send_json(&spawned.worker, &json),
            _ => self.0.waiting.borrow_mut().push(json),
        }
    }

    /// Asks for the worker's warm-up trace and draws the views on it,
    /// unseen (see `components::rehearsal`); the page does this once, as
    /// it opens.
    pub fn rehearse(&self) {
        self.0.receiver.inbox.borrow_mut().want_rehearsal(true);
        self.request(Request::Rehearse);
    }

    /// Stops the run when it outlives the time limit. The worker runs Python
    /// without a tracer (which would slow every line), so the page enforces
    /// the limit, by terminating the worker as Stop does.
    fn arm_time_limit(&self) {
        self.disarm_time_limit();
        let Some(window) = web_sys::window() else {
            return;
        };
        let limit = time_limit_secs();
        let engine = self.clone();
        let on_time = Closure::<dyn FnMut()>::new(move || {
            if engine.0.receiver.running.get() {
                engine.halt();
                engine.0.dispatch.dispatch(Action::TimedOut(limit));
                engine.0.start();
            }
        });
        let ms = i32::try_from(u64::from(limit) * 1000).unwrap_or(i32::MAX);
        if let Ok(id) = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            on_time.as_ref().unchecked_ref(),
            ms,
        ) {
            *self.0.deadline.borrow_mut() = Some((id, on_time));
        }
    }

    fn disarm_time_limit(&self) {
        if let Some((id, _callback)) = self.0.deadline.borrow_mut().take()
            && let Some(window) = web_sys::window()
        {
            window.clear_timeout_with_handle(id);
        }
    }

    /// Terminates the worker and forgets the run's queued replies.
    fn halt(&self) {
        let engine = &self.0;
        if let Some(spawned) = engine.worker.borrow_mut().take() {
            spawned.worker.terminate();
        }
        engine.receiver.inbox.borrow_mut().clear();
        engine.receiver.held.borrow_mut().clear();
        engine.waiting.borrow_mut().clear();
        engine.receiver.running.set(false);
    }

    /// Asks the worker to check a lesson's claims with its tensors on
    /// `device` (after any run it was sent, which it finishes first).
    pub fn check_lesson(&self, slug: &str, device: Device) {
        self.0.dispatch.dispatch(Action::CheckingClaims);
        self.request(Request::CheckLesson {
            slug: slug.to_string(),
            device,
        });
    }

    /// Ends the run by terminating the worker, and starts a fresh one.
    pub fn stop(&self) {
        self.disarm_time_limit();
        self.halt();
        self.0.dispatch.dispatch(Action::Stopped);
        self.0.start();
    }
}

/// How long one run may take, in seconds: `?time_limit=N` in the page's
/// address (for tests and long lessons), else [`DEFAULT_TIME_LIMIT`].
fn time_limit_secs() -> u32 {
    crate::storage::address_param("time_limit")
        .and_then(|secs| secs.parse::<u32>().ok())
        .filter(|&secs| secs > 0)
        .unwrap_or(DEFAULT_TIME_LIMIT)
}

/// The time limit of a run when the address names none.
pub const DEFAULT_TIME_LIMIT: u32 = 120;

impl Engine {
    fn start(&self) {
        self.ready.set(false);
        self.receiver.broken.set(false);
        match spawn(self) {
            Ok(started) => *self.worker.borrow_mut() = Some(started),
            Err(message) => self.dispatch.dispatch(Action::WorkerFailed(message)),
        }
    }
}

/// Starts the worker once and terminates it when the page goes away.
#[hook]
pub fn use_engine(dispatch: UseReducerDispatcher<State>) -> EngineHandle {
    let handle = use_memo((), move |_| {
        let inbox: Rc<RefCell<Inbox>> = Rc::default();
        let held: Rc<RefCell<Vec<Reply>>> = Rc::default();
        let rehearsal = Rehearsal::default();
        let frame_pending: Rc<Cell<bool>> = Rc::default();
        let running: Rc<Cell<bool>> = Rc::default();
        // The flush asks for the next frame itself while replies wait.
        let again: Rc<RefCell<Option<js_sys::Function>>> = Rc::default();
        let flush = {
            let dispatch = dispatch.clone();
            let (inbox, held, pending, running, again, rehearsal) = (
                inbox.clone(),
                held.clone(),
                frame_pending.clone(),
                running.clone(),
                again.clone(),
                rehearsal.clone(),
            );
            let mut handed_at = f64::NEG_INFINITY;
            Closure::<dyn FnMut()>::new(move || {
                pending.set(false);
                let now = js_sys::Date::now();
                let end = now
                    + if now - handed_at >= HAND_OVER_EVERY_MS {
                        HAND_OVER_PARSE_BUDGET_MS
                    } else {
                        PARSE_BUDGET_MS
                    };
                let mut replies = inbox.borrow_mut().take(|| js_sys::Date::now() >= end);
                // The warm-up trace goes to the rehearsal, not the reducer.
                replies.retain_mut(|reply| match reply {
                    Reply::Rehearsal { events } => {
                        rehearsal.receive(std::mem::take(events));
                        false
                    }
                    Reply::Rehearsed => {
                        rehearsal.received();
                        false
                    }
                    _ => true,
                });
                if replies
                    .iter()
                    .any(|r| matches!(r, Reply::Finished | Reply::Error { .. }))
                {
                    running.set(false);
                }
                // Events and output wait for the next hand-over, at most
                // HAND_OVER_EVERY_MS apart; how a run or the engine stands
                // (finished, raised, ready) goes at once.
                let mut held = held.borrow_mut();
                held.extend(replies);
                // A figure goes at once too: the learner waits for it.
                let urgent = held.iter().any(|r| match r {
                    Reply::Stdout { text } => text.contains(crate::figure::START),
                    Reply::Events { .. } | Reply::Stderr { .. } | Reply::Notice { .. } => false,
                    _ => true,
                });
                let handed = (urgent || now - handed_at >= HAND_OVER_EVERY_MS) && !held.is_empty();
                let replies = if handed {
                    handed_at = now;
                    std::mem::take(&mut *held)
                } else {
                    Vec::new()
                };
                let waiting = !held.is_empty() || !inbox.borrow().is_empty();
                drop(held);
                if waiting
                    && let (Some(window), Some(again)) =
                        (web_sys::window(), again.borrow().as_ref())
                    && window.request_animation_frame(again).is_ok()
                {
                    pending.set(true);
                }
                if handed {
                    dispatch.dispatch(Action::Replies(replies));
                }
            })
        };
        *again.borrow_mut() = Some(flush.as_ref().unchecked_ref::<js_sys::Function>().clone());
        let engine = Rc::new(Engine {
            dispatch,
            worker: RefCell::new(None),
            ready: Rc::default(),
            waiting: Rc::default(),
            deadline: RefCell::new(None),
            rehearsal,
            receiver: Rc::new(Receiver {
                inbox,
                held,
                flush,
                frame_pending,
                running,
                broken: Cell::new(false),
            }),
        });
        engine.start();
        EngineHandle(engine)
    });
    let on_drop = (*handle).clone();
    use_effect_with((), move |_| {
        move || {
            if let Some(spawned) = on_drop.0.worker.borrow_mut().take() {
                spawned.worker.terminate();
            }
        }
    });
    (*handle).clone()
}

fn spawn(engine: &Engine) -> Result<Spawned, String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options("./worker.js", &options)
        .map_err(|e| format!("could not start the engine's worker: {e:?}"))?;
    let sender = worker.clone();
    let (ready, waiting) = (engine.ready.clone(), engine.waiting.clone());
    let receiver = engine.receiver.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        // Long messages (trace events) come as UTF-8 bytes and wait to be
        // copied and parsed a frame's budget at a time; short ones (ready,
        // finished, printed lines) come as strings and are read now.
        if let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>() {
            let mut rest = ByteChunks {
                bytes: bytes.clone(),
                at: 0,
            };
            let first = rest.next_chunk().unwrap_or_default();
            receiver.receive_chunks(first, Box::new(rest));
            return;
        }
        let text = data.as_string().unwrap_or_default();
        let reply = inbox::parse(&text);
        if matches!(reply, Reply::Ready { .. }) {
            ready.set(true);
            send(&sender, &Request::ProbeDevices);
            for json in waiting.borrow_mut().drain(..) {
                send_json(&sender, &json);
            }
        }
        receiver.receive(reply);
    });
    // An uncaught exception (a Rust panic aborts as `unreachable`) leaves the
    // worker's module unusable: report it, and restart before the next run.
    let receiver = engine.receiver.clone();
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
        receiver.broken.set(true);
        receiver.receive(Reply::Error {
            kind: "RuntimeError".into(),
            message: format!("the engine failed: {}", event.message()),
            line: None,
            traceback: None,
        });
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Spawned {
        worker,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// How much of a long message is copied from JavaScript at a time (bytes):
/// a memcpy of well under a millisecond.
const CHUNK: u32 = 256 * 1024;

/// A message's UTF-8 bytes handed to Rust a piece at a time.
struct ByteChunks {
    bytes: js_sys::Uint8Array,
    /// Where the next piece starts.
    at: u32,
}

impl Chunks for ByteChunks {
    fn next_chunk(&mut self) -> Option<String> {
        let len = self.bytes.length();
        if self.at >= len {
            return None;
        }
        let bytes = &self.bytes;
        let end = inbox::utf8_piece_end(|i| bytes.get_index(i), self.at, self.at + CHUNK, len);
        let piece = self.bytes.subarray(self.at, end).to_vec();
        self.at = end;
        Some(
            String::from_utf8(piece)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        )
    }
}

/// How long one animation frame may spend parsing the worker's replies (ms):
/// with the views' work, a frame stays well within 16 ms.
const PARSE_BUDGET_MS: f64 = 4.0;

/// The parsing budget of a frame that hands events over (ms): the views
/// update in it.
const HAND_OVER_PARSE_BUDGET_MS: f64 = 1.0;

/// How often, at most, parsed events are handed to the reducer while more
/// wait to be parsed (ms). Each hand-over re-renders the page's light parts
/// (status, event counter, scrub slider), and the browser's style, layout,
/// paint and commit of that cost more main-thread time than the parsing:
/// every third frame, not every frame, during a long run's catch-up.
const HAND_OVER_EVERY_MS: f64 = 50.0;

/// Where replies wait for the next animation frame; shared by the engine
/// and each worker's message handler.
struct Receiver {
    /// Replies not yet handed to the reducer.
    inbox: Rc<RefCell<Inbox>>,
    /// Replies parsed and not yet handed over (events, while more wait).
    held: Rc<RefCell<Vec<Reply>>>,
    /// Hands what `inbox` can parse in time to the reducer, as one action;
    /// runs on the next animation frame.
    flush: Closure<dyn FnMut()>,
    frame_pending: Rc<Cell<bool>>,
    /// Whether a run was sent and has not finished.
    running: Rc<Cell<bool>>,
    /// Whether the worker threw and must be restarted.
    broken: Cell<bool>,
}

impl Receiver {
    /// Queues a reply and asks for a frame to hand the queue over in.
    fn receive(&self, reply: Reply) {
        if matches!(reply, Reply::Finished | Reply::Error { .. }) {
            self.running.set(false);
        }
        self.inbox.borrow_mut().push_reply(reply);
        self.ask_frame();
    }

    /// Queues a long message, its first piece copied, to be parsed in frames.
    fn receive_chunks(&self, first: String, rest: Box<dyn Chunks>) {
        self.inbox.borrow_mut().push_chunks(first, Some(rest));
        self.ask_frame();
    }

    fn ask_frame(&self) {
        if !self.frame_pending.replace(true) {
            let asked = web_sys::window()
                .map(|w| w.request_animation_frame(self.flush.as_ref().unchecked_ref()));
            if !matches!(asked, Some(Ok(_))) {
                self.frame_pending.set(false);
            }
        }
    }
}

fn send(worker: &Worker, request: &Request) {
    if let Ok(json) = serde_json::to_string(request) {
        send_json(worker, &json);
    }
}

fn send_json(worker: &Worker, json: &str) {
    // A failed post shows up as a run that never finishes; Stop recovers.
    let _ = worker.post_message(&JsValue::from_str(json));
}
