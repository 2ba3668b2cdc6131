//! Every claim points at a moment the learner's run reaches: run with the
//! claim's `shown_with` controls, its moment is found in the trace, and it
//! is the moment the claim's measurement names (the span's peak equals the
//! peak the measurements report, an end is the span's end, and so on).

use std::collections::BTreeMap;

use gradscope_lessons::{
    ControlValue, Lesson, Measurements, Moment, NativeRunner, RunRecord, Runner, lessons,
};
use gradscope_trace::memory::MemoryTracker;
use gradscope_trace::{Category, EventKind};

/// The lesson's program with `values` (Python literals) set.
fn program(lesson: &Lesson, values: &[(&str, &str)]) -> Result<String, String> {
    let mut parsed: Vec<(&str, ControlValue)> = vec![];
    for (name, literal) in values {
        let control = lesson
            .control(name)
            .ok_or_else(|| format!("{}: no control {name}", lesson.slug))?;
        let value = ControlValue::parse(control.kind, literal)
            .ok_or_else(|| format!("{}: {name} = {literal} is not a value", lesson.slug))?;
        parsed.push((name, value));
    }
    lesson.with_controls(&parsed).map_err(|e| e.to_string())
}

/// Live bytes after the first `position` events.
fn bytes_at(record: &RunRecord, position: usize) -> [u64; 5] {
    let mut memory = MemoryTracker::default();
    for event in &record.events[..position] {
        memory.apply(event);
    }
    memory.bytes()
}

/// Whether the moment found at `position` is the one `moment` names.
fn agrees(moment: Moment, record: &RunRecord, position: usize) -> Result<(), String> {
    let measured = Measurements::of(&record.events, record.error.clone());
    let event = &record.events[position - 1].kind;
    let bytes = bytes_at(record, position);
    let saved = bytes[Category::SavedForBackward as usize];
    let phase = |name| measured.phase(name).map_err(|e| e.to_string());
    let ok = match moment {
        Moment::Peak(span) => bytes.iter().sum::<u64>() == phase(span)?.peak_total,
        Moment::SavedPeak(span) => saved == phase(span)?.saved_peak(),
        Moment::ActivationPeak(span) => {
            saved + bytes[Category::Other as usize] == phase(span)?.peak_activation
        }
        Moment::End(span) | Moment::LastEnd(span) => {
            matches!(event, EventKind::RangeEnded { name } if name == span)
        }
        Moment::Backward(_) | Moment::LastBackward(_) => {
            matches!(event, EventKind::BackwardEnded)
        }
        Moment::Node(node) => matches!(event, EventKind::NodeCreated { name, .. } if name == node),
        Moment::Raised => record.error.is_some() && position == record.events.len(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("event {position} is {event:?}, bytes {bytes:?}"))
    }
}

#[test]
fn moments_found_for_every_claim() {
    let mut runner = NativeRunner::new();
    let mut runs: BTreeMap<String, RunRecord> = BTreeMap::new();
    let mut wrong = vec![];
    let mut found = 0;
    for lesson in lessons() {
        for claim in lesson.claims {
            let source = program(lesson, claim.shown_with).unwrap();
            let record = runs
                .entry(source.clone())
                .or_insert_with(|| runner.run(&source, lesson.files));
            let raised = record.error.is_some();
            match claim.at.position(&record.events, raised) {
                None => wrong.push(format!("{}: {:?} not found", lesson.slug, claim.at)),
                Some(position) => match agrees(claim.at, record, position) {
                    Ok(()) => found += 1,
                    Err(why) => wrong.push(format!("{}: {:?}: {why}", lesson.slug, claim.at)),
                },
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(found >= 44, "{found} claims' moments found");
}

#[test]
fn moment_not_in_a_run_without_its_span_or_exception() {
    let lesson = gradscope_lessons::find("retain-graph").expect("lesson");
    let record = NativeRunner::new().run(lesson.program, lesson.files);
    assert!(record.error.is_none());
    assert_eq!(Moment::Raised.position(&record.events, false), None);
    assert_eq!(
        Moment::End("no such span").position(&record.events, false),
        None
    );
    // The first backward's end comes before the second's.
    let first = Moment::Backward("first backward").position(&record.events, false);
    let second = Moment::Backward("second backward").position(&record.events, false);
    assert!(
        matches!((first, second), (Some(a), Some(b)) if a < b),
        "{first:?} {second:?}"
    );
}
