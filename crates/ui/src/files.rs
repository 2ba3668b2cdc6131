//! The learner's extra files: modules and data beside the program
//! (`model.py`, `data.csv`), edited in the editor's other tabs or dropped
//! on the page. Each run sends them all to the worker, which puts them in
//! the program's folder, where `from model import Net` and
//! `open("data.csv")` find them (`gradscope_webworker`'s `files`); they are
//! kept in the browser like the code, and travel in share links.

use gradscope_trace::Request;
use serde::{Deserialize, Serialize};

/// The program's own name, which no extra file may take.
pub const PROGRAM: &str = "main.py";

/// The most extra files a program may have.
pub const MAX_FILES: usize = 16;

/// The most bytes of one file (a dropped file past it is refused).
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// One extra file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramFile {
    /// Its name in the program's folder (`model.py`, `data/x.csv`).
    pub name: String,
    /// Its contents.
    pub text: String,
}

/// Why a name cannot be a file's.
pub fn check_name(name: &str, others: &[ProgramFile]) -> Result<(), String> {
    if name.is_empty() {
        return Err("a file needs a name".into());
    }
    if name.len() > 64 {
        return Err(format!("'{name}' is longer than 64 characters"));
    }
    if name == PROGRAM {
        return Err(format!("'{PROGRAM}' is the program's own name"));
    }
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    if !name.chars().all(ok_char)
        || name.starts_with('/')
        || name.ends_with('/')
        || name
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Err(format!(
            "'{name}' is not a file name here: use letters, digits, _ - . and / between folders"
        ));
    }
    if others.iter().any(|f| f.name == name) {
        return Err(format!("there is a file named '{name}' already"));
    }
    if others.len() >= MAX_FILES {
        return Err(format!(
            "a program may have {MAX_FILES} extra files at most"
        ));
    }
    Ok(())
}

/// Adds `file`, or replaces the file of its name (a file dropped again).
pub fn put(files: &[ProgramFile], file: ProgramFile) -> Result<Vec<ProgramFile>, String> {
    if file.text.len() > MAX_FILE_BYTES {
        return Err(format!(
            "'{}' is {} KB, over the {} KB a file may have",
            file.name,
            file.text.len().div_ceil(1024),
            MAX_FILE_BYTES / 1024
        ));
    }
    let mut next: Vec<ProgramFile> = files.to_vec();
    match next.iter_mut().find(|f| f.name == file.name) {
        Some(old) => old.text = file.text,
        None => {
            check_name(&file.name, files)?;
            next.push(file);
        }
    }
    Ok(next)
}

/// Renames the file `from` to `to`.
pub fn rename(files: &[ProgramFile], from: &str, to: &str) -> Result<Vec<ProgramFile>, String> {
    if from == to {
        return Ok(files.to_vec());
    }
    let others: Vec<ProgramFile> = files.iter().filter(|f| f.name != from).cloned().collect();
    check_name(to, &others)?;
    Ok(files
        .iter()
        .map(|f| ProgramFile {
            name: if f.name == from {
                to.into()
            } else {
                f.name.clone()
            },
            text: f.text.clone(),
        })
        .collect())
}

/// A new module's name: `module.py`, else `module2.py`, ...
pub fn new_name(files: &[ProgramFile]) -> String {
    (1..)
        .map(|n| match n {
            1 => "module.py".to_string(),
            n => format!("module{n}.py"),
        })
        .find(|name| files.iter().all(|f| &f.name != name))
        .unwrap_or_default()
}

/// A change to the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Add a file, or replace the one of its name (a file dropped again).
    Put(ProgramFile),
    /// A file's new text (the learner typed in its tab).
    Edit {
        name: String,
        text: String,
    },
    Rename {
        from: String,
        to: String,
    },
    Remove(String),
}

