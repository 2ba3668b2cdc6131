//! Running a learner's program: the Python runtime (`gradscope-python`) on
//! the engine, its trace streamed to the page in batches while it runs, its
//! output posted as it is printed.
//!
//! The worker runs one program at a time, synchronously: messages posted
//! meanwhile reach the page at once (the page's thread is free), and Stop
//! terminates this worker, so no time limit slows the interpreter here (the
//! page enforces its own wall-clock limit the same way).

use std::cell::RefCell;
use std::time::Duration;

use gradscope_core::trace;
use gradscope_python::{Limits, RunOutput, Runtime, Stream};
use gradscope_trace::protocol::Device;
use gradscope_trace::{Event, Reply};

use crate::files::ProgramFile;
use crate::post;

/// The most events in one message.
const BATCH: usize = 4096;
/// How long events may wait before they are posted, so views move while a
/// program runs (about two animation frames).
const EVERY: Duration = Duration::from_millis(30);

/// Tensor bytes a program may hold in the browser.
pub(crate) const MEMORY_BUDGET: u64 = 1 << 30;

thread_local! {
    /// The worker's interpreter, made once at start-up and reused: each run
    /// gets fresh globals, and imported modules stay loaded.
    static RUNTIME: RefCell<Option<Runtime>> = const { RefCell::new(None) };
}

/// Makes the interpreter and imports `torch`; returns how long it took, in
/// milliseconds.
pub(crate) fn start_runtime() -> f64 {
    let started = web_time::Instant::now();
    let runtime = make_runtime();
    RUNTIME.with(|r| *r.borrow_mut() = Some(runtime));
    started.elapsed().as_secs_f64() * 1000.0
}

/// The worker's interpreter: its limits, and every lesson's data file.
fn make_runtime() -> Runtime {
    let limits = Limits {
        // Natively a watchdog thread enforces time; here a tracer would have
        // to, costing every Python line. The page terminates an overdue worker.
        time: None,
        // wasm32 has 4 GiB of address space and an allocation that fails
        // aborts the module: tensors past this raise torch.OutOfMemoryError.
        memory: Some(MEMORY_BUDGET),
        ..Limits::default()
    };
    let mut runtime = Runtime::with_limits(limits);
    // The lessons' data (the digits) opens by its relative name, as it does
    // beside the program in PyTorch.
    for lesson in gradscope_lessons::lessons() {
        for file in lesson.files {
            runtime.add_file(file.name, file.bytes.to_vec());
        }
    }
    runtime
}

/// A short training loop the worker runs once, after it has said it is
/// ready and which devices it has, its output thrown away and its trace
/// kept for the page's own warm-up (`Request::Rehearse`).
///
/// A fresh worker's first run compiled its hot code as it went: V8
/// compiles a wasm function on its first call, and recompiles the hot ones
/// optimised on background threads (traced on the learner's first 20-step
/// loop: 58 ms of lazy compiling in the worker and 243 ms of optimising on
/// the thread pool), which on a 2-core machine took the core the page's
/// frames need. Run here, that happens while the learner reads the page; a
/// Run pressed meanwhile waits for it (a few tenths of a second at most).
///
/// It draws no random numbers, so the programs' random streams are those
/// of a fresh worker. It does what the lessons' programs do: forward, loss,
/// backward, an optimizer step, `no_grad`, `item()` and formatting, on
/// plain tensors and on an `nn.Module` under `record_function`, so the
/// page's rehearsal draws module groups and named phases too. With the
/// plain loop alone, the digits lesson's first run still lazily compiled
/// 58-65 of the page's functions (19 ms) in its frames; now 11-14 (under
/// 4 ms). The corpus holds it to PyTorch's output (`worker_warm_up.py`).
const WARM_UP: &str = include_str!("../../../tests/corpus/worker_warm_up.py");

/// What the warm-up runs after its first round, [`MORE_ROUNDS`] times, one
/// round at a time while the worker idles, once the page has asked for its
/// rehearsal: the digits lesson's work (a gzipped CSV read into a tensor, a
/// 64-32-10 network trained on batches of 50), held to PyTorch's output in
/// the corpus like [`WARM_UP`].
///
/// V8 optimises a wasm function once its calls have spent a budget, and
/// compiles one at all only when it is first called. A fresh page's first
/// run of the digits lesson, after [`WARM_UP`] alone, still compiled 399 of
/// the worker's functions and optimised 122, spending 319 ms optimising (V8's
/// `--trace-wasm-compilation-times`, in a 700 ms run) on the 2 cores the
/// worker and the page's frames share. Running [`WARM_UP`]
/// itself 5 more times cut the optimising in the run only to 202-269 ms
/// (traced, against 377 ms): much of the lesson's code is not its code.
const WARM_UP_MORE: &str = include_str!("../../../tests/corpus/worker_warm_up_data.py");

/// How many times [`WARM_UP_MORE`] runs.
const MORE_ROUNDS: u32 = 10;

