//! What the Python `torch.nn`, `torch.optim`, checkpointing and
//! `record_function` leave in the trace and the ledger, which the lessons
//! measure: named ranges, optimizer steps, zero_grad, clipping,
//! recomputation, and optimizer state counted as such.

#![allow(clippy::panic)]

use gradscope_core::ledger::{self, Category};
use gradscope_python::Runtime;
use gradscope_trace::EventKind;

fn record(source: &str) -> Vec<EventKind> {
    let mut rt = Runtime::new();
    let (out, events) = gradscope_core::trace::record(|| rt.run(source));
    if let Some(err) = out.error {
        panic!("raised {}: {}", err.type_name, err.message);
    }
    events.into_iter().map(|e| e.kind).collect()
}

#[test]
fn record_function_emits_named_ranges() {
    let kinds = record(
        "import torch\nfrom torch.profiler import record_function\n\
         with record_function('train'):\n    x = torch.ones(2) * 2\n\
         @record_function('eval')\ndef f():\n    return torch.zeros(1)\nf()\n",
    );
    let ranges: Vec<String> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::RangeBegan { name } => Some(format!("+{name}")),
            EventKind::RangeEnded { name } => Some(format!("-{name}")),
            _ => None,
        })
        .collect();
    assert_eq!(ranges, ["+train", "-train", "+eval", "-eval"]);
}

#[test]
fn optimizer_emits_steps_zero_grad_and_clipping() {
    let kinds = record(
        "import torch\nm = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)\n\
         for _ in range(2):\n    opt.zero_grad()\n    m(torch.ones(3, 2)).sum().backward()\n\
         \x20   torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)\n    opt.step()\n",
    );
    let steps: Vec<(&str, u64)> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::OptimizerStep { optimizer, updated } => Some((optimizer.as_str(), *updated)),
            _ => None,
        })
        .collect();
    assert_eq!(steps, [("SGD", 2), ("SGD", 2)]);
    let zero_grads = kinds
        .iter()
        .filter(|k| matches!(k, EventKind::ZeroGrad { set_to_none: true }))
        .count();
    assert_eq!(zero_grads, 2);
    let clipped: Vec<(f64, f64)> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::GradClipped {
                total_norm,
                clipped_norm,
                max_norm,
            } => Some((*total_norm / *max_norm, *clipped_norm)),
            _ => None,
        })
        .collect();
    assert_eq!(clipped.len(), 2);
    for (ratio, after) in clipped {
        assert!(ratio > 1.0, "the gradients were above max_norm");
        assert!(
            (after - 0.5).abs() < 1e-5,
            "clipped to max_norm, got {after}"
        );
    }
}

#[test]
fn module_zero_grad_is_marked_as_the_optimizers() {
    let kinds = record(
        "import torch\nm = torch.nn.Linear(2, 1)\nm(torch.ones(3, 2)).sum().backward()\n\
         m.zero_grad()\nassert m.weight.grad is None\n\
         m(torch.ones(3, 2)).sum().backward()\nm.zero_grad(set_to_none=False)\n\
         assert m.weight.grad.abs().sum().item() == 0\n",
    );
    let zero_grads: Vec<bool> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::ZeroGrad { set_to_none } => Some(*set_to_none),
            _ => None,
        })
        .collect();
    assert_eq!(zero_grads, [true, false]);
    // After the backward that set the gradients, as PyTorch's call runs.
    let last_backward = kinds
        .iter()
        .rposition(|k| matches!(k, EventKind::BackwardEnded))
        .unwrap_or(usize::MAX);
    let last_zero = kinds
        .iter()
        .rposition(|k| matches!(k, EventKind::ZeroGrad { .. }))
        .unwrap_or(0);
    assert!(last_zero > last_backward);
}

