//! The runtime: one embedded interpreter with the `torch` package, running
//! learners' programs with their output captured, within limits, and
//! usable again after any error.

use std::fmt;
use std::rc::Rc;

use gradscope_core::trace;
use rustpython_vm::builtins::PyBaseExceptionRef;
use rustpython_vm::compiler::Mode;
use rustpython_vm::scope::Scope;
use rustpython_vm::{AsObject, Interpreter, PyResult, VirtualMachine};

use crate::limits::{self, Limits, Watchdog};
use crate::output::{CAPTURED, Captured, OutputSink, Stream};
use crate::state::{self, State};
use crate::traceback;

/// What the runtime runs before the first program: streams into the
/// capture, and `torch` imported so a program's `import torch` is instant.
const PRELUDE: &str = "\
import sys, _gradscope
import _gradscope_hash
import _gradscope_stdlib
sys.stdout, sys.stderr = _gradscope._output_streams()
sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr
import _gradscope_files
import torch
";

/// On wasm32, RustPython's `time` reads `std::time`, which panics there;
/// these read the browser's clocks instead.
const WASM_TIME: &str = "\
import time, _gradscope
time.perf_counter = time.monotonic = time.process_time = _gradscope._perf_counter
time.perf_counter_ns = time.monotonic_ns = time.process_time_ns = _gradscope._perf_counter_ns
time.time = _gradscope._time
time.time_ns = _gradscope._time_ns
time.sleep = _gradscope._sleep
";

/// An uncaught exception, as the learner sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonError {
    /// The exception type's name (`RuntimeError`, `OutOfMemoryError`).
    pub type_name: String,
    /// `str(exception)`.
    pub message: String,
    /// The report CPython would print, showing the program's frames only.
    pub traceback: String,
    /// The program line it was raised from, if it was.
    pub line: Option<usize>,
}

impl fmt::Display for PythonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.traceback)
    }
}

/// What one run printed, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutput {
    /// Everything written to `sys.stdout`.
    pub stdout: String,
    /// Everything written to `sys.stderr`, including the traceback of an
    /// uncaught exception.
    pub stderr: String,
    /// The uncaught exception, if the program raised one.
    pub error: Option<PythonError>,
    /// The code the program asked to exit with (`sys.exit(n)`): 1 after an
    /// uncaught exception, else 0.
    pub exit_code: i32,
}

/// A file a program wrote, as [`Runtime::written_files`] gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    /// Its path below the sandbox's `/` (the program's folder).
    pub path: String,
    pub bytes: Vec<u8>,
    /// torch.save's record of an object kept in the run's memory (gradscope
    /// does not pickle): no other process could load it.
    pub only_this_run: bool,
}

/// An embedded Python interpreter with gradscope's `torch`.
///
/// One thread runs one runtime at a time (the engine's grad mode and memory
/// ledger are per thread). A runtime is reused across programs: each `run`
/// gets fresh globals, while imported modules stay loaded.
pub struct Runtime {
    /// The last program's globals, kept until the next run starts: freed
    /// when it ended, its tensors would close its trace with frees no line
    /// of the program made, and the views would show them gone at its end.
    globals: Option<Scope>,
    interpreter: Interpreter,
    watchdog: Option<Watchdog>,
    state: Rc<State>,
    limits: Limits,
    file_name: String,
    args: Vec<String>,
    startup_error: Option<PythonError>,
    traceback_to_sink: bool,
    names: bool,
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("limits", &self.limits)
            .field("file_name", &self.file_name)
            .finish_non_exhaustive()
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        // Inside the interpreter, so the objects' finalizers can run, and
        // past whatever recording is on, as when the next run starts.
        let globals = self.globals.take();
        self.interpreter
            .enter(|_| trace::unrecorded(|| drop(globals)));
    }
}

impl Default for Runtime {
    fn default() -> Self {
        Self::new()
    }
}

impl Runtime {
    /// A runtime with the default [`Limits`].
    pub fn new() -> Self {
        Self::with_limits(Limits::default())
    }

