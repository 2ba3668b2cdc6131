// The README's pictures of the page, taken from a served build (not part of
// CI: run it by hand after `cargo xtask build-web` when the page changes).
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_DOCS (where the pictures
// go; docs/ by default). Takes
// - docs/compare-names.png: a training run pinned, the same loop at a
//   quarter of the batch run beside it (memory overlaid, both peaks and the
//   change written), the graph of its last pass with the program's names
//   on the nodes;
// - docs/lesson.png: lesson 6 (no-grad-eval) at 1280x800 after a run, its
//   claims beside the views and one clicked.
import { launch } from "./browser.mjs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { run, settings, waitFinished, waitReady } from "./page.mjs";

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

const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await waitReady(page);
  await run(page, train(256));
  await page.getByTestId("pin-run").click();
  await run(page, train(64));
  await page.screenshot({ path: join(docs, "compare-names.png") });
  console.log(`wrote ${join(docs, "compare-names.png")}`);

  const lesson = await context.newPage();
  await lesson.goto(new URL("?lesson=no-grad-eval", url).href);
  await waitReady(lesson);
  await lesson.locator("button", { hasText: "Run" }).first().click();
  await waitFinished(lesson);
  await lesson.waitForTimeout(1500);
  const claim = lesson.locator("[data-testid=lesson-claims] button").nth(2);
  if (await claim.count()) await claim.click();
  await lesson.waitForTimeout(600);
  await lesson.screenshot({ path: join(docs, "lesson.png") });
  console.log(`wrote ${join(docs, "lesson.png")}`);
} finally {
  await browser.close();
}