#[test]
fn optimizer_state_counts_as_optimizer_state() {
    let mut rt = Runtime::new();
    let out = rt.run(
        "import torch\nm = torch.nn.Linear(4, 4)\nopt = torch.optim.Adam(m.parameters())\n\
         m(torch.ones(2, 4)).sum().backward()\nopt.step()\n\
         import sys\nsys.kept = (m, opt)\n",
    );
    assert!(out.error.is_none(), "{:?}", out.error);
    // `sys.kept` holds the model and optimizer past the run's globals.
    let stats = ledger::stats();
    // Adam keeps two moments per parameter: (16 + 4) floats each.
    assert_eq!(stats.current(Category::OptimizerState), 2 * 20 * 4);
    assert_eq!(stats.current(Category::Parameter), 20 * 4);
}

#[test]
fn an_optimizers_plain_tensors_count_as_parameters() {
    // As PyTorch's memory profiler counts them: what an optimizer holds is a
    // parameter whether or not it is an nn.Parameter.
    let mut rt = Runtime::new();
    let out = rt.run(
        "import torch\nw = torch.zeros(3, 5, requires_grad=True)\n\
         b = torch.zeros(5, requires_grad=True)\nx = torch.ones(2, 3)\n\
         opt = torch.optim.SGD([w, b], lr=0.1)\n\
         (x @ w + b).sum().backward()\nopt.step()\n\
         import sys\nsys.kept = (w, b, opt)\n",
    );
    assert!(out.error.is_none(), "{:?}", out.error);
    let stats = ledger::stats();
    assert_eq!(stats.current(Category::Parameter), 20 * 4);
    assert_eq!(stats.current(Category::Gradient), 20 * 4);
}

#[test]
fn checkpoint_recomputes_in_backward() {
    let kinds = record(
        "import torch\nfrom torch.utils.checkpoint import checkpoint\n\
         x = torch.ones(3, requires_grad=True)\n\
         y = checkpoint(lambda t: (t * 2).exp().sin(), x, use_reentrant=False)\ny.sum().backward()\n",
    );
    let began = kinds
        .iter()
        .filter(|k| matches!(k, EventKind::RecomputeBegan { .. }))
        .count();
    assert_eq!(began, 1);
}

/// `+name Class` and `-` for each module scope, in order.
fn scopes(kinds: &[EventKind]) -> Vec<String> {
    kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::ModuleEntered { name, class } => Some(format!("+{name} {class}")),
            EventKind::ModuleExited => Some("-".into()),
            _ => None,
        })
        .collect()
}

const NET: &str = "import torch\nfrom torch import nn\n\
    class Net(nn.Module):\n\
    \x20   def __init__(self):\n\
    \x20       super().__init__()\n\
    \x20       self.layers = nn.Sequential(nn.Linear(2, 3), nn.Tanh())\n\
    \x20       self.fc = nn.Linear(3, 1)\n\
    \x20   def forward(self, x):\n\
    \x20       return self.fc(self.layers(x))\n\
    net = Net()\n";

/// The module scopes one call of `NET`'s `net` opens and closes.
const NET_SCOPES: [&str; 10] = [
    "+ Net",
    "+layers Sequential",
    "+layers.0 Linear",
    "-",
    "+layers.1 Tanh",
    "-",
    "-",
    "+fc Linear",
    "-",
    "-",
];

#[test]
fn module_call_scopes_use_named_modules_names() {
    let kinds = record(&format!(
        "{NET}loss_fn = nn.MSELoss()\nloss = loss_fn(net(torch.ones(4, 2)), torch.zeros(4, 1))\n\
         loss.backward()\n"
    ));
    assert_eq!(
        scopes(&kinds),
        [&NET_SCOPES[..], &["+ MSELoss", "-"]].concat()
    );
    // Each node belongs to the innermost scope open when it was made.
    let events = gradscope_trace::Event::numbered(kinds);
    let graph = gradscope_trace::GraphState::at(&events);
    let in_module = |name: &str| -> Vec<String> {
        graph
            .nodes
            .values()
            .filter(|n| n.modules.last().is_some_and(|m| m.name == name))
            .map(|n| n.name.clone())
            .collect()
    };
    let tanh = in_module("layers.1");
    assert_eq!(tanh, ["TanhBackward0"]);
    assert!(in_module("fc").contains(&"AddmmBackward0".to_string()));
    assert!(
        graph
            .nodes
            .values()
            .filter(|n| n.name == "MseLossBackward0")
            .all(|n| n.modules.len() == 1 && n.modules[0].class == "MSELoss")
    );
}

