// The widget's first view, in plain DOM: the title, the program, the
// controls and the "open in gradscope ↗" link the app will draw (a share
// link to the same settings), drawn from the address and the lesson
// catalogue the build writes (embed-lessons.json), a few KB in all. The
// yew app, the editor and the engine's worker (megabytes) load only when
// the frame is seen or the reader presses Run; the app then takes over the
// same <main id="app">, its own link replacing this one.
//
// Security: every value from the address is checked against fixed lists or
// limits and only ever set as text or as a data attribute, never as HTML
// (the link's address is this site's page, the settings deflated into its
// base64url fragment); nothing from it is evaluated. Code from the address runs only when the
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
  let pinnedRun = null;
  if (pinned !== null) {
    pinnedRun = pinnedLesson(lesson, pinned);
    if (pinnedRun.error) return { error: pinnedRun.error };
  } else if (pinnedCode !== null) {
    pinnedRun = { code: pinnedCode, shown: pinnedCode };
  }
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
      pinnedRun,
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
  // The app's "open in gradscope ↗", as it will draw it (a share link is
  // deflated, which the browser does asynchronously: a moment later).
  openLink(config, location.href).then((link) => {
    if (!link || !top.isConnected) return;
    top.querySelector(".title").after(el("a.open", {
      href: link.href, title: link.title, target: "_blank", rel: "noopener", "data-testid": "open-in-page",
    }, "open in gradscope ↗"));
  });
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
    el("pre", {}, config.pinnedRun?.shown ?? ""))];
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

/// A lesson's run to pin first, as `settings` (`ZERO_GRAD=False, STEPS=4`)
/// sets its controls: `{ code, shown }` (the program so set, and the
/// controls' lines), or `{ error }` in the app's words
/// (crates/ui/src/embed.rs `lesson_controls`). A control's kind is read
/// from its line in the program as shipped (`True`, `5`, `0.1`, `"grad"`);
/// the app checks the value's range.
function pinnedLesson(lesson, settings) {
  const names = lesson.controls.map((c) => c.name).join(", ");
  const values = [];
  for (const setting of settings.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = setting.indexOf("=");
    if (eq < 0) return { error: `pinned setting "${setting}" is not NAME=VALUE (controls: ${names})` };
    const name = setting.slice(0, eq).trim();
    const text = setting.slice(eq + 1).trim();
    const control = lesson.controls.find((c) => c.name === name);
    if (!control) return { error: `lesson "${lesson.slug}" has no control named "${name}" (controls: ${names})` };
    const at = controlLine(lesson.program, name);
    const shipped = at < 0 ? null : lesson.program.split("\n")[at].replace(/^[^=]*=/, "").replace(/\s#.*$/, "").trim();
    const value = shipped === null ? null : controlValue(shipped, text);
    if (value === null) return { error: `"${text}" is not a value ${name} takes` };
    if (values.some((v) => v.name === name)) return { error: `the pinned run sets ${name} twice` };
    values.push({ name, value });
  }
  if (values.length === 0) return { error: `pinned names no control to set (controls: ${names})` };
  const ends = lesson.program.endsWith("\n");
  const lines = (ends ? lesson.program.slice(0, -1) : lesson.program).split("\n");
  for (const { name, value } of values) lines[controlLine(lesson.program, name)] = `${name} = ${value}`;
  return {
    code: lines.join("\n") + (ends ? "\n" : ""),
    shown: values.map(({ name, value }) => `${name} = ${value}`).join("\n"),
  };
}

/// The index of control `name`'s line: the first unindented `NAME = ...`.
function controlLine(program, name) {
  return program.split("\n").findIndex((line) => {
    if (!line.startsWith(name)) return false;
    const rest = line.slice(name.length);
    return rest.trimStart().startsWith("=") && !rest.includes("==");
  });
}

/// `text` as the Python literal a control whose shipped value is
/// `shipped` is written with (`True`, `5`, `0.1`, `"grad"`), or null.
function controlValue(shipped, text) {
  if (shipped === "True" || shipped === "False") {
    if (text === "True" || text === "true") return "True";
    if (text === "False" || text === "false") return "False";
    return null;
  }
  if (/^["']/.test(shipped)) {
    const quoted = /^"([\s\S]*)"$/.exec(text) ?? /^'([\s\S]*)'$/.exec(text);
    return `"${quoted ? quoted[1] : text}"`;
  }
  if (/^[+-]?\d+$/.test(shipped)) {
    if (!/^[+-]?\d+$/.test(text)) return null;
    const n = BigInt(text);
    return n >= -(2n ** 63n) && n < 2n ** 63n ? n.toString() : null;
  }
  // A float, written as Rust's `{:?}` writes it: a decimal point always,
  // an exponent below 1e-4 and from 1e16.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  const x = Number(text);
  if (!Number.isFinite(x)) return null;
  const size = Math.abs(x);
  if (size !== 0 && (size < 1e-4 || size >= 1e16)) return x.toExponential().replace("e+", "e");
  const plain = String(x);
  return Number.isInteger(x) ? `${Object.is(x, -0) ? "-0" : plain}.0` : plain;
}

/// The folder of the page beside this widget (`https://SITE/`, from its
/// frame's `https://SITE/embed.html?...`), without the query.
function pageBeside(widget) {
  const path = widget.split(/[?#]/)[0];
  return path.slice(0, path.lastIndexOf("/") + 1);
}

// A share link's limits and format (crates/ui/src/share.rs).
const MAX_URL_BYTES = 8 * 1024;

/// What the app's "open in gradscope ↗" will link to before the reader
/// edits anything (crates/ui/src/embed.rs `open_link`): `{ href, title }`,
/// or null (code too long for a link, or no deflate in this browser).
/// The settings are the app's JSON, field for field, so the page reads
/// the same program, files, device, lesson and pinned pair from either.
async function openLink(config, widget) {
  const page = pageBeside(widget);
  const lesson = config.lesson;
  const base = lesson ? `${page}?lesson=${lesson.slug}` : page;
  if (lesson && config.pinnedRun === null) return { href: base, title: "Open this lesson in gradscope" };
  const device = config.device === "cpu" ? "cpu" : "webgpu";
  const files = config.files.map((f) => ({ name: f.name, text: f.text }));
  const shared = {
    code: lesson ? lesson.program : config.code,
    device,
    ...(lesson ? { lesson: lesson.slug } : {}),
    ...(files.length ? { files } : {}),
    ...(config.pinnedRun ? { pinned: { code: config.pinnedRun.code, device, ...(files.length ? { files } : {}) } } : {}),
  };
  const what = config.pinnedRun ? "this program and the pinned one" : "this program";
  let fragment;
  try {
    fragment = `#v1=${base64url(await deflateRaw(JSON.stringify(shared)))}`;
  } catch {
    return lesson ? { href: base, title: "Open this lesson in gradscope as shipped" } : null;
  }
  const bytes = base.length + fragment.length;
  if (bytes <= MAX_URL_BYTES) {
    return { href: base + fragment, title: `Open ${what} in gradscope (not run until you press Run)` };
  }
  const why = `the link is ${Math.ceil(bytes / 1024)} KB long, over the ${MAX_URL_BYTES / 1024} KB a link may have`;
  return lesson ? { href: base, title: `Open this lesson in gradscope as shipped: ${what} cannot go in a link (${why})` } : null;
}

/// `text` in UTF-8, raw DEFLATE (RFC 1951), as the page inflates it.
async function deflateRaw(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/// `bytes` in base64url without padding.
function base64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
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
