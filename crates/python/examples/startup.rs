//! Times the runtime's start natively: `Runtime::new` (interpreter, standard
//! modules, the prelude's `import torch`), then the first import of each
//! `torch` submodule a program commonly reaches for, each in a fresh
//! runtime. Natively it is about ten times faster than in the browser's
//! worker, so the proportions, not the figures, carry over.
//!
//! `cargo run --release -p gradscope-python --example startup -- [RUNS]`;
//! with `--imports`, the time of each module the last of those programs
//! imports (total and own, in ms, nested as imported), like CPython's
//! `-X importtime`.

use std::time::{Duration, Instant};

use gradscope_python::Runtime;

/// What a program does right after `import torch`, timed as its first run.
const FIRST_RUNS: &[(&str, &str)] = &[
    ("import torch", "import torch\n"),
    ("torch.nn.Linear", "import torch\ntorch.nn.Linear\n"),
    ("import torch.nn as nn", "import torch.nn as nn\n"),
    ("import torch.optim", "import torch.optim\n"),
    (
        "from torch.utils.data import DataLoader",
        "from torch.utils.data import DataLoader\n",
    ),
    (
        "nn + optim + F + data",
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport torch.optim as optim\nfrom torch.utils.data import DataLoader\n",
    ),
];

/// Wraps the import system's `_find_and_load` to log each module's time.
const IMPORT_LOG: &str = r#"
import sys, time, _frozen_importlib as bootstrap
find_and_load = bootstrap._find_and_load
stack, log = [], []
def timed(name, import_):
    start = time.perf_counter()
    stack.append(0.0)
    try:
        return find_and_load(name, import_)
    finally:
        total = time.perf_counter() - start
        inner = stack.pop()
        if stack:
            stack[-1] += total
        log.append((len(stack), name, total, total - inner))
bootstrap._find_and_load = timed
sys._import_log = log
"#;

const PRINT_LOG: &str = r#"
import sys
for depth, name, total, own in reversed(sys._import_log):
    print(f"{total * 1e3:8.2f} {own * 1e3:8.2f} {'  ' * depth}{name}")
"#;

fn imports() {
    let mut rt = Runtime::new();
    rt.run(IMPORT_LOG);
    let (_, source) = FIRST_RUNS[FIRST_RUNS.len() - 1];
    rt.run(source);
    let out = rt.run(PRINT_LOG);
    println!("   total      own module (ms)");
    print!("{}{}", out.stdout, out.stderr);
}

fn median(mut times: Vec<Duration>) -> (Duration, Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2], times[times.len() - 1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    if std::env::args().any(|a| a == "--imports") {
        imports();
        return;
    }
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    // One start outside the figures: page faults of the first use of the
    // binary's code and data.
    drop(Runtime::new());
    let mut new = Vec::new();
    let mut first: Vec<Vec<Duration>> = vec![Vec::new(); FIRST_RUNS.len()];
    for _ in 0..runs {
        let t = Instant::now();
        let rt = Runtime::new();
        new.push(t.elapsed());
        drop(rt);
        for (i, (_, source)) in FIRST_RUNS.iter().enumerate() {
            let mut rt = Runtime::new();
            let t = Instant::now();
            let out = rt.run(source);
            first[i].push(t.elapsed());
            if let Some(error) = out.error {
                eprintln!("{source}: {error}");
                std::process::exit(1);
            }
        }
    }
    let (lo, mid, hi) = median(new);
    println!("{runs} runs; min / median / max in ms");
    println!(
        "{:<45} {:>7.2} {:>7.2} {:>7.2}",
        "Runtime::new",
        ms(lo),
        ms(mid),
        ms(hi)
    );
    for ((name, _), times) in FIRST_RUNS.iter().zip(first) {
        let (lo, mid, hi) = median(times);
        println!(
            "{:<45} {:>7.2} {:>7.2} {:>7.2}",
            format!("then run: {name}"),
            ms(lo),
            ms(mid),
            ms(hi)
        );
    }
}
