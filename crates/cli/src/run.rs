//! `gradscope run FILE.py`: runs a PyTorch program on gradscope's engine
//! and prints exactly what it prints, as it prints it. An uncaught
//! exception's traceback goes to stderr and the exit code is 1, as with
//! `python FILE.py`; `sys.exit(n)` exits with `n`.

use std::process::ExitCode;

/// How to call it.
pub const USAGE: &str = "\
gradscope run: run a PyTorch program on gradscope's engine

Usage:
  gradscope run FILE.py [--device cpu|webgpu] [--time-limit SECONDS] [--memory-limit BYTES] [outputs]
  gradscope run - ...       read the program from stdin

  --device DEVICE        where tensors go unless the program says otherwise, as after
                         torch.set_default_device(DEVICE): cpu (default) or webgpu (the
                         GPU through Vulkan natively; float32 only, as on PyTorch's MPS)
  --time-limit SECONDS   stop the program after this long (default 30; 0: no limit)
  --memory-limit BYTES   budget for tensor memory; past it, torch.OutOfMemoryError
                         (default 4 GiB; 0: no limit, and a failed allocation aborts)
  --kernel-stats         afterwards, on stderr: GPU kernels run, ops computed on the
                         host copy instead (by op), downloads and uploads
  --file PATH            let the program open PATH (read-only) by that relative name;
                         repeat for more files

Outputs, written after the program ends (also when it raised):
  --trace OUT.jsonl          the engine's events, one JSON object per line
  --chrome-trace OUT.json    Chrome trace event format (open it in Perfetto)
  --graph OUT.dot|OUT.svg    the graph the last backward() ran, as it stood when that
                             backward began (else the whole graph), saved tensors
                             marked as torchviz's show_saved does (DOT or SVG)
  --memory OUT.csv           live bytes per memory category after each change, a row per
                             device (with the GPU caching allocator's reserved bytes)

Exit status: the program's (0, 1 after an uncaught exception, or sys.exit's),
2 for a usage error or an output that could not be written, 3 when the
device asked for cannot be opened.";

/// Parsed command line.
#[derive(Debug, PartialEq)]
struct Options {
    file: String,
    device: String,
    time_limit: Option<f64>,
    memory_limit: Option<u64>,
    files: Vec<String>,
    outputs: Outputs,
    kernel_stats: bool,
}

/// Where to write the views of the trace; recording happens only when one
/// is asked for.
#[derive(Debug, Default, PartialEq)]
struct Outputs {
    trace: Option<String>,
    chrome_trace: Option<String>,
    graph: Option<String>,
    memory: Option<String>,
}

impl Outputs {
    fn any(&self) -> bool {
        self.trace.is_some()
            || self.chrome_trace.is_some()
            || self.graph.is_some()
            || self.memory.is_some()
    }
}

/// The tensor memory a program may hold unless `--memory-limit` says
/// otherwise: an allocation the system refuses aborts the process, so a
/// runaway `torch.ones(10**6, 10**6)` gets PyTorch's out-of-memory error.
const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

fn parse(args: &[String]) -> Result<Options, String> {
    let mut file = None;
    let mut device = "cpu".to_string();
    let mut kernel_stats = false;
    let mut time_limit = Some(30.0);
    let mut memory_limit = Some(DEFAULT_MEMORY_LIMIT);
    let mut outputs = Outputs::default();
    let mut files = vec![];
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--time-limit" => {
                let v = it.next().ok_or("--time-limit needs a number of seconds")?;
                let secs: f64 = v.parse().map_err(|_| format!("bad --time-limit '{v}'"))?;
                time_limit = (secs > 0.0).then_some(secs);
            }
            "--memory-limit" => {
                let v = it.next().ok_or("--memory-limit needs a number of bytes")?;
                let bytes: u64 = v.parse().map_err(|_| format!("bad --memory-limit '{v}'"))?;
                memory_limit = (bytes > 0).then_some(bytes);
            }
            "--file" => files.push(it.next().ok_or("--file needs a path")?.clone()),
            "--device" => device = it.next().ok_or("--device needs cpu or webgpu")?.clone(),
            "--kernel-stats" => kernel_stats = true,
            flag @ ("--trace" | "--chrome-trace" | "--graph" | "--memory") => {
                let path = it
                    .next()
                    .ok_or_else(|| format!("{flag} needs a file name"))?
                    .clone();
                let slot = match flag {
                    "--trace" => &mut outputs.trace,
                    "--chrome-trace" => &mut outputs.chrome_trace,
                    "--graph" => &mut outputs.graph,
                    _ => &mut outputs.memory,
                };
                *slot = Some(path);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other if file.is_none() => file = Some(other.to_string()),
            other => return Err(format!("unexpected argument '{other}'\n\n{USAGE}")),
        }
    }
    let file = file.ok_or_else(|| format!("no program given\n\n{USAGE}"))?;
    if let Some(graph) = &outputs.graph
        && !(graph.ends_with(".dot") || graph.ends_with(".svg"))
    {
        return Err(format!("--graph writes .dot or .svg, not '{graph}'"));
    }
    Ok(Options {
        file,
        device,
        time_limit,
        memory_limit,
        files,
        outputs,
        kernel_stats,
    })
}

