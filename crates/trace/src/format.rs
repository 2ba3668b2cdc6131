//! Tensors printed as PyTorch prints them (`tensor([[4.5000, 4.5000], ...])`),
//! for the page, the CLI and the Python runtime alike: a port of
//! `torch/_tensor_str.py` for strided CPU tensors of the dtypes gradscope has.
//!
//! ```
//! use gradscope_trace::format::{Elements, TensorRepr};
//! let t = TensorRepr::new(Elements::Float(&[1.0, 2.5, -3.0]), &[3], "float64")
//!     .with_grad(true, None);
//! assert_eq!(
//!     t.to_string(),
//!     "tensor([ 1.0000,  2.5000, -3.0000], dtype=torch.float64, requires_grad=True)"
//! );
//! ```

use std::fmt;

/// PyTorch's print options, set by `torch.set_printoptions`; the default is
/// PyTorch's `default` profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// Digits after the decimal point (`precision`, default 4).
    pub precision: usize,
    /// Element count above which a tensor is summarised with `...`
    /// (`threshold`, default 1000); `usize::MAX` stands for PyTorch's `inf`.
    pub threshold: usize,
    /// Items kept at each end of a summarised dimension (`edgeitems`, default 3).
    pub edgeitems: usize,
    /// Characters per line before a row wraps (`linewidth`, default 80).
    pub linewidth: usize,
    /// Scientific notation forced on or off (`sci_mode`); `None` lets the
    /// values decide, as PyTorch's default does.
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

/// A tensor's elements in row-major order, typed as its dtype prints them.
#[derive(Clone, Copy, Debug)]
pub enum Elements<'a> {
    /// A floating dtype; float32 values widen to f64 exactly, so they print
    /// as PyTorch prints them.
    Float(&'a [f64]),
    /// An integer dtype (`torch.int64`).
    Int(&'a [i64]),
    /// `torch.bool`.
    Bool(&'a [bool]),
}

#[derive(Clone, Copy)]
enum Value {
    Float(f64),
    Int(i64),
    Bool(bool),
}

impl Elements<'_> {
    fn get(&self, i: usize) -> Option<Value> {
        match self {
            Elements::Float(v) => v.get(i).copied().map(Value::Float),
            Elements::Int(v) => v.get(i).copied().map(Value::Int),
            Elements::Bool(v) => v.get(i).copied().map(Value::Bool),
        }
    }
}

/// What PyTorch's `repr(t)` (the same as `str(t)`) shows of a tensor: its
/// elements, shape, dtype and autograd state. `Display` prints it with the
/// default [`PrintOptions`].
#[derive(Clone, Copy, Debug)]
pub struct TensorRepr<'a> {
    /// The elements, row-major; their count should be the shape's product.
    pub elements: Elements<'a>,
    /// PyTorch's `size()`.
    pub shape: &'a [usize],
    /// The dtype's name after `torch.` (`"float32"`).
    pub dtype: &'a str,
    /// PyTorch's `requires_grad`; printed for leaves only.
    pub requires_grad: bool,
    /// The name of PyTorch's `grad_fn` (`"MulBackward0"`), if any.
    pub grad_fn: Option<&'a str>,
    /// The device (`"webgpu:0"`) when it is not the default one, which
    /// PyTorch prints first among the suffixes.
    pub device: Option<&'a str>,
    /// `torch.get_default_dtype()`'s name: a tensor of that dtype prints
    /// no `dtype=` suffix (float32 unless `torch.set_default_dtype`).
    pub default_dtype: &'a str,
}

/// The dtypes PyTorch prints without a `dtype=` suffix beside the default
/// floating dtype.
const IMPLIED_DTYPES: [&str; 2] = ["int64", "bool"];
const PREFIX: &str = "tensor(";

impl<'a> TensorRepr<'a> {
    /// A tensor that needs no gradient.
    pub fn new(elements: Elements<'a>, shape: &'a [usize], dtype: &'a str) -> Self {
        TensorRepr {
            elements,
            shape,
            dtype,
            requires_grad: false,
            grad_fn: None,
            device: None,
            default_dtype: "float32",
        }
    }

    /// The same tensor printed with `dtype` as the default floating dtype
    /// (`float64` after `torch.set_default_dtype(torch.float64)`).
    pub fn with_default_dtype(self, default_dtype: &'a str) -> Self {
        TensorRepr {
            default_dtype,
            ..self
        }
    }

    /// The same tensor shown as living on `device` (`None` on the default one).
    pub fn with_device(self, device: Option<&'a str>) -> Self {
        TensorRepr { device, ..self }
    }

    /// The same tensor with PyTorch's `requires_grad` and `grad_fn` name.
    pub fn with_grad(self, requires_grad: bool, grad_fn: Option<&'a str>) -> Self {
        TensorRepr {
            requires_grad,
            grad_fn,
            ..self
        }
    }

