//! Seeded random tensors drawn exactly as PyTorch's CPU generator draws
//! them: an mt19937 engine (`torch.manual_seed`), 24 random bits per
//! float32 and 53 per float64 for uniforms, Box-Muller for normals with
//! PyTorch's two paths (per element with a cached second sample below 16
//! elements, blocks of 16 from 16 elements up) and modulo for integers.
//!
//! The generator is per thread, as each worker runs one program. Float32
//! normals of 16 or more elements follow PyTorch's x86 build (AVX2 or
//! AVX-512), which computes them with its own polynomial `log`, `sin` and
//! `cos`; the same numbers come out on every platform gradscope runs on.
//! PyTorch built without AVX2 (ARM) uses the C library there instead and
//! differs in the last bits. Float64 and small normals use the platform's
//! `log1p`, `log`, `sin` and `cos`, as PyTorch does: natively those are the
//! same C library calls; in wasm they may differ in the last bit.

use std::cell::RefCell;
use std::f64::consts::PI;

use super::new_tensor;
use super::view_shape::factory_shape;
use crate::cpu::CpuBuffer;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// PyTorch's seed before any `manual_seed` (`default_rng_seed_val`).
pub const DEFAULT_SEED: u64 = 67280421310721;

const STATE: usize = 624;
const SHIFT: usize = 397;

/// The Mersenne Twister PyTorch's CPU generator runs (`at::mt19937`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Mt19937 {
    state: [u32; STATE],
    left: usize,
    next: usize,
}

impl Mt19937 {
    fn new(seed: u64) -> Self {
        let mut state = [0u32; STATE];
        state[0] = seed as u32;
        for j in 1..STATE {
            let prev = state[j - 1];
            state[j] = 1812433253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        Self {
            state,
            left: 1,
            next: 0,
        }
    }

    fn twist(u: u32, v: u32) -> u32 {
        let mixed = (u & 0x8000_0000) | (v & 0x7fff_ffff);
        (mixed >> 1) ^ if v & 1 == 1 { 0x9908_b0df } else { 0 }
    }

    fn next_state(&mut self) {
        let s = &mut self.state;
        for j in 0..STATE - SHIFT {
            s[j] = s[j + SHIFT] ^ Self::twist(s[j], s[j + 1]);
        }
        for j in STATE - SHIFT..STATE - 1 {
            s[j] = s[j + SHIFT - STATE] ^ Self::twist(s[j], s[j + 1]);
        }
        s[STATE - 1] = s[SHIFT - 1] ^ Self::twist(s[STATE - 1], s[0]);
        self.left = STATE;
        self.next = 0;
    }

    fn next_u32(&mut self) -> u32 {
        self.left -= 1;
        if self.left == 0 {
            self.next_state();
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// PyTorch's `CPUGeneratorImpl`: the engine, the seed it started from and
/// the second Box-Muller sample kept for the next small `randn`.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    seed: u64,
    engine: Mt19937,
    next_normal: Option<f64>,
}

impl Generator {
    /// A generator seeded as `torch.Generator().manual_seed(seed)`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            engine: Mt19937::new(seed),
            next_normal: None,
        }
    }

    /// 32 random bits, PyTorch's `random()`.
    pub fn random(&mut self) -> u32 {
        self.engine.next_u32()
    }

    /// 64 random bits from two draws, high word first, PyTorch's `random64()`.
    pub fn random64(&mut self) -> u64 {
        let hi = u64::from(self.random());
        (hi << 32) | u64::from(self.random())
    }

    /// A float32 in `[0, 1)` from 24 bits, PyTorch's `uniform_real_distribution<float>`.
    pub fn uniform_f32(&mut self) -> f32 {
        (self.random() & 0x00ff_ffff) as f32 / (1u32 << 24) as f32
    }

    /// A float64 in `[0, 1)` from 53 bits, PyTorch's `uniform_real_distribution<double>`.
    pub fn uniform_f64(&mut self) -> f64 {
        (self.random64() & ((1u64 << 53) - 1)) as f64 / (1u64 << 53) as f64
    }

    /// One standard normal sample by PyTorch's `normal_distribution<double>`:
    /// Box-Muller on two float64 uniforms, the sine half kept for the next call.
    pub fn normal(&mut self) -> f64 {
        if let Some(sample) = self.next_normal.take() {
            return sample;
        }
        let u1 = self.uniform_f64();
        let u2 = self.uniform_f64();
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * PI * u1;
        self.next_normal = Some(r * theta.sin());
        r * theta.cos()
    }
}

thread_local! {
    static GENERATOR: RefCell<Generator> = RefCell::new(Generator::new(DEFAULT_SEED));
}

/// Runs `f` with this thread's default generator, PyTorch's `default_generator`.
pub fn with_generator<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    GENERATOR.with(|g| f(&mut g.borrow_mut()))
}

