// The main thread's frame times, measured in the page with the Performance
// API (performance.now, PerformanceObserver), for playground.mjs and
// playground_controls.mjs.
//
// Two figures per frame, because they answer different questions:
// - work: the main thread's time on the frame, from the start of its
//   requestAnimationFrame callbacks (ours is registered first, so it runs
//   before the page's) to the end of its style, layout and paint (a
//   MessageChannel message posted from the callback runs as the next task,
//   after the frame's rendering). This is the frame time that must fit in
//   the 16 ms of a 60 Hz frame; anything the page does then (parsing the
//   worker's events, the views' updates) is in it.
// - interval: the time between frames (requestAnimationFrame timestamps).
//   At 60 Hz it cannot be under 16.7 ms; an interval of two or more frames
//   is a frame dropped, whether the page or the machine (on 2 cores, the
//   worker and Chromium's background compilation) was the cause.
// Long tasks and long animation frames (over 50 ms, as the
// PerformanceObserver reports them) are counted too: a task between
// frames, not in one, shows up there, and a long animation frame's
// duration counts the tasks that held its rendering back.

/// Starts recording.
export async function startFrames(page) {
  await page.evaluate(() => {
    const f = (window.__frames = { work: [], intervals: [], long: [], loaf: [], on: true });
    try {
      f.observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) (e.entryType === "longtask" ? f.long : f.loaf).push(e.duration);
      });
      f.observer.observe({ type: "longtask" });
      f.observer.observe({ type: "long-animation-frame" });
    } catch { /* no long task timing: the other figures still tell */ }
    // Each frame's message carries its own start: where the browser runs
    // the next frame before a message (it may, to keep rendering going),
    // that message measures both frames, an overestimate, never a frame lost.
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => f.work.push(performance.now() - e.data);
    let last = null;
    const tick = (t) => {
      if (!f.on) return;
      // Asked first, so that next frame this callback runs before the
      // page's own (callbacks run in the order they were asked for).
      requestAnimationFrame(tick);
      channel.port2.postMessage(performance.now());
      if (last !== null) f.intervals.push(t - last);
      last = t;
    };
    requestAnimationFrame(tick);
  });
}

function quantiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN };
}

/// Stops recording; prints the figures under `label` and returns them:
/// `work` and `interval` quantiles (n, p50, p95, max), `dropped` (intervals
/// over 1.5 frames) and `long` (the long tasks' durations).
export async function stopFrames(page, label) {
  const raw = await page.evaluate(async () => {
    const f = window.__frames;
    f.on = false;
    f.observer?.disconnect();
    // The last frame's message may still be queued.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { work: f.work, intervals: f.intervals, long: f.long, loaf: f.loaf };
  });
  const work = quantiles(raw.work);
  const interval = quantiles(raw.intervals);
  const dropped = raw.intervals.filter((d) => d > 1.5 * 1000 / 60).length;
  const ms = (x) => x.toFixed(1);
  console.log(`  measured: ${label}: ${work.n} frames; main-thread frame time p50 ${ms(work.p50)} ms, ` +
    `p95 ${ms(work.p95)} ms, max ${ms(work.max)} ms; interval p50 ${ms(interval.p50)} ms, p95 ${ms(interval.p95)} ms, ` +
    `max ${ms(interval.max)} ms, ${dropped} of ${interval.n} over 1.5 frames; ${raw.long.length} long tasks` +
    (raw.long.length ? ` (longest ${Math.max(...raw.long).toFixed(0)} ms)` : "") +
    `, ${raw.loaf.length} long animation frames` + (raw.loaf.length ? ` (longest ${Math.max(...raw.loaf).toFixed(0)} ms)` : ""));
  return { work, interval, dropped, long: raw.long, raw };
}

/// The figures of several recordings together, printed under `label`: a
/// 20-step run draws only a handful of frames, so its own p95 is its
/// slowest frame.
export function pooled(label, ...recordings) {
  const work = quantiles(recordings.flatMap((r) => r.raw.work));
  const interval = quantiles(recordings.flatMap((r) => r.raw.intervals));
  const dropped = recordings.reduce((n, r) => n + r.dropped, 0);
  const long = recordings.flatMap((r) => r.long);
  const loaf = recordings.flatMap((r) => r.raw.loaf);
  console.log(`  measured: ${label}: ${work.n} frames; main-thread frame time p50 ${work.p50.toFixed(1)} ms, ` +
    `p95 ${work.p95.toFixed(1)} ms, max ${work.max.toFixed(1)} ms; ${dropped} of ${interval.n} intervals over 1.5 frames; ` +
    `${long.length} long tasks, ${loaf.length} long animation frames`);
  return { work, interval, dropped, long, loaf };
}

/// Runs `act` while Chromium traces the page, and returns (and prints
/// under `label`) each frame's main-thread time twice: `cpu`, the time
/// the thread ran (the trace's thread clock), and `wall`. On a 2-core
/// machine the worker's training and Chromium's own threads take turns
/// with the page's main thread, so a frame's wall time holds waits that
/// are not the page's work; its CPU time is the page's work alone. A
/// frame is the task that ran its requestAnimationFrame callbacks, with
/// the style, layout and paint after them. Tracing slows the page a
/// little: these are the traced run's figures, not the untraced ones.
export async function cpuFrames(browser, page, label, act) {
  await browser.startTracing(page, { categories: ["devtools.timeline", "toplevel"] });
  try {
    await act();
  } catch (err) {
    await browser.stopTracing().catch(() => {});
    throw err;
  }
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const names = new Map();
  for (const e of events) if (e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  // The page's main thread: the renderer main thread with the most events.
  const counts = new Map();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph === "X" && names.get(thread) === "CrRendererMain") counts.set(thread, (counts.get(thread) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => e.ph === "X" && `${e.pid}:${e.tid}` === main);
  const rafs = mine.filter((e) => e.name === "FireAnimationFrame").map((e) => e.ts).sort((a, b) => a - b);
  const frames = mine.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.tdur !== undefined && (() => {
    // Whether a requestAnimationFrame callback ran inside the task.
    let lo = 0, hi = rafs.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (rafs[mid] < e.ts) lo = mid + 1; else hi = mid; }
    return lo < rafs.length && rafs[lo] < e.ts + e.dur;
  })());
  const cpu = quantiles(frames.map((e) => e.tdur / 1000));
  const wall = quantiles(frames.map((e) => e.dur / 1000));
  const ms = (x) => x.toFixed(1);
  console.log(`  measured: ${label} (traced): ${cpu.n} frames; main-thread CPU per frame p50 ${ms(cpu.p50)} ms, ` +
    `p95 ${ms(cpu.p95)} ms, max ${ms(cpu.max)} ms; wall p50 ${ms(wall.p50)} ms, p95 ${ms(wall.p95)} ms, max ${ms(wall.max)} ms`);
  return { cpu, wall };
}