    /// PyTorch's `repr(t)` under `options`, as `torch._tensor_str._str` builds it.
    pub fn to_string_with(&self, options: &PrintOptions) -> String {
        let indent = PREFIX.len();
        let mut suffixes: Vec<String> = self
            .device
            .map(|d| format!("device='{d}'"))
            .into_iter()
            .collect();
        let numel: usize = self.shape.iter().product();
        let body = if numel == 0 {
            // NumPy's convention: the shape is shown unless it is `(0,)`, and
            // the dtype always, since no element implies it.
            if self.shape.len() != 1 {
                suffixes.push(format!("size={}", tuple_str(self.shape)));
            }
            if self.dtype != self.default_dtype {
                suffixes.push(format!("dtype=torch.{}", self.dtype));
            }
            "[]".to_string()
        } else {
            if options.edgeitems == 0 {
                suffixes.push(format!("size={}", tuple_str(self.shape)));
            }
            if self.dtype != self.default_dtype && !IMPLIED_DTYPES.contains(&self.dtype) {
                suffixes.push(format!("dtype=torch.{}", self.dtype));
            }
            self.body(numel, indent, options)
        };
        match (self.grad_fn, self.requires_grad) {
            (Some(name), _) => suffixes.push(format!("grad_fn=<{name}>")),
            (None, true) => suffixes.push("requires_grad=True".to_string()),
            (None, false) => {}
        }
        add_suffixes(
            format!("{PREFIX}{body}"),
            &suffixes,
            indent,
            options.linewidth,
        )
    }

    /// `_tensor_str`: the bracketed elements, with one formatter for the
    /// whole tensor (or the part of it a summary shows).
    fn body(&self, numel: usize, indent: usize, options: &PrintOptions) -> String {
        let summarize = numel > options.threshold;
        let mut shown = vec![];
        if summarize {
            summarized_indices(0, self.shape, options.edgeitems, &mut shown);
        } else {
            shown.extend(0..numel);
        }
        let formatter = Formatter::new(self.elements, &shown, options);
        let printer = Printer {
            elements: self.elements,
            formatter,
            summarize,
            options,
        };
        printer.tensor(0, self.shape, indent)
    }
}

impl fmt::Display for TensorRepr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_with(&PrintOptions::default()))
    }
}

/// PyTorch's `str(t)` for a float32 tensor of `shape` holding `values`
/// row-major, needing no gradient.
///
/// ```
/// use gradscope_trace::format::tensor_str;
/// assert_eq!(tensor_str(&[27.0], &[]), "tensor(27.)");
/// ```
pub fn tensor_str(values: &[f64], shape: &[usize]) -> String {
    TensorRepr::new(Elements::Float(values), shape, "float32").to_string()
}

/// PyTorch's `str(torch.Size(shape))`.
///
/// ```
/// use gradscope_trace::format::size_str;
/// assert_eq!(size_str(&[2, 3]), "torch.Size([2, 3])");
/// ```
pub fn size_str(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("torch.Size([{}])", dims.join(", "))
}

/// Python's `str(tuple(shape))`: `(0, 3)`, `(5,)`.
fn tuple_str(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    match dims.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", dims.join(", ")),
    }
}

/// `get_summarized_data`: the flat indices of the elements a summary shows,
/// from which the formatter takes its widths and mode.
fn summarized_indices(offset: usize, shape: &[usize], edge: usize, out: &mut Vec<usize>) {
    let Some((&len, inner)) = shape.split_first() else {
        out.push(offset);
        return;
    };
    let step: usize = inner.iter().product();
    let many = len > edge.saturating_mul(2);
    if inner.is_empty() {
        // PyTorch slices `self[-edgeitems:]`, the whole row when edgeitems is 0.
        if many && edge > 0 {
            out.extend(offset..offset + edge);
            out.extend(offset + len - edge..offset + len);
        } else {
            out.extend(offset..offset + len);
        }
    } else if edge > 0 {
        let rows: Vec<usize> = if many {
            (0..edge).chain(len - edge..len).collect()
        } else {
            (0..len).collect()
        };
        for row in rows {
            summarized_indices(offset + row * step, inner, edge, out);
        }
    }
}

/// `_Formatter`: one element width and notation for a whole tensor.
struct Formatter {
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    precision: usize,
}

impl Formatter {
    fn new(elements: Elements<'_>, shown: &[usize], options: &PrintOptions) -> Self {
        let precision = options.precision;
        let mut formatter = Formatter {
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision,
        };
        let Elements::Float(values) = elements else {
            formatter.max_width = shown
                .iter()
                .filter_map(|&i| elements.get(i))
                .map(|v| formatter.raw(v).len())
                .fold(1, usize::max);
            return formatter;
        };
        let finite: Vec<f64> = shown
            .iter()
            .filter_map(|&i| values.get(i).copied())
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        if finite.is_empty() {
            return formatter;
        }
        let min = finite.iter().map(|v| v.abs()).fold(f64::INFINITY, f64::min);
        let max = finite.iter().map(|v| v.abs()).fold(0.0, f64::max);
        formatter.int_mode = finite.iter().all(|v| *v == v.ceil());
        formatter.sci_mode = options
            .sci_mode
            .unwrap_or(max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4);
        // Non-finite values take no part in the width, as in PyTorch.
        formatter.max_width = finite
            .iter()
            .map(|&v| formatter.raw(Value::Float(v)).len())
            .fold(1, usize::max);
        formatter
    }

