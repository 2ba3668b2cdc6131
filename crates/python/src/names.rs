//! The learner's names for tensors, and the lines that called the running
//! one, reported into the trace while it records.
//!
//! No per-line trace hook: that costs about 1 µs per line event in the
//! VM, for every line. Instead, the point where every engine call already
//! looks up the learner's innermost frame ([`crate::limits::note_line`])
//! calls [`noted`]; when that frame's line differs from the last one
//! noted, the statement before has finished, and its bindings are read
//! from the frame's locals: at most one scan per line change, none while
//! one line runs op after op (the 2000-op chain of `tests/bench/chain.py`
//! scans three times per call). What a program binds last is read once
//! more as it ends ([`finish`]).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use gradscope_core::{Tensor, trace};
use gradscope_trace::{EventKind, RaisedInput, TensorId};
use rustpython_vm::builtins::{
    PyBaseExceptionRef, PyDict, PyList, PyStr, PyStrInterned, PyTuple, PyType,
};
use rustpython_vm::frame::FrameObjectRef;
use rustpython_vm::{AsObject, PyObjectRef, VirtualMachine};

use crate::tensor::PyTensor;

/// How many items of a list or tuple are named (`xs[0]` ...).
const ITEMS_NAMED: usize = 64;
/// How many learner frames up the callers are followed.
const CALLERS_FOLLOWED: usize = 32;

#[derive(Default)]
struct Naming {
    /// Whether names are read at all (the runtime's switch).
    enabled: bool,
    /// The innermost learner frame and its line when last noted.
    last: Option<(usize, u32)>,
    /// The callers' lines last reported.
    callers: Vec<u32>,
    /// Tensors already named: each is named once, by its first name.
    named: HashSet<TensorId>,
    /// Modules whose parameters were named (by object address).
    modules: HashSet<usize>,
    /// `torch.nn.Module`, once looked up.
    module_class: Option<PyObjectRef>,
}

