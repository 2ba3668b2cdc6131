//! Ops on GPU tensors: the device kernels an op tries before its host path.
//!
//! Each function returns `Ok(None)` when the op is not running on the GPU,
//! an operand is not float32, or the backend has no kernel for the case;
//! the op then computes on the storages' host copies (which the storage
//! keeps current), exactly as on the CPU. So every op works on the GPU
//! from the start, and kernels replace host paths one by one; the
//! [`crate::device::kernel_stats`] say how much ran where.

use std::cell::Ref;
use std::ops::Deref;
use std::rc::Rc;

use crate::backend::{
    AdamStep, BinaryOp, CompareKernel, DeviceBackend, DeviceBuffer, IGNORED_TARGET, Kernel,
    NllGeometry, ReduceKernel, ScatterPart,
};
use crate::cpu::conv::Window2d;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A kernel operand: a GPU storage's device copy, or a CPU number (the `2`
/// of `x * 2`) uploaded as one element.
enum Operand<'a> {
    Stored(Ref<'a, dyn DeviceBuffer>),
    Uploaded(Box<dyn DeviceBuffer>),
}

impl Deref for Operand<'_> {
    type Target = dyn DeviceBuffer;

    fn deref(&self) -> &(dyn DeviceBuffer + 'static) {
        match self {
            Operand::Stored(b) => &**b,
            Operand::Uploaded(b) => b.as_ref(),
        }
    }
}

/// The GPU, when the running op computes on it.
fn backend() -> Result<Option<Rc<dyn DeviceBackend>>> {
    if device::current() == Device::WebGpu {
        device::gpu().map(Some)
    } else {
        Ok(None)
    }
}

/// `t`'s float32 device copy and layout, or a 0-dim CPU number as one
/// float32 element (its layout a 0-dim view of it).
fn operand<'a>(gpu: &dyn DeviceBackend, t: &'a Tensor) -> Result<Option<(Operand<'a>, Layout)>> {
    if t.device() == Device::Cpu {
        if !t.shape().is_empty() || t.dtype() == DType::Bool {
            return Ok(None);
        }
        let value = t.storage().data().gather_as(t.layout(), DType::Float32);
        let crate::cpu::CpuBuffer::F32(value) = value else {
            return Ok(None);
        };
        device::count(|s| s.uploads += 1);
        return Ok(Some((
            Operand::Uploaded(gpu.upload(&value)?),
            Layout::contiguous(&[]),
        )));
    }
    Ok(t.storage()
        .device_buffer()?
        .map(|b| (Operand::Stored(b), t.layout().clone())))
}

/// Whether `t` can be a float32 kernel operand: a float32 GPU tensor, or
/// a CPU number that [`operand`] uploads as one float32 element.
fn float_operand(t: &Tensor) -> bool {
    t.dtype() == DType::Float32 || t.device() == Device::Cpu
}

/// The GPU, and a tensor as that GPU's kernel operand with its layout.
type GpuInput<'a> = (Rc<dyn DeviceBackend>, Operand<'a>, Layout);

/// The GPU and float32 `x` as a kernel operand, when the running op
/// computes on the GPU and `x` is float32: the prologue of the kernels
/// that take one float tensor.
fn float32_input(x: &Tensor) -> Result<Option<GpuInput<'_>>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 {
        return Ok(None);
    }
    Ok(operand(gpu.as_ref(), x)?.map(|(buffer, layout)| (gpu, buffer, layout)))
}

/// A new GPU tensor of `shape` over a kernel's result, or `None`.
fn finish(result: Kernel, shape: &[usize]) -> Result<Option<Tensor>> {
    Ok(result?.map(|buffer| {
        device::count(|s| s.kernels += 1);
        Tensor::from_parts(
            Rc::new(Storage::from_device(buffer)),
            Layout::contiguous(shape),
        )
    }))
}

/// `op(x)` by a kernel, for a float32 result.
pub(crate) fn unary(op: &UnaryOp, x: &Tensor, out_dtype: DType) -> Result<Option<Tensor>> {
    if out_dtype != DType::Float32 {
        return Ok(None);
    }
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.unary(op, &*buffer, &layout), x.shape())
}

