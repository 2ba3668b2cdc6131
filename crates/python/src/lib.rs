//! gradscope's Python runtime: RustPython embedded, with the `torch` package
//! over gradscope-core, so learners' PyTorch programs run unchanged.
//!
//! ```
//! use gradscope_python::Runtime;
//! let mut rt = Runtime::new();
//! let out = rt.run("import torch\nx = torch.ones(2, requires_grad=True)\nprint((x * 3).sum())\n");
//! assert_eq!(out.stdout, "tensor(6., grad_fn=<SumBackward0>)\n");
//! assert!(out.error.is_none());
//! ```
//!
//! The `torch` package is a native module, `_gradscope` (reachable as
//! `torch._C`, PyTorch's name for its own), plus Python source under `py/`
//! compiled to bytecode into the binary at build time, where PyTorch writes
//! those parts in Python (`torch.Tensor` over `torch._C.TensorBase`, grad
//! modes, `torch.autograd`, `torch.nn`, `torch.optim`). A few
//! standard-library modules are frozen the same way (see `build.rs`);
//! nothing is imported from disk. Programs read only the files the host
//! adds with [`Runtime::add_file`]: read-only, by relative name, through
//! `open`, `gzip` and `csv`.

mod compile;
mod convert;
mod cpython_hash;
mod device;
mod dtype;
mod errors;
mod figures;
mod frozen;
mod function;
mod functional;
mod indexing;
mod limits;
mod methods;
mod module;
mod names;
mod node;
mod output;
mod rng;
mod runtime;
mod sizes;
mod state;
mod stdlib;
#[cfg(not(target_arch = "wasm32"))]
mod svg_png;
mod tensor;
mod traceback;

pub use figures::{FigureSink, set_figure_sink};
pub use limits::Limits;
pub use output::{OutputSink, Stream};
pub use runtime::{PythonError, RunOutput, Runtime, WrittenFile};
pub use stdlib::{StdlibFetch, set_stdlib_fetch};
