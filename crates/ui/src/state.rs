//! The app's one state and its reducer. The reducer computes the next
//! state from the last and an action, with one effect: a run's start hands
//! the last run's trace to `frame::graveyard`, which frees it while the
//! page idles, because dropping it in the reducer took 11 ms of the first
//! frame (see the graveyard's note). Everything else that schedules or
//! talks to the worker happens outside, in `frame/` and `worker.rs`.

use std::rc::Rc;

use gradscope_trace::Reply;
use gradscope_trace::memory_chart::Axis;
use gradscope_trace::playback::Playback;
use gradscope_trace::protocol::{ClaimResult, Device, WebGpu};
use gradscope_trace::step::StepBy;
use yew::Reducible;

use crate::console::{Console, Stream};
use crate::share::{PinnedProgram, Shared};

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

/// The claim the learner asked to see in the views, and where its moment
/// is in the run they show (`None`: that run does not reach it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClaimShown {
    /// The claim's index in its lesson.
    pub index: usize,
    /// The trace position the views were moved to.
    pub position: Option<usize>,
}

/// What the share link bar shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Link {
    /// Nothing.
    Hidden,
    /// The page opened a share link: its code is shown and not run.
    Opened,
    /// The address held a share link that could not be read: why.
    Refused(String),
    /// Share made this link (the whole address).
    Made(String),
    /// Share could not make a link: why.
    NotMade(String),
}

/// A pinned program a share link brought, on its way to being pinned.
#[derive(Clone, Debug, PartialEq)]
pub enum Pair {
    /// None (the usual case).
    None,
    /// Shown beside the code; Run runs it first.
    Opened(Rc<PinnedProgram>),
    /// Running: when it ends, the page pins its run and runs the code.
    Running(Rc<PinnedProgram>),
}

impl Pair {
    /// The pinned program, opened or running.
    pub fn program(&self) -> Option<&Rc<PinnedProgram>> {
        match self {
            Pair::None => None,
            Pair::Opened(p) | Pair::Running(p) => Some(p),
        }
    }

    /// The running pinned program, once its run `run` has ended (finished
    /// or raised): the moment to pin it and run the code.
    pub fn ended(&self, run: &Run) -> Option<&Rc<PinnedProgram>> {
        match (self, run) {
            (Pair::Running(p), Run::Finished | Run::Raised { .. }) => Some(p),
            _ => None,
        }
    }
}

/// Replay speeds the transport offers, in statements per second.
pub const SPEEDS: [u32; 5] = [1, 2, 5, 10, 20];

/// The speed replay starts at, in statements per second.
pub const DEFAULT_SPEED: u32 = 2;

/// Replaying the recorded trace: whether it plays, and how fast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    /// Whether the position advances by itself.
    pub playing: bool,
    /// Statements per second, one of [`SPEEDS`].
    pub per_second: u32,
}

impl Default for Replay {
    fn default() -> Self {
        Self {
            playing: false,
            per_second: DEFAULT_SPEED,
        }
    }
}

