//! Gradcheck in float64 for every differentiable elementwise op: with
//! contiguous, transposed, expanded (stride 0), broadcast, size-0 and 0-dim
//! inputs, and gradgradcheck of the smooth ones.

use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck};
use gradscope_core::ops::arith::Scalar;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{Error, Result, Tensor};

use super::common::{assert_gradcheck, leaf64};
use super::{Many, Unary, binary, weights};
use crate::every_target;

/// Gradcheck in float64 on `f` at `inputs`, and the same with `f`'s first
/// derivative (gradgradcheck): the gradient of `(f(x) * w).sum()` with
/// respect to input `i`, taken with `create_graph`, checked as a function.
fn assert_gradgradcheck(f: impl Fn(&[Tensor]) -> Result<Tensor>, inputs: &[Tensor], i: usize) {
    let first = |t: &[Tensor]| -> Result<Tensor> {
        let _enabled = gradscope_core::grad_mode::GradModeGuard::set(true);
        // Numerical differentiation passes plain tensors: make them leaves.
        let leaves: Vec<Tensor> = t
            .iter()
            .zip(inputs)
            .map(|(t, orig)| {
                if orig.requires_grad() && !t.requires_grad() {
                    t.detach().requires_grad_(true)
                } else {
                    t.clone()
                }
            })
            .collect();
        let saved: Vec<_> = leaves.iter().map(Tensor::grad).collect();
        leaves.iter().for_each(|t| t.set_grad(None));
        let out = f(&leaves)?;
        out.mul(&weights(&out))?
            .sum()?
            .backward_with(None, None, true)?;
        let g = leaves[i].grad().ok_or(Error::NoGradFn)?;
        leaves.iter().zip(saved).for_each(|(t, s)| t.set_grad(s));
        Ok(g)
    };
    if let Err(err) = gradcheck(first, inputs, GradcheckOptions::default()) {
        panic!("gradgradcheck: {err}");
    }
}

fn grid(n: usize, offset: f64) -> Vec<f64> {
    // Distinct values away from the kinks of relu, abs, clamp and friends.
    (0..n)
        .map(|k| offset + 0.37 * k as f64 - 0.9 + 0.013 * (k * k) as f64)
        .collect()
}

