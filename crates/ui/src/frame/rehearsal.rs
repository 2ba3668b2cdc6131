//! The heavy views drawn once, unseen, on the worker's warm-up trace before
//! the learner's first run.
//!
//! V8 compiles a wasm function when it is first called, to baseline code,
//! and recompiles the hot ones optimised later. A fresh page's first
//! training run drew its views in baseline code: traced, 15 to 35 ms of
//! script per view update, 3 to 9 ms of it compiling, against 9 to 13 ms in
//! a page that had run a loop before (Chromium's performance panel). The worker already
//! runs a short training loop once to warm its own code; its trace comes
//! here (`Request::Rehearse`), and the graph, memory and charts panels draw
//! it as they draw a live run: the trace revealed a batch at a time, one
//! panel updated per turn, a few frames apart.
//!
//! They draw into an element that is never attached to the document: the
//! same Rust and the same DOM calls run, with no style, layout or paint,
//! and nothing a query, a screen reader or the keyboard can find. Sizes
//! come from [`StageSize`], since a detached element has none. A run
//! started meanwhile ends the rehearsal: the run warms the code itself.

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_trace::memory_chart::Axis;
use gradscope_trace::{Event, EventLog};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::AppHandle;
use yew::prelude::*;

use crate::components::charts_panel::ChartsPanel;
use crate::components::graph_panel::GraphPanel;
use crate::components::memory_panel::MemoryPanel;
use crate::size::StageSize;

/// How many batches the warm-up trace is revealed in: each panel updates
/// a third as often, about as often as in a learner's first 20-step loop.
const REVEALS: usize = 24;

/// Frames between two updates (a live run's hand-overs are 50 ms apart).
const FRAMES_APART: u32 = 3;

/// The size each panel is drawn at: about the playground's at 1280x800.
const SIZE: StageSize = StageSize {
    width: 600.0,
    height: 380.0,
};

/// Each panel's trace and position, as the page's `App` hands them over.
#[derive(Properties, PartialEq, Clone, Default)]
pub struct StageProps {
    pub views: [(EventLog, usize); 3],
}

/// The panels, drawn as the page draws them.
#[function_component]
pub fn Stage(props: &StageProps) -> Html {
    let [(graph, at_graph), (memory, at_memory), (charts, at_charts)] = props.views.clone();
    html! {
        <ContextProvider<StageSize> context={SIZE}>
            <GraphPanel log={graph} position={at_graph} />
            <MemoryPanel log={memory} position={at_memory} axis={Axis::default()}
                         on_axis={Callback::noop()} on_budget={Some(Callback::noop())} />
            <ChartsPanel log={charts} position={at_charts} />
        </ContextProvider<StageSize>>
    }
}

/// Where a rehearsal stands.
#[derive(Default)]
enum Phase {
    /// Asked for; its events are coming.
    #[default]
    Receiving,
    /// Drawing, a frame at a time.
    Drawing(Box<Drawing>),
    /// Drawn, or given up for a run.
    Over,
}

/// A rehearsal being drawn.
struct Drawing {
    /// The warm-up trace's events not yet revealed (the log holds the rest).
    events: Vec<Event>,
    schedule: Schedule,
    log: EventLog,
    props: StageProps,
    frame: u32,
    app: Option<AppHandle<Stage>>,
}

/// Which events the panels are handed, and which panel, step by step.
#[derive(Debug)]
struct Schedule {
    len: usize,
    /// How many events have been revealed.
    revealed: usize,
    /// How many each panel has been handed.
    shown: [usize; 3],
    /// The panel handed them next.
    turn: usize,
}

impl Schedule {
    fn new(len: usize) -> Self {
        Schedule {
            len,
            revealed: 0,
            shown: [0; 3],
            turn: 0,
        }
    }

    /// The events to reveal now (after those revealed) and the panel that
    /// is handed all revealed so far; `None` once every panel has all.
    fn next(&mut self) -> Option<(std::ops::Range<usize>, usize)> {
        if self.shown.iter().all(|&at| at == self.len) {
            return None;
        }
        let start = self.revealed;
        self.revealed = (start + self.len.div_ceil(REVEALS)).min(self.len);
        let panel = self.turn;
        self.shown[panel] = self.revealed;
        self.turn = (panel + 1) % 3;
        Some((start..self.revealed, panel))
    }
}

