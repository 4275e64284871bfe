// Create mode: the setter edits clues and sees, after each edit, whether the puzzle
// has no, one or several solutions, how many, and which cells are ambiguous (the
// library's setter analysis, in the heavy worker; a newer edit stops an older
// analysis). Generate and export are the library's too.
import { Stopped } from './engine.js';

const $ = (id) => document.getElementById(id);
// Solutions the analysis lists at most (the count goes on past it).
const ANALYSIS_BOUND = 1000;
// Time the analysis may take (the exact count is left unknown past it).
const ANALYSIS_MS = 10000;

// crossat JSON for a view with edited clues: rectangles by side (left, top, right,
// bottom), hexagons and free layouts as entries. The library reads it back; this
// only writes the format down.
export function puzzleJson(view, regexes, extra = {}) {
  const out = { name: view.name || 'my puzzle', ...extra };
  // The clues keep the dialect they were read in (crossat JSON's default is Python).
  if (view.dialect && view.dialect !== 'python') out.dialect = view.dialect;
  const cells = view.cells;
  if (view.shape?.kind === 'rect') {
    const { rows, cols } = view.shape;
    view.clues.forEach((clue, k) => {
      const side = clue.side ?? 'left';
      const first = cells[clue.cells[0]];
      const across = side === 'left' || side === 'right';
      const n = across ? rows : cols;
      const at = across ? first.row : first.col;
      if (!out[side]) out[side] = Array(n).fill(null);
      const prev = out[side][at];
      out[side][at] = prev == null ? regexes[k] : [].concat(prev, regexes[k]);
    });
  } else {
    out.layout = view.shape?.kind === 'hex' ? 'hexagon' : 'free';
    if (view.shape?.kind === 'hex') out.sides = view.shape.sides;
    out.entries = view.clues.map((clue, k) => ({
      label: clue.label,
      cells: clue.cells.map((id) => [cells[id].row, cells[id].col]),
      clues: regexes[k],
    }));
  }
  if (view.givens?.some((g) => g != null)) {
    out.given = view.rows.map((row) => row.map((id) => view.givens[id] ?? null));
  }
  return JSON.stringify(out, null, 1);
}

export class Setter {
  constructor(ctx) {
    this.ctx = ctx;
    this.timer = null;
    this.version = 0;
    this.base = null;
    this.extra = {};
    $('new-blank').addEventListener('click', () => this.blank().catch(ctx.showError));
    $('generate').addEventListener('click', () => this.generate().catch(ctx.showError));
    $('export').addEventListener('click', () => this.export().catch(ctx.showError));
  }

  idle() { clearTimeout(this.timer); }

  stopped() { $('analysis').textContent = 'Analysis stopped.'; }

  // Show the clue editor for a view and analyse it.
  load(view, source) {
    this.base = view;
    this.source = source;
    const editor = $('clue-editor');
    editor.replaceChildren();
    view.clues.forEach((clue, k) => {
      const row = document.createElement('div');
      row.className = 'row';
      const label = document.createElement('label');
      label.htmlFor = `clue-edit-${k}`;
      label.textContent = clue.label;
      const input = document.createElement('input');
      input.id = `clue-edit-${k}`;
      input.value = clue.regex;
      input.spellcheck = false;
      input.addEventListener('input', () => this.edited());
      row.append(label, input);
      editor.append(row);
    });
    this.analyse();
  }

  regexes() {
    return this.base.clues.map((_, k) => $(`clue-edit-${k}`).value);
  }

