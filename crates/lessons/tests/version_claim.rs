//! The no-grad-eval lesson's version claim, decided on hand-built runs: it
//! holds for what PyTorch does (an inference tensor refuses `_version`) and
//! fails for an engine that bumps and reports an inference tensor's version.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_lessons::{DataFile, Measurements, RaisedError, RunRecord, Runner, check, find};
use gradscope_trace::{Event, EventKind};

const CLAIM: &str = "no version bump in inference mode";

/// Runs no program: answers each run of the lesson with the trace of its
/// in-place phase, and prints or raises as `inference_refuses` says.
struct Scripted {
    inference_refuses: bool,
}

fn trace(kinds: Vec<EventKind>) -> Vec<Event> {
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Event {
            seq: i as u64,
            time_us: i as u64,
            line: None,
            kind,
        })
        .collect()
}

impl Runner for Scripted {
    fn run(&mut self, source: &str, _files: &[DataFile]) -> RunRecord {
        let inference = source.contains("MODE = \"inference_mode\"");
        let mut kinds = vec![
            EventKind::RangeBegan {
                name: "in-place".into(),
            },
            EventKind::OpCalled {
                op: "mul_".into(),
                shape: vec![64, 10],
            },
        ];
        if inference && self.inference_refuses {
            return RunRecord {
                events: trace(kinds),
                stdout: String::new(),
                error: Some(RaisedError {
                    type_name: "RuntimeError".into(),
                    message: "Inference tensors do not track version counter.".into(),
                    line: Some(34),
                }),
            };
        }
        kinds.push(EventKind::RangeEnded {
            name: "in-place".into(),
        });
        RunRecord {
            events: trace(kinds),
            stdout: "no_grad False False 13.2416\nout._version: 1\n".into(),
            error: None,
        }
    }
}

fn verdict(inference_refuses: bool) -> (bool, String) {
    let lesson = find("no-grad-eval").expect("the lesson exists");
    let report = check(lesson, &mut Scripted { inference_refuses });
    let claim = report
        .claims
        .iter()
        .find(|c| c.text.starts_with(CLAIM))
        .expect("the lesson has the claim");
    let verdict = claim.outcome.as_ref().expect("the claim was decided");
    (verdict.passed, verdict.measured.clone())
}

#[test]
fn the_claim_holds_when_an_inference_tensor_has_no_version() {
    let (passed, measured) = verdict(true);
    assert!(passed, "{measured}");
    assert!(measured.contains("out._version: 1"), "{measured}");
}

#[test]
fn the_claim_fails_when_an_inference_tensor_reports_a_version() {
    let (passed, measured) = verdict(false);
    assert!(!passed, "{measured}");
    assert!(measured.contains("no exception"), "{measured}");
}

#[test]
fn printed_values_are_read_by_label() {
    let m = Measurements {
        printed: "out._version: 1\nother: 2\nout._version: 3\n".into(),
        ..Measurements::default()
    };
    assert_eq!(m.printed_after("out._version:"), Some("3"));
    assert_eq!(m.printed_after("missing:"), None);
}
