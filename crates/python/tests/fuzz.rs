//! Fuzzes the runtime with generated programs: whatever a learner types,
//! `run` returns (no Rust panic, abort or hang), inside the line and time
//! budgets, and the runtime still runs the next program.
//!
//! Three generators: arbitrary text, token soup from Python's grammar, and
//! torch snippets with random (often wrong) shapes, dtypes, indices and
//! arguments. The seed is fixed and failures are not persisted, so CI sees
//! the same cases every run; `PROPTEST_CASES=40000` runs more locally,
//! `PROPTEST_RNG_SEED=<n>` draws other cases, and `FUZZ_DEBUG=1` prints each
//! program with what it raised. A failure found here becomes
//! a regression test (a corpus program or a test in runtime.rs).

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::time::{Duration, Instant};

use gradscope_python::{Limits, Runtime};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// Per-program budgets: small, so that a runaway loop ends quickly.
const LINES: u64 = 20_000;
const TIME: Duration = Duration::from_secs(3);
/// Tensor memory per run: enough for every sane snippet, far below the
/// machine's, so a huge allocation must raise instead of aborting.
const MEMORY: u64 = 64 << 20;
/// Slack over `TIME` for a debug build on a loaded machine: the limit is
/// checked between lines, and one op may run a little past it.
const SLACK: Duration = Duration::from_secs(7);

fn limits() -> Limits {
    Limits {
        time: Some(TIME),
        lines: Some(LINES),
        memory: Some(MEMORY),
        ..Limits::default()
    }
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(1024);
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6772_6164_7363_6f70);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        // No regression files: found cases live on as ordinary tests.
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    }
}

thread_local! {
    // One runtime for every case of a generator: reuse after errors is part
    // of what is tested.
    static RUNTIME: RefCell<Runtime> = RefCell::new(Runtime::with_limits(limits()));
}

fn check(source: &str) -> Result<(), TestCaseError> {
    RUNTIME.with(|rt| {
        let mut rt = rt.borrow_mut();
        let started = Instant::now();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| rt.run(source)));
        let took = started.elapsed();
        let out = match run {
            Ok(out) => out,
            Err(panic) => {
                // A fresh runtime for the shrinking that follows: the
                // panicked one may be left in any state.
                *rt = Runtime::with_limits(limits());
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                return Err(TestCaseError::fail(format!("run panicked: {message}")));
            }
        };
        if std::env::var("FUZZ_DEBUG").is_ok() {
            eprintln!(
                "=== {source}\n--- {}{:?}",
                out.stdout,
                out.error.as_ref().map(|e| (&e.type_name, &e.message))
            );
        }
        prop_assert!(
            took < TIME + SLACK,
            "run took {took:?}; error: {:?}",
            out.error.map(|e| e.type_name)
        );
        let after = rt.run("print(1+1)\n");
        prop_assert_eq!(after.stdout, "2\n", "runtime unusable after the program");
        prop_assert!(after.error.is_none(), "{:?}", after.error);
        Ok(())
    })
}

fn fuzz(strategy: impl Strategy<Value = String>) {
    let mut runner = TestRunner::new(config());
    if let Err(e) = runner.run(&strategy, |source| check(&source)) {
        panic!("{e}");
    }
}

// ---- (a) arbitrary text -------------------------------------------------

#[test]
fn arbitrary_text() {
    let bytes = proptest::collection::vec(any::<u8>(), 0..200)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned());
    let chars = proptest::collection::vec(
        prop_oneof![
            any::<char>(),
            select(vec![
                '\0', '\n', '\t', ' ', '(', ')', '"', '\'', '\\', ':', '#'
            ])
        ],
        0..120,
    )
    .prop_map(|c| c.into_iter().collect::<String>());
    // The same text through exec, eval and compile inside a program.
    let nested = (
        proptest::collection::vec(any::<u8>(), 0..120),
        select(vec!["exec", "eval", "compile"]),
    )
        .prop_map(|(b, f)| {
            let list = b.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
            let call = match f {
                "compile" => "compile(s, 'f', 'exec')".to_string(),
                f => format!("{f}(s)"),
            };
            format!("s = bytes([{list}]).decode('utf-8', 'replace')\ntry:\n    {call}\nexcept Exception as e:\n    print(type(e).__name__)\n")
        });
    fuzz(prop_oneof![any::<String>(), bytes, chars, nested]);
}