/// Reseeds this thread's generator, PyTorch's `torch.manual_seed`.
pub fn manual_seed(seed: u64) {
    with_generator(|g| *g = Generator::new(seed));
}

/// The seed this thread's generator started from, PyTorch's `torch.initial_seed()`.
pub fn initial_seed() -> u64 {
    with_generator(|g| g.seed)
}

/// A copy of this thread's generator, PyTorch's `torch.get_rng_state()`
/// (an opaque value here, not a byte tensor).
pub fn get_rng_state() -> Generator {
    with_generator(|g| g.clone())
}

/// Restores a state from [`get_rng_state`], PyTorch's `torch.set_rng_state`.
pub fn set_rng_state(state: Generator) {
    with_generator(|g| *g = state);
}

fn float_dtype(dtype: DType) -> DType {
    if dtype.is_float() {
        dtype
    } else {
        DType::default_float()
    }
}

/// Uniform samples in `[from, to)`, PyTorch's `uniform_` on a new tensor.
pub fn uniform(shape: &[i64], from: f64, to: f64, dtype: DType) -> Result<Tensor> {
    let shape = factory_shape(shape)?;
    crate::ledger::check_new_buffer(&shape, float_dtype(dtype))?;
    let numel = shape.iter().product();
    let buffer = with_generator(|g| match float_dtype(dtype) {
        DType::Float64 => CpuBuffer::F64(
            (0..numel)
                .map(|_| g.uniform_f64().mul_add(to - from, from))
                .collect(),
        ),
        _ => {
            let (from, to) = (from as f32, to as f32);
            CpuBuffer::F32(
                (0..numel)
                    .map(|_| g.uniform_f32().mul_add(to - from, from))
                    .collect(),
            )
        }
    });
    Ok(new_tensor(buffer, &shape))
}

/// Normal samples with `mean` and `std`, PyTorch's `normal_` on a new tensor.
pub fn normal(shape: &[i64], mean: f64, std: f64, dtype: DType) -> Result<Tensor> {
    let shape = factory_shape(shape)?;
    crate::ledger::check_new_buffer(&shape, float_dtype(dtype))?;
    let numel: usize = shape.iter().product();
    let buffer = with_generator(|g| match (float_dtype(dtype), numel >= 16) {
        (DType::Float64, true) => {
            CpuBuffer::F64(normal_fill(g, numel, Generator::uniform_f64, |u| {
                box_muller_f64(u, mean, std)
            }))
        }
        (_, true) => {
            let (mean, std) = (mean as f32, std as f32);
            CpuBuffer::F32(normal_fill(g, numel, Generator::uniform_f32, |u| {
                box_muller_f32(u, mean, std)
            }))
        }
        (DType::Float64, false) => {
            CpuBuffer::F64((0..numel).map(|_| g.normal().mul_add(std, mean)).collect())
        }
        (_, false) => CpuBuffer::F32(
            (0..numel)
                .map(|_| g.normal().mul_add(std, mean) as f32)
                .collect(),
        ),
    });
    Ok(new_tensor(buffer, &shape))
}

