//! The chart's tests: marks, peaks, bands, spans, thinning, zoom, ledgers
//! and labels, on small traces written out here.

use super::paths::Step;
use super::*;
use crate::event::{Category, Event, EventKind};
use crate::memory_zoom::Zoom;

fn ev(seq: u64, kind: EventKind) -> Event {
    Event {
        seq,
        time_us: seq * 100,
        line: None,
        kind,
    }
}

fn alloc(storage: u64, bytes: u64, category: Category) -> EventKind {
    EventKind::StorageAllocated {
        storage,
        bytes,
        device: "cpu".into(),
        category,
    }
}

/// Forward saves 64 bytes, backward releases them and makes a gradient.
fn trace() -> Vec<Event> {
    let kinds = vec![
        alloc(1, 16, Category::Other),
        alloc(2, 64, Category::Other),
        EventKind::StorageRecategorised {
            storage: 2,
            category: Category::SavedForBackward,
        },
        EventKind::BackwardBegan {
            root: 1,
            retain_graph: false,
        },
        alloc(3, 16, Category::Gradient),
        EventKind::StorageFreed { storage: 2 },
        EventKind::BackwardEnded,
        EventKind::GradModeEntered {
            mode: "no_grad".into(),
        },
        EventKind::OpCalled {
            op: "add".into(),
            shape: vec![],
        },
        EventKind::GradModeExited {
            mode: "no_grad".into(),
        },
    ];
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, k)| ev(i as u64, k))
        .collect()
}

fn tenths(xs: &[f64]) -> Vec<f64> {
    xs.iter().map(|x| (x * 10.0).round() / 10.0).collect()
}

#[test]
fn chart_marks_forward_backward_step_and_zero_grad() {
    let node = |id| EventKind::NodeCreated {
        node: id,
        name: "MulBackward0".into(),
        sequence_nr: id,
        next: vec![],
        saved: vec![],
        leaf: None,
    };
    let backward = || EventKind::BackwardBegan {
        root: 1,
        retain_graph: false,
    };
    let step = || EventKind::OptimizerStep {
        optimizer: "SGD".into(),
        updated: 1,
    };
    let zero = || EventKind::ZeroGrad { set_to_none: true };
    let mut kinds = vec![];
    for _ in 0..2 {
        // Two nodes are one forward; a node made inside backward (an
        // AccumulateGrad) and a nested backward are not marked again.
        kinds.extend([
            node(1),
            node(2),
            backward(),
            node(3),
            backward(),
            EventKind::BackwardEnded,
            EventKind::BackwardEnded,
            step(),
            zero(),
        ]);
    }
    let events: Vec<Event> = kinds
        .into_iter()
        .enumerate()
        .map(|(i, k)| ev(i as u64, k))
        .collect();
    let chart = MemoryChart::of(&events, Axis::Events, 180.0, 50.0);
    let marks: Vec<(&str, Vec<f64>, usize)> = chart
        .markers
        .iter()
        .map(|m| (m.kind.label(), tenths(&m.xs), m.count))
        .collect();
    // 18 events on 180 units: event i starts at 10 * i.
    assert_eq!(
        marks,
        [
            ("forward", vec![0.0, 90.0], 2),
            ("backward", vec![20.0, 110.0], 2),
            ("step", vec![70.0, 160.0], 2),
            ("zero_grad", vec![80.0, 170.0], 2),
        ]
    );
    // Narrower than the gap: the second of each kind joins the first.
    let narrow = MemoryChart::of(&events, Axis::Events, 5.0, 50.0);
    assert!(
        narrow
            .markers
            .iter()
            .all(|m| m.xs.len() == 1 && m.count == 2)
    );
    // No optimizer, no graph: no marks.
    let plain = MemoryChart::of(&trace()[..3], Axis::Events, 100.0, 50.0);
    assert!(plain.markers.is_empty());
    // The time axis places them by time.
    let timed = MemoryChart::of(&events, Axis::Time, 170.0, 50.0);
    assert_eq!(tenths(&timed.markers[2].xs), vec![70.0, 160.0]);
}

