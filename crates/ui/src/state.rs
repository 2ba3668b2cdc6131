//! The app's one state and its pure reducer.

use std::rc::Rc;

use gradscope_trace::{Event, GraphLayout, GraphState, Reply};
use yew::Reducible;

/// Where the GPU side of the run stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Gpu {
    /// Not known yet.
    Pending,
    /// The elementwise forward ran on this adapter.
    Ran {
        adapter: String,
        backend: String,
        z: Vec<f32>,
        max_abs_diff: f32,
    },
    /// No adapter; the page runs on the CPU.
    Unavailable { reason: String },
}

/// The CPU run's result.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuResult {
    pub out: f64,
    pub x_grad: Vec<f64>,
    pub x_grad_shape: Vec<usize>,
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub worker_ready: bool,
    pub events: Vec<Event>,
    pub graph: GraphState,
    pub layout: GraphLayout,
    pub cpu: Option<CpuResult>,
    pub gpu: Gpu,
    pub error: Option<String>,
}

impl Default for State {
    fn default() -> Self {
        Self {
            worker_ready: false,
            events: vec![],
            graph: GraphState::default(),
            layout: GraphLayout::default(),
            cpu: None,
            gpu: Gpu::Pending,
            error: None,
        }
    }
}

/// What can happen to the state.
#[derive(Debug)]
pub enum Action {
    /// The worker said something.
    Reply(Reply),
    /// The worker could not be started or failed.
    WorkerFailed(String),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        match action {
            Action::Reply(Reply::Ready) => next.worker_ready = true,
            Action::Reply(Reply::Events { events }) => {
                for event in &events {
                    next.graph.apply(event);
                }
                next.events.extend(events);
                next.layout = GraphLayout::of(&next.graph);
            }
            Action::Reply(Reply::CpuResult {
                out,
                x_grad,
                x_grad_shape,
            }) => {
                next.cpu = Some(CpuResult {
                    out,
                    x_grad,
                    x_grad_shape,
                });
            }
            Action::Reply(Reply::GpuResult {
                adapter,
                backend,
                z,
                max_abs_diff,
            }) => {
                next.gpu = Gpu::Ran {
                    adapter,
                    backend,
                    z,
                    max_abs_diff,
                };
            }
            Action::Reply(Reply::GpuUnavailable { reason }) => {
                next.gpu = Gpu::Unavailable { reason }
            }
            Action::Reply(Reply::Error { kind, message }) => {
                next.error = Some(format!("{kind}: {message}"));
            }
            Action::WorkerFailed(message) => next.error = Some(message),
        }
        Rc::new(next)
    }
}
