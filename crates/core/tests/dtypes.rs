//! The integer dtypes (uint8, int8, int16, int32 beside int64) against
//! PyTorch: promotion, casts, printing, element sizes, reductions, wrapping
//! in-place arithmetic and the overflow check on Python numbers, from
//! `tests/fixtures/record_dtypes.py`; printing, reductions, in-place
//! arithmetic and `fill_` on every device.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::ops::UnaryOp;
use gradscope_core::ops::int_division::IntDivision;
use gradscope_core::{DType, Error, Result, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

const FIXTURE: &str = include_str!("../../../tests/fixtures/dtypes.json");

fn fixture(name: &str) -> Value {
    common::case(FIXTURE, name)
}

fn dtype(name: &str) -> DType {
    DType::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("unknown dtype {name}"))
}

/// Fixture values ("nan", "inf", numbers, bools) as `f64`.
fn number(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("not a number: {other}"),
        },
        v => v.as_f64().unwrap(),
    }
}

/// A tensor of `dtype` holding the fixture's values: integers exactly
/// (through int64), floats through float64.
fn tensor(values: &Value, shape: &[usize], dtype: DType) -> Tensor {
    let items = values.as_array().unwrap();
    let t = if items.iter().all(|v| v.is_i64()) && dtype != DType::Bool {
        Tensor::from_vec(items.iter().map(|v| v.as_i64().unwrap()).collect(), shape)
    } else if items.iter().all(Value::is_boolean) {
        Tensor::from_vec(items.iter().map(|v| v.as_bool().unwrap()).collect(), shape)
    } else {
        Tensor::from_vec(items.iter().map(number).collect::<Vec<f64>>(), shape)
    };
    t.unwrap().to_dtype(dtype).unwrap()
}

/// Asserts values equal PyTorch's: integers and bools exactly, floats to
/// float32's rounding (the cases divide small integers).
fn assert_values(actual: &Tensor, want: &Value, what: &str) {
    let want = want.as_array().unwrap();
    if actual.dtype().is_float() {
        let got = actual.to_vec::<f64>();
        assert_eq!(got.len(), want.len(), "{what}");
        for (g, w) in got.iter().zip(want) {
            let w = number(w);
            assert!(
                *g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-6 * w.abs().max(1.0),
                "{what}: {got:?} against {want:?}"
            );
        }
    } else {
        let want: Vec<i64> = want
            .iter()
            .map(|v| {
                v.as_i64()
                    .unwrap_or_else(|| i64::from(v.as_bool().unwrap()))
            })
            .collect();
        assert_eq!(actual.to_vec::<i64>(), want, "{what}");
    }
}

fn assert_error(err: &Error, want: &Value, what: &str) {
    assert_eq!(err.to_string(), want["message"].as_str().unwrap(), "{what}");
    assert_eq!(err.python_type(), want["type"].as_str().unwrap(), "{what}");
}

/// Holds `result` to a case that records either an output or PyTorch's
/// error (`case["error"]`): the error's type and message must be PyTorch's;
/// the output, when one is expected, is returned for the caller's checks.
fn outcome<T>(result: Result<T>, case: &Value, what: &str) -> Option<T> {
    match (result, &case["error"]) {
        (Ok(out), Value::Null) => Some(out),
        (Err(e), Value::Null) => panic!("{what}: {e}"),
        (Ok(_), want) => panic!("{what}: expected {want}"),
        (Err(e), want) => {
            assert_error(&e, want, what);
            None
        }
    }
}

/// The operand a promotion case names, as `record_dtypes.py` makes it.
fn operand(kind: &str) -> Tensor {
    let values = fixture("values");
    match kind {
        "int" => Tensor::scalar_int(3),
        "float" => Tensor::scalar(2.5),
        zero_dim if zero_dim.ends_with("_0d") => {
            let name = &zero_dim[..zero_dim.len() - 3];
            let first = Value::Array(vec![values[name][0].clone()]);
            tensor(&first, &[], dtype(name))
        }
        name => tensor(&values[name], &[3], dtype(name)),
    }
}

fn binary(op: &str, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    match op {
        "add" => a.add(b),
        "sub" => a.sub(b),
        "mul" => a.mul(b),
        "div" => a.div(b),
        "maximum" => a.maximum(b),
        "lt" => a.lt(b),
        other => panic!("no op {other}"),
    }
}

fn unary(name: &str) -> &'static dyn Fn(&Tensor) -> Result<Tensor> {
    let (_, method) = UnaryOp::METHODS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no unary op {name}"));
    method
}

