// The page: open a puzzle, play it, ask for help, create one. Every answer about a
// puzzle (its drawing, the clue states, hints, steps, solutions, counts, exports,
// generated puzzles) comes from the library in a Web Worker; this file only routes
// and shows. Two workers: `live` answers the quick questions asked on every keystroke
// (view, status), `heavy` the long ones, and Stop restarts it.
import { Engine, Stopped } from './engine.js';
import { Board } from './board.js';
import { readShare, shareLink } from './share.js';
import { Setter } from './setter.js';
import * as explain from './explain.js';

const $ = (id) => document.getElementById(id);
// Steps of an explanation asked at most (as `crossat explain --max-steps`).
const MAX_STEPS = 2000;
const WASM = new URL('./pkg/crossat_web_bg.wasm', import.meta.url);

const state = {
  source: null, // {name, text, id, dialect, key}
  view: null,
  values: [],
  mode: 'play',
};
let live;
let heavy;
let board;
let setter;
let index = { collections: [] };

function showError(err) {
  const el = $('error');
  if (!err) { el.hidden = true; el.textContent = ''; return; }
  el.hidden = false;
  el.textContent = String(err.message ?? err);
}

function setBusy(n) {
  $('busy').hidden = n === 0;
}

// --- progress in localStorage, per puzzle ---
// A record {values, marks, revealed, ms}: the letters, the pencil marks, whether
// Reveal or Explain filled any of it (so a revealed grid never comes back as
// earned), and the time played. An older record was the letters alone.
const store = {
  get(key) {
    let got = null;
    try { got = JSON.parse(localStorage.getItem(`crossat:progress:${key}`)); } catch { return null; }
    if (Array.isArray(got)) return { values: got, marks: [], revealed: false, ms: 0 };
    if (!got || !Array.isArray(got.values)) return null;
    return { values: got.values, marks: Array.isArray(got.marks) ? got.marks : [], revealed: got.revealed === true, ms: Number(got.ms) || 0 };
  },
  set(key, p) {
    try {
      if (p.values.every((v) => !v) && p.marks.every((m) => !m) && !p.ms) localStorage.removeItem(`crossat:progress:${key}`);
      else localStorage.setItem(`crossat:progress:${key}`, JSON.stringify(p));
    } catch { /* storage full or disabled: progress is not kept */ }
  },
};

function saveProgress() {
  if (!state.source) return;
  store.set(state.source.key, { values: state.values, marks: board.marks.slice(), revealed: Boolean(state.helped), ms: Math.round(timer.elapsed()) });
}

