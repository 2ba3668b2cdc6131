//! `gradscope gradcheck`: every differentiable op's backward against central
//! differences in float64, as PyTorch's `torch.autograd.gradcheck` does, one
//! row per case.
//!
//! The cases are one table, [`cases`]. The unary rows are generated from
//! [`UnaryOp::ALL`]; for the other families, [`variant`] names every variant
//! of every op enum through an exhaustive `match` (a new variant fails to
//! compile there), and a test checks that each named variant is the last op
//! of some case (or, for the few ops only composite functions record, that
//! it runs inside one): a new op cannot go unchecked silently.

use std::io::Write;
use std::process::ExitCode;

use gradscope_core::autograd::gradcheck::{GradcheckOptions, jacobian_errors, node_op};
use gradscope_core::ops::arith::Scalar;
use gradscope_core::ops::index::IndexOp;
use gradscope_core::ops::nn::{NnOp, Reduction};
use gradscope_core::ops::nn_conv::{Conv2dOptions, Window2d};
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::ops::nn_norm::BatchNormOptions;
use gradscope_core::ops::nn_pool::Pool2dOptions;
use gradscope_core::ops::view_index::TensorIndex;
use gradscope_core::ops::{
    ArithOp, JoinOp, MatmulOp, ReduceOp, SelectOp, SoftmaxOp, UnaryOp, ViewOp,
};
use gradscope_core::{Op, Result, Tensor};

/// How to call it.
pub const USAGE: &str = "\
gradscope gradcheck: check every differentiable op's backward against finite differences

Usage:
  gradscope gradcheck [--device cpu|webgpu] [--only NAME] [--json]

  --device DEVICE  where the ops run: cpu (the default) or webgpu
                   (float32 on the GPU, checked against the CPU: see below)
  --only NAME      check only the rows of one op (e.g. conv2d, pow, max)
  --json           print the rows as a JSON array instead of a table

Each row runs one PyTorch call on seeded random float64 inputs (chosen away
from kinks such as abs at 0) and compares the Jacobian that backward gives
with central differences, with torch.autograd.gradcheck's defaults:
eps 1e-6, atol 1e-5, rtol 1e-3. The node column is the grad_fn of the
call's result.

WebGPU has no float64 (as PyTorch's MPS), and float32 is too coarse for
finite differences. On webgpu each row runs forward and backward in float32
on the GPU with a seeded cotangent, and compares the gradients with the
same backward in float64 on the CPU, which the table without --device
checks against finite differences: within atol 1e-4, rtol 1e-3.

Exit status: 0 when every row passed, 1 when a row failed, 2 on a usage
error (an unknown option or op), 3 when the device cannot run the rows
(no GPU could be opened).";

/// Where the ops run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Device {
    #[default]
    Cpu,
    Webgpu,
}

/// Parsed command line.
#[derive(Debug, Default, PartialEq)]
struct Options {
    device: Device,
    only: Option<String>,
    json: bool,
}

/// Why the command could not run its rows.
#[derive(Debug, PartialEq)]
enum CommandError {
    /// A bad argument; the text says which.
    Usage(String),
    /// `--only` named no row.
    UnknownOp { name: String, known: Vec<String> },
    /// The device cannot run the rows: the engine's reason.
    DeviceUnavailable(Device, gradscope_core::Error),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Usage(message) => write!(f, "{message}"),
            CommandError::UnknownOp { name, known } => write!(
                f,
                "no gradcheck row for '{name}'; the ops are: {}",
                known.join(", ")
            ),
            CommandError::DeviceUnavailable(device, err) => {
                let name = match device {
                    Device::Cpu => "cpu",
                    Device::Webgpu => "webgpu",
                };
                write!(f, "{name} device: {err}")
            }
        }
    }
}

impl CommandError {
    fn exit_code(&self) -> ExitCode {
        match self {
            CommandError::Usage(_) | CommandError::UnknownOp { .. } => ExitCode::from(2),
            CommandError::DeviceUnavailable(..) => ExitCode::from(3),
        }
    }
}

fn parse(args: &[String]) -> std::result::Result<Options, CommandError> {
    let mut options = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => options.json = true,
            "--only" => {
                let name = it.next().ok_or(CommandError::Usage(
                    "--only needs an op's name (e.g. conv2d)".into(),
                ))?;
                options.only = Some(name.clone());
            }
            "--device" => {
                options.device = match it.next().map(String::as_str) {
                    Some("cpu") => Device::Cpu,
                    Some("webgpu") => Device::Webgpu,
                    Some(other) => {
                        return Err(CommandError::Usage(format!(
                            "unknown device '{other}' (expected cpu or webgpu)"
                        )));
                    }
                    None => {
                        return Err(CommandError::Usage("--device needs cpu or webgpu".into()));
                    }
                }
            }
            "-h" | "--help" => return Err(CommandError::Usage(USAGE.into())),
            other => {
                return Err(CommandError::Usage(format!(
                    "unexpected argument '{other}'\n\n{USAGE}"
                )));
            }
        }
    }
    Ok(options)
}

/// Runs `gradscope gradcheck ARGS...` and returns the exit code.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(CommandError::Usage(text)) if text == USAGE => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gradscope: {err}");
            err.exit_code()
        }
    }
}

