//! `gradscope gradcheck`: parses the command line and prints the rows of
//! [`gradscope_core::gradcheck`], which holds the cases (by op family) and
//! runs them: one row per case, every differentiable op's backward against
//! central differences in float64, as PyTorch's `torch.autograd.gradcheck`
//! does, or on the GPU against the CPU's float64 backward.

use std::io::Write;
use std::process::ExitCode;

use gradscope_core::Device;
use gradscope_core::gradcheck::{
    Case, Row, cases_on, check, check_on_gpu, not_checkable, unchecked_variants,
};

use crate::args::{self, Long, Parsed, Short};

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
                write!(f, "{} device: {err}", device.type_name())
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

fn parse(args: &[String]) -> Result<Parsed<Options>, CommandError> {
    let mut options = Options::default();
    let mut parser = args::parser(args);
    while let Some(arg) = args::next(&mut parser).map_err(CommandError::Usage)? {
        match arg {
            Long("json") => options.json = true,
            Long("only") => {
                let name = args::value(&mut parser, "--only needs an op's name (e.g. conv2d)");
                options.only = Some(name.map_err(CommandError::Usage)?);
            }
            Long("device") => {
                let name = args::value(&mut parser, "--device needs cpu or webgpu")
                    .map_err(CommandError::Usage)?;
                options.device = match name.as_str() {
                    "cpu" => Device::Cpu,
                    "webgpu" => Device::WebGpu,
                    other => {
                        return Err(CommandError::Usage(format!(
                            "unknown device '{other}' (expected cpu or webgpu)"
                        )));
                    }
                }
            }
            Short('h') | Long("help") => return Ok(Parsed::Help),
            other => {
                let other = args::shown(&other);
                return Err(CommandError::Usage(format!(
                    "unexpected argument '{other}'\n\n{USAGE}"
                )));
            }
        }
    }
    Ok(Parsed::Run(options))
}

/// Runs `gradscope gradcheck ARGS...` and returns the exit code.
pub fn main(args: &[String]) -> ExitCode {
    let outcome = parse(args).and_then(|parsed| match parsed {
        Parsed::Run(options) => run(options),
        Parsed::Help => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
    });
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gradscope: {err}");
            err.exit_code()
        }
    }
}

fn run(options: Options) -> Result<ExitCode, CommandError> {
    // Refuse before any work rather than report CPU figures under the
    // GPU's name.
    if options.device == Device::WebGpu
        && let Err(err) = gradscope_core::device::gpu()
    {
        return Err(CommandError::DeviceUnavailable(Device::WebGpu, err));
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
            Device::WebGpu => check_on_gpu(case),
        };
        if progress {
            eprint!("{:width$}\r", "", width = case.name.len() + 13);
        }
        if !options.json {
            println!("{}", line(&row, &widths));
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
        let json: Vec<serde_json::Value> = rows.iter().map(json).collect();
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

/// Column widths of the table, from the rows' names and inputs, known
/// before any row runs (rows print as they finish).
#[derive(Clone, Copy, Debug)]
struct Widths {
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
    fn of(cases: &[&Case]) -> Self {
        Self {
            name: cases.iter().map(|c| c.name.len()).max().unwrap_or(0).max(2),
            inputs: cases
                .iter()
                .map(|c| shapes_text(&c.shapes()).len())
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

/// The table's line for `row`.
fn line(row: &Row, widths: &Widths) -> String {
    let result = match (&row.error, row.passed) {
        (Some(err), _) => format!("FAIL  {err}"),
        (None, true) => "pass".into(),
        (None, false) => "FAIL".into(),
    };
    format!(
        "{:<nw$}  {:<NODE_WIDTH$}  {:<iw$}  {:>9.2e}  {:>9.2e}  {result}",
        row.name,
        row.node.as_deref().unwrap_or("None"),
        shapes_text(&row.shapes),
        row.max_abs_error,
        row.max_rel_error,
        nw = widths.name,
        iw = widths.inputs
    )
}

/// The JSON object for `row`.
fn json(row: &Row) -> serde_json::Value {
    // JSON has no NaN: a NaN error is null, and the row fails.
    let number = |v: f64| serde_json::Number::from_f64(v).map(serde_json::Value::Number);
    serde_json::json!({
        "op": row.name,
        "node": row.node,
        "inputs": row.shapes,
        "max_abs_error": number(row.max_abs_error),
        "max_rel_error": number(row.max_rel_error),
        "passed": row.passed,
        "error": row.error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_core::gradcheck::real;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn gradcheck_parses_options_and_refuses_bad_ones() {
        assert_eq!(
            parse(&args(&["--device", "cpu", "--only", "conv2d", "--json"])),
            Ok(Parsed::Run(Options {
                device: Device::Cpu,
                only: Some("conv2d".into()),
                json: true,
            }))
        );
        assert_eq!(parse(&args(&["--json", "-h"])), Ok(Parsed::Help));
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
            Err(CommandError::Usage(m)) if m.starts_with("unexpected argument '--fast'")
        ));
    }

    #[test]
    fn webgpu_is_a_typed_error_with_its_own_exit_code() {
        let options = Options {
            device: Device::WebGpu,
            ..Options::default()
        };
        let err = run(options).unwrap_err();
        assert!(matches!(
            err,
            CommandError::DeviceUnavailable(
                Device::WebGpu,
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
    fn a_failed_row_prints_fail() {
        use gradscope_core::autograd::function::apply_function;
        // exp whose backward forgets the factor exp(x).
        let case = Case::new("exp (broken backward)", vec![real(&[3])], |t| {
            apply_function(
                "BrokenExp",
                t,
                |_ctx, inputs| inputs[0].exp(),
                std::rc::Rc::new(|_saved, grad| Ok(vec![Some(grad.clone())])),
            )
        });
        let row = check(&case);
        let widths = Widths::of(&[&case]);
        assert!(line(&row, &widths).ends_with("FAIL"), "{row:?}");
        assert_eq!(json(&row)["passed"], false);
        let good = Case::new("exp", vec![real(&[3])], |t| t[0].exp());
        assert!(line(&check(&good), &Widths::of(&[&good])).ends_with("pass"));
    }
}
