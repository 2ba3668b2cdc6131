//! `cargo xtask setup`: finds what the build and the tests need and installs
//! what is missing. Fast when everything is there: a few file checks and
//! `--version` calls.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result, bail};

use crate::util::{self, Ctx};

/// The npm `binaryen` whose wasm-opt is used when none is on PATH.
const BINARYEN_NPM_VERSION: &str = "132.0.0";
/// The oldest wasm-opt on PATH that is used (Debian 12's is older).
const MIN_WASM_OPT_VERSION: u32 = 116;

const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const VULKAN_ICD_DIR: &str = "/usr/share/vulkan/icd.d";

/// How much to set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The wasm toolchain: target, wasm-bindgen-cli, wasm-opt, and the
    /// editor's npm packages (`build-web`, `serve`).
    Wasm,
    /// Everything `test` needs besides: lavapipe, Chromium, chromedriver, node
    /// and the e2e npm dependencies.
    Test,
}

/// Checks and installs; prints one line when all was present, otherwise what it did.
pub fn run(ctx: &mut Ctx, level: Level) -> Result<()> {
    let start = Instant::now();
    if level == Level::Test {
        warn_low_disk(ctx);
    }
    let mut present = Vec::new();
    let mut installed = Vec::new();
    let mut note = |did_install: bool, what: String| {
        if did_install {
            installed.push(what);
        } else {
            present.push(what);
        }
    };

    let (did, what) = wasm_target(ctx)?;
    note(did, what);
    let (did, what) = wasm_bindgen(ctx)?;
    note(did, what);
    let (did, what) = wasm_opt(ctx)?;
    note(did, what);
    let (did, what) = npm_deps(ctx, crate::web::EDITOR_DIR, "editor node_modules")?;
    note(did, what);
    if level == Level::Test {
        for (did, what) in system_packages(ctx)? {
            note(did, what);
        }
        let (did, what) = npm_deps(ctx, "tests/e2e", "e2e node_modules")?;
        note(did, what);
    }

    let secs = start.elapsed().as_secs_f64();
    if installed.is_empty() {
        println!(
            "setup: everything present in {secs:.2}s: {}",
            present.join(", ")
        );
    } else {
        println!(
            "setup: installed {}; already present: {} ({secs:.1}s)",
            installed.join(", "),
            present.join(", ")
        );
    }
    Ok(())
}

/// About what a cold `cargo xtask test` writes under the target dir (8.4 GiB
/// measured on a clean clone, tools and browser profiles included).
const COLD_TEST_BYTES: u64 = 10 << 30;

/// Says so up front when the disk cannot hold a cold test run: otherwise it
/// fails minutes later inside npm, rustc or the linker, saying only ENOSPC.
fn warn_low_disk(ctx: &Ctx) {
    let dir = ctx
        .target_dir
        .ancestors()
        .find(|p| p.exists())
        .unwrap_or(&ctx.root);
    if let Some(free) = util::free_bytes(dir)
        && free < COLD_TEST_BYTES
    {
        let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
        println!(
            "setup: warning: {:.1} GiB free on the disk of {}; a cold `cargo xtask test` \
             writes about {:.0} GiB there, and fails with `No space left on device` when it \
             runs out",
            gib(free),
            ctx.show(dir),
            gib(COLD_TEST_BYTES)
        );
    }
}

/// The rust sysroot has the wasm32 std, else `rustup target add`.
fn wasm_target(ctx: &Ctx) -> Result<(bool, String)> {
    let has_target = || {
        util::output(ctx.cmd("rustc").args(["--print", "sysroot"]))
            .map(|root| {
                Path::new(&root)
                    .join("lib/rustlib")
                    .join(WASM_TARGET)
                    .join("lib")
                    .is_dir()
            })
            .unwrap_or(false)
    };
    if has_target() {
        return Ok((false, format!("{WASM_TARGET} target")));
    }
    let hint = format!("`rustup target add {WASM_TARGET}`");
    if ctx.which("rustup").is_none() {
        bail!(
            "the {WASM_TARGET} target is missing and rustup is not on PATH: \
             install Rust with rustup, then run {hint}"
        );
    }
    println!("setup: adding the {WASM_TARGET} target");
    let ok = util::status(ctx.cmd("rustup").args(["target", "add", WASM_TARGET]))
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok || !has_target() {
        bail!(
            "could not add the {WASM_TARGET} target: run {hint} \
             (it downloads from static.rust-lang.org)"
        );
    }
    Ok((true, format!("{WASM_TARGET} target")))
}