#[test]
fn chart_peak_is_highest_total() {
    let t = trace();
    let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
    let peak = chart.peak.clone();
    assert_eq!(peak.as_ref().map(|p| (p.bytes, p.position)), Some((96, 5)));
    // 96 bytes of a 100-byte axis: near the top; 5 of 10 events along.
    assert!(peak.is_some_and(|p| (p.x - 50.0).abs() < 1e-9 && (p.y - 2.0).abs() < 1e-9));
    assert_eq!(chart.top_bytes, 100);
    let labels: Vec<&str> = chart.ticks.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels, ["0 B", "50 B", "100 B"]);
}

#[test]
fn chart_of_nothing_held_has_two_ticks() {
    let chart = MemoryChart::of(&[], Axis::Events, 200.0, 100.0);
    let labels: Vec<&str> = chart.ticks.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels, ["0 B", "1 B"]);
}

#[test]
fn chart_bands_for_held_categories_only() {
    let t = trace();
    let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
    let peaks: Vec<(Category, u64, bool)> = chart
        .bands
        .iter()
        .map(|b| (b.category, b.peak_bytes, b.path.is_empty()))
        .collect();
    assert_eq!(
        peaks,
        [
            (Category::Parameter, 0, true),
            (Category::Gradient, 16, false),
            (Category::OptimizerState, 0, true),
            (Category::SavedForBackward, 64, false),
            (Category::Other, 80, false),
        ]
    );
    let saved = &chart.bands[3].path;
    assert!(
        saved.starts_with("M0.0,50.0") && saved.ends_with('Z'),
        "{saved}"
    );
}

#[test]
fn chart_spans_for_backward_and_grad_mode() {
    let t = trace();
    let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
    let spans: Vec<(&str, f64, f64)> = chart
        .spans
        .iter()
        .map(|s| (s.kind.label(), s.x0, s.x1))
        .collect();
    assert_eq!(spans, [("backward", 30.0, 70.0), ("no_grad", 70.0, 100.0)]);
    assert_eq!(chart.end_label, "10 events");
}

#[test]
fn chart_leaves_out_grad_modes_inside_backward() {
    let kinds = [
        EventKind::GradModeEntered {
            mode: "no_grad".into(),
        },
        EventKind::BackwardBegan {
            root: 1,
            retain_graph: false,
        },
        EventKind::GradModeEntered {
            mode: "no_grad".into(),
        },
        EventKind::GradModeExited {
            mode: "no_grad".into(),
        },
        EventKind::BackwardEnded,
        EventKind::GradModeExited {
            mode: "no_grad".into(),
        },
    ];
    let t: Vec<Event> = kinds
        .into_iter()
        .enumerate()
        .map(|(i, k)| ev(i as u64, k))
        .collect();
    let chart = MemoryChart::of(&t, Axis::Events, 60.0, 50.0);
    let spans: Vec<(&str, f64, f64, usize)> = chart
        .spans
        .iter()
        .map(|s| (s.kind.label(), s.x0, s.x1, s.depth))
        .collect();
    assert_eq!(
        spans,
        [("no_grad", 0.0, 60.0, 0), ("backward", 10.0, 50.0, 1)]
    );
    assert_eq!(duration_label(850), "850 us");
    assert_eq!(duration_label(1_250), "1.2 ms");
    assert_eq!(duration_label(3_400_000), "3.4 s");
}

#[test]
fn chart_open_span_runs_to_the_edge() {
    let t = trace();
    let chart = MemoryChart::of(&t[..5], Axis::Events, 100.0, 50.0);
    assert_eq!(chart.spans.len(), 1);
    assert_eq!(chart.spans[0].x1, 100.0);
}

