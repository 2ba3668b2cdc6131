// The widget's first view, in plain DOM: the title, the program and the
// controls, drawn from the address and the lesson catalogue the build writes
// (embed-lessons.json), a few KB in all. The yew app, the editor and the
// engine's worker (megabytes) load only when the frame is seen or the reader
// presses Run; the app then takes over the same <main id="app">.
//
// Security: every value from the address is checked against fixed lists or
// limits and only ever set as text or as a data attribute, never as HTML;
// nothing from it is evaluated. Code from the address runs only when the
// reader presses Run; `autorun` applies to built-in lessons alone.

const PANELS = ["lesson", "code", "graph", "memory", "charts", "console"];
const DEFAULT_PANELS = ["code", "graph", "memory", "console"];
const HIDE = ["title", "device", "status", "steps", "scrub", "reset"];
const DEVICES = ["auto", "cpu", "webgpu"];
const PARAMS = ["lesson", "code", "files", "panels", "hide", "device", "autorun", "height", "time_limit", "pinned",
  "pinned_code"];
// Extra files beside inline code (crates/ui/src/files.rs has the same rules).
const MAX_FILES = 16;
const FILE_NAME = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;
// The loader (widget.js) and the app (crates/ui/src/embed.rs) use the same limits.
const MAX_CODE = 10000;
const MAX_VALUE = 200;
const HEIGHT = { min: 160, max: 4000, default: 480 };

const root = document.getElementById("app");

/// Posts the document's height to the host page, so its frame fits (the
/// loader listens; any host may, so the message carries nothing private).
function reportHeight() {
  if (window.parent === window) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  window.parent.postMessage({ type: "gradscope:height", height }, "*");
}
new ResizeObserver(reportHeight).observe(document.documentElement);

/// Checks the address; returns `{ config }` or `{ error }` (a sentence).
export function readAddress(search, catalog) {
  const params = new URLSearchParams(search);
  for (const name of new Set(params.keys())) {
    if (!PARAMS.includes(name)) return { error: `unknown setting "${clip(name)}" (settings: ${PARAMS.join(", ")})` };
    if (params.getAll(name).length > 1) return { error: `the setting "${name}" is given twice` };
    const value = params.get(name);
    const limit = ["code", "files", "pinned_code"].includes(name) ? MAX_CODE : MAX_VALUE;
    if ([...value].length > limit) {
      return { error: `the setting "${name}" is ${[...value].length} characters long; at most ${limit} fit` };
    }
  }
  const slug = params.get("lesson");
  const code = params.get("code");
  let lesson = null;
  if (slug !== null && code !== null) return { error: "give the widget a lesson or code, not both" };
  if (slug === null && code === null) return { error: 'give the widget a lesson (lesson="SLUG") or code' };
  if (slug !== null) {
    lesson = catalog.lessons.find((l) => l.slug === slug);
    if (!lesson) {
      return { error: `there is no lesson named "${clip(slug)}" (lessons: ${catalog.lessons.map((l) => l.slug).join(", ")})` };
    }
  } else if (code.trim() === "") {
    return { error: "the widget's code is empty" };
  }
  // A pinned pair (crates/ui/src/embed.rs checks the controls): a
  // lesson's run with other controls, or another program beside code.
  const pinned = params.get("pinned");
  const pinnedCode = params.get("pinned_code");
  if (pinned !== null && lesson === null) {
    return { error: 'pinned="NAME=VALUE" sets a lesson\'s controls; beside code, give the pinned program in a <template data-pinned>' };
  }
  if (pinnedCode !== null && lesson !== null) {
    return { error: 'a pinned program goes beside code; a lesson\'s pinned run takes its controls (pinned="NAME=VALUE")' };
  }
  if (pinnedCode !== null && pinnedCode.trim() === "") return { error: "the widget's pinned program is empty" };
  const files = readFiles(params.get("files"));
  if (files.error) return { error: files.error };
  if (files.items.length && code === null) return { error: "files go beside code, not a lesson" };
  const list = (name, allowed, fallback) => {
    const value = params.get(name);
    if (value === null) return { items: fallback };
    const items = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
    const bad = items.find((s) => !allowed.includes(s));
    if (bad !== undefined) return { error: `there is no ${name === "panels" ? "panel" : "control to hide"} named "${clip(bad)}" (${allowed.join(", ")})` };
    return { items };
  };
  const panels = list("panels", PANELS, DEFAULT_PANELS);
  if (panels.error) return { error: panels.error };
  if (panels.items.length === 0) return { error: "the widget shows no panel" };
  const hide = list("hide", HIDE, []);
  if (hide.error) return { error: hide.error };
  const device = params.get("device") ?? "auto";
  if (!DEVICES.includes(device)) return { error: `there is no device named "${clip(device)}" (auto, cpu or webgpu)` };
  const autorunText = params.get("autorun");
  let autorun = false;
  if (autorunText !== null) {
    if (["", "1", "true"].includes(autorunText)) autorun = true;
    else if (!["0", "false"].includes(autorunText)) return { error: `autorun is "${clip(autorunText)}": write true or false` };
  }
  let height = HEIGHT.default;
  const heightText = params.get("height");
  if (heightText !== null) {
    height = /^\d{1,5}$/.test(heightText) ? Number(heightText) : NaN;
    if (!(height >= HEIGHT.min && height <= HEIGHT.max)) {
      return { error: `height is "${clip(heightText)}": give a number of pixels from ${HEIGHT.min} to ${HEIGHT.max}` };
    }
  }
  const timeLimit = params.get("time_limit");
  if (timeLimit !== null && !/^[1-9]\d{0,4}$/.test(timeLimit)) {
    return { error: `time_limit is "${clip(timeLimit)}": give a whole number of seconds` };
  }
  return {
    config: {
      lesson, code, files: files.items, panels: panels.items, hide: hide.items, device, height, pinned, pinnedCode,
      // Only a built-in lesson may start by itself.
      autorun: autorun && lesson !== null,
      autorunRefused: autorun && lesson === null,
    },
  };
}