fn run(args: &[String]) -> std::result::Result<ExitCode, CommandError> {
    let options = parse(args)?;
    // Refuse before any work rather than report CPU figures under the
    // GPU's name.
    if options.device == Device::Webgpu
        && let Err(err) = gradscope_core::device::gpu()
    {
        return Err(CommandError::DeviceUnavailable(Device::Webgpu, err));
    }
    let all = cases_on(options.device);
    let chosen: Vec<&Case> = all
        .iter()
        .filter(|c| options.only.as_deref().is_none_or(|n| c.op_name() == n))
        .collect();
    if chosen.is_empty() {
        let mut known: Vec<String> = vec![];
        for name in all.iter().map(Case::op_name) {
            if !known.iter().any(|k| k == name) {
                known.push(name.to_string());
            }
        }
        return Err(CommandError::UnknownOp {
            name: options.only.unwrap_or_default(),
            known,
        });
    }
    // Progress on a terminal only: CI logs would get the carriage returns.
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = std::time::Instant::now();
    let mut rows = vec![];
    let widths = Widths::of(&chosen);
    if !options.json {
        println!("{}", widths.header());
    }
    for case in chosen {
        if progress {
            eprint!("checking {} ...\r", case.name);
            let _ = std::io::stderr().flush();
        }
        let row = match options.device {
            Device::Cpu => check(case),
            Device::Webgpu => check_on_gpu(case),
        };
        if progress {
            eprint!("{:width$}\r", "", width = case.name.len() + 13);
        }
        if !options.json {
            println!("{}", row.line(&widths));
        }
        rows.push(row);
    }
    let failed = rows.iter().filter(|r| !r.passed).count();
    // The whole table must reach every op variant; one row alone need not.
    let unchecked = match options.only {
        Some(_) => vec![],
        None => unchecked_variants(&rows, options.device),
    };
    if !unchecked.is_empty() {
        eprintln!(
            "gradscope: no row checks these ops: {}",
            unchecked.join(", ")
        );
    }
    if options.json {
        let json: Vec<serde_json::Value> = rows.iter().map(Row::json).collect();
        println!("{}", serde_json::Value::Array(json));
    } else {
        println!(
            "{} of {} rows passed in {:.1} s",
            rows.len() - failed,
            rows.len(),
            started.elapsed().as_secs_f64()
        );
        if options.only.is_none() {
            for (variant, why) in not_checkable(options.device) {
                println!("not checked: {variant}: {why}");
            }
        }
    }
    Ok(if failed > 0 || !unchecked.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where an input's seeded random values lie.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Values {
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
const KINK_MARGIN: f64 = 0.1;

/// The step for a float32 round trip: a power of two, exact in float32
/// beside [`Values::Float32Exact`]'s values (1e-6 is below float32's
/// resolution and would measure its rounding).
const FLOAT32_EPS: f64 = 1.0 / 1024.0;

/// One input of a case: a float64 leaf that requires grad.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Input {
    shape: Vec<usize>,
    values: Values,
}

/// Values away from 0, the kink of abs, relu, sign and the pole of 1/x.
fn real(shape: &[usize]) -> Input {
    avoiding(shape, &[0.0])
}

fn avoiding(shape: &[usize], kinks: &[f64]) -> Input {
    Input {
        shape: shape.to_vec(),
        values: Values::Avoiding(kinks.to_vec()),
    }
}

fn between(shape: &[usize], lo: f64, hi: f64) -> Input {
    Input {
        shape: shape.to_vec(),
        values: Values::Between(lo, hi),
    }
}

/// Values where log, sqrt and fractional powers are smooth.
fn positive(shape: &[usize]) -> Input {
    between(shape, 0.2, 2.0)
}

type CaseFn = Box<dyn Fn(&[Tensor]) -> Result<Tensor>>;

/// One row: a PyTorch call and the inputs it is checked at.
pub(crate) struct Case {
    /// What the row calls, in PyTorch's words: the function's name, then
    /// any detail in parentheses (`pow (x ** 2.5)`).
    pub(crate) name: String,
    inputs: Vec<Input>,
    f: CaseFn,
    /// The finite-difference step, when PyTorch's 1e-6 cannot work.
    eps: Option<f64>,
}

impl Case {
    fn new(
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

    /// The function's name, without the detail: what `--only` matches.
    pub(crate) fn op_name(&self) -> &str {
        self.name.split(" (").next().unwrap_or(&self.name)
    }

    /// The inputs' seeded values: the seed is the case's name, so adding a
    /// case changes no other case's inputs.
    fn leaves(&self) -> Result<Vec<Tensor>> {
        let mut rng = SplitMix64::new(fnv1a(self.name.as_bytes()));
        self.inputs
            .iter()
            .map(|input| {
                let n: usize = input.shape.iter().product();
                let data: Vec<f64> = (0..n).map(|_| sample(&mut rng, &input.values)).collect();
                Ok(Tensor::from_vec(data, &input.shape)?.requires_grad_(true))
            })
            .collect()
    }
}

/// One value of `values`, drawn from `rng`.
fn sample(rng: &mut SplitMix64, values: &Values) -> f64 {
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
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What one case measured.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) name: String,
    /// The `grad_fn` of the call's result (`None` when it has none).
    pub(crate) node: Option<String>,
    /// The op of that node, from the op enums.
    pub(crate) op: Option<Op>,
    /// Every op the call's graph ran backward through.
    pub(crate) graph_ops: Vec<Op>,
    pub(crate) shapes: Vec<Vec<usize>>,
    pub(crate) max_abs_error: f64,
    pub(crate) max_rel_error: f64,
    pub(crate) passed: bool,
    /// Why the check could not run, when it could not.
    pub(crate) error: Option<String>,
}

/// Column widths of the table, from the rows' names and inputs, known
/// before any row runs (rows print as they finish).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Widths {
    name: usize,
    inputs: usize,
}

/// Room for PyTorch's longest node names (`BinaryCrossEntropyWithLogitsBackward0`).
const NODE_WIDTH: usize = 38;

fn shapes_text(shapes: &[Vec<usize>]) -> String {
    let shapes: Vec<String> = shapes.iter().map(|s| format!("{s:?}")).collect();
    shapes.join(" ")
}

impl Widths {
    pub(crate) fn of(cases: &[&Case]) -> Self {
        let shapes =
            |c: &Case| -> Vec<Vec<usize>> { c.inputs.iter().map(|i| i.shape.clone()).collect() };
        Self {
            name: cases.iter().map(|c| c.name.len()).max().unwrap_or(0).max(2),
            inputs: cases
                .iter()
                .map(|c| shapes_text(&shapes(c)).len())
                .max()
                .unwrap_or(0)
                .max(6),
        }
    }

    fn header(&self) -> String {
        format!(
            "{:<nw$}  {:<NODE_WIDTH$}  {:<iw$}  {:>9}  {:>9}  result",
            "op",
            "node",
            "inputs",
            "max abs",
            "max rel",
            nw = self.name,
            iw = self.inputs
        )
    }
}

impl Row {
    /// A row for `case` before it ran: nothing measured, not passed.
    fn of(case: &Case) -> Self {
        Row {
            name: case.name.clone(),
            node: None,
            op: None,
            graph_ops: vec![],
            shapes: case.inputs.iter().map(|i| i.shape.clone()).collect(),
            max_abs_error: 0.0,
            max_rel_error: 0.0,
            passed: false,
            error: None,
        }
    }

    pub(crate) fn line(&self, widths: &Widths) -> String {
        let result = match (&self.error, self.passed) {
            (Some(err), _) => format!("FAIL  {err}"),
            (None, true) => "pass".into(),
            (None, false) => "FAIL".into(),
        };
        format!(
            "{:<nw$}  {:<NODE_WIDTH$}  {:<iw$}  {:>9.2e}  {:>9.2e}  {result}",
            self.name,
            self.node.as_deref().unwrap_or("None"),
            shapes_text(&self.shapes),
            self.max_abs_error,
            self.max_rel_error,
            nw = widths.name,
            iw = widths.inputs
        )
    }

    fn json(&self) -> serde_json::Value {
        // JSON has no NaN: a NaN error is null, and the row fails.
        let number = |v: f64| serde_json::Number::from_f64(v).map(serde_json::Value::Number);
        serde_json::json!({
            "op": self.name,
            "node": self.node,
            "inputs": self.shapes,
            "max_abs_error": number(self.max_abs_error),
            "max_rel_error": number(self.max_rel_error),
            "passed": self.passed,
            "error": self.error,
        })
    }
}

/// Runs one case: the call once for its node, then PyTorch's gradcheck
/// over every input. A call without a `grad_fn` fails: it would check
/// nothing.
pub(crate) fn check(case: &Case) -> Row {
    let mut row = Row::of(case);
    let options = GradcheckOptions {
        eps: case.eps.unwrap_or(GradcheckOptions::default().eps),
        ..GradcheckOptions::default()
    };
    let outcome = case.leaves().and_then(|leaves| {
        let output = (case.f)(&leaves)?;
        if let Some(node) = output.grad_fn() {
            row.node = Some(node.name().to_string());
            row.op = node_op(&node).cloned();
            row.graph_ops = graph_ops(&node);
        }
        jacobian_errors(&case.f, &leaves, options)
    });
    match outcome {
        Ok(errors) => {
            for e in &errors {
                row.max_abs_error = nan_max(row.max_abs_error, e.max_abs_error);
                row.max_rel_error = nan_max(row.max_rel_error, e.max_rel_error);
            }
            row.passed = row.node.is_some() && errors.iter().all(|e| e.passed);
            if row.node.is_none() {
                row.error = Some("the result has no grad_fn".into());
            }
        }
        Err(err) => row.error = Some(err.to_string()),
    }
    row
}