  edited() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.rebuild().catch(this.ctx.showError), 250);
  }

  async rebuild() {
    const text = puzzleJson(this.base, this.regexes(), this.extra);
    const { state, openSource } = this.ctx;
    try {
      await openSource({ name: this.base.name || 'my puzzle', text, key: 'setter' }, { keepValues: state.values, quiet: true, setter: true });
    } catch (err) {
      $('analysis').textContent = `Not a puzzle yet: ${err.message}`;
      $('analysis').dataset.result = 'error';
      // The library's message quotes the clue it refuses.
      this.base.clues.forEach((_, k) => {
        const input = $(`clue-edit-${k}`);
        input.setAttribute('aria-invalid', String(err.message.includes(`'${input.value}'`)));
      });
      return;
    }
    this.base.clues.forEach((_, k) => $(`clue-edit-${k}`).setAttribute('aria-invalid', 'false'));
    this.ctx.showError(null);
    this.analyse();
  }

  async analyse() {
    const { heavy, state, board, records, cellId, countText } = this.ctx;
    const v = ++this.version;
    if (heavy.inFlight()) heavy.stop();
    $('analysis').textContent = 'Counting solutions…';
    $('analysis').dataset.result = 'busy';
    board.highlight('ambiguous', []);
    let out;
    try {
      out = await heavy.call('analyse', state.source, ANALYSIS_BOUND, ANALYSIS_MS);
    } catch (err) {
      if (err instanceof Stopped) return;
      if (v === this.version) $('analysis').textContent = `Analysis failed: ${err.message}`;
      return;
    }
    if (v !== this.version) return;
    const a = records(out.result).find((r) => r.type === 'analysis') ?? {};
    const amb = (a.ambiguous_cells ?? []).map((c) => c.id ?? cellId(c.cell));
    board.highlight('ambiguous', amb);
    for (const c of a.ambiguous_cells ?? []) {
      board.inputs[c.id ?? cellId(c.cell)]?.setAttribute('title', `ambiguous: ${(c.values ?? []).join(' or ')}`);
    }
    let text = countText(a);
    text = text.charAt(0).toUpperCase() + text.slice(1);
    if (amb.length) text += `; ${amb.length} ambiguous cell${amb.length === 1 ? '' : 's'} (highlighted)`;
    $('analysis').textContent = `${text}.`;
    $('analysis').dataset.result = String(a.count ?? (a.complete ? a.solutions : ''));
  }

  async blank() {
    const rows = Number($('new-rows').value) || 3;
    const cols = Number($('new-cols').value) || 3;
    this.extra = { alphabet: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' };
    const text = JSON.stringify({
      name: 'my puzzle', ...this.extra,
      left: Array(rows).fill('.*'), top: Array(cols).fill('.*'),
    }, null, 1);
    await this.ctx.openSource({ name: 'my puzzle', text, key: 'setter' }, { keepValues: [] });
  }

  async generate() {
    const rows = Number($('new-rows').value) || 3;
    const cols = Number($('new-cols').value) || 3;
    const hex = $('gen-shape').value === 'hex';
    const options = hex ? { hex: String(Number($('gen-side').value) || 3) } : { size: `${rows}x${cols}` };
    if ($('gen-difficulty').value) options.difficulty = $('gen-difficulty').value;
    const t = $('gen-text').value.trim();
    if (t) options.text = t;
    $('analysis').textContent = 'Generating…';
    let out;
    try {
      out = await this.ctx.heavy.call('generate', null, JSON.stringify(options));
    } catch (err) {
      if (err instanceof Stopped) { $('analysis').textContent = 'Generation stopped.'; return; }
      throw err;
    }
    const r = out.result;
    const text = JSON.stringify(r.crossat, null, 1);
    this.extra = {};
    const name = `generated, seed ${r.seed}`;
    await this.ctx.openSource({ name, text, key: `generated:${r.seed}` }, { keepValues: [] });
  }

  async export() {
    const format = $('export-format').value;
    const { result } = await this.ctx.heavy.call('export', this.ctx.state.source, format);
    const text = typeof result === 'string' ? result : JSON.stringify(result, null, 1);
    const out = $('export-out');
    out.hidden = false;
    out.value = text;
    const link = $('export-link');
    const ext = format === 'trux' ? 'txt' : 'json';
    URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = `${(this.ctx.state.view.name || 'puzzle').replace(/[^\w.-]+/g, '_')}.${ext}`;
    link.hidden = false;
  }
}
