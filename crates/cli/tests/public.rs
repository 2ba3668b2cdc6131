//! The public corpus (`tests/public/`: programs written by others, with
//! what real PyTorch 2.15 printed) run as a user runs them: `gradscope run
//! NAME.py` from the program's own folder, stdout and stderr in one pipe as
//! `> NAME.out 2>&1` recorded them, compared by the rules of the corpus test
//! (`crates/python/tests/compare/mod.rs`): numbers within its tolerance,
//! addresses ignored, every number masked for the programs whose INDEX.tsv
//! `deterministic` column starts with `masked` (timings, `id()`s), either
//! `NAME.out` or `NAME.out1` (recorded with one thread) accepted, or,
//! where PyTorch's two recordings print a number differently, that number
//! within their spread (`compare_within_spread`; such passes are printed
//! and counted apart),
//! `torch.__version__`'s local part (`+cu132`) left out, a warning from
//! inside PyTorch compared by its text, and a line redrawn with `\r` (a
//! tqdm bar) compared as a terminal shows it, by its last drawing.
//!
//! It prints a line per program and `N of M pass`. The programs expected to
//! fail are listed with their reasons in `tests/public/EXPECTED_FAILURES.tsv`:
//! the test fails when an unlisted program fails and when a listed one
//! passes (take it off the list then). First it checks that the vendored
//! copy is the shared one (`../shared/public` beside the checkout, or
//! `GRADSCOPE_PUBLIC_SOURCE`) when that exists.
//!
//! `tests/public-found/` (more programs of the same kind, found and recorded
//! the same way) is run and judged by the same rules, with its own
//! `EXPECTED_FAILURES.tsv` and its own count.
//!
//! `cargo test -p gradscope-cli --test public [NAME...]` runs all programs,
//! or those whose `corpus/folder/name` contains a NAME (`public-found/`,
//! `public/tutorials`, `regression`; then the list is not checked for
//! programs that were not run).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

#[path = "../../python/tests/compare/mod.rs"]
mod compare;
use compare::{Numbers, compare_with, compare_within_spread, library_warnings_by_text, self_check};

/// Each program's time limit: the slowest recorded PyTorch run took 94 s on
/// a loaded machine, and the slowest passing program about 60 s in the
/// test build (the engine at opt-level 1) on a loaded one; a program still
/// running after this is far too slow, and CI's time is better spent on
/// the others.
const TIME_LIMIT_SECS: u32 = 120;

/// The corpora under `tests/`: `public`, the shared corpus, vendored
/// unmodified; `public-found`, more programs of the same kind found and
/// recorded the same way (its README says where from).
const CORPORA: [&str; 2] = ["public", "public-found"];

fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// One program of an INDEX.tsv.
#[derive(Debug, Clone)]
struct Program {
    /// `folder/name` as INDEX.tsv names it under its folder
    /// (`examples/gat/main`).
    name: String,
    /// The directory it runs from.
    dir: PathBuf,
    /// Its file name there (`main.py`).
    file: String,
    masked: bool,
    exit: i32,
}

fn programs(public: &Path) -> Result<Vec<Program>, String> {
    let mut out = vec![];
    let mut groups: Vec<String> = std::fs::read_dir(public)
        .map_err(|e| format!("{}: {e}", public.display()))?
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("INDEX.tsv").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    groups.sort();
    if groups.is_empty() {
        return Err(format!("{}: no folder with an INDEX.tsv", public.display()));
    }
    for group in &groups {
        let group = group.as_str();
        let index_path = public.join(group).join("INDEX.tsv");
        let index = std::fs::read_to_string(&index_path)
            .map_err(|e| format!("{}: {e}", index_path.display()))?;
        let mut lines = index.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        let column = |name: &str| {
            header
                .iter()
                .position(|h| *h == name)
                .ok_or_else(|| format!("{}: no column '{name}'", index_path.display()))
        };
        let (name_col, exit_col, det_col) =
            (column("name")?, column("exit")?, column("deterministic")?);
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let cells: Vec<&str> = line.split('\t').collect();
            let cell = |i: usize| cells.get(i).copied().unwrap_or_default();
            let name = cell(name_col);
            let path = public.join(group).join(format!("{name}.py"));
            let (dir, file) = match (path.parent(), path.file_name()) {
                (Some(d), Some(f)) => (d.to_path_buf(), f.to_string_lossy().into_owned()),
                _ => return Err(format!("{}: bad name '{name}'", index_path.display())),
            };
            out.push(Program {
                name: format!("{group}/{name}"),
                dir,
                file,
                masked: cell(det_col).starts_with("masked"),
                exit: cell(exit_col).parse().unwrap_or(0),
            });
        }
    }
    Ok(out)
}

