//! Every WGSL file under `shaders/` parses and validates with naga, on the
//! CPU, as the device compiles it (with the strided prelude where it calls
//! into it; the prelude itself is checked through those files).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

fn shader_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shaders");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "wgsl"))
        .filter(|path| !path.ends_with("strided.wgsl"))
        .collect();
    files.sort();
    files
}

#[test]
fn shaders_validate() {
    let files = shader_files();
    assert!(!files.is_empty(), "no .wgsl files found under shaders/");
    let mut failures = Vec::new();
    for path in &files {
        let shown = path.display().to_string();
        let source = match std::fs::read_to_string(path) {
            Ok(source) => gradscope_wgpu::shader_source(&source).into_owned(),
            Err(e) => {
                failures.push(format!("{shown}: {e}"));
                continue;
            }
        };
        let module = match naga::front::wgsl::parse_str(&source) {
            Ok(module) => module,
            Err(e) => {
                failures.push(e.emit_to_string_with_path(&source, &shown));
                continue;
            }
        };
        let mut validator = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        );
        if let Err(e) = validator.validate(&module) {
            failures.push(e.emit_to_string_with_path(&source, &shown));
        }
    }
    assert!(
        failures.is_empty(),
        "invalid shaders:\n{}",
        failures.join("\n")
    );
}

#[test]
fn shaders_entry_points_named_by_family() {
    for path in shader_files() {
        let family = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        let source = gradscope_wgpu::shader_source(&source);
        let Ok(module) = naga::front::wgsl::parse_str(&source) else {
            continue;
        };
        for entry in &module.entry_points {
            assert!(
                entry.name.starts_with(&format!("{family}_")),
                "{}: entry point {} is not named {family}_<op>",
                path.display(),
                entry.name
            );
        }
    }
}