every_target! {
    fn promote_types_matches_pytorch() {
        for case in fixture("promote_types").as_array().unwrap() {
            let (a, b) = (dtype(case["a"].as_str().unwrap()), dtype(case["b"].as_str().unwrap()));
            assert_eq!(DType::promote(a, b), dtype(case["dtype"].as_str().unwrap()), "{a} with {b}");
        }
    }

    fn integer_promotion_table_matches_pytorch() {
        let cases = fixture("promotion");
        for case in cases.as_array().unwrap() {
            let (op, lhs, rhs) = (
                case["op"].as_str().unwrap(),
                case["lhs"].as_str().unwrap(),
                case["rhs"].as_str().unwrap(),
            );
            let what = format!("{op}({lhs}, {rhs})");
            if let Some(out) = outcome(binary(op, &operand(lhs), &operand(rhs)), case, &what) {
                assert_eq!(out.dtype(), dtype(case["dtype"].as_str().unwrap()), "{what}");
                assert_values(&out, &case["out"], &what);
            }
        }
        assert!(cases.as_array().unwrap().len() > 600);
    }

    fn default_dtype_float64_as_pytorch() {
        let case = fixture("default_dtype");
        let printed = |name: &str| -> String {
            let found = case["expressions"].as_array().unwrap().iter().find(|e| e["name"] == name);
            found.unwrap_or_else(|| panic!("no {name}"))["repr"].as_str().unwrap().to_string()
        };
        let ints = |v: Vec<i64>| Tensor::from_vec(v, &[3]).unwrap();
        let f32s = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        DType::set_default_float(DType::Float64).unwrap();
        let made: Vec<(&str, Tensor)> = vec![
            ("zeros", Tensor::zeros(&[2])),
            ("ones", Tensor::ones(&[2, 2])),
            ("int_div", ints(vec![1, 2, 3]).div(&Tensor::scalar_int(3)).unwrap()),
            ("int_mul_float", ints(vec![1, 2, 3]).mul(&Tensor::scalar(0.1)).unwrap()),
            ("int_exp", unary("exp")(&Tensor::from_vec(vec![0i64, 1], &[2]).unwrap()).unwrap()),
            ("float32_mul_float", f32s.mul(&Tensor::scalar(0.1)).unwrap()),
            ("empty", Tensor::zeros(&[0])),
            ("empty_float32", Tensor::zeros(&[0]).to_dtype(DType::Float32).unwrap()),
        ];
        let got: Vec<(&str, String)> = made.iter().map(|(n, t)| (*n, t.repr())).collect();
        DType::set_default_float(DType::Float32).unwrap();
        let want: Vec<(&str, String)> = made.iter().map(|(n, _)| (*n, printed(n))).collect();
        assert_eq!(got, want);
        assert_eq!(Tensor::zeros(&[1]).dtype(), DType::Float32);
        let refused = DType::set_default_float(DType::Int64).unwrap_err();
        assert_error(&refused, &case["errors"][0]["error"], "set_default_dtype(torch.int64)");
    }

    fn casts_wrap_as_pytorch_cpu() {
        for case in fixture("casts").as_array().unwrap() {
            let (from, to) = (dtype(case["from"].as_str().unwrap()), dtype(case["to"].as_str().unwrap()));
            let n = case["values"].as_array().unwrap().len();
            let x = tensor(&case["values"], &[n], from);
            let out = x.to_dtype(to).unwrap();
            assert_eq!(out.dtype(), to);
            assert_values(&out, &case["out"], &format!("{from} {:?} to {to}", case["values"]));
        }
    }

}

