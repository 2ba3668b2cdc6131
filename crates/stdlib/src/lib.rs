//! The standard library of gradscope's Python runtime: RustPython 0.6's
//! pure-Python `Lib`, compiled to bytecode by `build.rs` into frozen
//! libraries (the bytes of `rustpython_compiler_core::frozen::FrozenLib`).
//!
//! [`START`] holds what the interpreter imports to start and is in every
//! build. The rest is three files: what programs commonly import, everything
//! else, and our packages around torch (`py/`: `numpy`, `matplotlib`,
//! `tqdm`). Natively all are included here ([`REST`]); in the
//! browser each is a separate file, named in [`REST_FILES`], that the worker
//! fetches the first time a program imports a module [`find`] places in it,
//! so that the worker's wasm carries only what start needs.

include!(concat!(env!("OUT_DIR"), "/index.rs"));

/// The modules the interpreter imports to start (`import torch` and the
/// prelude), frozen.
pub static START: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/start.bin"));

/// The rest, frozen, as the files the page fetches as [`REST_FILES`].
#[cfg(not(target_arch = "wasm32"))]
pub static REST: [&[u8]; 3] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/rest-0.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/rest-1.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/rest-2.bin")),
];

/// Where a module of the rest is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Whether it is a package (`json`) rather than a plain module.
    pub package: bool,
    /// Which of the files ([`REST_FILES`]) holds it.
    pub file: usize,
}

/// Where `name` (dotted) is in the rest of the standard library, if it is.
pub fn find(name: &str) -> Option<Found> {
    let i = REST_MODULES.binary_search_by(|m| m.0.cmp(name)).ok()?;
    REST_MODULES.get(i).map(|&(_, package, file)| Found {
        package,
        file: usize::from(file),
    })
}

/// Every module of the rest, sorted by name.
pub fn rest_modules() -> impl Iterator<Item = (&'static str, Found)> {
    REST_MODULES.iter().map(|&(name, package, file)| {
        (
            name,
            Found {
                package,
                file: usize::from(file),
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_tells_packages_from_modules() {
        let at = |package, file| Some(Found { package, file });
        assert_eq!(find("json"), at(true, 0));
        assert_eq!(find("json.decoder"), at(false, 0));
        assert_eq!(find("argparse"), at(false, 0));
        assert_eq!(find("asyncio"), at(true, 1));
        assert_eq!(find("torch"), None);
        assert_eq!(find("numpy"), at(true, 2));
        assert_eq!(find("matplotlib.pyplot"), at(false, 2));
        // Start modules are in START only.
        assert_eq!(find("typing"), None);
    }

    #[test]
    fn rest_is_sorted_for_binary_search() {
        assert!(REST_MODULES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(REST_MODULES.len() > 400, "{}", REST_MODULES.len());
    }

    #[test]
    fn rest_files_name_their_content() {
        for (i, name) in REST_FILES.iter().enumerate() {
            let kind = if i == 2 { "packages-" } else { "stdlib-" };
            assert!(name.starts_with(kind) && name.ends_with(".bin"), "{name}");
        }
        assert_ne!(REST_FILES[0], REST_FILES[1]);
        assert!(REST.iter().all(|f| !f.is_empty()) && !START.is_empty());
        // The common file is the small one.
        assert!(REST[0].len() * 2 < REST[1].len());
    }
}
