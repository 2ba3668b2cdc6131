//! The GPU's kernels: float32 kernels over its buffers, through the
//! [`DeviceBackend`] a GPU crate registers. Each answers `Ok(None)` where
//! an operand is not float32 (or a CPU number it uploads), or the backend
//! has no kernel for the case; [`super::run`] then computes on the host
//! copies, which the storages keep current.

use std::cell::Ref;
use std::ops::Deref;
use std::rc::Rc;

use super::{Kernels, Operand};
use crate::backend::{
    AdamStep, BinaryOp, CompareKernel, DeviceBackend, DeviceBuffer, IGNORED_TARGET, Kernel,
    NllGeometry, ReduceKernel, ScatterPart,
};
use crate::cpu::CpuBuffer;
use crate::cpu::conv::Window2d;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::storage::Storage;

/// The GPU: float32 kernels over its buffers.
pub(super) struct Gpu(pub(super) Rc<dyn DeviceBackend>);

impl Gpu {
    /// A GPU storage over a kernel's result, counted as a kernel run.
    fn finish(result: Kernel) -> Result<Option<Storage>> {
        Ok(result?.map(|buffer| {
            device::count(|s| s.kernels += 1);
            Storage::from_device(buffer)
        }))
    }
}

impl Kernels for Gpu {
    fn unary(
        &self,
        op: &UnaryOp,
        x: &Storage,
        layout: &Layout,
        dtype: DType,
    ) -> Result<Option<Storage>> {
        if dtype != DType::Float32 {
            return Ok(None);
        }
        // A CPU number beside GPU tensors (in a device path's steps) is
        // uploaded as one element.
        let Some((buffer, layout)) = self.float32((x, layout))? else {
            return Ok(None);
        };
        Gpu::finish(self.0.unary(op, &*buffer, &layout))
    }

    fn cast(&self, x: &Storage, layout: &Layout, dtype: DType) -> Result<Option<Storage>> {
        // A bool mask's device copy already holds 1.0 and 0.0: `mask.float()`
        // is a copy. Other conversions involve a dtype the device lacks.
        if dtype != DType::Float32 {
            return Ok(None);
        }
        let Some(mask) = x.mask_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(self.0.copy(&*mask, layout))
    }

    fn compare(
        &self,
        op: CompareKernel,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        // The mask stays on the device, for `where` to read.
        let Some([(a, al), (b, bl)]) = self.float_pair(a, b, shape, dtype)? else {
            return Ok(None);
        };
        Ok(self.0.compare(op, &*a, &al, &*b, &bl)?.map(|buffer| {
            device::count(|s| s.kernels += 1);
            Storage::from_device_mask(buffer)
        }))
    }