/// The page's one rehearsal: fed by the engine's replies, drawn on
/// animation frames.
#[derive(Clone, Default)]
pub struct Rehearsal(Rc<RefCell<(Phase, Vec<Event>)>>);

impl Rehearsal {
    /// Keeps events of the warm-up trace until it has all come.
    pub fn receive(&self, events: Vec<Event>) {
        let mut inner = self.0.borrow_mut();
        if matches!(inner.0, Phase::Receiving) {
            inner.1.extend(events);
        }
    }

    /// The trace has all come: draw it, starting on the next frame.
    pub fn received(&self) {
        let mut inner = self.0.borrow_mut();
        if !matches!(inner.0, Phase::Receiving) {
            return;
        }
        let events = std::mem::take(&mut inner.1);
        inner.0 = Phase::Drawing(Box::new(Drawing {
            schedule: Schedule::new(events.len()),
            events,
            log: EventLog::default(),
            props: StageProps::default(),
            frame: 0,
            app: None,
        }));
        drop(inner);
        self.next_frame();
    }

    /// Ends it now, drawn or not.
    pub fn give_up(&self) {
        let mut inner = self.0.borrow_mut();
        let phase = std::mem::replace(&mut inner.0, Phase::Over);
        inner.1 = Vec::new();
        drop(inner);
        if let Phase::Drawing(drawing) = phase
            && let Some(app) = drawing.app
        {
            app.destroy();
        }
    }

    fn next_frame(&self) {
        let this = self.clone();
        let tick = Closure::once_into_js(move || this.tick());
        if let Some(window) = web_sys::window() {
            let _ = window.request_animation_frame(tick.unchecked_ref());
        }
    }

    fn tick(&self) {
        let mut inner = self.0.borrow_mut();
        let Phase::Drawing(drawing) = &mut inner.0 else {
            return;
        };
        drawing.frame += 1;
        if drawing.frame % FRAMES_APART == 0 && !drawing.step() {
            drop(inner);
            self.give_up();
            mark("gradscope-rehearsed");
            return;
        }
        drop(inner);
        self.next_frame();
    }
}

impl Drawing {
    /// Hands the next batch to the next panel; `false` once all panels
    /// show the whole trace.
    fn step(&mut self) -> bool {
        let Some((reveal, panel)) = self.schedule.next() else {
            return false;
        };
        if !reveal.is_empty() {
            self.log.push(self.events.drain(..reveal.len()).collect());
        }
        self.props.views[panel] = (self.log.clone(), self.log.len());
        match &mut self.app {
            Some(app) => app.update(self.props.clone()),
            None => {
                let Some(root) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.create_element("div").ok())
                else {
                    return false;
                };
                self.app = Some(
                    yew::Renderer::<Stage>::with_root_and_props(root, self.props.clone()).render(),
                );
            }
        }
        true
    }
}

/// A Performance API mark, for tests and traces to find.
fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rehearsal_reveals_the_trace_in_order_and_hands_each_panel_all_of_it() {
        for len in [0, 1, 5, 24, 100, 4926] {
            let mut schedule = Schedule::new(len);
            let mut revealed = 0;
            let mut steps = 0;
            let mut turns = Vec::new();
            while let Some((range, panel)) = schedule.next() {
                assert_eq!(range.start, revealed, "in order, none skipped");
                assert!(range.len() <= len.div_ceil(REVEALS), "a batch at a time");
                revealed = range.end;
                turns.push(panel);
                steps += 1;
                assert!(steps <= REVEALS + 2, "{len} events: it ends");
            }
            assert_eq!(revealed, len);
            assert_eq!(schedule.shown, [len; 3], "every panel has it all");
            // The panels take turns, one per step, as the page's do.
            assert!(turns.iter().enumerate().all(|(i, &p)| p == i % 3));
        }
    }
}