/// `op(a, b)` broadcast to `shape` by a kernel, for a float32 result.
pub(crate) fn binary(
    op: BinaryOp,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    out_dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if out_dtype != DType::Float32 {
        return Ok(None);
    }
    if !float_operand(a) || !float_operand(b) {
        return Ok(None);
    }
    let (Some((ab, al)), Some((bb, bl))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    let (al, bl) = (al.broadcast_to(shape)?, bl.broadcast_to(shape)?);
    finish(gpu.binary(op, &*ab, &al, &*bb, &bl), shape)
}

/// `op(x, value)` (or `op(value, x)` when `number_first`) by the binary
/// kernel, the number uploaded as one element broadcast over `x`: the
/// scalar ops (`1 - x`, `x ** 2`'s pieces, `alpha * y`), for a float32 `x`.
pub(crate) fn binary_number(
    op: BinaryOp,
    x: &Tensor,
    value: f64,
    number_first: bool,
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    // Rounded to float32 as the CPU's float32 path rounds the number.
    let number = gpu.upload(&[value as f32])?;
    device::count(|s| s.uploads += 1);
    let shape = x.shape();
    let spread = Layout::contiguous(&[]).broadcast_to(shape)?;
    let result = if number_first {
        gpu.binary(op, &*number, &spread, &*buffer, &layout)
    } else {
        gpu.binary(op, &*buffer, &layout, &*number, &spread)
    };
    finish(result, shape)
}

/// `op` over `dims` (sorted, distinct) of a float32 `x` by a kernel; the
/// result has `x`'s shape without those dims.
pub(crate) fn reduce(op: ReduceKernel, x: &Tensor, dims: &[usize]) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    let shape: Vec<usize> = x
        .shape()
        .iter()
        .enumerate()
        .filter(|(i, _)| !dims.contains(i))
        .map(|(_, &n)| n)
        .collect();
    finish(gpu.reduce(op, &*buffer, &layout, dims), &shape)
}

/// The batched product of float32 `a` and `b` read through the 3-D layouts
/// `al` (`[batch, m, k]`) and `bl` (`[batch, k, n]`), shaped as `shape`.
pub(crate) fn matmul(
    a: &Tensor,
    al: &Layout,
    b: &Tensor,
    bl: &Layout,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if a.dtype() != DType::Float32 || b.dtype() != DType::Float32 {
        return Ok(None);
    }
    let (Some((ab, _)), Some((bb, _))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    finish(gpu.matmul(&*ab, al, &*bb, bl), shape)
}

/// `a @ b + bias` by one kernel, `bias` broadcast to `shape` (`[m, n]`,
/// read as `[1, m, n]`), for `linear`.
pub(crate) fn matmul_bias(
    a: &Tensor,
    al: &Layout,
    b: &Tensor,
    bl: &Layout,
    bias: &Tensor,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    let float = |t: &Tensor| t.dtype() == DType::Float32;
    if !float(a) || !float(b) || !float(bias) {
        return Ok(None);
    }
    let (Some((ab, _)), Some((bb, _)), Some((cb, cl))) = (
        operand(gpu.as_ref(), a)?,
        operand(gpu.as_ref(), b)?,
        operand(gpu.as_ref(), bias)?,
    ) else {
        return Ok(None);
    };
    let batched: Vec<usize> = std::iter::once(1).chain(shape.iter().copied()).collect();
    let cl = cl.broadcast_to(&batched)?;
    finish(gpu.matmul_bias(&*ab, al, &*bb, bl, &*cb, &cl), shape)
}

/// A contiguous copy of float32 `x` by a kernel.
pub(crate) fn copy(x: &Tensor) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.copy(&*buffer, &layout), x.shape())
}

/// Zeros of `shape` with input `i`'s elements written at `targets[i]` (a
/// layout over the contiguous result) by a kernel, when every input is a
/// float32 GPU tensor: `slice_backward`, `select_backward`, `cat`, `stack`.
pub(crate) fn scatter(
    ins: &[&Tensor],
    shape: &[usize],
    targets: &[Layout],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    let on_gpu = |t: &&Tensor| t.dtype() == DType::Float32 && t.device() != Device::Cpu;
    if ins.len() != targets.len() || !ins.iter().all(on_gpu) {
        return Ok(None);
    }
    let mut buffers = Vec::with_capacity(ins.len());
    for t in ins {
        let Some(buffer) = t.storage().device_buffer()? else {
            return Ok(None);
        };
        buffers.push(buffer);
    }
    let parts: Vec<ScatterPart<'_>> = buffers
        .iter()
        .zip(ins)
        .zip(targets)
        .map(|((src, t), target)| ScatterPart {
            src: &**src,
            layout: t.layout(),
            target,
        })
        .collect();
    finish(gpu.scatter(shape.iter().product(), &parts), shape)
}