#[test]
fn chart_time_axis_and_cursor() {
    let t = trace();
    let chart = MemoryChart::of(&t, Axis::Time, 90.0, 50.0);
    // Times run 0..=900 us over 90 units: event i sits at x = 10 i.
    assert_eq!(chart.cursor_x(&t[..], 0), 0.0);
    assert_eq!(chart.cursor_x(&t[..], 4), 30.0);
    assert!(chart.peak.is_some_and(|p| p.x == 40.0));
    let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
    assert_eq!(chart.cursor_x(&t[..], 4), 40.0);
}

#[test]
fn chart_thins_long_traces_keeping_the_peak() {
    let mut events = Vec::new();
    for i in 0..10_000u64 {
        let bytes = if i == 7_777 { 1 << 20 } else { 8 };
        events.push(ev(2 * i, alloc(i, bytes, Category::Other)));
        events.push(ev(2 * i + 1, EventKind::StorageFreed { storage: i }));
    }
    let chart = MemoryChart::of(&events, Axis::Events, 200.0, 50.0);
    assert_eq!(chart.peak.as_ref().map(|p| p.bytes), Some(1 << 20));
    let path = &chart.bands[4].path;
    let vertices = path.matches(['H', 'V']).count();
    assert!(vertices < 2_000, "{vertices} vertices");
    // The peak's step reaches the top of the box.
    assert!(path.contains("V0.0"), "peak missing");
}

/// A path's outline as the corners it turns at: every command's end
/// point, with repeated points and points mid-way along a straight
/// horizontal or vertical stretch left out.
fn corners(path: &str) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = Vec::new();
    let (mut x, mut y) = (0.0, 0.0);
    let mut rest = path;
    while let Some(command) = rest.chars().next() {
        let end = rest[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(rest.len(), |e| e + 1);
        let args: Vec<f64> = rest[1..end]
            .split(',')
            .filter(|a| !a.is_empty())
            .map(|a| a.parse().unwrap())
            .collect();
        match command {
            'M' | 'L' => (x, y) = (args[0], args[1]),
            'H' => x = args[0],
            'V' => y = args[0],
            'Z' => {}
            other => panic!("unexpected command {other}"),
        }
        if points.last() != Some(&(x, y)) {
            points.push((x, y));
        }
        rest = &rest[end..];
    }
    let mut kept: Vec<(f64, f64)> = Vec::new();
    for p in points {
        while kept.len() >= 2 {
            let (a, b) = (kept[kept.len() - 2], kept[kept.len() - 1]);
            let straight = (a.0 == b.0 && b.0 == p.0) || (a.1 == b.1 && b.1 == p.1);
            if !straight {
                break;
            }
            kept.pop();
        }
        if kept.last() != Some(&p) {
            kept.push(p);
        }
    }
    kept
}

#[test]
fn bands_outline_the_steps_of_their_samples() {
    let mut events = trace();
    // A longer run, thinned, with level stretches and steps up and down.
    for i in 0..3_000u64 {
        let storage = 100 + i;
        let bytes = 8 * (1 + (i * 7919) % 13);
        events.push(ev(0, alloc(storage, bytes, Category::SavedForBackward)));
        if i % 3 != 0 {
            events.push(ev(0, EventKind::StorageFreed { storage }));
        }
    }
    for (i, e) in events.iter_mut().enumerate() {
        (e.seq, e.time_us) = (i as u64, i as u64);
    }
    let record = MemoryRecord::of(&events);
    let chart = MemoryChart::of_record(&record, Axis::Events, 300.0, 50.0);
    let ledger = &record.ledgers[0];
    let steps = chart.steps(&ledger.samples);
    for (k, band) in chart.bands.iter().enumerate() {
        if band.path.is_empty() {
            continue;
        }
        // The outline as corners (`L x,y` for each), the band's definition.
        let top = |s: &Step| chart.y(s.stack[k]);
        let bottom = |s: &Step| chart.y(if k == 0 { 0 } else { s.stack[k - 1] });
        let mut expected = format!("M0.0,{}", chart.height);
        let mut corner = |x: f64, y: f64| {
            expected += &format!("L{},{}", crate::svg::tenths(x), crate::svg::tenths(y))
        };
        for (i, step) in steps.iter().enumerate() {
            if i > 0 {
                corner(step.x, top(&steps[i - 1]));
            }
            corner(step.x, top(step));
        }
        let last = steps.last().unwrap();
        corner(chart.width, top(last));
        corner(chart.width, bottom(last));
        for (i, step) in steps.iter().enumerate().rev() {
            corner(step.x, bottom(step));
            if i > 0 {
                corner(step.x, bottom(&steps[i - 1]));
            }
        }
        assert_eq!(corners(&band.path), corners(&expected), "band {k}");
        assert!(
            band.path.len() < expected.len() / 2,
            "band {k} is written shorter"
        );
    }
    let saved = corners(&chart.bands[3].path).len();
    assert!(
        saved > 300,
        "the saved band steps up and down: {saved} corners"
    );
}