/// `tests/public/EXPECTED_FAILURES.tsv`: name, then why it fails.
fn expected_failures(public: &Path) -> Result<BTreeMap<String, String>, String> {
    let path = public.join("EXPECTED_FAILURES.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let (name, reason) = line.split_once('\t').unwrap_or((line, ""));
        if reason.trim().is_empty() {
            return Err(format!("{}: '{name}' has no reason", path.display()));
        }
        out.insert(name.to_string(), reason.to_string());
    }
    Ok(out)
}

/// `torch.__version__` is compared before its `+`: the part after it names
/// the build (the recording's CUDA `2.15.0+cu132`, our `2.15.0+gradscope`),
/// not the version. Only an `X.Y.Z+label` loses its label.
fn without_local_versions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('+') {
        let (before, after) = (&rest[..i], &rest[i + 1..]);
        out.push_str(before);
        let version = before
            .rsplit(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .unwrap_or_default();
        let local_len = after
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        let is_version =
            version.split('.').count() == 3 && version.split('.').all(|p| !p.is_empty());
        let is_build = after[..local_len]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic());
        if is_version && is_build {
            rest = &after[local_len..];
        } else {
            out.push('+');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Each line as a terminal shows it: the text after its last carriage
/// return. A progress bar (tqdm) redraws its line with `\r` as often as
/// time allows, so how many drawings a recording holds is a timing; the
/// last drawing is what the program printed.
fn as_a_terminal_shows(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let (body, end) = line
                .strip_suffix('\n')
                .map_or((line, ""), |body| (body, "\n"));
            let shown = body.trim_end_matches('\r');
            let shown = shown.rsplit('\r').next().unwrap_or(shown);
            format!("{shown}{end}")
        })
        .collect()
}

/// What the program printed, stdout and stderr in the order written (one
/// pipe for both, as `2>&1`), and its exit code.
fn run(program: &Program) -> Result<(String, i32, Duration), String> {
    let start = Instant::now();
    let (mut reader, writer) = std::io::pipe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gradscope"));
    cmd.args([
        "run",
        "--time-limit",
        &TIME_LIMIT_SECS.to_string(),
        &program.file,
    ])
    .current_dir(&program.dir)
    .stdin(std::process::Stdio::null())
    .stdout(writer.try_clone().map_err(|e| e.to_string())?)
    .stderr(writer);
    let mut child = cmd.spawn().map_err(|e| format!("gradscope run: {e}"))?;
    // The pipe's write ends live in the child only, so reading ends when it does.
    drop(cmd);
    let mut bytes = vec![];
    reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((
        String::from_utf8_lossy(&bytes).into_owned(),
        status.code().unwrap_or(-1),
        start.elapsed(),
    ))
}

/// How a program's output matched PyTorch's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    /// Within the tolerance of one recording.
    Recording,
    /// Only within the spread of the two recordings
    /// ([`compare_within_spread`]): counted as a pass, and printed as one
    /// of its own kind so the count can be read both ways.
    Spread,
}

