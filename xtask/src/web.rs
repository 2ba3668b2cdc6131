//! `cargo xtask build-web`: release wasm, wasm-bindgen, wasm-opt, the code
//! editor bundled by esbuild, and the static site under `<target>/site`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::util::{self, Ctx};

/// The wasm crates (package names), their library file stems, the
/// `wasm-opt` level each gets.
///
/// The worker (engine and RustPython, 23.7 MB out of wasm-bindgen) gets
/// `-O1`, not `-Oz`. Measured on the same module with npm binaryen 132 (2
/// cores, under load from other builds): `-O1` ran in 99 s and gave 20.0 MB,
/// 6.89 MB gzipped; `-Oz` took about 11 minutes for 18.7 MB, 6.94 MB
/// gzipped, so more bytes over the wire; `-Os` and `-O2` had not finished
/// after 12 and 7 minutes. In the page (tests/e2e/worker_ab.mjs, 5
/// interleaved rounds each, one run) the `-Oz` worker was the slow one:
/// Python start median 1,037 ms against 692, the chain 28.5 us/op against
/// 17.05; the module without wasm-opt ran as `-O1` did (714 ms, 17.2 us/op
/// against 717 ms, 15.6). The page's own module is small and loaded before
/// first paint, so it keeps `-Oz`.
///
/// Both build with one cargo profile, `wasm-release` (opt-level "s", and 3
/// for the crates a tensor op runs through: see the workspace Cargo.toml),
/// so the crates they share compile once.
const WASM_CRATES: &[WasmCrate] = &[
    WasmCrate {
        package: "gradscope-ui",
        stem: "gradscope_ui",
        level: "-Oz",
    },
    WasmCrate {
        package: "gradscope-webworker",
        stem: "gradscope_webworker",
        level: "-O1",
    },
];

/// The site's cargo profile; gradscope-stdlib's build output (the standard
/// library files the worker fetches) is under its directory.
const PROFILE: &str = "wasm-release";

/// One wasm crate of the site and how it is built.
struct WasmCrate {
    /// The package name.
    package: &'static str,
    /// Its library file stem.
    stem: &'static str,
    /// The `wasm-opt` level.
    level: &'static str,
}

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
    // The worker's JSPI glue (wasm-bindgen's `suspending` wrappers) catches
    // with `try_table`; without this wasm-opt rejects the module.
    "--enable-exception-handling",
];

/// The editor's npm project (CodeMirror 6 and esbuild), under the repository root.
pub const EDITOR_DIR: &str = "web/editor";

/// The lesson catalogue the widget shows before it loads the engine (titles,
/// programs, controls), written by the build from `gradscope-lessons`.
pub const EMBED_CATALOG: &str = "embed-lessons.json";

/// What a page with one widget loads before the engine is needed: the
/// loader in the host page, and the frame's page, script, styles and
/// catalogue. The yew app, the editor and the worker come later (when the
/// widget is seen or Run is pressed).
pub const WIDGET_BEFORE_ENGINE: &[&str] = &[
    "widget.js",
    "embed.html",
    "embed.js",
    "style.css",
    "embed.css",
    EMBED_CATALOG,
];

/// Issue 9's budget for [`WIDGET_BEFORE_ENGINE`], gzipped (150 KB, read as
/// the stricter 150,000 bytes).
pub const WIDGET_BUDGET_GZ: usize = 150_000;

/// The site directory.
pub fn site_dir(ctx: &Ctx) -> PathBuf {
    ctx.target_dir.join("site")
}