thread_local! {
    static NAMING: RefCell<Naming> = RefCell::new(Naming::default());
    /// Set while a scan runs Python code (`named_parameters()`), which
    /// calls back into [`noted`].
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

/// Starts a program's naming afresh; `enabled` off reads no names (the
/// callers' lines are still reported).
pub(crate) fn start(enabled: bool) {
    NAMING.with(|n| {
        *n.borrow_mut() = Naming {
            enabled,
            ..Naming::default()
        }
    });
}

/// Called by the engine-call path with the learner's innermost `frame`
/// and the `line` it runs (0 for none): reports its callers' lines when
/// they changed, and the names bound by the statement that just finished
/// when the line changed.
pub(crate) fn noted(
    vm: &VirtualMachine,
    frame: &FrameObjectRef,
    line: u32,
    main_file: &PyStrInterned,
) {
    if !trace::is_recording() || BUSY.with(Cell::get) {
        return;
    }
    let key = (frame.as_object() as *const _ as *const u8 as usize, line);
    // One line running op after op: nothing new to read. (A frame that
    // ends and another made at its address, stopping first on the same
    // line, is taken for the same until its line changes.)
    if NAMING.with(|n| n.borrow().last == Some(key)) {
        return;
    }
    let mut callers = Vec::new();
    let mut up = frame.f_back(vm);
    while let Some(f) = up {
        if callers.len() == CALLERS_FOLLOWED {
            break;
        }
        if std::ptr::eq(f.f_code().source_path(), main_file) {
            callers.push(u32::try_from(f.lineno()).unwrap_or(0));
        }
        up = f.f_back(vm);
    }
    callers.reverse();
    let scan = NAMING.with(|n| {
        let mut n = n.borrow_mut();
        if n.callers != callers {
            trace::emit(|| EventKind::CallersChanged {
                lines: callers.clone(),
            });
            n.callers = callers;
        }
        n.last = Some(key);
        n.enabled
    });
    if scan && let Ok(locals) = frame.locals(vm) {
        name_all(vm, &locals.obj().to_owned());
    }
}

/// Reads the names a finished program left bound in `globals`.
pub(crate) fn finish(vm: &VirtualMachine, globals: &PyObjectRef) {
    if trace::is_recording() && NAMING.with(|n| n.borrow().enabled) {
        name_all(vm, globals);
    }
}

/// Names the tensors bound in `mapping` (a frame's locals or a module's
/// globals), their lists' items, the attributes of `self` and the
/// parameters of modules.
fn name_all(vm: &VirtualMachine, mapping: &PyObjectRef) {
    let Some(dict) = mapping.downcast_ref::<PyDict>() else {
        return;
    };
    BUSY.with(|b| b.set(true));
    for (key, value) in dict {
        let Some(key) = key.downcast_ref::<PyStr>().and_then(|k| k.to_str()) else {
            continue;
        };
        if key.starts_with("__") {
            continue;
        }
        name_value(vm, key, &value, true);
    }
    BUSY.with(|b| b.set(false));
}

fn name_value(vm: &VirtualMachine, name: &str, value: &PyObjectRef, top: bool) {
    if let Some(t) = value.downcast_ref::<PyTensor>() {
        name_tensor(&t.tensor(), name, None);
        // Its `.grad`, which the memory view lists as a gradient.
        if let Some(grad) = t.tensor().grad() {
            name_tensor(&grad, &format!("{name}.grad"), None);
        }
    } else if let Some(list) = value.downcast_ref::<PyList>() {
        let items = list.borrow_vec();
        for (i, item) in items.iter().take(ITEMS_NAMED).enumerate() {
            if let Some(t) = item.downcast_ref::<PyTensor>() {
                name_tensor(&t.tensor(), &format!("{name}[{i}]"), None);
            }
        }
    } else if let Some(tuple) = value.downcast_ref::<PyTuple>() {
        for (i, item) in tuple.iter().take(ITEMS_NAMED).enumerate() {
            if let Some(t) = item.downcast_ref::<PyTensor>() {
                name_tensor(&t.tensor(), &format!("{name}[{i}]"), None);
            }
        }
    } else if top && is_module(vm, value) {
        if name == "self" {
            // `self.h = ...` inside a module's method: its tensors, not
            // its parameters (named where the model itself is bound).
            name_attributes(vm, value);
        } else {
            name_parameters(vm, name, value);
        }
    } else if top
        && name == "self"
        && let Some(dict) = value.dict()
    {
        name_attributes_of(vm, &dict.into());
    }
}

fn name_attributes(vm: &VirtualMachine, object: &PyObjectRef) {
    if let Some(dict) = object.dict() {
        name_attributes_of(vm, &dict.into());
    }
}

fn name_attributes_of(vm: &VirtualMachine, dict: &PyObjectRef) {
    let Some(dict) = dict.downcast_ref::<PyDict>() else {
        return;
    };
    for (key, value) in dict {
        if let Some(key) = key.downcast_ref::<PyStr>().and_then(|k| k.to_str())
            && !key.starts_with('_')
        {
            name_value(vm, &format!("self.{key}"), &value, false);
        }
    }
}

fn is_module(vm: &VirtualMachine, value: &PyObjectRef) -> bool {
    let class = NAMING.with(|n| n.borrow().module_class.clone());
    let class = match class {
        Some(class) => class,
        None => {
            let Ok(class) = vm
                .import("torch", 0)
                .and_then(|torch| torch.get_attr("nn", vm))
                .and_then(|nn| nn.get_attr("Module", vm))
            else {
                return false;
            };
            NAMING.with(|n| n.borrow_mut().module_class = Some(class.clone()));
            class
        }
    };
    let Some(class) = class.downcast_ref::<PyType>() else {
        return false;
    };
    value.class().fast_issubclass(class)
}

/// Names a module's parameters as `named_parameters()` does, under the
/// name the program binds the module to: once per module.
fn name_parameters(vm: &VirtualMachine, name: &str, module: &PyObjectRef) {
    let address = module.as_ref() as *const _ as *const u8 as usize;
    if !NAMING.with(|n| n.borrow_mut().modules.insert(address)) {
        return;
    }
    let pairs = module
        .get_attr("named_parameters", vm)
        .and_then(|f| f.call((), vm))
        .and_then(|it| vm.builtins.get_attr("list", vm)?.call((it,), vm));
    let Ok(pairs) = pairs else { return };
    let Some(pairs) = pairs.downcast_ref::<PyList>() else {
        return;
    };
    for pair in pairs.borrow_vec().iter() {
        let Some(pair) = pair.downcast_ref::<PyTuple>() else {
            continue;
        };
        if let [key, param] = pair.as_slice()
            && let (Some(key), Some(t)) = (
                key.downcast_ref::<PyStr>().and_then(|k| k.to_str()),
                param.downcast_ref::<PyTensor>(),
            )
        {
            let parameter = key.to_string();
            name_tensor(&t.tensor(), &format!("{name}.{parameter}"), Some(parameter));
        }
    }
}

fn name_tensor(tensor: &Tensor, name: &str, parameter: Option<String>) {
    let id = tensor.id();
    if !NAMING.with(|n| n.borrow_mut().named.insert(id)) {
        return;
    }
    trace::emit(|| EventKind::TensorNamed {
        tensor: id,
        storage: tensor.storage().id(),
        node: tensor.grad_fn().map(|n| n.id()),
        name: name.to_string(),
        parameter,
    });
}

/// Reports the statement whose exception ended the program: its source,
/// and the tensors it reads (by the names it spells, looked up in its
/// frame), which the graph links to the failed operation.
pub(crate) fn raised(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    source: &str,
    main_file: &'static PyStrInterned,
) {
    if !trace::is_recording() {
        return;
    }
    let Some(tb) = exc.traceback() else { return };
    let Some(tb) = tb
        .iter()
        .filter(|tb| std::ptr::eq(tb.frame.f_code().source_path(), main_file))
        .last()
    else {
        return;
    };
    let line = tb.lineno.get();
    let text = source
        .lines()
        .nth(line.saturating_sub(1))
        .unwrap_or_default()
        .trim();
    let frame = &tb.frame;
    let locals = frame.locals(vm).ok().map(|l| l.obj().to_owned());
    let globals: PyObjectRef = frame.f_globals().into();
    let lookup = |name: &str| -> Option<PyObjectRef> {
        for scope in locals.iter().chain([&globals]) {
            if let Some(dict) = scope.downcast_ref::<PyDict>()
                && let Some(value) = dict.get_item_opt(name, vm).ok().flatten()
            {
                return Some(value);
            }
        }
        None
    };
    let chains = read_names(text);
    let backward = chains
        .iter()
        .any(|c| c.ends_with(".backward") || c.ends_with("autograd.grad") || c == "grad");
    let mut inputs: Vec<RaisedInput> = Vec::new();
    for chain in chains {
        let mut parts = chain.split('.');
        let Some(first) = parts.next() else { continue };
        let mut value = lookup(first);
        let mut spelled = first.to_string();
        for part in parts {
            match &value {
                Some(v) if v.downcast_ref::<PyTensor>().is_none() => {
                    value = v.get_attr(&vm.ctx.new_str(part), vm).ok();
                    spelled = format!("{spelled}.{part}");
                }
                _ => break,
            }
        }
        let Some(t) = value.as_ref().and_then(|v| v.downcast_ref::<PyTensor>()) else {
            continue;
        };
        if inputs.iter().any(|i| i.name == spelled) {
            continue;
        }
        let tensor = &t.tensor();
        inputs.push(RaisedInput {
            name: spelled,
            tensor: tensor.id(),
            node: tensor.grad_fn().map(|n| n.id()),
            shape: tensor.shape().to_vec(),
            dtype: tensor.dtype().to_string(),
        });
    }
    let type_name = exc.class().name().to_string();
    let message = crate::traceback::message(exc, vm);
    trace::emit(|| EventKind::Raised {
        type_name,
        message,
        source: text.to_string(),
        inputs,
        backward,
    });
}

/// The dotted names a statement reads (`x`, `self.w`, `loss.backward`), in
/// order: an assignment's right side only (all of an augmented one),
/// string literals skipped.
fn read_names(statement: &str) -> Vec<String> {
    let chars: Vec<char> = statement.chars().collect();
    let mut depth = 0i32;
    let mut start = 0;
    let mut quote: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, '=') if depth == 0 => {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                let comparison =
                    matches!(before, Some('=' | '<' | '>' | '!')) || after == Some('=');
                let augmented = matches!(
                    before,
                    Some('+' | '-' | '*' | '/' | '@' | '%' | '&' | '|' | '^')
                );
                if !comparison && !augmented {
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    let mut names: Vec<String> = Vec::new();
    let is_start = |c: char| c.is_alphabetic() || c == '_';
    let n = chars.len();
    let mut i = start;
    while i < n {
        let c = chars[i];
        if c == '"' || c == '\'' {
            i += 1;
            while i < n && chars[i] != c {
                i += 1;
            }
            i += 1;
        } else if is_start(c) {
            let begin = i;
            while i < n
                && (chars[i].is_alphanumeric()
                    || chars[i] == '_'
                    || (chars[i] == '.' && chars.get(i + 1).is_some_and(|&d| is_start(d))))
            {
                i += 1;
            }
            // An attribute of an expression (`x[0].sum`) names nothing;
            // nor does a keyword argument (`dim=1`).
            let attribute = begin > 0 && chars[begin - 1] == '.';
            let rest: String = chars[i..].iter().collect();
            let rest = rest.trim_start();
            let keyword = rest.starts_with('=') && !rest.starts_with("==");
            if !attribute && !keyword {
                names.push(chars[begin..i].iter().collect());
            }
        } else if c.is_ascii_digit() {
            while i < n && (chars[i].is_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    names.retain(|n| !KEYWORDS.contains(&n.as_str()));
    names
}

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "in", "is", "if", "else", "for", "lambda", "None", "True", "False",
    "return", "print",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_names_right_side_of_assignment() {
        assert_eq!(read_names("z = x @ w"), ["x", "w"]);
        assert_eq!(read_names("out = model(x, dim=1)"), ["model", "x"]);
        assert_eq!(read_names("h += self.w * 2.5"), ["h", "self.w"]);
        assert_eq!(read_names("loss.backward()"), ["loss.backward"]);
        assert_eq!(read_names("print(\"a = b\", y == x)"), ["y", "x"]);
        assert_eq!(read_names("y = x[0].sum() * 1.5e-3"), ["x"]);
    }
}
