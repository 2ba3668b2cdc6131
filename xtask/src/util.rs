//! Paths, the child-process environment and running commands.

use std::env;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result, bail};

/// What every command needs: where the workspace and its target dir are, and
/// the `PATH` handed to child processes (with `~/.cargo/bin` on it).
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The workspace root (parent of `xtask/`).
    pub root: PathBuf,
    /// The cargo target dir: `CARGO_TARGET_DIR`, else `<root>/target`.
    pub target_dir: PathBuf,
    /// `PATH` for children: the caller's, with cargo's bin dir in front when missing.
    pub path: OsString,
    /// The cargo that runs xtask (`CARGO`), so children use the same toolchain.
    pub cargo: OsString,
    /// The wasm-opt to run, found or installed by setup.
    pub wasm_opt: Option<PathBuf>,
}

impl Ctx {
    pub fn new() -> Result<Self> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .context("xtask has no parent directory")?
            .to_path_buf();
        let target_dir = match env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                if dir.is_absolute() {
                    dir
                } else {
                    env::current_dir()
                        .context("reading the current directory")?
                        .join(dir)
                }
            }
            None => root.join("target"),
        };
        let cargo_bin = cargo_home().join("bin");
        let mut dirs: Vec<PathBuf> = env::var_os("PATH")
            .map(|p| env::split_paths(&p).collect())
            .unwrap_or_default();
        if !dirs.contains(&cargo_bin) {
            dirs.insert(0, cargo_bin);
        }
        let path = env::join_paths(dirs).context("PATH contains an invalid entry")?;
        let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        Ok(Self {
            root,
            target_dir,
            path,
            cargo,
            wasm_opt: None,
        })
    }

    /// A command run in the workspace root with the child `PATH`.
    pub fn cmd(&self, program: impl AsRef<OsStr>) -> Command {
        let program = program.as_ref();
        let resolved = if Path::new(program).components().count() == 1 {
            self.which(program).map(PathBuf::into_os_string)
        } else {
            None
        };
        let mut cmd = Command::new(resolved.as_deref().unwrap_or(program));
        cmd.current_dir(&self.root).env("PATH", &self.path);
        cmd
    }

    /// `cargo` with the given arguments.
    pub fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.cmd(&self.cargo);
        cmd.args(args);
        cmd
    }

    /// Looks a program up on the child `PATH`.
    pub fn which(&self, name: impl AsRef<OsStr>) -> Option<PathBuf> {
        let name = name.as_ref();
        env::split_paths(&self.path)
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
    }

    /// A path shown relative to the workspace root when it is inside it.
    pub fn show<'a>(&self, path: &'a Path) -> std::path::Display<'a> {
        path.strip_prefix(&self.root).unwrap_or(path).display()
    }
}

fn cargo_home() -> PathBuf {
    if let Some(home) = env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(home);
    }
    env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default()
        .join(".cargo")
}

pub fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The command line as a person would type it.
pub fn display(cmd: &Command) -> String {
    let mut out = String::new();
    for (key, val) in cmd.get_envs() {
        if key == "PATH" {
            continue;
        }
        if let Some(val) = val {
            out.push_str(&format!(
                "{}={} ",
                key.to_string_lossy(),
                val.to_string_lossy()
            ));
        }
    }
    let program = Path::new(cmd.get_program());
    let name = program.file_name().unwrap_or(program.as_os_str());
    out.push_str(&name.to_string_lossy());
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.contains(' ') || arg.is_empty() {
            out.push_str(&format!(" '{arg}'"));
        } else {
            out.push(' ');
            out.push_str(&arg);
        }
    }
    out
}

fn spawn_error(cmd: &Command, err: io::Error) -> anyhow::Error {
    let program = Path::new(cmd.get_program());
    let name = program.file_name().unwrap_or(program.as_os_str());
    if err.kind() == io::ErrorKind::NotFound {
        anyhow::anyhow!("`{}` not found on PATH", name.to_string_lossy())
    } else {
        anyhow::anyhow!("could not start `{}`: {err}", display(cmd))
    }
}