/// `files` after `change`, or why it cannot be made.
pub fn apply(files: &[ProgramFile], change: Change) -> Result<Vec<ProgramFile>, String> {
    match change {
        Change::Put(file) => put(files, file),
        Change::Edit { name, text } => put(files, ProgramFile { name, text }),
        Change::Rename { from, to } => rename(files, &from, &to),
        Change::Remove(name) => Ok(files.iter().filter(|f| f.name != name).cloned().collect()),
    }
}

/// The message that runs `request` (a `run_program`) with `files` beside
/// it: the protocol's JSON with a `files` field, which the worker reads
/// (the protocol's parser ignores it).
pub fn run_message(request: &Request, files: &[ProgramFile]) -> Option<String> {
    let mut json = serde_json::to_value(request).ok()?;
    if !files.is_empty()
        && let Some(fields) = json.as_object_mut()
    {
        fields.insert("files".into(), serde_json::to_value(files).ok()?);
    }
    serde_json::to_string(&json).ok()
}

/// Where the browser keeps the files.
const STORAGE_KEY: &str = "gradscope.files";

/// The files kept in the browser (none on a first visit).
pub fn load() -> Vec<ProgramFile> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

/// Keeps `files` in the browser.
pub fn save(files: &[ProgramFile]) {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return;
    };
    let _ = match serde_json::to_string(files) {
        Ok(json) if !files.is_empty() => storage.set_item(STORAGE_KEY, &json),
        _ => storage.remove_item(STORAGE_KEY),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::protocol::Device;

    fn file(name: &str, text: &str) -> ProgramFile {
        ProgramFile {
            name: name.into(),
            text: text.into(),
        }
    }

    #[test]
    fn files_names_are_checked() {
        let files = [file("model.py", "")];
        assert!(check_name("data/x.csv", &files).is_ok());
        for bad in [
            "", "main.py", "model.py", "../x.py", "/x.py", "a//b", "a b.py", "x/",
        ] {
            assert!(check_name(bad, &files).is_err(), "{bad:?}");
        }
        let many: Vec<ProgramFile> = (0..MAX_FILES)
            .map(|i| file(&format!("m{i}.py"), ""))
            .collect();
        assert!(check_name("one_more.py", &many).is_err());
    }

    #[test]
    fn files_put_rename_and_name() -> Result<(), String> {
        let files = put(&[], file("model.py", "a"))?;
        let files = put(&files, file("model.py", "b"))?;
        assert_eq!(files, [file("model.py", "b")]);
        assert!(put(&files, file("big.txt", &"x".repeat(MAX_FILE_BYTES + 1))).is_err());
        let files = rename(&files, "model.py", "net.py")?;
        assert_eq!(files, [file("net.py", "b")]);
        assert!(rename(&files, "net.py", "main.py").is_err());
        assert_eq!(new_name(&files), "module.py");
        assert_eq!(new_name(&[file("module.py", "")]), "module2.py");
        let files = apply(&files, Change::Put(file("data.csv", "1,2\n")))?;
        let files = apply(
            &files,
            Change::Edit {
                name: "net.py".into(),
                text: "c".into(),
            },
        )?;
        assert_eq!(files, [file("net.py", "c"), file("data.csv", "1,2\n")]);
        let files = apply(&files, Change::Remove("net.py".into()))?;
        assert_eq!(files, [file("data.csv", "1,2\n")]);
        Ok(())
    }

    #[test]
    fn files_ride_in_the_run_message() -> Result<(), serde_json::Error> {
        let request = Request::RunProgram {
            source: "import model\n".into(),
            device: Device::Cpu,
            memory_budget: None,
        };
        let plain = run_message(&request, &[]).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Request>(&plain)?, request);
        assert!(!plain.contains("files"));
        let text = run_message(&request, &[file("model.py", "x = 1\n")]).unwrap_or_default();
        // The protocol still reads it, and the files are there.
        assert_eq!(serde_json::from_str::<Request>(&text)?, request);
        let value: serde_json::Value = serde_json::from_str(&text)?;
        assert_eq!(value["files"][0]["name"], "model.py");
        assert_eq!(value["files"][0]["text"], "x = 1\n");
        Ok(())
    }
}
