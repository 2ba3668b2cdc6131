//! Property tests over random shapes and op sequences: every op either
//! succeeds or returns an error (never panics), and random small float64
//! graphs pass gradcheck. A fixed-seed generator keeps failures reproducible.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

mod common;

use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck};
use gradscope_core::{Layout, Result, Tensor};

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

    fn tensor(&mut self, shape: &[usize], lo: f64, hi: f64) -> Tensor {
        let n: usize = shape.iter().product();
        let values: Vec<f64> = (0..n).map(|_| lo + (hi - lo) * self.unit()).collect();
        let t = Tensor::from_vec(values, shape).unwrap();
        // Sometimes a transposed view of the same values, to exercise strides.
        if shape.len() == 2 && self.below(2) == 0 {
            let dense = Tensor::from_vec(t.to_vec::<f64>(), &[shape[1], shape[0]]).unwrap();
            let view = Layout::new(shape.to_vec(), vec![1, shape[0] as isize], 0);
            return Tensor::from_vec(
                view.indices()
                    .map(|i| dense.to_vec::<f64>()[i])
                    .collect::<Vec<_>>(),
                shape,
            )
            .unwrap();
        }
        t
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
        for _ in 0..500 {
            let a = rng.shape(4);
            let b = if rng.below(2) == 0 { rng.partner(&a) } else { rng.shape(4) };
            let x = rng.tensor(&a, -2.0, 2.0).requires_grad_(rng.below(2) == 0);
            let y = rng.tensor(&b, -2.0, 2.0);
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
    }

    fn random_small_graphs_pass_gradcheck() {
        let mut rng = Rng(42);
        let mut checked = 0;
        for _ in 0..40 {
            let a = rng.shape(3);
            let b = rng.partner(&a);
            let x = rng.tensor(&a, 0.5, 1.5).requires_grad_(true);
            let y = rng.tensor(&b, 0.5, 1.5).requires_grad_(true);
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
    }
}
