//! Running lesson programs: the [`Runner`] that executes a program and
//! records its trace, and [`Runs`], which runs a lesson once per distinct
//! set of control values and keeps the measurements for every claim.

use std::collections::BTreeMap;
use std::rc::Rc;

use gradscope_trace::Event;

use crate::controls::ControlValue;
use crate::error::LessonError;
use crate::measure::{Measurements, RaisedError};
use crate::{DataFile, Lesson};

/// What one run of a program left behind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunRecord {
    /// The trace the engine recorded.
    pub events: Vec<Event>,
    /// What the program printed.
    pub stdout: String,
    /// The exception it ended with.
    pub error: Option<RaisedError>,
}

/// Runs a program and records what the engine did. The CLI and the tests
/// run natively ([`NativeRunner`]); the browser's worker has its own.
pub trait Runner {
    /// Runs `source` with `files` readable by their relative names.
    fn run(&mut self, source: &str, files: &[DataFile]) -> RunRecord;
}

/// Runs programs in gradscope's embedded Python runtime on this thread.
#[cfg(feature = "native")]
#[derive(Debug)]
pub struct NativeRunner {
    runtime: gradscope_python::Runtime,
}

/// Long enough for the digits lesson's training in a debug build.
#[cfg(feature = "native")]
const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(300);

#[cfg(feature = "native")]
impl NativeRunner {
    /// A runner with its own runtime.
    pub fn new() -> Self {
        let limits = gradscope_python::Limits {
            time: Some(TIME_LIMIT),
            ..gradscope_python::Limits::default()
        };
        Self {
            runtime: gradscope_python::Runtime::with_limits(limits),
        }
    }
}

#[cfg(feature = "native")]
impl Default for NativeRunner {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "native")]
impl Runner for NativeRunner {
    fn run(&mut self, source: &str, files: &[DataFile]) -> RunRecord {
        for file in files {
            self.runtime.add_file(file.name, file.bytes.to_vec());
        }
        let (output, events) = gradscope_core::trace::record(|| self.runtime.run(source));
        RunRecord {
            events,
            stdout: output.stdout,
            error: output.error.map(|e| RaisedError {
                type_name: e.type_name,
                message: e.message,
                line: e.line,
            }),
        }
    }
}

/// One lesson's runs, each set of control values run once and measured.
pub struct Runs<'a> {
    lesson: &'a Lesson,
    runner: &'a mut dyn Runner,
    cache: BTreeMap<String, Rc<Measurements>>,
}

impl std::fmt::Debug for Runs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runs")
            .field("lesson", &self.lesson.slug)
            .field("runs", &self.cache.len())
            .finish()
    }
}

impl<'a> Runs<'a> {
    /// Runs of `lesson` through `runner`.
    pub fn new(lesson: &'a Lesson, runner: &'a mut dyn Runner) -> Self {
        Self {
            lesson,
            runner,
            cache: BTreeMap::new(),
        }
    }

    /// The lesson being run.
    pub fn lesson(&self) -> &'a Lesson {
        self.lesson
    }

    /// The measurements of the program as shipped.
    pub fn default_run(&mut self) -> Result<Rc<Measurements>, LessonError> {
        self.with(&[])
    }

    /// The measurements of the program with these controls changed.
    pub fn with(
        &mut self,
        values: &[(&str, ControlValue)],
    ) -> Result<Rc<Measurements>, LessonError> {
        let source = self.lesson.with_controls(values)?;
        if let Some(m) = self.cache.get(&source) {
            return Ok(Rc::clone(m));
        }
        let record = self.runner.run(&source, self.lesson.files);
        let mut measured = Measurements::of(&record.events, record.error);
        measured.printed = record.stdout;
        let measured = Rc::new(measured);
        self.cache.insert(source, Rc::clone(&measured));
        Ok(measured)
    }

    /// Like [`Runs::with`], for a run that must finish without an exception.
    pub fn finished(
        &mut self,
        values: &[(&str, ControlValue)],
    ) -> Result<Rc<Measurements>, LessonError> {
        let m = self.with(values)?;
        m.finished()?;
        Ok(m)
    }
}

/// `NAME = True`.
pub fn on(name: &str) -> (&str, ControlValue) {
    (name, ControlValue::Bool(true))
}

/// `NAME = False`.
pub fn off(name: &str) -> (&str, ControlValue) {
    (name, ControlValue::Bool(false))
}

/// `NAME = n`.
pub fn int(name: &str, n: i64) -> (&str, ControlValue) {
    (name, ControlValue::Int(n))
}

/// `NAME = "choice"`.
pub fn choice<'n>(name: &'n str, value: &str) -> (&'n str, ControlValue) {
    (name, ControlValue::Choice(value.into()))
}
