// The library's worker: it loads the wasm module and answers one request at a time.
// Protocol (main.js ⇄ worker), structured-clone messages:
//   → {seq, op: "init", module}            module: a compiled WebAssembly.Module
//   ← {seq, ok: true}
//   → {seq, op, puzzle: {name, text, id, format, dialect} | null, args: [...]}
//   ← {seq, ok: true, result, ms} | {seq, ok: false, error}
// `op` is a method of the API's Puzzle (view, status, hint, explain, …) called on the
// puzzle opened from `puzzle`, or, when `puzzle` is null, a free function of the API
// (generate, …). String results that hold JSON are parsed. Every answer comes from the
// library; the worker only routes.
import init, * as api from './pkg/crossat_web.js';

let ready = null;
let cached = { key: null, puzzle: null };

function open(p) {
  const key = [p.name, p.id ?? '', p.dialect ?? '', p.text].join('\u0000');
  if (cached.key !== key) {
    if (cached.puzzle && cached.puzzle.free) cached.puzzle.free();
    cached = { key: null, puzzle: null };
    const options = {};
    if (p.id) options.id = p.id;
    if (p.format) options.format = p.format;
    if (p.dialect) options.dialect = p.dialect;
    cached.puzzle = api.Puzzle.open(p.name, p.text, Object.keys(options).length ? JSON.stringify(options) : undefined);
    cached.key = key;
  }
  return cached.puzzle;
}

// A JavaScript number holds integers up to 2^53 exactly: a seed, and any other whole
// number past that, is kept as the digits the library wrote (JSON.parse's `source`).
function exact(key, value, context) {
  if (typeof value !== 'number') return value;
  if (key === 'seed' || (Number.isInteger(value) && !Number.isSafeInteger(value))) return context?.source ?? String(value);
  return value;
}

function parse(value) {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try { return JSON.parse(value, exact); } catch { return value; }
  }
  return value;
}

self.onmessage = async (event) => {
  const m = event.data;
  if (m.op === 'init') {
    try {
      ready = init({ module_or_path: m.module });
      await ready;
      self.postMessage({ seq: m.seq, ok: true });
    } catch (err) {
      self.postMessage({ seq: m.seq, ok: false, error: String(err?.message ?? err) });
    }
    return;
  }
  try {
    await ready;
    const t0 = performance.now();
    let result;
    if (m.puzzle) {
      const puzzle = open(m.puzzle);
      if (m.op === 'open') result = true;
      else if (typeof puzzle[m.op] !== 'function') throw new Error(`the library has no ${m.op}`);
      else result = puzzle[m.op](...(m.args ?? []));
    } else {
      if (typeof api[m.op] !== 'function') throw new Error(`the library has no ${m.op}`);
      result = api[m.op](...(m.args ?? []));
    }
    self.postMessage({ seq: m.seq, ok: true, result: parse(result), ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ seq: m.seq, ok: false, error: String(err?.message ?? err) });
  }
};