/// A value quoted back in a message, cut short.
function clip(text) {
  return text.length > 40 ? text.slice(0, 40) + "…" : text;
}

/// `el("tag.class", { attr: value }, ...children)`; strings become text nodes.
function el(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag);
  if (classes.length) node.className = classes.join(" ");
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

function showError(message) {
  root.className = "embed embed-failed";
  root.replaceChildren(el("div.embed-error", { role: "alert", "data-testid": "widget-error" },
    el("strong", {}, "This gradscope widget cannot start: "), message));
  reportHeight();
}

/// Layout classes on <main id="app"> (kept when the app replaces its children).
function layout(config) {
  const has = (p) => config.panels.includes(p);
  root.classList.add(...config.hide.map((h) => `hide-${h}`));
  if (!(has("code") || has("console") || (has("lesson") && config.lesson))) root.classList.add("no-left");
  if (!(has("graph") || has("memory") || has("charts"))) root.classList.add("no-right");
  root.style.setProperty("--embed-height", `${config.height}px`);
}

/// The first view: what the app will show, without the engine.
function drawFirstView(config, onRun) {
  const has = (p) => config.panels.includes(p);
  const lesson = config.lesson;
  const program = lesson ? lesson.program : config.code;
  const status = el("span.status", { "data-testid": "status", role: "status" },
    config.autorunRefused ? "press Run to run this code" : "the engine loads when this widget is in view");
  const top = el("header.top", {},
    el("h1.title", { "data-testid": "title" }, lesson ? `Lesson ${lesson.number} · ${lesson.title}` : "gradscope"));
  if (lesson) {
    top.append(el("a.open", { href: `./?lesson=${encodeURIComponent(lesson.slug)}`, target: "_blank", rel: "noopener" },
      "open in gradscope ↗"));
  }
  top.append(el("div.device-menu", {}, el("label", {}, "Device"),
    el("select", { disabled: true, "aria-label": "Device" }, el("option", {}, config.device === "cpu" ? "CPU" : "WebGPU (auto)"))), status);
  const left = el("div.left");
  if (lesson && has("lesson")) {
    const panel = el("section.panel.lesson", { "aria-label": "Lesson" }, el("h2", {}, `Lesson ${lesson.number} · ${lesson.title}`));
    for (const p of lesson.text.split("\n\n")) panel.append(el("p", {}, p.replaceAll("\n", " ").replaceAll("`", "")));
    left.append(panel);
  }
  // The pinned pair's note, as the app draws it (share_bar.rs PinnedNote).
  const pinnedNote = config.pinned === null && config.pinnedCode === null ? [] : [el("details.pinned-program", {},
    el("summary", {}, "Pinned program from the widget: Run runs it first and pins it, then the code below"),
    el("pre", {}, config.pinnedCode ?? config.pinned))];
  if (has("code")) {
    left.append(el("section.panel.editor", { "aria-label": "Program" }, ...pinnedNote,
      el("pre.code-preview", { "data-testid": "code-preview" }, program)));
  }
  if (has("console")) {
    left.append(el("section.panel.console", { "aria-label": "Console" }, el("h2", {}, "Console"),
      el("pre", {}, el("span.notice", {}, "Output appears here once the program runs."))));
  }
  const right = el("div.right");
  if (!has("code")) right.append(...pinnedNote);
  if (has("graph")) {
    right.append(el("section.panel.graph", { "aria-label": "Autograd graph" }, el("h2", {}, "Autograd graph"),
      el("div.graph-view", {}, el("p.empty", {}, "Run the program to see autograd build its graph."))));
  }
  if (has("memory")) {
    right.append(el("section.panel.memory.placeholder", { "aria-label": "Memory timeline" }, el("h2", {}, "Memory"),
      el("p.empty", {}, "Memory by category appears here as the program runs.")));
  }
  if (has("charts")) {
    right.append(el("section.panel.charts.placeholder", { "aria-label": "Training charts" }, el("h2", {}, "Training"),
      el("p.empty", {}, "Loss and gradient norms per step appear here once the program trains.")));
  }
  const run = el("button.run", { type: "button", "data-testid": "run", title: "Run" }, "▶ Run");
  run.addEventListener("click", () => {
    run.disabled = true;
    status.textContent = "loading engine";
    onRun();
  });
  const off = (text, label) => el("button.step", { type: "button", disabled: true, "aria-label": label }, text);
  const transport = el("div.transport", { role: "toolbar", "aria-label": "Run and step" }, run,
    el("button", { type: "button", disabled: true }, "■ Stop"),
    el("span.steps", {}, off("⇤", "back one statement"), off("←", "back one op"), off("→", "forward one op"),
      off("⇥", "forward one statement")),
    el("span.steps.passes", {}, off("◀ pass", "back to the previous step's backward"),
      off("pass ▶", "forward to the next step's backward")),
    el("input.scrub", { type: "range", min: 0, max: 0, value: 0, disabled: true, "aria-label": "trace position" }),
    el("span.where", {}, "event 0 / 0"),
    el("button.reset", { type: "button", disabled: true }, "Reset"));
  root.replaceChildren(top, ...(left.childElementCount ? [left] : []), ...(right.childElementCount ? [right] : []), transport);
  return status;
}

