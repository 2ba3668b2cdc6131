//! Reductions, the softmax family and matrix products against PyTorch:
//! values, node names, gradients and error messages recorded by
//! `tests/fixtures/record_reduce.py`, and float64 gradchecks (first and
//! second order) over dims, keepdim, transposed and broadcast inputs. Each
//! test runs natively and, compiled to wasm, in headless Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::grad_mode::GradModeGuard;
use gradscope_core::{DType, Error, Result, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use common::{assert_close_f32, assert_close_f64, assert_gradcheck, floats, leaf64, shape};

const FIXTURE: &str = include_str!("../../../tests/fixtures/reduce.json");

fn fixture(name: &str) -> Value {
    common::case(FIXTURE, name)
}

fn f32s(v: &Value) -> Vec<f32> {
    floats(v).into_iter().map(|f| f as f32).collect()
}

fn ints(v: &Value) -> Vec<i64> {
    let v = if v.is_array() {
        v.clone()
    } else {
        Value::Array(vec![v.clone()])
    };
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_i64().unwrap())
        .collect()
}

/// A fixture input as a float32 leaf requiring grad.
fn input(name: &str) -> Tensor {
    let case = &fixture("inputs")[name];
    Tensor::from_vec(f32s(&case["values"]), &shape(&case["shape"]))
        .unwrap()
        .requires_grad_(true)
}

/// PyTorch's weights for a grad_output: `(arange(n) + 1) / n`.
fn weights(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let values = (0..n).map(|k| (k + 1) as f32 / n as f32).collect();
    Tensor::from_vec(values, shape).unwrap()
}

/// Runs a fixture's op as `crates/core` spells it: the result and, for
/// `max(dim)`, the indices.
fn call(x: &Tensor, op: &str, args: &Value) -> Result<(Tensor, Option<Tensor>)> {
    let keepdim = args["keepdim"].as_bool().unwrap_or(false);
    let dims = args.get("dim").map(ints);
    let dim = || dims.as_ref().unwrap()[0];
    let correction = args["correction"].as_f64().unwrap_or(1.0);
    Ok(match op {
        "sum" => (
            dims.as_ref()
                .map_or_else(|| x.sum(), |d| x.sum_dim(d, keepdim))?,
            None,
        ),
        "mean" => (
            dims.as_ref()
                .map_or_else(|| x.mean(), |d| x.mean_dim(d, keepdim))?,
            None,
        ),
        "max" | "min" if dims.is_none() => (if op == "max" { x.max() } else { x.min() }?, None),
        "max" | "min" => {
            let f = if op == "max" {
                Tensor::max_dim
            } else {
                Tensor::min_dim
            };
            let (values, indices) = f(x, dim(), keepdim)?;
            (values, Some(indices))
        }
        "amax" => (x.amax(dims.as_ref().unwrap(), keepdim)?, None),
        "amin" => (x.amin(dims.as_ref().unwrap(), keepdim)?, None),
        "argmax" => (x.argmax(dims.map(|d| d[0]), keepdim)?, None),
        "argmin" => (x.argmin(dims.map(|d| d[0]), keepdim)?, None),
        "var" => (x.var(dims.as_deref(), correction, keepdim)?, None),
        "std" => (x.std(dims.as_deref(), correction, keepdim)?, None),
        "norm" => {
            let p = floats(&args["p"])[0];
            (x.norm(p, dims.as_deref(), keepdim)?, None)
        }
        "prod" if dims.is_none() => (x.prod()?, None),
        "prod" => (x.prod_dim(dim(), keepdim)?, None),
        "logsumexp" => (x.logsumexp(dims.as_ref().unwrap(), keepdim)?, None),
        "softmax" => (x.softmax(dim())?, None),
        "log_softmax" => (x.log_softmax(dim())?, None),
        other => panic!("no op {other}"),
    })
}

/// The graph under `root`: names and next names, highest sequence number first.
fn graph_of(root: &Tensor) -> Vec<(String, Vec<Option<String>>)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![root.grad_fn().expect("root has a grad_fn")];
    let mut nodes = vec![];
    while let Some(node) = stack.pop() {
        if seen.insert(node.id()) {
            stack.extend(node.next_functions().iter().flatten().cloned());
            nodes.push(node);
        }
    }
    nodes.sort_by(|a, b| {
        b.sequence_nr()
            .cmp(&a.sequence_nr())
            .then(a.id().cmp(&b.id()))
    });
    let name = |n: &gradscope_core::autograd::Node| n.name().to_string();
    nodes
        .iter()
        .map(|n| {
            let next = n.next_functions().iter().map(|m| m.as_deref().map(name));
            (name(n), next.collect())
        })
        .collect()
}