/// Tolerances of the GPU's float32 gradients against the CPU's float64 ones.
const GPU_ATOL: f64 = 1e-4;
const GPU_RTOL: f64 = 1e-3;

/// Runs one case on the GPU: forward and backward in float32 there with a
/// seeded cotangent, against the same backward in float64 on the CPU (which
/// [`check`] holds to finite differences). A result that leaves the GPU, or
/// a call that cannot run there, fails the row.
pub(crate) fn check_on_gpu(case: &Case) -> Row {
    use gradscope_core::{DType, Device as On};

    let mut row = Row::of(case);
    let outcome = (|| -> Result<bool> {
        let leaves = case.leaves()?;
        let reference = (case.f)(&leaves)?;
        let mut rng = SplitMix64::new(fnv1a(format!("{} cotangent", case.name).as_bytes()));
        let cotangent: Vec<f64> = (0..reference.numel())
            .map(|_| 4.0 * rng.unit() - 2.0)
            .collect();
        let weights = Tensor::from_vec(cotangent.clone(), reference.shape())?;
        reference.mul(&weights)?.sum()?.backward()?;

        let on_gpu: Vec<Tensor> = leaves
            .iter()
            .map(|l| {
                Ok(l.detach()
                    .to_dtype(DType::Float32)?
                    .to_device(On::WebGpu)?
                    .requires_grad_(true))
            })
            .collect::<Result<_>>()?;
        // Tensors the call makes itself land on the GPU too.
        gradscope_core::device::set_default_device(On::WebGpu);
        let output = (case.f)(&on_gpu);
        gradscope_core::device::set_default_device(On::Cpu);
        let output = output?;
        if let Some(node) = output.grad_fn() {
            row.node = Some(node.name().to_string());
            row.op = node_op(&node).cloned();
            row.graph_ops = graph_ops(&node);
        }
        if output.device() != On::WebGpu {
            return Err(gradscope_core::Error::Backend(format!(
                "the result is on {}, not the GPU",
                output.device()
            )));
        }
        let weights = Tensor::from_vec(
            cotangent.iter().map(|&v| v as f32).collect::<Vec<_>>(),
            output.shape(),
        )?
        .to_device(On::WebGpu)?;
        output.mul(&weights)?.sum()?.backward()?;

        let mut passed = true;
        for (cpu, gpu) in leaves.iter().zip(&on_gpu) {
            let want = cpu.grad().map(|g| g.to_vec::<f64>());
            let got = gpu
                .grad()
                .map(|g| g.to_device(On::Cpu)?.to_dtype(DType::Float64))
                .transpose()?
                .map(|g| g.to_vec::<f64>());
            let (want, got) = match (want, got) {
                (Some(want), Some(got)) if want.len() == got.len() => (want, got),
                (None, None) => continue,
                (want, got) => {
                    return Err(gradscope_core::Error::Backend(format!(
                        "the GPU gave {} gradient values where the CPU gave {}",
                        got.map_or(0, |g| g.len()),
                        want.map_or(0, |w| w.len())
                    )));
                }
            };
            for (w, g) in want.iter().zip(&got) {
                let abs = (w - g).abs();
                row.max_abs_error = nan_max(row.max_abs_error, abs);
                if w.abs() > GPU_ATOL {
                    row.max_rel_error = nan_max(row.max_rel_error, abs / w.abs());
                }
                passed &= abs <= GPU_ATOL + GPU_RTOL * w.abs();
            }
        }
        Ok(passed)
    })();
    gradscope_core::device::set_default_device(gradscope_core::Device::Cpu);
    match outcome {
        Ok(passed) => {
            row.passed = passed && row.node.is_some();
            if row.node.is_none() {
                row.error = Some("the result has no grad_fn".into());
            }
        }
        Err(err) => row.error = Some(err.to_string()),
    }
    row
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The ops of every node reachable from `root`, with an explicit stack.
fn graph_ops(root: &std::rc::Rc<gradscope_core::autograd::Node>) -> Vec<Op> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![root.clone()];
    let mut ops = vec![];
    while let Some(node) = stack.pop() {
        if !seen.insert(node.id()) {
            continue;
        }
        if let Some(op) = node_op(&node) {
            ops.push(op.clone());
        }
        stack.extend(node.next_functions().iter().flatten().cloned());
    }
    ops
}

/// The unary row for `op`: inputs clear of its kinks and jumps, in its
/// domain.
fn unary_case(op: UnaryOp) -> Case {
    let shape = [2, 3];
    let (input, eps) = match op {
        UnaryOp::Log
        | UnaryOp::Sqrt
        | UnaryOp::Rsqrt
        | UnaryOp::Log1p
        | UnaryOp::Log10
        | UnaryOp::Log2 => (positive(&shape), None),
        UnaryOp::Round => (avoiding(&shape, &[-1.5, -0.5, 0.5, 1.5]), None),
        UnaryOp::Floor => (avoiding(&shape, &[-1.0, 0.0, 1.0]), None),
        UnaryOp::Clamp { min, max } => {
            let bounds: Vec<f64> = min.into_iter().chain(max).map(Scalar::to_f64).collect();
            (avoiding(&shape, &bounds), None)
        }
        UnaryOp::ClampMin(bound) | UnaryOp::ClampMax(bound) => {
            (avoiding(&shape, &[bound.to_f64()]), None)
        }
        UnaryOp::Softplus { beta, threshold } => (avoiding(&shape, &[0.0, threshold / beta]), None),
        UnaryOp::ToDtype { .. } => (
            Input {
                shape: shape.to_vec(),
                values: Values::Float32Exact,
            },
            Some(FLOAT32_EPS),
        ),
        UnaryOp::Neg
        | UnaryOp::Exp
        | UnaryOp::Abs
        | UnaryOp::Sign
        | UnaryOp::Sin
        | UnaryOp::Cos
        | UnaryOp::Tanh
        | UnaryOp::Sigmoid
        | UnaryOp::Relu
        | UnaryOp::Gelu(_)
        | UnaryOp::LeakyRelu { .. }
        | UnaryOp::Reciprocal
        | UnaryOp::Erf
        | UnaryOp::Expm1
        | UnaryOp::ToDevice { .. } => (real(&shape), None),
    };
    let name = match op {
        UnaryOp::Gelu(gradscope_core::ops::unary::GeluApproximate::Tanh) => {
            "gelu (approximate='tanh')".to_string()
        }
        UnaryOp::ToDtype { from, to } => {
            format!("to (float64 -> {} -> {})", from.name(), to.name())
        }
        _ => Op::Unary(op).name().to_string(),
    };
    let mut case = Case::new(name, vec![input], move |t| op.call(&t[0]));
    case.eps = eps;
    case
}

/// A 1-D constant of a case (running statistics, class weights) with the
/// dtype and device of `like`, so the case runs on the GPU in float32 too.
fn constant(like: &Tensor, values: Vec<f64>) -> Result<Tensor> {
    let n = values.len();
    Tensor::from_vec(values, &[n])?
        .to_dtype(like.dtype())?
        .to_device(like.device())
}

