//! The learner's extra files (the page's second editor tabs and the files
//! dropped on it): each run's request carries them all, and the worker
//! puts them beside the program in the interpreter's file system, where
//! `from model import Net` and `open("data.csv")` find them as they find a
//! sibling module or file of a program `gradscope run` reads from disk
//! (`_gradscope_files`, `_gradscope_importer`).
//!
//! The request is the protocol's `run_program` with a `files` field of its
//! own (`[{"name": "model.py", "text": "..."}]`), which the protocol's
//! parser ignores and this module reads; the page writes it
//! (`gradscope_ui::files`).

use std::cell::RefCell;

use gradscope_python::Runtime;
use serde::Deserialize;

/// One extra file, as the page sends it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub(crate) struct ProgramFile {
    /// Its name relative to the program's folder (`model.py`, `data/x.csv`).
    pub(crate) name: String,
    /// Its contents.
    pub(crate) text: String,
}

#[derive(Deserialize)]
struct RunFiles {
    #[serde(default)]
    files: Vec<ProgramFile>,
}

/// The extra files a `run_program` message carries (none when it names
/// none, or when they cannot be read).
pub(crate) fn in_message(text: &str) -> Vec<ProgramFile> {
    serde_json::from_str::<RunFiles>(text).map_or_else(|_| Vec::new(), |run| run.files)
}

thread_local! {
    /// The names of the files the last run was given.
    static GIVEN: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Gives the next run `files`, as a fresh `python` would see them: each
/// file's text as given now (over anything a program wrote there), files
/// given before and not now gone, and the modules the last run imported
/// from the program's files forgotten, so an edited `model.py` is read
/// again. Runs nothing when no run had or has extra files.
pub(crate) fn give(runtime: &mut Runtime, files: &[ProgramFile]) {
    let before = GIVEN.with(|given| given.take());
    if files.is_empty() && before.is_empty() {
        return;
    }
    let now: Vec<String> = files.iter().map(|f| path(&f.name)).collect();
    for file in files {
        runtime.add_file(&file.name, file.text.clone().into_bytes());
    }
    let removed: Vec<&String> = before.iter().filter(|p| !now.contains(p)).collect();
    // JSON's strings are Python's literals too.
    let (now_list, removed_list) = (
        serde_json::to_string(&now).unwrap_or_default(),
        serde_json::to_string(&removed).unwrap_or_default(),
    );
    let out = runtime.run(&format!(
        "import sys, _gradscope_files as _f, _gradscope_importer as _i\n\
         for _name, _module in list(sys.modules.items()):\n\
         \x20   if isinstance(getattr(getattr(_module, '__spec__', None), 'loader', None), _i._SourceLoader):\n\
         \x20       del sys.modules[_name]\n\
         for _p in {now_list}:\n\
         \x20   _f._written.pop(_p, None)\n\
         \x20   _f._hidden.discard(_p)\n\
         for _p in {removed_list}:\n\
         \x20   _f._hidden.add(_p)\n"
    ));
    if let Some(error) = out.error {
        web_sys::console::error_1(
            &format!("gradscope worker: the program's files: {}", error.traceback).into(),
        );
    }
    GIVEN.with(|given| *given.borrow_mut() = now);
}

/// The sandbox's absolute path of a file the page names (the sandbox's
/// `/` is the program's folder).
fn path(name: &str) -> String {
    format!("/{}", name.trim_start_matches("./").trim_start_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_in_a_run_message() {
        let message = r#"{"type":"run_program","source":"import model\n","device":"cpu",
            "files":[{"name":"model.py","text":"x = 1\n"}]}"#;
        assert_eq!(
            in_message(message),
            [ProgramFile {
                name: "model.py".into(),
                text: "x = 1\n".into()
            }]
        );
        // The protocol's own parser reads the same message.
        assert!(serde_json::from_str::<gradscope_trace::Request>(message).is_ok());
        assert_eq!(
            in_message(r#"{"type":"run_program","source":"","device":"cpu"}"#),
            []
        );
        assert_eq!(path("./data/x.csv"), "/data/x.csv");
    }
}
