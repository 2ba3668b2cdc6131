//! `cargo xtask build-web`: release wasm, wasm-bindgen, wasm-opt, the code
//! editor bundled by esbuild, and the static site under `<target>/site`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::util::{self, Ctx};

/// The wasm crates (package names) and their library file stems.
const WASM_CRATES: &[(&str, &str)] = &[
    ("gradscope-ui", "gradscope_ui"),
    ("gradscope-webworker", "gradscope_webworker"),
];

/// The wasm features Rust 1.95's wasm32-unknown-unknown output uses (LLVM's
/// generic CPU plus `+simd128` from .cargo/config.toml).
const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-simd",
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-nontrapping-float-to-int",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// The editor's npm project (CodeMirror 6 and esbuild), under the repository root.
pub const EDITOR_DIR: &str = "web/editor";

/// The site directory.
pub fn site_dir(ctx: &Ctx) -> PathBuf {
    ctx.target_dir.join("site")
}

/// Builds the site; returns its directory.
pub fn build(ctx: &Ctx) -> Result<PathBuf> {
    // One build per crate: built together, cargo would unify their
    // features, and the page would carry what only the worker needs (the
    // lessons' checks and data).
    for (package, _) in WASM_CRATES {
        let mut cmd = ctx.cargo([
            "build",
            "--profile",
            "wasm-release",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            package,
        ]);
        println!("build-web: {}", util::display(&cmd));
        util::run(&mut cmd)?;
    }

    let site = site_dir(ctx);
    if site.exists() {
        fs::remove_dir_all(&site).with_context(|| format!("removing {}", site.display()))?;
    }
    let pkg = site.join("pkg");
    fs::create_dir_all(&pkg).with_context(|| format!("creating {}", pkg.display()))?;

    let release = ctx.target_dir.join("wasm32-unknown-unknown/wasm-release");
    for (_, stem) in WASM_CRATES {
        let wasm = release.join(format!("{stem}.wasm"));
        if !wasm.is_file() {
            bail!("{} was not built: is the crate a cdylib?", wasm.display());
        }
        let mut cmd = ctx.cmd("wasm-bindgen");
        cmd.args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(&pkg)
            .arg(&wasm);
        println!("build-web: {}", util::display(&cmd));
        util::run(&mut cmd)?;
    }

    let wasm_opt = ctx
        .wasm_opt
        .as_ref()
        .context("no wasm-opt: setup did not run")?;
    for (_, stem) in WASM_CRATES {
        let file = pkg.join(format!("{stem}_bg.wasm"));
        let mut cmd = ctx.cmd(wasm_opt);
        cmd.arg("-Oz")
            .args(WASM_OPT_FEATURES)
            .arg(&file)
            .arg("-o")
            .arg(&file);
        println!("build-web: wasm-opt -Oz {}", ctx.show(&file));
        util::run(&mut cmd)?;
    }

    let web = ctx.root.join("web");
    if !web.is_dir() {
        bail!("{} is missing", web.display());
    }
    let editor = ctx.root.join(EDITOR_DIR);
    copy_dir(&web, &site, &editor)?;
    // The digits ship inside the worker; their attribution ships beside them.
    let data = site.join("data");
    fs::create_dir_all(&data)?;
    fs::copy(
        ctx.root.join("crates/lessons/data/README.md"),
        data.join("README.md"),
    )
    .context("copying the digits' attribution (crates/lessons/data/README.md)")?;
    bundle_editor(ctx, &editor, &site)?;

    print_sizes(ctx, &site)?;
    Ok(site)
}

/// `web/editor/main.js` and the CodeMirror it imports, as one minified ES
/// module: `<site>/editor.js`.
fn bundle_editor(ctx: &Ctx, editor: &Path, site: &Path) -> Result<()> {
    let esbuild = editor.join("node_modules/.bin/esbuild");
    if !esbuild.is_file() {
        bail!(
            "{} is missing: run `cargo xtask setup` (npm ci in {EDITOR_DIR})",
            ctx.show(&esbuild)
        );
    }
    let mut cmd = ctx.cmd(&esbuild);
    cmd.current_dir(editor)
        .args([
            "main.js",
            "--bundle",
            "--format=esm",
            "--minify",
            "--target=es2020",
            "--log-level=warning",
        ])
        .arg(format!("--outfile={}", site.join("editor.js").display()));
    println!("build-web: esbuild {EDITOR_DIR}/main.js -> editor.js");
    util::run(&mut cmd)
}

/// Copies `from` into `to`, leaving out the directory `skip` (sources that
/// are built into the site rather than copied).
fn copy_dir(from: &Path, to: &Path, skip: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        if src == skip {
            continue;
        }
        if entry.file_type()?.is_dir() || src.is_dir() {
            copy_dir(&src, &dst, skip)?;
        } else {
            fs::copy(&src, &dst)
                .with_context(|| format!("copying {} to {}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            files_under(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Size of `data` gzipped at the best level (what a static host can serve).
pub fn gzip_len(data: &[u8]) -> Result<usize> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(data)?;
    Ok(encoder.finish()?.len())
}

/// `1234567` as `1,234,567`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn print_sizes(ctx: &Ctx, site: &Path) -> Result<()> {
    let mut files = Vec::new();
    files_under(site, &mut files)?;
    files.sort();
    let mut rows = Vec::new();
    for file in &files {
        let data = fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let name = file
            .strip_prefix(site)
            .unwrap_or(file)
            .to_string_lossy()
            .into_owned();
        rows.push((name, data.len(), gzip_len(&data)?));
    }
    let width = rows
        .iter()
        .map(|r| r.0.len())
        .max()
        .unwrap_or(0)
        .max("total (00 files)".len());
    println!("\nsite: {}", ctx.show(site));
    println!("{:<width$}  {:>12}  {:>12}", "file", "bytes", "gzip -9");
    for (name, raw, gz) in &rows {
        println!(
            "{name:<width$}  {:>12}  {:>12}",
            grouped(*raw),
            grouped(*gz)
        );
    }
    let raw: usize = rows.iter().map(|r| r.1).sum();
    let gz: usize = rows.iter().map(|r| r.2).sum();
    let label = format!("total ({} files)", rows.len());
    println!("{label:<width$}  {:>12}  {:>12}", grouped(raw), grouped(gz));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn gzip_shrinks_repetition() -> Result<()> {
        let data = vec![b'a'; 10_000];
        let len = gzip_len(&data)?;
        assert!(len > 18 && len < 100, "{len}");
        Ok(())
    }
}
