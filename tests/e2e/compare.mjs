// What PyTorch printed against what gradscope printed, token by token:
// numbers within the corpus test's tolerance (crates/python/tests/corpus.rs),
// object addresses ignored. Shared by the browser scripts.

/// Splits printed text into tokens: numbers, object addresses, newlines, words.
export function tokens(text) {
  const re = /(0x[0-9a-fA-F]+)|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(\n)|([^\s\d.-]+|[.-])/g;
  const out = [];
  for (const m of text.matchAll(re)) {
    if (m[1]) out.push({ address: true });
    else if (m[2]) out.push({ number: Number(m[2]), text: m[2] });
    else if (m[3]) out.push({ newline: true });
    else if (m[4]) out.push({ text: m[4] });
  }
  return out;
}

/// `null` when the two outputs agree, else where they first differ.
export function sameOutput(got, want) {
  const [a, b] = [tokens(got), tokens(want)];
  if (a.length !== b.length) return `${a.length} tokens, expected ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x.address && y.address) continue;
    if (x.newline && y.newline) continue;
    if (x.number !== undefined && y.number !== undefined) {
      const close = x.number === y.number || Math.abs(x.number - y.number) <= Math.max(1e-6, 1e-4 * Math.abs(y.number));
      if (close || (Number.isNaN(x.number) && Number.isNaN(y.number))) continue;
    }
    if (x.text !== undefined && x.text === y.text && x.number === undefined && y.number === undefined) continue;
    return `token ${i}: got ${JSON.stringify(x)}, expected ${JSON.stringify(y)}`;
  }
  return null;
}
