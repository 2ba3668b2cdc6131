//! Controls: reading and rewriting the `NAME = value` lines at the top of a
//! lesson's program, the only edit a control makes.

use std::fmt;

use crate::error::LessonError;
use crate::{Control, ControlKind, Lesson};

/// A control's value, written into the program as a Python literal.
#[derive(Clone, Debug, PartialEq)]
pub enum ControlValue {
    /// `True` / `False`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float (always written with a decimal point).
    Float(f64),
    /// One of a choice's strings, written in double quotes.
    Choice(String),
}

impl fmt::Display for ControlValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ControlValue::Bool(true) => f.write_str("True"),
            ControlValue::Bool(false) => f.write_str("False"),
            ControlValue::Int(v) => write!(f, "{v}"),
            // `{:?}` keeps the decimal point (`1.0`), so Python reads a float.
            ControlValue::Float(v) => write!(f, "{v:?}"),
            ControlValue::Choice(s) => write!(f, "\"{s}\""),
        }
    }
}

impl ControlValue {
    /// Reads a Python literal as a value of `kind` (`True`, `64`, `0.1`,
    /// `"no_grad"`), as the CLI and the program's own lines give them.
    pub fn parse(kind: ControlKind, text: &str) -> Option<ControlValue> {
        let text = text.trim();
        match kind {
            ControlKind::Bool => match text {
                "True" | "true" => Some(ControlValue::Bool(true)),
                "False" | "false" => Some(ControlValue::Bool(false)),
                _ => None,
            },
            ControlKind::Int { .. } => text.parse().ok().map(ControlValue::Int),
            ControlKind::Float { .. } => text.parse().ok().map(ControlValue::Float),
            ControlKind::Choice(_) => {
                let unquoted = text
                    .strip_prefix('"')
                    .and_then(|t| t.strip_suffix('"'))
                    .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
                    .unwrap_or(text);
                Some(ControlValue::Choice(unquoted.to_string()))
            }
        }
    }
}

/// What a control accepts, for error messages.
fn describe(kind: ControlKind) -> String {
    match kind {
        ControlKind::Bool => "True or False".into(),
        ControlKind::Int { min, max } => format!("an integer in {min}..={max}"),
        ControlKind::Float { min, max } => format!("a number in {min}..={max}"),
        ControlKind::Choice(options) => format!("one of {}", options.join(", ")),
    }
}

fn validate(control: &Control, value: &ControlValue) -> Result<(), LessonError> {
    let out_of_range = || LessonError::OutOfRange {
        name: control.name.into(),
        value: value.to_string(),
        allowed: describe(control.kind),
    };
    match (control.kind, value) {
        (ControlKind::Bool, ControlValue::Bool(_)) => Ok(()),
        (ControlKind::Int { min, max }, ControlValue::Int(v)) => (min..=max)
            .contains(v)
            .then_some(())
            .ok_or_else(out_of_range),
        (ControlKind::Float { min, max }, ControlValue::Float(v)) => (min..=max)
            .contains(v)
            .then_some(())
            .ok_or_else(out_of_range),
        (ControlKind::Choice(options), ControlValue::Choice(s)) => options
            .contains(&s.as_str())
            .then_some(())
            .ok_or_else(out_of_range),
        (kind, value) => Err(LessonError::WrongKind {
            name: control.name.into(),
            expected: describe(kind),
            value: value.to_string(),
        }),
    }
}

/// The index of the control's assignment line: the first unindented
/// `NAME = ...` line of the program.
fn line_of(program: &str, name: &str) -> Option<usize> {
    program.lines().position(|line| {
        line.strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('=') && !rest.contains("=="))
    })
}

fn find_control<'l>(lesson: &'l Lesson, name: &str) -> Result<&'l Control, LessonError> {
    lesson
        .control(name)
        .ok_or_else(|| LessonError::UnknownControl {
            lesson: lesson.slug.into(),
            name: name.into(),
        })
}

/// `source` (the lesson's program, perhaps edited by the learner) with the
/// controls' lines set to `values`; every other line is kept as it is.
pub(crate) fn rewrite(
    lesson: &Lesson,
    source: &str,
    values: &[(&str, ControlValue)],
) -> Result<String, LessonError> {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    for (name, value) in values {
        let control = find_control(lesson, name)?;
        validate(control, value)?;
        let index = line_of(source, name).ok_or_else(|| LessonError::MissingLine {
            name: (*name).into(),
        })?;
        if let Some(line) = lines.get_mut(index) {
            *line = format!("{name} = {value}");
        }
    }
    let mut program = lines.join("\n");
    if source.ends_with('\n') {
        program.push('\n');
    }
    Ok(program)
}

/// The value of control `name` in `source`.
pub(crate) fn current(
    lesson: &Lesson,
    source: &str,
    name: &str,
) -> Result<ControlValue, LessonError> {
    let control = find_control(lesson, name)?;
    let missing = || LessonError::MissingLine { name: name.into() };
    let index = line_of(source, name).ok_or_else(missing)?;
    let line = source.lines().nth(index).ok_or_else(missing)?;
    let (_, literal) = line.split_once('=').ok_or_else(missing)?;
    ControlValue::parse(control.kind, literal).ok_or_else(|| LessonError::WrongKind {
        name: name.into(),
        expected: describe(control.kind),
        value: literal.trim().into(),
    })
}
