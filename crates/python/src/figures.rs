//! Figures a program shows: `matplotlib.pyplot.show()` hands each open
//! figure, drawn as SVG by the `matplotlib` package under `py/`, to
//! `_gradscope._show_figure`, which passes it to the host's sink (the CLI's
//! `--figures DIR` writes files; the page puts figures in its console).
//! Without a sink, `show()` shows nothing and prints nothing, as
//! matplotlib's Agg backend does.

use std::cell::RefCell;

use rustpython_vm::builtins::{PyModule, PyStrRef};
use rustpython_vm::{AsObject, Py, PyResult, VirtualMachine};

/// Receives each shown figure's SVG document, in the order the program
/// shows them.
pub type FigureSink = Box<dyn FnMut(&str)>;

thread_local! {
    static SINK: RefCell<Option<FigureSink>> = const { RefCell::new(None) };
}

/// Sends the figures that programs run on this thread show to `sink`
/// (`None`: nowhere).
///
/// ```
/// use std::cell::RefCell;
/// use std::rc::Rc;
/// let shown = Rc::new(RefCell::new(Vec::new()));
/// let keep = shown.clone();
/// gradscope_python::set_figure_sink(Some(Box::new(move |svg: &str| {
///     keep.borrow_mut().push(svg.to_string())
/// })));
/// let out = gradscope_python::Runtime::new()
///     .run("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n");
/// assert_eq!(out.stdout, "");
/// assert_eq!(shown.borrow().len(), 1);
/// assert!(shown.borrow()[0].contains("<svg"));
/// gradscope_python::set_figure_sink(None);
/// ```
pub fn set_figure_sink(sink: Option<FigureSink>) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// Registers `_show_figure` on `_gradscope`.
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let show = vm.new_function("_show_figure", |svg: PyStrRef, vm: &VirtualMachine| {
        // The event the sink leaves carries the line of the learner's
        // show(), not the last line an op noted (a loop's, above it).
        crate::limits::note_line(vm);
        let text = svg.to_string_lossy();
        // Taken out while it runs, so a sink that runs Python cannot find
        // itself borrowed.
        let sink = SINK.with(|s| s.borrow_mut().take());
        if let Some(mut sink) = sink {
            sink(&text);
            SINK.with(|s| {
                let mut slot = s.borrow_mut();
                if slot.is_none() {
                    *slot = Some(sink);
                }
            });
        }
    });
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_show_figure"), show, vm)
}
