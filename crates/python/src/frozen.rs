//! The Python the binary carries: our `torch` package and a few standard
//! library modules, compiled to bytecode by `build.rs`.

use rustpython_vm::frozen::{FrozenLib, FrozenModule};

static FROZEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/frozen.bin"));

/// Every frozen module, by dotted name.
pub(crate) fn modules() -> impl Iterator<Item = (&'static str, FrozenModule)> {
    FrozenLib::from_ref(FROZEN).decode()
}