/// Loads the editor and the yew app; the app reads `data-config`, replaces
/// the first view and starts the engine's worker.
let loading = null;
function loadApp(config, runNow, status) {
  if (loading) {
    if (runNow) root.dataset.config = settings(config, true);
    return loading;
  }
  status.textContent = "loading engine";
  root.dataset.config = settings(config, runNow);
  loading = (async () => {
    try {
      window.gradscopeEditor = await import("./editor.js");
    } catch (err) {
      console.warn("gradscope: the code editor did not load:", err);
    }
    const { default: init } = await import("./pkg/gradscope_ui.js");
    await init();
  })().catch((err) => {
    showError(`the app could not load: ${err}`);
  });
  return loading;
}

/// The `files` setting: a JSON list of `{name, text}`; `{ items }` or `{ error }`.
function readFiles(json) {
  if (json === null) return { items: [] };
  let items;
  try {
    items = JSON.parse(json);
  } catch {
    return { error: "the widget's files are not JSON" };
  }
  if (!Array.isArray(items) || items.length > MAX_FILES) {
    return { error: `the widget's files must be a list of at most ${MAX_FILES}` };
  }
  const names = new Set();
  for (const file of items) {
    if (typeof file !== "object" || file === null || typeof file.name !== "string" || typeof file.text !== "string"
      || Object.keys(file).length !== 2) {
      return { error: "each of the widget's files needs a name and a text" };
    }
    if (!FILE_NAME.test(file.name) || file.name.split("/").some((p) => p === "." || p === "..")
      || file.name === "main.py" || names.has(file.name)) {
      return { error: `"${clip(file.name)}" cannot be a file's name here` };
    }
    names.add(file.name);
  }
  return { items };
}

/// The settings as the app reads them (crates/ui/src/embed.rs `Config`).
function settings(config, run) {
  return JSON.stringify({
    ...(config.lesson ? { lesson: config.lesson.slug } : { code: config.code }),
    ...(config.files.length ? { files: config.files } : {}),
    ...(config.pinned !== null ? { pinned: config.pinned } : {}),
    ...(config.pinnedCode !== null ? { pinned_code: config.pinnedCode } : {}),
    panels: config.panels, device: config.device, autorun: config.autorun, run,
  });
}

async function main() {
  let catalog;
  try {
    const response = await fetch("./embed-lessons.json");
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    catalog = await response.json();
  } catch (err) {
    showError(`the lesson catalogue could not load (${err.message})`);
    return;
  }
  const { config, error } = readAddress(location.search, catalog);
  if (error) {
    showError(error);
    return;
  }
  layout(config);
  let status = null;
  status = drawFirstView(config, () => loadApp(config, true, status));
  // The engine loads once any of the frame is in the reader's view (in a
  // frame, the observer measures against the top page's viewport).
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      loadApp(config, false, status);
    }
  });
  observer.observe(root);
  reportHeight();
}

main();