#[test]
fn chart_zoomed_shows_its_stretch() {
    let t = trace();
    let record = MemoryRecord::of(&t);
    // Events 3 to 7 of 10 across 100 units: 25 a position.
    let zoom = Zoom::new(0.3, 0.7);
    let size = (100.0, 50.0);
    let chart =
        MemoryChart::of_ledger_zoomed(&record, "cpu", Axis::Events, size, Frame::default(), zoom);
    let whole = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
    // The bytes axis is the whole run's.
    assert_eq!(chart.top_bytes, whole.top_bytes);
    // Backward (events 3 to 6) fills the box; no_grad (7 on) is cut out.
    let spans: Vec<(&str, f64, f64)> = chart
        .spans
        .iter()
        .map(|s| (s.kind.label(), s.x0, s.x1))
        .collect();
    assert_eq!(spans, [("backward", 0.0, 100.0)]);
    // The peak after event 5 is mid-box; the cursor at 2 is not shown.
    assert!(
        chart
            .peak
            .as_ref()
            .is_some_and(|p| (p.x - 50.0).abs() < 1e-9)
    );
    assert!(!chart.shows(chart.cursor_x(&t[..], 2)));
    assert!(chart.shows(chart.cursor_x(&t[..], 4)));
    // The saved band starts at the 64 bytes held when the stretch
    // begins (y 50 - 64 / 100 * 50 = 18 over the 16 bytes below it).
    assert!(
        chart.bands[3].path.starts_with("M0.0,50.0V18.0"),
        "{}",
        chart.bands[3].path
    );
    assert_eq!(
        (chart.start_label.as_str(), chart.end_label.as_str()),
        ("event 3", "event 7 of 10")
    );
    let timed =
        MemoryChart::of_ledger_zoomed(&record, "cpu", Axis::Time, size, Frame::default(), zoom);
    assert_eq!(
        (timed.start_label.as_str(), timed.end_label.as_str()),
        ("270 us", "630 us of 900 us")
    );
}

#[test]
fn chart_of_empty_trace() {
    let empty: Vec<Event> = vec![];
    let chart = MemoryChart::of(&empty, Axis::Events, 100.0, 50.0);
    assert!(chart.peak.is_none());
    assert!(chart.bands.iter().all(|b| b.path.is_empty()));
    assert!(chart.spans.is_empty());
}

