//! Sizes past 2^32 from Python: a 64-bit build takes them as PyTorch does;
//! wasm32, whose `usize` has 32 bits, raises instead of wrapping them
//! (`10**12` wrapped is 3567587328). Runs natively and, with
//! `cargo test --target wasm32-unknown-unknown`, in wasm under node.

#![allow(clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use gradscope_python::Runtime;

const PROGRAM: &str = "\
import torch

def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:
        print(what, type(e).__name__, e)

attempt('view', lambda: torch.zeros(0).view(0, 10**12, 10**12).shape)
attempt('reshape', lambda: torch.zeros(0).reshape(10**12, 0).shape)
attempt('expand', lambda: torch.ones(1).expand(10**12, 10**12))
attempt('split', lambda: [p.shape for p in torch.arange(5).split(2**32 + 2)])
attempt('step', lambda: torch.arange(5)[1::2**32 + 1])
attempt('repeat', lambda: torch.ones(2, 3).repeat(10**12, 10**12))
";

#[test]
fn sizes_past_u32_raise_or_work_never_wrap() {
    let out = Runtime::new().run(PROGRAM);
    assert!(out.error.is_none(), "{}", out.stderr);
    let common = "\
expand RuntimeError numel: integer multiplication overflow
split [torch.Size([5])]
step tensor([1])
repeat RuntimeError Storage size calculation overflowed with sizes=[2000000000000, 3000000000000]
";
    let want = if cfg!(target_pointer_width = "64") {
        format!(
            "view torch.Size([0, 1000000000000, 1000000000000])\n\
             reshape torch.Size([1000000000000, 0])\n{common}"
        )
    } else {
        format!(
            "view RuntimeError size 1000000000000 is past the largest size this 32-bit build \
             can hold (4294967295): sizes=[0, 1000000000000, 1000000000000]\n\
             reshape RuntimeError size 1000000000000 is past the largest size this 32-bit build \
             can hold (4294967295): sizes=[1000000000000, 0]\n{common}"
        )
    };
    assert_eq!(out.stdout, want);
}