fn ints(values: &[i64], shape: &[usize]) -> Result<Tensor> {
    Tensor::from_vec(values.to_vec(), shape)
}

/// The gradient of `f` at `x`, with graph, against fixed output weights:
/// a function whose last op is `f`'s backward, so the backward op itself
/// is checked (double backward).
fn first_grad(x: &Tensor, f: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    // A leaf of its own: numerical differentiation passes plain tensors.
    let x = if x.requires_grad() {
        x.clone()
    } else {
        x.detach().requires_grad_(true)
    };
    let y = f(&x)?;
    // Squared, so the gradient depends on x through the backward op.
    let out = y.mul(&y)?.sum()?;
    let grads = gradscope_core::autograd::grad(&[out], &[x], None, None, true, false)?;
    grads
        .into_iter()
        .next()
        .flatten()
        .ok_or(gradscope_core::Error::NoGradFn)
}

/// Every row, in the order of the ops' families.
/// The rows for `device`: on the GPU, the float64 round trips give way to
/// a round trip through the CPU (`to(device)`'s own backward).
fn cases_on(device: Device) -> Vec<Case> {
    match device {
        Device::Cpu => cases(),
        Device::Webgpu => {
            let mut rows: Vec<Case> = cases()
                .into_iter()
                .filter(|c| !c.name.starts_with("to (float64"))
                .collect();
            // Back to the input's own device: the CPU reference is the
            // identity, the GPU's last node copies from the CPU.
            rows.push(Case::new(
                "to (webgpu -> cpu -> webgpu)",
                vec![real(&[2, 3])],
                |t| {
                    t[0].to_device(gradscope_core::Device::Cpu)?
                        .to_device(t[0].device())
                },
            ));
            rows
        }
    }
}

pub(crate) fn cases() -> Vec<Case> {
    let mut cases = arith_cases();
    cases.extend(UnaryOp::ALL.iter().map(|&op| unary_case(op)));
    cases.extend(reduce_cases());
    cases.extend(view_cases());
    cases.extend(select_index_join_cases());
    cases.extend(matmul_cases());
    cases.extend(nn_cases());
    cases
}

fn arith_cases() -> Vec<Case> {
    let number = Tensor::scalar;
    vec![
        Case::new("add", vec![real(&[2, 3]), real(&[3])], |t| t[0].add(&t[1])),
        Case::new("add (alpha=2)", vec![real(&[2, 3]), real(&[2, 1])], |t| {
            t[0].add_alpha(&t[1], Scalar::Int(2))
        }),
        Case::new("add (x + 1.5)", vec![real(&[2, 3])], move |t| {
            t[0].add(&number(1.5))
        }),
        Case::new("sub", vec![real(&[2, 3]), real(&[2, 1])], |t| {
            t[0].sub(&t[1])
        }),
        Case::new("rsub", vec![real(&[2, 3]), real(&[3])], |t| {
            t[0].rsub(&t[1])
        }),
        Case::new("rsub (2 - x)", vec![real(&[2, 3])], move |t| {
            t[0].rsub(&number(2.0))
        }),
        Case::new("mul", vec![real(&[2, 3]), real(&[3])], |t| t[0].mul(&t[1])),
        Case::new("mul (x * 3)", vec![real(&[2, 3])], move |t| {
            t[0].mul(&number(3.0))
        }),
        Case::new("div", vec![real(&[2, 3]), real(&[2, 3])], |t| {
            t[0].div(&t[1])
        }),
        Case::new("div (x / 4)", vec![real(&[2, 3])], move |t| {
            t[0].div(&number(4.0))
        }),
        Case::new("pow", vec![positive(&[2, 3]), real(&[3])], |t| {
            t[0].pow(&t[1])
        }),
        Case::new("pow (x ** 2)", vec![real(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Int(2))
        }),
        Case::new("pow (x ** 2.5)", vec![positive(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Float(2.5))
        }),
        Case::new("pow (x ** -0.5)", vec![positive(&[2, 3])], |t| {
            t[0].pow_scalar(Scalar::Float(-0.5))
        }),
        Case::new("pow (2 ** x)", vec![real(&[2, 3])], |t| {
            Tensor::scalar_pow(Scalar::Float(2.0), &t[0])
        }),
    ]
}

fn reduce_cases() -> Vec<Case> {
    let x = || vec![real(&[3, 4])];
    vec![
        Case::new("sum", x(), |t| t[0].sum()),
        Case::new("sum (dim=1)", x(), |t| t[0].sum_dim(&[1], false)),
        Case::new("mean", x(), |t| t[0].mean()),
        Case::new("mean (dim=0, keepdim)", x(), |t| t[0].mean_dim(&[0], true)),
        Case::new("sum_to_size", x(), |t| t[0].sum_to_size(&[1, 4])),
        Case::new("max", x(), |t| t[0].max()),
        Case::new("min", x(), |t| t[0].min()),
        Case::new("max (dim=1)", x(), |t| Ok(t[0].max_dim(1, false)?.0)),
        Case::new("min (dim=0, keepdim)", x(), |t| {
            Ok(t[0].min_dim(0, true)?.0)
        }),
        Case::new("amax (dim=1)", x(), |t| t[0].amax(&[1], false)),
        Case::new("amin (dim=0)", x(), |t| t[0].amin(&[0], false)),
        Case::new("var", x(), |t| t[0].var(None, 1.0, false)),
        Case::new("var (dim=1, correction=0)", x(), |t| {
            t[0].var(Some(&[1]), 0.0, false)
        }),
        Case::new("std", x(), |t| t[0].std(None, 1.0, false)),
        Case::new("std (dim=0, keepdim)", x(), |t| {
            t[0].std(Some(&[0]), 1.0, true)
        }),
        Case::new("linalg_vector_norm (ord=2)", x(), |t| {
            t[0].norm(2.0, None, false)
        }),
        Case::new("linalg_vector_norm (ord=1, dim=1)", x(), |t| {
            t[0].norm(1.0, Some(&[1]), false)
        }),
        Case::new("linalg_vector_norm (ord=3, dim=0)", x(), |t| {
            t[0].norm(3.0, Some(&[0]), false)
        }),
        Case::new("prod", vec![real(&[2, 3])], |t| t[0].prod()),
        Case::new("prod (dim=1)", x(), |t| t[0].prod_dim(1, false)),
        Case::new("logsumexp (dim=1)", x(), |t| t[0].logsumexp(&[1], false)),
    ]
}

