// End-to-end: the engine's Web Worker itself, driven by its messages from a
// page on the site's origin, in Debian's headless Chromium with WebGPU
// (SwiftShader).
//
// Env: GRADSCOPE_URL (the served site). Checks that
// - a program runs with its tensors on the GPU (`webgpu` as its default
//   device) and prints what it prints on the CPU, GPU tensors read back into
//   synchronous Python through JSPI;
// - every claim of all fourteen lessons passes, checked in the worker, on
//   the CPU and on WebGPU, and the figures agree between the two;
// - where the browser lacks JSPI, the module still loads, the CPU runs, and
//   asking for the GPU raises PyTorch-style with the reason;
// - the standard library, NumPy, pyplot and tqdm import and work in the
//   worker, the standard library's file fetched only when a program first
//   imports a module outside the start set, and a sample of the public
//   corpus (programs others wrote, tests/public) prints what PyTorch printed.
// Exits non-zero on any failure.
import { readFileSync } from "node:fs";
import { launch } from "./browser.mjs";
import { sameOutput } from "./compare.mjs";

const url = process.env.GRADSCOPE_URL;
if (!url) {
  console.error("engine.mjs: set GRADSCOPE_URL");
  process.exit(2);
}

const TIMEOUT = 180_000;

let failures = 0;
function check(condition, message) {
  if (condition) {
    console.log(`  ok: ${message}`);
  } else {
    failures += 1;
    console.log(`  FAILED: ${message}`);
  }
}

// Tensors on the default device: a forward, a backward, reads into Python
// (print, item, tolist, a comparison's truth value) and a training step.
const PROGRAM = `import torch
torch.manual_seed(0)
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)
out.backward()
print(x.grad)
print(x.device.type, x.grad.sum().item())
w = torch.randn(4, 3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    loss = (w.sum(dim=1) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), bool((w.grad > 0).any()))
print(w.tolist()[0])
`;

// The modules issue 24 names, each used once, and the packages around torch;
// WORLD_OUT is what CPython 3.11 with NumPy 2.4 prints for it.
const WORLD = `import json, re, dataclasses, enum, string, datetime, argparse, pickle, struct, inspect, traceback, textwrap, pprint, statistics, fractions, decimal, queue, threading, unittest, zipfile
parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
parser.add_argument("--lr", type=float, default=1.0)
parser.add_argument("--epochs", type=int, default=14)
args = parser.parse_args([])
print(args.lr, args.epochs)
print(json.dumps({"loss": [0.5, 0.25]}), re.sub(r"\\d+", "#", "layer12.weight3"))
@dataclasses.dataclass
class Config:
    width: int
    depth: int = 2
print(Config(64), enum.Enum("Mode", "TRAIN EVAL").EVAL, string.ascii_lowercase[:5])
print(statistics.mean([1, 2, 3, 4]), fractions.Fraction(3, 6), decimal.Decimal("1.10") + decimal.Decimal("2.20"))
print(struct.pack("<i", 7), textwrap.fill("one two three four", 9).split("\\n"), datetime.date(2024, 1, 31) + datetime.timedelta(days=1))
print(pickle.loads(pickle.dumps({"step": 3})), inspect.signature(lambda a, b=2: a).parameters["b"].default)
q = queue.Queue(); q.put(1); print(q.get(), threading.current_thread().name)
pprint.pprint({"b": 1, "a": [1, 2]})
import numpy as np
print(np.arange(6).reshape(2, 3) * 2, np.float64(1.5))
import matplotlib.pyplot as plt
from tqdm import tqdm
plt.plot([1, 2, 3]); plt.close()
print(sum(i for i in tqdm(range(3), disable=True)))
`;
const WORLD_OUT = `1.0 14
{"loss": [0.5, 0.25]} layer#.weight#
Config(width=64, depth=2) Mode.EVAL abcde
2.5 1/2 3.30
b'\\x07\\x00\\x00\\x00' ['one two', 'three', 'four'] 2024-02-01
{'step': 3} 2
1 MainThread
{'a': [1, 2], 'b': 1}
[[ 0  2  4]
 [ 6  8 10]] 1.5
3
`;

