//! The widget's configuration, as `embed.js` checked it and handed it over
//! in the `data-config` attribute of the page's `<main id="app">`.
//!
//! `embed.js` is the gate (it shows the reader what is wrong with an
//! address); this side checks again, so the app never trusts a value it
//! did not read itself.

use gradscope_lessons::{ControlValue, Lesson};
use gradscope_trace::protocol::Device;
use serde::Deserialize;

use crate::files::ProgramFile;
use crate::share::{PinnedProgram, Shared};

/// The longest inline program a widget takes, in characters (the loader and
/// `embed.js` use the same figure).
pub const MAX_CODE_CHARS: usize = 10_000;

/// The views a widget can show.
pub const PANELS: &[&str] = &["lesson", "code", "graph", "memory", "charts", "console"];

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
    /// A lesson's run to pin first, as its controls set
    /// (`ZERO_GRAD=True, LR=0.1`): the widget opens with a pinned pair,
    /// as a share link can.
    #[serde(default)]
    pub pinned: Option<String>,
    /// Beside inline code, the program to run first and pin (the host's
    /// `<template data-pinned>`), with the same files.
    #[serde(default)]
    pub pinned_code: Option<String>,
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
    /// The program to run first and pin, and what the widget says it is
    /// (`ZERO_GRAD = True` for a lesson's controls, else its code).
    pub pinned: Option<(PinnedProgram, String)>,
}

/// Which views are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Panels {
    pub lesson: bool,
    pub code: bool,
    pub graph: bool,
    pub memory: bool,
    pub charts: bool,
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
                "charts" => &mut show.charts,
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
            "auto" | "webgpu" => (Device::WebGpu, true),
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
        let pinned = self.pinned_program(program)?.map(|(code, shown)| {
            let pinned = PinnedProgram {
                code,
                device,
                budget_mib: None,
                files: files.clone(),
            };
            (pinned, shown)
        });
        Ok(Checked {
            program,
            source,
            device,
            wants_gpu,
            run_at_once: self.run || autorun,
            show,
            files,
            pinned,
        })
    }

    /// The pinned program's code, and what the widget shows of it: a
    /// lesson's program with the controls `pinned` sets (shown as their
    /// lines), or the host's pinned code beside its own.
    fn pinned_program(&self, program: Program) -> Result<Option<(String, String)>, String> {
        match (program, &self.pinned, &self.pinned_code) {
            (_, None, None) => Ok(None),
            (Program::Lesson(lesson), Some(settings), None) => {
                let values = lesson_controls(lesson, settings)?;
                let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                let code = lesson.with_controls(&values).map_err(|e| e.to_string())?;
                Ok(Some((code, shown.join("\n"))))
            }
            (Program::Inline, None, Some(code)) => {
                let chars = code.chars().count();
                if chars > MAX_CODE_CHARS {
                    return Err(format!(
                        "the widget's pinned program is {chars} characters long; at most {MAX_CODE_CHARS} fit"
                    ));
                }
                if code.trim().is_empty() {
                    return Err("the widget's pinned program is empty".into());
                }
                Ok(Some((code.clone(), code.clone())))
            }
            (Program::Inline, Some(_), _) => Err(
                "pinned=\"NAME=VALUE\" sets a lesson's controls; beside code, give the pinned program \
                 in a <template data-pinned>"
                    .into(),
            ),
            (Program::Lesson(_), _, Some(_)) => Err(
                "a pinned program goes beside code; a lesson's pinned run takes its controls \
                 (pinned=\"NAME=VALUE\")"
                    .into(),
            ),
        }
    }
}

impl Checked {
    /// What the widget shows, as a share link carries it: `source` (its
    /// code as it stands now) on `device`, with the widget's files and
    /// lesson, and `pinned`, the program of the run to compare with.
    pub fn shared(&self, source: &str, device: Device, pinned: Option<&PinnedProgram>) -> Shared {
        Shared {
            code: source.to_string(),
            device,
            lesson: match self.program {
                Program::Lesson(l) => Some(l.slug.to_string()),
                Program::Inline => None,
            },
            budget_mib: None,
            files: self.files.clone(),
            pinned: pinned.map(|p| Box::new(p.clone())),
        }
    }
}