/// Runs a command with inherited stdio; an error when it cannot start or fails.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = status(cmd)?;
    if !status.success() {
        bail!("`{}` failed ({})", display(cmd), describe(status));
    }
    Ok(())
}

/// Bytes free to this user on the filesystem that holds `path`, from
/// POSIX `df -Pk` (no libc binding for one number).
pub fn free_bytes(path: &Path) -> Option<u64> {
    let out = output(Command::new("df").arg("-Pk").arg(path))?;
    let kib: u64 = out
        .lines()
        .nth(1)?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// A file's length and modification time (nanoseconds since the epoch), in
/// hex as `len-mtime`: what changes when a build rewrites it. The server's
/// ETags and build-web's stamps both name a file's version by it.
pub fn file_version(meta: &std::fs::Metadata) -> String {
    let nanos = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{:x}-{nanos:x}", meta.len())
}

/// Waits before each retry of a command that fetches from a registry
/// (crates.io, npm, Debian). A registry or the network can fail for a
/// moment (a reset connection, a 503, npm still upgrading itself when the
/// machine starts), and CI on a clean clone must not fail for that.
const FETCH_RETRY_WAITS: [Duration; 3] = [
    Duration::from_secs(5),
    Duration::from_secs(20),
    Duration::from_secs(60),
];

/// [`run`] for a command that downloads: tried again after each of
/// [`FETCH_RETRY_WAITS`], saying so, when its error output names a network
/// failure ([`network_failure`]), and failing at once otherwise (a package
/// that does not exist, a compile error in `cargo install`: trying again
/// would only spend minutes failing the same way). `after_failure` runs after
/// each failed attempt, given when the attempt began (to show the log npm
/// wrote since, say).
pub fn run_fetching(cmd: &mut Command, after_failure: impl Fn(SystemTime)) -> Result<()> {
    let mut waits = FETCH_RETRY_WAITS.iter();
    loop {
        let began = SystemTime::now();
        let (status, errors) = status_teeing_stderr(cmd)?;
        if status.success() {
            return Ok(());
        }
        after_failure(began);
        let failed = format!("`{}` failed ({})", display(cmd), describe(status));
        let Some(cause) = network_failure(&errors) else {
            bail!("{failed}, and not for the network (no download error in its output)");
        };
        match waits.next() {
            Some(wait) => {
                eprintln!(
                    "{failed}: \"{cause}\" in its output; trying again in {}s",
                    wait.as_secs()
                );
                std::thread::sleep(*wait);
            }
            None => bail!("{failed}, {} times", FETCH_RETRY_WAITS.len() + 1),
        }
    }
}

/// What apt, npm and cargo print when a download failed for the network
/// or the registry (lower case), rather than for what was asked.
const NETWORK_FAILURES: [&str; 31] = [
    "failed to fetch",
    "failed to download",
    "some index files failed to download",
    "unable to fetch some archives",
    "temporary failure",
    "could not resolve",
    "couldn't resolve",
    "could not connect",
    "couldn't connect",
    "connection refused",
    "connection reset",
    "connection failed",
    "timed out",
    "econnreset",
    "econnrefused",
    "etimedout",
    "eai_again",
    "enotfound",
    "enetunreach",
    "socket hang up",
    "spurious network error",
    "hash sum mismatch",
    // The registry's own trouble: apt's and cargo's HTTP status, npm's code.
    "bad gateway",
    "service unavailable",
    "gateway time",
    "got 502",
    "got 503",
    "got 504",
    "e502",
    "e503",
    "e504",
];

/// The network failure a failed download's error output names, if any.
pub fn network_failure(errors: &str) -> Option<&'static str> {
    let lower = errors.to_lowercase();
    NETWORK_FAILURES
        .into_iter()
        .find(|marker| lower.contains(marker))
}

