// The engine's Web Worker: loads the wasm module (whose start function makes
// the Python interpreter and posts {"type":"ready"}), then hands it the
// page's messages one at a time.
import init, { on_message } from "./pkg/gradscope_webworker.js";

// The module reads GPU results into synchronous Python by suspending on
// promises (WebAssembly JavaScript Promise Integration). Its glue builds
// `new WebAssembly.Suspending(...)` when it loads, so where JSPI is missing
// the module would not load at all: stand-ins let it load, nothing
// suspends, and the engine tells programs the GPU is unavailable and why.
if (typeof WebAssembly.Suspending !== "function") {
  self.__gradscopeJspiStandIn = true;
  WebAssembly.Suspending = function (f) { return f; };
  WebAssembly.promising = (f) => (...args) => Promise.resolve(f(...args));
}

const fail = (what, err) => postMessage(JSON.stringify({
  type: "error", kind: "RuntimeError", message: `${what}: ${err}`,
}));

// Messages that arrive before the module is ready wait in the queue too.
let queue = init().catch((err) => fail("the engine could not load", err));

// One message at a time: `on_message` settles when its reply is posted,
// and a run suspended on the GPU must not be entered by the next message.
self.onmessage = (event) => {
  queue = queue
    .then(() => on_message(event.data))
    .catch((err) => fail("the engine failed", err));
};
