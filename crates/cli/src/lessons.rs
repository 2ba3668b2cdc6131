//! `gradscope lessons`: runs the lessons headlessly and checks their claims.

use std::io::Write;
use std::process::ExitCode;

use gradscope_lessons::{Lesson, LessonReport, NativeRunner, check, lessons};

use crate::args::{self, Long, Parsed, Short};

/// How to call it.
pub const USAGE: &str = "\
gradscope lessons: run the lessons and check every claim against what the engine measured

Usage:
  gradscope lessons [--check] [--device cpu|webgpu] [--only SLUG] [--verbose]

  --check        exit with status 1 when any claim fails (for CI)
  --device DEV   the device the lessons' tensors go to: cpu (default) or webgpu
  --only SLUG    run one lesson (e.g. forgot-zero-grad)
  --verbose      print every claim with what it measured

Exit status: 0 when every claim passed (or without --check), 1 when a
claim failed under --check, 2 on a usage error, 3 when the device cannot
be opened.";

#[derive(Debug, Default, PartialEq)]
struct Options {
    check: bool,
    device: Option<String>,
    only: Option<String>,
    verbose: bool,
}

fn parse(args: &[String]) -> Result<Parsed<Options>, String> {
    let mut options = Options::default();
    let mut parser = args::parser(args);
    while let Some(arg) = args::next(&mut parser)? {
        match arg {
            Long("check") => options.check = true,
            Long("verbose") | Short('v') => options.verbose = true,
            Long("device") => {
                options.device = Some(args::value(&mut parser, "--device needs cpu or webgpu")?);
            }
            Long("only") => {
                options.only = Some(args::value(&mut parser, "--only needs a lesson's slug")?);
            }
            Short('h') | Long("help") => return Ok(Parsed::Help),
            other => {
                let other = args::shown(&other);
                return Err(format!("unexpected argument '{other}'\n\n{USAGE}"));
            }
        }
    }
    Ok(Parsed::Run(options))
}

/// Runs `gradscope lessons ARGS...` and returns the exit code.
pub fn main(args: &[String]) -> ExitCode {
    let options = match parse(args) {
        Ok(Parsed::Run(o)) => o,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("gradscope: {message}");
            return ExitCode::from(2);
        }
    };
    let device = options.device.as_deref().unwrap_or("cpu");
    if let Err(message) = crate::gpu::use_device(device) {
        eprintln!("gradscope: device {device}: {message}");
        return ExitCode::from(3);
    }
    let chosen: Vec<&Lesson> = lessons()
        .iter()
        .filter(|l| options.only.as_deref().is_none_or(|s| s == l.slug))
        .collect();
    if chosen.is_empty() {
        let slugs: Vec<&str> = lessons().iter().map(|l| l.slug).collect();
        eprintln!(
            "gradscope: no lesson named '{}'; the lessons are: {}",
            options.only.unwrap_or_default(),
            slugs.join(", ")
        );
        return ExitCode::from(2);
    }
    let mut runner = NativeRunner::new();
    let mut failed = 0;
    println!("{:<3} {:<24} {:>7}  key figures", "#", "lesson", "claims");
    // Progress on a terminal only: CI logs would get the carriage returns.
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    for lesson in chosen {
        // Some lessons run their program several times.
        if progress {
            eprint!("running {} ...\r", lesson.slug);
            let _ = std::io::stderr().flush();
        }
        let report = check(lesson, &mut runner);
        if progress {
            eprint!("{:width$}\r", "", width = lesson.slug.len() + 12);
        }
        if !report.all_passed() {
            failed += 1;
        }
        print_row(lesson, &report, options.verbose);
    }
    if failed > 0 {
        println!("{failed} lesson(s) with failing claims");
    }
    if options.check && failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_row(lesson: &Lesson, report: &LessonReport, verbose: bool) {
    let figures = match &report.figures {
        Ok(figures) => figures
            .iter()
            .map(|f| format!("{}: {}", f.label, f.value))
            .collect::<Vec<_>>()
            .join("; "),
        Err(err) => format!("(not measured: {err})"),
    };
    println!(
        "{:<3} {:<24} {:>3}/{:<3}  {figures}",
        lesson.number,
        lesson.slug,
        report.passed(),
        report.claims.len()
    );
    for claim in &report.claims {
        let (mark, detail) = match &claim.outcome {
            Ok(v) if v.passed => ("pass", v.measured.clone()),
            Ok(v) => ("FAIL", v.measured.clone()),
            Err(err) => ("FAIL", err.to_string()),
        };
        if verbose || mark == "FAIL" {
            println!("      {mark}  {}\n            {detail}", claim.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lessons_parses_options() {
        let args: Vec<String> = ["--check", "--only", "digits"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            parse(&args),
            Ok(Parsed::Run(Options {
                check: true,
                device: None,
                only: Some("digits".into()),
                verbose: false,
            }))
        );
        assert!(parse(&["--only".to_string()]).is_err());
        assert_eq!(parse(&["-h".to_string()]), Ok(Parsed::Help));
        assert!(
            parse(&["--fast".to_string()])
                .is_err_and(|e| e.starts_with("unexpected argument '--fast'"))
        );
    }
}
