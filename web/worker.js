// The engine's Web Worker: loads the wasm module, whose start function
// installs the message handler and posts {"type":"ready"}.
import init from "./pkg/gradscope_webworker.js";

init().catch((err) => {
  postMessage(JSON.stringify({ type: "error", kind: "RuntimeError", message: "the engine could not load: " + err }));
});
