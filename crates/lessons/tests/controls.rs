//! Controls rewrite only their own assignment lines, and refuse values
//! they do not take.

use gradscope_lessons::{ControlKind, ControlValue, LessonError, find, lessons};

#[test]
fn controls_every_lesson_has_its_lines() {
    for lesson in lessons() {
        for control in lesson.controls {
            let value = lesson.default_value(control.name);
            assert!(
                value.is_ok(),
                "{}: {}: {value:?}",
                lesson.slug,
                control.name
            );
        }
        assert_eq!(
            lesson.with_controls(&[]).ok().as_deref(),
            Some(lesson.program)
        );
    }
}

#[test]
fn controls_rewrite_only_their_line() {
    let Some(lesson) = find("forgot-zero-grad") else {
        panic!("lesson missing")
    };
    let program = lesson
        .with_controls(&[
            ("ZERO_GRAD", ControlValue::Bool(false)),
            ("STEPS", ControlValue::Int(7)),
            ("LR", ControlValue::Float(0.5)),
        ])
        .unwrap();
    let before: Vec<&str> = lesson.program.lines().collect();
    let after: Vec<&str> = program.lines().collect();
    assert_eq!(before.len(), after.len());
    let changed: Vec<(&str, &str)> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
        .collect();
    assert_eq!(
        changed,
        vec![
            ("ZERO_GRAD = True", "ZERO_GRAD = False"),
            ("STEPS = 5", "STEPS = 7"),
            ("LR = 0.1", "LR = 0.5"),
        ]
    );
    // `if ZERO_GRAD:` further down is not an assignment and stays.
    assert!(program.contains("        if ZERO_GRAD:\n"));
}

#[test]
fn controls_choice_and_round_trip() {
    let Some(lesson) = find("no-grad-eval") else {
        panic!("lesson missing")
    };
    let program = lesson
        .with_controls(&[("MODE", ControlValue::Choice("inference_mode".into()))])
        .unwrap();
    assert!(program.contains("\nMODE = \"inference_mode\"\n"));
    assert_eq!(
        lesson.default_value("MODE"),
        Ok(ControlValue::Choice("no_grad".into()))
    );
    assert_eq!(
        ControlValue::parse(ControlKind::Float { min: 0.0, max: 1.0 }, "1"),
        Some(ControlValue::Float(1.0))
    );
    assert_eq!(ControlValue::Float(1.0).to_string(), "1.0");
}

#[test]
fn controls_refuse_bad_values() {
    let Some(lesson) = find("checkpointing") else {
        panic!("lesson missing")
    };
    assert!(matches!(
        lesson.with_controls(&[("SEGMENTS", ControlValue::Int(0))]),
        Err(LessonError::OutOfRange { .. })
    ));
    assert!(matches!(
        lesson.with_controls(&[("SEGMENTS", ControlValue::Bool(true))]),
        Err(LessonError::WrongKind { .. })
    ));
    assert!(matches!(
        lesson.with_controls(&[("NOPE", ControlValue::Int(1))]),
        Err(LessonError::UnknownControl { .. })
    ));
    let Some(no_grad) = find("no-grad-eval") else {
        panic!("lesson missing")
    };
    assert_eq!(
        no_grad
            .with_controls(&[("MODE", ControlValue::Choice("eval".into()))])
            .map_err(|e| e.to_string()),
        Err("MODE = \"eval\" is not one of the values it takes (one of grad, no_grad, inference_mode)".into())
    );
}

#[test]
fn lessons_are_fourteen_with_short_texts() {
    assert_eq!(lessons().len(), 14);
    for (i, lesson) in lessons().iter().enumerate() {
        assert_eq!(usize::from(lesson.number), i + 1);
        let words = lesson.text.split_whitespace().count();
        assert!(words < 250, "{}: {words} words", lesson.slug);
        assert!(!lesson.claims.is_empty(), "{}", lesson.slug);
    }
}

#[test]
fn controls_rewrite_the_learners_edited_program() {
    let Some(lesson) = find("forgot-zero-grad") else {
        panic!("lesson missing")
    };
    // The learner added a comment and a print; the checkbox keeps both.
    let edited = format!("# my notes\n{}print('done')\n", lesson.program);
    let next = lesson
        .set_controls_in(&edited, &[("ZERO_GRAD", ControlValue::Bool(false))])
        .unwrap();
    assert!(next.starts_with("# my notes\n"));
    assert!(next.ends_with("print('done')\n"));
    assert!(next.contains("\nZERO_GRAD = False\n"));
    assert_eq!(
        lesson.value_in(&next, "ZERO_GRAD").unwrap(),
        ControlValue::Bool(false)
    );
    // A deleted control line is an error the page can ignore, not a panic.
    let without: String = edited
        .lines()
        .filter(|l| !l.starts_with("ZERO_GRAD"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(matches!(
        lesson.set_controls_in(&without, &[("ZERO_GRAD", ControlValue::Bool(true))]),
        Err(LessonError::MissingLine { .. })
    ));
}
