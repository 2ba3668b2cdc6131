//! The messages between the page and the engine's Web Worker.
//!
//! Running a program is one [`Request::RunProgram`]; the worker answers with
//! [`Reply::Events`] batches and [`Reply::Stdout`] text as the program runs,
//! then one [`Reply::Finished`] or [`Reply::Error`]. Stop needs no message:
//! the page terminates the worker and starts a fresh one, which announces
//! itself with [`Reply::Ready`].
//!
//! Each message is one JSON value; a long one comes as its UTF-8 bytes
//! (see [`SMALL_REPLY_BYTES`]).

use serde::{Deserialize, Serialize};

use crate::event::Event;

/// Replies longer than this (bytes of JSON) travel as UTF-8 bytes in a
/// transferred `Uint8Array`, shorter ones as a string: a message's reader
/// takes either (`TextDecoder` for the bytes).
pub const SMALL_REPLY_BYTES: usize = 2048;

/// The program the page starts with: lesson 1's graph, built and freed.
pub const EXAMPLE: &str = "\
import torch

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)
out.backward()
print(x.grad)
";

/// Where a tensor's storage lives, and where a program's tensors go: the
/// one device type of the engine (`gradscope_core::Device` is this), the
/// page's device menu and the worker's messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Device {
    /// Host memory, computed by the CPU backend.
    #[default]
    #[serde(rename = "cpu")]
    Cpu,
    /// A GPU through WebGPU (in the browser) or Vulkan (natively), computed
    /// by WGSL kernels.
    #[serde(rename = "webgpu")]
    WebGpu,
}

/// Why a device string names no device of this build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceParseError {
    /// A device PyTorch knows (`cuda`, `mps`, `xpu`, `meta`) that this build
    /// has no backend for.
    NotCompiled(String),
    /// Not a device string at all.
    Invalid(String),
}

impl Device {
    /// Both devices, in ledger order.
    pub const ALL: [Device; 2] = [Device::Cpu, Device::WebGpu];

    /// PyTorch's device type string, which the menu and storage use too:
    /// `cpu`, `webgpu`.
    pub fn type_name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::WebGpu => "webgpu",
        }
    }

    /// PyTorch's `device.index`: `None` for the CPU, 0 for the one GPU.
    pub fn index(self) -> Option<u32> {
        match self {
            Device::Cpu => None,
            Device::WebGpu => Some(0),
        }
    }

    /// The device whose type name is `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Device::ALL.into_iter().find(|d| d.type_name() == name)
    }

    /// Parses a device string as `torch.device` does: `cpu`, `webgpu`,
    /// `webgpu:0`, and the alias `gpu`. `cuda` and `mps` name devices this
    /// build has no backend for, and say so.
    pub fn parse(text: &str) -> Result<Device, DeviceParseError> {
        let (kind, index) = match text.split_once(':') {
            Some((kind, index)) => (kind, Some(index)),
            None => (text, None),
        };
        let index_ok = |max: u32| match index {
            None => true,
            Some(i) => i.parse::<u32>().is_ok_and(|i| i <= max),
        };
        match kind {
            "cpu" if index.is_none() || index == Some("0") => Ok(Device::Cpu),
            "webgpu" | "gpu" if index_ok(0) => Ok(Device::WebGpu),
            "cuda" | "mps" | "xpu" | "meta" => Err(DeviceParseError::NotCompiled(kind.to_string())),
            _ => Err(DeviceParseError::Invalid(text.to_string())),
        }
    }
}

impl std::fmt::Display for Device {
    /// `str(torch.device(...))`: `cpu`, `webgpu:0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index() {
            None => f.write_str(self.type_name()),
            Some(i) => write!(f, "{}:{i}", self.type_name()),
        }
    }
}

/// Whether this browser can run programs on WebGPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum WebGpu {
    /// An adapter was found.
    Available {
        /// The adapter's name as the browser reports it.
        adapter: String,
        /// The graphics backend (`BrowserWebGpu`).
        backend: String,
    },
    /// None could be had.
    Unavailable {
        /// Why, in words for the device menu.
        reason: String,
    },
}

/// What the page asks the worker to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Find out which devices this browser offers; answered by [`Reply::Devices`].
    ProbeDevices,
    /// Run a Python program from the start, recording its trace.
    RunProgram {
        /// The program's text.
        source: String,
        /// The default device for its tensors.
        device: Device,
        /// Tensor bytes the program may hold; past it an allocation raises
        /// `torch.OutOfMemoryError`. `None`: the worker's default budget.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        memory_budget: Option<u64>,
    },
    /// Check a lesson's claims: run its program as each claim needs (with
    /// its controls at the values the claim compares) and measure; answered
    /// by [`Reply::LessonChecked`]. These runs are not streamed.
    CheckLesson {
        /// The lesson's slug (`forgot-zero-grad`).
        slug: String,
        /// The default device for its tensors (the CPU when unnamed).
        #[serde(default)]
        device: Device,
    },
    /// Send the trace of the worker's warm-up run (a short training loop it
    /// runs once, unseen), for the page to draw its views on once, unseen,
    /// before the learner's first run; answered by [`Reply::Rehearsal`] and
    /// then [`Reply::Rehearsed`].
    Rehearse,
}

