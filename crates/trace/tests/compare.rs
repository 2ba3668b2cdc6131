//! Two runs compared: the facts of each, the peak's change as the chart
//! writes it, the side-by-side counts and the shared frame of the
//! overlaid timelines.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_trace::compare::{
    Comparison, MemoryOverlay, RunFacts, change_label, matching_ledger, shared_steps,
};
use gradscope_trace::memory_chart::{Axis, MemoryRecord};
use gradscope_trace::training_charts::TrainingSeries;
use gradscope_trace::{Category, Event, EventKind, SavedInfo};

fn alloc(storage: u64, bytes: u64, category: Category) -> EventKind {
    EventKind::StorageAllocated {
        storage,
        bytes,
        device: "cpu".into(),
        category,
    }
}

fn node(id: u64, saved: Vec<SavedInfo>) -> EventKind {
    EventKind::NodeCreated {
        node: id,
        name: "MulBackward0".into(),
        sequence_nr: id,
        next: vec![],
        saved,
        leaf: None,
    }
}

fn saved(storage: u64, bytes: u64) -> SavedInfo {
    SavedInfo {
        name: "self".into(),
        shape: vec![bytes as usize / 4],
        storage,
        bytes,
        deferred: false,
        ..SavedInfo::default()
    }
}

/// Numbers the events in order, 10 us apart.
fn events(kinds: Vec<EventKind>) -> Vec<Event> {
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Event {
            seq: i as u64,
            time_us: 10 * i as u64,
            line: None,
            kind,
        })
        .collect()
}

/// `steps` training steps of `h = x * w; loss = h.sum(); loss.backward()`
/// with a 4000-byte input: each step saves the input for backward
/// (recategorised) and makes a 400-byte result, frees both in backward and
/// reports the loss `1 / (step + 1)`.
fn graph_run(steps: usize) -> Vec<EventKind> {
    let mut kinds = vec![alloc(1, 4000, Category::Parameter)];
    for s in 0..steps as u64 {
        let (x, h) = (100 + 2 * s, 101 + 2 * s);
        kinds.extend([
            alloc(x, 4000, Category::Other),
            node(10 * s + 1, vec![saved(x, 4000)]),
            EventKind::StorageRecategorised {
                storage: x,
                category: Category::SavedForBackward,
            },
            alloc(h, 400, Category::Other),
            EventKind::BackwardRoot {
                numel: 1,
                value: Some(1.0 / (s as f64 + 1.0)),
            },
            EventKind::BackwardBegan {
                root: 10 * s + 1,
                retain_graph: false,
            },
            EventKind::GradValue {
                tensor: 1,
                shape: vec![1000],
                norm: 2.0,
                values: vec![],
            },
            EventKind::StorageFreed { storage: x },
            EventKind::BackwardEnded,
            EventKind::StorageFreed { storage: h },
        ]);
    }
    kinds
}

/// The same forward under `no_grad`: nothing saved, no node, no step.
fn no_grad_run() -> Vec<EventKind> {
    vec![
        alloc(1, 4000, Category::Parameter),
        EventKind::GradModeEntered {
            mode: "no_grad".into(),
        },
        alloc(100, 4000, Category::Other),
        alloc(101, 400, Category::Other),
        EventKind::StorageFreed { storage: 100 },
        EventKind::GradModeExited {
            mode: "no_grad".into(),
        },
    ]
}

fn facts(trace: &[Event]) -> RunFacts {
    RunFacts::of(&MemoryRecord::of(trace), "cpu", &TrainingSeries::of(trace))
}

#[test]
fn compare_facts_of_each_run() {
    let with_graph = facts(&events(graph_run(2)));
    assert_eq!(
        with_graph,
        RunFacts {
            events: 21,
            nodes: 2,
            // The parameter, the saved input and the result at once.
            peak_bytes: 4000 + 4000 + 400,
            saved_bytes: 4000,
            steps: 2,
            final_loss: Some(0.5),
        }
    );
    let without = facts(&events(no_grad_run()));
    assert_eq!(
        without,
        RunFacts {
            events: 6,
            nodes: 0,
            peak_bytes: 8400,
            saved_bytes: 0,
            steps: 0,
            final_loss: None,
        }
    );
}

#[test]
fn compare_peak_text_as_the_issue_writes_it() {
    let run = |peak_bytes| RunFacts {
        peak_bytes,
        ..RunFacts::default()
    };
    let c = Comparison {
        pinned: run(502 * 1024),
        current: run(374 * 1024),
    };
    assert_eq!(c.peak_text(), "peak 502 KiB → 374 KiB, -25%");
    let grown = Comparison {
        pinned: run(1024),
        current: run(1536),
    };
    assert_eq!(grown.peak_text(), "peak 1 KiB → 1.5 KiB, +50%");
    let first = Comparison {
        pinned: run(0),
        current: run(64),
    };
    assert_eq!(first.peak_text(), "peak 0 B → 64 B, new");
}

#[test]
fn compare_rows_side_by_side() {
    // A run that kept its graph for a step, then the same forward under
    // no_grad: the saved bytes and the node go; the peak stays, the input
    // held as a temporary until the result is made.
    let c = Comparison {
        pinned: facts(&events(graph_run(1))),
        current: facts(&events(no_grad_run())),
    };
    let rows: Vec<(&str, String, String, String)> = c
        .rows()
        .into_iter()
        .map(|r| (r.label, r.pinned, r.current, r.change))
        .collect();
    let row = |l, a: &str, b: &str, d: &str| (l, a.to_string(), b.to_string(), d.to_string());
    assert_eq!(
        rows,
        [
            row("peak", "8.2 KiB", "8.2 KiB", "same"),
            row("saved for backward", "3.9 KiB", "0 B", "-100%"),
            row("graph nodes", "1", "0", "-100%"),
            row("events", "11", "6", "-45%"),
            row("steps", "1", "0", "-100%"),
        ]
    );
    // Two training runs: the last losses compared too.
    let c = Comparison {
        pinned: facts(&events(graph_run(2))),
        current: facts(&events(graph_run(4))),
    };
    let last = c.rows().pop().unwrap();
    assert_eq!(
        (last.label, last.pinned, last.current, last.change),
        ("last loss", "0.5".into(), "0.25".into(), "-50%".into())
    );
}