/// Builds the site; returns its directory.
pub fn build(ctx: &Ctx) -> Result<PathBuf> {
    // One build per crate: built together, cargo would unify their
    // features, and the page would carry what only the worker needs (the
    // lessons' checks and data).
    for krate in WASM_CRATES {
        let mut cmd = ctx.cargo([
            "build",
            "--profile",
            PROFILE,
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            krate.package,
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

    let wasm_dir = ctx.target_dir.join("wasm32-unknown-unknown");
    for krate in WASM_CRATES {
        let wasm = wasm_dir.join(PROFILE).join(format!("{}.wasm", krate.stem));
        if !wasm.is_file() {
            bail!("{} was not built: is the crate a cdylib?", wasm.display());
        }
        let bound = bind_and_optimise(ctx, &wasm, krate.stem, krate.level)?;
        copy_dir(&bound, &pkg, None)?;
    }
    for (blob, name) in stdlib_files(&wasm_dir.join(PROFILE))? {
        fs::copy(&blob, pkg.join(&name))
            .with_context(|| format!("copying {} to pkg/{name}", blob.display()))?;
    }

    let web = ctx.root.join("web");
    if !web.is_dir() {
        bail!("{} is missing", web.display());
    }
    let editor = ctx.root.join(EDITOR_DIR);
    copy_dir(&web, &site, Some(&editor))?;
    // The digits ship inside the worker; their attribution ships beside them.
    let data = site.join("data");
    fs::create_dir_all(&data)?;
    fs::copy(
        ctx.root.join("crates/lessons/data/README.md"),
        data.join("README.md"),
    )
    .context("copying the digits' attribution (crates/lessons/data/README.md)")?;
    bundle_editor(ctx, &editor, &site)?;
    fs::write(site.join(EMBED_CATALOG), catalog_json())
        .with_context(|| format!("writing {EMBED_CATALOG}"))?;

    print_sizes(ctx, &site)?;
    widget_budget(&site)?;
    Ok(site)
}

/// The standard library the worker fetches on a program's first import of
/// a module not frozen into it (crates/webworker/src/stdlib.rs): the files
/// gradscope-stdlib's build script wrote for the worker's wasm build (under
/// `profile_dir`), each with the name, its content hash in it, that the
/// worker asks for (`files.txt` beside them pairs the two). The newest
/// output, should older builds of the crate be left in `build/`.
fn stdlib_files(profile_dir: &Path) -> Result<Vec<(PathBuf, String)>> {
    let build = profile_dir.join("build");
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in fs::read_dir(&build).with_context(|| format!("reading {}", build.display()))? {
        let out = entry?.path().join("out");
        let list = out.join("files.txt");
        let is_stdlib = out
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n.to_string_lossy().starts_with("gradscope-stdlib-"));
        if !is_stdlib || !list.is_file() {
            continue;
        }
        let modified = fs::metadata(&list)?.modified()?;
        if newest.as_ref().is_none_or(|(t, _)| modified > *t) {
            newest = Some((modified, out));
        }
    }
    let Some((_, out)) = newest else {
        bail!("no gradscope-stdlib output under {}", build.display());
    };
    let list = fs::read_to_string(out.join("files.txt"))
        .with_context(|| format!("reading {}", out.join("files.txt").display()))?;
    let files = stdlib_file_names(&list).with_context(|| {
        format!(
            "{} is not `BLOB NAME` lines",
            out.join("files.txt").display()
        )
    })?;
    Ok(files
        .into_iter()
        .map(|(blob, name)| (out.join(blob), name))
        .collect())
}

/// The pairs of gradscope-stdlib's `files.txt`: each line a blob in its
/// output and the plain file name it ships as.
fn stdlib_file_names(list: &str) -> Option<Vec<(String, String)>> {
    let plain = |s: &str| !s.is_empty() && !s.contains(['/', '\\']) && !s.starts_with('.');
    let files: Option<Vec<_>> = list
        .lines()
        .map(|line| {
            let (blob, name) = line.split_once(' ')?;
            let kind = name.starts_with("stdlib-") || name.starts_with("packages-");
            (plain(blob) && plain(name) && kind).then(|| (blob.to_string(), name.to_string()))
        })
        .collect();
    files.filter(|f| !f.is_empty())
}

/// `wasm-bindgen` and then `wasm-opt` at `level` of one crate's module, into
/// `target/web-pkg/<stem>`, which the site's `pkg/` is copied from. Kept
/// while the module and the tools are what made it (a stamp of their
/// [`util::file_version`]s and the flags): `wasm-opt` takes minutes on the worker's 23 MB, and
/// `cargo xtask serve` after a change to the page alone, or run again
/// unchanged, would otherwise spend them every time.
fn bind_and_optimise(ctx: &Ctx, wasm: &Path, stem: &str, level: &str) -> Result<PathBuf> {
    let wasm_opt = ctx
        .wasm_opt
        .as_ref()
        .context("no wasm-opt: setup did not run")?;
    let bindgen = ctx
        .which("wasm-bindgen")
        .context("no wasm-bindgen: setup did not run")?;
    let made_of = |path: &Path| -> String {
        let version =
            fs::metadata(path).map_or_else(|_| "missing".into(), |m| util::file_version(&m));
        format!("{} {version}", path.display())
    };
    let stamp = [
        made_of(wasm),
        made_of(&bindgen),
        made_of(wasm_opt),
        format!("{level} {}", WASM_OPT_FEATURES.join(" ")),
    ]
    .join("\n");
    let dir = ctx.target_dir.join("web-pkg").join(stem);
    let stamp_file = dir.join(".made-of");
    let out = dir.join("pkg");
    if fs::read_to_string(&stamp_file).is_ok_and(|kept| kept == stamp) {
        println!(
            "build-web: {stem}: bound and optimised already ({})",
            ctx.show(&out)
        );
        return Ok(out);
    }
    if dir.exists() {
        fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    let mut cmd = ctx.cmd(&bindgen);
    cmd.args(["--target", "web", "--no-typescript", "--out-dir"])
        .arg(&out)
        .arg(wasm);
    println!("build-web: {}", util::display(&cmd));
    util::run(&mut cmd)?;
    let file = out.join(format!("{stem}_bg.wasm"));
    let mut cmd = ctx.cmd(wasm_opt);
    cmd.arg(level)
        .args(WASM_OPT_FEATURES)
        .arg(&file)
        .arg("-o")
        .arg(&file);
    println!("build-web: wasm-opt {level} {}", ctx.show(&file));
    util::run(&mut cmd)?;
    // Written last: a build stopped halfway leaves no stamp, so it is redone.
    fs::write(&stamp_file, stamp).with_context(|| format!("writing {}", stamp_file.display()))?;
    Ok(out)
}

/// Writes, into `dir`, the demo article as another site would serve it: its
/// page and stylesheet with the loader fetched from `site_url` (the site's
/// origin, e.g. `http://127.0.0.1:8080/`), so the widgets are cross-origin
/// frames. The e2e test serves `dir` on a second port.
pub fn write_demo_host(site: &Path, site_url: &str, dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let page =
        fs::read_to_string(site.join("embed-demo.html")).context("reading embed-demo.html")?;
    const LOADER: &str = "src=\"./widget.js\"";
    if !page.contains(LOADER) {
        bail!("embed-demo.html no longer loads {LOADER}: update write_demo_host");
    }
    let page = page.replace(LOADER, &format!("src=\"{site_url}widget.js\""));
    fs::write(dir.join("index.html"), page)?;
    fs::copy(site.join("embed-demo.css"), dir.join("embed-demo.css"))
        .context("copying embed-demo.css")?;
    Ok(())
}

/// Prints what the widget loads before the engine, gzipped, and fails the
/// build when it is over [`WIDGET_BUDGET_GZ`].
pub fn widget_budget(site: &Path) -> Result<usize> {
    let mut total = 0;
    let mut parts = Vec::new();
    for name in WIDGET_BEFORE_ENGINE {
        let path = site.join(name);
        let data = fs::read(&path)
            .with_context(|| format!("reading {} (the widget needs it)", path.display()))?;
        let gz = gzip_len(&data)?;
        parts.push(format!("{name} {}", grouped(gz)));
        total += gz;
    }
    println!(
        "widget before the engine: {} bytes gzipped of a {} budget ({})",
        grouped(total),
        grouped(WIDGET_BUDGET_GZ),
        parts.join(", ")
    );
    check_budget(total)?;
    Ok(total)
}

fn check_budget(total: usize) -> Result<()> {
    if total > WIDGET_BUDGET_GZ {
        bail!(
            "the widget loads {} bytes gzipped before the engine, over its budget of {}",
            grouped(total),
            grouped(WIDGET_BUDGET_GZ)
        );
    }
    Ok(())
}

/// The lessons as the widget's first view needs them, as JSON: slug,
/// number, title, program, text and the controls' names and labels.
pub fn catalog_json() -> String {
    let lessons: Vec<String> = gradscope_lessons::lessons()
        .iter()
        .map(|l| {
            let controls: Vec<String> = l
                .controls
                .iter()
                .map(|c| {
                    format!(
                        "{{\"name\":{},\"label\":{}}}",
                        json_string(c.name),
                        json_string(c.label)
                    )
                })
                .collect();
            format!(
                "{{\"slug\":{},\"number\":{},\"title\":{},\"program\":{},\"text\":{},\"controls\":[{}]}}",
                json_string(l.slug),
                l.number,
                json_string(l.title),
                json_string(l.program),
                json_string(l.text),
                controls.join(",")
            )
        })
        .collect();
    format!("{{\"lessons\":[\n{}\n]}}\n", lessons.join(",\n"))
}

/// `s` as a JSON string literal; `<` is escaped too, so the text can never
/// close a script element it might be pasted into.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '<' => out.push_str("\\u003c"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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

/// Copies `from` into `to`, leaving out the directory `skip` where one is
/// given (sources that are built into the site rather than copied).
fn copy_dir(from: &Path, to: &Path, skip: Option<&Path>) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        if skip == Some(src.as_path()) {
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
    fn stdlib_files_are_read_from_the_list() {
        let list = "rest-0.bin stdlib-00ff.bin\nrest-1.bin stdlib-11ee.bin\n";
        assert_eq!(
            stdlib_file_names(list),
            Some(vec![
                ("rest-0.bin".to_string(), "stdlib-00ff.bin".to_string()),
                ("rest-1.bin".to_string(), "stdlib-11ee.bin".to_string()),
            ])
        );
        assert_eq!(stdlib_file_names("rest-0.bin ../stdlib-x.bin"), None);
        assert_eq!(stdlib_file_names("rest-0.bin"), None);
        assert_eq!(stdlib_file_names(""), None);
    }

    #[test]
    fn groups_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn json_strings_escape() {
        assert_eq!(json_string("a"), r#""a""#);
        assert_eq!(json_string("\"q\"\\"), r#""\"q\"\\""#);
        assert_eq!(json_string("l1\nl2\t"), r#""l1\nl2\t""#);
        assert_eq!(json_string("</script>"), r#""\u003c/script>""#);
        assert_eq!(json_string("\u{1}"), r#""\u0001""#);
        assert_eq!(json_string("é"), "\"é\"");
    }

    #[test]
    fn catalog_holds_every_lesson() {
        let json = catalog_json();
        for lesson in gradscope_lessons::lessons() {
            assert!(
                json.contains(&format!("\"slug\":\"{}\"", lesson.slug)),
                "{}",
                lesson.slug
            );
        }
        assert!(json.contains("ZERO_GRAD = True"), "programs are in it");
        assert!(json.starts_with("{\"lessons\":["));
    }

    #[test]
    fn pages_carry_the_servers_policy() -> Result<()> {
        // Static hosts send no header: the meta tag must say the same.
        let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
        let meta = format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            crate::server::CONTENT_SECURITY_POLICY
        );
        for page in ["index.html", "embed.html"] {
            let text = fs::read_to_string(web.join(page))?;
            assert!(text.contains(&meta), "{page} lacks {meta}");
            // Inline scripts would be refused by the policy.
            assert!(
                !text.contains("<script>") && !text.contains("<script type=\"module\">"),
                "{page}"
            );
        }
        Ok(())
    }

    #[test]
    fn demo_host_loads_the_loader_from_the_site() -> Result<()> {
        let dir = std::env::temp_dir().join(format!("xtask-demo-host-{}", std::process::id()));
        let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
        write_demo_host(&web, "http://127.0.0.1:9/", &dir)?;
        let page = fs::read_to_string(dir.join("index.html"))?;
        assert!(page.contains("<script src=\"http://127.0.0.1:9/widget.js\" defer>"));
        assert_eq!(page.matches("<gradscope-widget").count(), 3);
        assert!(dir.join("embed-demo.css").is_file());
        fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn budget_refuses_more_than_150_kb() {
        assert!(check_budget(WIDGET_BUDGET_GZ).is_ok());
        assert!(check_budget(WIDGET_BUDGET_GZ + 1).is_err());
    }

    #[test]
    fn gzip_shrinks_repetition() -> Result<()> {
        let data = vec![b'a'; 10_000];
        let len = gzip_len(&data)?;
        assert!(len > 18 && len < 100, "{len}");
        Ok(())
    }
}
