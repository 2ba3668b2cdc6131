//! Measurements are a pure function of a hand-built trace.

use gradscope_lessons::{Measurements, RaisedError};
use gradscope_trace::{Category, Event, EventKind};

fn trace(kinds: Vec<EventKind>) -> Vec<Event> {
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Event {
            seq: i as u64,
            time_us: i as u64,
            line: Some(i as u32 + 1),
            kind,
        })
        .collect()
}

fn alloc(storage: u64, bytes: u64) -> EventKind {
    EventKind::StorageAllocated {
        storage,
        bytes,
        device: "cpu".into(),
        category: Category::Other,
    }
}

fn saved(storage: u64) -> EventKind {
    EventKind::StorageRecategorised {
        storage,
        category: Category::SavedForBackward,
    }
}

fn range(name: &str, begin: bool) -> EventKind {
    if begin {
        EventKind::RangeBegan { name: name.into() }
    } else {
        EventKind::RangeEnded { name: name.into() }
    }
}

fn op(name: &'static str) -> EventKind {
    EventKind::OpCalled {
        op: name.into(),
        shape: vec![2],
    }
}

fn grad(tensor: u64, accumulated: bool, values: Vec<f64>) -> [EventKind; 2] {
    let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
    [
        EventKind::GradAccumulated {
            tensor,
            accumulated,
        },
        EventKind::GradValue {
            tensor,
            shape: vec![values.len()],
            norm,
            values,
        },
    ]
}

fn backward(root_value: f64, grads: Vec<[EventKind; 2]>) -> Vec<EventKind> {
    let mut kinds = vec![
        EventKind::BackwardRoot {
            numel: 1,
            value: Some(root_value),
        },
        EventKind::BackwardBegan {
            root: 1,
            retain_graph: false,
        },
    ];
    kinds.extend(grads.into_iter().flatten());
    kinds.push(EventKind::BackwardEnded);
    kinds
}

#[test]
fn measure_phases_peaks_and_saved_bytes() {
    let mut kinds = vec![
        alloc(1, 64),
        range("forward", true),
        alloc(2, 16),
        saved(2),
        op("mul"),
        alloc(3, 32),
        saved(3),
        range("forward", false),
        range("backward", true),
    ];
    kinds.extend(backward(27.0, vec![grad(7, false, vec![4.5, 4.5])]));
    kinds.extend([
        EventKind::StorageFreed { storage: 2 },
        EventKind::StorageFreed { storage: 3 },
        range("backward", false),
    ]);
    let m = Measurements::of(&trace(kinds), None);
    let forward = m.phase("forward").unwrap();
    assert_eq!(forward.begin[4], 64);
    assert_eq!(forward.saved_at_end(), 48);
    assert_eq!(forward.saved_peak(), 48);
    assert_eq!(forward.peak_total, 112);
    assert_eq!(forward.peak_activation, 112);
    assert_eq!(forward.ops, 1);
    let back = m.phase("backward").unwrap();
    assert_eq!(back.saved_at_end(), 0);
    assert_eq!(back.backwards.len(), 1);
    assert_eq!(back.backwards[0].root_value, Some(27.0));
    assert_eq!(back.final_grads()[0].values, vec![4.5, 4.5]);
    assert_eq!(m.saved_peak(), 48);
    assert_eq!(m.end_total(), 64);
    assert!(m.finished().is_ok());
    assert!(m.phase("eval").is_err());
}

#[test]
fn measure_accumulation_norms_and_repeated_phases() {
    let mut kinds = vec![];
    for step in 0..3 {
        kinds.push(range("step", true));
        kinds.extend(backward(
            1.0 / f64::from(step + 1),
            vec![
                grad(1, step > 0, vec![3.0 * f64::from(step + 1)]),
                grad(2, step > 0, vec![4.0 * f64::from(step + 1)]),
            ],
        ));
        kinds.push(EventKind::OptimizerStep {
            optimizer: "SGD".into(),
            updated: 2,
        });
        kinds.push(range("step", false));
    }
    let m = Measurements::of(&trace(kinds), None);
    let norms: Vec<f64> = m
        .phases_named("step")
        .map(|p| p.backwards[0].grad_norm())
        .collect();
    assert_eq!(norms, vec![5.0, 10.0, 15.0]);
    assert_eq!(m.optimizer_steps, 3);
    let summed: Vec<bool> = m
        .backwards
        .iter()
        .flat_map(|b| b.grads.iter().map(|g| g.accumulated))
        .collect();
    assert_eq!(summed, vec![false, false, true, true, true, true]);
}

#[test]
fn measure_recomputation_inplace_values_and_errors() {
    let kinds = vec![
        range("train step", true),
        op("tanh"),
        op("mul_"),
        EventKind::BackwardBegan {
            root: 9,
            retain_graph: false,
        },
        op("mul"),
        EventKind::RecomputeBegan { checkpoint: 1 },
        op("tanh"),
        EventKind::NodeCreated {
            node: 5,
            name: "TanhBackward0".into(),
            sequence_nr: 3,
            next: vec![],
            saved: vec![],
            leaf: None,
        },
        EventKind::RecomputeEnded { checkpoint: 1 },
        EventKind::GradCaptured {
            input: 0,
            shape: vec![2],
            norm: 5.0,
            values: vec![3.0, 4.0],
        },
        EventKind::BackwardEnded,
        EventKind::ValueRead { value: 0.75 },
        EventKind::GradClipped {
            total_norm: 3.0,
            clipped_norm: 1.0,
            max_norm: 1.0,
        },
        // No RangeEnded: the error cut the phase short.
    ];
    let error = RaisedError {
        type_name: "RuntimeError".into(),
        message: "boom".into(),
        line: Some(3),
    };
    let m = Measurements::of(&trace(kinds), Some(error));
    let p = m.phase("train step").unwrap();
    assert_eq!(
        (p.ops, p.recomputed_ops, p.inplace_ops, p.forward_ops),
        (4, 1, 1, 2)
    );
    assert_eq!((m.ops, m.recomputed_ops, m.forward_ops), (4, 1, 2));
    assert!(!p.closed);
    assert_eq!(p.values_read, vec![0.75]);
    assert_eq!(m.node_lines, vec![("TanhBackward0".to_string(), Some(8))]);
    assert_eq!(m.backwards[0].captured[0].values, vec![3.0, 4.0]);
    assert!(m.backwards[0].grads.is_empty());
    assert_eq!(m.clips, vec![(3.0, 1.0, 1.0)]);
    assert!(m.finished().is_err());
}