// Public programs that need no files of their own, each with the standard
// library, NumPy, pyplot or tqdm beside torch (cargo xtask test runs all of
// them natively; these show the same holds in the page).
const PUBLIC_SAMPLE = [
  "courses/uva_t2_pytorch_basics",
  "courses/rasbt_appA_tensors_autograd",
  "courses/d2l_probability",
  "tutorials/recipe_what_is_state_dict",
];
const PUBLIC = new URL("../public/", import.meta.url);
// Recorded with a CUDA build: `2.15.0+cu132`; the version before `+` is compared.
const unlocal = (text) => text.replace(/(\d+\.\d+\.\d+)\+[\w.]+/g, "$1");

/// A page on the site's origin that makes workers and talks to them.
async function harness(browser) {
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  page.on("pageerror", (err) => errors.push(err.message));
  // The worker's requests too (its synchronous loads of the standard library).
  page.context().on("request", (request) => requests.push(request.url()));
  await page.route(url + "__engine_test.html", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>engine test</title>" }));
  await page.goto(url + "__engine_test.html");
  await page.evaluate(() => {
    // Replies by worker, and waiters for a reply of some types.
    window.__workers = [];
    window.__start = (src, noJspi) => {
      const worker = noJspi
        // A browser without JSPI: the worker script sees no WebAssembly.Suspending.
        ? new Worker(URL.createObjectURL(new Blob(
          [`delete WebAssembly.Suspending; delete WebAssembly.promising; await import(${JSON.stringify(src)});`],
          { type: "text/javascript" })), { type: "module" })
        : new Worker(src, { type: "module" });
      const entry = { worker, replies: [], waiters: [], errors: [] };
      worker.onmessage = (e) => {
        // Long replies come as UTF-8 bytes (protocol.rs, SMALL_REPLY_BYTES).
        const reply = JSON.parse(typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data));
        entry.replies.push(reply);
        entry.waiters = entry.waiters.filter((w) => !w(reply));
      };
      worker.onerror = (e) => entry.errors.push(e.message ?? String(e));
      window.__workers.push(entry);
      return window.__workers.length - 1;
    };
    // Sends `request`; resolves with every reply up to the first of a type in `until`.
    window.__ask = (id, request, until) => new Promise((resolve) => {
      const entry = window.__workers[id];
      const from = entry.replies.length;
      const waiter = (reply) => {
        if (!until.includes(reply.type)) return false;
        resolve(entry.replies.slice(from));
        return true;
      };
      entry.waiters.push(waiter);
      if (request) entry.worker.postMessage(JSON.stringify(request));
    });
  });
  const start = async (noJspi = false) => {
    const id = await page.evaluate(([src, noJspi]) => window.__start(src, noJspi), [url + "worker.js", noJspi]);
    const replies = await ask(id, null, ["ready", "error"]);
    return { id, ready: replies.at(-1) };
  };
  // A worker that never answers fails the check instead of hanging the run.
  const ask = (id, request, until) => {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(
        `no ${until.join("/")} reply within ${TIMEOUT / 1000} s to ${JSON.stringify(request)?.slice(0, 120)}`)), TIMEOUT);
    });
    const answer = page.evaluate(([id, request, until]) => window.__ask(id, request, until), [id, request, until]);
    return Promise.race([answer, late]).finally(() => clearTimeout(timer));
  };
  return { page, errors, requests, start, ask };
}

/// What a run printed, and how it ended.
async function run(h, id, source, device) {
  const started = Date.now();
  const replies = await h.ask(id, { type: "run_program", source, device }, ["finished", "error"]);
  const text = (type) => replies.filter((r) => r.type === type).map((r) => r.text).join("");
  const end = replies.at(-1);
  const all = replies.filter((r) => r.type === "events").flatMap((r) => r.events);
  const kinds = {};
  for (const e of all) {
    const k = e.kind?.type ?? e.type ?? JSON.stringify(e).slice(0, 40);
    kinds[k] = (kinds[k] ?? 0) + 1;
  }
  return { stdout: text("stdout"), notices: text("notice"), end, events: all.length, kinds, ms: Date.now() - started };
}

