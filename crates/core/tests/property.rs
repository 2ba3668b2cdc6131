//! Property tests over random shapes and op sequences: every op either
//! succeeds or returns an error (never panics), and random small float64
//! graphs pass gradcheck, on contiguous inputs and on transposed and
//! expanded (stride 0) views. A fixed-seed generator keeps failures
//! reproducible.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

mod common;

use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck};
use gradscope_core::{Result, Tensor};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// xorshift64*: tiny, deterministic, good enough to pick shapes and ops.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> usize {
        (self.next() % n.max(1)) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn shape(&mut self, max_dim: usize) -> Vec<usize> {
        (0..self.below(4))
            .map(|_| self.below(max_dim as u64 + 1))
            .collect()
    }

    /// A shape that broadcasts with `shape`: some dims dropped or set to 1.
    fn partner(&mut self, shape: &[usize]) -> Vec<usize> {
        let skip = self.below(shape.len() as u64 + 1);
        shape[skip..]
            .iter()
            .map(|&d| if self.below(3) == 0 { 1 } else { d })
            .collect()
    }

    fn values(&mut self, n: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n).map(|_| lo + (hi - lo) * self.unit()).collect()
    }

    /// A tensor of `shape` with values in `[lo, hi)`: contiguous, or a
    /// real view of another storage, transposed (strides reversed) or
    /// expanded (stride 0 along the first dimension), so ops walk strides.
    fn tensor(&mut self, shape: &[usize], lo: f64, hi: f64) -> Tensor {
        let n: usize = shape.iter().product();
        let kind = self.below(3);
        match (shape.len(), kind) {
            (2, 0) => Tensor::from_vec(self.values(n, lo, hi), &[shape[1], shape[0]])
                .unwrap()
                .t()
                .unwrap(),
            (1.., 1) => {
                let mut base = shape.to_vec();
                base[0] = 1;
                let n = base.iter().product();
                Tensor::from_vec(self.values(n, lo, hi), &base)
                    .unwrap()
                    .expand(shape)
                    .unwrap()
            }
            _ => Tensor::from_vec(self.values(n, lo, hi), shape).unwrap(),
        }
    }
}

/// Counts the kinds of layout among inputs, so a test can assert that
/// strided and stride-0 views were exercised.
#[derive(Debug, Default)]
struct Layouts {
    transposed: usize,
    expanded: usize,
}

impl Layouts {
    fn note(&mut self, t: &Tensor) {
        let strides = t.layout().strides();
        if strides
            .iter()
            .zip(t.shape())
            .any(|(&s, &d)| s == 0 && d > 1)
        {
            self.expanded += 1;
        } else if !t.layout().is_contiguous() {
            self.transposed += 1;
        }
    }
}

/// One random op applied to `x` (and a broadcast partner `y`).
fn step(rng: &mut Rng, x: &Tensor, y: &Tensor) -> Result<Tensor> {
    match rng.below(7) {
        0 => x.add(y),
        1 => x.sub(y),
        2 => x.mul(y),
        3 => x.div(&y.exp()?),
        4 => x.neg(),
        5 => x.mul(&Tensor::scalar(0.5))?.exp(),
        _ => x.expand(x.shape())?.mean()?.add(x),
    }
}

every_target! {
    fn random_shapes_never_panic() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut walked = 0;
        let mut layouts = Layouts::default();
        for _ in 0..500 {
            let a = rng.shape(4);
            let b = if rng.below(2) == 0 { rng.partner(&a) } else { rng.shape(4) };
            let x = rng.tensor(&a, -2.0, 2.0).requires_grad_(rng.below(2) == 0);
            let y = rng.tensor(&b, -2.0, 2.0);
            layouts.note(&x);
            layouts.note(&y);
            // Errors are fine (shapes may not broadcast); panics are not.
            if let Ok(z) = step(&mut rng, &x, &y)
                && let Ok(s) = z.sum()
                && s.requires_grad()
            {
                s.backward().unwrap();
                assert_eq!(x.grad().map(|g| g.shape().to_vec()), Some(a.clone()));
                walked += 1;
            }
        }
        assert!(walked > 100, "only {walked} graphs reached backward");
        assert!(layouts.transposed > 20 && layouts.expanded > 50, "{layouts:?}");
    }

    fn random_small_graphs_pass_gradcheck() {
        let mut rng = Rng(42);
        let mut checked = 0;
        let mut layouts = Layouts::default();
        for _ in 0..40 {
            let a = rng.shape(3);
            let b = rng.partner(&a);
            let x = rng.tensor(&a, 0.5, 1.5).requires_grad_(true);
            let y = rng.tensor(&b, 0.5, 1.5).requires_grad_(true);
            layouts.note(&x);
            layouts.note(&y);
            let ops: Vec<u64> = (0..1 + rng.below(4)).map(|_| rng.next()).collect();
            let f = |t: &[Tensor]| -> Result<Tensor> {
                let mut local = Rng(ops[0] | 1);
                let mut z = t[0].clone();
                for _ in &ops {
                    z = step(&mut local, &z, &t[1])?;
                }
                z.sum()
            };
            if f(&[x.clone(), y.clone()]).is_ok() {
                gradcheck(f, &[x, y], GradcheckOptions::default()).unwrap();
                checked += 1;
            }
        }
        assert!(checked > 30, "only {checked} graphs were gradchecked");
        assert!(layouts.transposed > 0 && layouts.expanded > 5, "{layouts:?}");
    }
}