fn view_cases() -> Vec<Case> {
    let x = || vec![real(&[2, 3])];
    vec![
        Case::new("expand", vec![real(&[1, 3])], |t| t[0].expand(&[2, 3])),
        Case::new("view", x(), |t| t[0].view(&[3, 2])),
        Case::new("reshape (of a strided view)", vec![real(&[4, 3])], |t| {
            t[0].slice(0, None, None, 2)?.reshape(&[2, 3, 1])
        }),
        Case::new("reshape (of a transpose: a copy)", x(), |t| {
            t[0].t()?.reshape(&[6])
        }),
        Case::new("alias (x[...])", x(), |t| t[0].alias()),
        Case::new("clone", x(), |t| t[0].clone_tensor()),
        Case::new("contiguous", x(), |t| t[0].t()?.contiguous()),
        Case::new("transpose", vec![real(&[2, 3, 4])], |t| {
            t[0].transpose(0, 2)
        }),
        Case::new("t", x(), |t| t[0].t()),
        Case::new("permute", vec![real(&[2, 3, 4])], |t| {
            t[0].permute(&[2, 0, 1])
        }),
        Case::new("squeeze", vec![real(&[2, 1, 3])], |t| t[0].squeeze()),
        Case::new("squeeze (dim=1)", vec![real(&[2, 1, 3])], |t| {
            t[0].squeeze_dim(1)
        }),
        Case::new("squeeze (dims=[1, 3])", vec![real(&[2, 1, 3, 1])], |t| {
            t[0].squeeze_dims(&[1, 3])
        }),
        Case::new("unsqueeze", x(), |t| t[0].unsqueeze(1)),
        Case::new("slice (x[:, 1:5:2])", vec![real(&[2, 5])], |t| {
            t[0].slice(1, Some(1), Some(5), 2)
        }),
        Case::new("select (x[:, 2])", x(), |t| t[0].select(1, 2)),
        Case::new(
            "slice_backward (double backward)",
            vec![real(&[2, 5])],
            |t| first_grad(&t[0], |x| x.slice(1, Some(1), Some(5), 2)),
        ),
        Case::new("select_backward (double backward)", x(), |t| {
            first_grad(&t[0], |x| x.select(1, 2))
        }),
        Case::new("diagonal (offset=1)", vec![real(&[3, 4])], |t| {
            t[0].diagonal(1, 0, 1)
        }),
        Case::new("diagonal (dims 2, 0)", vec![real(&[3, 2, 3])], |t| {
            t[0].diagonal(-1, 2, 0)
        }),
        Case::new(
            "diagonal_backward (double backward)",
            vec![real(&[3, 4])],
            |t| first_grad(&t[0], |x| x.diagonal(1, 0, 1)),
        ),
    ]
}

fn select_index_join_cases() -> Vec<Case> {
    let two = || vec![real(&[2, 3]), real(&[3])];
    vec![
        Case::new("maximum", two(), |t| t[0].maximum(&t[1])),
        Case::new("minimum", two(), |t| t[0].minimum(&t[1])),
        Case::new("where", two(), |t| {
            let condition = Tensor::from_vec(vec![true, false, true, false, false, true], &[2, 3])?;
            t[0].where_cond(&condition, &t[1])
        }),
        Case::new("clamp_min (tensor)", two(), |t| {
            t[0].clamp_min_tensor(&t[1])
        }),
        Case::new("clamp_max (tensor)", two(), |t| {
            t[0].clamp_max_tensor(&t[1])
        }),
        Case::new("clamp (tensors)", vec![real(&[2, 3]), real(&[3])], |t| {
            // The upper bound lies 0.5 above the lower one.
            let upper = t[1].add(&Tensor::scalar(0.5))?;
            t[0].clamp_tensor(Some(&t[1]), Some(&upper))
        }),
        Case::new("index (x[idx])", vec![real(&[4, 3])], |t| {
            t[0].index(&[TensorIndex::Tensor(ints(&[2, 0, 2], &[3])?)])
        }),
        Case::new("index (x[:, idx])", vec![real(&[2, 4])], |t| {
            let all = TensorIndex::Slice {
                start: None,
                stop: None,
                step: None,
            };
            t[0].index(&[all, TensorIndex::Tensor(ints(&[3, 1], &[2])?)])
        }),
        Case::new("index_put", vec![real(&[4, 3]), real(&[2, 3])], |t| {
            t[0].index_put(&[Some(ints(&[2, 0], &[2])?)], &t[1], false)
        }),
        Case::new(
            "index_put (accumulate=True)",
            vec![real(&[4, 3]), real(&[3, 3])],
            |t| t[0].index_put(&[Some(ints(&[1, 3, 1], &[3])?)], &t[1], true),
        ),
        Case::new("gather", vec![real(&[2, 3])], |t| {
            t[0].gather(1, &ints(&[0, 2, 1, 1], &[2, 2])?)
        }),
        Case::new("scatter_add", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            t[0].scatter_add(1, &ints(&[0, 2, 1, 1], &[2, 2])?, &t[1])
        }),
        Case::new("scatter", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            t[0].scatter(1, &ints(&[0, 2, 1, 0], &[2, 2])?, &t[1])
        }),
        Case::new("scatter (value)", vec![real(&[2, 3])], |t| {
            t[0].scatter_value(1, &ints(&[0, 2, 1, 0], &[2, 2])?, 0.5)
        }),
        Case::new("index_select", vec![real(&[3, 2])], |t| {
            t[0].index_select(0, &ints(&[1, 0, 1], &[3])?)
        }),
        Case::new("index_add", vec![real(&[2, 3]), real(&[3, 3])], |t| {
            t[0].index_add(0, &ints(&[0, 1, 0], &[3])?, &t[1])
        }),
        Case::new("embedding", vec![real(&[4, 3])], |t| {
            Tensor::embedding(&ints(&[0, 2, 3, 2], &[2, 2])?, &t[0], None)
        }),
        Case::new("cat", vec![real(&[2, 3]), real(&[2, 2])], |t| {
            Tensor::cat(&[&t[0], &t[1]], 1)
        }),
        Case::new("stack", vec![real(&[2, 3]), real(&[2, 3])], |t| {
            Tensor::stack(&[&t[0], &t[1]], 1)
        }),
        Case::new("split (second piece)", vec![real(&[2, 5])], |t| {
            last(t[0].split(2, 1)?)
        }),
        Case::new(
            "split_with_sizes (second piece)",
            vec![real(&[2, 5])],
            |t| last(t[0].split_with_sizes(&[1, 4], 1)?),
        ),
        Case::new("unbind (last piece)", vec![real(&[3, 2])], |t| {
            last(t[0].unbind(0)?)
        }),
    ]
}

fn last(pieces: Vec<Tensor>) -> Result<Tensor> {
    pieces
        .into_iter()
        .next_back()
        .ok_or(gradscope_core::Error::NoGradFn)
}

