// What the page's e2e scripts share: their settings from the environment,
// a check that prints what held, and driving the editor and Run.
import { mkdirSync } from "node:fs";

/// How long a run or the engine's start may take.
export const TIMEOUT = 90_000;

/// GRADSCOPE_URL (required: the served site) and GRADSCOPE_SHOTS (where
/// screenshots go, made if missing; target/e2e by default). A script run
/// without a URL says so and exits 2.
export function settings(script) {
  const url = process.env.GRADSCOPE_URL;
  if (!url) {
    console.error(`${script}: set GRADSCOPE_URL`);
    process.exit(2);
  }
  const shots = process.env.GRADSCOPE_SHOTS ?? "target/e2e";
  mkdirSync(shots, { recursive: true });
  return { url, shots };
}

/// Throws `message` unless `condition`; prints it when it holds.
export function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

/// The editor showing now (the program's, or an extra file's tab).
export const editor = (page) => page.locator(".editor-main:not([hidden]) .cm-content");

/// Waits until the engine has started.
export async function waitReady(page) {
  await page.waitForFunction(() => (document.querySelector("[data-testid=status]")?.textContent ?? "")
    .startsWith("ready"), null, { timeout: TIMEOUT });
}

/// Waits until the run ends (finished or raised) and its last batch of
/// events has reached the views; the status line.
export async function waitFinished(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return s === "finished" || s.startsWith("raised");
  }, null, { timeout: TIMEOUT });
  await page.waitForTimeout(400);
  return page.getByTestId("status").textContent();
}

/// Puts `text` in the editor, runs it (Ctrl+Enter) and waits for the end.
export async function run(page, text) {
  await editor(page).click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await editor(page).click();
  await page.keyboard.press("Control+Enter");
  return waitFinished(page);
}

/// The run comparison's side-by-side counts (a column each, a row per run
/// and one of changes) as { label: [pinned, current, change] }.
export async function compareCounts(page) {
  return page.getByTestId("compare-counts").evaluate((table) => {
    const labels = [...table.querySelectorAll("thead th")].map((th) => th.dataset.label);
    const rows = [...table.querySelectorAll("tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.textContent));
    return Object.fromEntries(labels.map((label, k) => [label, rows.map((row) => row[k])]));
  });
}

/// A linear model trained for `steps` steps at learning rate `lr`: a loss
/// and a backward each step, to compare two runs by.
export const trainingLoop = (lr, steps) => `import torch
torch.manual_seed(0)
w = torch.randn(16, 1, requires_grad=True)
x = torch.randn(32, 16)
y = x.sum(1, keepdim=True)
for step in range(${steps}):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= ${lr} * w.grad
    w.grad = None
`;

// The programs the page's views scripts and the widget's run alike, so the
// widget is held to the page's own figures.

/// Each sigmoid saves its result for backward: with a graph all three stay
/// alive; under no_grad each is freed once the next is made.
/// A small two-layer model (fc1, ReLU, fc2) trained 3 steps at `batch`,
/// printing its losses: the README's first picture pins it at 256 and runs
/// it at 64, and memory_layout.mjs checks the panel on the same pair.
export const mlp = (batch) => `import torch
from torch import nn

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        h = self.fc1(x).relu()
        return self.fc2(h)

torch.manual_seed(0)
model = MLP()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(${batch}, 8)
y = x.sum(1, keepdim=True)
for step in range(3):
    pred = model(x)
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
`;

export const FORWARD = `import torch
x = torch.ones(64, 128, requires_grad=True)
w = torch.ones(128, 128, requires_grad=True)
h = (x @ w).sigmoid().sigmoid().sigmoid()
loss = h.sum()
`;

/// The same forward under no_grad.
export const NO_GRAD = `import torch
x = torch.ones(64, 128, requires_grad=True)
w = torch.ones(128, 128, requires_grad=True)
with torch.no_grad():
    h = (x @ w).sigmoid().sigmoid().sigmoid()
    loss = h.sum()
`;

/// Tensors bound to names, for names on the graph and memory by line.
export const NAMED = `import torch
x = torch.ones(64, 32, requires_grad=True)
w = torch.ones(32, 16, requires_grad=True)
y = x @ w
z = y * y
loss = z.sum()
`;

/// A matmul whose shapes do not fit: the graph at the error.
export const MISMATCH = `import torch
x = torch.ones(3, 4, requires_grad=True)
w = torch.ones(5, 2)
h = x * 2
z = h @ w
`;