// ---- (b) token soup ------------------------------------------------------

const TOKENS: &[&str] = &[
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "match",
    "case",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "@",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "=",
    "+=",
    "-=",
    ":=",
    "->",
    ".",
    ",",
    ":",
    ";",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "0",
    "1",
    "-1",
    "10**12",
    "1e308",
    "0.5",
    "1j",
    "0x10",
    "'s'",
    "b'x'",
    "f'{x}'",
    "\"\"\"",
    "x",
    "y",
    "torch",
    "torch.ones",
    "torch.tensor",
    "print",
    "range",
    "len",
    "\n",
    "\n    ",
    "\\",
    "#",
    "...",
];

#[test]
fn token_soup() {
    let soup = proptest::collection::vec(select(TOKENS), 0..60).prop_map(|t| t.join(" "));
    let prefixed = soup
        .clone()
        .prop_map(|s| format!("import torch\nx = torch.ones(2, 3)\ny = 3\n{s}\n"));
    fuzz(prop_oneof![soup, prefixed]);
}

// ---- (c) torch snippets --------------------------------------------------

/// Names the snippets read and write; the prelude binds them all.
const VARS: &[&str] = &["a", "b", "c", "d", "e", "m", "v", "x", "y", "w"];

const PRELUDE: &str = "\
import torch
import torch.nn as nn
import torch.nn.functional as F
a = torch.randn(2, 3, requires_grad=True)
b = torch.arange(6)
c = torch.zeros(0)
d = torch.tensor(3.0)
e = torch.ones(4, 1, 2, dtype=torch.float64)
m = a.t()
v = a[0]
x = torch.randn(3, 4)
y = torch.tensor([1, 0, 2])
w = torch.ones(1, 3, 5, 5)
";

fn var() -> impl Strategy<Value = String> {
    select(VARS).prop_map(str::to_string)
}

fn int() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-3i64..8).prop_map(|i| i.to_string()),
        1 => select(vec![
            "10**12", "2**31", "2**63", "-2**63", "1.5", "-0", "None", "True", "'a'", "()",
            "torch.tensor(2)", "float('nan')",
        ])
        .prop_map(str::to_string),
    ]
}

fn dims() -> impl Strategy<Value = String> {
    proptest::collection::vec(int(), 0..5).prop_map(|d| d.join(", "))
}

fn scalar() -> impl Strategy<Value = String> {
    select(vec![
        "0",
        "1",
        "-1",
        "2.5",
        "1e308",
        "-1e308",
        "float('inf')",
        "float('nan')",
        "True",
        "10**30",
        "1j",
        "None",
        "'s'",
    ])
    .prop_map(str::to_string)
}

fn dtype() -> impl Strategy<Value = String> {
    select(vec![
        "torch.float32",
        "torch.float64",
        "torch.float16",
        "torch.bfloat16",
        "torch.int64",
        "torch.int32",
        "torch.int8",
        "torch.uint8",
        "torch.bool",
        "torch.complex64",
    ])
    .prop_map(str::to_string)
}

fn index() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        int(),
        (int(), int(), int()).prop_map(|(a, b, c)| format!("{a}:{b}:{c}")),
        (int(), int()).prop_map(|(a, b)| format!("{a}:{b}")),
        Just(":".to_string()),
        Just("None".to_string()),
        Just("...".to_string()),
        var(),
        var().prop_map(|t| format!("{t} > 0")),
        dims().prop_map(|d| format!("[{d}]")),
    ];
    proptest::collection::vec(part, 1..4).prop_map(|p| p.join(", "))
}