/// Runs `gradscope run ARGS...` and returns the process's exit code.
pub fn main(args: &[String]) -> ExitCode {
    let options = match parse(args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("gradscope: {message}");
            return ExitCode::from(2);
        }
    };
    if let Err(message) = crate::gpu::use_device(&options.device) {
        eprintln!("gradscope: device {}: {message}", options.device);
        return ExitCode::from(3);
    }
    let source = if options.file == "-" {
        let mut text = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            Ok(_) => text,
            Err(err) => {
                eprintln!("gradscope: reading stdin: {err}");
                return ExitCode::from(2);
            }
        }
    } else {
        match std::fs::read_to_string(&options.file) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("gradscope: can't open file '{}': {err}", options.file);
                return ExitCode::from(2);
            }
        }
    };
    execute(&options, &source)
}

fn execute(options: &Options, source: &str) -> ExitCode {
    use std::io::Write;

    use gradscope_python::{Limits, Runtime, Stream};

    let limits = Limits {
        time: options.time_limit.map(std::time::Duration::from_secs_f64),
        memory: options.memory_limit,
        ..Limits::default()
    };
    let mut runtime = Runtime::with_limits(limits);
    // The runtime's files are read-only copies: the program opens each by
    // the relative name it was given here, as it would from this directory.
    for path in &options.files {
        match std::fs::read(path) {
            Ok(bytes) => runtime.add_file(path, bytes),
            Err(err) => {
                eprintln!("gradscope: can't read --file '{path}': {err}");
                return ExitCode::from(2);
            }
        }
    }
    runtime.set_file_name(if options.file == "-" {
        "<stdin>"
    } else {
        options.file.as_str()
    });
    // Print as the program prints, not at the end: training loops are long.
    runtime.set_output_sink(Some(Box::new(|stream, text| {
        let _ = match stream {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            Stream::Stderr => std::io::stderr().lock().write_all(text.as_bytes()),
        };
    })));
    let out = if options.outputs.any() {
        let (out, events) = gradscope_core::trace::record(|| runtime.run(source));
        if let Err(err) = write_outputs(&options.outputs, &events) {
            eprintln!("gradscope: {err}");
            return ExitCode::from(2);
        }
        out
    } else {
        runtime.run(source)
    };
    if options.kernel_stats {
        eprintln!("{}", kernel_stats_line());
    }
    ExitCode::from(u8::try_from(out.exit_code).unwrap_or(1))
}

/// What ran where on the GPU during the run, for `--kernel-stats`: ops a
/// kernel computed, ops computed on the host copy (by op), and the copies
/// between host and device.
fn kernel_stats_line() -> String {
    use gradscope_core::device;
    let stats = device::kernel_stats();
    let mut fallbacks = device::host_fallbacks_by_op();
    fallbacks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let by_op: Vec<String> = fallbacks
        .iter()
        .map(|(op, n)| format!("{op} {n}"))
        .collect();
    format!(
        "gradscope: kernel stats: {} kernels, {} host fallbacks{}, {} downloads, {} uploads",
        stats.kernels,
        stats.host_fallbacks,
        if by_op.is_empty() {
            String::new()
        } else {
            format!(" ({})", by_op.join(", "))
        },
        stats.downloads,
        stats.uploads,
    )
}

/// Writes each asked-for view of the trace.
fn write_outputs(outputs: &Outputs, events: &[gradscope_trace::Event]) -> Result<(), String> {
    use crate::outputs;
    let write = |path: &str, text: String| {
        std::fs::write(path, text).map_err(|err| format!("writing '{path}': {err}"))
    };
    if let Some(path) = &outputs.trace {
        write(path, outputs::jsonl(events).map_err(|err| err.to_string())?)?;
    }
    if let Some(path) = &outputs.chrome_trace {
        write(path, outputs::chrome_trace(events).to_string())?;
    }
    if let Some(path) = &outputs.graph {
        let text = if path.ends_with(".svg") {
            outputs::svg(events)
        } else {
            outputs::dot(events)
        };
        write(path, text)?;
    }
    if let Some(path) = &outputs.memory {
        write(path, outputs::memory_csv(events))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn run_parses_limits() {
        assert_eq!(
            parse(&args(&[
                "prog.py",
                "--time-limit",
                "0",
                "--memory-limit",
                "1024"
            ])),
            Ok(Options {
                file: "prog.py".into(),
                device: "cpu".into(),
                time_limit: None,
                memory_limit: Some(1024),
                files: vec![],
                outputs: Outputs::default(),
                kernel_stats: false,
            })
        );
        assert_eq!(
            parse(&args(&["prog.py", "--kernel-stats"])).map(|o| o.kernel_stats),
            Ok(true)
        );
        assert_eq!(
            parse(&args(&["prog.py"])).map(|o| o.memory_limit),
            Ok(Some(DEFAULT_MEMORY_LIMIT))
        );
        assert_eq!(
            parse(&args(&["prog.py", "--memory-limit", "0"])).map(|o| o.memory_limit),
            Ok(None)
        );
        let parsed = parse(&args(&[
            "a.py", "--trace", "t.jsonl", "--graph", "g.svg", "--memory", "m.csv",
        ]));
        assert_eq!(
            parsed.map(|o| o.outputs),
            Ok(Outputs {
                trace: Some("t.jsonl".into()),
                chrome_trace: None,
                graph: Some("g.svg".into()),
                memory: Some("m.csv".into()),
            })
        );
        assert_eq!(
            parse(&args(&["a.py", "--file", "d.csv.gz", "--file", "e.txt"])).map(|o| o.files),
            Ok(vec!["d.csv.gz".to_string(), "e.txt".to_string()])
        );
        assert!(parse(&args(&["a.py", "--graph", "g.png"])).is_err());
        assert!(parse(&args(&["a.py", "--trace"])).is_err());
        assert!(parse(&args(&[])).is_err());
        assert!(parse(&args(&["a.py", "b.py"])).is_err());
    }
}