fn matmul_cases() -> Vec<Case> {
    vec![
        Case::new("mm", vec![real(&[2, 3]), real(&[3, 4])], |t| t[0].mm(&t[1])),
        Case::new("bmm", vec![real(&[2, 2, 3]), real(&[2, 3, 2])], |t| {
            t[0].bmm(&t[1])
        }),
        Case::new("dot", vec![real(&[4]), real(&[4])], |t| t[0].dot(&t[1])),
        Case::new("mv", vec![real(&[2, 3]), real(&[3])], |t| t[0].mv(&t[1])),
        Case::new(
            "matmul (vector @ matrix)",
            vec![real(&[3]), real(&[3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
        Case::new(
            "matmul (batch @ matrix)",
            vec![real(&[2, 2, 3]), real(&[3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
        Case::new(
            "matmul (broadcast batches)",
            vec![real(&[2, 1, 2, 3]), real(&[2, 3, 2])],
            |t| t[0].matmul(&t[1]),
        ),
    ]
}

fn nn_cases() -> Vec<Case> {
    let image = || real(&[1, 2, 4, 4]);
    vec![
        Case::new("softmax (dim=1)", vec![real(&[2, 3])], |t| t[0].softmax(1)),
        Case::new("log_softmax (dim=0)", vec![real(&[2, 3])], |t| {
            t[0].log_softmax(0)
        }),
        Case::new(
            "layer_norm",
            vec![real(&[2, 4]), real(&[4]), real(&[4])],
            |t| t[0].layer_norm(&[4], Some(&t[1]), Some(&t[2]), 1e-5),
        ),
        Case::new(
            "batch_norm (training)",
            vec![real(&[3, 2, 2]), real(&[2]), real(&[2])],
            |t| {
                t[0].batch_norm(&BatchNormOptions {
                    weight: Some(t[1].clone()),
                    bias: Some(t[2].clone()),
                    training: true,
                    ..Default::default()
                })
            },
        ),
        Case::new(
            "batch_norm (eval)",
            vec![real(&[3, 2, 2]), real(&[2]), real(&[2])],
            |t| {
                t[0].batch_norm(&BatchNormOptions {
                    running_mean: Some(constant(&t[0], vec![0.1, -0.2])?),
                    running_var: Some(constant(&t[0], vec![0.8, 1.3])?),
                    weight: Some(t[1].clone()),
                    bias: Some(t[2].clone()),
                    ..Default::default()
                })
            },
        ),
        Case::new(
            "conv2d (padding=1)",
            vec![image(), real(&[3, 2, 2, 2]), real(&[3])],
            |t| {
                let options = Conv2dOptions {
                    padding: [1, 1],
                    ..Default::default()
                };
                t[0].conv2d(&t[1], Some(&t[2]), &options)
            },
        ),
        Case::new(
            "conv2d (stride=2, groups=2)",
            vec![image(), real(&[2, 1, 2, 2])],
            |t| {
                let options = Conv2dOptions {
                    stride: [2, 2],
                    groups: 2,
                    ..Default::default()
                };
                t[0].conv2d(&t[1], None, &options)
            },
        ),
        Case::new("im2col (unfold)", vec![image()], |t| t[0].im2col(&window())),
        Case::new("col2im (fold)", vec![real(&[1, 8, 4])], |t| {
            t[0].col2im([3, 3], &window())
        }),
        Case::new("max_pool2d", vec![image()], |t| {
            t[0].max_pool2d(&Pool2dOptions::new(2))
        }),
        Case::new("avg_pool2d (padding=1)", vec![image()], |t| {
            t[0].avg_pool2d(&avg_pool())
        }),
        Case::new(
            "avg_pool2d_backward (double backward)",
            vec![image()],
            |t| first_grad(&t[0], |x| x.avg_pool2d(&avg_pool())),
        ),
        Case::new(
            "linear",
            vec![real(&[3, 4]), real(&[2, 4]), real(&[2])],
            |t| t[0].linear(&t[1], Some(&t[2])),
        ),
        Case::new(
            "addmm",
            vec![real(&[1, 2]), real(&[3, 4]), real(&[4, 2])],
            |t| t[0].addmm(&t[1], &t[2]),
        ),
        Case::new("mse_loss", vec![real(&[3, 4]), real(&[3, 4])], |t| {
            t[0].mse_loss(&t[1], Reduction::Mean)
        }),
        Case::new(
            "mse_loss (reduction='none')",
            vec![real(&[2, 3]), real(&[3])],
            |t| t[0].mse_loss(&t[1], Reduction::None),
        ),
        Case::new("cross_entropy", vec![real(&[3, 4])], |t| {
            t[0].cross_entropy(&ints(&[1, 0, 3], &[3])?, &NllLossOptions::default())
        }),
        Case::new(
            "cross_entropy (label_smoothing=0.2)",
            vec![real(&[3, 4])],
            |t| {
                let options = NllLossOptions {
                    label_smoothing: 0.2,
                    ..NllLossOptions::default()
                };
                t[0].cross_entropy(&ints(&[1, 0, 3], &[3])?, &options)
            },
        ),
        Case::new("nll_loss (weight)", vec![real(&[3, 4])], |t| {
            let options = NllLossOptions {
                weight: Some(constant(&t[0], vec![0.5, 1.0, 1.5, 2.0])?),
                ..NllLossOptions::default()
            };
            t[0].nll_loss(&ints(&[2, 0, 3], &[3])?, &options)
        }),
        Case::new(
            "binary_cross_entropy",
            vec![between(&[2, 3], 0.1, 0.9), between(&[2, 3], 0.0, 1.0)],
            |t| t[0].binary_cross_entropy(&t[1], None, Reduction::Mean),
        ),
        Case::new(
            "binary_cross_entropy_with_logits (pos_weight)",
            vec![real(&[2, 3]), between(&[2, 3], 0.0, 1.0)],
            |t| {
                let pos_weight = Tensor::from_vec(vec![0.5f64, 1.0, 2.0], &[3])?;
                t[0].binary_cross_entropy_with_logits(
                    &t[1],
                    None,
                    Some(&pos_weight),
                    Reduction::Sum,
                )
            },
        ),
    ]
}

fn window() -> Window2d {
    Window2d {
        kernel: [2, 2],
        stride: [1, 1],
        padding: [0, 0],
        dilation: [1, 1],
    }
}

fn avg_pool() -> Pool2dOptions {
    Pool2dOptions {
        padding: [1, 1],
        ..Pool2dOptions::new(2)
    }
}

/// Names every variant of every op family, from the same list as
/// [`VARIANTS`]: a new variant fails to compile in this `match` until it
/// is named, and the test `every_op_variant_has_a_row` then fails until a
/// row checks it.
macro_rules! variants {
    ($($pattern:pat => $name:literal,)*) => {
        /// Every op variant's name.
        pub(crate) const VARIANTS: &[&str] = &[$($name),*];

        /// The name of `op`'s variant.
        pub(crate) fn variant(op: &Op) -> &'static str {
            match op {
                $($pattern => $name,)*
            }
        }
    };
}

variants! {
    Op::Arith(ArithOp::Add { .. }) => "ArithOp::Add",
    Op::Arith(ArithOp::Sub { .. }) => "ArithOp::Sub",
    Op::Arith(ArithOp::Rsub { .. }) => "ArithOp::Rsub",
    Op::Arith(ArithOp::Mul) => "ArithOp::Mul",
    Op::Arith(ArithOp::Div) => "ArithOp::Div",
    Op::Arith(ArithOp::Pow) => "ArithOp::Pow",
    Op::Arith(ArithOp::RsubScalar { .. }) => "ArithOp::RsubScalar",
    Op::Arith(ArithOp::PowScalar { .. }) => "ArithOp::PowScalar",
    Op::Arith(ArithOp::ScalarPow { .. }) => "ArithOp::ScalarPow",
    Op::Unary(UnaryOp::Neg) => "UnaryOp::Neg",
    Op::Unary(UnaryOp::Exp) => "UnaryOp::Exp",
    Op::Unary(UnaryOp::Log) => "UnaryOp::Log",
    Op::Unary(UnaryOp::Sqrt) => "UnaryOp::Sqrt",
    Op::Unary(UnaryOp::Rsqrt) => "UnaryOp::Rsqrt",
    Op::Unary(UnaryOp::Abs) => "UnaryOp::Abs",
    Op::Unary(UnaryOp::Sign) => "UnaryOp::Sign",
    Op::Unary(UnaryOp::Sin) => "UnaryOp::Sin",
    Op::Unary(UnaryOp::Cos) => "UnaryOp::Cos",
    Op::Unary(UnaryOp::Tanh) => "UnaryOp::Tanh",
    Op::Unary(UnaryOp::Sigmoid) => "UnaryOp::Sigmoid",
    Op::Unary(UnaryOp::Relu) => "UnaryOp::Relu",
    Op::Unary(UnaryOp::Gelu(_)) => "UnaryOp::Gelu",
    Op::Unary(UnaryOp::LeakyRelu { .. }) => "UnaryOp::LeakyRelu",
    Op::Unary(UnaryOp::Softplus { .. }) => "UnaryOp::Softplus",
    Op::Unary(UnaryOp::Clamp { .. }) => "UnaryOp::Clamp",
    Op::Unary(UnaryOp::ClampMin(_)) => "UnaryOp::ClampMin",
    Op::Unary(UnaryOp::ClampMax(_)) => "UnaryOp::ClampMax",
    Op::Unary(UnaryOp::Round) => "UnaryOp::Round",
    Op::Unary(UnaryOp::Floor) => "UnaryOp::Floor",
    Op::Unary(UnaryOp::Reciprocal) => "UnaryOp::Reciprocal",
    Op::Unary(UnaryOp::Erf) => "UnaryOp::Erf",
    Op::Unary(UnaryOp::Log1p) => "UnaryOp::Log1p",
    Op::Unary(UnaryOp::Expm1) => "UnaryOp::Expm1",
    Op::Unary(UnaryOp::Log10) => "UnaryOp::Log10",
    Op::Unary(UnaryOp::Log2) => "UnaryOp::Log2",
    Op::Unary(UnaryOp::ToDtype { .. }) => "UnaryOp::ToDtype",
    Op::Unary(UnaryOp::ToDevice { .. }) => "UnaryOp::ToDevice",
    Op::Reduce(ReduceOp::Sum) => "ReduceOp::Sum",
    Op::Reduce(ReduceOp::SumDim(_)) => "ReduceOp::SumDim",
    Op::Reduce(ReduceOp::Mean) => "ReduceOp::Mean",
    Op::Reduce(ReduceOp::MeanDim(_)) => "ReduceOp::MeanDim",
    Op::Reduce(ReduceOp::SumToSize(_)) => "ReduceOp::SumToSize",
    Op::Reduce(ReduceOp::Extreme(_)) => "ReduceOp::Extreme",
    Op::Reduce(ReduceOp::ExtremeDim { .. }) => "ReduceOp::ExtremeDim",
    Op::Reduce(ReduceOp::Amax(..)) => "ReduceOp::Amax",
    Op::Reduce(ReduceOp::Var(..)) => "ReduceOp::Var",
    Op::Reduce(ReduceOp::Std(..)) => "ReduceOp::Std",
    Op::Reduce(ReduceOp::Norm(..)) => "ReduceOp::Norm",
    Op::Reduce(ReduceOp::Prod) => "ReduceOp::Prod",
    Op::Reduce(ReduceOp::ProdDim(_)) => "ReduceOp::ProdDim",
    Op::Reduce(ReduceOp::Logsumexp(_)) => "ReduceOp::Logsumexp",
    Op::View(ViewOp::Expand(_)) => "ViewOp::Expand",
    Op::View(ViewOp::View(_)) => "ViewOp::View",
    Op::View(ViewOp::ReshapeAlias(_)) => "ViewOp::ReshapeAlias",
    Op::View(ViewOp::UnsafeView(_)) => "ViewOp::UnsafeView",
    Op::View(ViewOp::Alias) => "ViewOp::Alias",
    Op::View(ViewOp::Clone) => "ViewOp::Clone",
    Op::View(ViewOp::Contiguous) => "ViewOp::Contiguous",
    Op::View(ViewOp::Transpose(..)) => "ViewOp::Transpose",
    Op::View(ViewOp::T) => "ViewOp::T",
    Op::View(ViewOp::Permute(_)) => "ViewOp::Permute",
    Op::View(ViewOp::SqueezeAll) => "ViewOp::SqueezeAll",
    Op::View(ViewOp::SqueezeDim(_)) => "ViewOp::SqueezeDim",
    Op::View(ViewOp::SqueezeDims(_)) => "ViewOp::SqueezeDims",
    Op::View(ViewOp::Unsqueeze(_)) => "ViewOp::Unsqueeze",
    Op::View(ViewOp::Slice { .. }) => "ViewOp::Slice",
    Op::View(ViewOp::Select { .. }) => "ViewOp::Select",
    Op::View(ViewOp::SliceBackward { .. }) => "ViewOp::SliceBackward",
    Op::View(ViewOp::SelectBackward { .. }) => "ViewOp::SelectBackward",
    Op::View(ViewOp::Diagonal { .. }) => "ViewOp::Diagonal",
    Op::View(ViewOp::DiagonalBackward { .. }) => "ViewOp::DiagonalBackward",
    Op::Select(SelectOp::Maximum) => "SelectOp::Maximum",
    Op::Select(SelectOp::Minimum) => "SelectOp::Minimum",
    Op::Select(SelectOp::Where) => "SelectOp::Where",
    Op::Select(SelectOp::ClampMin) => "SelectOp::ClampMin",
    Op::Select(SelectOp::ClampMax) => "SelectOp::ClampMax",
    Op::Select(SelectOp::Clamp { .. }) => "SelectOp::Clamp",
    Op::Index(IndexOp::Index { .. }) => "IndexOp::Index",
    Op::Index(IndexOp::IndexPut { .. }) => "IndexOp::IndexPut",
    Op::Index(IndexOp::Gather { .. }) => "IndexOp::Gather",
    Op::Index(IndexOp::ScatterAdd { .. }) => "IndexOp::ScatterAdd",
    Op::Index(IndexOp::Scatter { .. }) => "IndexOp::Scatter",
    Op::Index(IndexOp::IndexSelect { .. }) => "IndexOp::IndexSelect",
    Op::Index(IndexOp::IndexAdd { .. }) => "IndexOp::IndexAdd",
    Op::Index(IndexOp::Embedding { .. }) => "IndexOp::Embedding",
    Op::Join(JoinOp::Cat { .. }) => "JoinOp::Cat",
    Op::Join(JoinOp::Stack { .. }) => "JoinOp::Stack",
    Op::Join(JoinOp::Split { .. }) => "JoinOp::Split",
    Op::Join(JoinOp::Unbind { .. }) => "JoinOp::Unbind",
    Op::Matmul(MatmulOp::Mm) => "MatmulOp::Mm",
    Op::Matmul(MatmulOp::Bmm) => "MatmulOp::Bmm",
    Op::Matmul(MatmulOp::Dot) => "MatmulOp::Dot",
    Op::Matmul(MatmulOp::Mv) => "MatmulOp::Mv",
    Op::Matmul(MatmulOp::SqueezeInplace(_)) => "MatmulOp::SqueezeInplace",
    Op::Nn(NnOp::Addmm { .. }) => "NnOp::Addmm",
    Op::Nn(NnOp::MseLoss(_)) => "NnOp::MseLoss",
    Op::Nn(NnOp::NllLoss { .. }) => "NnOp::NllLoss",
    Op::Nn(NnOp::BinaryCrossEntropy { .. }) => "NnOp::BinaryCrossEntropy",
    Op::Nn(NnOp::BceWithLogits { .. }) => "NnOp::BceWithLogits",
    Op::Nn(NnOp::LayerNorm { .. }) => "NnOp::LayerNorm",
    Op::Nn(NnOp::BatchNorm { .. }) => "NnOp::BatchNorm",
    Op::Nn(NnOp::Conv2d { .. }) => "NnOp::Conv2d",
    Op::Nn(NnOp::Im2Col(_)) => "NnOp::Im2Col",
    Op::Nn(NnOp::Col2Im { .. }) => "NnOp::Col2Im",
    Op::Nn(NnOp::MaxPool2d(_)) => "NnOp::MaxPool2d",
    Op::Nn(NnOp::AvgPool2d(_)) => "NnOp::AvgPool2d",
    Op::Nn(NnOp::MaskedFill(_)) => "NnOp::MaskedFill",
    Op::Nn(NnOp::MulScalar(_)) => "NnOp::MulScalar",
    Op::Nn(NnOp::AvgPool2dBackward { .. }) => "NnOp::AvgPool2dBackward",
    Op::Softmax(SoftmaxOp::Softmax(_)) => "SoftmaxOp::Softmax",
    Op::Softmax(SoftmaxOp::LogSoftmax(_)) => "SoftmaxOp::LogSoftmax",
}

/// Variants that no public call records as its last op: PyTorch's
/// composite functions record them inside. Each must still run inside a
/// checked row's graph, which the coverage test asserts.
pub(crate) const INSIDE_COMPOSITES: &[(&str, &str)] = &[
    (
        "NnOp::MaskedFill",
        "cross_entropy with label_smoothing masks the ignored targets",
    ),
    (
        "NnOp::MulScalar",
        "cross_entropy with label_smoothing scales the smoothing term",
    ),
];

/// The op variants no row checks: neither a row's last op nor, for
/// [`INSIDE_COMPOSITES`], an op inside a row's graph.
pub(crate) fn unchecked_variants(rows: &[Row], device: Device) -> Vec<&'static str> {
    let last: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.op.as_ref())
        .map(variant)
        .collect();
    let inside: Vec<&str> = rows
        .iter()
        .flat_map(|r| &r.graph_ops)
        .map(variant)
        .collect();
    VARIANTS
        .iter()
        .copied()
        .filter(|name| !not_checkable(device).iter().any(|(v, _)| v == name))
        .filter(
            |name| match INSIDE_COMPOSITES.iter().any(|(v, _)| v == name) {
                true => !inside.contains(name),
                false => !last.contains(name),
            },
        )
        .collect()
}

/// Variants no row can check on `device`, each with the reason the table
/// prints under itself: a skip is shown, never silent.
pub(crate) fn not_checkable(device: Device) -> &'static [(&'static str, &'static str)] {
    match device {
        Device::Cpu => &[(
            "UnaryOp::ToDevice",
            "to(device) needs a GPU, and gradcheck's float64 cannot go to WebGPU \
             (checked by gradcheck --device webgpu)",
        )],
        Device::Webgpu => &[(
            "UnaryOp::ToDtype",
            "its rows convert from float64, which WebGPU does not have (checked on the CPU)",
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_core::DType;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn gradcheck_parses_options_and_refuses_bad_ones() {
        assert_eq!(
            parse(&args(&["--device", "cpu", "--only", "conv2d", "--json"])),
            Ok(Options {
                device: Device::Cpu,
                only: Some("conv2d".into()),
                json: true,
            })
        );
        assert!(matches!(
            parse(&args(&["--device", "tpu"])),
            Err(CommandError::Usage(_))
        ));
        assert!(matches!(
            parse(&args(&["--only"])),
            Err(CommandError::Usage(_))
        ));
        assert!(matches!(
            parse(&args(&["--fast"])),
            Err(CommandError::Usage(_))
        ));
    }

    #[test]
    fn webgpu_is_a_typed_error_with_its_own_exit_code() {
        let err = run(&args(&["--device", "webgpu"])).unwrap_err();
        assert!(matches!(
            err,
            CommandError::DeviceUnavailable(
                Device::Webgpu,
                gradscope_core::Error::DeviceUnavailable { .. }
            )
        ));
        assert!(
            err.to_string()
                .starts_with("webgpu device: WebGPU is not available")
        );
        assert_eq!(err.exit_code(), ExitCode::from(3));
    }

    #[test]
    fn every_unary_op_has_a_row() {
        let rows: Vec<Row> = UnaryOp::ALL
            .iter()
            .map(|&op| check(&unary_case(op)))
            .collect();
        for (op, row) in UnaryOp::ALL.iter().zip(&rows) {
            // The row's node is the op of ALL itself, attributes included.
            assert_eq!(row.op, Some(Op::Unary(*op)), "{op:?}: {row:?}");
            assert!(row.passed, "{row:?}");
        }
    }

    #[test]
    fn every_op_variant_has_a_row() {
        let rows: Vec<Row> = cases().iter().map(check).collect();
        assert_eq!(unchecked_variants(&rows, Device::Cpu), Vec::<&str>::new());
        // A variant that no row reaches is reported.
        let without_pools: Vec<Row> = rows
            .iter()
            .filter(|r| !r.name.starts_with("max_pool2d"))
            .cloned()
            .collect();
        assert_eq!(
            unchecked_variants(&without_pools, Device::Cpu),
            vec!["NnOp::MaxPool2d"]
        );
        // Each row's node is the one its op names, and every row passes.
        for row in &rows {
            let op = row.op.as_ref().unwrap_or_else(|| panic!("{row:?}"));
            assert_eq!(row.node.as_deref(), Some(op.node_name()), "{}", row.name);
            assert!(row.passed, "{row:?}");
        }
    }

    #[test]
    fn a_wrong_backward_fails_its_row() {
        use gradscope_core::autograd::function::apply_function;
        // exp whose backward forgets the factor exp(x): grad instead of grad * exp(x).
        let case = Case::new("exp (broken backward)", vec![real(&[3])], |t| {
            apply_function(
                "BrokenExp",
                t,
                |ctx, inputs| {
                    ctx.save_for_backward(inputs);
                    inputs[0].exp()
                },
                std::rc::Rc::new(|_saved, grad| Ok(vec![Some(grad.clone())])),
            )
        });
        let row = check(&case);
        assert_eq!(row.node.as_deref(), Some("BrokenExpBackward"));
        assert!(!row.passed);
        assert!(row.max_abs_error > 0.1, "{row:?}");
        let widths = Widths::of(&[&case]);
        assert!(row.line(&widths).ends_with("FAIL"));
        // The same call with exp's own backward passes.
        let good = check(&Case::new("exp", vec![real(&[3])], |t| t[0].exp()));
        assert!(good.passed, "{good:?}");
    }

    #[test]
    fn inputs_keep_clear_of_kinks_and_are_seeded() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            let v = sample(&mut rng, &Values::Avoiding(vec![0.0, 1.0]));
            assert!(
                v.abs() >= KINK_MARGIN && (v - 1.0).abs() >= KINK_MARGIN,
                "{v}"
            );
            let exact = sample(&mut rng, &Values::Float32Exact);
            assert_eq!(f64::from(exact as f32), exact);
            assert_eq!(f64::from((exact + FLOAT32_EPS) as f32), exact + FLOAT32_EPS);
        }
        let case = || unary_case(UnaryOp::Abs);
        let a = case().leaves().unwrap()[0].to_vec::<f64>();
        assert_eq!(a, case().leaves().unwrap()[0].to_vec::<f64>());
        assert_eq!(DType::Float64, case().leaves().unwrap()[0].dtype());
    }
}
