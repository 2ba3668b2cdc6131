//! Sliding-window kernels over contiguous `[planes, height, width]` data:
//! im2col and its adjoint col2im (convolution runs as im2col plus GEMM),
//! and the pooling kernels, each following PyTorch's CPU kernel (window
//! bounds, which element wins a tie, what an average divides by).

use super::Float;

/// A 2-D sliding window: its size, step, zero padding and dilation, each
/// `[height, width]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window2d {
    /// Window height and width.
    pub kernel: [usize; 2],
    /// Step between windows.
    pub stride: [usize; 2],
    /// Implicit zeros on each side.
    pub padding: [usize; 2],
    /// Step between a window's elements.
    pub dilation: [usize; 2],
}

impl Window2d {
    /// The input row or column element `k` of window `o` reads along axis
    /// `a`, if it lies inside an input of `size`.
    fn tap(&self, a: usize, o: usize, k: usize, size: usize) -> Option<usize> {
        let pos = (o * self.stride[a] + k * self.dilation[a]) as isize - self.padding[a] as isize;
        (pos >= 0 && (pos as usize) < size).then_some(pos as usize)
    }
}

/// `[n, c, h, w]` to columns `[n, c * kh * kw, oh * ow]`, zero where a
/// window reaches into the padding.
pub fn im2col<T: Float>(
    x: &[T],
    [n, c, h, w]: [usize; 4],
    win: &Window2d,
    [oh, ow]: [usize; 2],
) -> Vec<T> {
    let [kh, kw] = win.kernel;
    let l = oh * ow;
    let mut cols = vec![T::zero(); n * c * kh * kw * l];
    if l == 0 || kh * kw == 0 {
        return cols;
    }
    for (plane, out) in cols.chunks_exact_mut(kh * kw * l).enumerate().take(n * c) {
        let src = &x[plane * h * w..][..h * w];
        for i in 0..kh {
            for j in 0..kw {
                let row = &mut out[(i * kw + j) * l..][..l];
                for y in 0..oh {
                    let Some(iy) = win.tap(0, y, i, h) else {
                        continue;
                    };
                    for xo in 0..ow {
                        if let Some(ix) = win.tap(1, xo, j, w) {
                            row[y * ow + xo] = src[iy * w + ix];
                        }
                    }
                }
            }
        }
    }
    cols
}

/// The adjoint of [`im2col`]: columns `[n, c * kh * kw, oh * ow]` summed
/// back into `[n, c, h, w]`.
pub fn col2im<T: Float>(
    cols: &[T],
    [n, c, h, w]: [usize; 4],
    win: &Window2d,
    [oh, ow]: [usize; 2],
) -> Vec<T> {
    let [kh, kw] = win.kernel;
    let l = oh * ow;
    let mut out = vec![T::zero(); n * c * h * w];
    if l == 0 || kh * kw == 0 {
        return out;
    }
    for (plane, src) in cols.chunks_exact(kh * kw * l).enumerate().take(n * c) {
        let dst = &mut out[plane * h * w..][..h * w];
        for i in 0..kh {
            for j in 0..kw {
                let row = &src[(i * kw + j) * l..][..l];
                for y in 0..oh {
                    let Some(iy) = win.tap(0, y, i, h) else {
                        continue;
                    };
                    for xo in 0..ow {
                        if let Some(ix) = win.tap(1, xo, j, w) {
                            dst[iy * w + ix] = dst[iy * w + ix] + row[y * ow + xo];
                        }
                    }
                }
            }
        }
    }
    out
}

/// The first and one-past-last input position a pooling window `o` covers
/// along axis `a`, clipped to the input as PyTorch clips it: the start
/// advanced by whole dilation steps past the padding.
fn pool_range(win: &Window2d, a: usize, o: usize, size: usize) -> (usize, usize) {
    let start = (o * win.stride[a]) as isize - win.padding[a] as isize;
    let end =
        (start + ((win.kernel[a] as isize - 1) * win.dilation[a] as isize) + 1).min(size as isize);
    let mut start = start;
    while start < 0 {
        start += win.dilation[a] as isize;
    }
    (start as usize, end.max(0) as usize)
}