    fn where_cond(
        &self,
        condition: Operand<'_>,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        let Some([(a, al), (b, bl)]) = self.float_pair(a, b, shape, dtype)? else {
            return Ok(None);
        };
        let Some((c, cl)) = self.mask(condition)? else {
            return Ok(None);
        };
        let cl = cl.broadcast_to(shape)?;
        Gpu::finish(self.0.where_cond(&*c, &cl, &*a, &al, &*b, &bl))
    }

    fn softmax(&self, (x, layout): Operand<'_>, dim: usize, log: bool) -> Result<Option<Storage>> {
        let Some(buffer) = x.device_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(self.0.softmax(&*buffer, layout, dim, log))
    }

    fn matmul(&self, (a, al): Operand<'_>, (b, bl): Operand<'_>) -> Result<Option<Storage>> {
        let (Some(ab), Some(bb)) = (a.device_buffer()?, b.device_buffer()?) else {
            return Ok(None);
        };
        Gpu::finish(self.0.matmul(&*ab, al, &*bb, bl))
    }

    fn binary(
        &self,
        op: BinaryOp,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        let Some([(a, al), (b, bl)]) = self.float_pair(a, b, shape, dtype)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.binary(op, &*a, &al, &*b, &bl))
    }

    fn binary_number(
        &self,
        op: BinaryOp,
        x: Operand<'_>,
        value: f64,
        number_first: bool,
    ) -> Result<Option<Storage>> {
        let Some((buffer, layout)) = self.float32(x)? else {
            return Ok(None);
        };
        // Rounded to float32 as the CPU's float32 path rounds the number.
        let number = self.0.upload(&[value as f32])?;
        device::count(|s| s.uploads += 1);
        let spread = Layout::contiguous(&[]).broadcast_to(layout.shape())?;
        Gpu::finish(match number_first {
            true => self.0.binary(op, &*number, &spread, &*buffer, &layout),
            false => self.0.binary(op, &*buffer, &layout, &*number, &spread),
        })
    }

    fn reduce(&self, op: ReduceKernel, x: Operand<'_>, dims: &[usize]) -> Result<Option<Storage>> {
        let Some((buffer, layout)) = self.float32(x)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.reduce(op, &*buffer, &layout, dims))
    }

    fn copy(&self, x: Operand<'_>) -> Result<Option<Storage>> {
        let Some((buffer, layout)) = self.float32(x)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.copy(&*buffer, &layout))
    }

    fn scatter(&self, parts: &[(Operand<'_>, &Layout)], numel: usize) -> Result<Option<Storage>> {
        let on_gpu = |((s, _), _): &(Operand<'_>, &Layout)| {
            s.dtype() == DType::Float32 && s.device() != Device::Cpu
        };
        if !parts.iter().all(on_gpu) {
            return Ok(None);
        }
        let mut buffers = Vec::with_capacity(parts.len());
        for ((storage, _), _) in parts {
            let Some(buffer) = storage.device_buffer()? else {
                return Ok(None);
            };
            buffers.push(buffer);
        }
        let parts: Vec<ScatterPart<'_>> = buffers
            .iter()
            .zip(parts)
            .map(|(src, ((_, layout), target))| ScatterPart {
                src: &**src,
                layout,
                target,
            })
            .collect();
        Gpu::finish(self.0.scatter(numel, &parts))
    }

    fn take(&self, x: Operand<'_>, positions: &[usize]) -> Result<Option<Storage>> {
        if x.0.device() == Device::Cpu {
            return Ok(None);
        }
        let Some((buffer, _)) = self.float32(x)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.take(&*buffer, positions))
    }

    fn put(
        &self,
        base: Operand<'_>,
        positions: &[usize],
        (src, _): Operand<'_>,
        reads: &[usize],
        add: bool,
    ) -> Result<Option<Storage>> {
        let on_cpu = base.0.device() == Device::Cpu || src.device() == Device::Cpu;
        if on_cpu || src.dtype() != DType::Float32 {
            return Ok(None);
        }
        let Some((buffer, layout)) = self.float32(base)? else {
            return Ok(None);
        };
        let Some(src_buffer) = src.device_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(
            self.0
                .put(&*buffer, &layout, &*src_buffer, positions, reads, add),
        )
    }

    fn write(&self, (dst, target): Operand<'_>, (src, layout): Operand<'_>) -> Result<bool> {
        let on_gpu = |s: &Storage| s.device() == Device::WebGpu && s.dtype() == DType::Float32;
        // One buffer cannot be both read and written by a kernel.
        if !on_gpu(dst) || !on_gpu(src) || std::ptr::eq(dst, src) {
            return Ok(false);
        }
        let ran = {
            let (Some(d), Some(s)) = (dst.device_buffer()?, src.device_buffer()?) else {
                return Ok(false);
            };
            self.0.write(&*d, target, &*s, layout)?
        };
        if ran {
            device::count(|s| s.kernels += 1);
            // The device copy is now the current one, and the write a new version.
            drop(dst.device_buffer_for_write()?);
        }
        Ok(ran)
    }

    fn index_select(&self, x: Operand<'_>, dim: usize, values: &[i64]) -> Result<Option<Storage>> {
        if x.0.dtype() != DType::Float32 || dim >= x.1.shape().len() {
            return Ok(None);
        }
        let Ok(indices) = values
            .iter()
            .map(|&v| u32::try_from(v))
            .collect::<std::result::Result<Vec<u32>, _>>()
        else {
            return Ok(None);
        };
        let Some((buffer, layout)) = self.float(x)? else {
            return Ok(None);
        };
        let Some(indices) = self.0.upload_indices(&indices)? else {
            return Ok(None);
        };
        device::count(|s| s.uploads += 1);
        Gpu::finish(self.0.index_select(&*buffer, &layout, dim, &*indices))
    }

    fn im2col(
        &self,
        x: Operand<'_>,
        image: [usize; 3],
        window: &Window2d,
        windows: [usize; 2],
    ) -> Result<Option<Storage>> {
        let Some((buffer, layout)) = self.dense(x)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.im2col(&*buffer, &layout, image, window, windows))
    }

    fn col2im(
        &self,
        cols: Operand<'_>,
        image: [usize; 3],
        window: &Window2d,
        windows: [usize; 2],
    ) -> Result<Option<Storage>> {
        let Some((buffer, layout)) = self.dense(cols)? else {
            return Ok(None);
        };
        Gpu::finish(self.0.col2im(&*buffer, &layout, image, window, windows))
    }

    fn matmul_bias(
        &self,
        (a, al): Operand<'_>,
        (b, bl): Operand<'_>,
        bias: Operand<'_>,
        shape: &[usize],
    ) -> Result<Option<Storage>> {
        let float = |s: &Storage| s.dtype() == DType::Float32;
        if !float(a) || !float(b) || !float(bias.0) {
            return Ok(None);
        }
        let (Some((ab, _)), Some((bb, _)), Some((cb, cl))) = (
            self.float((a, al))?,
            self.float((b, bl))?,
            self.float(bias)?,
        ) else {
            return Ok(None);
        };
        let batched: Vec<usize> = std::iter::once(1).chain(shape.iter().copied()).collect();
        let cl = cl.broadcast_to(&batched)?;
        Gpu::finish(self.0.matmul_bias(&*ab, al, &*bb, bl, &*cb, &cl))
    }

    fn nll_loss(
        &self,
        x: Operand<'_>,
        target: Operand<'_>,
        weight: Option<Operand<'_>>,
        ignore_index: i64,
        geometry: NllGeometry,
        divisor: Option<f64>,
    ) -> Result<Option<Storage>> {
        let weight_f32 = weight.is_none_or(|w| w.0.dtype() == DType::Float32);
        if x.0.dtype() != DType::Float32 || !weight_f32 {
            return Ok(None);
        }
        let Some((buffer, layout)) = self.float(x)? else {
            return Ok(None);
        };
        let Some(layout) = nll_layout(&layout, geometry) else {
            return Ok(None);
        };
        let weight = match weight.map(|w| self.weights(w)).transpose()? {
            Some(None) => return Ok(None),
            w => w.flatten(),
        };
        let Some(indices) = self.targets(target, ignore_index, geometry.classes)? else {
            return Ok(None);
        };
        let weight = weight.as_deref();
        Gpu::finish(
            self.0
                .nll_loss(&*buffer, &layout, &*indices, weight, geometry, divisor),
        )
    }

    fn nll_coefficients(
        &self,
        target: Operand<'_>,
        weight: Option<Operand<'_>>,
        ignore_index: i64,
        geometry: NllGeometry,
        dtype: DType,
    ) -> Result<Option<Storage>> {
        let weight_f32 = weight.is_none_or(|w| w.0.dtype() == DType::Float32);
        if dtype != DType::Float32 || !weight_f32 {
            return Ok(None);
        }
        let weight = match weight.map(|w| self.weights(w)).transpose()? {
            Some(None) => return Ok(None),
            w => w.flatten(),
        };
        let Some(indices) = self.targets(target, ignore_index, geometry.classes)? else {
            return Ok(None);
        };
        Gpu::finish(
            self.0
                .nll_coefficients(&*indices, weight.as_deref(), geometry),
        )
    }

    fn adam_step(&self, storages: [&Storage; 4], step: &AdamStep, writes: u64) -> Result<bool> {
        if storages
            .iter()
            .any(|s| s.device() != Device::WebGpu || s.dtype() != DType::Float32)
        {
            return Ok(false);
        }
        let [p, g, m, v] = storages;
        let ran = {
            let (Some(pb), Some(gb), Some(mb), Some(vb)) = (
                p.device_buffer()?,
                g.device_buffer()?,
                m.device_buffer()?,
                v.device_buffer()?,
            ) else {
                return Ok(false);
            };
            self.0.adam_step(&*pb, &*gb, &*mb, &*vb, step)?
        };
        if !ran {
            return Ok(false);
        }
        device::count(|s| s.kernels += 1);
        // The kernel wrote the device copies: the host copies are stale and
        // each write bumps the version, as the host path's `data_mut` does.
        for s in [m, v] {
            drop(s.device_buffer_for_write()?);
        }
        for _ in 0..writes {
            drop(p.device_buffer_for_write()?);
        }
        Ok(true)
    }
}

