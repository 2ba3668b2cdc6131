//! Checking a lesson's claims in the worker: its program runs in the
//! worker's interpreter as each claim needs, recorded but not streamed (the
//! page shows the learner's own run), and the verdicts go back in one reply.

use gradscope_core::trace;
use gradscope_lessons::{DataFile, RunRecord, Runner};
use gradscope_trace::Reply;
use gradscope_trace::protocol::ClaimResult;

use gradscope_trace::protocol::Device;

use crate::program::{on_device, with_runtime};

/// Runs lesson programs in the worker's one interpreter.
struct WorkerRunner {
    /// The default device of the lesson's tensors.
    device: Device,
}

impl Runner for WorkerRunner {
    fn run(&mut self, source: &str, _files: &[DataFile]) -> RunRecord {
        // The worker's interpreter was given every lesson's files when it
        // was made (`program::make_runtime`); copying them again per run
        // would cost the digits' bytes on every claim's run.
        with_runtime(|runtime| {
            runtime.set_output_sink(None);
            let (out, events) = trace::record(|| on_device(self.device, || runtime.run(source)));
            RunRecord {
                events,
                stdout: out.stdout,
                error: out.error.map(|e| gradscope_lessons::RaisedError {
                    type_name: e.type_name,
                    message: e.message,
                    line: e.line,
                }),
            }
        })
    }
}

/// Checks the lesson `slug` with its tensors on `device`, and returns its
/// report.
pub(crate) fn check(slug: &str, device: Device) -> Reply {
    let Some(lesson) = gradscope_lessons::find(slug) else {
        return Reply::Error {
            kind: "ValueError".into(),
            message: format!("there is no lesson named '{slug}'"),
            line: None,
            traceback: None,
        };
    };
    let report = gradscope_lessons::check(lesson, &mut WorkerRunner { device });
    let claims = report
        .claims
        .iter()
        .map(|claim| {
            let (passed, measured) = match &claim.outcome {
                Ok(verdict) => (verdict.passed, verdict.measured.clone()),
                Err(err) => (false, format!("could not be measured: {err}")),
            };
            ClaimResult {
                text: claim.text.to_string(),
                passed,
                measured,
            }
        })
        .collect();
    let figures = match report.figures {
        Ok(figures) => figures.into_iter().map(|f| (f.label, f.value)).collect(),
        Err(err) => vec![(
            "figures".to_string(),
            format!("could not be measured: {err}"),
        )],
    };
    Reply::LessonChecked {
        slug: slug.to_string(),
        claims,
        figures,
    }
}