    /// A runtime enforcing `limits` on every run.
    pub fn with_limits(limits: Limits) -> Self {
        let mut settings = rustpython_vm::vm::Settings::default();
        settings.install_signal_handlers = false;
        settings.import_site = false;
        settings.isolated = true;
        settings.ignore_environment = true;
        settings.safe_path = true;
        settings.user_site_directory = false;
        settings.hash_seed = Some(0);
        settings.argv = vec!["main.py".to_string()];
        let builder = Interpreter::builder(settings);
        let mut defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
        defs.push(crate::module::module_def(&builder.ctx));
        let builder = builder
            .add_native_modules(&defs)
            .add_frozen_modules(crate::frozen::modules());
        #[cfg(not(target_arch = "wasm32"))]
        let (builder, watchdog) = {
            let (watchdog, receiver) = Watchdog::new();
            let builder = builder.init_hook(move |vm| vm.set_user_signal_channel(receiver));
            (builder, Some(watchdog))
        };
        #[cfg(target_arch = "wasm32")]
        let watchdog = None;
        let interpreter = builder.build();
        let state = interpreter.enter(|vm| Rc::new(State::new(vm)));
        let mut runtime = Self {
            globals: None,
            interpreter,
            watchdog,
            state,
            limits,
            file_name: "main.py".to_string(),
            args: Vec::new(),
            startup_error: None,
            traceback_to_sink: true,
            names: true,
        };
        let prelude = if cfg!(target_arch = "wasm32") {
            format!("{WASM_TIME}{PRELUDE}")
        } else {
            PRELUDE.to_string()
        };
        // Importing `torch` allocates thousands of long-lived objects
        // (functions, classes, code) and frees almost none: cycle
        // collections during it find no garbage and cost a tenth of the
        // start, so the collector waits until the prelude is done.
        runtime.interpreter.enter(|vm| vm.state.gc.disable());
        let prelude = runtime.run_source(&prelude, "<gradscope prelude>", None);
        // What the prelude made lives as long as the runtime: frozen, the
        // collection before each program (see `run_source`) and the
        // program's own full collections do not walk it each time (debug
        // build, natively: an empty collection 2.5 ms thawed, 24 us frozen).
        runtime.interpreter.enter(|vm| {
            vm.state.gc.enable();
            vm.state.gc.freeze();
        });
        runtime.startup_error = prelude.error;
        runtime
    }

    /// The limits each run is held to.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes the limits for later runs.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The file name tracebacks give the program (`main.py` by default).
    pub fn set_file_name(&mut self, name: impl Into<String>) {
        self.file_name = name.into();
    }

    /// The program's arguments, `sys.argv[1:]` (`sys.argv[0]` is the file
    /// name), as `python FILE ARGS...` gives them.
    pub fn set_args(&mut self, args: Vec<String>) {
        self.args = args;
    }