/// The page's address beside the widget at `widget` (its frame's address,
/// `https://SITE/embed.html?lesson=x`): the folder both are served from,
/// `https://SITE/`, without the widget's query (inline code may be there).
pub fn page_beside(widget: &str) -> &str {
    let path = widget.split(['?', '#']).next().unwrap_or_default();
    path.rfind('/').map_or("", |end| &path[..=end])
}

/// Where the widget's "open in gradscope ↗" goes, and what its tooltip
/// says it opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenLink {
    pub href: String,
    pub title: String,
}

/// The link from a widget to the page at `page` (see [`page_beside`])
/// showing what the widget shows: `shared` as a share link's fragment
/// (the code as it stands, its files, device, and the pinned program when
/// a pair waits or a run is pinned), after `?lesson=SLUG` for a lesson, so
/// the page opens it unrun as it opens a share link. A lesson shown as
/// shipped and unpinned links to `?lesson=SLUG` alone. A program too long
/// for a link gets the lesson's address alone (the tooltip says why), or,
/// for code of the host's, no link.
pub fn open_link(page: &str, shared: &Shared) -> Option<OpenLink> {
    let lesson = shared.lesson.as_deref().and_then(gradscope_lessons::find);
    let base = match lesson {
        Some(l) => format!("{page}?lesson={}", l.slug),
        None => page.to_string(),
    };
    let as_shipped = lesson.is_some_and(|l| l.program == shared.code)
        && shared.files.is_empty()
        && shared.pinned.is_none();
    if as_shipped {
        return Some(OpenLink {
            href: base,
            title: "Open this lesson in gradscope".into(),
        });
    }
    let what = if shared.pinned.is_some() {
        "this program and the pinned one"
    } else {
        "this program"
    };
    match (shared.to_fragment(&base), lesson) {
        (Ok(fragment), _) => Some(OpenLink {
            href: format!("{base}{fragment}"),
            title: format!("Open {what} in gradscope (not run until you press Run)"),
        }),
        (Err(why), Some(_)) => Some(OpenLink {
            href: base,
            title: format!(
                "Open this lesson in gradscope as shipped: {what} cannot go in a link ({why})"
            ),
        }),
        (Err(_), None) => None,
    }
}

