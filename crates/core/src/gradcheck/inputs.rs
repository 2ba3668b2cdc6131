//! A case's inputs: where their seeded random values lie, and the small
//! generator that draws them the same on every run and platform.

/// Where an input's seeded random values lie.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Uniform in `[lo, hi)`.
    Between(f64, f64),
    /// Uniform in `(-2, 2)`, at least [`KINK_MARGIN`] from each point
    /// listed: where the op has a kink or a jump that finite differences
    /// would straddle.
    Avoiding(Vec<f64>),
    /// Multiples of 1/256 in `(-2, 2)` away from 0: exact in float32, as
    /// are their neighbours at [`FLOAT32_EPS`], so a float32 round trip is
    /// checked without float32's rounding.
    Float32Exact,
}

/// How far [`Values::Avoiding`] keeps from a kink: far beyond the step, so
/// `x ± eps` stay on one side.
pub const KINK_MARGIN: f64 = 0.1;

/// The step for a float32 round trip: a power of two, exact in float32
/// beside [`Values::Float32Exact`]'s values (1e-6 is below float32's
/// resolution and would measure its rounding).
pub const FLOAT32_EPS: f64 = 1.0 / 1024.0;

/// One input of a case: a float64 leaf that requires grad.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Its shape.
    pub shape: Vec<usize>,
    /// Where its values lie.
    pub values: Values,
}

/// Values away from 0, the kink of abs, relu, sign and the pole of 1/x.
pub fn real(shape: &[usize]) -> Input {
    avoiding(shape, &[0.0])
}

/// Values in `(-2, 2)` away from each of `kinks`.
pub fn avoiding(shape: &[usize], kinks: &[f64]) -> Input {
    Input {
        shape: shape.to_vec(),
        values: Values::Avoiding(kinks.to_vec()),
    }
}

/// Values uniform in `[lo, hi)`.
pub fn between(shape: &[usize], lo: f64, hi: f64) -> Input {
    Input {
        shape: shape.to_vec(),
        values: Values::Between(lo, hi),
    }
}

/// Values where log, sqrt and fractional powers are smooth.
pub fn positive(shape: &[usize]) -> Input {
    between(shape, 0.2, 2.0)
}

/// One value of `values`, drawn from `rng`.
pub fn sample(rng: &mut SplitMix64, values: &Values) -> f64 {
    match values {
        Values::Between(lo, hi) => lo + (hi - lo) * rng.unit(),
        Values::Avoiding(kinks) => loop {
            let v = 4.0 * rng.unit() - 2.0;
            if kinks.iter().all(|k| (v - k).abs() >= KINK_MARGIN) {
                break v;
            }
        },
        Values::Float32Exact => loop {
            let v = (rng.unit() * 1024.0).floor() / 256.0 - 2.0;
            if v.abs() >= KINK_MARGIN {
                break v;
            }
        },
    }
}

/// A small seeded generator (SplitMix64): the same inputs on every run and
/// every platform, independent of the engine's `manual_seed` state.
#[derive(Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// FNV-1a of `bytes`: a case's name as its seed.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
