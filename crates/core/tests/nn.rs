//! Neural-network functions against PyTorch: values, node names, gradients,
//! saved-for-backward bytes and error messages recorded by
//! `tests/fixtures/record_nn.py`, and float64 gradchecks (first and second
//! order) of every op over strides, padding, dilation, groups and
//! non-contiguous inputs. Each test runs natively and, compiled to wasm, in
//! headless Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradgradcheck};
use gradscope_core::ops::nn::Reduction;
use gradscope_core::ops::nn_conv::{Conv2dOptions, Window2d};
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::ops::nn_norm::BatchNormOptions;
use gradscope_core::ops::nn_pool::Pool2dOptions;
use gradscope_core::ops::random::manual_seed;
use gradscope_core::{DType, Error, Result, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use common::{assert_close_f32, assert_close_f64, assert_gradcheck, floats, leaf64, shape};

const FIXTURE: &str = include_str!("../../../tests/fixtures/nn.json");

fn fixture(name: &str) -> Value {
    common::case(FIXTURE, name)
}

fn pair(v: &Value, default: i64) -> [i64; 2] {
    match v {
        Value::Array(a) => [a[0].as_i64().unwrap(), a[1].as_i64().unwrap()],
        Value::Number(n) => [n.as_i64().unwrap(); 2],
        _ => [default; 2],
    }
}

fn reduction(args: &Value) -> Reduction {
    Reduction::parse(args["reduction"].as_str().unwrap_or("mean")).unwrap()
}

/// A fixture input as a leaf (transposed back when recorded transposed).
fn input(v: &Value) -> (String, Tensor, Tensor) {
    let name = v["name"].as_str().unwrap().to_string();
    let shape = shape(&v["shape"]);
    let values = floats(&v["values"]);
    let leaf = match v["dtype"].as_str().unwrap() {
        "float32" => Tensor::from_vec(values.iter().map(|&f| f as f32).collect(), &shape),
        "float64" => Tensor::from_vec(values, &shape),
        "int64" => Tensor::from_vec(values.iter().map(|&f| f as i64).collect(), &shape),
        other => panic!("dtype {other}"),
    }
    .unwrap()
    .requires_grad_(v["requires_grad"].as_bool().unwrap());
    let used = if v["transposed"].as_bool().unwrap() {
        leaf.transpose(1, 2).unwrap()
    } else {
        leaf.clone()
    };
    (name, leaf, used)
}

/// Runs a fixture's function as `crates/core` spells it.
fn call(op: &str, a: &Value, t: &[(String, Tensor)]) -> Result<Tensor> {
    let get = |k: &str| t.iter().find(|(n, _)| n == k).map(|(_, t)| t.clone());
    let x = get("x").unwrap();
    let nll = || NllLossOptions {
        weight: get("weight"),
        ignore_index: a["ignore_index"].as_i64().unwrap_or(-100),
        reduction: reduction(a),
        label_smoothing: a["label_smoothing"].as_f64().unwrap_or(0.0),
    };
    let pool = || Pool2dOptions {
        kernel: pair(&a["kernel"], 1),
        stride: a.get("stride").map(|s| pair(s, 1)),
        padding: pair(&a["padding"], 0),
        dilation: pair(&a["dilation"], 1),
        ceil_mode: a["ceil_mode"].as_bool().unwrap_or(false),
        count_include_pad: a["count_include_pad"].as_bool().unwrap_or(true),
        divisor_override: a["divisor_override"].as_i64(),
    };
    let window = || Window2d {
        kernel: pair(&a["kernel"], 1).map(|v| v as usize),
        stride: pair(&a["stride"], 1).map(|v| v as usize),
        padding: pair(&a["padding"], 0).map(|v| v as usize),
        dilation: pair(&a["dilation"], 1).map(|v| v as usize),
    };
    match op {
        "linear" => x.linear(&get("w").unwrap(), get("b").as_ref()),
        "mse_loss" => x.mse_loss(&get("target").unwrap(), reduction(a)),
        "nll_loss" => x.nll_loss(&get("target").unwrap(), &nll()),
        "cross_entropy" => x.cross_entropy(&get("target").unwrap(), &nll()),
        "binary_cross_entropy" => x.binary_cross_entropy(
            &get("target").unwrap(),
            get("weight").as_ref(),
            reduction(a),
        ),
        "binary_cross_entropy_with_logits" => x.binary_cross_entropy_with_logits(
            &get("target").unwrap(),
            get("weight").as_ref(),
            get("pos_weight").as_ref(),
            reduction(a),
        ),
        "dropout" => {
            manual_seed(a["seed"].as_u64().unwrap());
            x.dropout(a["p"].as_f64().unwrap(), a["training"].as_bool().unwrap())
        }
        "layer_norm" => {
            let normalized = shape(&a["normalized_shape"]);
            let eps = a["eps"].as_f64().unwrap_or(1e-5);
            x.layer_norm(
                &normalized,
                get("weight").as_ref(),
                get("bias").as_ref(),
                eps,
            )
        }
        "batch_norm" => x.batch_norm(&BatchNormOptions {
            running_mean: get("running_mean"),
            running_var: get("running_var"),
            weight: get("weight"),
            bias: get("bias"),
            training: a["training"].as_bool().unwrap(),
            momentum: a["momentum"].as_f64().unwrap_or(0.1),
            eps: a["eps"].as_f64().unwrap_or(1e-5),
        }),
        "conv2d" => x.conv2d(
            &get("w").unwrap(),
            get("b").as_ref(),
            &Conv2dOptions {
                stride: pair(&a["stride"], 1),
                padding: pair(&a["padding"], 0),
                dilation: pair(&a["dilation"], 1),
                groups: a["groups"].as_i64().unwrap_or(1),
            },
        ),
        "max_pool2d" => x.max_pool2d(&pool()),
        "avg_pool2d" => x.avg_pool2d(&pool()),
        "unfold" => x.im2col(&window()),
        "fold" => {
            let out = shape(&a["output_size"]);
            x.col2im([out[0], out[1]], &window())
        }
        other => panic!("no op {other}"),
    }
}

type Graph = Vec<(String, Vec<Option<String>>)>;

/// Every node reachable from `root` with its `next_functions` names, sorted
/// (PyTorch orders `AccumulateGrad` nodes by discovery, so compare as sets).
fn graph_of(root: &Tensor) -> Graph {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![root.grad_fn().expect("root has a grad_fn")];
    let mut nodes = vec![];
    while let Some(node) = stack.pop() {
        if seen.insert(node.id()) {
            stack.extend(node.next_functions().iter().flatten().cloned());
            let next = node.next_functions().iter();
            nodes.push((
                node.name().to_string(),
                next.map(|m| m.as_ref().map(|m| m.name().to_string()))
                    .collect(),
            ));
        }
    }
    nodes.sort();
    nodes
}

fn expected_graph(v: &Value) -> Graph {
    let mut nodes: Graph = v
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let next = n["next"].as_array().unwrap().iter();
            (
                n["name"].as_str().unwrap().to_string(),
                next.map(|m| m.as_str().map(String::from)).collect(),
            )
        })
        .collect();
    nodes.sort();
    nodes
}

