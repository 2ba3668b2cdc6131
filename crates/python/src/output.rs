//! Captured stdout and stderr: what `print` writes lands in strings, and is
//! also streamed to an optional callback (the Web Worker posts it to the page
//! as it comes).

use std::cell::RefCell;
use std::fmt;

use rustpython_vm::builtins::PyStrRef;
use rustpython_vm::{Py, PyPayload, VirtualMachine, pyclass};

/// Which stream a piece of text was written to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// `sys.stdout` (`print`).
    Stdout,
    /// `sys.stderr` (warnings, tracebacks of uncaught exceptions).
    Stderr,
}

/// Receives text as the program writes it.
pub type OutputSink = Box<dyn FnMut(Stream, &str)>;

/// Stops capturing (but not streaming) past this many bytes per stream, so a
/// runaway `print` loop cannot exhaust memory before the time budget stops it.
const CAPTURE_LIMIT: usize = 8 << 20;

/// What one run wrote.
#[derive(Default)]
pub(crate) struct Captured {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) sink: Option<OutputSink>,
}

impl fmt::Debug for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Captured")
            .field("stdout", &self.stdout.len())
            .field("stderr", &self.stderr.len())
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

impl Captured {
    pub(crate) fn write(&mut self, stream: Stream, text: &str) {
        let buffer = match stream {
            Stream::Stdout => &mut self.stdout,
            Stream::Stderr => &mut self.stderr,
        };
        if buffer.len() < CAPTURE_LIMIT {
            buffer.push_str(text);
            if buffer.len() >= CAPTURE_LIMIT {
                buffer.push_str("\n[output truncated]\n");
            }
        }
        if let Some(sink) = &mut self.sink {
            sink(stream, text);
        }
    }
}

thread_local! {
    /// The capture of the run in progress on this thread.
    pub(crate) static CAPTURED: RefCell<Captured> = RefCell::new(Captured::default());
}

/// Writes `text` to the run's capture, as `sys.stdout.write` does.
pub(crate) fn write(stream: Stream, text: &str) {
    CAPTURED.with(|c| c.borrow_mut().write(stream, text));
}

/// `sys.stdout` and `sys.stderr`: text file objects that write to the capture.
#[pyclass(module = "_gradscope", name = "OutputStream")]
#[derive(Debug, PyPayload)]
pub(crate) struct OutputStream {
    stream: Stream,
}

impl OutputStream {
    pub(crate) fn new(stream: Stream) -> Self {
        Self { stream }
    }
}

#[pyclass]
impl OutputStream {
    #[pymethod]
    fn write(zelf: &Py<Self>, text: PyStrRef) -> usize {
        let text = text.to_string_lossy();
        write(zelf.stream, &text);
        text.chars().count()
    }

    #[pymethod]
    fn flush(_zelf: &Py<Self>) {}

    #[pymethod]
    fn isatty(_zelf: &Py<Self>) -> bool {
        false
    }

    #[pymethod]
    fn writable(_zelf: &Py<Self>) -> bool {
        true
    }

    #[pygetset]
    fn encoding(_zelf: &Py<Self>) -> &'static str {
        "utf-8"
    }

    #[pygetset]
    fn name(zelf: &Py<Self>) -> &'static str {
        match zelf.stream {
            Stream::Stdout => "<stdout>",
            Stream::Stderr => "<stderr>",
        }
    }

    #[pygetset]
    fn closed(_zelf: &Py<Self>) -> bool {
        false
    }

    #[pymethod]
    fn fileno(_zelf: &Py<Self>, vm: &VirtualMachine) -> rustpython_vm::PyResult<i32> {
        Err(vm.new_os_error("the playground's streams have no file descriptor"))
    }
}