impl Replay {
    /// Milliseconds between two steps.
    pub fn interval_ms(&self) -> u32 {
        1000 / self.per_second.max(1)
    }
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
    /// Replay of the recorded trace, statement by statement.
    pub replay: Replay,
    /// What the run printed, as the console keeps it.
    pub output: Console,
    pub axis: Axis,
    /// The open lesson's slug, if one is open.
    pub lesson: Option<&'static str>,
    pub claims: Claims,
    /// The claim whose moment the views were moved to.
    pub claim_shown: Option<ClaimShown>,
    /// The lessons the learner ran with every claim holding, in the
    /// lessons' order (kept in the browser, as the code is).
    pub lessons_passed: Rc<[&'static str]>,
    /// The memory budget for the next run, in MiB; `None`: the engine's default.
    pub budget_mib: Option<u32>,
    /// The share link bar.
    pub link: Link,
    /// Whether the code shown came from a share link and the reader has
    /// not edited or run it yet: until then the locally saved code is kept.
    pub keep_saved: bool,
    /// The learner's extra files beside the program (`files`).
    pub files: Rc<[crate::files::ProgramFile]>,
    /// A share link's pinned program, until it ran and was pinned.
    pub pair: Pair,
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
            replay: Replay::default(),
            output: Console::default(),
            axis: Axis::Events,
            lesson: None,
            claims: Claims::Unchecked,
            claim_shown: None,
            lessons_passed: Rc::new([]),
            budget_mib: None,
            link: Link::Hidden,
            keep_saved: false,
            files: Rc::new([]),
            pair: Pair::None,
        }
    }

    /// The status line while the heavy views are `catching_up` with a
    /// run that ended, or not (see `views`): "running" until they have,
    /// since the views are what a finished run shows.
    pub fn status_line(&self, catching_up: bool) -> String {
        match self.run {
            Run::Finished | Run::Raised { .. } if catching_up => "running".to_string(),
            _ => self.status_text(),
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
    /// Move the views to the moment the open lesson's claim (by index)
    /// measures, in the run they show.
    ShowClaim(usize),
    SetAxis(Axis),
    /// Show the trace after this many events (the scrub slider).
    Seek(usize),
    /// Step forward (`true`) or back.
    Step(StepBy, bool),
    /// Step to the next (`true`) or previous training pass: where a
    /// step's backward begins, as the graph's pass buttons do.
    StepPass(bool),
    /// Start (`true`) or pause replaying the trace, a statement at a time;
    /// started at the end, it starts over from the beginning.
    Replay(bool),
    /// Replay's next statement (its timer).
    ReplayTick,
    /// Replay at this many statements per second (the nearest of [`SPEEDS`]).
    SetSpeed(u32),
    /// The memory budget for the next run, in MiB (`None`: the default).
    SetBudget(Option<u32>),
    /// The page was opened with a share link: its settings, or why they
    /// could not be read.
    OpenLink(Result<Shared, String>),
    /// Share made a link (the whole address), or could not.
    Shared(Result<String, String>),
    /// The reader closed the share link bar.
    DismissLink,
    /// The learner changed the extra files (a refused change is a notice).
    Files(crate::files::Change),
    /// The link's pinned program was sent to run first.
    RunPair,
    /// Its run was pinned and the code sent to run: the pair is done.
    PairPinned,
    /// The reader set the link's pinned program aside (not to be run).
    DropPair,
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        match action {
            Action::Replies(replies) => apply_replies(&mut next, replies),
            Action::WorkerFailed(message) => next.engine = Engine::Failed(message),
            Action::Started => {
                next.keep_saved = false;
                // "It has not run" is no longer true.
                if next.link == Link::Opened {
                    next.link = Link::Hidden;
                }
                next.run = Run::Running;
                // The last run's trace is freed while the page idles.
                crate::frame::graveyard::bury(
                    std::mem::take(&mut next.playback).into_log().into_batches(),
                );
                next.replay.playing = false;
                next.output.clear();
                next.claim_shown = None;
            }
            Action::Stopped => {
                next.engine = Engine::Loading;
                if next.run == Run::Running {
                    next.run = Run::Stopped;
                }
                // Stopped before it could be pinned: Run starts the pair over.
                if let Pair::Running(p) = &next.pair {
                    next.pair = Pair::Opened(p.clone());
                }
            }
            Action::Edited { source, external } => {
                if external {
                    next.source_version += 1;
                } else if *next.source != *source {
                    // The editor reports text put in from outside as an
                    // edit too: only a real change makes the code the reader's.
                    next.keep_saved = false;
                }
                next.source = source.into();
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
                next.claim_shown = None;
                if let Some(lesson) = lesson {
                    next.source = lesson.program.into();
                    next.source_version += 1;
                }
            }
            Action::CheckingClaims => next.claims = Claims::Checking,
            Action::ShowClaim(index) => show_claim(&mut next, index),
            Action::SetAxis(axis) => next.axis = axis,
            Action::Seek(position) => {
                next.replay.playing = false;
                next.playback.seek(position);
            }
            Action::Step(by, forward) => {
                next.replay.playing = false;
                next.playback.step(by, forward);
            }
            Action::StepPass(forward) => {
                next.replay.playing = false;
                let (log, at) = (next.playback.log(), next.playback.position());
                let to = if forward {
                    gradscope_trace::step::next_pass(log, at)
                } else {
                    gradscope_trace::step::previous_pass(log, at)
                };
                next.playback.seek(to);
            }
            Action::Replay(play) => {
                let len = next.playback.log().len();
                let can = play && len > 0 && next.run != Run::Running;
                if can && next.playback.position() >= len {
                    next.playback.seek(0);
                }
                next.replay.playing = can;
            }
            Action::ReplayTick => {
                if next.replay.playing {
                    next.playback.step(StepBy::Statement, true);
                    // At the end the view is live again: replay is over.
                    next.replay.playing = !next.playback.is_live();
                }
            }
            Action::SetSpeed(per_second) => {
                next.replay.per_second = SPEEDS
                    .iter()
                    .copied()
                    .min_by_key(|s| s.abs_diff(per_second))
                    .unwrap_or(DEFAULT_SPEED);
            }
            Action::SetBudget(mib) => next.budget_mib = mib,
            Action::OpenLink(Ok(shared)) => {
                next.lesson = shared
                    .lesson
                    .as_deref()
                    .and_then(gradscope_lessons::find)
                    .map(|l| l.slug);
                next.claims = Claims::Unchecked;
                next.claim_shown = None;
                next.source = shared.code.into();
                next.source_version += 1;
                next.device = shared.device;
                next.budget_mib = shared.budget_mib;
                next.files = shared.files.into();
                next.pair = match shared.pinned {
                    Some(p) => Pair::Opened(Rc::from(p)),
                    None => Pair::None,
                };
                next.keep_saved = true;
                next.link = Link::Opened;
            }
            Action::OpenLink(Err(why)) => next.link = Link::Refused(why),
            Action::Shared(Ok(url)) => next.link = Link::Made(url),
            Action::Shared(Err(why)) => next.link = Link::NotMade(why),
            Action::DismissLink => next.link = Link::Hidden,
            Action::Files(change) => match crate::files::apply(&next.files, change) {
                Ok(files) => {
                    next.files = files.into();
                    next.keep_saved = false;
                }
                Err(why) => next.output.notice(&why),
            },
            Action::RunPair => {
                if let Pair::Opened(p) = &next.pair {
                    next.pair = Pair::Running(p.clone());
                }
            }
            Action::PairPinned | Action::DropPair => next.pair = Pair::None,
        }
        Rc::new(next)
    }
}