/// Where each window's maximum is, as an index into its `h * w` plane:
/// PyTorch's rule (the first strict maximum wins; a NaN wins and stays).
pub fn max_pool_indices<T: Float>(
    x: &[T],
    planes: usize,
    [h, w]: [usize; 2],
    win: &Window2d,
    [oh, ow]: [usize; 2],
) -> Vec<i64> {
    let mut out = Vec::with_capacity(planes * oh * ow);
    for plane in 0..planes {
        let src = &x[plane * h * w..][..h * w];
        for y in 0..oh {
            let (y0, y1) = pool_range(win, 0, y, h);
            for xo in 0..ow {
                let (x0, x1) = pool_range(win, 1, xo, w);
                let mut best = y0 * w + x0;
                let mut max = T::neg_infinity();
                for iy in (y0..y1).step_by(win.dilation[0].max(1)) {
                    for ix in (x0..x1).step_by(win.dilation[1].max(1)) {
                        let v = src[iy * w + ix];
                        if v > max || v.is_nan() {
                            max = v;
                            best = iy * w + ix;
                        }
                    }
                }
                out.push(best as i64);
            }
        }
    }
    out
}

/// The values at `indices` (one per window) of each plane.
pub fn gather_planes<T: Float>(
    x: &[T],
    indices: &[i64],
    plane_len: usize,
    per_plane: usize,
) -> Vec<T> {
    indices
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let at = (i / per_plane.max(1)) * plane_len + k as usize;
            x.get(at).copied().unwrap_or_else(T::nan)
        })
        .collect()
}

/// How `avg_pool2d` counts: with the padding, without, or a fixed divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Divisor {
    /// The window's size including padding (`count_include_pad=True`).
    IncludePad,
    /// The window's elements inside the input.
    ExcludePad,
    /// `divisor_override`.
    Fixed(usize),
}

/// Each window's input rectangle `(y0, y1, x0, x1)` and divisor, as
/// PyTorch's `cpu_avg_pool` computes them; `None` for a window entirely in
/// the padding (its output is 0).
fn avg_window(
    win: &Window2d,
    divisor: Divisor,
    [h, w]: [usize; 2],
    y: usize,
    x: usize,
) -> Option<([usize; 4], f64)> {
    let [ph, pw] = win.padding.map(|p| p as isize);
    let y0 = (y * win.stride[0]) as isize - ph;
    let x0 = (x * win.stride[1]) as isize - pw;
    let y1 = (y0 + win.kernel[0] as isize).min(h as isize + ph);
    let x1 = (x0 + win.kernel[1] as isize).min(w as isize + pw);
    let pool_size = (y1 - y0) * (x1 - x0);
    let (y0, x0) = (y0.max(0), x0.max(0));
    let (y1, x1) = (y1.min(h as isize), x1.min(w as isize));
    if y0 >= y1 || x0 >= x1 {
        return None;
    }
    let factor = match divisor {
        Divisor::Fixed(d) => d as f64,
        Divisor::IncludePad => pool_size as f64,
        Divisor::ExcludePad => ((y1 - y0) * (x1 - x0)) as f64,
    };
    Some(([y0 as usize, y1 as usize, x0 as usize, x1 as usize], factor))
}

/// `avg_pool2d` of each plane.
pub fn avg_pool<T: Float>(
    x: &[T],
    planes: usize,
    hw: [usize; 2],
    win: &Window2d,
    divisor: Divisor,
    [oh, ow]: [usize; 2],
) -> Vec<T> {
    let [h, w] = hw;
    let mut out = Vec::with_capacity(planes * oh * ow);
    for plane in 0..planes {
        let src = &x[plane * h * w..][..h * w];
        for y in 0..oh {
            for xo in 0..ow {
                let value = avg_window(win, divisor, hw, y, xo).map_or(
                    T::zero(),
                    |([y0, y1, x0, x1], factor)| {
                        let mut sum = T::zero();
                        for iy in y0..y1 {
                            for ix in x0..x1 {
                                sum = sum + src[iy * w + ix];
                            }
                        }
                        sum / T::from(factor).unwrap_or_else(T::nan)
                    },
                );
                out.push(value);
            }
        }
    }
    out
}

/// The adjoint of [`avg_pool`]: each output gradient spread evenly over
/// its window, PyTorch's `avg_pool2d_backward`.
pub fn avg_pool_backward<T: Float>(
    grad: &[T],
    planes: usize,
    hw: [usize; 2],
    win: &Window2d,
    divisor: Divisor,
    [oh, ow]: [usize; 2],
) -> Vec<T> {
    let [h, w] = hw;
    let mut out = vec![T::zero(); planes * h * w];
    for plane in 0..planes {
        let dst = &mut out[plane * h * w..][..h * w];
        let src = &grad[plane * oh * ow..][..oh * ow];
        for y in 0..oh {
            for xo in 0..ow {
                if let Some(([y0, y1, x0, x1], factor)) = avg_window(win, divisor, hw, y, xo) {
                    let share = src[y * ow + xo] / T::from(factor).unwrap_or_else(T::nan);
                    for iy in y0..y1 {
                        for ix in x0..x1 {
                            dst[iy * w + ix] = dst[iy * w + ix] + share;
                        }
                    }
                }
            }
        }
    }
    out
}
