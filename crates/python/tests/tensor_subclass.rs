//! Tensor subclasses that take over their ops (`_make_wrapper_subclass`
//! with `__torch_dispatch__`, `__torch_function__`), bfloat16 tensors, and
//! how `nn.Module` puts converted tensors back (`_apply`, `load_state_dict`
//! with `assign=` and `torch.__future__`'s swap switch): each program
//! prints what torch 2.15 printed for it and ends with its exception
//! (recorded by `tests/fixtures/record_tensor_subclass.py`).

#![allow(clippy::panic)]

use gradscope_python::Runtime;
use serde_json::Value;

const FIXTURE: &str = include_str!("../../../tests/fixtures/tensor_subclass.json");

#[test]
fn tensor_subclass_programs_print_what_pytorch_prints() {
    let fixture: Value = serde_json::from_str(FIXTURE).unwrap_or_else(|e| panic!("fixture: {e}"));
    let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 13, "found only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or_default();
        let source = case["source"].as_str().unwrap_or_default();
        let expected = case["stdout"].as_str().unwrap_or_default();
        let mut rt = Runtime::new();
        let out = rt.run(source);
        let error = out.error.map(|e| (e.type_name, e.message));
        let expected_error = case["error"].as_object().map(|e| {
            let text = |key: &str| e[key].as_str().unwrap_or_default().to_string();
            (text("type"), text("message"))
        });
        if out.stdout != expected || error != expected_error {
            failures.push(format!(
                "{name}:\n--- expected\n{expected}{expected_error:?}\n--- got\n{}{error:?}",
                out.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// What a program sets for tensor subclasses does not reach the next one
/// (the page runs every program in one interpreter; a process would not
/// keep it): `torch.__future__`'s switches are off again and `torch`'s
/// functions are no longer routed.
#[test]
fn tensor_subclass_state_ends_with_its_program() {
    let mut rt = Runtime::new();
    let first = rt.run(
        "import torch\n\
         class L(torch.Tensor):\n    \
             @classmethod\n    \
             def __torch_function__(cls, func, types, args=(), kwargs=None):\n        \
                 return super().__torch_function__(func, types, args, kwargs)\n\
         torch.__future__.set_swap_module_params_on_conversion(True)\n\
         print(torch.add.__wrapped__ is not None)\n",
    );
    assert_eq!((first.stdout.as_str(), first.error), ("True\n", None));
    let second = rt.run(
        "import torch\n\
         print(torch.__future__.get_swap_module_params_on_conversion(), hasattr(torch.add, '__wrapped__'))\n",
    );
    assert_eq!(
        (second.stdout.as_str(), second.error),
        ("False False\n", None)
    );
}
