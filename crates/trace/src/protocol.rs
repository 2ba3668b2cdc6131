//! The messages between the page and the engine's Web Worker.

use serde::{Deserialize, Serialize};

use crate::event::Event;

/// What the page asks the worker to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Run the skeleton computation on the CPU, and its elementwise part on
    /// the GPU when an adapter can be had.
    RunDemo,
}

/// What the worker reports back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// The worker's engine is loaded and listening.
    Ready,
    /// Trace events, in order, continuing the previous batch.
    Events {
        /// The batch.
        events: Vec<Event>,
    },
    /// The CPU run finished.
    CpuResult {
        /// `out.item()`.
        out: f64,
        /// `x.grad`, row-major.
        x_grad: Vec<f64>,
        /// `x.grad.shape`.
        x_grad_shape: Vec<usize>,
    },
    /// The elementwise forward ran on the GPU and was compared with the CPU.
    GpuResult {
        /// The adapter's name as the browser reports it.
        adapter: String,
        /// The graphics backend (`BrowserWebGpu`, `Vulkan`).
        backend: String,
        /// `z` computed by the GPU kernel.
        z: Vec<f32>,
        /// Largest absolute difference from the CPU's `z`.
        max_abs_diff: f32,
    },
    /// No GPU could be had; the CPU result stands.
    GpuUnavailable {
        /// Why, in words for the page.
        reason: String,
    },
    /// The run failed.
    Error {
        /// PyTorch's exception type.
        kind: String,
        /// PyTorch's message.
        message: String,
    },
}
