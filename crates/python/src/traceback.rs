//! Uncaught exceptions printed as CPython prints them, showing only the
//! frames of the learner's program: the frames of our `torch` package and
//! of the standard library are implementation detail to a learner.

use rustpython_vm::builtins::{PyBaseExceptionRef, PyStrInterned};
use rustpython_vm::{AsObject, VirtualMachine};

/// One frame of a traceback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Frame {
    pub(crate) line: usize,
    pub(crate) function: String,
}

/// The learner's frames of `exc`'s traceback, outermost first.
pub(crate) fn user_frames(
    exc: &PyBaseExceptionRef,
    main_file: &'static PyStrInterned,
) -> Vec<Frame> {
    let Some(tb) = exc.traceback() else {
        return vec![];
    };
    tb.iter()
        .filter_map(|tb| {
            let code = tb.frame.f_code();
            std::ptr::eq(code.source_path(), main_file).then(|| Frame {
                line: tb.lineno.get(),
                function: code.obj_name.to_string(),
            })
        })
        .collect()
}

/// `module.qualname` of the exception's type, without `builtins.`, as
/// CPython's last traceback line names it.
pub(crate) fn qualified_type_name(exc: &PyBaseExceptionRef, vm: &VirtualMachine) -> String {
    let class = exc.class();
    let name = class.name().to_string();
    let module = class
        .as_object()
        .get_attr("__module__", vm)
        .ok()
        .and_then(|m| m.str(vm).ok())
        .map(|m| m.to_string());
    match module.as_deref() {
        None | Some("builtins" | "__main__") => name,
        Some(module) => format!("{module}.{name}"),
    }
}

/// `str(exc)`, or a note when even that fails.
pub(crate) fn message(exc: &PyBaseExceptionRef, vm: &VirtualMachine) -> String {
    match exc.as_object().str(vm) {
        Ok(s) => s.to_string().trim_end().to_string(),
        Err(_) => "<exception str() failed>".to_string(),
    }
}

/// The full report, chained exceptions first, as CPython writes it to stderr.
pub(crate) fn format(
    exc: &PyBaseExceptionRef,
    vm: &VirtualMachine,
    source: &str,
    file_name: &str,
    main_file: &'static PyStrInterned,
) -> String {
    let mut chain = vec![(exc.clone(), None)];
    let mut seen = vec![exc.get_id()];
    while let Some((last, _)) = chain.last() {
        let (next, note) = match (last.__cause__(), last.__context__()) {
            (Some(cause), _) => (
                cause,
                "The above exception was the direct cause of the following exception:",
            ),
            (None, Some(context)) if !suppressed(last, vm) => (
                context,
                "During handling of the above exception, another exception occurred:",
            ),
            _ => break,
        };
        if seen.contains(&next.get_id()) {
            break;
        }
        seen.push(next.get_id());
        chain.push((next, Some(note)));
    }
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for (i, (exc, _)) in chain.iter().enumerate().rev() {
        write_one(&mut out, exc, vm, &lines, file_name, main_file);
        // The note of the exception printed next says how it relates to this one.
        if i > 0
            && let Some((_, Some(note))) = chain.get(i)
        {
            out.push('\n');
            out.push_str(note);
            out.push_str("\n\n");
        }
    }
    out
}

fn write_frame(out: &mut String, frame: &Frame, lines: &[&str], file_name: &str) {
    out.push_str(&format!(
        "  File \"{file_name}\", line {}, in {}\n",
        frame.line, frame.function
    ));
    if let Some(text) = frame.line.checked_sub(1).and_then(|i| lines.get(i)) {
        let text = text.trim();
        if !text.is_empty() {
            out.push_str(&format!("    {text}\n"));
        }
    }
}

/// `exc.__suppress_context__` (set by `raise ... from None`).
fn suppressed(exc: &PyBaseExceptionRef, vm: &VirtualMachine) -> bool {
    exc.as_object()
        .get_attr("__suppress_context__", vm)
        .and_then(|v| v.try_to_bool(vm))
        .unwrap_or(false)
}

fn write_one(
    out: &mut String,
    exc: &PyBaseExceptionRef,
    vm: &VirtualMachine,
    lines: &[&str],
    file_name: &str,
    main_file: &'static PyStrInterned,
) {
    if exc.class().fast_issubclass(vm.ctx.exceptions.syntax_error) {
        // CPython shows the offending line with a caret; RustPython's
        // writer does the same.
        let mut text = String::new();
        let _ = vm.write_exception_inner(&mut text, exc);
        out.push_str(&text);
        return;
    }
    let frames = user_frames(exc, main_file);
    if !frames.is_empty() {
        out.push_str("Traceback (most recent call last):\n");
        // As CPython: a frame repeated more than 3 times in a row is
        // printed 3 times, then counted.
        let mut i = 0;
        while i < frames.len() {
            let frame = &frames[i];
            let run = frames[i..].iter().take_while(|f| *f == frame).count();
            for _ in 0..run.min(3) {
                write_frame(out, frame, lines, file_name);
            }
            if run > 3 {
                let more = run - 3;
                let s = if more == 1 { "" } else { "s" };
                out.push_str(&format!("  [Previous line repeated {more} more time{s}]\n"));
            }
            i += run;
        }
    }
    let name = qualified_type_name(exc, vm);
    let message = message(exc, vm);
    if message.is_empty() {
        out.push_str(&format!("{name}\n"));
    } else {
        out.push_str(&format!("{name}: {message}\n"));
    }
}