/// `(arange(n) + 1) / n`, PyTorch's grad_output in the fixture.
fn weights(shape: &[usize], dtype: DType) -> Tensor {
    let n: usize = shape.iter().product();
    let values: Vec<f64> = (0..n).map(|k| (k + 1) as f64 / n as f64).collect();
    Tensor::from_vec(values, shape)
        .unwrap()
        .to_dtype(dtype)
        .unwrap()
}

fn assert_values(actual: &Tensor, expected: &Value, what: &str) {
    let expected = floats(expected);
    match actual.dtype() {
        DType::Float64 => assert_close_f64(&actual.to_vec::<f64>(), &expected),
        _ => {
            let actual = actual.to_vec::<f32>();
            assert_eq!(actual.len(), expected.len(), "{what}");
            for (a, e) in actual.iter().zip(&expected) {
                let ok = (a.is_nan() && e.is_nan())
                    || (f64::from(*a) - e).abs() <= 2e-5 + 2e-5 * e.abs();
                assert!(ok, "{what}: {actual:?} vs {expected:?}");
            }
        }
    }
}

/// Bytes PyTorch saves that gradscope does not: training `batch_norm`'s
/// running statistics (see `Tensor::batch_norm`).
fn unsaved_bytes(case: &Value) -> u64 {
    let training_stats = case["op"] == "batch_norm" && case["args"]["training"] == true;
    case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| training_stats && i["name"].as_str().unwrap().starts_with("running_"))
        .map(|i| 4 * floats(&i["values"]).len() as u64)
        .sum()
}

fn check_case(name: &str) {
    let case = fixture(name);
    let op = case["op"].as_str().unwrap();
    let ins: Vec<(String, Tensor, Tensor)> = case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(input)
        .collect();
    let named: Vec<(String, Tensor)> = ins.iter().map(|(n, _, u)| (n.clone(), u.clone())).collect();
    let before = common::saved_bytes();
    let out = call(op, &case["args"], &named).unwrap_or_else(|e| panic!("{name}: {e}"));
    let saved = common::saved_bytes() - before;
    assert_eq!(out.shape(), shape(&case["shape"]).as_slice(), "{name}");
    assert_eq!(
        out.dtype().to_string(),
        format!("torch.{}", case["dtype"].as_str().unwrap()),
        "{name}"
    );
    assert_values(&out, &case["out"], name);
    let expected_saved = case["saved_bytes"].as_u64().unwrap() - unsaved_bytes(&case);
    assert_eq!(saved, expected_saved, "{name}: saved bytes");
    if let Some(running) = case.get("running") {
        for (k, v) in running.as_object().unwrap() {
            let t = named.iter().find(|(n, _)| n == k).unwrap();
            assert_values(&t.1, v, &format!("{name}: {k}"));
        }
    }
    match case.get("graph") {
        Some(graph) => {
            assert_eq!(graph_of(&out), expected_graph(graph), "{name}");
            out.backward_with(Some(&weights(out.shape(), out.dtype())), None, false)
                .unwrap();
            for (k, leaf, _) in &ins {
                match case["grads"].get(k) {
                    Some(g) => {
                        assert_values(&leaf.grad().unwrap(), g, &format!("{name}: grad of {k}"))
                    }
                    None => assert!(leaf.grad().is_none(), "{name}: {k} got a gradient"),
                }
            }
            assert_eq!(
                common::saved_bytes(),
                before,
                "{name}: saved bytes released"
            );
        }
        None => assert!(out.grad_fn().is_none(), "{name}"),
    }
}