fn expected_graph(v: &Value) -> Vec<(String, Vec<Option<String>>)> {
    let nodes = v.as_array().expect("graph is a list");
    nodes
        .iter()
        .map(|n| {
            let next = n["next"].as_array().expect("next is a list");
            let next = next.iter().map(|m| m.as_str().map(String::from));
            (
                n["name"].as_str().expect("name").to_string(),
                next.collect(),
            )
        })
        .collect()
}

fn message(errors: &Value, name: &str) -> (String, String) {
    let e = &errors[name];
    (
        e["message"].as_str().unwrap().to_string(),
        e["type"].as_str().unwrap().to_string(),
    )
}

fn assert_error(errors: &Value, name: &str, err: Error) {
    let (message, kind) = message(errors, name);
    assert_eq!(err.to_string(), message, "{name}");
    assert_eq!(err.python_type(), kind, "{name}");
}

/// Distinct float64 values (no ties, no zeros) for gradcheck.
fn values(n: usize, seed: u64) -> Vec<f64> {
    (0..n)
        .map(|k| {
            let h = (k as u64 + 1)
                .wrapping_mul(2654435761)
                .wrapping_add(seed * 40503)
                % 1000;
            (h as f64 / 250.0 - 2.0) + 0.001 * k as f64 + if h == 500 { 0.3 } else { 0.0 }
        })
        .collect()
}

fn leaf(shape: &[usize], seed: u64) -> Tensor {
    leaf64(&values(shape.iter().product(), seed), shape)
}

/// `f`'s first gradient with respect to input `i` as a function of the
/// inputs (built with create_graph), for gradchecking the second order. It
/// also runs under gradcheck's no-grad numerical pass, on fresh tensors.
fn first_grad(
    i: usize,
    f: impl Fn(&[Tensor]) -> Result<Tensor>,
) -> impl Fn(&[Tensor]) -> Result<Tensor> {
    move |t: &[Tensor]| {
        let _mode = GradModeGuard::set(true);
        let t: Vec<Tensor> = t
            .iter()
            .map(|x| {
                if x.requires_grad() {
                    x.clone()
                } else {
                    x.detach().requires_grad_(true)
                }
            })
            .collect();
        let saved: Vec<_> = t.iter().map(Tensor::grad).collect();
        t.iter().for_each(|x| x.set_grad(None));
        f(&t)?.backward_with(None, None, true)?;
        let g = t[i].grad().unwrap();
        t.iter().zip(saved).for_each(|(x, g)| x.set_grad(g));
        Ok(g)
    }
}

