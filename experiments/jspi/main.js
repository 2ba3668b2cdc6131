import { probe } from "./probe.js";
const out = document.getElementById("log");
const log = (s) => { out.textContent += s + "\n"; };
// First in a Web Worker (where gradscope's engine runs), then on the page.
const worker = new Worker("./worker.js", { type: "module" });
worker.onerror = (e) => log(`worker error: ${e.message}`);
worker.onmessage = async (e) => {
  log("[worker] " + e.data);
  if (e.data === "done") {
    await probe((s) => log("[page] " + s));
    document.title = "finished";
  }
};
