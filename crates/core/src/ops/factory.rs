//! Factories: `arange`, `linspace`, `eye` and the `*_like` family. They
//! record no graph; values are computed the way PyTorch's CPU kernels
//! compute them (fused multiply-adds, `arange`'s vector blocks), so they
//! match PyTorch bit for bit. Random factories are in `random.rs`.

use super::new_tensor;
use crate::cpu::CpuBuffer;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Lanes of the vectors PyTorch's `arange` kernel fills on x86, by dtype.
const ARANGE_LANES_F32: usize = 8;
const ARANGE_LANES_F64: usize = 4;

impl Tensor {
    /// `start, start + step, ...` up to before `end`, PyTorch's
    /// `torch.arange(start, end, step, dtype=dtype)`. PyTorch picks int64
    /// when all three are Python ints and the default float dtype
    /// otherwise; the caller passes that choice as `dtype`.
    ///
    /// ```
    /// use gradscope_core::{DType, Tensor};
    /// let x = Tensor::arange(0.0, 1.0, 0.25, DType::Float32)?;
    /// assert_eq!(x.to_vec::<f32>(), vec![0.0, 0.25, 0.5, 0.75]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
        if step == 0.0 {
            return Err(Error::ArangeStepZero);
        }
        if !start.is_finite() || !end.is_finite() {
            return Err(Error::ArangeRange { start, end });
        }
        if (step > 0.0 && end < start) || (step < 0.0 && end > start) {
            return Err(Error::ArangeSign);
        }
        let len = ((end - start) / step).ceil();
        if len.is_nan() || len > i64::MAX as f64 {
            return Err(Error::ArangeSize);
        }
        let len = len.max(0.0) as usize;
        crate::ledger::check_new_buffer(&[len], dtype)?;
        let buffer = match dtype {
            DType::Float64 => CpuBuffer::F64(arange_blocks(
                len,
                ARANGE_LANES_F64,
                |i| step.mul_add(i as f64, start),
                |base, k| (k as f64).mul_add(step, base),
            )),
            DType::Float32 => CpuBuffer::F32(arange_blocks(
                len,
                ARANGE_LANES_F32,
                |i| step.mul_add(i as f64, start) as f32,
                |base, k| (k as f64).mul_add(step, f64::from(base)) as f32,
            )),
            d if d.is_integer() => {
                let (start, step) = (start as i64, step as i64);
                CpuBuffer::I64((0..len as i64).map(|i| start + step * i).collect()).into_dtype(d)
            }
            DType::BFloat16 => {
                CpuBuffer::F64((0..len).map(|i| step.mul_add(i as f64, start)).collect())
                    .into_dtype(DType::BFloat16)
            }
            // bool
            _ => CpuBuffer::Bool(
                (0..len)
                    .map(|i| step.mul_add(i as f64, start) != 0.0)
                    .collect(),
            ),
        };
        Ok(new_tensor(buffer, &[len]))
    }

    /// `steps` evenly spaced values from `start` to `end`, PyTorch's
    /// `torch.linspace(start, end, steps, dtype=dtype)`.
    pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType) -> Result<Tensor> {
        if steps < 0 {
            return Err(Error::LinspaceSteps);
        }
        // A count past usize (on wasm32) is refused as too large to store,
        // naming the count asked for.
        let n = usize::try_from(steps)
            .map_err(|_| Error::StorageSizeOverflow { sizes: vec![steps] })?;
        crate::ledger::check_new_buffer(&[n], dtype)?;
        let half = n / 2;
        // The first half counts up from `start`, the second down from `end`.
        let buffer = match dtype {
            DType::Float32 => {
                let (s, e) = (start as f32, end as f32);
                let step = (e - s) / (steps - 1) as f32;
                CpuBuffer::F32(
                    (0..n)
                        .map(|i| match (n, i < half) {
                            (1, _) => s,
                            (_, true) => step.mul_add(i as f32, s),
                            (_, false) => (-step).mul_add((n - i - 1) as f32, e),
                        })
                        .collect(),
                )
            }
            other => {
                // Integer results start from integer bounds, as PyTorch converts them first.
                let (start, end) = match other {
                    d if d.is_integer() => (start.trunc(), end.trunc()),
                    _ => (start, end),
                };
                let step = (end - start) / (steps - 1) as f64;
                let values = (0..n).map(|i| match (n, i < half) {
                    (1, _) => start,
                    (_, true) => step.mul_add(i as f64, start),
                    (_, false) => (-step).mul_add((n - i - 1) as f64, end),
                });
                match other {
                    d if d.is_integer() => {
                        CpuBuffer::I64(values.map(|v| v as i64).collect()).into_dtype(d)
                    }
                    DType::Bool => CpuBuffer::Bool(values.map(|v| v != 0.0).collect()),
                    // float64, and bfloat16 rounded from it.
                    _ => CpuBuffer::F64(values.collect()).into_dtype(other),
                }
            }
        };
        Ok(new_tensor(buffer, &[n]))
    }

    /// Ones on the diagonal of an `n` by `m` (default `n`) matrix, PyTorch's `torch.eye`.
    pub fn eye(n: i64, m: Option<i64>, dtype: DType) -> Result<Tensor> {
        let m = m.unwrap_or(n);
        if n < 0 {
            return Err(Error::EyeNegative { arg: "n", value: n });
        }
        if m < 0 {
            return Err(Error::EyeNegative { arg: "m", value: m });
        }
        let (n, m) = (
            usize::try_from(n).map_err(|_| Error::NumelOverflow)?,
            usize::try_from(m).map_err(|_| Error::NumelOverflow)?,
        );
        if n.checked_mul(m).is_none() {
            return Err(Error::NumelOverflow);
        }
        // The values are built as f64 before the cast to `dtype`.
        crate::ledger::check_new_buffer(&[n, m], DType::Float64)?;
        let values: Vec<f64> = (0..n * m)
            .map(|k| f64::from(u8::from(k / m.max(1) == k % m.max(1))))
            .collect();
        let out = Tensor::from_vec(values, &[n, m])?;
        match dtype {
            DType::Float64 => Ok(out),
            _ => Ok(new_tensor(
                out.storage().data().gather_as(out.layout(), dtype),
                &[n, m],
            )),
        }
    }

    /// PyTorch's `torch.zeros_like(self)`: same shape and dtype.
    pub fn zeros_like(&self) -> Tensor {
        self.full_like(0.0)
    }

    /// PyTorch's `torch.ones_like(self)`.
    pub fn ones_like(&self) -> Tensor {
        self.full_like(1.0)
    }

    /// PyTorch's `torch.full_like(self, value)`.
    pub fn full_like(&self, value: f64) -> Tensor {
        let _on = crate::device::Scope::new(self.device());
        Tensor::full_dtype(self.shape(), value, self.dtype())
    }

    /// PyTorch's `torch.empty_like(self)`; gradscope's memory is always
    /// initialised, so it holds zeros.
    pub fn empty_like(&self) -> Tensor {
        self.zeros_like()
    }
}

/// PyTorch's `arange` kernel: pairs of `lanes`-wide vectors, each lane `k`
/// from its vector's first value `base` as `lane(base, k)`, then one value
/// at a time for the last few.
fn arange_blocks<T: Copy>(
    len: usize,
    lanes: usize,
    scalar: impl Fn(usize) -> T,
    lane: impl Fn(T, usize) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i + 2 * lanes <= len {
        for _ in 0..2 {
            let base = scalar(i);
            out.extend((0..lanes).map(|k| lane(base, k)));
            i += lanes;
        }
    }
    out.extend((i..len).map(scalar));
    out
}
