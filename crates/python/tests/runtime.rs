//! The runtime's contract: captured output, limits, errors as PyTorch's
//! exceptions with the learner's lines, and reuse after any error.

#![allow(clippy::panic)]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gradscope_python::{Limits, Runtime, Stream};

fn error_of(rt: &mut Runtime, source: &str) -> (String, String, String) {
    let out = rt.run(source);
    let err = out
        .error
        .unwrap_or_else(|| panic!("expected an error from:\n{source}\nstdout: {}", out.stdout));
    (err.type_name, err.message, err.traceback)
}

#[test]
fn run_captures_stdout_and_stderr() {
    let mut rt = Runtime::new();
    let out = rt.run("import sys\nprint('out', 1)\nprint('err', file=sys.stderr)\n");
    assert_eq!(out.stdout, "out 1\n");
    assert_eq!(out.stderr, "err\n");
    assert_eq!((out.error, out.exit_code), (None, 0));
}

#[test]
fn run_streams_output_to_the_sink() {
    let mut rt = Runtime::new();
    let seen = Rc::new(RefCell::new(vec![]));
    let sink = seen.clone();
    rt.set_output_sink(Some(Box::new(move |stream, text| {
        sink.borrow_mut().push((stream, text.to_string()));
    })));
    let out = rt.run("print('a')\nprint('b', end='')\n");
    assert_eq!(out.stdout, "a\nb");
    let chunks: String = seen.borrow().iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(chunks, "a\nb");
    assert!(seen.borrow().iter().all(|(s, _)| *s == Stream::Stdout));
}

#[test]
fn run_gives_fresh_globals_and_survives_errors() {
    let mut rt = Runtime::new();
    assert!(rt.run("x = 1\nraise ValueError('boom')\n").error.is_some());
    let out = rt.run("print('x' in globals(), __name__)\n");
    assert_eq!(out.stdout, "False __main__\n");
    let (ty, msg, _) = error_of(&mut rt, "import torch\ntorch.ones(2) + torch.ones(3)\n");
    assert_eq!(ty, "RuntimeError");
    assert!(msg.starts_with("The size of tensor a (2)"), "{msg}");
    assert_eq!(
        rt.run("import torch\nprint(torch.ones(1))\n").stdout,
        "tensor([1.])\n"
    );
}

#[test]
fn traceback_shows_the_programs_lines_only() {
    let mut rt = Runtime::new();
    let source = "import torch\n\ndef f(x):\n    return x.item()\n\nf(torch.ones(3))\n";
    let (ty, msg, tb) = error_of(&mut rt, source);
    assert_eq!(ty, "RuntimeError");
    assert_eq!(
        msg,
        "a Tensor with 3 elements cannot be converted to Scalar"
    );
    assert_eq!(
        tb,
        "Traceback (most recent call last):\n  File \"main.py\", line 6, in <module>\n    f(torch.ones(3))\n  File \"main.py\", line 4, in f\n    return x.item()\nRuntimeError: a Tensor with 3 elements cannot be converted to Scalar\n"
    );
    let out = rt.run(source);
    assert!(out.stderr.ends_with(&tb), "the traceback goes to stderr");
    assert_eq!(out.exit_code, 1);
}

#[test]
fn syntax_error_points_at_the_line() {
    let mut rt = Runtime::new();
    rt.set_file_name("<stdin>");
    let (ty, _, tb) = error_of(&mut rt, "x = 1\ny = = 2\n");
    assert_eq!(ty, "SyntaxError");
    assert!(
        tb.starts_with("  File \"<stdin>\", line 2\n    y = = 2\n"),
        "{tb}"
    );
}

#[test]
fn time_limit_stops_an_endless_loop() {
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let mut rt = Runtime::with_limits(limits);
    let start = Instant::now();
    let (ty, msg, tb) = error_of(&mut rt, "n = 0\nwhile True:\n    n += 1\n");
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(ty, "ExecutionLimitExceeded");
    assert!(msg.contains("time budget of 300 ms"), "{msg}");
    // Interrupted at the loop's test or its body.
    assert!(tb.contains("line 2") || tb.contains("line 3"), "{tb}");
    // `except Exception` does not swallow it, and the runtime stays usable.
    let (ty, _, _) = error_of(
        &mut rt,
        "try:\n    while True: pass\nexcept Exception:\n    print('caught')\n",
    );
    assert_eq!(ty, "ExecutionLimitExceeded");
    assert_eq!(rt.run("print(1 + 1)\n").stdout, "2\n");
}