/// PyTorch's `normal_fill`: uniforms for every element, Box-Muller on each
/// block of 16 (first eight paired with last eight), and a final block of
/// fresh uniforms over the last 16 elements when 16 does not divide them.
fn normal_fill<T: Copy + Default>(
    g: &mut Generator,
    numel: usize,
    uniform: fn(&mut Generator) -> T,
    block: impl Fn(&mut [T]),
) -> Vec<T> {
    let mut data: Vec<T> = (0..numel).map(|_| uniform(g)).collect();
    for chunk in data.chunks_exact_mut(16) {
        block(chunk);
    }
    if !numel.is_multiple_of(16) {
        let tail = &mut data[numel - 16..];
        tail.iter_mut().for_each(|v| *v = uniform(g));
        block(tail);
    }
    data
}

/// PyTorch's `NormalFill16` in float32 as its x86 build (AVX2 or AVX-512)
/// runs it: `avx_mathfun.h`'s polynomial `log256_ps` and `sincos256_ps`,
/// one lane at a time, with the multiply-adds the compiler fuses.
fn box_muller_f32(data: &mut [f32], mean: f32, std: f32) {
    let two_pi = (2.0 * PI) as f32;
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * cephes_logf(u1)).sqrt();
        let (sin, cos) = cephes_sincosf(two_pi * u2);
        data[j] = (radius * cos).mul_add(std, mean);
        data[j + 8] = (radius * sin).mul_add(std, mean);
    }
}

// avx_mathfun.h's constants, its double literals digit for digit, stored as floats.
const SQRTHF: f32 = std::f64::consts::FRAC_1_SQRT_2 as f32;
#[allow(clippy::excessive_precision)]
const LOG_P: [f32; 9] = [
    7.0376836292E-2_f64 as f32,
    -1.1514610310E-1_f64 as f32,
    1.1676998740E-1_f64 as f32,
    -1.2420140846E-1_f64 as f32,
    1.4249322787E-1_f64 as f32,
    -1.6668057665E-1_f64 as f32,
    2.0000714765E-1_f64 as f32,
    -2.4999993993E-1_f64 as f32,
    3.3333331174E-1_f64 as f32,
];
#[allow(clippy::excessive_precision)]
const LOG_Q1: f32 = -2.12194440e-4_f64 as f32;
const LOG_Q2: f32 = 0.693359375_f64 as f32;
#[allow(clippy::excessive_precision)]
const FOPI: f32 = 1.27323954473516_f64 as f32;
#[allow(clippy::excessive_precision)]
const MINUS_DP: [f32; 3] = [
    -0.78515625,
    -2.4187564849853515625e-4_f64 as f32,
    -3.77489497744594108e-8_f64 as f32,
];
const SINCOF: [f32; 3] = [
    -1.9515295891E-4_f64 as f32,
    8.3321608736E-3_f64 as f32,
    -1.6666654611E-1_f64 as f32,
];
#[allow(clippy::excessive_precision)]
const COSCOF: [f32; 3] = [
    2.443315711809948E-005_f64 as f32,
    -1.388731625493765E-003_f64 as f32,
    4.166664568298827E-002_f64 as f32,
];

/// `log256_ps` for one positive lane (Cephes' `logf`).
fn cephes_logf(x: f32) -> f32 {
    let x = x.max(f32::from_bits(0x0080_0000));
    let bits = x.to_bits();
    let mut e = ((bits >> 23) as i32 - 0x7f) as f32 + 1.0;
    let mut x = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
    let below = x < SQRTHF;
    let tmp = if below { x } else { 0.0 };
    x -= 1.0;
    e -= if below { 1.0 } else { 0.0 };
    x += tmp;
    let z = x * x;
    let y = LOG_P[1..].iter().fold(LOG_P[0], |y, &p| y.mul_add(x, p)) * x;
    let y = y.mul_add(z, e * LOG_Q1);
    let y = z.mul_add(-0.5, y);
    e.mul_add(LOG_Q2, x + y)
}