    /// Makes `bytes` readable by programs as the file `name`, PyTorch
    /// programs' usual `open(name, "rb")` or `gzip.open(name, "rt")` of a
    /// data set; files are read-only and stay for every later run.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) {
        self.state
            .files
            .borrow_mut()
            .insert(name.trim_start_matches("./").to_string(), bytes.into());
    }

    /// The files the last program wrote (kept in memory: nothing it does
    /// touches the disk), sorted by path; for a host that writes them out.
    pub fn written_files(&self) -> Vec<WrittenFile> {
        self.interpreter.enter(|vm| {
            let listed = vm
                .import("_gradscope_files", 0)
                .and_then(|files| files.get_attr("_written_files", vm))
                .and_then(|written| written.call((), vm));
            let Ok(listed) = listed else {
                return Vec::new();
            };
            let Ok(items) = listed.try_to_value::<Vec<rustpython_vm::PyObjectRef>>(vm) else {
                return Vec::new();
            };
            items
                .iter()
                .filter_map(|item| {
                    use rustpython_vm::builtins::{PyBytes, PyStr, PyTuple};
                    let [path, bytes, record] = item.downcast_ref::<PyTuple>()?.as_slice() else {
                        return None;
                    };
                    Some(WrittenFile {
                        path: path.downcast_ref::<PyStr>()?.to_string_lossy().into_owned(),
                        bytes: bytes.downcast_ref::<PyBytes>()?.as_bytes().to_vec(),
                        only_this_run: record.clone().try_to_bool(vm).ok()?,
                    })
                })
                .collect()
        })
    }

    /// Streams output to `sink` as it is written, besides capturing it.
    pub fn set_output_sink(&mut self, sink: Option<OutputSink>) {
        CAPTURED.with(|c| c.borrow_mut().sink = sink);
    }

    /// Whether the traceback of an uncaught exception goes to the output
    /// sink as stderr text (the default, as a terminal shows it), or only to
    /// [`RunOutput::stderr`] and [`PythonError::traceback`] (the worker sends
    /// it to the page with the error, which marks the failing line).
    pub fn set_traceback_to_sink(&mut self, on: bool) {
        self.traceback_to_sink = on;
    }

    /// Whether a recorded run reports the names its statements give
    /// tensors (on by default): the graph's and memory view's labels.
    pub fn set_names(&mut self, on: bool) {
        self.names = on;
    }

    /// Runs `source` as a program (`__name__ == "__main__"`), with fresh
    /// globals, and returns what it printed and how it ended.
    pub fn run(&mut self, source: &str) -> RunOutput {
        if let Some(error) = &self.startup_error {
            return RunOutput {
                stderr: error.traceback.clone(),
                error: Some(error.clone()),
                exit_code: 1,
                ..RunOutput::default()
            };
        }
        let file_name = self.file_name.clone();
        let args = self.args.clone();
        self.run_source(source, &file_name, Some(&args))
    }

    /// Runs `source`; a program (`args` given) is limited and starts as
    /// `python FILE ARGS...` starts it, the prelude is not.
    fn run_source(&mut self, source: &str, file_name: &str, args: Option<&[String]>) -> RunOutput {
        let limited = args.is_some();
        let sink = CAPTURED.with(|c| c.borrow_mut().sink.take());
        CAPTURED.with(|c| {
            *c.borrow_mut() = Captured {
                sink,
                ..Captured::default()
            }
        });
        let limits = self.limits.clone();
        let previous = self.globals.take();
        let mut globals = None;
        let (error, exit_code) = state::enter(&self.state, || {
            self.interpreter.enter(|vm| {
                // The last program's module goes with its globals, before
                // this run records anything: else replacing it in
                // `sys.modules` frees its tensors inside this run's trace.
                trace::unrecorded(|| {
                    if let Ok(modules) = vm.sys_module.get_attr("modules", vm) {
                        let _ = modules.del_item("__main__", vm);
                    }
                    drop(previous);
                    // Its class's methods hold its globals, which hold the
                    // class and the model made of it: dropped, such a cycle
                    // (or one the program left as garbage) waits for the
                    // collector, which ran once the next program had
                    // allocated enough and put the frees of the last run's
                    // tensors in this run's trace (in the page, 40 events
                    // at its start, on no line).
                    if limited {
                        vm.state.gc.collect_force(2);
                    }
                });
                self.state.pending.borrow_mut().take();
                reset_engine_modes();
                gradscope_core::ledger::set_memory_budget(limits.memory);
                let active =
                    limited.then(|| limits::start(vm, &limits, file_name, self.watchdog.as_ref()));
                crate::names::start(self.names && limited);
                let result = args
                    .map_or(Ok(()), |args| enter_program(vm, file_name, args))
                    .and_then(|()| execute(vm, source, file_name, &mut globals));
                if let Some(scope) = &globals {
                    crate::names::finish(vm, &scope.globals.clone().into());
                }
                // What the program registered with `atexit` runs as it ends,
                // as at interpreter exit (a tqdm bar left open draws its end).
                rustpython_vm::stdlib::atexit::_run_exitfuncs(vm);
                if let Some(active) = active {
                    limits::stop(vm, active);
                }
                match result {
                    Ok(()) => (None, 0),
                    Err(exc) => {
                        if !exc.fast_isinstance(vm.ctx.exceptions.system_exit) {
                            crate::names::raised(vm, &exc, source, vm.ctx.intern_str(file_name));
                        }
                        ending(vm, &exc, source, file_name)
                    }
                }
            })
        });
        self.globals = globals;
        if let Some(error) = &error {
            let sink = CAPTURED.with(|c| {
                let mut c = c.borrow_mut();
                if self.traceback_to_sink {
                    None
                } else {
                    c.sink.take()
                }
            });
            crate::output::write(Stream::Stderr, &error.traceback);
            if let Some(sink) = sink {
                CAPTURED.with(|c| c.borrow_mut().sink = Some(sink));
            }
        }
        let captured = CAPTURED.with(|c| {
            let mut c = c.borrow_mut();
            let sink = c.sink.take();
            let done = std::mem::take(&mut *c);
            c.sink = sink;
            done
        });
        RunOutput {
            stdout: captured.stdout,
            stderr: captured.stderr,
            error,
            exit_code,
        }
    }
}

