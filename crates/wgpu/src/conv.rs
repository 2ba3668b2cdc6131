//! im2col and col2im, what convolution and its backward run on:
//! `shaders/conv.wgsl`.

use gradscope_core::cpu::conv::Window2d;
use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, word};
use crate::pipeline::{Access, KernelSpec};

const IM2COL: KernelSpec = KernelSpec {
    entry_point: "conv_im2col",
    label: "gradscope::conv::im2col",
    source: include_str!("../../../shaders/conv.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

const COL2IM: KernelSpec = KernelSpec {
    entry_point: "conv_col2im",
    label: "gradscope::conv::col2im",
    source: include_str!("../../../shaders/conv.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// The shader's metadata after word 0: the source offset, image size,
/// window and number of windows, checked to be dense and in bounds.
fn window_words(
    what: &str,
    layout: &Layout,
    len: usize,
    [h, w]: [usize; 2],
    win: &Window2d,
    [oh, ow]: [usize; 2],
) -> Result<Vec<u32>> {
    if !layout.is_contiguous() {
        return Err(Error::Backend(format!(
            "GPU {what}: the input must be contiguous, got strides {:?}",
            layout.strides()
        )));
    }
    if win.stride.contains(&0) || win.dilation.contains(&0) {
        return Err(Error::Backend(format!(
            "GPU {what}: stride {:?} and dilation {:?} must be positive",
            win.stride, win.dilation
        )));
    }
    check_in_bounds(what, layout, len)?;
    [
        layout.offset(),
        h,
        w,
        win.kernel[0],
        win.kernel[1],
        win.stride[0],
        win.stride[1],
        win.padding[0],
        win.padding[1],
        win.dilation[0],
        win.dilation[1],
        oh,
        ow,
    ]
    .into_iter()
    .map(word)
    .collect()
}

impl GpuDevice {
    /// `x`, a dense `[planes, h, w]` read from `layout`'s offset, as columns
    /// `[planes, kh * kw, oh * ow]`, zero in the padding.
    pub fn im2col(
        &self,
        x: &GpuBuffer,
        layout: &Layout,
        [planes, h, w]: [usize; 3],
        win: &Window2d,
        windows: [usize; 2],
    ) -> Result<GpuBuffer> {
        if layout.numel() != planes * h * w {
            return Err(Error::Backend(format!(
                "GPU im2col: {} elements for [{planes}, {h}, {w}]",
                layout.numel()
            )));
        }
        let words = window_words("im2col", layout, x.len(), [h, w], win, windows)?;
        let numel = planes * win.kernel[0] * win.kernel[1] * windows[0] * windows[1];
        self.sliding(&IM2COL, x, numel, words)
    }

    /// The adjoint of [`GpuDevice::im2col`]: columns `[planes, kh * kw,
    /// oh * ow]` read from `layout`'s offset, summed back into a new
    /// `[planes, h, w]`.
    pub fn col2im(
        &self,
        cols: &GpuBuffer,
        layout: &Layout,
        [planes, h, w]: [usize; 3],
        win: &Window2d,
        windows: [usize; 2],
    ) -> Result<GpuBuffer> {
        let want = planes * win.kernel[0] * win.kernel[1] * windows[0] * windows[1];
        if layout.numel() != want {
            return Err(Error::Backend(format!(
                "GPU col2im: {} elements, expected {want}",
                layout.numel()
            )));
        }
        let words = window_words("col2im", layout, cols.len(), [h, w], win, windows)?;
        self.sliding(&COL2IM, cols, planes * h * w, words)
    }

    fn sliding(
        &self,
        spec: &KernelSpec,
        src: &GpuBuffer,
        numel: usize,
        words: Vec<u32>,
    ) -> Result<GpuBuffer> {
        let out = self.alloc(numel, spec.label)?;
        if numel > 0 {
            let mut metadata = vec![word(numel)?];
            metadata.extend(words);
            self.launch(
                spec,
                &[&src.buffer, &out.buffer],
                &metadata,
                self.grid(numel)?,
            )?;
        }
        Ok(out)
    }
}