#[test]
fn line_limit_is_deterministic() {
    let limits = Limits {
        time: None,
        lines: Some(1000),
        ..Limits::default()
    };
    let mut rt = Runtime::with_limits(limits);
    let (ty, msg, _) = error_of(&mut rt, "while True: pass\n");
    assert_eq!(ty, "ExecutionLimitExceeded");
    assert!(msg.contains("more than 1000 lines"), "{msg}");
    assert_eq!(
        rt.run("for i in range(10):\n    pass\nprint(i)\n").stdout,
        "9\n"
    );
}

#[test]
fn recursion_limit_raises_recursion_error() {
    let limits = Limits {
        recursion: 200,
        ..Limits::default()
    };
    let mut rt = Runtime::with_limits(limits);
    let (ty, _, tb) = error_of(&mut rt, "def f(n):\n    return f(n + 1)\nf(0)\n");
    assert_eq!(ty, "RecursionError");
    assert!(tb.contains("[Previous line repeated"), "{tb}");
    assert_eq!(
        rt.run("import sys\nprint(sys.getrecursionlimit())\n")
            .stdout,
        "200\n"
    );
}

/// Found by the fuzz test: each of these allocated terabytes (or overflowed
/// the byte count) before the ledger saw it, and aborted the process.
#[test]
fn huge_allocations_raise_before_allocating() {
    let mut rt = Runtime::with_limits(Limits {
        memory: Some(64 << 20),
        ..Limits::default()
    });
    for expr in [
        "torch.ones(10**6, 10**6)",
        "torch.zeros(10**12)",
        "torch.empty(2**40)",
        "torch.full((10**12,), 2)",
        "torch.randn(100000, 100000)",
        "torch.rand(10**12)",
        "torch.randint(0, 5, (10**12,))",
        "torch.arange(10**12)",
        "torch.linspace(0, 1, 10**12)",
        "torch.eye(10**6)",
        "torch.ones(2, 2).repeat(10**5, 10**5)",
        "torch.ones(1).expand(10**6, 10**6).contiguous()",
        "torch.ones(1).expand(10**6, 10**6).clone()",
        "torch.randperm(10**12)",
        "torch.zeros(0).chunk(10**12)",
    ] {
        let (ty, msg, _) = error_of(&mut rt, &format!("import torch\n{expr}\n"));
        assert_eq!(ty, "OutOfMemoryError", "{expr}: {msg}");
        assert!(msg.starts_with("out of memory. Tried to allocate"), "{msg}");
    }
    let (ty, msg, _) = error_of(&mut rt, "import torch\ntorch.ones(2**62, 4)\n");
    assert_eq!(ty, "RuntimeError");
    assert_eq!(
        msg,
        "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"
    );
    assert_eq!(rt.run("print(1+1)\n").stdout, "2\n");
}

/// Found by the fuzz test: RustPython 0.6 panicked scanning the string
/// literals of these sources (they do not parse) for invalid escapes.
#[test]
fn unparsable_non_ascii_sources_raise_syntax_error() {
    let mut rt = Runtime::new();
    for (source, message) in [
        ("\"é", "unterminated string literal (detected at line 1)"),
        (
            "x = 1\n\"\"\"éé",
            "unterminated triple-quoted string literal (detected at line 2)",
        ),
        ("''\0''F\"{:¡\"", ""),
    ] {
        let (ty, msg, _) = error_of(&mut rt, source);
        assert_eq!(ty, "SyntaxError", "{source:?}: {msg}");
        assert!(msg.starts_with(message), "{source:?}: {msg}");
    }
    assert_eq!(rt.run("print(1+1)\n").stdout, "2\n");
}

#[test]
fn memory_limit_raises_torch_out_of_memory_error() {
    let limits = Limits {
        memory: Some(1 << 20),
        ..Limits::default()
    };
    let mut rt = Runtime::with_limits(limits);
    let source = "import torch\nx = torch.ones(1000)\ny = torch.ones(1000, 1000) * 2\n";
    let (ty, msg, tb) = error_of(&mut rt, source);
    assert_eq!(ty, "OutOfMemoryError");
    assert!(msg.starts_with("out of memory"), "{msg}");
    assert!(tb.contains("torch.OutOfMemoryError: out of memory"), "{tb}");
    let out = rt.run(
        "import torch\ntry:\n    torch.ones(1000, 1000) * 2\nexcept RuntimeError as e:\n    print(type(e).__name__)\n",
    );
    assert_eq!(out.stdout, "OutOfMemoryError\n");
}