fn value_cases() -> Vec<String> {
    let all: Value = serde_json::from_str(FIXTURE).unwrap();
    all["cases"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.get("op").is_some())
        .map(|(k, _)| k.clone())
        .collect()
}

fn cases_of(prefixes: &[&str]) {
    let names: Vec<String> = value_cases()
        .into_iter()
        .filter(|n| prefixes.iter().any(|p| n.starts_with(p)))
        .collect();
    assert!(!names.is_empty(), "no cases for {prefixes:?}");
    for name in names {
        check_case(&name);
    }
}

test_device! {
    fn linear_matches_pytorch() {
        cases_of(&["linear_"]);
    }

    fn losses_match_pytorch() {
        cases_of(&["mse_", "nll_", "cross_entropy_", "bce_"]);
    }

    fn dropout_matches_pytorch() {
        cases_of(&["dropout_"]);
    }

    fn norms_match_pytorch() {
        cases_of(&["layer_norm_", "batch_norm_"]);
    }

    fn conv_and_pool_match_pytorch() {
        cases_of(&["conv2d_", "max_pool2d_", "avg_pool2d_", "unfold_", "fold_"]);
    }

    fn fixture_cases_are_all_checked() {
        let covered = ["linear_", "mse_", "nll_", "cross_entropy_", "bce_", "dropout_", "layer_norm_",
            "batch_norm_", "conv2d_", "max_pool2d_", "avg_pool2d_", "unfold_", "fold_"];
        for name in value_cases() {
            assert!(covered.iter().any(|p| name.starts_with(p)), "{name} is not checked");
        }
    }

    fn mlp_saves_what_pytorch_saves() {
        let case = fixture("mlp");
        let f = |n: usize, m: usize, f: &dyn Fn(usize) -> f32| {
            Tensor::from_vec((0..n * m).map(f).collect(), &[n, m]).unwrap()
        };
        let x = f(8, 20, &|k| ((k % 7) as f32 - 3.0) / 4.0);
        let w1 = f(16, 20, &|k| ((k % 11) as f32 - 5.0) / 20.0).requires_grad_(true);
        let b1 = Tensor::from_vec((0..16).map(|k| k as f32 / 16.0 - 0.5).collect(), &[16]).unwrap().requires_grad_(true);
        let w2 = f(4, 16, &|k| ((k % 5) as f32 - 2.0) / 10.0).requires_grad_(true);
        let b2 = Tensor::from_vec((0..4).map(|k| k as f32 / 8.0).collect(), &[4]).unwrap().requires_grad_(true);
        let y = Tensor::from_vec((0..8).map(|k| k % 4).collect::<Vec<i64>>(), &[8]).unwrap();
        let before = common::saved_bytes();
        let hidden = x.linear(&w1, Some(&b1)).unwrap().relu().unwrap();
        let loss = hidden.linear(&w2, Some(&b2)).unwrap().cross_entropy(&y, &NllLossOptions::default()).unwrap();
        assert_eq!(common::saved_bytes() - before, case["saved_bytes"].as_u64().unwrap());
        assert_eq!(graph_of(&loss), expected_graph(&case["graph"]));
        assert_close_f32(&[loss.item().unwrap() as f32], &[case["loss"].as_f64().unwrap()]);
        loss.backward().unwrap();
        assert_eq!(common::saved_bytes(), before);
        assert_close_f32(&w1.grad().unwrap().to_vec::<f32>(), &floats(&case["w1_grad"]));
        assert_close_f32(&b2.grad().unwrap().to_vec::<f32>(), &floats(&case["b2_grad"]));
    }

    fn dropout_mask_is_pytorch_bernoulli() {
        let case = fixture("bernoulli");
        manual_seed(case["seed"].as_u64().unwrap());
        let keep = case["p"].as_f64().unwrap();
        let y = Tensor::ones(&[40]).dropout(1.0 - keep, true).unwrap();
        let mask: Vec<f64> = y.to_vec::<f32>().iter().map(|&v| if v != 0.0 { 1.0 } else { 0.0 }).collect();
        assert_eq!(mask, floats(&case["mask"]));
        // One draw per element, so the generator is where PyTorch's is.
        assert_close_f32(&Tensor::rand(&[2], DType::Float32).unwrap().to_vec::<f32>(), &floats(&case["next_rand"]));
    }

    fn dropout_outside_training_returns_the_input() {
        let x = Tensor::ones(&[3]).requires_grad_(true);
        assert_eq!(x.dropout(0.5, false).unwrap().id(), x.id());
        assert_eq!(x.dropout(0.0, true).unwrap().id(), x.id());
    }

    fn batch_norm_running_stats_after_two_steps() {
        let case = fixture("running_stats");
        let logits = fixture("batch_norm_train_2d")["inputs"][0].clone();
        let (_, x, _) = input(&logits);
        let x = x.detach();
        let options = BatchNormOptions {
            running_mean: Some(Tensor::zeros(&[5])),
            running_var: Some(Tensor::ones(&[5])),
            training: true,
            ..Default::default()
        };
        x.batch_norm(&options).unwrap();
        x.mul(&Tensor::scalar(2.0)).unwrap().add(&Tensor::scalar(1.0)).unwrap().batch_norm(&options).unwrap();
        assert_values(options.running_mean.as_ref().unwrap(), &case["mean"], "running mean");
        assert_values(options.running_var.as_ref().unwrap(), &case["var"], "running var");
    }

    #[cpu_only = "float64 throughout, which the GPU refuses as PyTorch's MPS does"]
    fn batch_norm_two_training_steps_then_backward() {
        // Each step updates the running statistics in place; the first
        // step's graph must still run backward, as in PyTorch.
        let x = leaf64(&[1.0, 2.0, 4.0, 3.0, 0.5, -1.0], &[3, 2]);
        let options = BatchNormOptions {
            running_mean: Some(Tensor::zeros(&[2]).to_dtype(DType::Float64).unwrap()),
            running_var: Some(Tensor::ones(&[2]).to_dtype(DType::Float64).unwrap()),
            training: true,
            ..Default::default()
        };
        let first = x.batch_norm(&options).unwrap();
        let second = x.batch_norm(&options).unwrap();
        first.sum().unwrap().add(&second.sum().unwrap()).unwrap().backward().unwrap();
        assert!(x.grad().is_some());
    }
}

