//! Tensors and sizes printed as PyTorch prints them, through the formatter
//! in `gradscope_trace::format` (which the page and CLI share).

use std::fmt;

use gradscope_trace::format::{Elements, PrintOptions, TensorRepr, size_str};

use crate::dtype::DType;
use crate::tensor::Tensor;

impl Tensor {
    /// PyTorch's `repr(t)` (the same text as `str(t)`) under print options
    /// other than the default, as after `torch.set_printoptions`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// use gradscope_trace::format::PrintOptions;
    /// let t = Tensor::from_vec(vec![1.5f32, 2.25], &[2])?;
    /// let options = PrintOptions { precision: 1, ..PrintOptions::default() };
    /// assert_eq!(t.repr_with(&options), "tensor([1.5, 2.2])");
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn repr_with(&self, options: &PrintOptions) -> String {
        let node = self.grad_fn();
        let grad_fn = node.as_ref().map(|n| n.name());
        let (floats, ints, bools);
        let elements = match self.dtype() {
            DType::BFloat16 | DType::Float32 | DType::Float64 => {
                floats = self.to_vec::<f64>();
                Elements::Float(&floats)
            }
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
                ints = self.to_vec::<i64>();
                Elements::Int(&ints)
            }
            DType::Bool => {
                bools = self.to_vec::<bool>();
                Elements::Bool(&bools)
            }
        };
        let device = self.device();
        let device = (device != crate::device::default_device()).then(|| device.to_string());
        TensorRepr::new(elements, self.shape(), self.dtype().name())
            .with_grad(self.requires_grad(), grad_fn)
            .with_device(device.as_deref())
            .with_default_dtype(DType::default_float().name())
            .to_string_with(options)
    }

    /// PyTorch's `repr(t)`, the same text as `Display`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::ones(&[2]).requires_grad_(true);
    /// assert_eq!(x.repr(), "tensor([1., 1.], requires_grad=True)");
    /// let y = x.mul(&Tensor::scalar(2.0))?;
    /// assert_eq!(y.repr(), "tensor([2., 2.], grad_fn=<MulBackward0>)");
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn repr(&self) -> String {
        self.repr_with(&PrintOptions::default())
    }
}

/// PyTorch's `str(t)`: elements at precision 4, scientific notation when
/// the magnitudes call for it, summaries past 1000 elements, and the
/// `dtype=`, `requires_grad=True` and `grad_fn=<...>` suffixes.
impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.repr())
    }
}

/// A shape as PyTorch's `torch.Size` prints it.
///
/// ```
/// use gradscope_core::display::Size;
/// assert_eq!(Size(&[2, 3]).to_string(), "torch.Size([2, 3])");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size<'a>(pub &'a [usize]);

impl fmt::Display for Size<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&size_str(self.0))
    }
}