#[test]
fn exception_in_a_hook_keeps_its_type() {
    let mut rt = Runtime::new();
    let source = "import torch\nx = torch.ones(1, requires_grad=True)\ndef bad(g):\n    raise KeyError('k')\nx.register_hook(bad)\n(x * 2).sum().backward()\n";
    let (ty, msg, tb) = error_of(&mut rt, source);
    assert_eq!((ty.as_str(), msg.as_str()), ("KeyError", "'k'"));
    assert!(tb.contains("line 4, in bad"), "{tb}");
}

#[test]
fn engine_events_carry_the_programs_line() {
    let mut rt = Runtime::new();
    let source = "import torch\nx = torch.ones(2, requires_grad=True)\n\ny = x * 3\nz = y.sum()\nw = torch.exp(z)\n";
    let (out, events) = gradscope_core::trace::record(|| rt.run(source));
    assert_eq!(out.error, None);
    let lines_of = |op: &str| -> Vec<Option<u32>> {
        events
            .iter()
            .filter(|e| matches!(&e.kind, gradscope_trace::EventKind::OpCalled { op: o, .. } if o == op))
            .map(|e| e.line)
            .collect()
    };
    assert_eq!(lines_of("mul"), vec![Some(4)]);
    assert_eq!(lines_of("sum"), vec![Some(5)]);
    // Called from our torch package's Python code: still the program's line.
    assert_eq!(lines_of("exp"), vec![Some(6)]);
}

#[test]
fn sys_exit_sets_the_exit_code() {
    let mut rt = Runtime::new();
    let out = rt.run("import sys\nprint('bye')\nsys.exit(3)\n");
    assert_eq!(
        (out.stdout.as_str(), out.exit_code, out.error),
        ("bye\n", 3, None)
    );
    assert_eq!(rt.run("raise SystemExit\n").exit_code, 0);
}

#[test]
fn grad_mode_is_reset_between_programs() {
    let mut rt = Runtime::new();
    rt.run("import torch\ntorch.set_grad_enabled(False)\n");
    assert_eq!(
        rt.run("import torch\nprint(torch.is_grad_enabled())\n")
            .stdout,
        "True\n"
    );
}

/// `import torch` (the runtime's start) leaves `torch.nn`, `torch.optim`,
/// `torch.utils` and `torch.profiler` and the standard modules only they
/// use unimported, and each comes in on first use in every way PyTorch
/// programs reach it.
#[test]
fn heavy_submodules_load_on_first_use() {
    let mut rt = Runtime::new();
    let out = rt.run(
        "import sys\n\
         print(sorted(m for m in ('torch.nn', 'torch.optim', 'torch.utils', 'torch.profiler', \
         'collections', 'functools', 'io', 'warnings', 'numbers', 'copy') if m in sys.modules))\n",
    );
    assert_eq!(out.stdout, "[]\n", "{}", out.stderr);
    let checks = [
        "import torch\nprint(torch.nn.Linear(2, 3))\n",
        "import torch.nn as nn\nprint(nn.ReLU())\n",
        "from torch import nn, optim\nprint(nn.Tanh(), optim.SGD.__name__)\n",
        "import torch\nprint(torch.optim.Adam.__name__, torch.utils.data.DataLoader.__name__)\n",
        "from torch.utils.data import TensorDataset\nprint(TensorDataset.__name__)\n",
        "import torch\nwith torch.profiler.record_function('x'):\n    print('in')\n",
        "import torch\nprint(all(n in dir(torch) for n in ('nn', 'optim', 'utils', 'profiler')))\n",
    ];
    let want = [
        "Linear(in_features=2, out_features=3, bias=True)\n",
        "ReLU()\n",
        "Tanh() SGD\n",
        "Adam DataLoader\n",
        "TensorDataset\n",
        "in\n",
        "True\n",
    ];
    for (source, want) in checks.iter().zip(want) {
        // A fresh runtime each: the first import is what is checked.
        let out = Runtime::new().run(source);
        assert_eq!(out.stdout, want, "{source}{}", out.stderr);
    }
    let (kind, message, _) = error_of(&mut rt, "import torch\ntorch.nope\n");
    assert_eq!(kind, "AttributeError");
    assert_eq!(message, "module 'torch' has no attribute 'nope'");
}

