//! The app's one state and its pure reducer.

use std::rc::Rc;

use gradscope_trace::Reply;
use gradscope_trace::chart::Axis;
use gradscope_trace::playback::Playback;
use gradscope_trace::protocol::{ClaimResult, Device, WebGpu};
use gradscope_trace::step::StepBy;
use yew::Reducible;

/// Where the engine's worker stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// Loading its wasm module.
    Loading,
    /// Listening; making the Python interpreter took this long.
    Ready { startup_ms: f64 },
    /// It could not be started or failed to load.
    Failed(String),
}

/// Where the last run stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// Nothing ran yet.
    Idle,
    /// Running; replies are arriving.
    Running,
    /// Ran to its end.
    Finished,
    /// Raised.
    Raised {
        kind: String,
        message: String,
        line: Option<u32>,
        /// CPython's report, when the runtime made one.
        traceback: Option<String>,
    },
    /// Stopped by the learner.
    Stopped,
}

/// One piece of console output.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// What the program printed.
    Stdout(Rc<str>),
    /// What the program wrote to `sys.stderr`.
    Stderr(Rc<str>),
    /// A note from the engine.
    Notice(Rc<str>),
}

/// A lesson's claims, as far as the engine has checked them.
#[derive(Clone, Debug, PartialEq)]
pub enum Claims {
    /// Not asked yet (the lesson was just opened, or no lesson is open).
    Unchecked,
    /// The worker is running the lesson's program as its claims need.
    Checking,
    /// The verdicts, and the lesson's key figures.
    Checked {
        claims: Rc<[ClaimResult]>,
        figures: Rc<[(String, String)]>,
    },
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub engine: Engine,
    /// WebGPU's availability; `None` while the worker probes.
    pub webgpu: Option<WebGpu>,
    pub device: Device,
    /// The editor's text, saved on every change.
    pub source: Rc<str>,
    /// Bumped when the text is replaced from outside the editor (Reset).
    pub source_version: u32,
    pub run: Run,
    /// The trace and the position the views show.
    pub playback: Playback,
    pub output: Vec<Output>,
    pub axis: Axis,
    /// The open lesson's slug, if one is open.
    pub lesson: Option<&'static str>,
    pub claims: Claims,
}

impl State {
    /// A fresh page with the saved code and device.
    pub fn new(source: String, device: Device) -> Self {
        Self {
            engine: Engine::Loading,
            webgpu: None,
            device,
            source: source.into(),
            source_version: 0,
            run: Run::Idle,
            playback: Playback::default(),
            output: vec![],
            axis: Axis::Events,
            lesson: None,
            claims: Claims::Unchecked,
        }
    }

    /// The status line: the engine's state, or the last run's.
    pub fn status_text(&self) -> String {
        match (&self.engine, &self.run) {
            (Engine::Failed(message), _) => format!("engine failed: {message}"),
            (Engine::Loading, Run::Running) | (Engine::Loading, Run::Idle) => {
                "loading engine".into()
            }
            (_, Run::Running) => "running".into(),
            (_, Run::Finished) => "finished".into(),
            (_, Run::Raised { kind, .. }) => format!("raised {kind}"),
            (_, Run::Stopped) => "stopped".into(),
            (Engine::Ready { startup_ms }, Run::Idle) => {
                format!("ready (Python started in {startup_ms:.0} ms)")
            }
        }
    }

    /// The line that raised, if the last run did.
    pub fn error_line(&self) -> Option<u32> {
        match &self.run {
            Run::Raised { line, .. } => *line,
            _ => None,
        }
    }
}

/// What can happen to the state.
#[derive(Debug)]
pub enum Action {
    /// The replies that arrived during one animation frame, in order.
    Replies(Vec<Reply>),
    /// The worker could not be started or failed.
    WorkerFailed(String),
    /// A run was sent to the worker.
    Started,
    /// The learner stopped the run; the worker is being restarted.
    Stopped,
    /// The run outlived the time limit (seconds) and its worker was
    /// terminated; a fresh one is starting.
    TimedOut(u32),
    /// The learner typed (or Reset replaced the text, `external`).
    Edited {
        source: String,
        external: bool,
    },
    SetDevice(Device),
    /// Open a lesson (its program replaces the editor's text), or close it.
    OpenLesson(Option<&'static str>),
    /// The worker was asked to check the open lesson's claims.
    CheckingClaims,
    SetAxis(Axis),
    /// Show the trace after this many events (the scrub slider).
    Seek(usize),
    /// Step forward (`true`) or back.
    Step(StepBy, bool),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        match action {
            Action::Replies(replies) => apply_replies(&mut next, replies),
            Action::WorkerFailed(message) => next.engine = Engine::Failed(message),
            Action::Started => {
                next.run = Run::Running;
                next.playback = Playback::default();
                next.output.clear();
            }
            Action::Stopped => {
                next.engine = Engine::Loading;
                if next.run == Run::Running {
                    next.run = Run::Stopped;
                }
            }
            Action::Edited { source, external } => {
                next.source = source.into();
                if external {
                    next.source_version += 1;
                }
            }
            Action::TimedOut(secs) => {
                next.engine = Engine::Loading;
                if next.run == Run::Running {
                    next.run = Run::Raised {
                        kind: "ExecutionLimitExceeded".into(),
                        message: format!(
                            "the program ran longer than the time limit of {secs} s and was stopped"
                        ),
                        line: None,
                        traceback: None,
                    };
                }
            }
            Action::SetDevice(device) => next.device = device,
            Action::OpenLesson(slug) => {
                let lesson = slug.and_then(gradscope_lessons::find);
                next.lesson = lesson.map(|l| l.slug);
                next.claims = Claims::Unchecked;
                if let Some(lesson) = lesson {
                    next.source = lesson.program.into();
                    next.source_version += 1;
                }
            }
            Action::CheckingClaims => next.claims = Claims::Checking,
            Action::SetAxis(axis) => next.axis = axis,
            Action::Seek(position) => next.playback.seek(position),
            Action::Step(by, forward) => next.playback.step(by, forward),
        }
        Rc::new(next)
    }
}

/// Applies one frame's replies: their events join the trace as one batch.
fn apply_replies(next: &mut State, replies: Vec<Reply>) {
    let mut batch = Vec::new();
    for reply in replies {
        match reply {
            Reply::Ready { startup_ms } => next.engine = Engine::Ready { startup_ms },
            Reply::Devices { webgpu } => next.webgpu = Some(webgpu),
            Reply::Events { events } => batch.extend(events),
            Reply::Stdout { text } => next.output.push(Output::Stdout(text.into())),
            Reply::Stderr { text } => next.output.push(Output::Stderr(text.into())),
            Reply::Notice { text } => next.output.push(Output::Notice(text.into())),
            Reply::Finished => next.run = Run::Finished,
            Reply::LessonChecked {
                slug,
                claims,
                figures,
            } => {
                if next.lesson == Some(slug.as_str()) {
                    next.claims = Claims::Checked {
                        claims: claims.into(),
                        figures: figures.into(),
                    };
                }
            }
            Reply::Error {
                kind,
                message,
                line,
                traceback,
            } => {
                if next.run == Run::Running {
                    next.run = Run::Raised {
                        kind,
                        message,
                        line,
                        traceback,
                    };
                } else {
                    next.engine = Engine::Failed(format!("{kind}: {message}"));
                }
            }
        }
    }
    next.playback.push(batch);
}
