//! `gradscope run` as `python` runs a program: from a real directory, with
//! its arguments, its sibling modules and data files, writing and reading
//! files, `torch.save`/`torch.load` through them. Each case of
//! `tests/fixtures/files.json` (recorded from CPython and PyTorch by
//! `tests/fixtures/record_files.py`) prints exactly what it printed there,
//! and leaves the directory as it found it: writes stay in the sandbox.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh directory under the system's temporary one, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("gradscope-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every file under `root` with its bytes.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// `gradscope run ARGS...` from `cwd`: what it printed to stdout and
/// stderr, in order (one pipe, as `2>&1`), and its exit code.
fn gradscope_run(cwd: &Path, args: &[&str]) -> (String, i32) {
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gradscope"));
    cmd.arg("run")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer);
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    let mut text = String::new();
    reader.read_to_string(&mut text).unwrap();
    (text, child.wait().unwrap().code().unwrap_or(-1))
}

#[test]
fn run_files_cases_print_what_python_printed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/files.json");
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let dir = TempDir::new(name);
        for (file, text) in case["files"].as_object().unwrap() {
            let path = dir.0.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text.as_str().unwrap()).unwrap();
        }
        let before = snapshot(&dir.0);
        let argv: Vec<&str> = case["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let cwd = dir.0.join(case["cwd"].as_str().unwrap());
        let (output, exit) = gradscope_run(&cwd, &argv);
        assert_eq!(output, case["output"].as_str().unwrap(), "case {name}");
        assert_eq!(
            i64::from(exit),
            case["exit"].as_i64().unwrap(),
            "case {name}"
        );
        assert_eq!(
            snapshot(&dir.0),
            before,
            "case {name}: the program changed the real directory"
        );
    }
}

#[test]
fn run_stops_at_the_time_limit_when_asked() {
    let dir = TempDir::new("time-limit");
    std::fs::write(dir.0.join("spin.py"), "while True:\n    pass\n").unwrap();
    let start = std::time::Instant::now();
    let (output, exit) = gradscope_run(&dir.0, &["--time-limit", "0.5", "spin.py"]);
    assert_eq!(exit, 1, "{output}");
    assert!(output.contains("ExecutionLimitExceeded"), "{output}");
    assert!(start.elapsed().as_secs() < 30);
}

#[test]
fn run_refuses_an_unknown_option_before_the_program() {
    let dir = TempDir::new("usage");
    std::fs::write(dir.0.join("p.py"), "import sys\nprint(sys.argv)\n").unwrap();
    let (output, exit) = gradscope_run(&dir.0, &["--frobnicate", "p.py"]);
    assert_eq!(exit, 2, "{output}");
    assert!(output.contains("unknown option '--frobnicate'"), "{output}");
    let (output, exit) = gradscope_run(&dir.0, &["p.py", "--frobnicate"]);
    assert_eq!((output.as_str(), exit), ("['p.py', '--frobnicate']\n", 0));
}

#[test]
fn run_reads_the_program_from_stdin_with_its_arguments() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gradscope"))
        .args(["run", "-", "a", "--b"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"import sys\nprint(sys.argv, __name__)\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    // As `python - a --b`.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "['-', 'a', '--b'] __main__\n"
    );
}

/// `--save-files DIR` writes out what the program wrote, at the paths it
/// gave, once it ends (a PNG from `savefig`, a CSV); torch.save's record,
/// which only the run that made it can load, is left out with a warning;
/// without the flag nothing leaves the sandbox.
#[test]
fn save_files_writes_out_what_the_program_wrote() {
    let dir = TempDir::new("save-files");
    let program = "\
import os, torch
import matplotlib.pyplot as plt
os.makedirs('out', exist_ok=True)
with open('out/loss.csv', 'w') as f:
    f.write('step,loss\\n0,1.5\\n')
torch.save({'w': torch.arange(3)}, 'ckpt.pt')
plt.plot([1, 2, 3])
plt.savefig('loss.png')
print('saved')
";
    std::fs::write(dir.0.join("prog.py"), program).unwrap();
    let (out, code) = gradscope_run(&dir.0, &["prog.py"]);
    assert_eq!((out.as_str(), code), ("saved\n", 0));
    assert!(
        !dir.0.join("loss.png").exists(),
        "writes stay in the sandbox"
    );

    let (out, code) = gradscope_run(&dir.0, &["--save-files", "kept", "prog.py"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("saved\n"), "{out}");
    assert!(out.contains("'ckpt.pt' not written"), "{out}");
    let png = std::fs::read(dir.0.join("kept/loss.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let csv = std::fs::read_to_string(dir.0.join("kept/out/loss.csv")).unwrap();
    assert_eq!(csv, "step,loss\n0,1.5\n");
    assert!(!dir.0.join("kept/ckpt.pt").exists());
}