/// The controls `settings` sets (`ZERO_GRAD=True, LR=0.1`), each a
/// control of `lesson` with a value of its kind, in the order given.
fn lesson_controls<'a>(
    lesson: &Lesson,
    settings: &'a str,
) -> Result<Vec<(&'a str, ControlValue)>, String> {
    let names = || {
        let names: Vec<&str> = lesson.controls.iter().map(|c| c.name).collect();
        names.join(", ")
    };
    let mut values: Vec<(&str, ControlValue)> = Vec::new();
    for setting in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((name, text)) = setting.split_once('=') else {
            return Err(format!(
                "pinned setting \"{setting}\" is not NAME=VALUE (controls: {})",
                names()
            ));
        };
        let (name, text) = (name.trim(), text.trim());
        let control = lesson.control(name).ok_or_else(|| {
            format!(
                "lesson \"{}\" has no control named \"{name}\" (controls: {})",
                lesson.slug,
                names()
            )
        })?;
        let value = ControlValue::parse(control.kind, text)
            .ok_or_else(|| format!("\"{text}\" is not a value {name} takes"))?;
        if values.iter().any(|(n, _)| *n == control.name) {
            return Err(format!("the pinned run sets {name} twice"));
        }
        values.push((control.name, value));
    }
    if values.is_empty() {
        return Err(format!(
            "pinned names no control to set (controls: {})",
            names()
        ));
    }
    Ok(values)
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
    fn a_lesson_with_a_pinned_run() {
        let checked = config(
            r#"{"lesson":"forgot-zero-grad","panels":["memory","charts"],"device":"cpu",
                "pinned":" ZERO_GRAD=False , STEPS = 4"}"#,
        )
        .unwrap();
        assert!(checked.show.memory && checked.show.charts && !checked.show.graph);
        let (pinned, shown) = checked.pinned.unwrap();
        assert_eq!(shown, "ZERO_GRAD = False\nSTEPS = 4");
        // The lesson's program with those two lines changed, the rest as shipped.
        let lesson = gradscope_lessons::find("forgot-zero-grad").unwrap();
        assert_eq!(
            pinned.code,
            lesson
                .program
                .replace("ZERO_GRAD = True\n", "ZERO_GRAD = False\n")
                .replace("STEPS = 5\n", "STEPS = 4\n")
        );
        assert_ne!(pinned.code, checked.source);
        assert_eq!(pinned.device, Device::Cpu);
        assert!(pinned.files.is_empty() && pinned.budget_mib.is_none());
        let unpinned = config(r#"{"lesson":"forgot-zero-grad","panels":["code"],"device":"cpu"}"#);
        assert!(unpinned.unwrap().pinned.is_none());
    }

    #[test]
    fn inline_code_with_a_pinned_program() {
        let checked = config(
            r#"{"code":"from model import k\nprint(k)\n","files":[{"name":"model.py","text":"k = 1\n"}],
                "pinned_code":"from model import k\nprint(k + 1)\n","panels":["code","memory"],"device":"auto"}"#,
        )
        .unwrap();
        let (pinned, shown) = checked.pinned.unwrap();
        assert_eq!(pinned.code, "from model import k\nprint(k + 1)\n");
        assert_eq!(shown, pinned.code);
        assert_eq!(pinned.device, Device::WebGpu);
        assert_eq!(
            pinned.files, checked.files,
            "the pinned program imports the same files"
        );
    }

    #[test]
    fn bad_pinned_settings_say_what_is_wrong() {
        let err = |json: &str| config(json).unwrap_err();
        let lesson = |pinned: &str| {
            err(&format!(
                r#"{{"lesson":"forgot-zero-grad","panels":["memory"],"device":"cpu","pinned":"{pinned}"}}"#
            ))
        };
        assert_eq!(
            lesson("MOMENTUM=0.9"),
            "lesson \"forgot-zero-grad\" has no control named \"MOMENTUM\" (controls: ZERO_GRAD, STEPS, LR)"
        );
        assert_eq!(
            lesson("ZERO_GRAD=maybe"),
            "\"maybe\" is not a value ZERO_GRAD takes"
        );
        assert_eq!(
            lesson("STEPS=99"),
            "STEPS = 99 is not one of the values it takes (an integer in 2..=20)"
        );
        assert_eq!(
            lesson("ZERO_GRAD=False,ZERO_GRAD=True"),
            "the pinned run sets ZERO_GRAD twice"
        );
        assert!(lesson("ZERO_GRAD").contains("is not NAME=VALUE"));
        assert!(lesson(" , ").starts_with("pinned names no control to set"));
        assert!(
            err(
                r#"{"code":"print(1)","pinned":"ZERO_GRAD=False","panels":["code"],"device":"cpu"}"#
            )
            .contains("<template data-pinned>")
        );
        assert!(
            err(r#"{"lesson":"forgot-zero-grad","pinned_code":"print(1)","panels":["code"],"device":"cpu"}"#)
                .contains("goes beside code")
        );
        assert!(
            err(r#"{"code":"print(1)","pinned_code":"  \n","panels":["code"],"device":"cpu"}"#)
                .contains("pinned program is empty")
        );
        let long = format!(
            r#"{{"code":"1","pinned_code":"{}","panels":["code"],"device":"cpu"}}"#,
            "x".repeat(MAX_CODE_CHARS + 1)
        );
        assert!(err(&long).contains("pinned program is 10001 characters long"));
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

    const WIDGET: &str = "http://127.0.0.1:8080/embed.html?code=print(1%2F2)/x&panels=code#y/z";

    #[test]
    fn open_link_page_beside_the_widget() {
        assert_eq!(page_beside(WIDGET), "http://127.0.0.1:8080/");
        assert_eq!(
            page_beside("https://example.org/course/gradscope/embed.html?lesson=retain-graph"),
            "https://example.org/course/gradscope/"
        );
        assert_eq!(
            page_beside("https://example.org/embed.html"),
            "https://example.org/"
        );
    }

    /// The fragment of `link`, read back as the page reads it.
    fn opened(link: &OpenLink) -> Shared {
        let (_, fragment) = link.href.split_once('#').unwrap();
        Shared::from_fragment(fragment).unwrap().unwrap()
    }

    #[test]
    fn open_link_carries_a_lessons_pinned_pair() {
        let checked = config(
            r#"{"lesson":"forgot-zero-grad","panels":["memory","charts"],"device":"cpu",
                "pinned":"ZERO_GRAD=False, STEPS=4"}"#,
        )
        .unwrap();
        let (pinned, _) = checked.pinned.clone().unwrap();
        let shared = checked.shared(&checked.source, checked.device, Some(&pinned));
        let link = open_link(page_beside(WIDGET), &shared).unwrap();
        assert!(
            link.href
                .starts_with("http://127.0.0.1:8080/?lesson=forgot-zero-grad#v1="),
            "{}",
            link.href
        );
        let back = opened(&link);
        assert_eq!(back, shared);
        assert_eq!(back.lesson.as_deref(), Some("forgot-zero-grad"));
        assert_eq!(
            back.code, checked.source,
            "the lesson's code as the widget shows it"
        );
        let carried = back.pinned.unwrap();
        assert!(
            carried.code.contains("ZERO_GRAD = False\n") && carried.code.contains("STEPS = 4\n")
        );
        assert_eq!(carried.device, Device::Cpu);
        assert_eq!(
            link.title,
            "Open this program and the pinned one in gradscope (not run until you press Run)"
        );
    }

    #[test]
    fn open_link_of_a_lesson_as_shipped_is_the_lessons_address() {
        let checked =
            config(r#"{"lesson":"retain-graph","panels":["code"],"device":"auto"}"#).unwrap();
        let page = page_beside(WIDGET);
        let shipped = open_link(page, &checked.shared(&checked.source, checked.device, None));
        assert_eq!(
            shipped,
            Some(OpenLink {
                href: "http://127.0.0.1:8080/?lesson=retain-graph".into(),
                title: "Open this lesson in gradscope".into(),
            })
        );
        // Edited in the widget (or its controls moved): the code goes too.
        let edited = format!("{}print('mine')\n", checked.source);
        let link = open_link(page, &checked.shared(&edited, Device::WebGpu, None)).unwrap();
        let back = opened(&link);
        assert_eq!(
            (back.code, back.device, back.pinned),
            (edited, Device::WebGpu, None)
        );
        assert_eq!(
            link.title,
            "Open this program in gradscope (not run until you press Run)"
        );
    }

    #[test]
    fn open_link_carries_inline_code_its_files_and_pinned_program() {
        let checked = config(
            r#"{"code":"from model import k\nprint(k)\n","files":[{"name":"model.py","text":"k = 1\n"}],
                "pinned_code":"from model import k\nprint(k + 1)\n","panels":["code"],"device":"cpu"}"#,
        )
        .unwrap();
        let (pinned, _) = checked.pinned.clone().unwrap();
        let shared = checked.shared(&checked.source, checked.device, Some(&pinned));
        let link = open_link(page_beside(WIDGET), &shared).unwrap();
        assert!(
            link.href.starts_with("http://127.0.0.1:8080/#v1="),
            "{}",
            link.href
        );
        let back = opened(&link);
        assert_eq!(back, shared);
        assert_eq!(back.lesson, None);
        assert_eq!(back.files, checked.files);
        assert_eq!(back.pinned.unwrap().files, checked.files);
    }

    #[test]
    fn open_link_too_long_for_an_address() {
        // Text deflate cannot shrink: 10,000 pseudo-random letters.
        let mut x = 7u64;
        let noise: String = (0..MAX_CODE_CHARS)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (x >> 59) as u8)
            })
            .collect();
        let lesson =
            config(r#"{"lesson":"retain-graph","panels":["code"],"device":"cpu"}"#).unwrap();
        let link = open_link(
            page_beside(WIDGET),
            &lesson.shared(&noise, Device::Cpu, None),
        )
        .unwrap();
        assert_eq!(link.href, "http://127.0.0.1:8080/?lesson=retain-graph");
        assert!(
            link.title.starts_with(
                "Open this lesson in gradscope as shipped: this program cannot go in a link (the link is"
            ),
            "{}",
            link.title
        );
        let inline = config(r#"{"code":"print(1)","panels":["code"],"device":"cpu"}"#).unwrap();
        assert_eq!(
            open_link(
                page_beside(WIDGET),
                &inline.shared(&noise, Device::Cpu, None)
            ),
            None
        );
    }
}