/// Applies one frame's replies: their events join the trace as one batch.
fn apply_replies(next: &mut State, replies: Vec<Reply>) {
    let mut batch = Vec::new();
    let mut written = Pending::default();
    for reply in replies {
        match reply {
            Reply::Ready { startup_ms } => next.engine = Engine::Ready { startup_ms },
            Reply::Devices { webgpu } => next.webgpu = Some(webgpu),
            // A frame's events (usually one reply: the inbox joins them)
            // join the trace without being copied.
            Reply::Events { events } if batch.is_empty() => batch = events,
            Reply::Events { events } => batch.extend(events),
            // A frame's pieces of one stream are written at once: joining
            // a piece to its line copies the line.
            Reply::Stdout { text } => written.push(Stream::Stdout, text, &mut next.output),
            Reply::Stderr { text } => written.push(Stream::Stderr, text, &mut next.output),
            Reply::Notice { text } => {
                written.flush(&mut next.output);
                next.output.notice(&text);
            }
            Reply::Finished => next.run = Run::Finished,
            // The engine hook hands the warm-up trace to the rehearsal.
            Reply::Rehearsal { .. } | Reply::Rehearsed => {}
            Reply::LessonChecked {
                slug,
                claims,
                figures,
            } => {
                if next.lesson == Some(slug.as_str()) {
                    if !claims.is_empty() && claims.iter().all(|c| c.passed) {
                        mark_passed(next, &slug);
                    }
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
    written.flush(&mut next.output);
    next.playback.push(batch);
}

/// Seeks to the moment claim `index` of the open lesson measures, in the
/// trace the views show, and remembers which claim and where.
fn show_claim(next: &mut State, index: usize) {
    let Some(claim) = next
        .lesson
        .and_then(gradscope_lessons::find)
        .and_then(|l| l.claims.get(index))
    else {
        return;
    };
    let raised = matches!(next.run, Run::Raised { .. });
    let position = claim.at.position(next.playback.log().iter(), raised);
    if let Some(position) = position {
        next.replay.playing = false;
        next.playback.seek(position);
    }
    next.claim_shown = Some(ClaimShown { index, position });
}

/// Adds `slug` to the lessons passed, kept in the lessons' order.
fn mark_passed(next: &mut State, slug: &str) {
    let passed: Vec<&'static str> = gradscope_lessons::lessons()
        .iter()
        .map(|l| l.slug)
        .filter(|s| *s == slug || next.lessons_passed.contains(s))
        .collect();
    next.lessons_passed = passed.into();
}

/// A frame's output of one stream, not yet written to the console.
#[derive(Default)]
struct Pending(Option<(Stream, String)>);

impl Pending {
    fn push(&mut self, stream: Stream, text: String, console: &mut Console) {
        match &mut self.0 {
            Some((s, pending)) if *s == stream => pending.push_str(&text),
            _ => {
                self.flush(console);
                self.0 = Some((stream, text));
            }
        }
    }

    fn flush(&mut self, console: &mut Console) {
        if let Some((stream, text)) = self.0.take() {
            console.write(stream, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(state: State, action: Action) -> State {
        Rc::unwrap_or_clone(Rc::new(state).reduce(action))
    }

    fn link() -> Shared {
        Shared {
            code: "ZERO_GRAD = False\n".into(),
            device: Device::WebGpu,
            lesson: Some("forgot-zero-grad".into()),
            budget_mib: Some(32),
            files: Vec::new(),
            pinned: None,
        }
    }

    #[test]
    fn state_opened_link_shows_code_and_keeps_saved_until_edit() {
        let state = reduce(
            State::new("mine".into(), Device::Cpu),
            Action::OpenLink(Ok(link())),
        );
        assert_eq!(&*state.source, "ZERO_GRAD = False\n");
        assert_eq!(state.source_version, 1);
        assert_eq!(state.device, Device::WebGpu);
        assert_eq!(state.lesson, Some("forgot-zero-grad"));
        assert_eq!(state.budget_mib, Some(32));
        assert_eq!(state.link, Link::Opened);
        // Shown, not run.
        assert_eq!(state.run, Run::Idle);
        assert!(state.keep_saved);
        // A lesson control rewrites the code from outside: still the link's.
        let state = reduce(
            state,
            Action::Edited {
                source: "ZERO_GRAD = True\n".into(),
                external: true,
            },
        );
        assert!(state.keep_saved);
        // The editor echoes the text it was given: not an edit.
        let echoed = reduce(
            state.clone(),
            Action::Edited {
                source: "ZERO_GRAD = True\n".into(),
                external: false,
            },
        );
        assert!(echoed.keep_saved);
        let edited = reduce(
            state.clone(),
            Action::Edited {
                source: "x".into(),
                external: false,
            },
        );
        assert!(!edited.keep_saved);
        let ran = reduce(state, Action::Started);
        assert!(!ran.keep_saved);
        assert_eq!(ran.run, Run::Running);
    }

    /// A finished run of three statements: an op on each of lines 1..=3.
    fn finished_run() -> State {
        use gradscope_trace::{Event, EventKind};
        let events = (0..3u64)
            .map(|i| Event {
                seq: i,
                time_us: i,
                line: Some(i as u32 + 1),
                kind: EventKind::OpCalled {
                    op: "add".into(),
                    shape: vec![],
                },
            })
            .collect();
        let state = reduce(State::new("x".into(), Device::Cpu), Action::Started);
        reduce(
            state,
            Action::Replies(vec![Reply::Events { events }, Reply::Finished]),
        )
    }

    #[test]
    fn state_replay_steps_by_statement_and_stops_at_the_end() {
        let state = finished_run();
        assert_eq!(state.playback.position(), 3);
        // A tick while paused does nothing.
        let state = reduce(state, Action::ReplayTick);
        assert_eq!(state.playback.position(), 3);
        // Started at the end, it starts over.
        let state = reduce(state, Action::Replay(true));
        assert!(state.replay.playing);
        assert_eq!(state.playback.position(), 0);
        let state = reduce(state, Action::ReplayTick);
        assert_eq!(
            (state.playback.position(), state.playback.line()),
            (1, Some(1))
        );
        let state = reduce(state, Action::ReplayTick);
        assert_eq!(state.playback.line(), Some(2));
        let state = reduce(state, Action::ReplayTick);
        assert!(state.playback.is_live());
        assert!(!state.replay.playing, "replay ends at the end");
        // Stepping by hand pauses it.
        let state = reduce(state, Action::Replay(true));
        let state = reduce(state, Action::Step(StepBy::Op, true));
        assert!(!state.replay.playing);
        // Nothing to replay while a run streams.
        let running = reduce(state, Action::Started);
        assert!(!reduce(running, Action::Replay(true)).replay.playing);
    }

    #[test]
    fn state_speed_is_one_of_the_offered() {
        let state = State::new("x".into(), Device::Cpu);
        assert_eq!(state.replay.per_second, DEFAULT_SPEED);
        assert_eq!(state.replay.interval_ms(), 500);
        let state = reduce(state, Action::SetSpeed(10));
        assert_eq!(
            (state.replay.per_second, state.replay.interval_ms()),
            (10, 100)
        );
        let state = reduce(state, Action::SetSpeed(1000));
        assert_eq!(state.replay.per_second, 20);
        let state = reduce(state, Action::SetSpeed(0));
        assert_eq!(state.replay.per_second, 1);
    }

    #[test]
    fn state_show_claim_seeks_to_its_moment_or_says_not_here() {
        use gradscope_trace::{Event, EventKind};
        let state = reduce(
            State::new("x".into(), Device::Cpu),
            Action::OpenLesson(Some("retain-graph")),
        );
        let ev = |seq, kind| Event {
            seq,
            time_us: seq,
            line: None,
            kind,
        };
        let op = || EventKind::OpCalled {
            op: "mul".into(),
            shape: vec![],
        };
        let events = vec![
            ev(0, op()),
            ev(
                1,
                EventKind::RangeBegan {
                    name: "loop".into(),
                },
            ),
            ev(2, op()),
            ev(
                3,
                EventKind::RangeEnded {
                    name: "loop".into(),
                },
            ),
            ev(4, op()),
        ];
        let state = reduce(state, Action::Started);
        let state = reduce(
            state,
            Action::Replies(vec![Reply::Events { events }, Reply::Finished]),
        );
        assert_eq!(state.playback.position(), 5);
        // Claim 2 is about the saved bytes after the loop: its end.
        let lesson = gradscope_lessons::find("retain-graph").expect("lesson");
        assert_eq!(lesson.claims[1].at, gradscope_lessons::Moment::End("loop"));
        let shown = reduce(state.clone(), Action::ShowClaim(1));
        assert_eq!(shown.playback.position(), 4);
        assert_eq!(
            shown.claim_shown,
            Some(ClaimShown {
                index: 1,
                position: Some(4)
            })
        );
        // Claim 1's backward is not in this run: the views stay.
        let missing = reduce(shown, Action::ShowClaim(0));
        assert_eq!(missing.playback.position(), 4);
        assert_eq!(
            missing.claim_shown,
            Some(ClaimShown {
                index: 0,
                position: None
            })
        );
        // A new run forgets it.
        assert_eq!(reduce(missing, Action::Started).claim_shown, None);
    }

    #[test]
    fn state_lessons_passed_only_with_every_claim_holding() {
        use gradscope_trace::protocol::ClaimResult;
        let checked = |slug: &str, passed: bool| {
            Action::Replies(vec![Reply::LessonChecked {
                slug: slug.into(),
                claims: vec![
                    ClaimResult {
                        text: "a".into(),
                        passed: true,
                        measured: "1".into(),
                    },
                    ClaimResult {
                        text: "b".into(),
                        passed,
                        measured: "2".into(),
                    },
                ],
                figures: vec![],
            }])
        };
        let open = |state, slug| reduce(state, Action::OpenLesson(Some(slug)));
        let state = open(State::new("x".into(), Device::Cpu), "retain-graph");
        let state = reduce(state, checked("retain-graph", false));
        assert!(state.lessons_passed.is_empty());
        let state = reduce(state, checked("retain-graph", true));
        let state = open(state, "graph-lifecycle");
        // Another lesson's report is not this one's.
        let state = reduce(state, checked("digits", true));
        let state = reduce(state, checked("graph-lifecycle", true));
        let state = reduce(state, checked("graph-lifecycle", true));
        assert_eq!(&*state.lessons_passed, ["graph-lifecycle", "retain-graph"]);
    }

    #[test]
    fn state_refused_link_keeps_the_code() {
        let state = reduce(
            State::new("mine".into(), Device::Cpu),
            Action::OpenLink(Err("damaged".into())),
        );
        assert_eq!(&*state.source, "mine");
        assert!(!state.keep_saved);
        assert_eq!(state.link, Link::Refused("damaged".into()));
        let state = reduce(state, Action::DismissLink);
        assert_eq!(state.link, Link::Hidden);
    }

    #[test]
    fn state_status_says_running_until_the_views_caught_up() {
        let mut state = State::new("x = 1\n".into(), Device::Cpu);
        state.engine = Engine::Ready { startup_ms: 5.0 };
        state.run = Run::Finished;
        assert_eq!(state.status_line(true), "running");
        assert_eq!(state.status_line(false), "finished");
        state.run = Run::Stopped;
        assert_eq!(state.status_line(true), "stopped");
        state.run = Run::Idle;
        assert_eq!(state.status_line(true), "ready (Python started in 5 ms)");
    }

    #[test]
    fn state_budget_and_share_results() {
        let state = reduce(
            State::new("x".into(), Device::Cpu),
            Action::SetBudget(Some(8)),
        );
        assert_eq!(state.budget_mib, Some(8));
        let state = reduce(state, Action::Shared(Err("too long".into())));
        assert_eq!(state.link, Link::NotMade("too long".into()));
        let state = reduce(state, Action::Shared(Ok("http://h/#v1=x".into())));
        assert_eq!(state.link, Link::Made("http://h/#v1=x".into()));
        let state = reduce(state, Action::SetBudget(None));
        assert_eq!(state.budget_mib, None);
    }

    #[test]
    fn state_joins_a_frames_output_into_lines() {
        let stdout = |t: &str| Reply::Stdout { text: t.into() };
        let state = reduce(State::new("x".into(), Device::Cpu), Action::Started);
        let replies = vec![
            stdout("step 1"),
            stdout("\n"),
            stdout("step "),
            Reply::Stderr {
                text: "warn\n".into(),
            },
            stdout("2\n"),
            Reply::Notice {
                text: "note".into(),
            },
        ];
        let state = reduce(state, Action::Replies(replies));
        let lines: Vec<(Stream, String)> = state
            .output
            .lines()
            .map(|l| (l.stream, l.text.to_string()))
            .collect();
        assert_eq!(
            lines,
            [
                (Stream::Stdout, "step 1\n".into()),
                (Stream::Stdout, "step ".into()),
                (Stream::Stderr, "warn\n".into()),
                (Stream::Stdout, "2\n".into()),
                (Stream::Notice, "note\n".into()),
            ]
        );
    }

    #[test]
    fn state_link_with_a_pin_runs_the_pair_in_order() {
        let pinned = PinnedProgram {
            code: "ZERO_GRAD = True\n".into(),
            device: Device::Cpu,
            budget_mib: None,
            files: Vec::new(),
        };
        let with_pin = Shared {
            pinned: Some(Box::new(pinned.clone())),
            ..link()
        };
        let state = reduce(
            State::new("mine".into(), Device::Cpu),
            Action::OpenLink(Ok(with_pin)),
        );
        assert_eq!(state.pair, Pair::Opened(Rc::new(pinned.clone())));
        assert_eq!(&*state.source, "ZERO_GRAD = False\n");
        // Run sends the pinned program; until its run ends nothing is pinned.
        assert_eq!(state.link, Link::Opened);
        let state = reduce(reduce(state, Action::RunPair), Action::Started);
        assert_eq!(state.pair, Pair::Running(Rc::new(pinned.clone())));
        assert_eq!(state.link, Link::Hidden, "the bar said it had not run");
        assert_eq!(state.pair.ended(&state.run), None);
        let state = reduce(state, Action::Replies(vec![Reply::Finished]));
        assert_eq!(state.pair.ended(&state.run).map(|p| &**p), Some(&pinned));
        let state = reduce(state, Action::PairPinned);
        assert_eq!(state.pair, Pair::None);
        // Stopped while the pinned program ran: Run starts the pair over.
        let state = reduce(
            State::new("mine".into(), Device::Cpu),
            Action::OpenLink(Ok(Shared {
                pinned: Some(Box::new(pinned.clone())),
                ..link()
            })),
        );
        let state = reduce(reduce(state, Action::RunPair), Action::Started);
        let state = reduce(state, Action::Stopped);
        assert_eq!(state.pair, Pair::Opened(Rc::new(pinned)));
        assert_eq!(reduce(state, Action::DropPair).pair, Pair::None);
        // A link without a pin brings none, and clears one a link brought.
        let state = reduce(
            State::new("mine".into(), Device::Cpu),
            Action::OpenLink(Ok(link())),
        );
        assert_eq!(state.pair, Pair::None);
    }

    #[test]
    fn state_step_pass_goes_to_each_backward() {
        use gradscope_trace::{Event, EventKind};
        let pass = [
            EventKind::OpCalled {
                op: "mul".into(),
                shape: vec![],
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            EventKind::BackwardEnded,
        ];
        let events = Event::numbered(pass.iter().chain(&pass).cloned());
        let state = reduce(State::new("x".into(), Device::Cpu), Action::Started);
        let state = reduce(
            state,
            Action::Replies(vec![Reply::Events { events }, Reply::Finished]),
        );
        let state = reduce(state, Action::Seek(0));
        let mut at = Vec::new();
        let mut state = state;
        for _ in 0..3 {
            state = reduce(state, Action::StepPass(true));
            at.push(state.playback.position());
        }
        assert_eq!(at, [1, 4, 6]);
        for _ in 0..3 {
            state = reduce(state, Action::StepPass(false));
            at.push(state.playback.position());
        }
        assert_eq!(at, [1, 4, 6, 4, 1, 0]);
    }
}