/// The index and integer tensors that `sort`, `argsort`, `topk`,
/// `nonzero`, one-argument `where`, `tril`/`triu` and `diag` make stay on
/// their input's device, whichever device is the default (they were made on
/// the default device, so a CPU tensor under `set_default_device('webgpu')`
/// got GPU indices, and `tril` mixed the two).
#[test]
fn index_results_stay_on_the_inputs_device() {
    gradscope_core::device::set_gpu_opener(Box::new(|| {
        let gpu = pollster::block_on(gradscope_wgpu::GpuDevice::new())?;
        Ok(Rc::new(gpu) as Rc<dyn gradscope_core::DeviceBackend>)
    }));
    if let Err(err) = gradscope_core::device::gpu() {
        let required = ["GRADSCOPE_REQUIRE_GPU", "CI"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
        assert!(
            !required,
            "a GPU is required (GRADSCOPE_REQUIRE_GPU or CI) but: {err}"
        );
        eprintln!("skipped: no adapter ({err})");
        return;
    }
    let program = "import torch\n\
        def devices(on):\n\
        \x20   x = torch.tensor([3.0, 1.0, 2.0], device=on)\n\
        \x20   m = torch.ones(3, 3, device=on)\n\
        \x20   made = [x.sort().indices, x.argsort(), x.topk(2).indices, x.nonzero(),\n\
        \x20           torch.where(x > 1)[0], m.tril(), m.triu(), x.diag(), m.diag(), x.argmax()]\n\
        \x20   print(sorted(set(str(t.device) for t in made)))\n\
        torch.set_default_device('webgpu')\n\
        devices('cpu')\n\
        torch.set_default_device('cpu')\n\
        devices('webgpu')\n";
    let out = Runtime::new().run(program);
    assert_eq!(out.error.map(|e| e.message), None, "{}", out.stderr);
    assert_eq!(out.stdout, "['cpu']\n['webgpu:0']\n");
}

/// Each program starts as a new process would: what an earlier program
/// set in the modules it imported (tensors' and arrays' print options,
/// torch's random stream, pyplot's open figures) does not reach the next.
/// The page runs every program in one interpreter, and the corpus test
/// too; PyTorch's `python prog.py` starts afresh each time.
#[test]
fn a_program_finds_the_state_a_new_process_has() {
    let mut rt = Runtime::new();
    let program = "\
import torch, numpy as np
import matplotlib.pyplot as plt
print(torch.rand(2), torch.initial_seed())
print(torch.tensor([1.23456]), np.array([1.23456789]))
print(plt.get_fignums())
torch.set_printoptions(precision=1)
np.set_printoptions(precision=2)
plt.figure()
";
    let first = rt.run(program);
    assert_eq!(first.error, None, "{}", first.stderr);
    let second = rt.run(program);
    assert_eq!(second.error, None, "{}", second.stderr);
    assert_eq!(second.stdout, first.stdout);
    assert!(first.stdout.contains("67280421310721"), "{}", first.stdout);
}

#[test]
fn set_default_dtype_matches_pytorch_and_resets_each_program() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/dtypes.json"))
            .unwrap_or_else(|e| panic!("dtypes.json: {e}"));
    let case = &fixture["cases"]["default_dtype"];
    let list = |key: &str| case[key].as_array().cloned().unwrap_or_default();
    let text = |v: &serde_json::Value, key: &str| v[key].as_str().unwrap_or_default().to_string();
    let (expressions, errors) = (list("expressions"), list("errors"));
    assert!(expressions.len() > 20 && errors.len() == 3);
    let mut program = String::from("import torch\ntorch.set_default_dtype(torch.float64)\n");
    let mut want = vec![];
    for e in &expressions {
        program.push_str(&format!(
            "print(repr({}))\nprint('--')\n",
            text(e, "source")
        ));
        want.push(format!("{}: {}", text(e, "name"), text(e, "repr")));
    }
    for e in &errors {
        program.push_str(&format!(
            "try:\n    {}\nexcept Exception as e:\n    print(type(e).__name__ + ': ' + str(e))\nprint('--')\n",
            text(e, "source")
        ));
        let error = &e["error"];
        want.push(format!(
            "{}: {}: {}",
            text(e, "source"),
            text(error, "type"),
            text(error, "message")
        ));
    }
    let mut rt = Runtime::new();
    let out = rt.run(&program);
    assert_eq!(out.error.map(|e| e.message), None, "{}", out.stderr);
    let printed: Vec<&str> = out.stdout.split("--\n").collect();
    let got: Vec<String> = expressions
        .iter()
        .map(|e| text(e, "name"))
        .chain(errors.iter().map(|e| text(e, "source")))
        .zip(&printed)
        .map(|(name, p)| format!("{name}: {}", p.trim_end()))
        .collect();
    assert_eq!(got, want);
    // The next program starts at float32, as a new process would.
    let out = rt
        .run("import torch\nprint(repr(torch.tensor([0.1])))\nprint(torch.get_default_dtype())\n");
    assert_eq!(
        out.stdout,
        format!("{}\ntorch.float32\n", text(case, "after_reset"))
    );
}