/// Each program starts with grad mode on and inference mode off, whatever
/// the last one left behind (`torch.set_grad_enabled(False)` has no scope).
/// The engine offers only scoped guards, so the reset guards are kept.
fn reset_engine_modes() {
    use gradscope_core::grad_mode::{self, GradModeGuard};
    // The random stream starts where a fresh process's does, so a program
    // without `manual_seed` prints the same numbers each time it runs.
    gradscope_core::ops::random::manual_seed(gradscope_core::ops::random::DEFAULT_SEED);
    grad_mode::set_detect_anomaly(false);
    // `torch.set_default_dtype` lasts until the program ends, as a process.
    let _ = gradscope_core::DType::set_default_float(gradscope_core::DType::DEFAULT_FLOAT);
    if grad_mode::is_inference_mode_enabled() {
        std::mem::forget(GradModeGuard::inference_mode(false));
    }
    if !grad_mode::is_grad_enabled() {
        std::mem::forget(GradModeGuard::set(true));
    }
}

/// `sys.argv` and the program's folder first on `sys.path`, as
/// `python FILE ARGS...` sets them (`_gradscope_files._enter_program`).
fn enter_program(vm: &VirtualMachine, file_name: &str, args: &[String]) -> PyResult<()> {
    let files = vm.import("_gradscope_files", 0)?;
    let args: Vec<_> = args
        .iter()
        .map(|a| vm.ctx.new_str(a.as_str()).into())
        .collect();
    let enter = files.get_attr("_enter_program", vm)?;
    enter.call((vm.ctx.new_str(file_name), vm.ctx.new_list(args)), vm)?;
    Ok(())
}

/// Compiles and runs `source` in fresh globals, which it leaves in `kept`.
fn execute(
    vm: &VirtualMachine,
    source: &str,
    file_name: &str,
    kept: &mut Option<Scope>,
) -> PyResult<()> {
    let code = crate::compile::compile(vm, source, Mode::Exec, file_name)
        .map_err(|err| err.into_pyexception(vm, Some(source)))?;
    let scope = kept.insert(vm.new_scope_with_builtins()).clone();
    // The program is `sys.modules["__main__"]`, as under `python FILE`:
    // pickle, typing and dataclasses find its classes through it.
    let main = vm.new_module("__main__", scope.globals.clone(), None);
    vm.sys_module
        .get_attr("modules", vm)?
        .set_item("__main__", main.into(), vm)?;
    scope
        .globals
        .set_item("__name__", vm.ctx.new_str("__main__").into(), vm)?;
    scope
        .globals
        .set_item("__file__", vm.ctx.new_str(file_name).into(), vm)?;
    vm.run_code_obj(code, scope)?;
    Ok(())
}

