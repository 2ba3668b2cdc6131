//! The widget's configuration, as `embed.js` checked it and handed it over
//! in the `data-config` attribute of the page's `<main id="app">`.
//!
//! `embed.js` is the gate (it shows the reader what is wrong with an
//! address); this side checks again, so the app never trusts a value it
//! did not read itself.

use gradscope_lessons::Lesson;
use gradscope_trace::protocol::Device;
use serde::Deserialize;

use crate::files::ProgramFile;

/// The longest inline program a widget takes, in characters (the loader and
/// `embed.js` use the same figure).
pub const MAX_CODE_CHARS: usize = 10_000;

/// The views a widget can show.
pub const PANELS: &[&str] = &["lesson", "code", "graph", "memory", "console"];

/// The widget's settings.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// A built-in lesson's slug.
    #[serde(default)]
    pub lesson: Option<String>,
    /// A program given inline instead of a lesson.
    #[serde(default)]
    pub code: Option<String>,
    /// Extra files beside inline code (`model.py`), as the page's tabs hold.
    #[serde(default)]
    pub files: Vec<ProgramFile>,
    /// Which views to show, from [`PANELS`].
    pub panels: Vec<String>,
    /// `auto`, `cpu` or `webgpu`.
    pub device: String,
    /// The host asked to run a built-in lesson at once.
    #[serde(default)]
    pub autorun: bool,
    /// The reader pressed Run before the app had loaded.
    #[serde(default)]
    pub run: bool,
}

/// What the widget holds: a lesson, or a program of the host's.
#[derive(Clone, Copy, Debug)]
pub enum Program {
    Lesson(&'static Lesson),
    Inline,
}

impl PartialEq for Program {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Program::Lesson(a), Program::Lesson(b)) => a.slug == b.slug,
            (Program::Inline, Program::Inline) => true,
            _ => false,
        }
    }
}

/// A configuration the app can show.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub program: Program,
    /// The program's text.
    pub source: String,
    pub device: Device,
    /// Whether WebGPU was asked for, or chosen by `auto`: the first run then
    /// waits for the worker's probe of the adapter.
    pub wants_gpu: bool,
    /// Whether to run as soon as the engine is ready.
    pub run_at_once: bool,
    /// Extra files beside the program.
    pub files: Vec<ProgramFile>,
    pub show: Panels,
}

/// Which views are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Panels {
    pub lesson: bool,
    pub code: bool,
    pub graph: bool,
    pub memory: bool,
    pub console: bool,
}