/// A GPU kernel's operand: a storage's device copy, or a host value
/// uploaded for this kernel.
enum Buffer<'a> {
    Stored(Ref<'a, dyn DeviceBuffer>),
    Uploaded(Box<dyn DeviceBuffer>),
}

impl Deref for Buffer<'_> {
    type Target = dyn DeviceBuffer;

    fn deref(&self) -> &(dyn DeviceBuffer + 'static) {
        match self {
            Buffer::Stored(b) => &**b,
            Buffer::Uploaded(b) => b.as_ref(),
        }
    }
}

impl Gpu {
    /// Float32 `x` as a kernel operand: its device copy, or a CPU number
    /// (the `2` of `x * 2`) uploaded as one float32 element.
    fn float<'a>(&self, (storage, layout): Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if storage.device() == Device::Cpu {
            if !layout.shape().is_empty() || storage.dtype() == DType::Bool {
                return Ok(None);
            }
            let CpuBuffer::F32(value) = storage.data().gather_as(layout, DType::Float32) else {
                return Ok(None);
            };
            device::count(|s| s.uploads += 1);
            let number = Buffer::Uploaded(self.0.upload(&value)?);
            return Ok(Some((number, Layout::contiguous(&[]))));
        }
        Ok(storage
            .device_buffer()?
            .map(|b| (Buffer::Stored(b), layout.clone())))
    }

    /// [`Gpu::float`] of an operand that is float32 itself: the prologue of
    /// the kernels that take one float tensor.
    fn float32<'a>(&self, x: Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if x.0.dtype() != DType::Float32 {
            return Ok(None);
        }
        self.float(x)
    }

    /// Float32 GPU `x` as a dense operand: its own buffer where its layout
    /// is contiguous, else a contiguous copy made by a kernel.
    fn dense<'a>(&self, x: Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if x.0.device() == Device::Cpu {
            return Ok(None);
        }
        let Some((buffer, layout)) = self.float32(x)? else {
            return Ok(None);
        };
        if layout.is_contiguous() {
            return Ok(Some((buffer, layout)));
        }
        let Some(copy) = self.0.copy(&*buffer, &layout)? else {
            return Ok(None);
        };
        device::count(|s| s.kernels += 1);
        let dense = Layout::contiguous(layout.shape());
        Ok(Some((Buffer::Uploaded(copy), dense)))
    }

    /// `a` and `b` as float32 operands broadcast to `shape`, for a float32
    /// result.
    fn float_pair<'a>(
        &self,
        a: Operand<'a>,
        b: Operand<'a>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<[(Buffer<'a>, Layout); 2]>> {
        let float_operand =
            |(s, _): Operand<'_>| s.dtype() == DType::Float32 || s.device() == Device::Cpu;
        if dtype != DType::Float32 || !float_operand(a) || !float_operand(b) {
            return Ok(None);
        }
        let (Some((ab, al)), Some((bb, bl))) = (self.float(a)?, self.float(b)?) else {
            return Ok(None);
        };
        Ok(Some([
            (ab, al.broadcast_to(shape)?),
            (bb, bl.broadcast_to(shape)?),
        ]))
    }

    /// A `where` condition as a float32 mask (`1.0` true): a GPU bool
    /// storage's device copy, or a CPU bool tensor (PyTorch lets masks stay
    /// on the CPU) gathered and uploaded.
    fn mask<'a>(&self, (storage, layout): Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if storage.dtype() != DType::Bool {
            return Ok(None);
        }
        if storage.device() == Device::Cpu {
            let CpuBuffer::F32(values) = storage.data().gather_as(layout, DType::Float32) else {
                return Ok(None);
            };
            device::count(|s| s.uploads += 1);
            let mask = Buffer::Uploaded(self.0.upload(&values)?);
            return Ok(Some((mask, Layout::contiguous(layout.shape()))));
        }
        Ok(storage
            .mask_buffer()?
            .map(|b| (Buffer::Stored(b), layout.clone())))
    }

    /// A class-weight vector as a whole contiguous device buffer: its
    /// storage's when it is one, else a kernel's copy of the view.
    fn weights<'a>(&self, w: Operand<'a>) -> Result<Option<Buffer<'a>>> {
        let Some((buffer, layout)) = self.float(w)? else {
            return Ok(None);
        };
        if layout.is_contiguous() && layout.offset() == 0 && layout.numel() == buffer.len() {
            return Ok(Some(buffer));
        }
        let copied = self.0.copy(&*buffer, &layout)?;
        if copied.is_some() {
            device::count(|s| s.kernels += 1);
        }
        Ok(copied.map(Buffer::Uploaded))
    }

    /// `target`'s class indices for index kernels: [`IGNORED_TARGET`] where
    /// a target is `ignore_index` (or, defensively, not a class: the host
    /// path raised PyTorch's error for those before any kernel runs).
    fn targets(&self, (target, layout): Operand<'_>, ignore: i64, classes: usize) -> Kernel {
        let CpuBuffer::I64(values) = target.data().gather_as(layout, DType::Int64) else {
            return Ok(None);
        };
        let indices: Vec<u32> = values
            .iter()
            .map(|&t| match usize::try_from(t) {
                Ok(c) if t != ignore && c < classes => u32::try_from(c).unwrap_or(IGNORED_TARGET),
                _ => IGNORED_TARGET,
            })
            .collect();
        let uploaded = self.0.upload_indices(&indices)?;
        if uploaded.is_some() {
            device::count(|s| s.uploads += 1);
        }
        Ok(uploaded)
    }
}

/// `x`'s layout as `[batch, classes, spatial]` (`x` is `[C]`, `[N, C]` or
/// `[N, C, d...]`), or `None` where its spatial dimensions do not walk
/// memory as one.
fn nll_layout(layout: &Layout, g: NllGeometry) -> Option<Layout> {
    let (shape, strides) = (layout.shape(), layout.strides());
    let (batch_stride, class_stride, rest) = match shape.len() {
        1 => (0, strides[0], 1..1),
        n if n >= 2 => (strides[0], strides[1], 2..n),
        _ => return None,
    };
    // The spatial dims merge when each steps over the next's whole run.
    let mut spatial_stride = 1isize;
    let mut expected: Option<isize> = None;
    for d in rest.rev() {
        if shape[d] == 1 {
            continue;
        }
        if let Some(e) = expected
            && strides[d] != e
        {
            return None;
        }
        if expected.is_none() {
            spatial_stride = strides[d];
        }
        expected = Some(strides[d] * shape[d] as isize);
    }
    Some(Layout::new(
        vec![g.batch, g.classes, g.spatial],
        vec![batch_stride, class_stride, spatial_stride],
        layout.offset(),
    ))
}