every_target! {
    fn gradcheck_every_unary_op_contiguous_transposed_expanded() {
        let ops: Vec<(&str, Unary)> = vec![
            ("exp", Box::new(|x| x.exp())), ("log", Box::new(|x| x.abs()?.add(&Tensor::scalar(0.1))?.log())),
            ("sqrt", Box::new(|x| x.mul(x)?.add(&Tensor::scalar(0.2))?.sqrt())),
            ("rsqrt", Box::new(|x| x.mul(x)?.add(&Tensor::scalar(0.2))?.rsqrt())),
            ("abs", Box::new(|x| x.abs())), ("sin", Box::new(|x| x.sin())), ("cos", Box::new(|x| x.cos())),
            ("tanh", Box::new(|x| x.tanh())), ("sigmoid", Box::new(|x| x.sigmoid())), ("relu", Box::new(|x| x.relu())),
            ("gelu", Box::new(|x| x.gelu(GeluApproximate::None))), ("gelu_tanh", Box::new(|x| x.gelu(GeluApproximate::Tanh))),
            ("leaky_relu", Box::new(|x| x.leaky_relu(0.2))), ("softplus", Box::new(|x| x.softplus(2.0, 1.5))),
            ("clamp", Box::new(|x| x.clamp(Some(Scalar::Float(-0.5)), Some(Scalar::Int(1))))),
            ("clamp_min", Box::new(|x| x.clamp_min(Scalar::Float(0.1)))), ("clamp_max", Box::new(|x| x.clamp_max(Scalar::Float(0.1)))),
            ("round", Box::new(|x| x.round())), ("floor", Box::new(|x| x.floor())), ("sign", Box::new(|x| x.sign())),
            ("neg", Box::new(|x| x.neg())), ("reciprocal", Box::new(|x| x.reciprocal())), ("erf", Box::new(|x| x.erf())),
            ("erf_far", Box::new(|x| x.mul(&Tensor::scalar(3.0))?.erf())),
            ("pow_2", Box::new(|x| x.pow_scalar(Scalar::Int(2)))), ("pow_2_5", Box::new(|x| x.abs()?.pow_scalar(Scalar::Float(2.5)))),
            ("pow_neg_half", Box::new(|x| x.abs()?.pow_scalar(Scalar::Float(-0.5)))),
            ("rpow", Box::new(|x| Tensor::scalar_pow(Scalar::Float(1.7), x))), ("rsub", Box::new(|x| x.rsub(&Tensor::scalar(2.0)))),
            ("rdiv", Box::new(|x| x.rdiv(&Tensor::scalar_int(3)))),
        ];
        let x = leaf64(&grid(6, 0.0), &[2, 3]);
        let row = leaf64(&grid(3, 0.05), &[3]);
        for (name, f) in &ops {
            eprintln!("gradcheck {name}");
            assert_gradcheck(|t| f(&t[0]), std::slice::from_ref(&x));
            assert_gradcheck(|t| f(&t[0].t()?), std::slice::from_ref(&x));
            assert_gradcheck(|t| f(&t[0].expand(&[2, 3])?), std::slice::from_ref(&row));
            let smooth = !matches!(*name, "round" | "floor" | "sign" | "relu" | "leaky_relu" | "clamp" | "clamp_min" | "clamp_max" | "abs");
            if smooth {
                assert_gradgradcheck(|t| f(&t[0]), std::slice::from_ref(&x), 0);
            }
        }
    }

    fn gradcheck_every_binary_op_with_broadcasting() {
        let ops: Vec<(&str, Many)> = vec![
            ("add", binary("add")), ("add_alpha", binary("add_alpha")), ("sub", binary("sub")),
            ("sub_alpha", binary("sub_alpha")), ("rsub", binary("rsub")), ("rsub_alpha", binary("rsub_alpha")),
            ("mul", binary("mul")), ("div", binary("div")),
            ("pow", Box::new(|t| t[0].abs()?.add(&Tensor::scalar(0.1))?.pow(&t[1]))),
            ("maximum", binary("maximum")), ("minimum", binary("minimum")),
            ("clamp_min", binary("clamp_min_t")), ("clamp_max", binary("clamp_max_t")),
            ("where", Box::new(|t| t[0].where_cond(&t[0].gt(&t[1])?, &t[1]))),
            ("clamp_both", Box::new(|t| t[0].clamp_tensor(Some(&t[1]), Some(&t[1].add(&Tensor::scalar(0.5))?)))),
            ("clamp_lower", Box::new(|t| t[0].clamp_tensor(Some(&t[1]), None))),
            ("clamp_upper", Box::new(|t| t[0].clamp_tensor(None, Some(&t[1])))),
        ];
        let a = leaf64(&grid(6, 0.0), &[2, 3]);
        let b = leaf64(&grid(6, 0.11).into_iter().rev().collect::<Vec<_>>(), &[2, 3]);
        let row = leaf64(&grid(3, 0.21), &[3]);
        let col = leaf64(&grid(2, -0.3), &[2, 1]);
        let scalar = leaf64(&[0.4], &[]);
        for (name, f) in &ops {
            eprintln!("gradcheck {name}");
            assert_gradcheck(|t| f(t), &[a.clone(), b.clone()]);
            assert_gradcheck(|t| f(t), &[a.clone(), row.clone()]);
            assert_gradcheck(|t| f(t), &[col.clone(), row.clone()]);
            assert_gradcheck(|t| f(t), &[a.clone(), scalar.clone()]);
            assert_gradcheck(|t| f(&[t[0].t()?, t[1].clone()]), &[a.clone(), col.t().unwrap().detach().requires_grad_(true)]);
            if matches!(*name, "mul" | "div" | "pow") {
                assert_gradgradcheck(|t| f(t), &[a.clone(), b.clone()], 0);
                assert_gradgradcheck(|t| f(t), &[a.clone(), row.clone()], 1);
            }
        }
        // Size 0 and size 1 broadcast without error and give empty or summed gradients.
        let empty = leaf64(&[], &[0, 3]);
        let out = empty.mul(&row).unwrap();
        out.sum().unwrap().backward().unwrap();
        assert_eq!(row.grad().unwrap().to_vec::<f64>(), vec![0.0; 3]);
        assert_eq!(out.shape(), &[0, 3]);
    }

    fn where_broadcasts_all_three_and_gradchecks() {
        let a = leaf64(&grid(3, 0.0), &[3]);
        let b = leaf64(&grid(2, 1.0), &[2, 1]);
        let cond = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
        assert_gradcheck(|t| t[0].where_cond(&cond, &t[1]), &[a, b]);
    }

    fn saved_tensors_are_freed_after_backward() {
        let x = leaf64(&grid(4, 0.0), &[4]);
        let before = gradscope_core::ledger::memory_allocated();
        let y = x.sigmoid().unwrap().mul(&x.tanh().unwrap()).unwrap().pow_scalar(Scalar::Int(2)).unwrap();
        let loss = y.maximum(&x).unwrap().where_cond(&x.gt(&Tensor::scalar(0.0)).unwrap(), &x).unwrap().sum().unwrap();
        loss.backward().unwrap();
        drop((y, loss));
        // Only x.grad is left.
        assert_eq!(gradscope_core::ledger::memory_allocated() - before, 4 * 8);
    }
}

every_target! {
    fn every_unary_op_has_a_node_a_kernel_and_a_derivative() {
        for op in gradscope_core::ops::UnaryOp::ALL {
            let x = leaf64(&grid(4, 0.0), &[4]);
            let x = match op {
                gradscope_core::ops::UnaryOp::ToDtype { from, .. } => x.to_dtype(*from).unwrap(),
                _ => x,
            };
            let y = op.call(&x).unwrap();
            let name = gradscope_core::Op::Unary(*op).node_name();
            assert_eq!(y.grad_fn().unwrap().name(), name, "{op:?}");
            y.sum().unwrap().backward().unwrap();
        }
    }
}