#[test]
fn chart_draws_one_ledger_with_its_reserve() {
    let alloc = |storage, bytes, device: &'static str| EventKind::StorageAllocated {
        storage,
        bytes,
        device: device.into(),
        category: Category::Other,
    };
    let reserve = |bytes| EventKind::DeviceReserved {
        device: "webgpu:0".into(),
        bytes,
    };
    let events: Vec<Event> = [
        alloc(1, 100, "cpu"),
        alloc(2, 300, "webgpu"),
        reserve(500),
        EventKind::StorageFreed { storage: 1 },
        alloc(3, 600, "webgpu"),
        reserve(1000),
        EventKind::StorageFreed { storage: 3 },
        EventKind::ZeroGrad { set_to_none: true },
    ]
    .into_iter()
    .enumerate()
    .map(|(i, k)| ev(i as u64, k))
    .collect();
    let record = MemoryRecord::of(&events);
    assert_eq!(record.devices(), ["cpu", "webgpu"]);
    assert_eq!(record.main_device(), Some("webgpu"));
    let gpu = MemoryChart::of_ledger(&record, "webgpu:0", Axis::Events, 80.0, 50.0);
    assert_eq!(gpu.device.as_deref(), Some("webgpu"));
    // The GPU's own peak, at the event that reached it (the fifth).
    let peak = gpu.peak.clone().unwrap();
    assert_eq!((peak.bytes, peak.position), (900, 5));
    // The reserve is above every allocated byte: the box fits it.
    assert_eq!(gpu.top_bytes, 1000);
    let reserved = gpu.reserved.clone().unwrap();
    assert_eq!((reserved.peak_bytes, reserved.end_y), (1000, 0.0));
    // Zero until the third event, 500 bytes (y 25), then the top.
    assert_eq!(reserved.path, "M0.0,50.0H30.0V25.0H60.0V0.0H80.0");
    // Markers and the event axis are the whole trace's.
    assert_eq!(gpu.end_label, "8 events");
    assert_eq!(gpu.markers.len(), 1);
    let cpu = MemoryChart::of_ledger(&record, "cpu", Axis::Events, 80.0, 50.0);
    assert_eq!(cpu.peak.map(|p| (p.bytes, p.position)), Some((100, 1)));
    assert_eq!((cpu.reserved, cpu.top_bytes), (None, 100));
    assert_eq!(cpu.markers, gpu.markers);
    // The default is the main device's.
    let default = MemoryChart::of_record(&record, Axis::Events, 80.0, 50.0);
    assert_eq!(default.device.as_deref(), Some("webgpu"));
    let none = MemoryChart::of_ledger(&record, "cuda:0", Axis::Events, 80.0, 50.0);
    assert!(none.device.is_none() && none.peak.is_none());
}

#[test]
fn chart_byte_labels_and_ceilings() {
    assert_eq!(bytes_label(0), "0 B");
    assert_eq!(bytes_label(1023), "1023 B");
    assert_eq!(bytes_label(1536), "1.5 KiB");
    assert_eq!(bytes_label(2 << 20), "2 MiB");
    assert_eq!(nice_ceiling(0), 1);
    assert_eq!(nice_ceiling(96), 100);
    assert_eq!(nice_ceiling(150), 200);
    assert_eq!(nice_ceiling(1000), 1000);
    assert_eq!(nice_ceiling(1536), 2048);
    assert_eq!(nice_ceiling(607_236), 1 << 20);
}