/// Every version of package `name` in a Cargo.lock.
pub fn lock_versions(lock: &str, name: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut current: Option<&str> = None;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            current = None;
        } else if let Some(v) = line.strip_prefix("name = ") {
            current = Some(v.trim_matches('"'));
        } else if let Some(v) = line.strip_prefix("version = ")
            && current == Some(name)
        {
            versions.push(v.trim_matches('"').to_string());
        }
    }
    versions
}

/// The wasm-bindgen version in Cargo.lock, resolving the lock file first when
/// it is missing or does not list wasm-bindgen yet.
fn locked_wasm_bindgen(ctx: &Ctx) -> Result<String> {
    let lock_path = ctx.root.join("Cargo.lock");
    let read = || -> Vec<String> {
        fs::read_to_string(&lock_path)
            .map(|lock| lock_versions(&lock, "wasm-bindgen"))
            .unwrap_or_default()
    };
    let mut versions = read();
    if versions.is_empty() {
        println!("setup: resolving Cargo.lock");
        let mut cmd = ctx.cargo(["metadata", "--format-version", "1"]);
        cmd.stdout(Stdio::null());
        util::run(&mut cmd).context("resolving the workspace to find the wasm-bindgen version")?;
        versions = read();
    }
    match versions.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!("Cargo.lock has no wasm-bindgen package; the wasm crates depend on it"),
        many => bail!(
            "Cargo.lock has several wasm-bindgen versions ({}); wasm-bindgen-cli can match \
             only one: pin one version in [workspace.dependencies]",
            many.join(", ")
        ),
    }
}

/// The version a tool prints as `<name> <version>`.
fn tool_version(ctx: &Ctx, name: &str) -> Option<String> {
    ctx.which(name)?;
    let out = util::output(ctx.cmd(name).arg("--version"))?;
    out.split_whitespace().nth(1).map(str::to_string)
}

/// wasm-bindgen and wasm-bindgen-test-runner at the version in Cargo.lock.
fn wasm_bindgen(ctx: &Ctx) -> Result<(bool, String)> {
    let want = locked_wasm_bindgen(ctx)?;
    let what = format!("wasm-bindgen {want}");
    let matches = || {
        ["wasm-bindgen", "wasm-bindgen-test-runner"]
            .iter()
            .all(|tool| tool_version(ctx, tool).as_deref() == Some(want.as_str()))
    };
    if matches() {
        return Ok((false, what));
    }
    let have = tool_version(ctx, "wasm-bindgen").unwrap_or_else(|| "none".into());
    println!("setup: installing wasm-bindgen-cli {want} (found: {have}); a few minutes on 2 cores");
    // No --locked: it fails on this registry. --force replaces a binary of another version.
    let mut cmd = ctx.cargo(["install", "wasm-bindgen-cli", "--force", "--version", &want]);
    util::run_fetching(&mut cmd, |_| {}).with_context(|| {
        format!(
            "installing wasm-bindgen-cli failed; \
             run `cargo install wasm-bindgen-cli --version {want}`"
        )
    })?;
    if !matches() {
        bail!(
            "wasm-bindgen {want} was installed but `wasm-bindgen --version` disagrees: \
             put ~/.cargo/bin first on PATH"
        );
    }
    Ok((true, what))
}

