//! gradscope's engine: tensors, ops and their backward, the autograd engine,
//! grad modes, the memory ledger and the CPU backend.
//!
//! The skeleton computation, as PyTorch would write it:
//!
//! ```
//! use gradscope_core::Tensor;
//! let x = Tensor::ones(&[2, 2]).requires_grad_(true);
//! let y = x.add(&Tensor::scalar(2.0))?;
//! let z = y.mul(&y)?.mul(&Tensor::scalar(3.0))?;
//! let out = z.mean()?;
//! out.backward()?;
//! assert_eq!(out.item()?, 27.0);
//! assert_eq!(x.grad().map(|g| g.to_vec::<f32>()), Some(vec![4.5; 4]));
//! # Ok::<(), gradscope_core::Error>(())
//! ```

pub mod autograd;
pub mod backend;
pub mod cpu;
pub mod device;
pub mod display;
pub mod dtype;
pub mod error;
pub mod grad_mode;
pub mod gradcheck;
pub(crate) mod kernels;
pub mod layout;
pub mod ledger;
pub mod ops;
pub mod optim;
pub mod storage;
pub mod tensor;
pub mod trace;

pub use backend::{BinaryOp, DeviceBackend, DeviceBuffer, ReduceKernel};
pub use device::Device;
pub use dtype::DType;
pub use error::{Error, Result};
pub use layout::Layout;
pub use ops::Op;
pub use ops::arith::Scalar;
pub use tensor::Tensor;
