//! The Python the binary carries frozen: our packages (`torch`, `numpy`,
//! ...), compiled by `build.rs`, and the standard-library modules the
//! interpreter needs to start (`gradscope_stdlib::START`). The rest of the
//! standard library is imported on demand through `stdlib.rs`.

use rustpython_vm::frozen::{FrozenLib, FrozenModule};

static FROZEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/frozen.bin"));

/// Every frozen module, by dotted name.
pub(crate) fn modules() -> impl Iterator<Item = (&'static str, FrozenModule)> {
    FrozenLib::from_ref(FROZEN)
        .decode()
        .chain(FrozenLib::from_ref(gradscope_stdlib::START).decode())
}