/// How the program printed what PyTorch printed (in either recording, or
/// within their spread) and exited as it did; else the first difference.
fn judge(program: &Program, output: &str, exit: i32) -> Result<Match, String> {
    let numbers = if program.masked {
        Numbers::Masked
    } else {
        Numbers::Tolerance
    };
    let stem = program.file.trim_end_matches(".py");
    let clean = |text: &str| {
        library_warnings_by_text(
            &as_a_terminal_shows(&without_local_versions(text)),
            &program.file,
        )
    };
    let actual = clean(output);
    let exited = || {
        if exit == program.exit {
            Ok(())
        } else {
            Err(format!("exit code {exit}, PyTorch's was {}", program.exit))
        }
    };
    let mut first = None;
    let mut recordings = vec![];
    for suffix in ["out", "out1"] {
        let Ok(expected) = std::fs::read_to_string(program.dir.join(format!("{stem}.{suffix}")))
        else {
            continue;
        };
        let expected = clean(&expected);
        match compare_with(&expected, &actual, numbers) {
            None => return exited().map(|()| Match::Recording),
            Some(diff) => {
                first.get_or_insert(format!("vs {stem}.{suffix}: {diff}"));
            }
        }
        recordings.push(expected);
    }
    if let [out, out1] = &recordings[..]
        && compare_within_spread(out, out1, &actual).is_none()
    {
        return exited().map(|()| Match::Spread);
    }
    Err(first.unwrap_or_else(|| format!("no {stem}.out recorded")))
}

/// The first line of the exception a failing program ended with, if any:
/// the reason worth reporting. It is the first line after the last
/// traceback's frames that is not indented.
fn exception_line(output: &str) -> Option<&str> {
    let (_, rest) = output.rsplit_once("Traceback (most recent call last):\n")?;
    rest.lines().find(|l| !l.starts_with([' ', '\t']))
}

/// Files of the shared corpus the vendored copy leaves out: stray
/// recordings in progress and figures a program wrote.
fn left_out_of_copy(name: &str) -> bool {
    name.ends_with(".tmp") || (name.starts_with("predict") && name.ends_with(".pdf"))
}

fn files_under(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.insert(rel.to_string_lossy().into_owned(), path);
            }
        }
    }
    out
}

/// `None` when the vendored copy equals `source` (less the files it leaves
/// out, plus our EXPECTED_FAILURES.tsv); else the first file that differs.
fn copy_drift(source: &Path, copy: &Path) -> Option<String> {
    let theirs: BTreeMap<_, _> = files_under(source)
        .into_iter()
        .filter(|(name, _)| {
            !left_out_of_copy(
                Path::new(name)
                    .file_name()
                    .map_or("", |n| n.to_str().unwrap_or("")),
            )
        })
        .collect();
    let ours: BTreeMap<_, _> = files_under(copy)
        .into_iter()
        .filter(|(name, _)| name != "EXPECTED_FAILURES.tsv")
        .collect();
    for (name, path) in &theirs {
        match ours.get(name) {
            None => {
                return Some(format!(
                    "{name} is in {} but not in the copy",
                    source.display()
                ));
            }
            Some(mine) if std::fs::read(mine).ok() != std::fs::read(path).ok() => {
                return Some(format!("{name} differs from {}", path.display()));
            }
            Some(_) => {}
        }
    }
    ours.keys()
        .find(|name| !theirs.contains_key(*name))
        .map(|name| format!("{name} is in the copy but not in {}", source.display()))
}

fn main() -> ExitCode {
    self_check();
    assert_eq!(as_a_terminal_shows("a\r 1%\r 50%\r\nb\n"), " 50%\nb\n");
    assert_eq!(
        without_local_versions("2.15.0+cu132\n2.15.0+gradscope 1+2 a+cu1 1.2.3+4\n"),
        "2.15.0\n2.15.0 1+2 a+cu1 1.2.3+4\n"
    );
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut total = Tally::default();
    for corpus in CORPORA {
        let root = repo_root().join("tests").join(corpus);
        println!("== tests/{corpus}");
        if corpus == "public" {
            vendored_copy(&root, &mut total.failures);
        }
        let tally = run_corpus(&root, &filters);
        println!(
            "\n{corpus}: {} of {} pass ({} within a recording's tolerance, {} only within the spread of PyTorch's two recordings)\n",
            tally.passed,
            tally.run,
            tally.passed - tally.by_spread,
            tally.by_spread
        );
        total.add(tally);
    }
    if total.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("unexpected: {}", total.failures.join(", "));
        ExitCode::FAILURE
    }
}