/// The elements of float32 GPU `x`'s storage at `positions`, as a tensor
/// of `shape`, by a kernel: indexing and `gather`.
pub(crate) fn take(x: &Tensor, positions: &[usize], shape: &[usize]) -> Result<Option<Tensor>> {
    if x.device() == Device::Cpu {
        return Ok(None);
    }
    let Some((gpu, buffer, _)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.take(&*buffer, positions), shape)
}

/// A contiguous copy of float32 GPU `x` with `src`'s storage elements at
/// `reads` added (or written) at `positions`, by a kernel: `scatter_add`,
/// `index_add`, `index_put` and `embedding`'s backward.
pub(crate) fn put(
    x: &Tensor,
    positions: &[usize],
    src: &Tensor,
    reads: &[usize],
    add: bool,
) -> Result<Option<Tensor>> {
    if x.device() == Device::Cpu || src.device() == Device::Cpu || src.dtype() != DType::Float32 {
        return Ok(None);
    }
    let Some((gpu, base, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    let Some(src_buffer) = src.storage().device_buffer()? else {
        return Ok(None);
    };
    finish(
        gpu.put(&*base, &layout, &*src_buffer, positions, reads, add),
        x.shape(),
    )
}

/// Float32 GPU `x` as a dense operand: its own buffer where its layout is
/// contiguous, else a contiguous copy made by a kernel.
fn dense_input(x: &Tensor) -> Result<Option<GpuInput<'_>>> {
    if x.device() == Device::Cpu {
        return Ok(None);
    }
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    if layout.is_contiguous() {
        return Ok(Some((gpu, buffer, layout)));
    }
    let Some(copy) = gpu.copy(&*buffer, &layout)? else {
        return Ok(None);
    };
    device::count(|s| s.kernels += 1);
    let dense = Layout::contiguous(layout.shape());
    Ok(Some((gpu, Operand::Uploaded(copy), dense)))
}

/// PyTorch's `im2col` of float32 GPU `x` (`[planes, h, w]` of elements),
/// by a kernel, as a tensor of `shape`.
pub(crate) fn im2col(
    x: &Tensor,
    image: [usize; 3],
    window: &Window2d,
    windows: [usize; 2],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = dense_input(x)? else {
        return Ok(None);
    };
    finish(gpu.im2col(&*buffer, &layout, image, window, windows), shape)
}

/// PyTorch's `col2im` of float32 GPU columns into `[planes, h, w]`
/// elements, by a kernel, as a tensor of `shape`.
pub(crate) fn col2im(
    cols: &Tensor,
    image: [usize; 3],
    window: &Window2d,
    windows: [usize; 2],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = dense_input(cols)? else {
        return Ok(None);
    };
    finish(gpu.col2im(&*buffer, &layout, image, window, windows), shape)
}

/// A bool GPU tensor as float32 (`mask.float()`) by the copy kernel: its
/// device copy already holds `1.0` and `0.0`.
pub(crate) fn mask_to_float(x: &Tensor) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    let Some(mask) = x.storage().mask_buffer()? else {
        return Ok(None);
    };
    finish(gpu.copy(&*mask, x.layout()), x.shape())
}

/// A `where` condition as a float32 mask (`1.0` true) and its layout: a
/// GPU bool storage's device copy (what compare kernels make), or a CPU
/// bool tensor (PyTorch lets masks stay on the CPU) gathered and uploaded.
fn mask_operand<'a>(
    gpu: &dyn DeviceBackend,
    t: &'a Tensor,
) -> Result<Option<(Operand<'a>, Layout)>> {
    if t.dtype() != DType::Bool {
        return Ok(None);
    }
    if t.device() == Device::Cpu {
        let values = t.storage().data().gather_as(t.layout(), DType::Float32);
        let crate::cpu::CpuBuffer::F32(values) = values else {
            return Ok(None);
        };
        device::count(|s| s.uploads += 1);
        return Ok(Some((
            Operand::Uploaded(gpu.upload(&values)?),
            Layout::contiguous(t.shape()),
        )));
    }
    Ok(t.storage()
        .mask_buffer()?
        .map(|b| (Operand::Stored(b), t.layout().clone())))
}