impl Config {
    /// Reads the JSON `embed.js` wrote.
    pub fn from_json(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| format!("the widget's settings are malformed: {e}"))
    }

    /// Checks every field; the message says what is wrong in the host's terms.
    pub fn check(&self) -> Result<Checked, String> {
        let (program, source) = match (&self.lesson, &self.code) {
            (Some(_), Some(_)) => return Err("give the widget a lesson or code, not both".into()),
            (None, None) => {
                return Err("give the widget a lesson (lesson=\"SLUG\") or code".into());
            }
            (Some(slug), None) => {
                let lesson = gradscope_lessons::find(slug)
                    .ok_or_else(|| format!("there is no lesson named \"{slug}\""))?;
                (Program::Lesson(lesson), lesson.program.to_string())
            }
            (None, Some(code)) => {
                let chars = code.chars().count();
                if chars > MAX_CODE_CHARS {
                    return Err(format!(
                        "the widget's code is {chars} characters long; at most {MAX_CODE_CHARS} fit"
                    ));
                }
                if code.trim().is_empty() {
                    return Err("the widget's code is empty".into());
                }
                (Program::Inline, code.clone())
            }
        };
        if !self.files.is_empty() && !matches!(program, Program::Inline) {
            return Err("files go beside code, not a lesson".into());
        }
        let mut files = Vec::new();
        for file in &self.files {
            files = crate::files::put(&files, file.clone())?;
        }
        let mut show = Panels::default();
        for panel in &self.panels {
            let flag = match panel.as_str() {
                "lesson" => &mut show.lesson,
                "code" => &mut show.code,
                "graph" => &mut show.graph,
                "memory" => &mut show.memory,
                "console" => &mut show.console,
                other => {
                    return Err(format!(
                        "there is no panel named \"{other}\" (panels: {})",
                        PANELS.join(", ")
                    ));
                }
            };
            *flag = true;
        }
        if show == Panels::default() {
            return Err("the widget shows no panel".into());
        }
        let (device, wants_gpu) = match self.device.as_str() {
            "auto" | "webgpu" => (Device::Webgpu, true),
            "cpu" => (Device::Cpu, false),
            other => {
                return Err(format!(
                    "there is no device named \"{other}\" (auto, cpu or webgpu)"
                ));
            }
        };
        // Code from an address or attribute never runs before the reader
        // asks; only a built-in lesson may start by itself.
        let autorun = self.autorun && matches!(program, Program::Lesson(_));
        Ok(Checked {
            program,
            source,
            device,
            wants_gpu,
            run_at_once: self.run || autorun,
            show,
            files,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> Result<Checked, String> {
        Config::from_json(json)?.check()
    }

    #[test]
    fn a_lesson_with_its_panels() {
        let checked = config(
            r#"{"lesson":"forgot-zero-grad","panels":["code","graph","memory"],"device":"auto"}"#,
        )
        .unwrap();
        assert!(matches!(checked.program, Program::Lesson(l) if l.slug == "forgot-zero-grad"));
        assert!(checked.source.contains("ZERO_GRAD"));
        assert!(checked.show.code && checked.show.graph && checked.show.memory);
        assert!(!checked.show.console && !checked.show.lesson);
        assert!(checked.wants_gpu);
        assert!(!checked.run_at_once);
    }

    #[test]
    fn autorun_only_for_built_in_lessons() {
        let lesson =
            config(r#"{"lesson":"retain-graph","panels":["graph"],"device":"cpu","autorun":true}"#)
                .unwrap();
        assert!(lesson.run_at_once);
        let inline =
            config(r#"{"code":"print(1)","panels":["code"],"device":"cpu","autorun":true}"#)
                .unwrap();
        assert!(!inline.run_at_once, "code from an attribute waits for Run");
        let pressed =
            config(r#"{"code":"print(1)","panels":["code"],"device":"cpu","run":true}"#).unwrap();
        assert!(pressed.run_at_once, "the reader pressed Run");
    }

    #[test]
    fn inline_code_with_files() {
        let checked = config(
            r#"{"code":"from model import k","files":[{"name":"model.py","text":"k = 1\n"}],
                "panels":["console"],"device":"cpu"}"#,
        )
        .unwrap();
        assert_eq!(checked.files.len(), 1);
        assert_eq!(checked.files[0].name, "model.py");
        let err = |json| config(json).unwrap_err();
        assert!(
            err(r#"{"code":"1","files":[{"name":"../x.py","text":""}],"panels":["console"],"device":"cpu"}"#)
                .contains("not a file name")
        );
        assert!(
            err(r#"{"lesson":"retain-graph","files":[{"name":"m.py","text":""}],"panels":["console"],"device":"cpu"}"#)
                .contains("beside code")
        );
    }

    #[test]
    fn bad_settings_say_what_is_wrong() {
        let err = |json| config(json).unwrap_err();
        assert!(
            err(r#"{"lesson":"nope","panels":["code"],"device":"cpu"}"#)
                .contains("no lesson named \"nope\"")
        );
        assert!(
            err(r#"{"lesson":"retain-graph","panels":["code","bogus"],"device":"cpu"}"#)
                .contains("no panel named \"bogus\"")
        );
        assert!(
            err(r#"{"lesson":"retain-graph","panels":["code"],"device":"tpu"}"#)
                .contains("no device named \"tpu\"")
        );
        assert!(err(r#"{"panels":["code"],"device":"cpu"}"#).contains("a lesson"));
        assert!(
            err(r#"{"lesson":"retain-graph","code":"x","panels":["code"],"device":"cpu"}"#)
                .contains("not both")
        );
        assert!(
            err(r#"{"lesson":"retain-graph","panels":[],"device":"cpu"}"#).contains("no panel")
        );
        let long = format!(
            r#"{{"code":"{}","panels":["code"],"device":"cpu"}}"#,
            "x".repeat(MAX_CODE_CHARS + 1)
        );
        assert!(err(&long).contains("at most 10000"));
        assert!(
            err(r#"{"lesson":"retain-graph","panels":["code"],"device":"cpu","x":1}"#)
                .contains("malformed")
        );
        assert!(err("not json").contains("malformed"));
    }
}