/// `sincos256_ps` for one lane (Cephes' `sinf` and `cosf`): `(sin, cos)`.
fn cephes_sincosf(x: f32) -> (f32, f32) {
    let sign_sin = x.to_bits() & 0x8000_0000;
    let x = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    let j = (((x * FOPI) as i32).wrapping_add(1)) & !1;
    let y = j as f32;
    let sign_sin = sign_sin ^ (((j & 4) as u32) << 29);
    let sign_cos = ((!(j.wrapping_sub(2)) & 4) as u32) << 29;
    let sine_polynomial = j & 2 == 0;
    let x = MINUS_DP.iter().fold(x, |x, &dp| y.mul_add(dp, x));
    let z = x * x;
    let c =
        (COSCOF[0].mul_add(z, COSCOF[1]).mul_add(z, COSCOF[2]) * z).mul_add(z, -(z * 0.5)) + 1.0;
    let s = (SINCOF[0].mul_add(z, SINCOF[1]).mul_add(z, SINCOF[2]) * z).mul_add(x, x);
    // The vector code selects with masks and recombines with adds; keep its
    // arithmetic so signed zeros come out the same.
    let (sin2, sin1) = if sine_polynomial { (s, 0.0) } else { (0.0, c) };
    let (s, c) = (s - sin2, c - sin1);
    let sin = f32::from_bits((sin1 + sin2).to_bits() ^ sign_sin);
    let cos = f32::from_bits((c + s).to_bits() ^ sign_cos);
    (sin, cos)
}

/// PyTorch's `NormalFill16` in float64.
fn box_muller_f64(data: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * PI * u2;
        data[j] = (radius * theta.cos()).mul_add(std, mean);
        data[j + 8] = (radius * theta.sin()).mul_add(std, mean);
    }
}

impl Tensor {
    /// Uniform samples in `[0, 1)`, PyTorch's `torch.rand(shape, dtype=...)`.
    ///
    /// ```
    /// use gradscope_core::{DType, Tensor, ops::random::manual_seed};
    /// manual_seed(0);
    /// let x = Tensor::rand(&[3], DType::Float32)?;
    /// assert_eq!(x.to_vec::<f32>(), vec![0.49625659, 0.76822180, 0.08847743]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn rand(shape: &[i64], dtype: DType) -> Result<Tensor> {
        if !dtype.is_float() {
            return Err(Error::KernelDtype {
                kernel: "check_uniform_bounds",
                dtype,
            });
        }
        uniform(shape, 0.0, 1.0, dtype)
    }

    /// Standard normal samples, PyTorch's `torch.randn(shape, dtype=...)`.
    pub fn randn(shape: &[i64], dtype: DType) -> Result<Tensor> {
        if !dtype.is_float() {
            return Err(Error::KernelDtype {
                kernel: "normal_kernel_cpu",
                dtype,
            });
        }
        normal(shape, 0.0, 1.0, dtype)
    }

    /// Integers in `[low, high)` as int64, PyTorch's `torch.randint(low, high, shape)`.
    pub fn randint(low: i64, high: i64, shape: &[i64]) -> Result<Tensor> {
        let shape = factory_shape(shape)?;
        if low >= high {
            return Err(Error::RandomRange {
                from: low,
                to: high,
            });
        }
        crate::ledger::check_new_buffer(&shape, DType::Int64)?;
        let range = high.wrapping_sub(low) as u64;
        let numel = shape.iter().product();
        let values = with_generator(|g| {
            (0..numel)
                .map(|_| {
                    // PyTorch draws 64 bits only for ranges of 2^28 and more.
                    let v = match range >= 1 << 28 {
                        true => g.random64(),
                        false => u64::from(g.random()),
                    };
                    (v % range).wrapping_add(low as u64) as i64
                })
                .collect()
        });
        Ok(new_tensor(CpuBuffer::I64(values), &shape))
    }

    /// PyTorch's `torch.rand_like(self)` (floating dtypes).
    pub fn rand_like(&self) -> Result<Tensor> {
        let _on = crate::device::Scope::new(self.device());
        Self::rand(&super::view_shape::signed(self.shape()), self.dtype())
    }

    /// PyTorch's `torch.randn_like(self)` (floating dtypes).
    pub fn randn_like(&self) -> Result<Tensor> {
        let _on = crate::device::Scope::new(self.device());
        Self::randn(&super::view_shape::signed(self.shape()), self.dtype())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_reference_sequence() {
        // The 10000th output of mt19937 seeded with 5489, as the C++ standard specifies.
        let mut mt = Mt19937::new(5489);
        let last = (0..10000).map(|_| mt.next_u32()).last();
        assert_eq!(last, Some(4123659995));
    }
}
