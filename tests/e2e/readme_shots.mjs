// The README's pictures of the page, taken from a served build (not part of
// CI: run it by hand after `cargo xtask build-web` when the page changes).
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_DOCS (where the pictures
// go; docs/ by default). Takes
// - docs/screenshot.png, the README's first picture: a small two-layer
//   model trained for 3 steps at batch 256, pinned, and run again at batch
//   64: the code, the graph of the last pass with the program's names on
//   its nodes (loss, pred, h, model.fc1.bias), memory overlaid with both
//   peaks and the change ("peak A → B, -N%"), the console's losses;
// - docs/compare-names.png: a 5-step training loop pinned at batch 256 and
//   run again at batch 64: the graph of its last pass with the names
//   (model.0.weight), memory overlaid, the counts side by side, the loss
//   curves overlaid;
// - docs/lesson.png: lesson 6 (no-grad-eval) at 1280x800 after a run, its
//   claims beside the views and one clicked.
// The first two are 1600x1000 (drawn at 1.25 pixels a CSS pixel, 2000x1250,
// for a README that shows them scaled): at 1280x800 the graph view fits a
// training loop's graph at about half scale, where its names do not read.
// The script checks that what the pictures are for is in them: the names
// whole on the boxes, the comparison written, the files under 400 KB.
import { launch } from "./browser.mjs";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { check, compareCounts, mlp, run, settings, waitFinished, waitReady } from "./page.mjs";

const { url } = settings("readme_shots.mjs");
const docs = process.env.GRADSCOPE_DOCS ?? "docs";
mkdirSync(docs, { recursive: true });


const train = (batch) => `import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(${batch}, 32)
y = x.sum(1, keepdim=True)
for step in range(5):
    pred = model(x)
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
`;

/// The names on the graph's boxes, as drawn.
const labels = (page) => page.locator("[data-testid=graph] g.node .label").allTextContents();

/// Runs `program(256)`, pins it, runs `program(64)`, and checks the
/// comparison is written and `names` are on the graph whole.
async function pinnedPair(page, program, names) {
  await run(page, program(256));
  await page.getByTestId("pin-run").click();
  // A learner takes seconds to change the batch. Run at once, the second
  // run's trace sometimes began with the pinned run's storages being
  // freed (24 more storage_freed events, 16 more storage_recategorised,
  // the first ones at seq 0 with no line): events "+3%" for the same loop.
  await page.waitForTimeout(2000);
  check(await run(page, program(64)) === "finished", "batch 256 pinned, batch 64 finished");
  const peak = await page.getByTestId("compare-peak").textContent();
  check(/^peak .+ → .+, -\d+%$/.test(peak), `the memory view writes the change: ${peak}`);
  const counts = await compareCounts(page);
  check(counts["graph nodes"][2] === "same" && counts.events[2] === "same",
    `the same loop at another batch: nodes ${counts["graph nodes"].join(" ")}, events ${counts.events.join(" ")}`);
  const drawn = await labels(page);
  check(names.every((n) => drawn.includes(n)), `the graph names ${names.join(", ")} whole (drawn: ${drawn.join(", ")})`);
}

/// Writes the picture and says how large it is (the README's pictures
/// stay under about 400 KB).
async function save(target, name, options = {}) {
  const path = join(docs, name);
  await target.screenshot({ path, ...options });
  const kb = Math.round(statSync(path).size / 1024);
  check(kb < 400, `wrote ${path} (${kb} KB)`);
}

const browser = await launch();
try {
  const wide = await browser.newContext({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1.25 });
  const first = await wide.newPage();
  await first.goto(url);
  await waitReady(first);
  await pinnedPair(first, mlp, ["loss", "pred", "h", "model.fc1.bias", "model.fc2.bias"]);
  await save(first, "screenshot.png");

  const compare = await wide.newPage();
  await compare.goto(url);
  await waitReady(compare);
  await pinnedPair(compare, train, ["loss", "pred", "model.0.bias", "model.2.bias", "model.0.weight"]);
  await save(compare, "compare-names.png");

  const small = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const lesson = await small.newPage();
  await lesson.goto(new URL("?lesson=no-grad-eval", url).href);
  await waitReady(lesson);
  await lesson.locator("button", { hasText: "Run" }).first().click();
  await waitFinished(lesson);
  await lesson.waitForTimeout(1500);
  const claim = lesson.locator("[data-testid=lesson-claims] button").nth(2);
  if (await claim.count()) await claim.click();
  await lesson.waitForTimeout(600);
  await save(lesson, "lesson.png");
} finally {
  await browser.close();
}