/// The number in `wasm-opt version 116 (version_116)`.
pub fn parse_wasm_opt_version(out: &str) -> Option<u32> {
    let rest = out.split("version").nth(1)?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// A recent wasm-opt on PATH, else npm's `binaryen` under `<target>/tools`.
fn wasm_opt(ctx: &mut Ctx) -> Result<(bool, String)> {
    if let Some(path) = ctx.which("wasm-opt") {
        let version = util::output(ctx.cmd(&path).arg("--version"))
            .as_deref()
            .and_then(parse_wasm_opt_version);
        match version {
            Some(v) if v >= MIN_WASM_OPT_VERSION => {
                ctx.wasm_opt = Some(path);
                return Ok((false, format!("wasm-opt {v}")));
            }
            _ => {} // too old or broken: use npm's
        }
    }
    let tools = ctx.target_dir.join("tools");
    let package = tools.join("node_modules/binaryen");
    let bin = package.join("bin/wasm-opt");
    let version_ok = || {
        fs::read_to_string(package.join("package.json"))
            .map(|p| p.contains(&format!("\"version\": \"{BINARYEN_NPM_VERSION}\"")))
            .unwrap_or(false)
            && bin.is_file()
    };
    let what = format!("wasm-opt {BINARYEN_NPM_VERSION} (npm binaryen)");
    if version_ok() {
        ctx.wasm_opt = Some(bin);
        return Ok((false, what));
    }
    if ctx.which("npm").is_none() || ctx.which("node").is_none() {
        bail!(
            "wasm-opt is missing: install node and npm (apt-get install -y nodejs npm) for npm's \
             binaryen, or put binaryen >= {MIN_WASM_OPT_VERSION}'s wasm-opt on PATH"
        );
    }
    println!(
        "setup: installing binaryen@{BINARYEN_NPM_VERSION} into {}",
        ctx.show(&tools)
    );
    fs::create_dir_all(&tools).with_context(|| format!("creating {}", tools.display()))?;
    let mut cmd = ctx.cmd("npm");
    cmd.arg("install")
        .arg("--prefix")
        .arg(&tools)
        .args(["--no-audit", "--no-fund", "--loglevel=error"])
        .arg(format!("binaryen@{BINARYEN_NPM_VERSION}"));
    util::run_fetching(&mut cmd, npm_log_tail).context("installing npm's binaryen for wasm-opt")?;
    if !version_ok() {
        bail!("npm installed binaryen but {} is missing", bin.display());
    }
    ctx.wasm_opt = Some(bin);
    Ok((true, what))
}

/// The lavapipe Vulkan ICD json, if installed.
pub fn lavapipe_icd() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(VULKAN_ICD_DIR)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("lvp_icd.") && n.ends_with(".json"))
        })
        .collect();
    found.sort();
    // Prefer the one for this machine's architecture.
    let arch = format!("lvp_icd.{}.json", std::env::consts::ARCH);
    found
        .iter()
        .find(|p| p.ends_with(&arch))
        .or(found.first())
        .cloned()
}

fn has_libvulkan() -> bool {
    let mut dirs = vec![
        PathBuf::from("/usr/lib64"),
        PathBuf::from("/usr/lib"),
        PathBuf::from("/lib64"),
    ];
    if let Ok(entries) = fs::read_dir("/usr/lib") {
        dirs.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().ends_with("-linux-gnu")),
        );
    }
    dirs.iter().any(|d| d.join("libvulkan.so.1").exists())
}

fn is_root() -> bool {
    // /proc/self/status: "Uid:\treal\teffective\t...".
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|uid| uid == "0"))
        })
        .unwrap_or(false)
}

/// One thing the tests need from the system, and the Debian packages that give it.
struct SystemNeed {
    what: &'static str,
    present: fn(&Ctx) -> bool,
    packages: &'static [&'static str],
}

const SYSTEM_NEEDS: &[SystemNeed] = &[
    SystemNeed {
        what: "lavapipe (Mesa Vulkan)",
        present: |_| lavapipe_icd().is_some() && has_libvulkan(),
        packages: &["mesa-vulkan-drivers", "libvulkan1", "vulkan-tools"],
    },
    SystemNeed {
        what: "chromium",
        present: |_| util::is_executable(Path::new(CHROMIUM)),
        packages: &["chromium"],
    },
    SystemNeed {
        what: "chromedriver",
        present: |_| util::is_executable(Path::new(CHROMEDRIVER)),
        packages: &["chromium-driver"],
    },
    SystemNeed {
        what: "node",
        present: |ctx| ctx.which("node").is_some(),
        packages: &["nodejs"],
    },
    SystemNeed {
        what: "npm",
        present: |ctx| ctx.which("npm").is_some(),
        packages: &["npm"],
    },
];

