//! gradscope's lessons: fourteen PyTorch programs that show what autograd
//! really does, each with a short text, controls bound to assignments at
//! the top of its program, and claims the engine checks against what it
//! measured while the program ran.
//!
//! A claim never compares with a number copied from a text: it runs the
//! program (with default or changed controls), turns the trace into
//! [`Measurements`], and compares measurements with each other.
//!
//! ```no_run
//! use gradscope_lessons::{NativeRunner, check, lessons};
//! let mut runner = NativeRunner::new();
//! for lesson in lessons() {
//!     let report = check(lesson, &mut runner);
//!     println!("{}: {}/{}", lesson.slug, report.passed(), report.claims.len());
//! }
//! ```

// Without `checks` (the page's main thread) the claims' functions, the
// figures and the data files' bytes are left out of the catalogue, and so
// out of the page's wasm; their code still compiles, unused.
#![cfg_attr(not(feature = "checks"), allow(dead_code, unused_imports))]

mod catalog;
mod check;
mod compare;
mod controls;
mod error;
mod measure;
mod moment;
mod runner;

#[cfg(feature = "checks")]
pub use check::check;
pub use check::{ClaimReport, Figure, LessonReport, Verdict};
pub use compare::{ChartKind, ChartRows, Comparison, Unit, format_bytes, numbers_in};
pub use controls::ControlValue;
pub use error::LessonError;
pub use measure::{BackwardStats, CapturedGrad, GradStats, Measurements, Phase, RaisedError};
pub use moment::Moment;
#[cfg(feature = "native")]
pub use runner::NativeRunner;
pub use runner::{RunRecord, Runner, Runs};

/// One lesson: a program, its text, its controls and its claims.
#[derive(Debug)]
pub struct Lesson {
    /// Its place in the list, from 1.
    pub number: u8,
    /// Its name in URLs and on the command line (`forgot-zero-grad`).
    pub slug: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The PyTorch program, with default control values.
    pub program: &'static str,
    /// What to look at while it runs, in a few paragraphs.
    pub text: &'static str,
    /// The assignments at the top of the program a learner may change.
    pub controls: &'static [Control],
    /// What the engine checks.
    pub claims: &'static [Claim],
    /// The figures worth showing beside the claims (peaks, norms).
    #[cfg(feature = "checks")]
    pub figures: FigureFn,
    /// The figures that compare settings, as small charts.
    pub comparisons: &'static [Comparison],
    /// Files the program opens by a relative name.
    pub files: &'static [DataFile],
}

/// A plain assignment at the top of a lesson's program (`ZERO_GRAD = True`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    /// The variable's name.
    pub name: &'static str,
    /// What it changes, for the control's label.
    pub label: &'static str,
    /// What values it takes.
    pub kind: ControlKind,
}

/// What values a control takes, and so how the UI draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ControlKind {
    /// `True` or `False`: a checkbox.
    Bool,
    /// An integer in `min..=max`: a slider.
    Int {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A float in `min..=max`: a slider (learning rates).
    Float {
        /// The smallest value.
        min: f64,
        /// The largest value.
        max: f64,
    },
    /// One string of a list: a choice.
    Choice(&'static [&'static str]),
}

/// A check over measurements, with the sentence it proves.
#[derive(Clone, Copy)]
pub struct Claim {
    /// What it says, in the lesson's words.
    pub text: &'static str,
    /// The moment of a run its measurement comes from, for the views.
    pub at: Moment,
    /// The control values (Python literals) under which the lesson's
    /// program reaches that moment; empty when the program as shipped does.
    pub shown_with: &'static [(&'static str, &'static str)],
    /// Runs what it needs and compares what was measured.
    #[cfg(feature = "checks")]
    pub check: ClaimFn,
}

impl std::fmt::Debug for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Claim")
            .field("text", &self.text)
            .field("at", &self.at)
            .finish()
    }
}

/// A claim's check: runs the lesson as it needs through [`Runs`].
pub type ClaimFn = fn(&mut Runs<'_>) -> Result<Verdict, LessonError>;

/// A lesson's key figures, measured through [`Runs`].
pub type FigureFn = fn(&mut Runs<'_>) -> Result<Vec<Figure>, LessonError>;

/// A file a program reads, shipped with the lessons.
#[derive(Clone, Copy, Debug)]
pub struct DataFile {
    /// The relative name the program opens.
    pub name: &'static str,
    /// Its bytes.
    #[cfg(feature = "checks")]
    pub bytes: &'static [u8],
}

impl Lesson {
    /// The program with some controls set: each `NAME = value` line at the
    /// top is rewritten, the rest is left as it is.
    ///
    /// ```
    /// use gradscope_lessons::{ControlValue, find};
    /// let lesson = find("forgot-zero-grad").unwrap();
    /// let program = lesson.with_controls(&[("ZERO_GRAD", ControlValue::Bool(false))]).unwrap();
    /// assert!(program.contains("\nZERO_GRAD = False\n"));
    /// ```
    pub fn with_controls(&self, values: &[(&str, ControlValue)]) -> Result<String, LessonError> {
        controls::rewrite(self, self.program, values)
    }

    /// `source` (this lesson's program as the learner edited it) with some
    /// controls set, as the page's checkboxes and sliders do.
    pub fn set_controls_in(
        &self,
        source: &str,
        values: &[(&str, ControlValue)],
    ) -> Result<String, LessonError> {
        controls::rewrite(self, source, values)
    }

    /// The value control `name` has in `source`.
    pub fn value_in(&self, source: &str, name: &str) -> Result<ControlValue, LessonError> {
        controls::current(self, source, name)
    }

    /// The control named `name`.
    pub fn control(&self, name: &str) -> Option<&Control> {
        self.controls.iter().find(|c| c.name == name)
    }

    /// The value a control has in the program as shipped.
    pub fn default_value(&self, name: &str) -> Result<ControlValue, LessonError> {
        controls::current(self, self.program, name)
    }
}

/// Every lesson, in order.
pub fn lessons() -> &'static [Lesson] {
    &catalog::LESSONS
}

/// The lesson with this slug.
pub fn find(slug: &str) -> Option<&'static Lesson> {
    lessons().iter().find(|l| l.slug == slug)
}
