//! The standard library in the runtime: one short program per module under
//! `tests/stdlib/`, each exercising one real thing, prints what CPython
//! 3.11 printed for it (recorded by `tests/fixtures/record_stdlib.py`);
//! modules that cannot work in the sandbox raise ImportError saying why;
//! library frames stay out of learners' tracebacks.

#![allow(clippy::panic)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use gradscope_python::Runtime;

fn programs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/stdlib")
}

/// What each program printed under CPython: stdout, and stderr if any.
fn expected(program: &std::path::Path) -> (String, String) {
    let read = |ext: &str| std::fs::read_to_string(program.with_extension(ext)).unwrap_or_default();
    (read("out"), read("err"))
}

#[test]
fn stdlib_programs_print_what_cpython_prints() {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    programs.retain(|p| p.extension().is_some_and(|e| e == "py"));
    programs.sort();
    // One per module of the list real programs import, and the ones that
    // were there before.
    assert!(programs.len() >= 21, "found only {programs:?}");
    let mut failures = Vec::new();
    for program in &programs {
        let source = std::fs::read_to_string(program).unwrap_or_default();
        let (stdout, stderr) = expected(program);
        let mut rt = Runtime::new();
        let out = rt.run(&source);
        if out.stdout != stdout || out.stderr != stderr {
            failures.push(format!(
                "{}:\n--- expected stdout\n{stdout}--- got stdout\n{}--- expected stderr\n{stderr}--- got stderr\n{}",
                program.display(),
                out.stdout,
                out.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blocked_modules_raise_import_error_saying_why() {
    let mut rt = Runtime::new();
    for (module, why) in [
        ("subprocess", "it cannot start processes"),
        ("multiprocessing", "it cannot start processes"),
        ("socket", "it has no network"),
        ("ssl", "it has no network"),
        ("urllib.request", "it has no network"),
        ("http.client", "it has no network"),
        ("ctypes", "it cannot load native libraries"),
        ("tkinter", "it has no display"),
    ] {
        let out = rt.run(&format!("import {module}\n"));
        let Some(error) = out.error else {
            panic!("import {module} succeeded");
        };
        assert_eq!(
            error.type_name, "ImportError",
            "{module}: {}",
            error.message
        );
        let message = format!(
            "gradscope runs programs in a sandbox without processes or network: {module} cannot work here, {why}"
        );
        assert!(
            error.message.starts_with(&message),
            "{module}: {}",
            error.message
        );
        // And a program can test for it, as it would for a missing module.
        let out = rt.run(&format!(
            "try:\n    import {module}\nexcept ImportError as e:\n    print(e.name)\n"
        ));
        assert_eq!(out.stdout, format!("{module}\n"));
    }
}

#[test]
fn stdlib_frames_stay_out_of_tracebacks() {
    let mut rt = Runtime::new();
    let out = rt.run("import json\njson.loads('{bad')\n");
    let Some(error) = out.error else {
        panic!("json.loads('{{bad') succeeded");
    };
    assert_eq!(error.type_name, "JSONDecodeError");
    assert_eq!(error.line, Some(2));
    assert!(!error.traceback.contains("<stdlib"), "{}", error.traceback);
    assert!(
        error.traceback.ends_with(
            "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n"
        ),
        "{}",
        error.traceback
    );
}

#[test]
fn unknown_modules_are_still_not_found() {
    let mut rt = Runtime::new();
    let out = rt.run("import no_such_module_anywhere\n");
    let error = out.error.map(|e| (e.type_name, e.message));
    assert_eq!(
        error,
        Some((
            "ModuleNotFoundError".to_string(),
            "No module named 'no_such_module_anywhere'".to_string()
        ))
    );
}

#[test]
fn threads_run_as_threads_of_their_own() {
    let mut rt = Runtime::new();
    let out = rt.run(
        "import threading\nnames = []\nt = threading.Thread(target=lambda: names.append(threading.current_thread().name), name='w')\nt.start(); t.join()\nprint(names, threading.current_thread().name, threading.active_count())\n",
    );
    assert_eq!(out.stderr, "");
    assert_eq!(out.stdout, "['w'] MainThread 1\n");
}

#[test]
fn stdlib_modules_importing_blocked_ones_still_import() {
    // `unittest.mock` imports `asyncio`, which imports `socket`; a program
    // gets the module, and what needs the network says why it cannot.
    let mut rt = Runtime::new();
    let out = rt.run(
        "from unittest import mock\nm = mock.MagicMock(return_value=3)\nprint(m(1), m.call_count)\nimport socket\ntry:\n    socket.create_connection(('example.com', 80))\nexcept OSError as e:\n    print(e)\n",
    );
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.stdout,
        "3 1\ngradscope runs programs in a sandbox without processes or network: socket cannot work here, it has no network\n"
    );
}

#[test]
fn common_imports_need_only_the_first_file() {
    // In the page, a program importing what programs commonly import
    // fetches the 1.2 MB file, not the 4.7 MB of all of `Lib` (the list
    // is gradscope-stdlib's COMMON; re-measure it with this program when
    // RustPython's Lib changes), and our packages around torch, from their
    // own file (2), only when it imports them.
    let mut rt = Runtime::new();
    let out = rt.run(
        "import sys, _gradscope\nfor n in 'json re dataclasses enum string datetime argparse pickle struct inspect traceback textwrap pprint statistics fractions decimal queue threading unittest zipfile glob timeit ast logging pathlib tempfile shutil tqdm numpy matplotlib.pyplot'.split():\n    __import__(n)\nloaded = sorted(k for k, m in list(sys.modules.items()) if getattr(getattr(m, '__spec__', None), 'origin', None) == 'stdlib')\nours = ('numpy', 'matplotlib', 'tqdm')\nprint(len(loaded) > 50, [n for n in loaded if _gradscope._stdlib_file(n) != (2 if n.split('.')[0] in ours else 0)], sorted({n.split('.')[0] for n in loaded if _gradscope._stdlib_file(n) == 2}))\n",
    );
    assert_eq!(out.stderr, "");
    assert_eq!(out.stdout, "True [] ['matplotlib', 'numpy', 'tqdm']\n");
}

/// The modules of `Lib` a program cannot import here, and what it gets;
/// every other one imports.
const NOT_IMPORTABLE: &[(&str, &str)] = &[
    // Blocked: no processes or network (a program's own import of them).
    ("concurrent.futures.process", "ImportError"),
    ("ftplib", "ImportError"),
    ("http.client", "ImportError"),
    ("http.server", "ImportError"),
    ("imaplib", "ImportError"),
    ("poplib", "ImportError"),
    ("pty", "ImportError"),
    ("smtplib", "ImportError"),
    ("webbrowser", "ImportError"),
    ("xmlrpc.client", "ImportError"),
    ("xmlrpc.server", "ImportError"),
    // Built on what is blocked.
    ("_ios_support", "AttributeError"),
    ("wsgiref.simple_server", "TypeError"),
    // Windows only, as under CPython on Linux.
    ("asyncio.windows_events", "ImportError"),
    ("asyncio.windows_utils", "ImportError"),
    ("encodings.mbcs", "ImportError"),
    ("encodings.oem", "ImportError"),
    // Native modules RustPython 0.6 has not, or not in this build.
    ("compression.zstd", "ModuleNotFoundError"),
    ("compression.zstd._zstdfile", "ModuleNotFoundError"),
    ("dbm.gnu", "ModuleNotFoundError"),
    ("dbm.ndbm", "ModuleNotFoundError"),
    ("dbm.sqlite3", "ModuleNotFoundError"),
    ("sqlite3", "ModuleNotFoundError"),
    ("sqlite3.dbapi2", "ModuleNotFoundError"),
    ("sqlite3.dump", "ModuleNotFoundError"),
    ("tracemalloc", "ModuleNotFoundError"),
    ("tty", "ModuleNotFoundError"),
    // The interactive console's terminal parts (`termios`); `pydoc` and
    // `help()` import the rest of `_pyrepl`.
    ("_pyrepl.fancy_termios", "ModuleNotFoundError"),
    ("_pyrepl.readline", "ModuleNotFoundError"),
    ("_pyrepl.simple_interact", "ModuleNotFoundError"),
    ("_pyrepl.unix_console", "ModuleNotFoundError"),
    ("_pyrepl.unix_eventqueue", "ModuleNotFoundError"),
    ("_pyrepl.windows_console", "ModuleNotFoundError"),
];

/// Modules whose import does something (prints, opens a browser, runs a
/// command line): not swept.
const NOT_SWEPT: &[&str] = &[
    "antigravity",
    "this",
    "unittest.__main__",
    "sqlite3.__main__",
];

#[test]
fn every_stdlib_module_imports_but_the_known_few() {
    let names: Vec<&str> = gradscope_stdlib::rest_modules()
        .map(|(name, _)| name)
        .filter(|name| !NOT_SWEPT.contains(name) && !name.ends_with(".__main__"))
        .collect();
    assert!(names.len() > 400, "{}", names.len());
    let mut source = String::from("failed = []\nfor name in [\n");
    for name in &names {
        source.push_str(&format!("    {name:?},\n"));
    }
    source.push_str(
        "]:\n    try:\n        __import__(name)\n    except BaseException as e:\n        failed.append((name, type(e).__name__))\nfor name, kind in failed:\n    print(name, kind)\n",
    );
    let mut rt = Runtime::new();
    let out = rt.run(&source);
    assert_eq!(out.stderr, "");
    let expected: BTreeSet<String> = NOT_IMPORTABLE
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    let got: BTreeSet<String> = out.stdout.lines().map(str::to_string).collect();
    assert_eq!(got, expected);
}

#[test]
fn errno_without_native_constants_gets_linuxs() {
    // The wasm build's native `errno` has no constants; the runtime fills
    // them in (`_gradscope_errno`), as this does for an empty module.
    let mut rt = Runtime::new();
    let out = rt.run(
        "import types, errno, _gradscope_errno\nm = types.ModuleType('e')\n_gradscope_errno.fill(m)\nprint(m.ENOENT, m.EEXIST, m.errorcode[2], m.ENOENT == errno.ENOENT)\n",
    );
    assert_eq!(out.stderr, "");
    assert_eq!(out.stdout, "2 17 ENOENT True\n");
}