// The integer dtypes keep their values on the host on every device; these
// run with the GPU as the default device too, where their ops take the
// host path.
test_device! {
    fn integer_tensors_print_and_size_as_pytorch() {
        for case in fixture("printing").as_array().unwrap() {
            let d = dtype(case["dtype"].as_str().unwrap());
            let shape = common::shape(&case["shape"]);
            let flat: Vec<Value> = case["values"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|row| row.as_array().unwrap().clone())
                .collect();
            let t = tensor(&Value::Array(flat), &shape, d);
            assert_eq!(t.repr(), case["repr"].as_str().unwrap());
            assert_eq!(d.size() as u64, case["element_size"].as_u64().unwrap());
            // The ledger counts the true width.
            assert_eq!(t.storage().bytes(), (t.numel() * d.size()) as u64, "{d}");
        }
    }

    fn integer_reductions_give_pytorch_dtypes() {
        for case in fixture("reductions").as_array().unwrap() {
            let (d, op) = (dtype(case["dtype"].as_str().unwrap()), case["op"].as_str().unwrap());
            let x = tensor(&case["values"], &[2, 2], d);
            let out = match op {
                "sum" => x.sum(),
                "sum_dim" => x.sum_dim(&[0], false),
                "prod" => x.prod(),
                "max" => x.max(),
                "min" => x.min(),
                "mean" => x.mean(),
                "neg" | "abs" => unary(op)(&x),
                // cumsum is composed in the Python layer (torch._composite).
                "cumsum" => continue,
                other => panic!("no op {other}"),
            };
            let what = format!("{op} of {d}");
            if let Some(out) = outcome(out, case, &what) {
                assert_eq!(out.dtype(), dtype(case["out_dtype"].as_str().unwrap()), "{what}");
                assert_eq!(out.shape(), common::shape(&case["shape"]), "{what}");
                assert_values(&out, &case["out"], &what);
            }
        }
    }

    fn integer_inplace_add_wraps_and_refuses_floats() {
        for case in fixture("inplace").as_array().unwrap() {
            let d = dtype(case["dtype"].as_str().unwrap());
            let start = if d == DType::Int8 { 120 } else { 250 };
            let x = Tensor::from_vec(vec![start, 126i64, 3], &[3]).unwrap().to_dtype(d).unwrap();
            x.add_(&Tensor::scalar_int(7)).unwrap();
            assert_eq!(x.dtype(), d);
            assert_values(&x, &case["out"], &format!("{d} += 7"));
            let y = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap().to_dtype(d).unwrap();
            let err = y.add_(&Tensor::scalar(1.5)).unwrap_err();
            assert_error(&err, &case["float_error"], &format!("{d} += 1.5"));
        }
    }

    fn integer_division_computes_in_integers() {
        let cases = fixture("int_division");
        for case in cases.as_array().unwrap() {
            let (op, lhs, rhs) = (
                case["op"].as_str().unwrap(),
                case["lhs"].as_str().unwrap(),
                case["rhs"].as_str().unwrap(),
            );
            let n = case["lhs_values"].as_array().unwrap().len();
            let a = tensor(&case["lhs_values"], &[n], dtype(lhs));
            let b = match rhs {
                "int" | "int_neg" | "int_big" => Tensor::scalar_int(case["rhs_values"].as_i64().unwrap()),
                "int64_0d" => tensor(&case["rhs_values"], &[], DType::Int64),
                name => tensor(&case["rhs_values"], &[n], dtype(name)),
            };
            let mode = match op {
                "floor_divide" => IntDivision::Floor,
                "trunc" => IntDivision::Trunc,
                "remainder" => IntDivision::Remainder,
                "fmod" => IntDivision::Fmod,
                other => panic!("no op {other}"),
            };
            let what = format!("{op}({lhs} {:?}, {rhs} {:?})", case["lhs_values"], case["rhs_values"]);
            if let Some(out) = outcome(a.int_division(&b, mode), case, &what) {
                assert_eq!(out.dtype(), dtype(case["dtype"].as_str().unwrap()), "{what}");
                assert_values(&out, &case["out"], &what);
            }
        }
        assert!(cases.as_array().unwrap().len() > 250);
    }

    fn default_float64_int_division_refused_on_the_gpu() {
        // torch.tensor([1, 2, 3]) / 3 after set_default_dtype(float64): float64
        // on the CPU (as recorded), PyTorch MPS's TypeError on the GPU.
        let case = fixture("default_dtype");
        let expressions = case["expressions"].as_array().unwrap();
        let want = &expressions.iter().find(|e| e["name"] == "int_div").unwrap()["repr"];
        let ints = Tensor::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
        DType::set_default_float(DType::Float64).unwrap();
        let out = ints.div(&Tensor::scalar_int(3)).map(|t| t.repr());
        DType::set_default_float(DType::Float32).unwrap();
        match gradscope_core::device::default_device() {
            gradscope_core::Device::WebGpu => {
                assert!(matches!(out, Err(Error::GpuFloat64)), "{out:?}");
            }
            _ => assert_eq!(out.unwrap(), want.as_str().unwrap()),
        }
    }

    fn fill_checks_the_number_fits() {
        for case in fixture("fill_overflow").as_array().unwrap() {
            let d = dtype(case["dtype"].as_str().unwrap());
            let value = number(&case["value"]);
            let x = Tensor::full_dtype(&[2], 0.0, d);
            let what = format!("fill {d} {value}");
            if outcome(x.fill_(value), case, &what).is_some() {
                assert_values(&x, &case["out"], &what);
            }
        }
    }
}