    /// One element before padding; int mode adds `.` to finite floats.
    fn raw(&self, value: Value) -> String {
        match value {
            Value::Int(v) => v.to_string(),
            Value::Bool(v) => if v { "True" } else { "False" }.to_string(),
            Value::Float(v) if !v.is_finite() => non_finite(v).to_string(),
            Value::Float(v) if self.sci_mode => sci(v, self.precision),
            Value::Float(v) if self.int_mode => format!("{v:.0}."),
            Value::Float(v) => format!("{v:.prec$}", prec = self.precision),
        }
    }

    /// One element right-aligned to the tensor's width.
    fn format(&self, value: Value) -> String {
        format!("{:>width$}", self.raw(value), width = self.max_width)
    }
}

/// Python's spelling of a non-finite float: `nan` (whatever its sign), `inf`, `-inf`.
fn non_finite(v: f64) -> &'static str {
    match v {
        v if v.is_nan() => "nan",
        v if v > 0.0 => "inf",
        _ => "-inf",
    }
}

/// Python's `'{:.Ne}'.format(v)`: Rust's digits (both round the exact
/// binary value half to even) with Python's exponent, signed and at least
/// two digits.
fn sci(v: f64, precision: usize) -> String {
    let rust = format!("{v:.precision$e}");
    let Some((mantissa, exponent)) = rust.split_once('e') else {
        return rust;
    };
    let (sign, digits) = match exponent.strip_prefix('-') {
        Some(digits) => ('-', digits),
        None => ('+', exponent),
    };
    format!("{mantissa}e{sign}{digits:0>2}")
}

/// `_tensor_str_with_formatter` and `_vector_str` over a flat buffer.
struct Printer<'a> {
    elements: Elements<'a>,
    formatter: Formatter,
    summarize: bool,
    options: &'a PrintOptions,
}

impl Printer<'_> {
    fn element(&self, index: usize) -> String {
        self.elements
            .get(index)
            .map(|v| self.formatter.format(v))
            .unwrap_or_default()
    }

    fn tensor(&self, offset: usize, shape: &[usize], indent: usize) -> String {
        let Some((&len, inner)) = shape.split_first() else {
            return self.element(offset);
        };
        if inner.is_empty() {
            return self.vector(offset, len, indent);
        }
        let step: usize = inner.iter().product();
        let edge = self.options.edgeitems;
        let row = |i: usize| self.tensor(offset + i * step, inner, indent + 1);
        let slices: Vec<String> = if self.summarize && len > edge.saturating_mul(2) {
            let head = (0..edge).map(row);
            let tail = (len - edge..len).map(row);
            head.chain(std::iter::once("...".to_string()))
                .chain(tail)
                .collect()
        } else {
            (0..len).map(row).collect()
        };
        let separator = format!(",{}{}", "\n".repeat(inner.len()), " ".repeat(indent + 1));
        format!("[{}]", slices.join(&separator))
    }

    fn vector(&self, offset: usize, len: usize, indent: usize) -> String {
        let edge = self.options.edgeitems;
        let element_length = self.formatter.max_width + 2;
        let per_line = (self.options.linewidth.saturating_sub(indent) / element_length).max(1);
        let data: Vec<String> = if self.summarize && edge == 0 {
            vec!["...".to_string()]
        } else if self.summarize && len > edge.saturating_mul(2) {
            let head = (offset..offset + edge).map(|i| self.element(i));
            let tail = (offset + len - edge..offset + len).map(|i| self.element(i));
            head.chain(std::iter::once(" ...".to_string()))
                .chain(tail)
                .collect()
        } else {
            (offset..offset + len).map(|i| self.element(i)).collect()
        };
        let lines: Vec<String> = data.chunks(per_line).map(|l| l.join(", ")).collect();
        let separator = format!(",\n{}", " ".repeat(indent + 1));
        format!("[{}]", lines.join(&separator))
    }
}

/// `_add_suffixes`: each suffix after a comma, on a new line when it would
/// pass the line width.
fn add_suffixes(mut out: String, suffixes: &[String], indent: usize, linewidth: usize) -> String {
    // PyTorch's arithmetic, `len(s) - s.rfind("\n") + 1`, counts two more
    // than the last line's length.
    let mut last_line_len = match out.rfind('\n') {
        Some(newline) => out.len() - newline + 1,
        None => out.len() + 2,
    };
    for suffix in suffixes {
        if last_line_len + suffix.len() + 2 > linewidth {
            out.push_str(&format!(",\n{}{suffix}", " ".repeat(indent)));
            last_line_len = indent + suffix.len();
        } else {
            out.push_str(&format!(", {suffix}"));
            last_line_len += suffix.len() + 2;
        }
    }
    out.push(')');
    out
}