fn factory() -> impl Strategy<Value = String> {
    let name = select(vec![
        "zeros",
        "ones",
        "empty",
        "randn",
        "rand",
        "arange",
        "eye",
        "zeros_like",
        "ones_like",
    ]);
    prop_oneof![
        (name, dims()).prop_map(|(n, d)| format!("torch.{n}({d})")),
        (dims(), scalar()).prop_map(|(d, s)| format!("torch.full(({d}), {s})")),
        (int(), int(), dims()).prop_map(|(l, h, d)| format!("torch.randint({l}, {h}, ({d},))")),
        (scalar(), scalar(), int()).prop_map(|(a, b, n)| format!("torch.linspace({a}, {b}, {n})")),
        (dims(), dtype()).prop_map(|(d, t)| format!("torch.ones({d}, dtype={t})")),
        (dims(), dims()).prop_map(|(a, b)| format!("torch.tensor([[{a}], [{b}]])")),
        dims().prop_map(|d| format!("torch.tensor([{d}])")),
        scalar().prop_map(|s| format!("torch.tensor({s})")),
        select(vec![
            "torch.ones(10**6, 10**6)",
            "torch.empty(2**40)",
            "torch.zeros(10**12)",
            "torch.ones(2**62, 4)",
            "torch.randn(100000, 100000)",
            "torch.ones(3).expand(10**6, 10**6).contiguous()",
            "torch.ones(2, 2).repeat(10**5, 10**5)",
            "torch.arange(10**12)",
            "[0] * 10**10",
        ])
        .prop_map(str::to_string),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    let binop = select(vec![
        "+", "-", "*", "/", "@", "**", "//", "%", "==", "<", "&", "|", "^", ">>",
    ]);
    let method = select(vec![
        "reshape",
        "view",
        "permute",
        "expand",
        "repeat",
        "transpose",
        "squeeze",
        "unsqueeze",
        "flatten",
        "narrow",
        "sum",
        "mean",
        "max",
        "min",
        "argmax",
        "softmax",
        "cumsum",
        "topk",
        "sort",
        "split",
        "chunk",
        "std",
        "var",
        "prod",
        "norm",
        "tile",
        "roll",
        "flip",
        "diagonal",
        "tril",
        "triu",
        "unbind",
        "movedim",
        "logsumexp",
        "amax",
        "new_zeros",
        "new_ones",
        "expand_as",
        "view_as",
        "reshape_as",
        "index_select",
        "gather",
        "masked_fill",
        "clamp",
        "pow",
        "to",
        "type",
        "round",
        "kthvalue",
    ]);
    let unary = select(vec![
        "exp",
        "log",
        "sqrt",
        "sigmoid",
        "tanh",
        "relu",
        "abs",
        "neg",
        "t",
        "T",
        "mT",
        "contiguous",
        "clone",
        "detach",
        "float",
        "long",
        "int",
        "bool",
        "double",
        "half",
        "item",
        "tolist",
        "numel",
        "dim",
        "size()",
        "stride()",
        "is_contiguous()",
        "grad",
        "grad_fn",
        "requires_grad",
        "shape",
        "data",
        "nonzero()",
        "any()",
        "all()",
        "argsort()",
        "unique()",
    ]);
    let func = select(vec![
        "torch.cat",
        "torch.stack",
        "torch.hstack",
        "torch.vstack",
        "torch.broadcast_tensors",
    ]);
    let nn_layer = select(vec![
        "nn.Linear",
        "nn.Conv2d",
        "nn.Conv1d",
        "nn.BatchNorm1d",
        "nn.BatchNorm2d",
        "nn.Embedding",
        "nn.LayerNorm",
        "nn.MaxPool2d",
        "nn.AvgPool2d",
        "nn.Dropout",
        "nn.Flatten",
        "nn.GRU",
        "nn.LSTM",
        "nn.MultiheadAttention",
    ]);
    let loss = select(vec![
        "F.cross_entropy",
        "F.nll_loss",
        "F.mse_loss",
        "F.l1_loss",
        "F.binary_cross_entropy",
        "F.binary_cross_entropy_with_logits",
        "F.kl_div",
        "F.smooth_l1_loss",
    ]);
    let functional = select(vec![
        "F.softmax",
        "F.log_softmax",
        "F.relu",
        "F.gelu",
        "F.dropout",
        "F.one_hot",
        "F.pad",
        "F.normalize",
        "F.embedding",
        "F.linear",
        "F.conv2d",
        "F.max_pool2d",
        "F.interpolate",
    ]);
    prop_oneof![
        factory(),
        (var(), binop.clone(), var()).prop_map(|(a, o, b)| format!("{a} {o} {b}")),
        (var(), binop, scalar()).prop_map(|(a, o, s)| format!("{a} {o} {s}")),
        (var(), index()).prop_map(|(t, i)| format!("{t}[{i}]")),
        (var(), method.clone(), dims()).prop_map(|(t, m, d)| format!("{t}.{m}({d})")),
        (var(), method, var()).prop_map(|(t, m, u)| format!("{t}.{m}({u})")),
        (var(), unary).prop_map(|(t, u)| format!("{t}.{u}")),
        (var(), dtype()).prop_map(|(t, d)| format!("{t}.to({d})")),
        (func, var(), var(), int()).prop_map(|(f, a, b, d)| format!("{f}([{a}, {b}], {d})")),
        (var(), var(), var()).prop_map(|(c, a, b)| format!("torch.where({c} > 0, {a}, {b})")),
        (var(), var()).prop_map(|(a, b)| format!("torch.matmul({a}, {b})")),
        (nn_layer, dims(), var()).prop_map(|(l, d, t)| format!("{l}({d})({t})")),
        (loss, var(), var()).prop_map(|(l, a, b)| format!("{l}({a}, {b})")),
        (functional, var(), dims()).prop_map(|(f, t, d)| format!("{f}({t}, {d})")),
        (var(), var()).prop_map(|(a, b)| format!("torch.autograd.grad({a}, {b})")),
        (var(), int()).prop_map(|(t, n)| format!("F.cross_entropy({t}, y * {n})")),
        more_expr(),
    ]
}

/// Calls with several arguments of their own kinds.
fn more_expr() -> impl Strategy<Value = String> {
    let two = select(vec![
        "torch.mm",
        "torch.bmm",
        "torch.outer",
        "torch.dot",
        "torch.maximum",
        "torch.minimum",
        "torch.atan2",
        "torch.dist",
        "torch.cdist",
        "F.embedding",
        "F.conv1d",
        "F.conv2d",
        "torch.take_along_dim",
        "torch.masked_select",
        "torch.bucketize",
        "torch.einsum",
        "torch.tensordot",
        "torch.kron",
        "torch.polar",
        "torch.block_diag",
    ]);
    let random = select(vec![
        "torch.multinomial",
        "torch.randperm",
        "torch.normal",
        "torch.bernoulli",
        "torch.manual_seed",
        "torch.poisson",
        "torch.randint_like",
    ]);
    prop_oneof![
        (two, var(), var()).prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
        (random.clone(), var(), int()).prop_map(|(f, t, n)| format!("{f}({t}, {n})")),
        (random, int()).prop_map(|(f, n)| format!("{f}({n})")),
        (int(), int(), int(), int(), int(), var()).prop_map(|(i, o, k, st, p, t)| {
            format!("nn.Conv2d({i}, {o}, {k}, stride={st}, padding={p})({t})")
        }),
        (int(), int(), var()).prop_map(|(i, o, t)| format!("nn.Linear({i}, {o})({t})")),
        (int(), int(), var()).prop_map(|(i, o, t)| {
            format!("nn.Sequential(nn.Linear({i}, {o}), nn.ReLU(), nn.Linear({o}, 1))({t})")
        }),
        (var(), int(), var()).prop_map(|(t, d, i)| format!("{t}.index_select({d}, {i})")),
        (var(), int(), var()).prop_map(|(t, d, i)| format!("{t}.gather({d}, {i})")),
        (var(), int(), var(), var()).prop_map(|(t, d, i, u)| format!("{t}.scatter({d}, {i}, {u})")),
        (var(), int(), var(), var())
            .prop_map(|(t, d, i, u)| format!("{t}.index_add({d}, {i}, {u})")),
        (var(), int(), int(), int())
            .prop_map(|(t, d, n, st)| format!("{t}.unfold({d}, {n}, {st})")),
        (var(), int(), int(), int()).prop_map(|(t, d, a, n)| format!("{t}.narrow({d}, {a}, {n})")),
        (var(), int()).prop_map(|(t, d)| format!("{t}.sum(dim={d}, keepdim=True)")),
        (var(), dims()).prop_map(|(t, d)| format!("{t}.expand({d}).contiguous()")),
        (var(), dims()).prop_map(|(t, d)| format!("{t}.view({d})")),
        (var(), scalar(), scalar()).prop_map(|(t, a, b)| format!("{t}.clamp(min={a}, max={b})")),
        (var(), var(), scalar()).prop_map(|(t, m, v)| format!("{t}.masked_fill({m} > 0, {v})")),
        (var(), var())
            .prop_map(|(t, u)| format!("torch.autograd.grad({t}.sum(), {u}, create_graph=True)")),
        (var(), int()).prop_map(|(t, n)| format!("{t}.repeat_interleave({n})")),
        (var(), var()).prop_map(|(t, u)| format!("{t}.to({u})")),
        var().prop_map(|t| format!("{t}.register_hook(lambda g: g * 2)")),
        var().prop_map(|t| format!("{t}.retain_grad()")),
        (var(), var())
            .prop_map(|(a, b)| format!("torch.nn.utils.clip_grad_norm_([{a}, {b}], 1.0)")),
        (var(), dims()).prop_map(|(t, d)| format!("F.interpolate({t}, size=({d}))")),
        (var(), dims()).prop_map(|(t, d)| format!("F.max_pool2d({t}, ({d}))")),
        (var(), dims()).prop_map(|(t, d)| format!("F.avg_pool2d({t}, ({d}))")),
        (var(), dims()).prop_map(|(t, d)| format!("F.pad({t}, ({d}))")),
        select(vec![
            "torch.tensor([[1, 2], [3]])",
            "torch.tensor([1, 'a'])",
            "torch.tensor([[[]]])",
            "torch.tensor(10**30)",
            "torch.tensor([2**63])",
            "torch.tensor(float('nan')).long()",
            "int(torch.tensor(float('inf')))",
            "torch.tensor([1e308]) * 10",
            "torch.tensor([True, 2, 3.5])",
            "torch.tensor([[1.0] * 3] * 3).inverse()",
            "torch.tensor(-2**63) // -1",
            "torch.tensor(-2**63).abs()",
            "torch.tensor(5) % 0",
            "torch.tensor(5) // 0",
            "torch.tensor([1, 2]) << 64",
            "torch.tensor(2) ** -1",
            "torch.tensor(2) ** 100",
            "torch.arange(0, 1, 1e-300)",
            "torch.arange(1e308, -1e308, -1e307)",
            "torch.linspace(0, 1, 0)",
            "torch.empty(0).max()",
            "torch.empty(0).argmax()",
            "torch.empty(0, 3).mean(0)",
            "torch.empty(0).std()",
            "torch.tensor([]).item()",
            "torch.zeros(2, 0) @ torch.zeros(0, 3)",
            "torch.tensor(3).view(-1, -1)",
            "torch.ones(2, 3).view(-1, 0)",
            "torch.ones(0).view(-1, 0)",
        ])
        .prop_map(str::to_string),
    ]
}

fn statement() -> impl Strategy<Value = String> {
    let inplace = select(vec![
        "add_",
        "mul_",
        "sub_",
        "div_",
        "zero_",
        "fill_",
        "clamp_",
        "copy_",
        "requires_grad_",
        "exp_",
        "relu_",
        "t_",
        "squeeze_",
        "unsqueeze_",
        "normal_",
        "uniform_",
        "index_add_",
        "masked_fill_",
        "scatter_",
        "resize_",
        "set_",
        "abs_",
        "pow_",
    ]);
    prop_oneof![
        6 => (var(), expr()).prop_map(|(v, e)| format!("{v} = {e}")),
        1 => expr().prop_map(|e| format!("print({e})")),
        1 => (var(), select(vec!["backward()", "sum().backward()", "backward(x)",
            "backward(retain_graph=True)", "mean().backward(create_graph=True)"]))
            .prop_map(|(t, b)| format!("{t}.{b}")),
        2 => (var(), inplace.clone(), scalar()).prop_map(|(t, i, s)| format!("{t}.{i}({s})")),
        1 => (var(), inplace, var()).prop_map(|(t, i, u)| format!("{t}.{i}({u})")),
        1 => (var(), index(), scalar()).prop_map(|(t, i, s)| format!("{t}[{i}] = {s}")),
        1 => (var(), index(), var()).prop_map(|(t, i, u)| format!("{t}[{i}] = {u}")),
        1 => (var(), scalar()).prop_map(|(t, s)| format!("{t} += {s}")),
        1 => (var(), expr()).prop_map(|(v, e)| format!("with torch.no_grad():\n    {v} = {e}")),
        1 => (var(), expr()).prop_map(|(v, e)| {
            format!("with torch.autograd.detect_anomaly():\n    {v} = {e}\n    {v}.sum().backward()")
        }),
        1 => (var(), expr()).prop_map(|(v, e)| format!("with torch.enable_grad():\n    {v} = {e}")),
        1 => (var(), scalar()).prop_map(|(t, s)| {
            format!("opt = torch.optim.SGD([{t}], lr={s})\n{t}.sum().backward()\nopt.step()")
        }),
    ]
}

/// Each statement but the last runs in its own `try`, so one error does not
/// hide the rest; the last may raise out of the program.
fn snippet() -> impl Strategy<Value = String> {
    proptest::collection::vec(statement(), 1..8).prop_map(|stmts| {
        let mut src = PRELUDE.to_string();
        let (last, rest) = stmts.split_last().expect("at least one statement");
        for s in rest {
            src.push_str("try:\n");
            for line in s.lines() {
                src.push_str("    ");
                src.push_str(line);
                src.push('\n');
            }
            src.push_str("except Exception as err:\n    print(type(err).__name__, err)\n");
        }
        src.push_str(last);
        src.push('\n');
        src
    })
}

#[test]
fn torch_snippets() {
    fuzz(snippet());
}

#[test]
fn runaway_programs_end_with_a_clear_error() {
    let mut rt = Runtime::with_limits(Limits {
        recursion: 200,
        ..limits()
    });
    for (source, ty) in [
        ("while True: pass\n", "ExecutionLimitExceeded"),
        ("def f(): f()\nf()\n", "RecursionError"),
        ("x = [0] * 10**10\n", "MemoryError"),
        (
            "import torch\ntorch.ones(10**6, 10**6)\n",
            "OutOfMemoryError",
        ),
    ] {
        let started = Instant::now();
        let out = rt.run(source);
        assert!(started.elapsed() < TIME + SLACK, "{source}");
        let err = out
            .error
            .unwrap_or_else(|| panic!("no error from {source}"));
        assert_eq!(err.type_name, ty, "{source}: {}", err.message);
        assert_eq!(rt.run("print(1+1)\n").stdout, "2\n");
    }
}

/// Runs the program in the file `$FUZZ_PROGRAM` under the fuzz limits and
/// prints what it did: `FUZZ_PROGRAM=case.py cargo test -p gradscope-python
/// --test fuzz replay -- --ignored --nocapture`.
#[test]
#[ignore = "a tool for replaying one case"]
fn replay() {
    let path = std::env::var("FUZZ_PROGRAM").expect("FUZZ_PROGRAM names a file");
    let source = std::fs::read_to_string(path).expect("a readable program");
    // `FUZZ_LINES=<n>` changes the line budget, for programs written by hand.
    let lines = std::env::var("FUZZ_LINES")
        .ok()
        .and_then(|l| l.parse().ok());
    let mut rt = Runtime::with_limits(Limits {
        lines: lines.or(Some(LINES)),
        ..limits()
    });
    let out = rt.run(&source);
    println!("{}{}", out.stdout, out.stderr);
    if let Some(e) = out.error {
        println!("{}: {}", e.type_name, e.message);
    }
}