/// Checks that `tests/public` is the shared corpus, unmodified.
fn vendored_copy(public: &Path, failures: &mut Vec<String>) {
    let source = std::env::var_os("GRADSCOPE_PUBLIC_SOURCE")
        .map_or_else(|| repo_root().join("../shared/public"), PathBuf::from);
    let source = source.canonicalize().unwrap_or(source);
    if source.is_dir() {
        match copy_drift(&source, public) {
            None => println!("vendored copy: same as {}", source.display()),
            Some(drift) => {
                println!("vendored copy: FAIL: {drift} (copy it again, unmodified)");
                failures.push("the vendored copy".to_string());
            }
        }
    } else {
        println!(
            "vendored copy: {} is not here, not compared",
            source.display()
        );
    }
}

/// What running one corpus came to.
#[derive(Default)]
struct Tally {
    run: usize,
    passed: usize,
    by_spread: usize,
    /// Programs (or list entries) that did not do what the list says.
    failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.run += other.run;
        self.passed += other.passed;
        self.by_spread += other.by_spread;
        self.failures.extend(other.failures);
    }
}

/// Runs the programs of one corpus (all, or those whose names contain
/// one of `filters`) and judges each against its recordings and the
/// corpus's EXPECTED_FAILURES.tsv.
fn run_corpus(public: &Path, filters: &[String]) -> Tally {
    let mut failures: Vec<String> = vec![];
    let corpus = public
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let (all, mut expected) = match (programs(public), expected_failures(public)) {
        (Ok(p), Ok(e)) => (p, e),
        (Err(e), _) | (_, Err(e)) => {
            println!("FAIL: {e}");
            return Tally {
                failures: vec![e],
                ..Tally::default()
            };
        }
    };
    for name in expected.keys() {
        if !all.iter().any(|p| &p.name == name) {
            println!("EXPECTED_FAILURES.tsv: FAIL: '{name}' is no program of the corpus");
            failures.push(format!("{corpus}/{name}"));
        }
    }
    let chosen: Vec<Program> = all
        .into_iter()
        .filter(|p| {
            let full = format!("{corpus}/{}", p.name);
            filters.is_empty() || filters.iter().any(|f| full.contains(f.as_str()))
        })
        .collect();

    // A program per core: each is one thread of interpreter and engine.
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let queue = Arc::new(Mutex::new(chosen.clone().into_iter().enumerate()));
    let (send, receive) = mpsc::channel();
    let threads: Vec<_> = (0..workers)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let send = send.clone();
            std::thread::spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.next());
                    let Some((i, program)) = next else { break };
                    if send.send((i, run(&program))).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(send);

    let mut results = BTreeMap::new();
    let mut printed = 0;
    let mut passed = 0;
    let mut by_spread = 0;
    for (i, result) in receive {
        results.insert(i, result);
        while let Some(result) = results.remove(&printed) {
            let program = &chosen[printed];
            printed += 1;
            let (verdict, secs) = match result {
                Ok((output, exit, time)) => {
                    let verdict =
                        judge(program, &output, exit).map_err(|diff| {
                            match exception_line(&output) {
                                Some(line) => format!("{line} ({diff})"),
                                None => diff,
                            }
                        });
                    (verdict, time.as_secs_f64())
                }
                Err(e) => (Err(e), 0.0),
            };
            let listed = expected.remove(&program.name);
            let spread = if verdict == Ok(Match::Spread) {
                by_spread += 1;
                ", within the spread of PyTorch's two recordings"
            } else {
                ""
            };
            match (verdict, listed) {
                (Ok(_), None) => {
                    passed += 1;
                    println!("pass {} ({secs:.1}s{spread})", program.name);
                }
                (Ok(_), Some(_)) => {
                    passed += 1;
                    println!(
                        "pass {} ({secs:.1}s), but EXPECTED_FAILURES.tsv lists it: FAIL until it is taken off",
                        program.name
                    );
                    failures.push(format!("{corpus}/{}", program.name));
                }
                (Err(diff), Some(reason)) => {
                    println!(
                        "FAIL {} ({secs:.1}s), expected ({reason}): {diff}",
                        program.name
                    );
                }
                (Err(diff), None) => {
                    println!(
                        "FAIL {} ({secs:.1}s), not in EXPECTED_FAILURES.tsv: {diff}",
                        program.name
                    );
                    failures.push(format!("{corpus}/{}", program.name));
                }
            }
        }
    }
    for thread in threads {
        let _ = thread.join();
    }
    Tally {
        run: chosen.len(),
        passed,
        by_spread,
        failures,
    }
}