thread_local! {
    static WARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The warm-up run's trace, kept until the page asks for it.
    static REHEARSAL: std::cell::RefCell<Vec<Event>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The warm-up's rounds still to run while the worker idles.
    static ROUNDS_LEFT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs [`WARM_UP`] on the worker's interpreter, once, its output dropped
/// and its trace kept for [`rehearse`].
pub(crate) fn warm_up() {
    if WARMED.with(|w| w.replace(true)) {
        return;
    }
    warm_up_round(WARM_UP, |events| {
        REHEARSAL.with(|kept| kept.borrow_mut().extend(events));
    });
}

/// Runs `source` once, its output dropped and its trace handed to `keep`
/// (serialised on the way, as a run's is, so that code warms up too).
fn warm_up_round(source: &str, keep: fn(Vec<Event>)) {
    with_runtime(|runtime| {
        runtime.set_output_sink(Some(Box::new(|_, _| {})));
        trace::start_streaming(
            Box::new(move |events| {
                let batch = Reply::Events { events };
                let mut json = Vec::new();
                drop(gradscope_trace::reply_json::write(&mut json, &batch));
                if let Reply::Events { events } = batch {
                    keep(events);
                }
            }),
            BATCH,
            EVERY,
        );
        let _ = runtime.run(source);
        keep(trace::stop_recording());
        runtime.set_output_sink(None);
    });
}

/// Posts the warm-up run's trace (running it first if it has not run) and
/// then says it has all been sent; a second call posts an empty one. The
/// page then idles while the learner reads, and [`WARM_UP_MORE`] runs
/// meanwhile (`worker.js` calls [`warm_up_more`]).
pub(crate) fn rehearse() {
    warm_up();
    let events = REHEARSAL.with(|kept| std::mem::take(&mut *kept.borrow_mut()));
    post(&Reply::Rehearsal { events });
    post(&Reply::Rehearsed);
    ROUNDS_LEFT.with(|left| left.set(MORE_ROUNDS));
}

/// Ends the warm-up's rounds: a request came, and warms the code itself.
pub(crate) fn stop_warming() {
    ROUNDS_LEFT.with(|left| left.set(0));
}

/// Runs [`WARM_UP_MORE`] once more, its trace thrown away, if any rounds are
/// left, and says how many are left after it (`None`: none ran).
/// `worker.js` calls it between messages, only while none waits, so a Run
/// pressed meanwhile waits for one round at most.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn warm_up_more() -> Option<u32> {
    let left = ROUNDS_LEFT.with(std::cell::Cell::get).checked_sub(1)?;
    ROUNDS_LEFT.with(|cell| cell.set(left));
    warm_up_round(WARM_UP_MORE, drop);
    Some(left)
}

/// Calls `f` with the worker's interpreter (made on first use if start-up
/// did not make it).
pub(crate) fn with_runtime<T>(f: impl FnOnce(&mut Runtime) -> T) -> T {
    RUNTIME.with(|r| {
        let mut slot = r.borrow_mut();
        f(slot.get_or_insert_with(make_runtime))
    })
}

/// The budget a run gets when the page asks for `requested` bytes: the
/// default when it names none, and never more than the default, past which
/// a wasm32 allocation could abort the module instead of raising.
fn budget_for(requested: Option<u64>) -> u64 {
    requested.map_or(MEMORY_BUDGET, |bytes| bytes.min(MEMORY_BUDGET))
}

/// Runs `source`, with the learner's extra `files` beside it, under a
/// memory budget of `memory_budget` bytes (the default when `None`) and
/// posts its events, its output and how it ended.
pub(crate) fn run(source: &str, files: &[ProgramFile], device: Device, memory_budget: Option<u64>) {
    let out = with_runtime(|runtime| {
        crate::files::give(runtime, files);
        let defaults = runtime.limits().clone();
        runtime.set_limits(Limits {
            memory: Some(budget_for(memory_budget)),
            ..defaults.clone()
        });
        runtime.set_traceback_to_sink(false);
        runtime.set_output_sink(Some(Box::new(|stream, text| {
            // Events caused before the print reach the page before its text.
            trace::flush();
            post(&match stream {
                Stream::Stdout => Reply::Stdout { text: text.into() },
                Stream::Stderr => Reply::Stderr { text: text.into() },
            });
        })));
        // A figure goes in the output where it was shown (see `figures`).
        crate::figures::set_sink(|text| {
            trace::flush();
            post(&Reply::Stdout { text });
        });
        trace::start_streaming(
            Box::new(|events| post(&Reply::Events { events })),
            BATCH,
            EVERY,
        );
        let out = on_device(device, || runtime.run(source));
        crate::figures::clear_sink();
        let rest = trace::stop_recording();
        if !rest.is_empty() {
            post(&Reply::Events { events: rest });
        }
        runtime.set_output_sink(None);
        // The lessons' checks run on this interpreter too, under the default.
        runtime.set_limits(defaults);
        out
    });
    finish(out);
}

/// Runs `f` with `device` as the default device of new tensors, as
/// `torch.set_default_device` would, and the CPU again afterwards. When the
/// GPU cannot be had the run goes on on the CPU, and the console says why.
pub(crate) fn on_device<T>(device: Device, f: impl FnOnce() -> T) -> T {
    let target = match device {
        Device::Cpu => Device::Cpu,
        Device::WebGpu => match gradscope_core::device::gpu() {
            Ok(_) => Device::WebGpu,
            Err(err) => {
                post(&Reply::Notice {
                    text: format!("{err}; this run computes on the CPU"),
                });
                Device::Cpu
            }
        },
    };
    gradscope_core::device::set_default_device(target);
    let out = f();
    gradscope_core::device::set_default_device(Device::Cpu);
    out
}

/// Posts how the run ended.
fn finish(out: RunOutput) {
    if let Some(error) = out.error {
        post(&Reply::Error {
            kind: error.type_name,
            message: error.message,
            line: error.line.and_then(|l| u32::try_from(l).ok()),
            traceback: Some(error.traceback),
        });
        return;
    }
    post(&Reply::Finished);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_defaults_and_is_capped() {
        assert_eq!(budget_for(None), MEMORY_BUDGET);
        assert_eq!(budget_for(Some(64 << 20)), 64 << 20);
        assert_eq!(budget_for(Some(0)), 0);
        assert_eq!(budget_for(Some(u64::MAX)), MEMORY_BUDGET);
    }
}
