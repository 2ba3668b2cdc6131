//! Runs a Python file through the runtime and prints what it printed:
//! `cargo run -p gradscope-python --example run_file -- FILE.py`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run_file FILE.py");
        return ExitCode::from(2);
    };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(err) => {
            eprintln!("{path}: {err}");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let mut rt = gradscope_python::Runtime::new();
    if std::env::var_os("NO_LIMITS").is_some() {
        rt.set_limits(gradscope_python::Limits {
            time: None,
            lines: None,
            ..Default::default()
        });
    }
    let started = start.elapsed();
    let t = std::time::Instant::now();
    let out = rt.run(&source);
    print!("{}", out.stdout);
    eprint!("{}", out.stderr);
    eprintln!("[start {:?}, run {:?}]", started, t.elapsed());
    ExitCode::from(u8::try_from(out.exit_code).unwrap_or(1))
}