fn errors() -> Value {
    fixture("errors")
}

fn assert_error(name: &str, result: Result<Tensor>) {
    let e = &errors()[name];
    let err: Error = match result {
        Ok(_) => panic!("{name}: expected an error"),
        Err(err) => err,
    };
    assert_eq!(err.to_string(), e["message"].as_str().unwrap(), "{name}");
    assert_eq!(err.python_type(), e["type"].as_str().unwrap(), "{name}");
}

fn ints(v: &[i64]) -> Tensor {
    Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
}

test_device! {
    #[cpu_only = "its dtype errors mix in float64 tensors, which the GPU refuses as PyTorch's MPS does"]
    fn nn_error_messages() {
        let x35 = Tensor::zeros(&[3, 5]);
        let t3 = ints(&[1, 0, 4]);
        let nll = NllLossOptions::default;
        assert_error("nll_target_out_of_bounds", x35.nll_loss(&ints(&[1, 5, 0]), &nll()));
        assert_error("nll_target_negative", x35.nll_loss(&ints(&[1, -1, 0]), &nll()));
        assert_error("nll_batch_mismatch", x35.nll_loss(&ints(&[1, 0]), &nll()));
        assert_error("nll_float_target", x35.nll_loss(&Tensor::zeros(&[3]), &nll()));
        assert_error("nll_zero_dim_input", Tensor::scalar(1.0).to_dtype(DType::Float32).unwrap().nll_loss(&ints(&[0]).reshape(&[]).unwrap(), &nll()));
        assert_error("nll_target_2d", x35.nll_loss(&Tensor::from_vec(vec![0i64; 3], &[3, 1]).unwrap(), &nll()));
        let weighted = |w: Tensor| NllLossOptions { weight: Some(w), ..nll() };
        assert_error("nll_weight_size", x35.nll_loss(&t3, &weighted(Tensor::ones(&[4]))));
        assert_error("nll_weight_requires_grad", x35.nll_loss(&t3, &weighted(Tensor::ones(&[5]).requires_grad_(true))));
        assert_error("nll_reduction", Reduction::parse("foo").map(|_| x35.clone()));
        let long = |shape: &[usize], v: i64| Tensor::full_dtype(shape, v as f64, DType::Int64);
        let image = Tensor::zeros(&[2, 3, 4, 5]);
        assert_error("nll_spatial_target_rank", image.nll_loss(&long(&[2, 4], 0), &nll()));
        assert_error("nll_spatial_size", image.nll_loss(&long(&[2, 4, 4], 0), &nll()));
        assert_error("nll_nd_target_size", Tensor::zeros(&[2, 3, 4]).nll_loss(&long(&[2, 5], 0), &nll()));
        assert_error("nll_spatial_out_of_bounds", image.nll_loss(&long(&[2, 4, 5], 3), &nll()));
        assert_error("cross_entropy_out_of_bounds", x35.cross_entropy(&ints(&[1, 5, 0]), &nll()));
        let smoothing = NllLossOptions { label_smoothing: 1.5, ..nll() };
        assert_error("cross_entropy_label_smoothing", x35.cross_entropy(&t3, &smoothing));
        assert_error("mse_shape", x35.mse_loss(&Tensor::zeros(&[2, 5]), Reduction::Mean));
        assert_error("bce_target_size", Tensor::zeros(&[3, 5]).binary_cross_entropy(&Tensor::zeros(&[5]), None, Reduction::Mean));
        assert_error("bce_input_range", Tensor::full(&[1], 1.5).binary_cross_entropy(&Tensor::ones(&[1]), None, Reduction::Mean));
        assert_error("bce_logits_target_size", x35.binary_cross_entropy_with_logits(&Tensor::zeros(&[5]), None, None, Reduction::Mean));
        assert_error("dropout_probability", x35.dropout(1.5, true));
        assert_error("layer_norm_shape", x35.layer_norm(&[4], None, None, 1e-5));
        assert_error("layer_norm_weight", x35.layer_norm(&[5], Some(&Tensor::ones(&[4])), None, 1e-5));
        assert_error("layer_norm_bias", x35.layer_norm(&[5], None, Some(&Tensor::ones(&[4])), 1e-5));
        assert_error("layer_norm_empty", x35.layer_norm(&[], None, None, 1e-5));
        let bn = |x: &Tensor, rm: usize, rv: usize, w: Option<usize>, b: Option<usize>, training: bool| {
            x.batch_norm(&BatchNormOptions {
                running_mean: (rm > 0).then(|| Tensor::zeros(&[rm])),
                running_var: (rv > 0).then(|| Tensor::ones(&[rv])),
                weight: w.map(|n| Tensor::ones(&[n])),
                bias: b.map(|n| Tensor::ones(&[n])),
                training,
                ..Default::default()
            })
        };
        assert_error("batch_norm_one_value", bn(&Tensor::zeros(&[1, 5]), 5, 5, None, None, true));
        assert_error("batch_norm_running_mean", bn(&x35, 4, 5, None, None, true));
        assert_error("batch_norm_running_var", bn(&x35, 5, 4, None, None, true));
        assert_error("batch_norm_weight", bn(&x35, 5, 5, Some(4), None, true));
        assert_error("batch_norm_bias", bn(&x35, 5, 5, None, Some(4), true));
        assert_error("batch_norm_eval_no_stats", bn(&x35, 0, 0, None, None, false));
        let x = Tensor::zeros(&[1, 2, 5, 5]);
        let w = Tensor::zeros(&[4, 2, 3, 3]);
        let conv = |x: &Tensor, w: &Tensor, b: Option<&Tensor>, f: &dyn Fn(&mut Conv2dOptions)| {
            let mut o = Conv2dOptions::default();
            f(&mut o);
            x.conv2d(w, b, &o)
        };
        assert_error("conv2d_channels", conv(&x, &Tensor::zeros(&[4, 3, 3, 3]), None, &|_| {}));
        assert_error("conv2d_groups_weight", conv(&x, &Tensor::zeros(&[3, 1, 3, 3]), None, &|o| o.groups = 2));
        assert_error("conv2d_groups_channels", conv(&Tensor::zeros(&[1, 3, 5, 5]), &Tensor::zeros(&[4, 1, 3, 3]), None, &|o| o.groups = 2));
        assert_error("conv2d_kernel_too_big", conv(&x, &Tensor::zeros(&[4, 2, 7, 7]), None, &|_| {}));
        assert_error("conv2d_input_rank", conv(&Tensor::zeros(&[5, 5]), &w, None, &|_| {}));
        assert_error("conv2d_bias", conv(&x, &w, Some(&Tensor::zeros(&[3])), &|_| {}));
        assert_error("conv2d_stride", conv(&x, &w, None, &|o| o.stride = [0, 0]));
        assert_error("conv2d_padding", conv(&x, &w, None, &|o| o.padding = [-1, -1]));
        assert_error("conv2d_dilation", conv(&x, &w, None, &|o| o.dilation = [0, 0]));
        assert_error("conv2d_groups", conv(&x, &w, None, &|o| o.groups = 0));
        assert_error("conv2d_dtype", conv(&x, &w.to_dtype(DType::Float64).unwrap(), None, &|_| {}));
        let pool = |k: i64, f: &dyn Fn(&mut Pool2dOptions)| {
            let mut o = Pool2dOptions::new(k);
            f(&mut o);
            o
        };
        assert_error("max_pool2d_too_small", x.max_pool2d(&pool(7, &|_| {})));
        assert_error("max_pool2d_padding", x.max_pool2d(&pool(2, &|o| o.padding = [2, 2])));
        assert_error("max_pool2d_stride", x.max_pool2d(&pool(2, &|o| o.stride = Some([0, 0]))));
        assert_error("max_pool2d_dilation", x.max_pool2d(&pool(2, &|o| o.dilation = [0, 0])));
        assert_error("max_pool2d_rank", Tensor::zeros(&[5, 5]).max_pool2d(&pool(2, &|_| {})));
        assert_error("avg_pool2d_padding", x.avg_pool2d(&pool(2, &|o| o.padding = [2, 2])));
        assert_error("avg_pool2d_too_small", x.avg_pool2d(&pool(7, &|_| {})));
        assert_error("linear_shapes", x35.linear(&Tensor::zeros(&[4, 4]), None));
        assert_error("linear_bias", x35.linear(&Tensor::zeros(&[4, 5]), Some(&Tensor::zeros(&[3]))));
        assert_error("linear_zero_dim", Tensor::zeros(&[]).linear(&Tensor::zeros(&[4, 5]), None));
        assert_error("linear_dtype", x35.linear(&Tensor::zeros(&[4, 5]).to_dtype(DType::Float64).unwrap(), None));
        assert_error("linear_weight_3d", x35.linear(&Tensor::zeros(&[2, 4, 5]), None));
    }
}