#[test]
fn module_scope_covers_hooks_and_ends_when_forward_raises() {
    let kinds = record(&format!(
        "{NET}net.fc.register_forward_hook(lambda m, i, o: o * 2)\n\
         net(torch.ones(1, 2))\n\
         try:\n    net.fc(torch.ones(1, 5))\nexcept RuntimeError:\n    pass\n\
         net.layers[1](torch.ones(1))\n"
    ));
    assert_eq!(
        scopes(&kinds),
        [
            &NET_SCOPES[..],
            // The shape error inside forward still ends the scope.
            &["+ Linear", "-"],
            // Called by itself, a submodule is the outermost module.
            &["+ Tanh", "-"],
        ]
        .concat()
    );
    // The hook's `o * 2` is made inside fc's scope.
    let fc = kinds
        .iter()
        .position(|k| matches!(k, EventKind::ModuleEntered { name, .. } if name == "fc"))
        .unwrap_or(0);
    let end = fc
        + kinds[fc..]
            .iter()
            .position(|k| matches!(k, EventKind::ModuleExited))
            .unwrap_or(0);
    assert!(
        kinds[fc..end]
            .iter()
            .any(|k| matches!(k, EventKind::NodeCreated { name, .. } if name == "MulBackward0"))
    );
}

#[test]
fn module_reused_and_foreign_modules_are_named() {
    let kinds = record(
        "import torch\nfrom torch import nn\nact = nn.ReLU()\n\
         class Net(nn.Module):\n\
         \x20   def __init__(self):\n\
         \x20       super().__init__()\n\
         \x20       self.fc = nn.Linear(2, 2)\n\
         \x20   def forward(self, x):\n\
         \x20       return act(self.fc(self.fc(x)))\n\
         Net()(torch.ones(1, 2))\n",
    );
    assert_eq!(
        scopes(&kinds),
        [
            "+ Net",
            "+fc Linear",
            "-",
            "+fc Linear",
            "-",
            "+ReLU ReLU",
            "-",
            "-"
        ]
    );
}

#[test]
fn module_scopes_not_emitted_without_a_recording() {
    // Nothing records: the module runs as before, emits nothing, and
    // leaves no scope open for the next, recorded, run.
    let mut rt = Runtime::new();
    let program = format!("{NET}net(torch.ones(1, 2))\n");
    assert!(rt.run(&program).error.is_none());
    assert!(gradscope_core::trace::stop_recording().is_empty());
    let (out, events) = gradscope_core::trace::record(|| rt.run(&program));
    assert!(out.error.is_none());
    let kinds: Vec<EventKind> = events.into_iter().map(|e| e.kind).collect();
    let scopes = scopes(&kinds);
    assert_eq!(scopes.first().map(String::as_str), Some("+ Net"));
    assert_eq!(scopes.len(), 10);
}

#[test]
fn composite_nodes_save_what_pytorch_saves_under_its_names() {
    let kinds = record(
        "import torch\nx = torch.ones(2, 3, requires_grad=True)\n\
         m = torch.tensor([[True, False, True], [False, False, True]])\n\
         a = x.masked_fill(m, 0.5)\nb = x.sort(1).values\nc = x.cumsum(1)\n",
    );
    let nodes: Vec<(String, Vec<(String, u64)>)> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::NodeCreated { name, saved, .. } => Some((
                name.to_string(),
                saved
                    .iter()
                    .map(|s| (s.name.to_string(), s.bytes))
                    .collect(),
            )),
            _ => None,
        })
        .collect();
    let own = |n: &str, s: &[(&str, u64)]| -> (String, Vec<(String, u64)>) {
        (
            n.into(),
            s.iter().map(|(a, b)| (a.to_string(), *b)).collect(),
        )
    };
    // One node each, no views from sorting's bookkeeping; the mask's 6
    // bools and the 6 int64 indices, as PyTorch's nodes keep them.
    assert_eq!(
        nodes,
        [
            own("AccumulateGrad", &[]),
            own("MaskedFillBackward0", &[("mask", 6)]),
            own("SortBackward0", &[("indices", 48)]),
            own("CumsumBackward0", &[]),
        ]
    );
}