/// Lavapipe, Chromium, chromedriver, node: apt-get when root, else one line.
fn system_packages(ctx: &Ctx) -> Result<Vec<(bool, String)>> {
    let missing: Vec<&SystemNeed> = SYSTEM_NEEDS.iter().filter(|n| !(n.present)(ctx)).collect();
    if missing.is_empty() {
        return Ok(SYSTEM_NEEDS
            .iter()
            .map(|n| (false, n.what.to_string()))
            .collect());
    }
    let names: Vec<&str> = missing.iter().map(|n| n.what).collect();
    let packages: Vec<&str> = missing
        .iter()
        .flat_map(|n| n.packages.iter().copied())
        .collect();
    let install = format!("apt-get install -y {}", packages.join(" "));
    if !is_root() {
        bail!(
            "missing {}: install them as root with `{install}`",
            names.join(", ")
        );
    }
    if ctx.which("apt-get").is_none() {
        bail!(
            "missing {}: no apt-get here; install the equivalent of the Debian packages {}",
            names.join(", "),
            packages.join(" ")
        );
    }
    println!(
        "setup: installing {} with apt-get ({})",
        names.join(", "),
        packages.join(" ")
    );
    // Wait for another apt/dpkg instead of failing on its lock.
    let lock_wait = "DPkg::Lock::Timeout=900";
    let mut update = ctx.cmd("apt-get");
    update
        .args(["-o", lock_wait, "update"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    util::run_fetching(&mut update, |_| {})
        .with_context(|| format!("apt-get update failed; then run `{install}`"))?;
    let mut cmd = ctx.cmd("apt-get");
    cmd.args(["-o", lock_wait, "install", "-y"])
        .args(&packages)
        .env("DEBIAN_FRONTEND", "noninteractive");
    util::run_fetching(&mut cmd, |_| {}).with_context(|| format!("`{install}` failed"))?;
    let still: Vec<&str> = missing
        .iter()
        .filter(|n| !(n.present)(ctx))
        .map(|n| n.what)
        .collect();
    if !still.is_empty() {
        bail!("still missing after apt-get: {}", still.join(", "));
    }
    Ok(SYSTEM_NEEDS
        .iter()
        .map(|n| (missing.iter().any(|m| m.what == n.what), n.what.to_string()))
        .collect())
}

fn mtime(path: &Path) -> Option<SystemTime> {
    path.metadata().and_then(|m| m.modified()).ok()
}

/// `npm ci` in `dir` (relative to the root) when its node_modules is
/// missing or older than its lock file.
fn npm_deps(ctx: &Ctx, dir: &str, what: &str) -> Result<(bool, String)> {
    let path = ctx.root.join(dir);
    let what = what.to_string();
    if !path.join("package.json").is_file() {
        return Ok((false, format!("{what} (no {dir}/package.json)")));
    }
    let lock = path.join("package-lock.json");
    let Some(lock_time) = mtime(&lock) else {
        bail!("{dir}/package-lock.json is missing: run `npm install` in {dir} and commit it");
    };
    // npm writes node_modules/.package-lock.json on every install.
    let fresh =
        mtime(&path.join("node_modules/.package-lock.json")).is_some_and(|t| t >= lock_time);
    if fresh {
        return Ok((false, what));
    }
    if ctx.which("npm").is_none() {
        bail!("npm is missing, which {dir} needs: apt-get install -y nodejs npm");
    }
    println!("setup: npm ci in {dir}");
    let mut cmd = ctx.cmd("npm");
    cmd.args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&path);
    util::run_fetching(&mut cmd, npm_log_tail)
        .with_context(|| format!("installing the npm dependencies of {dir}"))?;
    Ok((true, what))
}

/// The end of npm's newest debug log, if npm wrote it after `since`: with
/// `--loglevel=error` npm may print only where the log is, and CI keeps
/// nothing but what was printed.
fn npm_log_tail(since: SystemTime) {
    let Some(home) = std::env::var_os("HOME") else {
        return;
    };
    let logs = Path::new(&home).join(".npm/_logs");
    let newest = fs::read_dir(&logs).ok().and_then(|entries| {
        entries
            .flatten()
            .filter_map(|e| Some((mtime(&e.path())?, e.path())))
            .max()
    });
    let Some((written, log)) = newest else {
        return;
    };
    if written < since {
        return; // npm failed before it wrote a log: an older one says nothing
    }
    let Ok(text) = fs::read_to_string(&log) else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    eprintln!("setup: the end of {}:", log.display());
    for line in &lines[lines.len().saturating_sub(25)..] {
        eprintln!("  {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_free_disk_space() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let free = util::free_bytes(root).expect("df reads the workspace's disk");
        assert!(free > 0, "df read 0 bytes free");
        assert_eq!(util::free_bytes(&root.join("no such dir")), None);
    }

    #[test]
    fn finds_locked_versions() {
        let lock = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "wasm-bindgen-macro",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.131"
"#;
        assert_eq!(lock_versions(lock, "wasm-bindgen"), ["0.2.130"]);
        assert_eq!(lock_versions(lock, "wasm-bindgen-macro"), ["0.2.131"]);
        assert!(lock_versions(lock, "yew").is_empty());
    }

    #[test]
    fn parses_wasm_opt_version() {
        assert_eq!(
            parse_wasm_opt_version("wasm-opt version 116 (version_116)"),
            Some(116)
        );
        assert_eq!(parse_wasm_opt_version("wasm-opt version 108"), Some(108));
        assert_eq!(parse_wasm_opt_version("nonsense"), None);
    }
}
