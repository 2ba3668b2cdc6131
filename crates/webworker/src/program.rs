//! Running a program for the page.
//!
//! Until the Python runtime (`gradscope-python`) is wired in, the worker runs
//! one program natively: [`EXAMPLE`], the page's starting program, statement
//! by statement on the engine, with each statement's line on its events.
//! Any other source gets a `NotImplementedError` that says so.

use gradscope_core::{Tensor, trace};
use gradscope_trace::protocol::{Device, EXAMPLE};
use gradscope_trace::{Event, Reply};

use crate::{gpu, post};

/// How many events go in one message.
const BATCH: usize = 2048;

/// Runs `source` and posts its events, its output and how it ended.
pub(crate) async fn run(source: &str, device: Device) {
    if !same_program(source, EXAMPLE) {
        post(&Reply::Error {
            kind: "NotImplementedError".into(),
            message: "this build has no Python runtime yet: it runs only the example \
                      program (press Reset to get it back)"
                .into(),
            line: None,
            traceback: None,
        });
        return;
    }
    let mut stdout = String::new();
    let (result, events) = trace::record(|| example(&mut stdout));
    trace::set_current_line(None);
    // The program's variables outlive it, as a module's globals do; they go
    // with the next run, after the trace stops.
    let result = result.map(drop);
    post_events(events);
    if !stdout.is_empty() {
        post(&Reply::Stdout { text: stdout });
    }
    if let Err((err, line)) = result {
        post(&Reply::Error {
            kind: err.python_type().into(),
            message: err.to_string(),
            line: Some(line),
            traceback: None,
        });
        return;
    }
    if device == Device::Webgpu {
        post(&Reply::Notice {
            text: gpu::elementwise_check().await,
        });
    }
    post(&Reply::Finished);
}

fn post_events(mut events: Vec<Event>) {
    while !events.is_empty() {
        let rest = events.split_off(events.len().min(BATCH));
        post(&Reply::Events { events });
        events = rest;
    }
}

/// Whether two programs are the same statements, ignoring blank lines and
/// trailing spaces.
fn same_program(a: &str, b: &str) -> bool {
    let significant = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    significant(a) == significant(b)
}

type Step<T> = Result<T, (gradscope_core::Error, u32)>;

/// Sets the program line that the events of `f` carry, and tags its error with it.
fn at<T>(line: u32, f: impl FnOnce() -> gradscope_core::Result<T>) -> Step<T> {
    trace::set_current_line(Some(line));
    f().map_err(|err| (err, line))
}

/// [`EXAMPLE`], line by line; returns its variables.
fn example(stdout: &mut String) -> Step<Vec<Tensor>> {
    let x = at(3, || Ok(Tensor::ones(&[2, 2]).requires_grad_(true)))?;
    let y = at(4, || x.add(&Tensor::scalar(2.0)))?;
    let z = at(5, || y.mul(&y)?.mul(&Tensor::scalar(3.0)))?;
    let out = at(6, || z.mean())?;
    at(7, || {
        stdout.push_str(&format!("{out}\n"));
        Ok(())
    })?;
    at(8, || out.backward())?;
    at(9, || {
        match x.grad() {
            Some(grad) => stdout.push_str(&format!("{grad}\n")),
            None => stdout.push_str("None\n"),
        }
        Ok(())
    })?;
    Ok(vec![x, y, z, out])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_program_matches_with_blank_lines() {
        let spaced = format!("\n{}\n\n", EXAMPLE.replace('\n', "  \n"));
        assert!(same_program(&spaced, EXAMPLE));
        assert!(!same_program("print(1)", EXAMPLE));
    }
}