/// Runs a command with stdout inherited and stderr passed through line by
/// line as it comes, returning its status and the end of its stderr (the
/// last 64 KiB: where apt, npm and cargo say why they failed).
fn status_teeing_stderr(cmd: &mut Command) -> Result<(ExitStatus, String)> {
    use std::io::BufRead;
    const KEPT: usize = 64 * 1024;
    let mut child = cmd
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| spawn_error(cmd, e))?;
    let mut kept = String::new();
    if let Some(stderr) = child.stderr.take() {
        for line in io::BufReader::new(stderr).split(b'\n') {
            let line = String::from_utf8_lossy(&line?).into_owned();
            eprintln!("{line}");
            kept.push_str(&line);
            kept.push('\n');
            if kept.len() > 2 * KEPT {
                let mut cut = kept.len() - KEPT;
                while !kept.is_char_boundary(cut) {
                    cut += 1;
                }
                kept.drain(..cut);
            }
        }
    }
    Ok((child.wait()?, kept))
}

/// Runs a command with inherited stdio and returns its status.
pub fn status(cmd: &mut Command) -> Result<ExitStatus> {
    cmd.status().map_err(|e| spawn_error(cmd, e))
}

/// Runs a command, killing it after `limit`.
pub fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Result<()> {
    let mut child = cmd.spawn().map_err(|e| spawn_error(cmd, e))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            if !status.success() {
                bail!("`{}` failed ({})", display(cmd), describe(status));
            }
            return Ok(());
        }
        if start.elapsed() > limit {
            // Best effort: the process may have just exited.
            let _ = child.kill();
            let _ = child.wait();
            bail!("`{}` timed out after {}s", display(cmd), limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// As [`run_with_timeout`], with stdout and stderr written to `log`
/// instead of the terminal, for commands that run beside others.
pub fn run_logged_with_timeout(cmd: &mut Command, log: &Path, limit: Duration) -> Result<()> {
    let out = std::fs::File::create(log)?;
    cmd.stdout(out.try_clone()?).stderr(out);
    run_with_timeout(cmd, limit)
}

/// Runs a command and returns its stdout (trimmed), or `None` when it cannot
/// start or fails.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => format!("{status}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_are_retried_for_the_network_only() {
        let network = [
            // apt-get install with the mirror unreachable
            "E: Failed to fetch http://deb.debian.org/debian/pool/main/c/chromium/chromium_1.deb  \
             Temporary failure resolving 'deb.debian.org'",
            // npm with the registry down or refusing
            "npm error code ECONNREFUSED\nnpm error syscall connect\nnpm error errno ECONNREFUSED",
            "npm error code E503\nnpm error 503 Service Unavailable - GET https://registry.npmjs.org/binaryen",
            // cargo install
            "warning: spurious network error (3 tries remaining): [28] Timeout was reached",
            "error: failed to download from `https://static.crates.io/crates/walrus/0.23.3/download`",
        ];
        for errors in network {
            assert!(network_failure(errors).is_some(), "{errors}");
        }
        let not_network = [
            "E: Unable to locate package chromium-drivr",
            "npm error code ETARGET\nnpm error notarget No matching version found for binaryen@999.0.0.",
            "error[E0425]: cannot find value `x` in this scope\nerror: failed to compile `wasm-bindgen-cli v0.2.108`",
            "",
        ];
        for errors in not_network {
            assert_eq!(network_failure(errors), None, "{errors}");
        }
    }

    #[test]
    fn a_failure_not_for_the_network_is_not_tried_again() {
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "echo 'E: Unable to locate package nosuch' >&2; exit 100",
        ]);
        let began = Instant::now();
        let attempts = std::cell::Cell::new(0);
        let err = run_fetching(&mut cmd, |_| attempts.set(attempts.get() + 1)).unwrap_err();
        assert_eq!(attempts.get(), 1);
        assert!(began.elapsed() < FETCH_RETRY_WAITS[0], "it waited to retry");
        let message = format!("{err:#}");
        assert!(message.contains("not for the network"), "{message}");
    }
}