// --- the timer: time spent on the puzzle shown, while the page is visible and the
// grid unsolved; kept with the progress. Shown when the player turns it on. ---
const timer = {
  ms: 0,
  since: null,
  tick: null,
  elapsed() { return this.ms + (this.since == null ? 0 : performance.now() - this.since); },
  reset(ms) { this.ms = ms; this.since = null; this.run(); },
  run() {
    const going = Boolean(state.source) && !document.hidden && !document.body.dataset.solved;
    if (going && this.since == null) this.since = performance.now();
    if (!going && this.since != null) { this.ms = this.elapsed(); this.since = null; }
    clearInterval(this.tick);
    this.tick = going && !$('timer').hidden ? setInterval(() => this.show(), 1000) : null;
    this.show();
  },
  show() {
    const s = Math.floor(this.elapsed() / 1000);
    const text = s >= 3600
      ? `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
      : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
    if ($('timer').textContent !== text) $('timer').textContent = text;
    $('timer').dataset.seconds = String(s);
  },
};

// --- undo and redo: every change of the letters and pencil marks, per puzzle shown ---
const edits = { undo: [], redo: [], replaying: false };
function snapshot() { return { values: state.values.slice(), marks: state.marksShown.slice() }; }
function resetEdits() { edits.undo = []; edits.redo = []; showEdits(); }
function showEdits() {
  $('undo').disabled = edits.undo.length === 0;
  $('redo').disabled = edits.redo.length === 0;
}
function undo(d) {
  const [from, to] = d < 0 ? [edits.undo, edits.redo] : [edits.redo, edits.undo];
  const s = from.pop();
  if (!s) return;
  to.push(snapshot());
  edits.replaying = true;
  try { board.setValues(s.values, s.marks); } finally { edits.replaying = false; }
  showEdits();
}

// --- appearance: the system's light or dark theme unless chosen, and a palette
// safe for colour-blind players (blue and orange; states keep their symbols) ---
function applyLook() {
  let look = {};
  try { look = JSON.parse(localStorage.getItem('crossat:look')) ?? {}; } catch { /* defaults */ }
  const theme = ['light', 'dark'].includes(look.theme) ? look.theme : '';
  if (theme) document.documentElement.dataset.theme = theme; else delete document.documentElement.dataset.theme;
  if (look.palette === 'cb') document.documentElement.dataset.palette = 'cb'; else delete document.documentElement.dataset.palette;
  $('theme').value = theme;
  $('palette-cb').checked = look.palette === 'cb';
  $('timer-on').checked = look.timer === true;
  $('timer').hidden = look.timer !== true;
}
function saveLook() {
  const look = { theme: $('theme').value, palette: $('palette-cb').checked ? 'cb' : '', timer: $('timer-on').checked };
  try { localStorage.setItem('crossat:look', JSON.stringify(look)); } catch { /* not kept */ }
  applyLook();
  timer.run();
}

function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

// --- opening ---
const DIALECTS = { python: "Python's re (re.fullmatch)", ecmascript: "ECMAScript (a browser's RegExp, as regexcrossword.com checks answers)" };
// Opens overlap (choosing a collection opens its first entry while the player may
// already pick another): each takes a number when it starts (before fetching its
// file), and only the newest may change the board.
let opening = 0;

export async function openSource(source, { keepValues = null, quiet = false, setter: fromSetter = false, ticket = ++opening } = {}) {
  const superseded = () => ticket !== opening;
  const src = {
    name: source.name ?? 'puzzle',
    text: source.text,
    id: source.id || null,
    format: source.format ?? null,
    dialect: source.dialect ?? null,
    path: source.path ?? null,
  };
  src.key = source.key ?? `${src.name}#${src.id ?? ''}#${src.dialect ?? ''}#${hash(src.text)}`;
  let view;
  try {
    ({ result: view } = await live.call('view', src));
  } catch (err) {
    if (superseded()) return null;
    if (!quiet) showError(err);
    throw err;
  }
  if (superseded()) return view;
  showError(null);
  const same = keepValues && state.source?.key === src.key;
  state.source = src;
  state.view = view;
  const saved = keepValues ? { values: keepValues, marks: board.marks, revealed: state.helped, ms: timer.elapsed() } : store.get(src.key);
  state.helped = Boolean(saved?.revealed) && (same || !keepValues);
  state.values = view.cells.map((_, i) => (saved && typeof saved.values[i] === 'string' ? saved.values[i] : ''));
  state.marksShown = view.cells.map((_, i) => (typeof saved?.marks?.[i] === 'string' ? saved.marks[i] : ''));
  $('puzzle-title').textContent = view.name || src.name;
  $('dialect-note').textContent = `Clues are read as ${DIALECTS[view.dialect] ?? view.dialect}.`;
  $('dialect-note').dataset.dialect = view.dialect;
  board.draw(view, state.values, state.marksShown);
  state.values = board.values.slice();
  state.marksShown = board.marks.slice();
  resetEdits();
  if (!same) timer.reset(saved?.ms ?? 0);
  clearHelp();
  try { localStorage.setItem('crossat:last', JSON.stringify({ name: src.name, id: src.id, key: src.key, dialect: src.dialect, path: source.path ?? null, text: source.path ? null : src.text })); } catch { /* ignore */ }
  await refreshStatus();
  if (superseded()) return view;
  await showInMenus(src).catch(() => {});
  if (superseded()) return view;
  document.body.dataset.puzzle = src.key;
  if (state.mode === 'create' && !fromSetter) setter.load(view, src);
  return view;
}

// Clue states for the grid as it is now. One request at a time: keystrokes that come
// while one is in flight are answered together by the next, so the states never lag
// more than one answer behind however fast the player types.
let statusRunning = null;
let statusAgain = false;
async function refreshStatus() {
  if (statusRunning) {
    statusAgain = true;
    return statusRunning;
  }
  statusRunning = (async () => {
    do {
      statusAgain = false;
      const src = state.source;
      const values = state.values.slice();
      const { result } = await live.call('status', src, JSON.stringify(values));
      if (src !== state.source || statusAgain) continue;
      const states = Array.isArray(result) ? result : result.clues;
      board.setStates(states);
      document.body.dataset.filled = String(values.filter(Boolean).length);
      const solved = values.every((v) => v) && states.every((s) => s === 'satisfied');
      $('solved').hidden = !solved;
      $('solved').textContent = state.helped ? '✓ Revealed: every clue holds.' : '✓ Solved! Every clue holds.';
      $('solved').classList.toggle('revealed', Boolean(state.helped));
      document.body.dataset.solved = solved ? (state.helped ? 'revealed' : '1') : '';
      timer.run();
      if (solved) saveProgress();
    } while (statusAgain);
  })();
  try {
    await statusRunning;
  } finally {
    statusRunning = null;
  }
}

function valuesChanged(values) {
  const marks = board.marks.slice();
  const changed = values.some((v, i) => v !== state.values[i]) || marks.some((m, i) => m !== state.marksShown[i]);
  if (changed && !edits.replaying) {
    edits.undo.push(snapshot());
    edits.redo = [];
    showEdits();
  }
  state.values = values;
  state.marksShown = marks;
  saveProgress();
  board.highlight('hinted', []);
  refreshStatus().catch(showError);
}

// --- collections ---
async function loadIndex() {
  const res = await fetch('puzzles/index.json');
  index = await res.json();
  const sel = $('collection');
  sel.replaceChildren();
  index.collections.forEach((c, i) => sel.add(new Option(c.title, String(i))));
}

// A puzzle file's bytes as text: UTF-8 when valid, else Windows-1252, as the
// command-line program reads files (docs/format.md).
export function decode(buffer) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

const collectionCache = new Map();
async function fetchText(path) {
  if (!collectionCache.has(path)) {
    collectionCache.set(path, fetch(path).then((r) => {
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
      return r.arrayBuffer().then(decode);
    }));
  }
  return collectionCache.get(path);
}

// The entries of a collection: files, or the puzzles of a challenges.json (listed
// by set and number, as `crossat list` names them).
async function entries(c) {
  if (c.kind !== 'challenges') return c.files.map((f) => ({ label: f.name, path: f.path, id: null }));
  const sets = JSON.parse(await fetchText(c.path));
  const out = [];
  for (const set of sets) {
    (set.puzzles ?? []).forEach((p, i) => {
      out.push({ label: `${set.name ?? set.id} ${i + 1}: ${p.name ?? ''}`, path: c.path, id: `${set.id}/${i + 1}` });
    });
  }
  return out;
}

async function showCollection(i, pick = null) {
  const c = index.collections[i];
  const list = await entries(c);
  const sel = $('puzzle-list');
  sel.replaceChildren();
  list.forEach((e, k) => sel.add(new Option(e.label, String(k))));
  sel.entries = list;
  sel.dataset.collection = String(i);
  let k = 0;
  if (pick) {
    const found = list.findIndex((e) => e.path === pick.path && (e.id ?? null) === (pick.id ?? null));
    if (found >= 0) k = found;
  }
  sel.value = String(k);
  return list[k];
}

async function openEntry(e, dialect = null) {
  const ticket = ++opening;
  let text;
  try {
    text = await fetchText(e.path);
  } catch (err) {
    if (ticket !== opening) return null;
    throw err;
  }
  const name = e.path.split('/').pop();
  const key = `${e.path}#${e.id ?? ''}${dialect ? `#${dialect}` : ''}`;
  return openSource({ name, text, id: e.id, path: e.path, key, dialect }, { ticket });
}

// The menus name what the board shows: a bundled puzzle's collection and entry, or,
// for a pasted, shared or created one, its name in place of a collection's entry.
async function showInMenus(src) {
  const sel = $('puzzle-list');
  sel.querySelector('option[data-other]')?.remove();
  if (src.path) {
    // The collection shown, if it holds the puzzle, else the first that does.
    const holds = (c) => c && (c.path === src.path || c.files?.some((f) => f.path === src.path));
    const shown = Number($('collection').value);
    const ci = holds(index.collections[shown]) ? shown : index.collections.findIndex(holds);
    if (ci < 0) return;
    if ($('collection').value !== String(ci) || sel.dataset.collection !== String(ci)) {
      $('collection').value = String(ci);
      await showCollection(ci, src);
    } else {
      const k = sel.entries.findIndex((e) => e.path === src.path && (e.id ?? null) === (src.id ?? null));
      if (k >= 0) sel.value = String(k);
    }
    return;
  }
  const other = new Option(`(${src.name === 'pasted' ? 'pasted puzzle' : src.name})`, '');
  other.dataset.other = '1';
  sel.prepend(other);
  sel.value = '';
}

// A bundled puzzle named by a share link (share.js): its entry, or null.
async function bundledEntry(shared) {
  const dir = `puzzles/${shared.collection}/`;
  for (const c of index.collections) {
    if (shared.id && c.kind === 'challenges' && c.path.startsWith(dir)) return { path: c.path, id: shared.id };
    const f = shared.file && c.files?.find((x) => x.path === dir + shared.file);
    if (f) return { path: f.path, id: null };
  }
  throw new Error('The share link names a puzzle this page does not have.');
}

async function openShared(shared) {
  if (shared.bundled) return openEntry(await bundledEntry(shared), shared.dialect);
  return openSource(shared);
}

// --- help ---
function clearHelp() {
  $('help-out').textContent = '';
  $('steps').hidden = true;
  explain.reset();
  board.highlight('hinted', []);
  board.highlight('step', []);
  board.highlight('ambiguous', []);
}

// The id of the cell the command line names [row, col] (a hexagon's col: the index
// in its row; a free layout's: its column).
function cellId(rc) {
  if (!state.cellIds || state.cellIds.view !== state.view) {
    state.cellIds = new Map(state.view.cells.map((c, id) => [`${c.row},${c.col}`, id]));
    state.cellIds.view = state.view;
  }
  return state.cellIds.get(`${rc[0]},${rc[1]}`);
}

function cellName(rc) {
  const name = state.view.cells[cellId(rc)]?.name;
  return name ? name.replace(/^\((.*)\)$/, '$1') : `row ${rc[0] + 1}, cell ${rc[1] + 1}`;
}

// JSON Lines (a string, an array of objects, or one object) as an array of objects.
export function records(result) {
  if (Array.isArray(result)) return result;
  if (typeof result === 'string') {
    return result.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  }
  if (result && Array.isArray(result.lines)) return result.lines;
  return [result];
}

// An answer for a puzzle no longer shown is dropped (null), as is a stopped one.
async function runHeavy(label, op, ...args) {
  $('busy-text').textContent = `${label}…`;
  const src = state.source;
  try {
    const out = await heavy.call(op, src, ...args);
    return src === state.source ? out : null;
  } catch (err) {
    if (err instanceof Stopped) { $('help-out').textContent = `${label}: stopped.`; return null; }
    throw err;
  }
}

const REASON = {
  'single-line': (h) => `${h.clue ?? 'one clue'}, with the filled cells, forces it by itself`,
  lines: () => 'combining what every line allows forces it',
  search: () => 'any other letter leaves no solution (found by search over the whole grid)',
};

async function hint() {
  clearHelp();
  const out = await runHeavy('Hint', 'hint', JSON.stringify(state.values));
  if (!out) return;
  const recs = records(out.result);
  const wrong = recs.filter((r) => r.type === 'wrong');
  const h = recs.find((r) => r.type === 'hint');
  if (wrong.length) {
    board.highlight('hinted', wrong.map((w) => cellId(w.cell)));
    const because = (w) => (w.clues?.length ? ` (${w.clues.join(', ')})` : '');
    $('help-out').textContent = wrong.map((w) => `${cellName(w.cell)}: ${w.char} cannot be right${because(w)}`).join('; ') + '.';
    return;
  }
  if (!h) {
    const s = recs.find((r) => r.type === 'summary') ?? {};
    $('help-out').textContent = s.completable === false
      ? 'The filled cells cannot be completed.'
      : 'No empty cell is forced.';
    return;
  }
  const id = cellId(h.cell);
  board.highlight('hinted', [id]);
  const why = (REASON[h.reason] ?? (() => h.reason))(h);
  const from = h.because?.clues?.length && h.reason !== 'single-line' ? ` (the clues behind it: ${h.because.clues.join(', ')})` : '';
  const text = `Hint: ${cellName(h.cell)} is ${h.char}: ${why}${from}.`;
  $('help-out').textContent = text;
  $('help-out').dataset.cell = String(id);
  $('help-out').dataset.reason = h.reason;
  board.focusCell(id);
}

async function explainSteps() {
  clearHelp();
  const out = await runHeavy('Explain', 'explain', JSON.stringify(state.values), MAX_STEPS);
  if (!out) return;
  const recs = records(out.result);
  explain.load(recs, {
    cellId, cellName, board, root: $('steps'), values: state.values,
    apply: (values) => { state.helped = true; board.setValues(values); },
  });
  $('steps').hidden = false;
  explain.show(0);
}

async function check() {
  clearHelp();
  const out = await runHeavy('Check', 'check', JSON.stringify(state.values));
  if (!out) return;
  const recs = records(out.result);
  const s = recs.find((r) => r.type === 'summary') ?? recs[recs.length - 1] ?? {};
  const bad = recs.filter((r) => r.type !== 'summary');
  const cells = [];
  for (const r of bad) for (const c of r.cells ?? (r.cell ? [r.cell] : [])) cells.push(cellId(c));
  board.highlight('hinted', cells);
  let text;
  if (s.complete && s.valid !== false && bad.length === 0) text = 'Check: the grid is complete and every clue matches.';
  else if (s.completable === false) text = 'Check: these cells cannot all be right; the filled cells cannot be completed.';
  else if (s.completable) text = `Check: no mistake so far; the grid can still be completed${s.unique_completion ? ' in exactly one way' : ''}.`;
  else text = `Check: ${JSON.stringify(s)}`;
  if (bad.length) text += ' ' + bad.map((r) => r.message ?? r.clue ?? r.line ?? '').filter(Boolean).join('; ');
  $('help-out').textContent = text;
}

function solutionValues(grid) {
  const values = state.values.slice();
  grid.forEach((row, r) => {
    const chars = Array.isArray(row) ? row : Array.from(row);
    chars.forEach((ch, c) => {
      const id = state.view.rows[r]?.[c];
      if (id != null) values[id] = ch ?? '';
    });
  });
  return values;
}

async function reveal() {
  clearHelp();
  const out = await runHeavy('Solving', 'solve');
  if (!out) return;
  const sol = records(out.result).find((r) => r.type === 'solution' || r.grid);
  if (!sol) { $('help-out').textContent = 'No solution.'; return; }
  state.helped = true;
  board.setValues(solutionValues(sol.grid));
  $('help-out').textContent = `Revealed (solved in ${out.ms.toFixed(0)} ms).`;
  $('help-out').dataset.ms = String(out.ms);
}

// A count record (`count`: a number, or a string of digits past 2^53; else the
// `solutions` listed, all of them when `complete`).
function countText(s) {
  const exact = s.count != null;
  const n = exact ? s.count : s.solutions;
  if (!exact && s.complete === false) return `at least ${n} solution${n === 1 ? '' : 's'} (counting stopped)`;
  if (String(n) === '0') return 'no solution';
  if (String(n) === '1') return 'unique, exactly one solution';
  return `not unique: ${n} solutions`;
}

async function unique() {
  clearHelp();
  const out = await runHeavy('Counting', 'count');
  if (!out) return;
  const recs = records(out.result);
  const s = recs.find((r) => r.type === 'summary') ?? recs[0];
  $('help-out').textContent = `Is it unique? ${countText(s)}.`;
}

// --- modes ---
function setMode(mode) {
  state.mode = mode;
  $('mode-play').setAttribute('aria-pressed', String(mode === 'play'));
  $('mode-create').setAttribute('aria-pressed', String(mode === 'create'));
  $('create').hidden = mode !== 'create';
  $('help').hidden = mode !== 'play';
  $('play-tools').hidden = mode !== 'play';
  if (mode === 'create' && state.view) setter.load(state.view, state.source);
  else setter.idle();
}

let shareTimer = null;

function wire() {
  const guard = (f) => () => { showError(null); f().catch(showError); };
  $('collection').addEventListener('change', guard(async () => {
    const e = await showCollection(Number($('collection').value));
    await openEntry(e);
  }));
  $('puzzle-list').addEventListener('change', guard(async () => {
    const sel = $('puzzle-list');
    if (sel.value === '') return;
    await openEntry(sel.entries[Number(sel.value)]);
  }));
  $('paste-open').addEventListener('click', guard(async () => {
    const text = $('paste').value;
    if (!text.trim()) throw new Error('Paste a puzzle first.');
    await openSource({ name: 'pasted', text, id: $('paste-id').value.trim() || null, dialect: $('paste-dialect').value || null });
  }));
  $('file').addEventListener('change', guard(async () => {
    const f = $('file').files[0];
    if (f) await openFile(f);
  }));
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    const f = e.dataTransfer?.files?.[0];
    if (f) openFile(f).catch(showError);
  });
  $('share').addEventListener('click', guard(async () => {
    const url = await shareLink({ ...state.source, name: state.view.name || state.source.name }, heavy);
    history.replaceState(null, '', url);
    $('share-out').textContent = 'Link in the address bar';
    try { await navigator.clipboard.writeText(url); $('share-out').textContent = 'Link copied'; } catch { /* no clipboard: the address bar has it */ }
    clearTimeout(shareTimer);
    shareTimer = setTimeout(() => { $('share-out').textContent = ''; }, 4000);
  }));
  $('stop').addEventListener('click', () => { heavy.stop(); setter.stopped(); });
  $('hint').addEventListener('click', guard(hint));
  $('explain').addEventListener('click', guard(explainSteps));
  $('check').addEventListener('click', guard(check));
  $('reveal').addEventListener('click', guard(reveal));
  $('unique').addEventListener('click', guard(unique));
  $('clear').addEventListener('click', () => {
    clearHelp();
    state.helped = false;
    board.setValues(state.values.map((_, i) => state.view.givens?.[i] ?? ''), state.values.map(() => ''));
  });
  $('undo').addEventListener('click', () => undo(-1));
  $('redo').addEventListener('click', () => undo(1));
  $('pencil').addEventListener('click', () => {
    board.pencil = !board.pencil;
    $('pencil').setAttribute('aria-pressed', String(board.pencil));
    document.body.dataset.pencil = board.pencil ? '1' : '';
  });
  // Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes (Cmd on a Mac), except in a text
  // field that has its own undo.
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || state.mode !== 'play') return;
    const t = e.target;
    if ((t.tagName === 'TEXTAREA' || t.tagName === 'INPUT') && !t.classList.contains('cell')) return;
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) { e.preventDefault(); undo(-1); } else if (k === 'y' || (k === 'z' && e.shiftKey)) { e.preventDefault(); undo(1); }
  });
  $('theme').addEventListener('change', saveLook);
  $('palette-cb').addEventListener('change', saveLook);
  $('timer-on').addEventListener('change', saveLook);
  document.addEventListener('visibilitychange', () => { timer.run(); saveProgress(); });
  window.addEventListener('pagehide', saveProgress);
  $('step-prev').addEventListener('click', () => explain.move(-1));
  $('step-next').addEventListener('click', () => explain.move(1));
  $('mode-play').addEventListener('click', () => setMode('play'));
  $('mode-create').addEventListener('click', () => setMode('create'));
  let resizeTimer = null;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => board.resized(), 100); });
  window.addEventListener('hashchange', guard(async () => {
    const shared = await readShare(location.hash);
    if (shared) await openShared(shared);
  }));
}