#[test]
fn compare_change_labels() {
    assert_eq!(change_label(502.0, 374.0), "-25%");
    assert_eq!(change_label(374.0, 502.0), "+34%");
    assert_eq!(change_label(1000.0, 1004.0), "+0.4%");
    assert_eq!(change_label(100_000.0, 100_001.0), "+<0.1%");
    assert_eq!(change_label(5.0, 5.0), "same");
    assert_eq!(change_label(0.0, 0.0), "same");
    assert_eq!(change_label(0.0, 3.0), "new");
    assert_eq!(change_label(3.0, 0.0), "-100%");
    assert_eq!(change_label(-2.0, -1.0), "+50%");
    assert_eq!(change_label(f64::NAN, 1.0), "n/a");
}

#[test]
fn compare_overlay_shares_one_frame() {
    let long = events(graph_run(2)); // 21 events, peak 8400 B
    let mut short_kinds = no_grad_run();
    // A bigger peak in the shorter run: the vertical axis is its.
    short_kinds.push(alloc(102, 20_000, Category::Other));
    let short = events(short_kinds); // 7 events, peak 24_400 B
    let (long_record, short_record) = (MemoryRecord::of(&long), MemoryRecord::of(&short));
    let overlay = MemoryOverlay::of(
        &short_record,
        "cpu",
        &long_record,
        Axis::Events,
        210.0,
        100.0,
    );
    let (current, pinned) = (&overlay.current, &overlay.pinned);
    // The longer run sets the width: 21 events on 210 units, 10 each.
    assert_eq!(current.end_label, "21 events");
    assert_eq!(pinned.end_label, "21 events");
    // The higher peak sets the height, the same for both.
    assert_eq!(current.top_bytes, 32_768);
    assert_eq!(pinned.top_bytes, 32_768);
    // This run's peak after its seventh event, at x 70; the pinned run's
    // after its fifth (parameter, input, its node and recategorising,
    // result), at x 50.
    let at = |c: &gradscope_trace::memory_chart::MemoryChart| {
        c.peak.as_ref().map(|p| (p.bytes, p.x, p.position))
    };
    assert_eq!(at(current), Some((24_400, 70.0, 7)));
    assert_eq!(at(pinned), Some((8400, 50.0, 5)));
    // The pinned outline: its total as steps across the whole width, on
    // the shared 32 KiB axis (4000 B is 12.2 units of 100 up; each step
    // 4000, 8000, 8400, then 4400 after backward frees the input).
    assert_eq!(
        pinned.outline,
        "M0.0,100.0H10.0V87.8H20.0V75.6H50.0V74.4H90.0V86.6H110.0V87.8\
         H120.0V75.6H150.0V74.4H190.0V86.6H210.0V87.8"
    );
    // Its marks on the shared axis: the two backwards at events 6 and 16.
    let backward = pinned
        .markers
        .iter()
        .find(|m| m.kind.label() == "backward")
        .unwrap();
    assert_eq!(backward.xs, vec![60.0, 160.0]);
    // On the time axis the longer time sets the width: 200 us.
    let timed = MemoryOverlay::of(&short_record, "cpu", &long_record, Axis::Time, 200.0, 100.0);
    assert_eq!(timed.current.end_label, "200 us");
    assert_eq!(timed.current.peak.map(|p| p.x), Some(60.0));
}

#[test]
fn compare_overlay_alone_matches_the_chart() {
    // A run compared with nothing (an empty pinned run) draws as it does
    // alone.
    let trace = events(graph_run(3));
    let record = MemoryRecord::of(&trace);
    let overlay = MemoryOverlay::of(
        &record,
        "cpu",
        &MemoryRecord::default(),
        Axis::Events,
        300.0,
        80.0,
    );
    let alone =
        gradscope_trace::memory_chart::MemoryChart::of_record(&record, Axis::Events, 300.0, 80.0);
    assert_eq!(overlay.current, alone);
    assert!(overlay.pinned.peak.is_none() && overlay.pinned.outline.is_empty());
}

#[test]
fn compare_pinned_ledger_and_steps() {
    let gpu = events(vec![
        alloc(1, 16, Category::Other),
        EventKind::StorageAllocated {
            storage: 2,
            bytes: 64,
            device: "webgpu".into(),
            category: Category::Other,
        },
    ]);
    let record = MemoryRecord::of(&gpu);
    assert_eq!(matching_ledger(&record, "cpu"), "cpu");
    assert_eq!(matching_ledger(&record, "webgpu:0"), "webgpu");
    let cpu_only = MemoryRecord::of(&events(no_grad_run()));
    assert_eq!(matching_ledger(&cpu_only, "webgpu"), "cpu");
    let (two, four) = (
        TrainingSeries::of(&events(graph_run(2))),
        TrainingSeries::of(&events(graph_run(4))),
    );
    assert_eq!(
        (shared_steps(&two, &four), shared_steps(&four, &two)),
        (4, 4)
    );
}
