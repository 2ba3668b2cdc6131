//! What can go wrong setting controls or checking a claim.

/// Why a program could not be set up or a claim could not be decided.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LessonError {
    /// A control name the lesson does not have.
    #[error("lesson '{lesson}' has no control named {name}")]
    UnknownControl {
        /// The lesson's slug.
        lesson: String,
        /// The name asked for.
        name: String,
    },
    /// A value of the wrong kind for its control.
    #[error("control {name} takes {expected}, not {value}")]
    WrongKind {
        /// The control.
        name: String,
        /// What it takes.
        expected: String,
        /// What it was given, as Python source.
        value: String,
    },
    /// A value outside the control's range or list.
    #[error("{name} = {value} is not one of the values it takes ({allowed})")]
    OutOfRange {
        /// The control.
        name: String,
        /// The value, as Python source.
        value: String,
        /// What it takes.
        allowed: String,
    },
    /// The program lacks the control's assignment line.
    #[error("the program has no line `{name} = ...` for its control")]
    MissingLine {
        /// The control.
        name: String,
    },
    /// The program raised where the claim needed it to finish.
    #[error("the program raised {type_name}: {message}")]
    RunFailed {
        /// The exception type.
        type_name: String,
        /// Its message.
        message: String,
    },
    /// A phase the claim reads never ran.
    #[error("no phase named '{0}' ran (torch.profiler.record_function)")]
    NoPhase(String),
    /// A measurement the claim needs is not in the trace.
    #[error("not measured: {0}")]
    NotMeasured(String),
}