/// The README's picture (1600x1000): a pinned run peaking at 117.9 KiB
/// on a 128 KiB axis, three `no_grad` validations labelled in the row at
/// the plot's top, the last near the right end, where the pinned peak's
/// label used to print over `no_grad`. At 1280x800 the plot is narrower.
#[test]
fn peak_labels_clear_the_span_labels() {
    use crate::training_charts::span_layers;
    let char_width = |t: &str| 6.0 * t.chars().count() as f64;
    for width in [362.0, 290.0, 200.0] {
        let height = 92.0;
        let top = 128.0 * 1024.0;
        let y = |bytes: f64| height - bytes / top * height;
        let peak = |x: f64, bytes: u64| Peak {
            x,
            y: y(bytes as f64),
            bytes,
            position: 1,
        };
        let chart = MemoryChart {
            width,
            height,
            top_bytes: top as u64,
            peak: Some(peak(width * 0.44, 33_178)),
            ..MemoryChart::default()
        };
        let pinned = MemoryChart {
            peak: Some(peak(width * 0.1, 120_730)),
            ..chart.clone()
        };
        let spans: Vec<Span> = [0.06, 0.39, 0.68]
            .iter()
            .map(|&f| Span {
                kind: SpanKind::GradMode("no_grad".into()),
                x0: width * f,
                x1: width * (f + 0.25),
                depth: 0,
            })
            .collect();
        let layers = span_layers(&spans, height, 1.0, char_width);
        let mut taken: Vec<LabelBox> = layers
            .iter()
            .flat_map(|l| {
                l.labels
                    .iter()
                    .map(|&(x, y)| LabelBox::of_text(x, y, char_width(&l.label), false))
            })
            .collect();
        assert_eq!(taken.len(), 3, "each no_grad labelled at {width}");
        // The change written over the plot.
        taken.push(LabelBox::of_text(
            0.0,
            -5.0,
            char_width("peak 117.9 KiB → 32.4 KiB, -73%"),
            false,
        ));
        // Where the pinned label used to go meets the last span's label.
        let old = LabelBox::of_text(width - 2.0, 9.0, char_width("pinned 117.9 KiB"), true);
        assert!(
            taken.iter().any(|t| t.overlaps(&old)),
            "the case at {width}"
        );
        let labels = peak_labels(&chart, Some(&pinned), &taken, char_width);
        let (current, pinned) = (labels.current.unwrap(), labels.pinned.unwrap());
        assert_eq!(
            (current.text.as_str(), pinned.text.as_str()),
            ("peak 32.4 KiB", "pinned 117.9 KiB")
        );
        let mut all = taken.clone();
        all.extend([current.bounds, pinned.bounds]);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} meets {b:?} at width {width}");
            }
        }
        // Both stay in the plot, the pinned one by its ruler's right end.
        for l in [&current, &pinned] {
            assert!(l.bounds.x0 >= -1.0 && l.bounds.x1 <= width + 1.0, "{l:?}");
            assert!(l.bounds.y1 <= height + LABEL_DESCENT, "{l:?}");
        }
        assert!(pinned.end && pinned.x == width - 2.0, "{pinned:?}");
    }
}

/// A label that fits nowhere takes the place it overlaps least; one with
/// room keeps the usual place (over its ruler, at the right end).
#[test]
fn peak_labels_keep_the_usual_place_with_room() {
    let char_width = |t: &str| 6.0 * t.chars().count() as f64;
    let chart = MemoryChart {
        width: 300.0,
        height: 90.0,
        top_bytes: 1000,
        peak: Some(Peak {
            x: 100.0,
            y: 45.0,
            bytes: 500,
            position: 1,
        }),
        ..MemoryChart::default()
    };
    let pinned = MemoryChart {
        peak: Some(Peak {
            x: 50.0,
            y: 30.0,
            bytes: 666,
            position: 1,
        }),
        ..chart.clone()
    };
    let labels = peak_labels(&chart, Some(&pinned), &[], char_width);
    let current = labels.current.unwrap();
    assert_eq!((current.x, current.y, current.end), (100.0, 39.0, false));
    let pinned_label = labels.pinned.unwrap();
    assert_eq!(
        (pinned_label.x, pinned_label.y, pinned_label.end),
        (298.0, 27.0, true)
    );
    // The whole plot taken: still placed, where it overlaps least.
    let everything = LabelBox {
        x0: -10.0,
        y0: -20.0,
        x1: 310.0,
        y1: 100.0,
    };
    let labels = peak_labels(&chart, Some(&pinned), &[everything], char_width);
    assert!(labels.current.is_some() && labels.pinned.is_some());
    // A peak outside a zoomed stretch has no label; the pinned one keeps its ruler's.
    let zoomed_out = MemoryChart {
        peak: Some(Peak {
            x: -5.0,
            ..chart.peak.clone().unwrap()
        }),
        ..chart.clone()
    };
    let labels = peak_labels(&zoomed_out, Some(&pinned), &[], char_width);
    assert!(labels.current.is_none() && labels.pinned.is_some());
}