/// `op(a, b)` broadcast to `shape` as a bool tensor whose values stay on the
/// device (a float32 mask), for operands promoting to float32.
pub(crate) fn compare(
    op: CompareKernel,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if dtype != DType::Float32 || !float_operand(a) || !float_operand(b) {
        return Ok(None);
    }
    let (Some((ab, al)), Some((bb, bl))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    let (al, bl) = (al.broadcast_to(shape)?, bl.broadcast_to(shape)?);
    Ok(gpu.compare(op, &*ab, &al, &*bb, &bl)?.map(|buffer| {
        device::count(|s| s.kernels += 1);
        Tensor::from_parts(
            Rc::new(Storage::from_device_mask(buffer)),
            Layout::contiguous(shape),
        )
    }))
}

/// `where(condition, a, b)` broadcast to `shape` by a kernel, for a float32
/// result.
pub(crate) fn where_cond(
    condition: &Tensor,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if dtype != DType::Float32 || !float_operand(a) || !float_operand(b) {
        return Ok(None);
    }
    let (Some((cb, cl)), Some((ab, al)), Some((bb, bl))) = (
        mask_operand(gpu.as_ref(), condition)?,
        operand(gpu.as_ref(), a)?,
        operand(gpu.as_ref(), b)?,
    ) else {
        return Ok(None);
    };
    let (cl, al, bl) = (
        cl.broadcast_to(shape)?,
        al.broadcast_to(shape)?,
        bl.broadcast_to(shape)?,
    );
    finish(gpu.where_cond(&*cb, &cl, &*ab, &al, &*bb, &bl), shape)
}

/// `softmax` or `log_softmax` of float32 `x` along `dim` by a kernel.
pub(crate) fn softmax(x: &Tensor, dim: usize, log: bool) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.softmax(&*buffer, &layout, dim, log), x.shape())
}

/// `target`'s class indices for index kernels: [`IGNORED_TARGET`] where a
/// target is `ignore_index` (or, defensively, not a class: the host path
/// raised PyTorch's error for those before any kernel runs).
fn targets(gpu: &dyn DeviceBackend, target: &Tensor, ignore: i64, classes: usize) -> Kernel {
    let values = super::nn::dense::<i64>(target);
    let indices: Vec<u32> = values
        .iter()
        .map(|&t| match usize::try_from(t) {
            Ok(c) if t != ignore && c < classes => u32::try_from(c).unwrap_or(IGNORED_TARGET),
            _ => IGNORED_TARGET,
        })
        .collect();
    let uploaded = gpu.upload_indices(&indices)?;
    if uploaded.is_some() {
        device::count(|s| s.uploads += 1);
    }
    Ok(uploaded)
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

/// `nll_loss`'s forward of float32 log-probabilities `x` by a kernel;
/// `divisor` as [`DeviceBackend::nll_loss`], `shape` the result's.
pub(crate) fn nll_loss(
    x: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    geometry: NllGeometry,
    divisor: Option<f64>,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 || weight.is_some_and(|w| w.dtype() != DType::Float32) {
        return Ok(None);
    }
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    let Some(layout) = nll_layout(&layout, geometry) else {
        return Ok(None);
    };
    let weight = match weight.map(|w| weights(gpu.as_ref(), w)).transpose()? {
        Some(None) => return Ok(None),
        w => w.flatten(),
    };
    let Some(indices) = targets(gpu.as_ref(), target, ignore_index, geometry.classes)? else {
        return Ok(None);
    };
    let weight = weight.as_deref();
    finish(
        gpu.nll_loss(&*buffer, &layout, &*indices, weight, geometry, divisor),
        shape,
    )
}

/// A class-weight vector as a whole contiguous device buffer: its storage's
/// when it is one, else a kernel's copy of the view.
fn weights<'a>(gpu: &dyn DeviceBackend, w: &'a Tensor) -> Result<Option<Operand<'a>>> {
    let Some((buffer, layout)) = operand(gpu, w)? else {
        return Ok(None);
    };
    if layout.is_contiguous() && layout.offset() == 0 && layout.numel() == buffer.len() {
        return Ok(Some(buffer));
    }
    let copied = gpu.copy(&*buffer, &layout)?;
    if copied.is_some() {
        device::count(|s| s.kernels += 1);
    }
    Ok(copied.map(Operand::Uploaded))
}

