// gradscope's loader for other sites' pages. It defines
//
//   <gradscope-widget lesson="forgot-zero-grad" panels="code,graph,memory"
//                     device="auto" height="480"></gradscope-widget>
//
// (or a program in the element's body instead of `lesson`, with files beside
// it as <template data-file="model.py"> children). A widget may open with a
// pinned pair, as a share link can: Run runs the pinned program first, pins
// its run, then runs the widget's own beside it. A lesson's pinned run sets
// its controls (pinned="ZERO_GRAD=False"); beside a program, the pinned one
// is a <template data-pinned> child. It draws each
// as an iframe of this site's embed.html with the settings in its address,
// so the host page and the widget cannot break each other. The frame posts
// its height; the loader sizes the frame to it. Load it with
//
//   <script src="https://SITE/widget.js" defer></script>
//
// It reads attributes as plain strings and never evaluates them; embed.html
// checks every value again and says, inside the widget, what is wrong.
(() => {
  "use strict";
  if (!window.customElements || customElements.get("gradscope-widget")) return;

  // The site is where this script came from.
  const script = document.currentScript;
  const SITE = new URL(".", script && script.src ? script.src : location.href);
  // The same limits as embed.js and crates/ui/src/embed.rs.
  const MAX_CODE = 10000;
  const MAX_VALUE = 200;
  const ATTRIBUTES = ["lesson", "panels", "hide", "device", "autorun", "height", "pinned"];
  const frames = new Map(); // iframe -> its element

  const STYLE = `
    :host { display: block; margin: 1.2em 0; }
    iframe { display: block; box-sizing: content-box; width: calc(100% - 2px); border: 1px solid #d9dce3; border-radius: 10px; background: #fff; }
    .error { padding: 0.8em 1em; border: 1px solid #d55e00; border-radius: 8px; background: #fbe3d9;
      color: #7a2a00; font: 0.95rem system-ui, sans-serif; overflow-wrap: anywhere; }`;

  /// The element's body as a program: blank lines around it dropped and the
  /// indentation the host page gave every line removed.
  function programIn(element) {
    const lines = (element.textContent || "").replace(/\r\n?/g, "\n").split("\n");
    while (lines.length && lines[0].trim() === "") lines.shift();
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
    const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)[0].length);
    const cut = indents.length ? Math.min(...indents) : 0;
    return lines.map((l) => l.slice(cut)).join("\n") + (lines.length ? "\n" : "");
  }

  class GradscopeWidget extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      // Parsed from a script in <head>, the body is not there yet.
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", () => this.draw(), { once: true });
      } else {
        this.draw();
      }
    }

    disconnectedCallback() {
      for (const [frame, element] of frames) if (element === this) frames.delete(frame);
    }

    draw() {
      if (this.shadowRoot) return;
      const shadow = this.attachShadow({ mode: "open" });
      const style = document.createElement("style");
      style.textContent = STYLE;
      shadow.append(style);
      const params = new URLSearchParams();
      let problem = null;
      for (const name of ATTRIBUTES) {
        const value = this.getAttribute(name);
        if (value === null) continue;
        if (value.length > MAX_VALUE) problem = `the ${name} attribute is ${value.length} characters long; at most ${MAX_VALUE} fit`;
        params.set(name, value);
      }
      if (!this.hasAttribute("lesson")) {
        const code = programIn(this);
        if ([...code].length > MAX_CODE) problem = `the program is ${[...code].length} characters long; at most ${MAX_CODE} fit`;
        params.set("code", code);
        // Extra files beside the program, each a <template data-file="model.py">
        // (a template's text is not the element's, so not the program's).
        const files = [...this.querySelectorAll(":scope > template[data-file]")]
          .map((t) => ({ name: t.dataset.file, text: programIn(t.content) }));
        const pinned = this.querySelector(":scope > template[data-pinned]");
        if (pinned) {
          const code = programIn(pinned.content);
          if ([...code].length > MAX_CODE) problem = `the pinned program is ${[...code].length} characters long; at most ${MAX_CODE} fit`;
          params.set("pinned_code", code);
        }
        if (files.length) {
          const json = JSON.stringify(files);
          if ([...json].length > MAX_CODE) problem = `the widget's files are ${[...json].length} characters long; at most ${MAX_CODE} fit`;
          params.set("files", json);
        }
      }
      if (problem) {
        // Too long to put in an address: said here, never a blank frame.
        const box = document.createElement("div");
        box.className = "error";
        box.setAttribute("role", "alert");
        const lead = document.createElement("strong");
        lead.textContent = "This gradscope widget cannot start: ";
        box.append(lead, problem);
        shadow.append(box);
        return;
      }
      const frame = document.createElement("iframe");
      const height = Number(this.getAttribute("height"));
      frame.style.height = `${Number.isInteger(height) && height >= 160 && height <= 4000 ? height : 480}px`;
      frame.title = `gradscope: ${this.getAttribute("lesson") || "a PyTorch program"}`;
      frame.src = new URL(`embed.html?${params}`, SITE).href;
      frames.set(frame, this);
      shadow.append(frame);
    }
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.origin !== SITE.origin || !data || data.type !== "gradscope:height") return;
    const height = Number(data.height);
    if (!Number.isFinite(height) || height <= 0) return;
    for (const [frame, element] of frames) {
      if (frame.contentWindow !== event.source) continue;
      frame.style.height = `${Math.min(Math.ceil(height), 8000)}px`;
      element.dispatchEvent(new CustomEvent("gradscope-resize", { detail: { height } }));
    }
  });

  customElements.define("gradscope-widget", GradscopeWidget);
})();
