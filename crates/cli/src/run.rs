//! `gradscope run FILE.py`: runs a PyTorch program on gradscope's engine
//! and prints exactly what it prints, as it prints it. An uncaught
//! exception's traceback goes to stderr and the exit code is 1, as with
//! `python FILE.py`; `sys.exit(n)` exits with `n`.

use std::process::ExitCode;

/// How to call it.
pub const USAGE: &str = "\
gradscope run: run a PyTorch program on gradscope's engine

Usage:
  gradscope run FILE.py [--time-limit SECONDS] [--memory-limit BYTES]
  gradscope run - ...       read the program from stdin

  --time-limit SECONDS   stop the program after this long (default 30; 0: no limit)
  --memory-limit BYTES   budget for tensor memory; past it, torch.OutOfMemoryError";

/// Parsed command line.
#[derive(Debug, PartialEq)]
struct Options {
    file: String,
    time_limit: Option<f64>,
    memory_limit: Option<u64>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut file = None;
    let mut time_limit = Some(30.0);
    let mut memory_limit = None;
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
                memory_limit = Some(v.parse().map_err(|_| format!("bad --memory-limit '{v}'"))?);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other if file.is_none() => file = Some(other.to_string()),
            other => return Err(format!("unexpected argument '{other}'\n\n{USAGE}")),
        }
    }
    let file = file.ok_or_else(|| format!("no program given\n\n{USAGE}"))?;
    Ok(Options {
        file,
        time_limit,
        memory_limit,
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
    let out = runtime.run(source);
    ExitCode::from(u8::try_from(out.exit_code).unwrap_or(1))
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
                time_limit: None,
                memory_limit: Some(1024),
            })
        );
        assert!(parse(&args(&[])).is_err());
        assert!(parse(&args(&["a.py", "b.py"])).is_err());
    }
}
