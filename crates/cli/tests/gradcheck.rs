//! `gradscope gradcheck` as a user runs it: the whole table passes and
//! reaches every op family; a wrong backward is caught by the checker it
//! is built on; the device and usage errors exit with their documented codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use std::process::{Command, Output};
use std::rc::Rc;

use gradscope_core::autograd::function::apply_function;
use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck, jacobian_errors};
use gradscope_core::{Result, Tensor};

fn gradscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gradscope"))
        .arg("gradcheck")
        .args(args)
        .output()
        .expect("the gradscope binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_full_table_passes_for_every_op() {
    let output = gradscope(&["--json"]);
    let text = stdout(&output);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).expect("a JSON array");
    assert!(rows.len() >= 100, "only {} rows", rows.len());
    for row in &rows {
        assert_eq!(row["passed"], true, "{row}");
        assert!(row["node"].is_string(), "{row}");
        let abs = row["max_abs_error"].as_f64().expect("a number");
        assert!((0.0..1e-5).contains(&abs), "{row}");
    }
    // The families the table must cover, by the name of PyTorch's call.
    let ops: Vec<&str> = rows
        .iter()
        .map(|r| r["op"].as_str().expect("a name"))
        .map(|name| name.split(" (").next().unwrap_or(name))
        .collect();
    let families = [
        "add",
        "sub",
        "mul",
        "div",
        "pow",
        "exp",
        "relu",
        "abs",
        "sum",
        "mean",
        "var",
        "std",
        "linalg_vector_norm",
        "prod",
        "logsumexp",
        "max",
        "min",
        "amax",
        "view",
        "expand",
        "index",
        "gather",
        "index_select",
        "where",
        "maximum",
        "minimum",
        "cat",
        "stack",
        "mm",
        "bmm",
        "matmul",
        "softmax",
        "log_softmax",
        "layer_norm",
        "batch_norm",
        "conv2d",
        "max_pool2d",
        "avg_pool2d",
        "embedding",
        "mse_loss",
        "cross_entropy",
        "nll_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "linear",
    ];
    for family in families {
        assert!(ops.contains(&family), "no row for {family}");
    }
}

#[test]
fn the_table_prints_one_passing_row_per_case_and_a_summary() {
    let output = gradscope(&["--only", "conv2d"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("op") && lines[0].contains("max rel"),
        "{text}"
    );
    let rows: Vec<&&str> = lines.iter().filter(|l| l.starts_with("conv2d")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert!(
            row.contains("ConvolutionBackward0") && row.ends_with("pass"),
            "{row}"
        );
    }
    assert!(text.contains("2 of 2 rows passed"), "{text}");
}

/// `exp` whose backward forgets the factor `exp(x)`.
fn broken_exp(t: &[Tensor]) -> Result<Tensor> {
    apply_function(
        "BrokenExp",
        t,
        |_ctx, inputs| inputs[0].exp(),
        Rc::new(|_saved, grad| Ok(vec![Some(grad.clone())])),
    )
}

#[test]
fn a_wrong_backward_is_caught_and_a_right_one_passes() {
    let x = Tensor::from_vec(vec![0.5f64, -1.2, 1.7], &[3])
        .unwrap()
        .requires_grad_(true);
    let options = GradcheckOptions::default();
    let broken = jacobian_errors(broken_exp, std::slice::from_ref(&x), options).unwrap();
    assert_eq!(broken.len(), 1);
    assert!(!broken[0].passed);
    // The analytical diagonal is 1 where exp(1.7) = 5.47 is right.
    assert!((broken[0].max_abs_error - (1.7f64.exp() - 1.0)).abs() < 1e-6);
    assert!(gradcheck(broken_exp, std::slice::from_ref(&x), options).is_err());

    let right = jacobian_errors(|t| t[0].exp(), std::slice::from_ref(&x), options).unwrap();
    assert!(
        right[0].passed && right[0].max_abs_error < 1e-8,
        "{right:?}"
    );
}

#[test]
fn webgpu_and_usage_errors_exit_with_their_codes() {
    // Without a GPU the engine says why none opened, and no rows print;
    // with one (lavapipe in CI's GPU stage), every row runs there and passes.
    let webgpu = gradscope(&["--device", "webgpu", "--only", "conv2d"]);
    let message = String::from_utf8_lossy(&webgpu.stderr);
    match webgpu.status.code() {
        Some(3) => {
            assert!(
                message.contains("webgpu device: WebGPU is not available"),
                "{message}"
            );
            assert!(
                stdout(&webgpu).is_empty(),
                "no rows under a device that did not run"
            );
        }
        code => {
            assert_eq!(code, Some(0), "{message}");
            assert!(
                stdout(&webgpu).contains("2 of 2 rows passed"),
                "{}",
                stdout(&webgpu)
            );
        }
    }

    assert_eq!(gradscope(&["--only", "no_such_op"]).status.code(), Some(2));
    assert_eq!(gradscope(&["--device"]).status.code(), Some(2));
    let help = gradscope(&["--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Exit status"));
}