/// Distinct float64 values (no ties) for gradcheck, in `[lo, hi)`.
fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    (0..n)
        .map(|k| {
            let h = (k as u64 + 1)
                .wrapping_mul(2654435761)
                .wrapping_add(seed * 40503)
                % 997;
            lo + (hi - lo) * (h as f64 + 0.5) / 997.0
        })
        .collect()
}

fn leaf(shape: &[usize], seed: u64) -> Tensor {
    leaf64(&values(shape.iter().product(), seed, -2.0, 2.0), shape)
}

fn constant(shape: &[usize], seed: u64, lo: f64, hi: f64) -> Tensor {
    Tensor::from_vec(values(shape.iter().product(), seed, lo, hi), shape).unwrap()
}

fn assert_gradgradcheck(f: impl Fn(&[Tensor]) -> Result<Tensor>, inputs: &[Tensor]) {
    if let Err(err) = gradgradcheck(f, inputs, GradcheckOptions::default()) {
        panic!("{err}");
    }
}

fn check_both(f: impl Fn(&[Tensor]) -> Result<Tensor> + Copy, inputs: &[Tensor]) {
    assert_gradcheck(f, inputs);
    assert_gradgradcheck(f, inputs);
}

test_device! {
    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn linear_gradcheck() {
        let (x, w, b) = (leaf(&[3, 4], 1), leaf(&[5, 4], 2), leaf(&[5], 3));
        check_both(|t| t[0].linear(&t[1], Some(&t[2])), &[x.clone(), w.clone(), b.clone()]);
        check_both(|t| t[0].linear(&t[1], None), &[x, w.clone()]);
        let x3 = leaf(&[2, 4, 3], 4);
        check_both(|t| t[0].transpose(1, 2)?.linear(&t[1], Some(&t[2])), &[x3, w.clone(), b.clone()]);
        check_both(|t| t[0].linear(&t[1], Some(&t[2])), &[leaf(&[4], 5), w, b]);
        // A broadcast bias in addmm.
        check_both(|t| t[0].addmm(&t[1], &t[2]), &[leaf(&[1, 2], 6), leaf(&[3, 4], 7), leaf(&[4, 2], 8)]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn loss_gradcheck() {
        let (x, t) = (leaf(&[3, 4], 1), leaf(&[3, 4], 2));
        for r in [Reduction::Mean, Reduction::Sum, Reduction::None] {
            check_both(|v| v[0].mse_loss(&v[1], r), &[x.clone(), t.clone()]);
        }
        check_both(|v| v[0].mse_loss(&v[1], Reduction::Mean), &[x.clone(), leaf(&[4], 3)]);
        let target = ints(&[1, 0, 3]);
        let weight = constant(&[4], 4, 0.5, 2.0);
        for (r, w, ignore) in [(Reduction::Mean, None, -100), (Reduction::Sum, Some(weight.clone()), 0), (Reduction::None, Some(weight.clone()), 3), (Reduction::Mean, Some(weight), 1)] {
            let options = NllLossOptions { weight: w, ignore_index: ignore, reduction: r, label_smoothing: 0.0 };
            check_both(|v| v[0].nll_loss(&target, &options), std::slice::from_ref(&x));
            check_both(|v| v[0].cross_entropy(&target, &options), std::slice::from_ref(&x));
            let smoothed = NllLossOptions { label_smoothing: 0.2, ..options };
            check_both(|v| v[0].cross_entropy(&target, &smoothed), std::slice::from_ref(&x));
        }
        check_both(|v| v[0].cross_entropy(&ints(&[2]).reshape(&[]).unwrap(), &NllLossOptions::default()), &[leaf(&[4], 5)]);
        check_both(|v| v[0].transpose(0, 1)?.cross_entropy(&target, &NllLossOptions::default()), &[leaf(&[4, 3], 6)]);
        // Spatial targets: nll_loss2d, and the flattened path for 3-D input.
        let spatial = Tensor::from_vec(vec![0i64, 2, 1, 1, 2, 0, 0, 1], &[2, 2, 2]).unwrap();
        let smoothed = NllLossOptions { label_smoothing: 0.1, ignore_index: 2, ..NllLossOptions::default() };
        check_both(|v| v[0].cross_entropy(&spatial, &smoothed), &[leaf(&[2, 3, 2, 2], 10)]);
        let none = NllLossOptions { reduction: Reduction::None, ..NllLossOptions::default() };
        check_both(|v| v[0].nll_loss(&spatial.reshape(&[2, 4]).unwrap(), &none), &[leaf(&[2, 3, 4], 11)]);
        let (p, q) = (leaf64(&values(12, 7, 0.1, 0.9), &[3, 4]), leaf64(&values(12, 8, 0.0, 1.0), &[3, 4]));
        let w = constant(&[4], 9, 0.2, 1.5);
        for r in [Reduction::Mean, Reduction::Sum, Reduction::None] {
            check_both(|v| v[0].binary_cross_entropy(&v[1], None, r), &[p.clone(), q.clone()]);
            check_both(|v| v[0].binary_cross_entropy(&v[1], Some(&w), r), &[p.clone(), q.clone()]);
            check_both(|v| v[0].binary_cross_entropy_with_logits(&v[1], None, None, r), &[x.clone(), q.clone()]);
            check_both(|v| v[0].binary_cross_entropy_with_logits(&v[1], Some(&w), Some(&w), r), &[x.clone(), q.clone()]);
        }
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn dropout_gradcheck() {
        let x = leaf(&[4, 5], 1);
        let f = |t: &[Tensor]| {
            manual_seed(11);
            t[0].dropout(0.4, true)
        };
        check_both(f, &[x]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn layer_norm_gradcheck() {
        let x = leaf(&[2, 3, 4], 1);
        let (w, b) = (leaf(&[4], 2), leaf(&[4], 3));
        check_both(|t| t[0].layer_norm(&[4], Some(&t[1]), Some(&t[2]), 1e-5), &[x.clone(), w.clone(), b.clone()]);
        check_both(|t| t[0].layer_norm(&[3, 4], None, None, 1e-3), std::slice::from_ref(&x));
        check_both(|t| t[0].layer_norm(&[4], Some(&t[1]), None, 1e-5), &[x.clone(), w]);
        check_both(|t| t[0].transpose(0, 2)?.layer_norm(&[2], None, Some(&t[1]), 1e-5), &[x, leaf(&[2], 4)]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn batch_norm_gradcheck_train_and_eval() {
        let x = leaf(&[3, 2, 2, 2], 1);
        let (w, b) = (leaf(&[2], 2), leaf(&[2], 3));
        for training in [true, false] {
            let f = move |t: &[Tensor]| {
                t[0].batch_norm(&BatchNormOptions {
                    running_mean: Some(constant(&[2], 4, -0.5, 0.5)),
                    running_var: Some(constant(&[2], 5, 0.5, 1.5)),
                    weight: Some(t[1].clone()),
                    bias: Some(t[2].clone()),
                    training,
                    ..Default::default()
                })
            };
            check_both(f, &[x.clone(), w.clone(), b.clone()]);
        }
        let plain = |t: &[Tensor]| t[0].transpose(0, 1)?.batch_norm(&BatchNormOptions { training: true, ..Default::default() });
        check_both(plain, &[leaf(&[3, 4], 6)]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn conv2d_gradcheck_stride_padding_dilation_groups() {
        let x = leaf(&[2, 4, 5, 4], 1);
        let cases: [(Conv2dOptions, [usize; 4]); 4] = [
            (Conv2dOptions::default(), [3, 4, 2, 2]),
            (Conv2dOptions { stride: [2, 1], padding: [1, 2], ..Default::default() }, [2, 4, 3, 3]),
            (Conv2dOptions { dilation: [2, 1], padding: [1, 0], groups: 2, ..Default::default() }, [4, 2, 2, 3]),
            (Conv2dOptions { groups: 4, stride: [2, 2], ..Default::default() }, [4, 1, 3, 2]),
        ];
        for (i, (o, ws)) in cases.into_iter().enumerate() {
            let w = leaf(&ws, 10 + i as u64);
            let b = leaf(&[ws[0]], 20 + i as u64);
            check_both(move |t| t[0].conv2d(&t[1], Some(&t[2]), &o), &[x.clone(), w.clone(), b]);
        }
        // Non-contiguous input and weight, unbatched input.
        check_both(|t| t[0].transpose(2, 3)?.conv2d(&t[1].transpose(2, 3)?, None, &Conv2dOptions::default()), &[leaf(&[1, 2, 4, 3], 30), leaf(&[2, 2, 2, 2], 31)]);
        check_both(|t| t[0].conv2d(&t[1], None, &Conv2dOptions { padding: [1, 1], ..Default::default() }), &[leaf(&[2, 3, 3], 32), leaf(&[1, 2, 2, 2], 33)]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn pool_gradcheck_padding_and_ceil_mode() {
        let x = leaf(&[2, 2, 5, 6], 1);
        let options = [
            Pool2dOptions::new(2),
            Pool2dOptions { kernel: [3, 2], stride: Some([2, 2]), padding: [1, 1], ceil_mode: true, ..Pool2dOptions::new(2) },
            Pool2dOptions { stride: Some([1, 1]), dilation: [2, 1], ..Pool2dOptions::new(2) },
        ];
        for o in options {
            check_both(move |t| t[0].max_pool2d(&o), std::slice::from_ref(&x));
        }
        let avg = [
            Pool2dOptions::new(2),
            Pool2dOptions { kernel: [3, 3], stride: Some([2, 2]), padding: [1, 1], ceil_mode: true, ..Pool2dOptions::new(2) },
            Pool2dOptions { kernel: [2, 3], stride: Some([1, 2]), padding: [1, 1], count_include_pad: false, ..Pool2dOptions::new(2) },
            Pool2dOptions { divisor_override: Some(3), ceil_mode: true, ..Pool2dOptions::new(2) },
        ];
        for o in avg {
            check_both(move |t| t[0].avg_pool2d(&o), std::slice::from_ref(&x));
        }
        check_both(|t| t[0].transpose(1, 2)?.max_pool2d(&Pool2dOptions::new(2)), &[leaf(&[3, 4, 5], 2)]);
    }

    #[cpu_only = "gradcheck in float64, which finite differences need and the GPU refuses as PyTorch's MPS does; `gradscope gradcheck --device webgpu` checks the GPU's backward"]
    fn unfold_fold_gradcheck() {
        let win = Window2d { kernel: [2, 3], stride: [2, 1], padding: [1, 1], dilation: [1, 2] };
        check_both(move |t| t[0].im2col(&win), &[leaf(&[2, 2, 4, 5], 1)]);
        let cols = win.kernel[0] * win.kernel[1] * 2;
        check_both(move |t| t[0].col2im([4, 5], &win), &[leaf(&[1, cols, 9], 2)]);
    }
}

test_device! {
    #[cpu_only = "float64 throughout, which the GPU refuses as PyTorch's MPS does"]
    fn nn_size_zero_one_and_expanded_inputs() {
        // An empty batch flows through, with empty gradients.
        let (w, b) = (leaf(&[5, 4], 1), leaf(&[5], 2));
        let empty = Tensor::zeros(&[0, 4]).to_dtype(DType::Float64).unwrap().requires_grad_(true);
        let y = empty.linear(&w, Some(&b)).unwrap();
        assert_eq!(y.shape(), &[0, 5]);
        y.sum().unwrap().backward().unwrap();
        assert_eq!(w.grad().unwrap().to_vec::<f64>(), vec![0.0; 20]);
        let images = Tensor::zeros(&[0, 2, 4, 4]).to_dtype(DType::Float64).unwrap();
        let conv = images.conv2d(&leaf(&[3, 2, 2, 2], 3), None, &Conv2dOptions::default()).unwrap();
        assert_eq!(conv.shape(), &[0, 3, 3, 3]);
        let training = BatchNormOptions { training: true, ..Default::default() };
        assert_eq!(Tensor::zeros(&[0, 3]).batch_norm(&training).unwrap().shape(), &[0, 3]);
        assert_eq!(Tensor::zeros(&[0, 3]).layer_norm(&[3], None, None, 1e-5).unwrap().shape(), &[0, 3]);
        let pooled = Tensor::zeros(&[0, 1, 4, 4]);
        assert_eq!(pooled.max_pool2d(&Pool2dOptions::new(2)).unwrap().shape(), &[0, 1, 2, 2]);
        assert_eq!(pooled.avg_pool2d(&Pool2dOptions::new(2)).unwrap().shape(), &[0, 1, 2, 2]);
        assert_error("batch_norm_1d_no_stats", Tensor::zeros(&[5]).batch_norm(&training));
        // Expanded (stride-0) inputs and size-1 windows.
        let row = leaf(&[1, 4], 4);
        check_both(|t| t[0].expand(&[3, 4])?.layer_norm(&[4], None, None, 1e-5), std::slice::from_ref(&row));
        check_both(|t| t[0].mse_loss(&t[1].expand(&[3, 4])?, Reduction::Sum), &[leaf(&[3, 4], 5), row.clone()]);
        check_both(|t| t[0].expand(&[2, 3, 4])?.reshape(&[2, 1, 3, 4])?.max_pool2d(&Pool2dOptions::new(1)), &[leaf(&[3, 4], 6)]);
        check_both(|t| t[0].conv2d(&t[1], None, &Conv2dOptions::default()), &[leaf(&[1, 1, 1, 1], 7), leaf(&[1, 1, 1, 1], 8)]);
        check_both(|t| t[0].cross_entropy(&ints(&[0]), &NllLossOptions::default()), &[leaf(&[1, 1], 9)]);
    }
}