/// The whole trace of `source`, lines included, whether or not it raised.
fn record_events(source: &str) -> Vec<gradscope_trace::Event> {
    let mut rt = Runtime::new();
    let (_, events) = gradscope_core::trace::record(|| rt.run(source));
    events
}

fn names(events: &[gradscope_trace::Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TensorNamed {
                name, parameter, ..
            } => Some(match parameter {
                Some(p) => format!("{name} ({p})"),
                None => name.clone(),
            }),
            _ => None,
        })
        .collect()
}

const NAMED_PROGRAM: &str = "\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(3, 2)
    def forward(self, x):
        self.h = self.fc1(x)
        return self.h.relu()
model = Net()
x = torch.ones(4, 3, requires_grad=True)
y = x + 2
parts = [y * 2, y * 3]
loss = model(y).sum() + parts[0].sum()
loss.backward()
";

#[test]
fn names_reach_the_trace_once_each() {
    let events = record_events(NAMED_PROGRAM);
    assert_eq!(
        names(&events),
        [
            "model.fc1.weight (fc1.weight)",
            "model.fc1.bias (fc1.bias)",
            "x",
            "y",
            // Named as forward's line 8 begins, before line 12's list is
            // read again at module level.
            "self.h",
            "parts[0]",
            "parts[1]",
            "loss",
            // Read as the program ends, after loss.backward().
            "x.grad",
        ]
    );
}

