//! Checking a lesson: every claim's verdict with what it measured, and the
//! lesson's key figures.

use crate::Lesson;
use crate::error::LessonError;
use crate::runner::{Runner, Runs};

/// A claim's outcome: whether it held, and the measurements it compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Whether the claim held.
    pub passed: bool,
    /// The measured values it compared, for the learner to see.
    pub measured: String,
}

impl Verdict {
    /// A verdict from a condition and what was measured.
    pub fn new(passed: bool, measured: impl Into<String>) -> Self {
        Self {
            passed,
            measured: measured.into(),
        }
    }
}

/// A figure worth showing beside the claims (`peak saved, no_grad: 0 B`).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What it is.
    pub label: String,
    /// Its measured value, formatted.
    pub value: String,
}

impl Figure {
    /// A labelled figure.
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            value: value.into(),
        }
    }
}

/// One claim's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimReport {
    /// The claim's sentence.
    pub text: &'static str,
    /// Its verdict, or why it could not be decided (which counts as failed).
    pub outcome: Result<Verdict, LessonError>,
}

impl ClaimReport {
    /// Whether the claim was decided and held.
    pub fn passed(&self) -> bool {
        matches!(&self.outcome, Ok(v) if v.passed)
    }
}

/// A lesson's claims and figures, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonReport {
    /// The lesson's slug.
    pub slug: &'static str,
    /// Every claim, in the lesson's order.
    pub claims: Vec<ClaimReport>,
    /// The key figures, or why they could not be measured.
    pub figures: Result<Vec<Figure>, LessonError>,
}

impl LessonReport {
    /// How many claims held.
    pub fn passed(&self) -> usize {
        self.claims.iter().filter(|c| c.passed()).count()
    }

    /// Whether every claim held.
    pub fn all_passed(&self) -> bool {
        self.claims.iter().all(ClaimReport::passed)
    }
}

/// Checks every claim of `lesson`, running its program through `runner` as
/// the claims need (each distinct set of controls once).
#[cfg(feature = "checks")]
pub fn check(lesson: &Lesson, runner: &mut dyn Runner) -> LessonReport {
    let mut runs = Runs::new(lesson, runner);
    let claims = lesson
        .claims
        .iter()
        .map(|claim| ClaimReport {
            text: claim.text,
            outcome: (claim.check)(&mut runs),
        })
        .collect();
    let figures = (lesson.figures)(&mut runs);
    LessonReport {
        slug: lesson.slug,
        claims,
        figures,
    }
}