async function openFile(f) {
  const text = decode(await f.arrayBuffer());
  $('paste').value = text;
  await openSource({ name: f.name, text, id: $('paste-id').value.trim() || null, dialect: $('paste-dialect').value || null });
}

async function start() {
  performance.mark('crossat:start');
  board = new Board($('board'), $('clue-lists'), valuesChanged);
  state.marksShown = [];
  applyLook();
  const module = await WebAssembly.compileStreaming(fetch(WASM));
  live = new Engine(module);
  heavy = new Engine(module, setBusy, { lazy: true });
  setter = new Setter({ live, heavy, board, state, openSource, records, cellId, showError, countText });
  wire();
  await Promise.all([loadIndex(), live.ready]);
  const shared = await readShare(location.hash).catch((err) => { showError(err); return null; });
  let opened = false;
  if (shared) {
    opened = await openShared(shared).then(() => true, (err) => { showError(err); return false; });
  }
  if (!opened) {
    let last = null;
    try { last = JSON.parse(localStorage.getItem('crossat:last')); } catch { /* none */ }
    let ci = 0;
    if (last?.path) ci = Math.max(0, index.collections.findIndex((c) => c.path === last.path || c.files?.some((f) => f.path === last.path)));
    $('collection').value = String(ci);
    const pick = last?.path ? last : index.collections[ci]?.default ?? null;
    const e = await showCollection(ci, pick);
    if (last && !last.path && last.text) {
      opened = await openSource({ name: last.name, text: last.text, id: last.id, key: last.key, dialect: last.dialect }).then(() => true, () => false);
    }
    if (!opened) await openEntry(e);
  }
  performance.mark('crossat:interactive');
  document.body.dataset.ready = '1';
  // Offline play after this visit (sw.js); a page without a worker still works.
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
}

start().catch((err) => {
  showError(err);
  document.body.dataset.ready = 'error';
});