#[test]
fn names_label_the_graph() {
    let events = record_events(NAMED_PROGRAM);
    let graph = gradscope_trace::GraphState::at(&events);
    let mut labelled: Vec<(String, String)> = graph
        .nodes
        .values()
        .filter_map(|n| Some((n.name.clone(), n.label.clone()?)))
        .collect();
    labelled.sort();
    assert_eq!(
        labelled,
        [
            ("AccumulateGrad", "model.fc1.bias"),
            ("AccumulateGrad", "model.fc1.weight"),
            ("AccumulateGrad", "x"),
            ("AddBackward0", "loss"),
            ("AddBackward0", "y"),
            ("AddmmBackward0", "self.h"),
            ("MulBackward0", "parts[0]"),
            ("MulBackward0", "parts[1]"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
}

#[test]
fn names_off_reports_none() {
    let mut rt = Runtime::new();
    rt.set_names(false);
    let (_, events) = gradscope_core::trace::record(|| rt.run(NAMED_PROGRAM));
    assert!(names(&events).is_empty());
}

#[test]
fn allocations_carry_line_and_callers() {
    let events = record_events(NAMED_PROGRAM);
    let origins = gradscope_trace::origin::Origins::of(&events);
    let live: Vec<(Option<String>, Option<u32>, Vec<u32>)> = origins
        .largest_first()
        .iter()
        .filter(|t| t.name.as_deref() == Some("self.h") || t.name.as_deref() == Some("y"))
        .map(|t| (t.name.clone(), t.line, t.callers.to_vec()))
        .collect();
    // self.h is made on line 7 inside forward, called from line 13.
    assert_eq!(
        live,
        [
            (Some("y".into()), Some(11), vec![]),
            (Some("self.h".into()), Some(7), vec![13]),
        ]
    );
}

#[test]
fn raised_statement_names_its_inputs() {
    let events = record_events(
        "import torch\nx = torch.ones(3, 4, requires_grad=True)\nw = torch.ones(5, 2)\n\
         h = x * 2\nz = h @ w\n",
    );
    let raised = events.iter().find_map(|e| match &e.kind {
        EventKind::Raised {
            type_name,
            source,
            inputs,
            message,
            ..
        } => Some((type_name, source, inputs, message)),
        _ => None,
    });
    let Some((type_name, source, inputs, message)) = raised else {
        panic!("no Raised event");
    };
    assert_eq!(type_name, "RuntimeError");
    assert_eq!(source, "z = h @ w");
    assert_eq!(
        message,
        "mm: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)"
    );
    let spelled: Vec<(&str, &[usize], bool)> = inputs
        .iter()
        .map(|i| (i.name.as_str(), i.shape.as_slice(), i.node.is_some()))
        .collect();
    assert_eq!(
        spelled,
        [("h", &[3, 4][..], true), ("w", &[5, 2][..], false)]
    );
    let graph = gradscope_trace::GraphState::at(&events);
    let failed = &graph.nodes[&gradscope_trace::FAILED_NODE];
    assert_eq!(failed.next.len(), 1);
}

#[test]
fn raised_in_backward_marks_where_it_stopped() {
    let events = record_events(
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * x).sum()\n\
         y.backward()\ny.backward()\n",
    );
    let graph = gradscope_trace::GraphState::at(&events);
    let marked: Vec<&str> = graph
        .nodes
        .values()
        .filter(|n| n.error.is_some())
        .map(|n| n.name.as_str())
        .collect();
    assert!(!graph.nodes.contains_key(&gradscope_trace::FAILED_NODE));
    assert_eq!(marked, ["SumBackward0"]);
}

/// The microseconds per op `tests/bench/chain.py` prints, run while
/// recording, with names on or off.
fn chain_us_per_op(rt: &mut Runtime, names: bool) -> f64 {
    let source = include_str!("../../../tests/bench/chain.py");
    rt.set_names(names);
    let (out, _) = gradscope_core::trace::record(|| rt.run(source));
    let figure = out
        .stdout
        .split_whitespace()
        .nth(1)
        .and_then(|f| f.parse().ok());
    figure.unwrap_or_else(|| panic!("chain printed {:?}", out.stdout))
}

/// Names cost at most a tenth of the 2000-op chain's time, measured in
/// one process, on and off alternating, best of seven each. Timing on a
/// shared machine: run on its own (`--ignored names_cost`).
#[test]
#[ignore]
fn names_cost_on_the_chain() {
    let mut rt = Runtime::new();
    let (mut on, mut off) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..7 {
        off = off.min(chain_us_per_op(&mut rt, false));
        on = on.min(chain_us_per_op(&mut rt, true));
    }
    eprintln!(
        "chain while recording: names off {off:.2} us/op, on {on:.2} us/op, ratio {:.3}",
        on / off
    );
    assert!(on <= off * 1.10, "names on {on} us/op, off {off} us/op");
}

#[test]
fn saved_tensors_carry_dtype_strides_offset_and_version() {
    // `other` of x * v is a narrowed transpose of a tensor changed once in
    // place: torch 2.15's `y.grad_fn._saved_other` has stride (1, 3),
    // storage_offset 1, _version 1, float64. The trace must say what the
    // program itself reads off the tensor it saved.
    let mut rt = Runtime::new();
    let (out, events) = gradscope_core::trace::record(|| {
        rt.run(
            "import torch\nw = torch.randn(4, 3, dtype=torch.float64)\nw.add_(1)\nv = w.t()[1:]\n\
             x = torch.ones(2, 4, dtype=torch.float64, requires_grad=True)\ny = x * v\n\
             s = y.grad_fn._saved_other\n\
             print(list(s.shape), str(s.dtype)[6:], list(s.stride()), s.storage_offset(), s._version)\n",
        )
    });
    if let Some(err) = out.error {
        panic!("raised {}: {}", err.type_name, err.message);
    }
    let saved: Vec<_> = events
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::NodeCreated { name, saved, .. } if name == "MulBackward0" => Some(saved),
            _ => None,
        })
        .flatten()
        .collect();
    let [other] = saved.as_slice() else {
        panic!("MulBackward0 saved {saved:?}");
    };
    assert_eq!(other.name, "other");
    let traced = format!(
        "{:?} {} {:?} {} {}\n",
        other.shape, other.dtype, other.strides, other.offset, other.version
    );
    assert_eq!(traced, out.stdout);
}