const browser = await launch({ webgpu: true });
try {
  const h = await harness(browser);

  console.log("worker with JSPI and WebGPU:");
  const { id, ready } = await h.start();
  check(ready.type === "ready", `the worker is ready (Python started in ${Math.round(ready.startup_ms)} ms)`);
  const [devices] = await h.ask(id, { type: "probe_devices" }, ["devices"]);
  const webgpu = devices.webgpu;
  check(webgpu.status === "available", `WebGPU is available: ${JSON.stringify(webgpu)}`);

  const cpu = await run(h, id, PROGRAM, "cpu");
  const gpu = await run(h, id, PROGRAM, "webgpu");
  console.log(`  measured: the program on cpu ${cpu.ms} ms, on webgpu ${gpu.ms} ms (${gpu.events} events)`);
  check(cpu.end.type === "finished", `the CPU run finished${cpu.end.message ? ": " + cpu.end.message : ""}`);
  check(gpu.end.type === "finished", `the WebGPU run finished${gpu.end.message ? ": " + gpu.end.message : ""}`);
  check(gpu.notices === "", `the WebGPU run computed on the GPU, no fallback notice (${JSON.stringify(gpu.notices)})`);
  check(gpu.stdout.includes("webgpu "), `its tensors were on webgpu: ${JSON.stringify(gpu.stdout.split("\n")[3])}`);
  check(cpu.stdout.includes("cpu "), "the CPU run's tensors were on the CPU");
  // The same numbers to float32 rounding: the GPU sums in another order.
  const differs = sameOutput(gpu.stdout.replace("webgpu ", "cpu "), cpu.stdout);
  check(differs === null, `the WebGPU run printed what the CPU run printed${differs ? ` (${differs})` : ""}:\n${gpu.stdout}`);
  // The autograd story is the same event for event; allocations may differ
  // (kernels make their own temporaries), and only a GPU has a caching
  // allocator whose reserve the trace reports.
  const memory = new Set(["storage_allocated", "storage_freed", "device_reserved"]);
  const story = ({ kinds }) => JSON.stringify(Object.entries(kinds)
    .filter(([k]) => !memory.has(k)).sort());
  check(gpu.events > 0 && story(gpu) === story(cpu),
    `both runs recorded the same graph, backward and optimizer events: ${story(gpu)}${story(gpu) === story(cpu) ? "" : ` against the CPU's ${story(cpu)}`}`);
  check((gpu.kinds.device_reserved ?? 0) > 0 && !cpu.kinds.device_reserved,
    `the WebGPU run reported its allocator's reserve, the CPU run none (${gpu.kinds.device_reserved ?? 0} reports)`);
  console.log(`  measured: allocations: cpu ${cpu.kinds.storage_allocated}, webgpu ${gpu.kinds.storage_allocated}`);

  // A GPU tensor read back in a raised exception's message, and the run after it.
  const raising = await run(h, id, "import torch\nx = torch.ones(3)\nraise ValueError(f'sum {x.sum().item()}')\n", "webgpu");
  check(raising.end.type === "error" && raising.end.kind === "ValueError" && raising.end.message === "sum 3.0",
    `an exception carrying a GPU value: ${raising.end.kind}: ${raising.end.message}`);

  console.log("the Python world around torch:");
  const stdlibFiles = () => h.requests.filter((u) => /stdlib/.test(u.split("/").at(-1)));
  check(stdlibFiles().length === 0,
    `no standard-library file was fetched before a program imported one (${stdlibFiles().join(", ")})`);
  const world = await run(h, id, WORLD, "cpu");
  check(world.end.type === "finished" && world.stdout === WORLD_OUT,
    `the standard library, NumPy, pyplot and tqdm work as in CPython (${world.ms} ms)${world.end.message ? ": " + world.end.message : ""}:\n${world.stdout}`);
  check(stdlibFiles().length >= 1, `and the first such import fetched the library's file: ${stdlibFiles().join(", ")}`);
  for (const name of PUBLIC_SAMPLE) {
    const source = readFileSync(new URL(name + ".py", PUBLIC), "utf8");
    const want = readFileSync(new URL(name + ".out", PUBLIC), "utf8");
    const got = await run(h, id, source, "cpu");
    const differs = got.end.type === "finished" ? sameOutput(unlocal(got.stdout), unlocal(want)) : got.end.message;
    check(differs === null, `public ${name} prints what PyTorch printed (${got.ms} ms)${differs ? `: ${differs}` : ""}`);
  }

  const catalog = (await (await fetch(url + "embed-lessons.json")).json()).lessons;
  check(catalog.length === 14, `the catalogue lists 14 lessons (${catalog.length})`);
  const figures = {};
  for (const device of ["cpu", "webgpu"]) {
    let claims = 0, passed = 0;
    const started = Date.now();
    for (const lesson of catalog) {
      const replies = await h.ask(id, { type: "check_lesson", slug: lesson.slug, device }, ["lesson_checked", "error"]);
      const report = replies.at(-1);
      if (report.type !== "lesson_checked") {
        check(false, `${device}: lesson ${lesson.slug} was checked: ${report.kind}: ${report.message}`);
        continue;
      }
      const notices = replies.filter((r) => r.type === "notice").map((r) => r.text);
      if (notices.length) check(false, `${device}: ${lesson.slug} ran on its device: ${notices.join("; ")}`);
      for (const claim of report.claims) {
        claims += 1;
        if (claim.passed) passed += 1;
        else check(false, `${device}: ${lesson.slug}: "${claim.text}" (${claim.measured})`);
      }
      figures[`${device} ${lesson.slug}`] = JSON.stringify(report.figures);
    }
    console.log(`  measured: ${device}: 14 lessons, ${passed}/${claims} claims passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    check(claims > 0 && passed === claims, `${device}: every claim of every lesson passes in the browser (${passed}/${claims})`);
  }
  const differ = catalog.filter((l) => figures[`cpu ${l.slug}`] !== figures[`webgpu ${l.slug}`]).map((l) => l.slug);
  check(differ.length === 0, `the lessons' figures agree on cpu and webgpu${differ.length ? ": differ in " + differ.join(", ") : ""}`);

  console.log("worker without JSPI (stand-ins):");
  const bare = await h.start(true);
  check(bare.ready.type === "ready", `the module still loads (${bare.ready.type}${bare.ready.message ? ": " + bare.ready.message : ""})`);
  if (bare.ready.type === "ready") {
    const [probe] = await h.ask(bare.id, { type: "probe_devices" }, ["devices"]);
    check(probe.webgpu.status === "unavailable" && /Promise Integration/.test(probe.webgpu.reason),
      `the device menu is told why: ${probe.webgpu.reason}`);
    const plain = await run(h, bare.id, "import torch\nprint(torch.ones(2) * 3)\n", "cpu");
    check(plain.stdout === "tensor([3., 3.])\n", `the CPU runs: ${JSON.stringify(plain.stdout)}`);
    const asked = await run(h, bare.id, "import torch\nx = torch.ones(2, device='webgpu')\n", "cpu");
    check(asked.end.type === "error" && asked.end.kind === "RuntimeError"
      && /^WebGPU is not available: .*Promise Integration/.test(asked.end.message),
    `asking for the GPU raises: ${asked.end.kind}: ${asked.end.message}`);
    const fellBack = await run(h, bare.id, "import torch\nprint(torch.ones(1).device)\n", "webgpu");
    check(fellBack.stdout === "cpu\n" && /this run computes on the CPU/.test(fellBack.notices),
      `a webgpu run falls back to the CPU and says why: ${JSON.stringify(fellBack.notices)}`);
  }
  check(h.errors.length === 0, `no page errors${h.errors.length ? ": " + h.errors.join("; ") : ""}`);
} finally {
  await browser.close();
}
if (failures > 0) {
  console.log(`engine.mjs: ${failures} check(s) failed`);
  process.exit(1);
}
console.log("engine.mjs: all checks passed");