/// `nll_loss`'s backward coefficients (see [`DeviceBackend::nll_coefficients`])
/// by a kernel, shaped `shape`.
pub(crate) fn nll_coefficients(
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    geometry: NllGeometry,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if dtype != DType::Float32 || weight.is_some_and(|w| w.dtype() != DType::Float32) {
        return Ok(None);
    }
    let weight = match weight.map(|w| weights(gpu.as_ref(), w)).transpose()? {
        Some(None) => return Ok(None),
        w => w.flatten(),
    };
    let Some(indices) = targets(gpu.as_ref(), target, ignore_index, geometry.classes)? else {
        return Ok(None);
    };
    finish(
        gpu.nll_coefficients(&*indices, weight.as_deref(), geometry),
        shape,
    )
}

/// One Adam update of four whole float32 GPU storages in place by a kernel;
/// false (nothing changed) where it cannot run there. `writes` is how many
/// writes the op-by-op path makes to the parameter (its version count).
pub(crate) fn adam_step(tensors: [&Tensor; 4], step: &AdamStep, writes: u64) -> Result<bool> {
    if tensors
        .iter()
        .any(|t| t.device() != Device::WebGpu || t.dtype() != DType::Float32)
    {
        return Ok(false);
    }
    let gpu = device::gpu()?;
    let [p, g, m, v] = tensors;
    let ran = {
        let (Some(pb), Some(gb), Some(mb), Some(vb)) = (
            p.storage().device_buffer()?,
            g.storage().device_buffer()?,
            m.storage().device_buffer()?,
            v.storage().device_buffer()?,
        ) else {
            return Ok(false);
        };
        gpu.adam_step(&*pb, &*gb, &*mb, &*vb, step)?
    };
    if !ran {
        return Ok(false);
    }
    device::count(|s| s.kernels += 1);
    // The kernel wrote the device copies: the host copies are stale and
    // each write bumps the version, as the host path's `data_mut` does.
    for t in [m, v] {
        drop(t.storage().device_buffer_for_write()?);
    }
    for _ in 0..writes {
        drop(p.storage().device_buffer_for_write()?);
    }
    Ok(true)
}

/// Stores float32 GPU `src` into `dst`'s elements in place by a kernel (an
/// in-place op's write), bumping `dst`'s version as the host path's
/// `data_mut` does; false (nothing changed) where it cannot run there.
pub(crate) fn write_into(dst: &Tensor, src: &Tensor) -> Result<bool> {
    let on_gpu = |t: &Tensor| t.device() == Device::WebGpu && t.dtype() == DType::Float32;
    // One buffer cannot be both read and written by a kernel.
    if !on_gpu(dst) || !on_gpu(src) || Rc::ptr_eq(dst.storage(), src.storage()) {
        return Ok(false);
    }
    let gpu = device::gpu()?;
    let ran = {
        let (Some(d), Some(s)) = (
            dst.storage().device_buffer()?,
            src.storage().device_buffer()?,
        ) else {
            return Ok(false);
        };
        gpu.write(&*d, dst.layout(), &*s, src.layout())?
    };
    if ran {
        device::count(|s| s.kernels += 1);
        drop(dst.storage().device_buffer_for_write()?);
    }
    Ok(ran)
}

/// `index_select` of float32 `x` along `dim` by a kernel (`embedding` too:
/// rows of its weight), with `values` already checked against the axis;
/// the result shaped `shape`.
pub(crate) fn index_select(
    x: &Tensor,
    dim: usize,
    values: &[i64],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 || dim >= x.shape().len() {
        return Ok(None);
    }
    let Ok(indices) = values
        .iter()
        .map(|&v| u32::try_from(v))
        .collect::<std::result::Result<Vec<u32>, _>>()
    else {
        return Ok(None);
    };
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    let Some(indices) = gpu.upload_indices(&indices)? else {
        return Ok(None);
    };
    device::count(|s| s.uploads += 1);
    finish(gpu.index_select(&*buffer, &layout, dim, &*indices), shape)
}