/// One claim of a lesson, as the engine decided it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// The claim's sentence.
    pub text: String,
    /// Whether it held (a claim that could not be decided did not).
    pub passed: bool,
    /// The measurements it compared, or why it could not be decided.
    pub measured: String,
}

/// What the worker reports back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// The worker's engine and Python interpreter are loaded and listening.
    Ready {
        /// How long making the interpreter and importing `torch` took.
        startup_ms: f64,
    },
    /// The answer to [`Request::ProbeDevices`].
    Devices {
        /// WebGPU's availability.
        webgpu: WebGpu,
    },
    /// Trace events, in order, continuing the previous batch of this run.
    Events {
        /// The batch.
        events: Vec<Event>,
    },
    /// Text the program printed, exactly as Python printed it.
    Stdout {
        /// The text, newlines included.
        text: String,
    },
    /// Text the program wrote to `sys.stderr` (warnings), not including the
    /// traceback of an uncaught exception, which [`Reply::Error`] carries.
    Stderr {
        /// The text, newlines included.
        text: String,
    },
    /// A note from the engine about the run (not program output).
    Notice {
        /// The note, in words for the console.
        text: String,
    },
    /// The program ran to its end.
    Finished,
    /// The warm-up run's trace events, for [`Request::Rehearse`]: one
    /// message holding them all, which the page parses a frame's budget at
    /// a time as it does [`Reply::Events`].
    Rehearsal {
        /// Every event of the warm-up run, in order.
        events: Vec<Event>,
    },
    /// The warm-up run's trace has all been sent.
    Rehearsed,
    /// The answer to [`Request::CheckLesson`].
    LessonChecked {
        /// The lesson's slug.
        slug: String,
        /// Every claim, in the lesson's order.
        claims: Vec<ClaimResult>,
        /// The lesson's key figures as (label, value), measured.
        figures: Vec<(String, String)>,
    },
    /// The program raised, or the engine failed; the run is over.
    Error {
        /// The Python exception type (`RuntimeError`).
        kind: String,
        /// Its message, as PyTorch words it.
        message: String,
        /// The program line that raised, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u32>,
        /// The report CPython would print (`Traceback (most recent call
        /// last):` ...), when the Python runtime made one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        traceback: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_run_program_json() -> Result<(), serde_json::Error> {
        let request = Request::RunProgram {
            source: "print(1)\n".into(),
            device: Device::WebGpu,
            memory_budget: None,
        };
        let json = serde_json::to_string(&request)?;
        assert_eq!(
            json,
            r#"{"type":"run_program","source":"print(1)\n","device":"webgpu"}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&json)?, request);
        Ok(())
    }

    #[test]
    fn protocol_run_program_memory_budget() -> Result<(), serde_json::Error> {
        let request = Request::RunProgram {
            source: "pass\n".into(),
            device: Device::Cpu,
            memory_budget: Some(64 << 20),
        };
        let json = serde_json::to_string(&request)?;
        assert_eq!(
            json,
            r#"{"type":"run_program","source":"pass\n","device":"cpu","memory_budget":67108864}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&json)?, request);
        Ok(())
    }

    #[test]
    fn protocol_check_lesson_names_its_device() -> Result<(), serde_json::Error> {
        let request = Request::CheckLesson {
            slug: "forgot-zero-grad".into(),
            device: Device::WebGpu,
        };
        let json = serde_json::to_string(&request)?;
        assert_eq!(
            json,
            r#"{"type":"check_lesson","slug":"forgot-zero-grad","device":"webgpu"}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&json)?, request);
        // A page from before devices were named checks on the CPU.
        let old: Request = serde_json::from_str(r#"{"type":"check_lesson","slug":"x"}"#)?;
        assert!(matches!(
            old,
            Request::CheckLesson {
                device: Device::Cpu,
                ..
            }
        ));
        Ok(())
    }

    #[test]
    fn protocol_error_line_is_optional() -> Result<(), serde_json::Error> {
        // worker.js reports a failed load without a line.
        let reply: Reply = serde_json::from_str(
            r#"{"type":"error","kind":"RuntimeError","message":"the engine could not load"}"#,
        )?;
        assert_eq!(
            reply,
            Reply::Error {
                kind: "RuntimeError".into(),
                message: "the engine could not load".into(),
                line: None,
                traceback: None,
            }
        );
        let json = serde_json::to_string(&Reply::Devices {
            webgpu: WebGpu::Unavailable {
                reason: "no adapter".into(),
            },
        })?;
        assert_eq!(
            json,
            r#"{"type":"devices","webgpu":{"status":"unavailable","reason":"no adapter"}}"#
        );
        Ok(())
    }

    #[test]
    fn protocol_device_names() {
        for device in [Device::Cpu, Device::WebGpu] {
            assert_eq!(Device::from_name(device.type_name()), Some(device));
        }
        assert_eq!(Device::from_name("cuda"), None);
    }
}
