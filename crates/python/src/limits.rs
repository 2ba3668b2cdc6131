//! Limits on a run (a time budget, a line budget, the recursion limit) and
//! the program line the engine attributes its events to.
//!
//! RustPython 0.6 checks an interrupt flag between bytecode instructions
//! natively (its `signal::user_signal_channel`), but never on wasm32. So:
//!
//! - natively, the time budget is a watchdog thread that, once the time is
//!   up, sends the interpreter a signal raising `ExecutionLimitExceeded` at
//!   the next instruction, whatever runs; it costs nothing until then;
//! - on wasm32, and for the (deterministic) line budget everywhere, a native
//!   `sys.settrace` function counts line events: a new line, or a loop
//!   going round (RustPython reports backward jumps to the same line too, so
//!   `while True: pass` is caught). The VM's tracing path costs about 1 µs
//!   per event, which slows pure-Python loops several times over; in the
//!   browser the page can instead terminate a worker that overruns.
//!
//! `ExecutionLimitExceeded` is a `BaseException`, so `except Exception`
//! cannot swallow it. A program that catches it anyway is interrupted again
//! every 100 ms natively; under the tracer it escapes, as the VM drops a
//! trace function that raised. Only the learner's frames are traced line by
//! line. Loops inside native code (`sum(itertools.count())`) are never
//! interrupted: both mechanisms act between bytecode instructions.
//!
//! The program line: before each engine call the bindings look up the
//! innermost frame of the learner's program ([`note_line`]), so trace events
//! and anomaly reports name the learner's line even when our `torch`
//! package's Python code made the call.

use std::cell::{Cell, RefCell};
use std::time::Duration;

use rustpython_vm::builtins::{PyStrInterned, PyStrRef};
use rustpython_vm::frame::FrameObjectRef;
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};
use web_time::Instant;

/// How often (in trace events) the tracer reads the clock.
const CLOCK_EVERY: u32 = 64;

/// What a run may use.
///
/// ```
/// use std::time::Duration;
/// use gradscope_python::{Limits, Runtime};
/// let mut rt = Runtime::with_limits(Limits { time: Some(Duration::from_millis(200)), ..Limits::default() });
/// let out = rt.run("while True:\n    pass\n");
/// assert_eq!(out.error.map(|e| e.type_name), Some("ExecutionLimitExceeded".to_string()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time one `run` may take; `None` for no limit.
    pub time: Option<Duration>,
    /// Lines (line events: a new line, or a loop going round) one `run` may
    /// execute; `None` for no limit. Deterministic, unlike `time`.
    pub lines: Option<u64>,
    /// Python's recursion limit, `sys.getrecursionlimit()`.
    pub recursion: usize,
    /// Bytes of tensor memory per device; an allocation past it raises
    /// `torch.OutOfMemoryError`. `None` for no limit.
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            time: Some(Duration::from_secs(30)),
            lines: None,
            recursion: 1000,
            memory: None,
        }
    }
}

/// The budget of the run in progress.
#[derive(Debug)]
struct Budget {
    started: Instant,
    time: Option<Duration>,
    lines_left: u64,
    lines: Option<u64>,
    until_clock: u32,
    /// The learner's file name, as the compiler interned it.
    main_file: Option<&'static PyStrInterned>,
    tracer: Option<PyObjectRef>,
    spent: Option<String>,
}

thread_local! {
    static BUDGET: RefCell<Option<Budget>> = const { RefCell::new(None) };
    /// The learner's file name while a program runs.
    static MAIN_FILE: Cell<Option<&'static PyStrInterned>> = const { Cell::new(None) };
}

/// What enforces the limits of the run in progress; [`stop`] ends it.
#[derive(Debug)]
pub(crate) struct Active {
    tracer: bool,
    #[cfg(not(target_arch = "wasm32"))]
    _timer: Option<watchdog::Timer>,
}

/// Starts enforcing `limits` for a run of the program `main_file`.
pub(crate) fn start(
    vm: &VirtualMachine,
    limits: &Limits,
    main_file: &str,
    watchdog: Option<&Watchdog>,
) -> Active {
    vm.recursion_limit.set(limits.recursion.max(50));
    let main_file = vm.ctx.intern_str(main_file);
    MAIN_FILE.with(|m| m.set(Some(main_file)));
    let timed_by_watchdog = cfg!(not(target_arch = "wasm32")) && watchdog.is_some();
    let tracer = limits.lines.is_some() || (limits.time.is_some() && !timed_by_watchdog);
    if tracer {
        install_tracer(vm, limits, main_file);
    }
    #[cfg(target_arch = "wasm32")]
    let _ = watchdog;
    Active {
        tracer,
        #[cfg(not(target_arch = "wasm32"))]
        _timer: match (limits.time, watchdog) {
            (Some(time), Some(w)) => w.arm(time),
            _ => None,
        },
    }
}

/// Stops enforcing the limits of a run.
pub(crate) fn stop(vm: &VirtualMachine, active: Active) {
    if active.tracer {
        *vm.trace_func.borrow_mut() = vm.ctx.none();
        let profile_unset = vm.is_none(&vm.profile_func.borrow());
        vm.use_tracing.set(!profile_unset);
        BUDGET.with(|b| b.borrow_mut().take());
    }
    MAIN_FILE.with(|m| m.set(None));
    gradscope_core::trace::set_current_line(None);
}