/// How an uncaught exception ends a run: the error to report (none for
/// `sys.exit(0)`) and the exit code.
fn ending(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    source: &str,
    file_name: &str,
) -> (Option<PythonError>, i32) {
    if exc.fast_isinstance(vm.ctx.exceptions.system_exit) {
        let code = exc.as_object().get_attr("code", vm).ok();
        match code {
            None => return (None, 0),
            Some(c) if vm.is_none(&c) => return (None, 0),
            Some(c) => {
                if let Ok(n) = c.try_to_value::<i32>(vm) {
                    return (None, n);
                }
                crate::output::write(
                    Stream::Stderr,
                    &format!("{}\n", traceback::message(exc, vm)),
                );
                return (None, 1);
            }
        }
    }
    let main_file = vm.ctx.intern_str(file_name);
    let frames = traceback::user_frames(exc, main_file);
    let error = PythonError {
        type_name: exc.class().name().to_string(),
        message: traceback::message(exc, vm),
        traceback: traceback::format(exc, vm, source, file_name, main_file),
        line: frames.last().map(|f| f.line),
    };
    (Some(error), 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::{Event, EventKind};

    /// The README's pinned pair (tests/e2e/page.mjs `mlp`): a module class,
    /// whose methods hold the program's globals, which hold the class.
    fn mlp(batch: usize) -> String {
        format!(
            "import torch\nfrom torch import nn\n\n\
             class MLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n        \
             self.fc1 = nn.Linear(8, 32)\n        self.fc2 = nn.Linear(32, 1)\n\n    \
             def forward(self, x):\n        h = self.fc1(x).relu()\n        return self.fc2(h)\n\n\
             torch.manual_seed(0)\nmodel = MLP()\nopt = torch.optim.Adam(model.parameters(), lr=0.01)\n\
             x = torch.randn({batch}, 8)\ny = x.sum(1, keepdim=True)\nfor step in range(3):\n    \
             pred = model(x)\n    loss = ((pred - y) ** 2).mean()\n    opt.zero_grad()\n    \
             loss.backward()\n    opt.step()\n    print(f\"step {{step}}: loss {{loss.item():.4f}}\")\n"
        )
    }

    /// The events of `events` about a storage it did not allocate.
    fn foreign(events: &[Event]) -> Vec<&Event> {
        let mut allocated = std::collections::HashSet::new();
        events
            .iter()
            .filter(|e| match &e.kind {
                EventKind::StorageAllocated { storage, .. } => {
                    allocated.insert(*storage);
                    false
                }
                EventKind::StorageFreed { storage }
                | EventKind::StorageRecategorised { storage, .. } => !allocated.contains(storage),
                _ => false,
            })
            .collect()
    }

    /// The last program's tensors that a cycle holds (its class's methods
    /// hold its globals) go before the next run records, not when the
    /// collector next runs inside it. Without the collection before each
    /// program, `gc.collect()` as the next program's first line put 40
    /// events of the last run's storages at the start of its trace (as the
    /// page showed when its collector ran early in a run); natively the
    /// batch-64 loop alone allocates too little to set the collector off.
    #[test]
    fn the_last_programs_cycles_are_collected_before_the_next_run_records() {
        let mut rt = Runtime::new();
        for (second, what) in [
            (mlp(64), "the same loop at batch 64"),
            ("import gc\ngc.collect()\n".to_string(), "gc.collect()"),
        ] {
            let first = rt.run(&mlp(256));
            assert_eq!(first.error, None);
            let (out, events) = trace::record(|| rt.run(&second));
            assert_eq!(out.error, None, "{what}");
            let foreign = foreign(&events);
            assert!(
                foreign.is_empty(),
                "{what}: {} events of the last run's storages: {:?}",
                foreign.len(),
                &foreign[..foreign.len().min(4)]
            );
        }
    }
}
