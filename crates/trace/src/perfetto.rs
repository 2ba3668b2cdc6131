//! The trace in Chrome's trace event format, which Perfetto
//! (ui.perfetto.dev) and `chrome://tracing` open: what the CLI's
//! `--chrome-trace OUT.json` writes and the page's trace export saves.

use serde_json::{Value, json};

use crate::event::{Category, Event, EventKind};
use crate::memory::timeline;

/// The event's `type` tag, as serde writes it (`op_called`).
fn type_name(kind: &EventKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| "event".into())
}

/// Chrome's trace event format: named ranges, backward passes,
/// recomputations and grad modes as nested spans, every other event as an
/// instant with its fields, and live bytes per category as a counter
/// track. PyTorch's profiler exports the same format
/// (`prof.export_chrome_trace`), with its own events.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::perfetto::chrome_trace;
/// let trace = chrome_trace(&Event::numbered([
///     EventKind::RangeBegan { name: "forward".into() },
///     EventKind::RangeEnded { name: "forward".into() },
/// ]));
/// let phases: Vec<&str> = trace["traceEvents"].as_array().unwrap().iter()
///     .filter_map(|e| e["ph"].as_str()).collect();
/// assert_eq!(phases, ["M", "B", "E"]);
/// ```
pub fn chrome_trace(events: &[Event]) -> Value {
    let mut out = vec![json!({
        "name": "process_name", "ph": "M", "pid": 1, "tid": 1,
        "args": {"name": "gradscope"},
    })];
    let span = |name: &str, ph: &str, e: &Event| {
        json!({"name": name, "ph": ph, "ts": e.time_us, "pid": 1, "tid": 1,
               "args": {"seq": e.seq, "line": e.line}})
    };
    for event in events {
        let entry = match &event.kind {
            EventKind::RangeBegan { name } => span(name, "B", event),
            EventKind::RangeEnded { name } => span(name, "E", event),
            EventKind::BackwardBegan { .. } => span("backward", "B", event),
            EventKind::BackwardEnded => span("backward", "E", event),
            EventKind::RecomputeBegan { .. } => span("recompute", "B", event),
            EventKind::RecomputeEnded { .. } => span("recompute", "E", event),
            EventKind::GradModeEntered { mode } => span(mode, "B", event),
            EventKind::GradModeExited { mode } => span(mode, "E", event),
            kind => {
                let name = match kind {
                    EventKind::OpCalled { op, .. } => op.to_string(),
                    EventKind::NodeCreated { name, .. } => name.to_string(),
                    other => type_name(other),
                };
                json!({"name": name, "ph": "i", "s": "t", "ts": event.time_us,
                       "pid": 1, "tid": 1, "args": {"seq": event.seq, "line": event.line, "event": kind}})
            }
        };
        out.push(entry);
    }
    for sample in timeline(events) {
        let mut args = serde_json::Map::new();
        for (category, bytes) in Category::ALL.iter().zip(sample.bytes) {
            args.insert(category.label().into(), json!(bytes));
        }
        out.push(
            json!({"name": "memory (bytes)", "ph": "C", "ts": sample.time_us,
                        "pid": 1, "tid": 1, "args": args}),
        );
    }
    json!({"traceEvents": out, "displayTimeUnit": "ms"})
}

/// [`chrome_trace`] as the text of a `.json` file.
pub fn chrome_trace_json(events: &[Event]) -> String {
    chrome_trace(events).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::SavedInfo;

    fn events() -> Vec<Event> {
        let mut events = Event::numbered([
            EventKind::StorageAllocated {
                storage: 1,
                bytes: 16,
                device: "cpu".into(),
                category: Category::Other,
            },
            EventKind::RangeBegan {
                name: "forward".into(),
            },
            EventKind::NodeCreated {
                node: 2,
                name: "MulBackward0".into(),
                sequence_nr: 0,
                next: vec![None],
                saved: vec![SavedInfo {
                    name: "self".into(),
                    shape: vec![2, 2],
                    storage: 1,
                    bytes: 16,
                    deferred: false,
                    ..SavedInfo::default()
                }],
                leaf: None,
            },
            EventKind::StorageRecategorised {
                storage: 1,
                category: Category::SavedForBackward,
            },
            EventKind::RangeEnded {
                name: "forward".into(),
            },
        ]);
        for (i, e) in events.iter_mut().enumerate() {
            e.time_us = 10 * i as u64;
        }
        events
    }

    #[test]
    fn perfetto_spans_instants_and_memory_counters() {
        let trace = chrome_trace(&events());
        let list = trace["traceEvents"].as_array().unwrap();
        let entries: Vec<(String, String, u64)> = list
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_string(),
                    e["ph"].as_str().unwrap().to_string(),
                    e["ts"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        let expected = [
            ("process_name", "M", 0),
            ("storage_allocated", "i", 0),
            ("forward", "B", 10),
            ("MulBackward0", "i", 20),
            ("storage_recategorised", "i", 30),
            ("forward", "E", 40),
            ("memory (bytes)", "C", 0),
            ("memory (bytes)", "C", 30),
        ];
        let expected: Vec<(String, String, u64)> = expected
            .iter()
            .map(|(n, p, t)| (n.to_string(), p.to_string(), *t))
            .collect();
        assert_eq!(entries, expected);
        // The counter moves the bytes to their category; an instant keeps
        // the whole event.
        assert_eq!(list[7]["args"]["saved for backward"], 16);
        assert_eq!(list[7]["args"]["other"], 0);
        assert_eq!(list[3]["args"]["event"]["saved"][0]["shape"], json!([2, 2]));
        assert_eq!(trace["displayTimeUnit"], "ms");
    }

    #[test]
    fn perfetto_json_text_parses_back() {
        let text = chrome_trace_json(&events());
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, chrome_trace(&events()));
    }
}