/// Tells the engine which line of the learner's program is running: the
/// line of its innermost frame on the stack.
pub(crate) fn note_line(vm: &VirtualMachine) {
    let Some(main_file) = MAIN_FILE.with(Cell::get) else {
        return;
    };
    let mut frame = vm.current_frame();
    // Library code calls the engine a few frames below the learner's call.
    for _ in 0..32 {
        let Some(f) = frame else { return };
        if std::ptr::eq(f.f_code().source_path(), main_file) {
            // `lineno` walks the code's line table from its start: read
            // once here for both the engine and the names.
            let line = u32::try_from(f.lineno()).ok();
            gradscope_core::trace::set_current_line(line);
            crate::names::noted(vm, &f, line.unwrap_or(0), main_file);
            return;
        }
        frame = f.f_back(vm);
    }
}

fn install_tracer(vm: &VirtualMachine, limits: &Limits, main_file: &'static PyStrInterned) {
    let tracer: PyObjectRef = vm.new_function("_gradscope_tracer", trace).into();
    let main_file = Some(main_file);
    BUDGET.with(|b| {
        *b.borrow_mut() = Some(Budget {
            started: Instant::now(),
            time: limits.time,
            lines_left: limits.lines.unwrap_or(u64::MAX),
            lines: limits.lines,
            until_clock: CLOCK_EVERY,
            main_file,
            tracer: Some(tracer.clone()),
            spent: None,
        })
    });
    *vm.trace_func.borrow_mut() = tracer;
    vm.use_tracing.set(true);
}

/// Whether `frame` runs the learner's program.
fn is_main(frame: &FrameObjectRef, main_file: Option<&'static PyStrInterned>) -> bool {
    main_file.is_some_and(|m| std::ptr::eq(frame.f_code().source_path(), m))
}

/// The trace function: `(frame, event, arg)` as `sys.settrace` calls it.
fn trace(
    frame: FrameObjectRef,
    _event: PyStrRef,
    _arg: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let verdict = BUDGET.with(|b| {
        let mut b = b.borrow_mut();
        let Some(budget) = b.as_mut() else {
            return Ok(None);
        };
        let main = is_main(&frame, budget.main_file);
        if let Some(spent) = budget.charge() {
            return Err(spent);
        }
        // Trace only the learner's frames line by line.
        Ok(if main { budget.tracer.clone() } else { None })
    });
    match verdict {
        Ok(tracer) => Ok(tracer.unwrap_or_else(|| vm.ctx.none())),
        Err(message) => Err(crate::state::limit_exceeded(vm, message)),
    }
}

impl Budget {
    /// Counts one event; the message when a budget is spent.
    fn charge(&mut self) -> Option<String> {
        if let Some(spent) = &self.spent {
            return Some(spent.clone());
        }
        if self.lines_left == 0 {
            let lines = self.lines.unwrap_or_default();
            self.spent = Some(format!(
                "the program ran more than {lines} lines and was stopped (is there a loop that never ends?)"
            ));
            return self.spent.clone();
        }
        self.lines_left -= 1;
        self.until_clock -= 1;
        if self.until_clock == 0 {
            self.until_clock = CLOCK_EVERY;
            if let Some(time) = self.time
                && self.started.elapsed() > time
            {
                self.spent = Some(time_message(time));
                return self.spent.clone();
            }
        }
        None
    }
}

fn time_message(time: Duration) -> String {
    format!(
        "the program ran longer than its time budget of {} and was stopped (is there a loop that never ends?)",
        human_duration(time)
    )
}

fn human_duration(d: Duration) -> String {
    if d.as_secs_f64() >= 1.0 {
        format!("{} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use watchdog::Watchdog;

/// No watchdog on wasm32: nothing else runs while the program does.
#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
pub(crate) struct Watchdog;

#[cfg(not(target_arch = "wasm32"))]
mod watchdog {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{self, RecvTimeoutError};
    use std::time::Duration;

    use rustpython_vm::signal::{
        UserSignal, UserSignalReceiver, UserSignalSender, user_signal_channel,
    };

    /// Interrupts the interpreter from another thread when a run's time is up.
    #[derive(Debug)]
    pub(crate) struct Watchdog {
        sender: UserSignalSender,
        /// The run in progress; a signal meant for an earlier run does nothing.
        run: Arc<AtomicU64>,
    }

    /// The timer of one run: dropping it cancels the interrupt.
    #[derive(Debug)]
    pub(crate) struct Timer {
        _cancel: mpsc::Sender<()>,
        run: Arc<AtomicU64>,
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            self.run.fetch_add(1, Ordering::SeqCst);
        }
    }

    impl Watchdog {
        /// A watchdog, and the receiver to give the interpreter.
        pub(crate) fn new() -> (Self, UserSignalReceiver) {
            let (sender, receiver) = user_signal_channel();
            let run = Arc::new(AtomicU64::new(0));
            (Self { sender, run }, receiver)
        }

        /// Interrupts the run starting now after `time`, and again every
        /// 100 ms if the program catches the exception and goes on.
        pub(crate) fn arm(&self, time: Duration) -> Option<Timer> {
            let run = self.run.fetch_add(1, Ordering::SeqCst) + 1;
            let (cancel, cancelled) = mpsc::channel::<()>();
            let sender = self.sender.clone();
            let current = self.run.clone();
            let message = super::time_message(time);
            std::thread::Builder::new()
                .name("gradscope-watchdog".into())
                .spawn(move || {
                    let mut wait = time;
                    while let Err(RecvTimeoutError::Timeout) = cancelled.recv_timeout(wait) {
                        let (current, message) = (current.clone(), message.clone());
                        let signal: UserSignal = Box::new(move |vm| {
                            if current.load(Ordering::SeqCst) == run {
                                Err(crate::state::limit_exceeded(vm, message))
                            } else {
                                Ok(())
                            }
                        });
                        if sender.send(signal).is_err() {
                            return;
                        }
                        wait = Duration::from_millis(100);
                    }
                })
                .ok()?;
            Some(Timer {
                _cancel: cancel,
                run: self.run.clone(),
            })
        }
    }
}
