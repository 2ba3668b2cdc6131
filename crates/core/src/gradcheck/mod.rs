//! PyTorch's `torch.autograd.gradcheck` over every differentiable op: one
//! case per PyTorch call, each checked in float64 against central
//! differences, or, on the GPU, in float32 against the CPU's float64
//! backward. `gradscope gradcheck` prints the rows; this module holds the
//! cases, by op family, and runs them.
//!
//! The unary rows are generated from [`UnaryOp::ALL`](crate::ops::UnaryOp::ALL);
//! for the other families, [`variant`] names every variant of every op
//! enum through an exhaustive `match` (a new variant fails to compile
//! there), and a test checks that each named variant is the last op of
//! some case (or, for the few ops only composite functions record, that it
//! runs inside one): a new op cannot go unchecked silently.

mod cases;
mod check;
mod coverage;
mod inputs;

pub use cases::{cases, cases_on, unary_case};
pub use check::{GPU_ATOL, GPU_RTOL, Row, check, check_on_gpu};
pub use coverage::{INSIDE_COMPOSITES, not_checkable, unchecked_variants, variant, variants};
pub use inputs::{
    FLOAT32_EPS, Input, KINK_MARGIN, SplitMix64, Values, avoiding, between, positive, real, sample,
};

use crate::{Result, Tensor};
use inputs::{fnv1a, sample as draw};

/// A case's call.
type CaseFn = Box<dyn Fn(&[Tensor]) -> Result<Tensor>>;

/// One row: a PyTorch call and the inputs it is checked at.
pub struct Case {
    /// What the row calls, in PyTorch's words: the function's name, then
    /// any detail in parentheses (`pow (x ** 2.5)`).
    pub name: String,
    inputs: Vec<Input>,
    f: CaseFn,
    /// The finite-difference step, when PyTorch's 1e-6 cannot work.
    eps: Option<f64>,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Case")
            .field("name", &self.name)
            .field("inputs", &self.inputs)
            .field("eps", &self.eps)
            .finish_non_exhaustive()
    }
}

impl Case {
    /// A case named `name` checking `f` at `inputs`.
    pub fn new(
        name: impl Into<String>,
        inputs: Vec<Input>,
        f: impl Fn(&[Tensor]) -> Result<Tensor> + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            inputs,
            f: Box::new(f),
            eps: None,
        }
    }

    /// The same case with finite-difference step `eps`.
    pub fn with_eps(mut self, eps: Option<f64>) -> Self {
        self.eps = eps;
        self
    }

    /// The inputs' shapes.
    pub fn shapes(&self) -> Vec<Vec<usize>> {
        self.inputs.iter().map(|i| i.shape.clone()).collect()
    }

    /// The function's name, without the detail: what `--only` matches.
    pub fn op_name(&self) -> &str {
        self.name.split(" (").next().unwrap_or(&self.name)
    }

    /// The inputs' seeded values: the seed is the case's name, so adding a
    /// case changes no other case's inputs.
    pub fn leaves(&self) -> Result<Vec<Tensor>> {
        let mut rng = SplitMix64::new(fnv1a(self.name.as_bytes()));
        self.inputs
            .iter()
            .map(|input| {
                let n: usize = input.shape.iter().product();
                let data: Vec<f64> = (0..n).map(|_| draw(&mut rng, &input.values)).collect();
                Ok(Tensor::from_vec(data, &input.shape)?.requires_grad_(true))
            })
            .collect()
    }
}