test_device! {
    fn reduce_values_nodes_and_grads_match_pytorch() {
        for case in fixture("values").as_array().unwrap() {
            let op = case["op"].as_str().unwrap();
            let x = input(case["input"].as_str().unwrap());
            let (out, indices) = call(&x, op, &case["args"]).unwrap();
            let what = format!("{op} {}", case["args"]);
            assert_eq!(out.shape(), shape(&case["shape"]).as_slice(), "{what}");
            assert_eq!(out.dtype().name(), case["dtype"].as_str().unwrap(), "{what}");
            if out.dtype() == DType::Int64 {
                assert_eq!(out.to_vec::<i64>(), ints(&case["out"]), "{what}");
            } else {
                assert_close_f32(&out.to_vec::<f32>(), &floats(&case["out"]));
            }
            if let Some(indices) = indices {
                assert_eq!(indices.to_vec::<i64>(), ints(&case["indices"]), "{what}");
                assert_eq!(indices.dtype(), DType::Int64);
            }
            let node = out.grad_fn().map(|n| n.name().to_string());
            assert_eq!(node.as_deref(), case["node"].as_str(), "{what}");
            if node.is_some() {
                out.backward_with(Some(&weights(out.shape())), None, false).unwrap();
                match &case["grad"] {
                    Value::Null => assert!(x.grad().is_none(), "{what}"),
                    grad => assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(grad)),
                }
            }
        }
    }

    fn reduce_integer_inputs_keep_pytorch_dtypes() {
        let case = fixture("integer");
        let x = Tensor::from_vec(ints(&case["ints"]), &[2, 3]).unwrap();
        let bools = x.gt(&Tensor::scalar_int(0)).unwrap();
        assert_eq!(x.sum().unwrap().to_vec::<i64>(), ints(&case["sum"]));
        assert_eq!(x.sum_dim(&[0], false).unwrap().to_vec::<i64>(), ints(&case["sum_dim0"]));
        let bool_sum = bools.sum_dim(&[1], false).unwrap();
        assert_eq!(bool_sum.to_vec::<i64>(), ints(&case["sum_bool_dim1"]));
        assert_eq!(bools.sum().unwrap().dtype().name(), case["sum_dtype"].as_str().unwrap());
        assert_eq!(x.max().unwrap().to_vec::<i64>(), ints(&case["max"]));
        let (values, indices) = x.min_dim(1, false).unwrap();
        assert_eq!(values.to_vec::<i64>(), ints(&case["min_dim1"][0]));
        assert_eq!(indices.to_vec::<i64>(), ints(&case["min_dim1"][1]));
        assert_eq!(x.prod().unwrap().to_vec::<i64>(), ints(&case["prod"]));
        assert_eq!(x.prod_dim(0, false).unwrap().to_vec::<i64>(), ints(&case["prod_dim0"]));
        assert_eq!(x.argmax(None, false).unwrap().to_vec::<i64>(), ints(&case["argmax"]));
        assert_eq!(x.amax(&[0], false).unwrap().to_vec::<i64>(), ints(&case["amax_dim0"]));
        let max_bool = bools.max().unwrap();
        assert_eq!((max_bool.dtype(), max_bool.to_vec::<bool>()), (DType::Bool, vec![case["max_bool"].as_bool().unwrap()]));
        let lse = x.logsumexp(&[1], false).unwrap();
        assert_eq!(lse.dtype().name(), case["logsumexp_dtype"].as_str().unwrap());
        assert_close_f32(&lse.to_vec::<f32>(), &floats(&case["logsumexp_dim1"]));
    }

    fn reduce_edge_cases_match_pytorch() {
        let case = fixture("edge");
        let check = |t: Tensor, name: &str| assert_close_f32(&t.to_vec::<f32>(), &floats(&case[name]));
        let empty = Tensor::ones(&[0]);
        check(empty.mean().unwrap(), "mean_empty");
        check(empty.sum().unwrap(), "sum_empty");
        check(empty.prod().unwrap(), "prod_empty");
        check(Tensor::ones(&[1]).var(None, 1.0, false).unwrap(), "var_one");
        check(Tensor::ones(&[2, 3]).var(Some(&[1]), 3.0, false).unwrap(), "var_correction_past_n");
        check(empty.logsumexp(&[0], false).unwrap(), "logsumexp_empty");
        let neg_inf = Tensor::full(&[2], f64::NEG_INFINITY);
        check(neg_inf.logsumexp(&[0], false).unwrap(), "logsumexp_all_neg_inf");
        let pos_inf = Tensor::from_vec(vec![f32::INFINITY, 1.0], &[2]).unwrap();
        check(pos_inf.logsumexp(&[0], false).unwrap(), "logsumexp_pos_inf");
        check(empty.norm(2.0, None, false).unwrap(), "norm_empty");
        let nan = Tensor::from_vec(vec![1.0f32, f32::NAN, 3.0], &[3]).unwrap();
        check(nan.max().unwrap(), "max_nan");
        assert_eq!(nan.argmax(None, false).unwrap().to_vec::<i64>(), ints(&case["argmax_nan"]));
        let nans = Tensor::from_vec(vec![1.0f32, f32::NAN, 3.0, f32::NAN], &[4]).unwrap();
        let (v, i) = nans.max_dim(0, false).unwrap();
        assert_close_f32(&v.to_vec::<f32>(), &floats(&case["max_dim_nan"][0]));
        assert_eq!(i.to_vec::<i64>(), ints(&case["max_dim_nan"][1]));
        let scalar = Tensor::full(&[], 3.0);
        check(scalar.sum_dim(&[0], false).unwrap(), "scalar_sum_dim0");
        let (v, i) = scalar.max_dim(-1, false).unwrap();
        assert_close_f32(&v.to_vec::<f32>(), &floats(&case["scalar_max_dim"][0]));
        assert_eq!((v.shape(), i.to_vec::<i64>()), (&[][..], ints(&case["scalar_max_dim"][1])));
        check(scalar.softmax(0).unwrap(), "scalar_softmax");
        let rows = Tensor::ones(&[0, 3]);
        assert_eq!(rows.max_dim(1, false).unwrap().0.shape(), shape(&case["max_dim_empty_rows"]).as_slice());
        assert_eq!(rows.softmax(0).unwrap().shape(), shape(&case["softmax_empty"]).as_slice());
    }

    fn reduce_error_messages() {
        let errors = fixture("errors");
        let x = Tensor::ones(&[2, 3]);
        let long = Tensor::from_vec(vec![1i64, 1], &[2]).unwrap();
        let flags = Tensor::from_vec(vec![true, true], &[2]).unwrap();
        let empty = Tensor::ones(&[0]);
        let rows = Tensor::ones(&[0, 3]);
        assert_error(&errors, "dim_out_of_range", x.sum_dim(&[2], false).unwrap_err());
        assert_error(&errors, "dim_out_of_range_neg", x.sum_dim(&[-3], false).unwrap_err());
        let scalar = Tensor::full(&[], 3.0);
        assert_error(&errors, "scalar_dim_out_of_range", scalar.sum_dim(&[1], false).unwrap_err());
        assert_error(&errors, "dim_repeated", x.sum_dim(&[1, -1], false).unwrap_err());
        assert_error(&errors, "mean_int", long.mean().unwrap_err());
        assert_error(&errors, "mean_bool", flags.mean_dim(&[0], false).unwrap_err());
        assert_error(&errors, "max_empty", empty.max().unwrap_err());
        assert_error(&errors, "min_empty", empty.min().unwrap_err());
        assert_error(&errors, "amax_empty", empty.amax(&[], false).unwrap_err());
        assert_error(&errors, "amin_empty", empty.amin(&[], false).unwrap_err());
        assert_error(&errors, "argmax_empty", empty.argmax(None, false).unwrap_err());
        assert_error(&errors, "argmin_empty", empty.argmin(None, false).unwrap_err());
        assert_error(&errors, "max_dim_empty", rows.max_dim(0, false).unwrap_err());
        assert_error(&errors, "min_dim_empty", rows.min_dim(0, false).unwrap_err());
        assert_error(&errors, "argmax_bool", flags.argmax(None, false).unwrap_err());
        assert_error(&errors, "var_int", long.var(None, 1.0, false).unwrap_err());
        assert_error(&errors, "norm_int", long.norm(2.0, None, false).unwrap_err());
        assert_error(&errors, "norm_inf_empty", empty.norm(f64::INFINITY, None, false).unwrap_err());
        assert_error(&errors, "softmax_int", long.softmax(0).unwrap_err());
        assert_error(&errors, "log_softmax_int", long.log_softmax(0).unwrap_err());
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn reduce_gradcheck_over_dims_and_keepdim() {
        let x = leaf(&[2, 3, 4], 1);
        for keepdim in [false, true] {
            for dims in [&[1][..], &[-1], &[0, 2], &[]] {
                assert_gradcheck(|t| t[0].sum_dim(dims, keepdim), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].mean_dim(dims, keepdim), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].amax(dims, keepdim), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].amin(dims, keepdim), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].logsumexp(dims, keepdim), std::slice::from_ref(&x));
                for correction in [0.0, 1.0] {
                    assert_gradcheck(|t| t[0].var(Some(dims), correction, keepdim), std::slice::from_ref(&x));
                    assert_gradcheck(|t| t[0].std(Some(dims), correction, keepdim), std::slice::from_ref(&x));
                }
                for p in [2.0, 1.0, f64::INFINITY, f64::NEG_INFINITY, 3.0, 1.5, 0.5] {
                    assert_gradcheck(|t| t[0].norm(p, Some(dims), keepdim), std::slice::from_ref(&x));
                }
            }
            for dim in [0, 1, -1] {
                assert_gradcheck(|t| t[0].max_dim(dim, keepdim).map(|r| r.0), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].min_dim(dim, keepdim).map(|r| r.0), std::slice::from_ref(&x));
                assert_gradcheck(|t| t[0].prod_dim(dim, keepdim), std::slice::from_ref(&x));
            }
        }
        for f in [Tensor::sum, Tensor::mean, Tensor::max, Tensor::min, Tensor::prod] {
            assert_gradcheck(|t| f(&t[0]), std::slice::from_ref(&x));
        }
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn reduce_gradcheck_transposed_expanded_and_scalar_inputs() {
        let x = leaf(&[3, 4], 2);
        let t = |t: &[Tensor]| t[0].t();
        assert_gradcheck(|a| t(a)?.sum_dim(&[0], false), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.var(Some(&[1]), 1.0, true), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.logsumexp(&[0], false), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.max_dim(1, false).map(|r| r.0), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.prod_dim(0, false), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.norm(2.0, Some(&[0]), false), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.softmax(0), std::slice::from_ref(&x));
        assert_gradcheck(|a| t(a)?.log_softmax(1), std::slice::from_ref(&x));
        let row = leaf(&[1, 4], 3);
        let expanded = |t: &[Tensor]| t[0].expand(&[3, 4]);
        assert_gradcheck(|a| expanded(a)?.sum_dim(&[1], false), std::slice::from_ref(&row));
        assert_gradcheck(|a| expanded(a)?.mean_dim(&[0], true), std::slice::from_ref(&row));
        assert_gradcheck(|a| expanded(a)?.softmax(1), std::slice::from_ref(&row));
        assert_gradcheck(|a| expanded(a)?.logsumexp(&[0, 1], false), std::slice::from_ref(&row));
        let scalar = leaf64(&[0.7], &[]);
        assert_gradcheck(|a| a[0].sum_dim(&[0], false), std::slice::from_ref(&scalar));
        assert_gradcheck(|a| a[0].softmax(0), std::slice::from_ref(&scalar));
        assert_gradcheck(|a| a[0].max_dim(0, true).map(|r| r.0), std::slice::from_ref(&scalar));
        let empty = leaf64(&[], &[0, 3]);
        assert_gradcheck(|a| a[0].sum_dim(&[0], false), std::slice::from_ref(&empty));
        let size_one = leaf(&[3, 1], 5);
        assert_gradcheck(|a| a[0].softmax(1), std::slice::from_ref(&size_one));
        assert_gradcheck(|a| a[0].var(Some(&[0]), 1.0, false), &[size_one]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn prod_backward_with_zeros() {
        let one_zero = leaf64(&[1.5, 0.0, 2.0, -1.0, 0.5, 3.0], &[2, 3]);
        let two_zeros = leaf64(&[0.0, 3.0, 0.0, 2.0, 1.5, -0.5], &[2, 3]);
        for x in [one_zero, two_zeros] {
            assert_gradcheck(|t| t[0].prod(), std::slice::from_ref(&x));
            assert_gradcheck(|t| t[0].prod_dim(1, false), std::slice::from_ref(&x));
            assert_gradcheck(|t| t[0].prod_dim(0, true), std::slice::from_ref(&x));
            assert_gradcheck(first_grad(0, |t| t[0].prod()?.mul(&t[0].sum()?)), std::slice::from_ref(&x));
        }
    }

    fn softmax_stable_for_large_inputs() {
        let x = Tensor::from_vec(vec![1000.0f32, 1001.0, 999.0, -1000.0, -1002.0, -1001.0], &[2, 3]).unwrap();
        let y = x.softmax(1).unwrap().to_vec::<f32>();
        assert!(y.iter().all(|v| v.is_finite()));
        let z = x.log_softmax(1).unwrap().to_vec::<f32>();
        assert!(z.iter().all(|v| v.is_finite()));
        let lse = x.logsumexp(&[1], false).unwrap().to_vec::<f32>();
        assert!(lse.iter().all(|v| v.is_finite()));
    }

    #[cpu_only = "float64 throughout, which the GPU refuses as PyTorch's MPS does"]
    fn softmax_double_backward_matches_pytorch() {
        let case = fixture("softmax_double_backward");
        let x = leaf64(&floats(&case["x"]), &[3, 4]);
        let w = weights(&[3, 4]).to_dtype(DType::Float64).unwrap();
        x.softmax(1).unwrap().mul(&w).unwrap().sum().unwrap().backward_with(None, None, true).unwrap();
        let first = x.grad().unwrap();
        assert_close_f64(&first.to_vec::<f64>(), &floats(&case["first"]));
        x.set_grad(None);
        first.mul(&first).unwrap().sum().unwrap().backward().unwrap();
        assert_close_f64(&x.grad().unwrap().to_vec::<f64>(), &floats(&case["second"]));
        let loss = |t: &[Tensor]| t[0].softmax(1)?.mul(&w)?.sum();
        assert_gradcheck(first_grad(0, loss), &[leaf(&[3, 4], 6)]);
        let loss = |t: &[Tensor]| t[0].log_softmax(0)?.mul(&w)?.sum();
        assert_gradcheck(first_grad(0, loss), &[leaf(&[3, 4], 7)]);
        let loss = |t: &[Tensor]| t[0].logsumexp(&[1], false)?.mul(&t[0].sum_dim(&[1], false)?)?.sum();
        assert_gradcheck(first_grad(0, loss), &[leaf(&[3, 4], 8)]);
        let loss = |t: &[Tensor]| t[0].std(Some(&[0]), 1.0, false)?.mul(&t[0].amax(&[0], false)?)?.sum();
        assert_gradcheck(first_grad(0, loss), &[leaf(&[3, 4], 9)]);
        let loss = |t: &[Tensor]| t[0].norm(3.0, Some(&[1]), false)?.mul(&t[0].max_dim(1, false)?.0)?.sum();
        assert_gradcheck(first_grad(0, loss), &[leaf(&[3, 4], 10)]);
    }
}

test_device! {
    fn matmul_values_grads_and_graphs_match_pytorch() {
        let cases = fixture("matmul");
        for (name, case) in cases.as_object().unwrap() {
            let Some(a_shape) = case.get("a_shape") else { continue };
            let a = Tensor::from_vec(f32s(&case["a"]), &shape(a_shape)).unwrap().requires_grad_(true);
            let b = Tensor::from_vec(f32s(&case["b"]), &shape(&case["b_shape"])).unwrap().requires_grad_(true);
            let out = a.matmul(&b).unwrap();
            assert_eq!(out.shape(), shape(&case["shape"]).as_slice(), "{name}");
            assert_close_f32(&out.to_vec::<f32>(), &floats(&case["out"]));
            assert_eq!(graph_of(&out), expected_graph(&case["graph"]), "{name}");
            out.backward_with(Some(&weights(out.shape())), None, false).unwrap();
            assert_close_f32(&a.grad().unwrap().to_vec::<f32>(), &floats(&case["a_grad"]));
            assert_close_f32(&b.grad().unwrap().to_vec::<f32>(), &floats(&case["b_grad"]));
            assert_eq!(a.grad().unwrap().shape(), a.shape());
            let a_only = a.matmul(&b.detach()).unwrap();
            assert_eq!(graph_of(&a_only), expected_graph(&case["graph_a_only"]), "{name} a only");
            let b_only = a.detach().matmul(&b).unwrap();
            assert_eq!(graph_of(&b_only), expected_graph(&case["graph_b_only"]), "{name} b only");
        }
    }

    fn mm_and_bmm_of_transposed_operands_read_strides() {
        let case = fixture("matmul");
        let mm = &case["mm_transposed"];
        let a = Tensor::from_vec(f32s(&mm["a"]), &[3, 2]).unwrap().requires_grad_(true);
        let b = Tensor::from_vec(f32s(&mm["b"]), &[4, 3]).unwrap().requires_grad_(true);
        let out = a.t().unwrap().mm(&b.t().unwrap()).unwrap();
        assert_close_f32(&out.to_vec::<f32>(), &floats(&mm["out"]));
        assert_eq!(graph_of(&out), expected_graph(&mm["graph"]));
        out.backward_with(Some(&weights(out.shape())), None, false).unwrap();
        assert_close_f32(&a.grad().unwrap().to_vec::<f32>(), &floats(&mm["a_grad"]));
        assert_close_f32(&b.grad().unwrap().to_vec::<f32>(), &floats(&mm["b_grad"]));
        let bmm = &case["bmm_transposed"];
        let a = Tensor::from_vec(f32s(&bmm["a"]), &[2, 3, 4]).unwrap().requires_grad_(true);
        let b = Tensor::from_vec(f32s(&bmm["b"]), &[2, 3, 5]).unwrap().requires_grad_(true);
        let out = a.transpose(1, 2).unwrap().bmm(&b).unwrap();
        assert_close_f32(&out.to_vec::<f32>(), &floats(&bmm["out"]));
        assert_eq!(graph_of(&out), expected_graph(&bmm["graph"]));
        out.backward_with(Some(&weights(out.shape())), None, false).unwrap();
        assert_close_f32(&a.grad().unwrap().to_vec::<f32>(), &floats(&bmm["a_grad"]));
        assert_close_f32(&b.grad().unwrap().to_vec::<f32>(), &floats(&bmm["b_grad"]));
    }

    fn matmul_int64_uses_integer_products() {
        let case = &fixture("matmul")["int64"];
        let a = Tensor::from_vec(ints(&case["a"]), &[2, 3]).unwrap();
        let b = Tensor::from_vec(ints(&case["b"]), &[3, 2]).unwrap();
        let out = a.matmul(&b).unwrap();
        assert_eq!((out.dtype().name(), out.to_vec::<i64>()), (case["dtype"].as_str().unwrap(), ints(&case["out"])));
        let rows = (a.select(0, 0).unwrap(), a.select(0, 1).unwrap());
        assert_eq!(rows.0.matmul(&rows.1).unwrap().to_vec::<i64>(), ints(&case["dot"]));
    }

    fn matmul_error_messages() {
        let errors = fixture("matmul_errors");
        let o = |s: &[usize]| Tensor::ones(s);
        let o64 = |s: &[usize]| Tensor::full_dtype(s, 1.0, DType::Float64);
        let ol = |s: &[usize]| Tensor::full_dtype(s, 1.0, DType::Int64);
        let ob = |s: &[usize]| Tensor::full_dtype(s, 1.0, DType::Bool);
        let check = |name: &str, r: Result<Tensor>| assert_error(&errors, name, r.unwrap_err());
        check("mm_shapes", o(&[2, 3]).mm(&o(&[4, 5])));
        check("mm_not_matrix_1", o(&[3]).mm(&o(&[3, 3])));
        check("mm_not_matrix_2", o(&[3, 3]).mm(&o(&[3])));
        check("mm_dtype", o(&[2, 3]).mm(&o64(&[3, 4])));
        check("bmm_batch", o(&[2, 2, 3]).bmm(&o(&[3, 3, 5])));
        check("bmm_inner", o(&[2, 2, 3]).bmm(&o(&[2, 4, 5])));
        check("bmm_not_3d_1", o(&[3, 3]).bmm(&o(&[3, 3, 3])));
        check("bmm_not_3d_2", o(&[3, 3, 3]).bmm(&o(&[3, 3])));
        check("bmm_dtype", o(&[2, 2, 3]).bmm(&o64(&[2, 3, 4])));
        check("matmul_0d", o(&[]).matmul(&o(&[2, 3])));
        check("matmul_0d_rhs", o(&[2, 3]).matmul(&o(&[])));
        check("dot_sizes", o(&[3]).matmul(&o(&[4])));
        check("dot_not_1d", o(&[3, 1]).dot(&o(&[3])));
        check("dot_dtype", o(&[3]).matmul(&o64(&[3])));
        check("mv_sizes", o(&[2, 3]).matmul(&o(&[4])));
        check("vec_mat_sizes", o(&[3]).matmul(&o(&[4, 5])));
        check("mm_sizes_matmul", o(&[2, 3]).matmul(&o(&[4, 5])));
        check("fold_sizes", o(&[5, 2, 3]).matmul(&o(&[4, 5])));
        check("fold_mv_sizes", o(&[5, 2, 3]).matmul(&o(&[4])));
        check("batch_sizes", o(&[2, 2, 3]).matmul(&o(&[3, 5, 5])));
        check("batch_broadcast", o(&[2, 2, 3]).matmul(&o(&[3, 3, 5])));
        check("matmul_dtype", o(&[2, 3]).matmul(&ol(&[3, 4])));
        check("matmul_bool", ob(&[2, 3]).matmul(&ob(&[3, 4])));
        check("bmm_bool", ob(&[1, 2, 2]).bmm(&ob(&[1, 2, 2])));
        check("dot_bool", ob(&[2]).dot(&ob(&[2])));
        check("mv_bool", ob(&[2, 2]).mv(&ob(&[2])));
        check("mv_not_matrix", o(&[3]).mv(&o(&[3])));
        check("mv_vec_2d", o(&[3, 3]).mv(&o(&[3, 1])));
        check("mv_dtype", o(&[3, 3]).mv(&o64(&[3])));
        check("batch_dtype", o(&[2, 2, 3]).matmul(&o64(&[2, 3, 4])));
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn matmul_gradcheck_every_path() {
        let shapes: &[(&[usize], &[usize])] = &[
            (&[3], &[3]),
            (&[2, 3], &[3]),
            (&[3], &[3, 4]),
            (&[2, 3], &[3, 4]),
            (&[5, 2, 3], &[3]),
            (&[3], &[5, 3, 4]),
            (&[5, 2, 3], &[3, 4]),
            (&[2, 3], &[5, 3, 4]),
            (&[5, 2, 3], &[5, 3, 4]),
            (&[1, 2, 3], &[5, 3, 4]),
            (&[2, 1, 2, 3], &[3, 3, 4]),
            (&[2, 2, 3], &[3, 2]),
            (&[0, 2, 3], &[3, 4]),
        ];
        for (i, (sa, sb)) in shapes.iter().enumerate() {
            let (a, b) = (leaf(sa, i as u64), leaf(sb, 100 + i as u64));
            assert_gradcheck(|t| t[0].matmul(&t[1]), &[a.clone(), b.clone()]);
            // Only one side needing a gradient takes other paths in PyTorch.
            assert_gradcheck(|t| t[0].matmul(&b.detach()), std::slice::from_ref(&a));
            assert_gradcheck(|t| a.detach().matmul(&t[0]), std::slice::from_ref(&b));
        }
        // Transposed and broadcast (stride 0) operands.
        let (a, b) = (leaf(&[3, 2], 20), leaf(&[4, 3], 21));
        assert_gradcheck(|t| t[0].t()?.mm(&t[1].t()?), &[a.clone(), b.clone()]);
        let (a, b) = (leaf(&[2, 4, 3], 22), leaf(&[1, 4, 5], 23));
        assert_gradcheck(|t| t[0].transpose(1, 2)?.bmm(&t[1].expand(&[2, 4, 5])?), &[a, b]);
        let (a, b) = (leaf(&[4, 3, 2], 24), leaf(&[4, 5], 25));
        assert_gradcheck(|t| t[0].transpose(0, 1)?.transpose(1, 2)?.matmul(&t[1].t()?.t()?), &[a, b]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn matmul_double_backward() {
        let case = fixture("mm_double_backward");
        let a = leaf64(&floats(&case["a"]), &[2, 3]);
        let b = leaf64(&floats(&case["b"]), &[3, 4]);
        let y = a.mm(&b).unwrap();
        y.mul(&y).unwrap().sum().unwrap().backward_with(None, None, true).unwrap();
        let (ga, gb) = (a.grad().unwrap(), b.grad().unwrap());
        assert_close_f64(&ga.to_vec::<f64>(), &floats(&case["first_a"]));
        assert_close_f64(&gb.to_vec::<f64>(), &floats(&case["first_b"]));
        a.set_grad(None);
        b.set_grad(None);
        ga.mul(&ga).unwrap().sum().unwrap().add(&gb.mul(&gb).unwrap().sum().unwrap()).unwrap().backward().unwrap();
        assert_close_f64(&a.grad().unwrap().to_vec::<f64>(), &floats(&case["second_a"]));
        assert_close_f64(&b.grad().unwrap().to_vec::<f64>(), &floats(&case["second_b"]));
        let square = |t: &[Tensor]| {
            let y = t[0].matmul(&t[1])?;
            y.mul(&y)?.sum()
        };
        for (sa, sb) in [(&[2, 3][..], &[3, 4][..]), (&[3][..], &[3][..]), (&[2, 3], &[3]), (&[2, 2, 3], &[2, 3, 4]), (&[2, 2, 3], &[3, 2])] {
            let inputs = [leaf(sa, 30), leaf(sb, 31)];
            assert_gradcheck(first_grad(0, square), &inputs);
            assert_gradcheck(first_grad(1, square), &inputs);
        }
    }
}
