// The playground's entry: the editor bundle first (the app finds it as
// window.gradscopeEditor and falls back to a plain text area when it did not
// load), then the yew app. A file rather than an inline script, so the
// site's Content-Security-Policy can allow only its own script files.
try {
  window.gradscopeEditor = await import("./editor.js");
} catch (err) {
  console.warn("gradscope: the code editor did not load:", err);
}
const { default: init } = await import("./pkg/gradscope_ui.js");
init().catch((err) => {
  document.getElementById("app").textContent = "gradscope could not start: " + err;
});
