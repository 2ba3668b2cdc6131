//! The lessons' comparisons read their numbers out of the figures the
//! lessons measure: every figure gives the chart a row, and the numbers are
//! the figures' (a bytes figure's number is the bytes its text shows).

use gradscope_lessons::{ChartKind, NativeRunner, Runs, Unit, lessons};

#[test]
fn comparisons_read_every_figure() {
    let mut runner = NativeRunner::new();
    let mut charted = 0;
    for lesson in lessons().iter().filter(|l| !l.comparisons.is_empty()) {
        let figures = (lesson.figures)(&mut Runs::new(lesson, &mut runner))
            .unwrap_or_else(|e| panic!("{}: figures: {e}", lesson.slug));
        let figures: Vec<(String, String)> =
            figures.into_iter().map(|f| (f.label, f.value)).collect();
        assert!(
            figures.len() >= 2,
            "{}: a comparison of {figures:?}",
            lesson.slug
        );
        for comparison in lesson.comparisons {
            let rows = comparison.rows(&figures);
            assert_eq!(
                rows.len(),
                figures.len(),
                "{}: {} reads a row from each of {figures:?}",
                lesson.slug,
                comparison.title
            );
            for ((label, values), (figure, text)) in rows.iter().zip(&figures) {
                assert_eq!(label, figure);
                assert!(values.iter().all(|v| v.is_finite()), "{label}: {values:?}");
                match comparison.kind {
                    ChartKind::Lines => assert!(values.len() >= 2, "{label}: {values:?}"),
                    ChartKind::Bars { .. } => assert_eq!(values.len(), 1),
                }
                // A byte count is whole bytes, or KiB and MiB to the
                // figure's precision.
                if comparison.unit == Unit::Bytes {
                    assert!(
                        text.contains(" B") || text.contains("KiB") || text.contains("MiB"),
                        "{label}: {text} is not bytes"
                    );
                }
            }
            charted += 1;
        }
    }
    assert_eq!(charted, 12, "comparisons drawn");
}
