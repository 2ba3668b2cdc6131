//! The standard library of gradscope's Python runtime: RustPython 0.6's
//! pure-Python `Lib`, compiled to bytecode by `build.rs` into two frozen
//! libraries (the bytes of `rustpython_compiler_core::frozen::FrozenLib`).
//!
//! [`START`] holds what the interpreter imports to start and is in every
//! build. [`REST`] holds everything else: natively it is included here; in
//! the browser it is a separate file, [`REST_FILE`], that the worker
//! fetches the first time a program imports a module [`find`] names, so
//! that the worker's wasm carries only what start needs.

include!(concat!(env!("OUT_DIR"), "/index.rs"));

/// The modules the interpreter imports to start (`import torch` and the
/// prelude), frozen.
pub static START: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/start.bin"));

/// Every other module, frozen; the page fetches it as [`REST_FILE`].
#[cfg(not(target_arch = "wasm32"))]
pub static REST: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rest.bin"));

/// The path of [`REST`]'s bytes in this build's output, which
/// `cargo xtask build-web` copies beside the worker as [`REST_FILE`].
pub const REST_PATH: &str = concat!(env!("OUT_DIR"), "/rest.bin");

/// Whether `name` (dotted) is a module of [`REST`]: `Some(true)` for a
/// package, `Some(false)` for a plain module, `None` if it is not there.
pub fn find(name: &str) -> Option<bool> {
    REST_MODULES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| REST_MODULES[i].1)
}

/// Every module of [`REST`], sorted by name, each with whether it is a
/// package.
pub fn rest_modules() -> &'static [(&'static str, bool)] {
    REST_MODULES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_tells_packages_from_modules() {
        assert_eq!(find("json"), Some(true));
        assert_eq!(find("json.decoder"), Some(false));
        assert_eq!(find("argparse"), Some(false));
        assert_eq!(find("torch"), None);
        // Start modules are in START only.
        assert_eq!(find("typing"), None);
    }

    #[test]
    fn rest_is_sorted_for_binary_search() {
        assert!(REST_MODULES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(REST_MODULES.len() > 400, "{}", REST_MODULES.len());
    }

    #[test]
    fn rest_file_names_its_content() {
        assert!(REST_FILE.starts_with("stdlib-") && REST_FILE.ends_with(".bin"));
        assert!(!REST.is_empty() && !START.is_empty());
    }
}
