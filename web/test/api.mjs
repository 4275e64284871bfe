// The wasm API against the command line: every bundled puzzle under puzzles/ is read by
// both, and their JSON answers must be identical — solutions and the uniqueness summary,
// `--limit`, counts, hints (on the givens and on a grid with a wrong letter), checks,
// explanations — and so must their error messages for files the command line refuses.
// `status` is checked against `check`: on a full grid the broken clues are the failing
// ones, and no clue is broken on the givens of a puzzle that has a solution.
//
// Run after web/build and `cargo build`: `node web/test/api.mjs` (CROSSAT_CLI names
// another binary, default target/debug/crossat; CROSSAT_WEB_TIMES=1 prints the time
// each puzzle takes on standard error).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
process.chdir(root);
const pkg = join(root, 'target/web/pkg');
const { initSync, Puzzle, generate } = await import(join(pkg, 'crossat_web.js'));
initSync({ module: readFileSync(join(pkg, 'crossat_web_bg.wasm')) });
const cli = process.env.CROSSAT_CLI ?? join(root, 'target/debug/crossat');
assert.ok(existsSync(cli), `${cli} is missing: run cargo build first`);

// Counts and explanations are capped the same way on both sides.
const COUNT_TIMEOUT_S = 10;
const MAX_STEPS = 40;

const tmp = mkdtempSync(join(tmpdir(), 'crossat-web-'));
const uncounted = [];
// The binoternary hexagons' exact counts mostly take minutes (tests/ganak.rs's long
// run): they get SLOW_COUNT_TIMEOUT_S and those not counted by then are reported apart;
// every other count must finish (at most 1 % may not).
const SLOW_TO_COUNT = 'puzzles/binoternary/';
const SLOW_COUNT_TIMEOUT_S = 3;
const tally = { files: 0, refused: 0, puzzles: 0, counted: 0, uncounted: 0, slow: 0, hinted: 0, explained: 0, checked: 0, ecmascript: 0 };

function files(dir) {
  return readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

// The command's JSON Lines, or its error message; `status` is its exit code.
function run(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status === 2 || r.status === 3) {
    return { status: r.status, error: r.stderr.trim().replace(/^error: /, '') };
  }
  const records = r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  return { status: r.status, records };
}

// The wasm call's parsed answer, or its error message.
function call(f) {
  try {
    return { value: JSON.parse(f()) };
  } catch (e) {
    if (e instanceof SyntaxError) throw e;
    return { error: e.message };
  }
}

// The command line may add a pointer to another command after a `;` (e.g. `crossat blocks`).
function sameError(cliError, wasmError, what) {
  assert.ok(wasmError !== undefined, `${what}: the command line fails (${cliError}) but the wasm API does not`);
  assert.ok(cliError === wasmError || cliError.startsWith(`${wasmError}; `), `${what}: errors differ\n  cli:  ${cliError}\n  wasm: ${wasmError}`);
}

// The records of a command against the wasm call's array of records.
function same(args, f, what) {
  const c = run(args);
  const w = call(f);
  if (c.error !== undefined) {
    sameError(c.error, w.error, what);
    return null;
  }
  assert.equal(w.error, undefined, `${what}: the wasm API fails (${w.error}) but the command line does not`);
  assert.deepStrictEqual(w.value, c.records, `${what}: answers differ`);
  return c.records;
}

// A grid file for `--grid`: the display rows, `.` for an empty cell.
function gridFile(view, cells, name) {
  const path = join(tmp, name);
  writeFileSync(path, view.rows.map((r) => r.map((c) => cells[c] || '.').join('')).join('\n') + '\n');
  return path;
}

function puzzleCase(file, id, pool) {
  const what = id ? `${file} --id ${id}` : file;
  const sel = id ? ['--id', id] : [];
  const options = JSON.stringify({ id, pool });
  const opened = call(() => {
    Puzzle.openBytes(file, readFileSync(file), options).free();
    return 'null';
  });
  const solved = run(['solve', '--json', ...sel, file]);
  if (solved.error !== undefined) {
    sameError(solved.error, opened.error, `${what}: open`);
    tally.refused += 1;
    return;
  }
  assert.equal(opened.error, undefined, `${what}: the wasm API refuses the puzzle: ${opened.error}`);
  tally.puzzles += 1;
  const p = Puzzle.openBytes(file, readFileSync(file), options);
  try {
    const view = JSON.parse(p.view());
    assert.equal(view.cells.length, view.givens.length, `${what}: one given per cell`);
    const records = same(['solve', '--json', ...sel, file], () => p.solve(), `${what}: solve`);
    assert.equal(view.dialect, records.at(-1).dialect, `${what}: the view's dialect is solve's`);
    same(['solve', '--json', '--limit', '3', ...sel, file], () => p.solutions(3), `${what}: solve --limit 3`);
    const slow = file.includes(SLOW_TO_COUNT);
    const timeout = slow ? SLOW_COUNT_TIMEOUT_S : COUNT_TIMEOUT_S;
    const counted = run(['solve', '--count', '--json', '--timeout', String(timeout), ...sel, file]);
    if (counted.error !== undefined) {
      sameError(counted.error, call(() => p.count()).error, `${what}: count`);
    } else if (counted.records.at(-1).complete) {
      assert.deepStrictEqual(call(() => p.count()).value, counted.records.at(-1), `${what}: count`);
      tally.counted += 1;
    } else {
      if (slow) {
        tally.slow += 1;
      } else {
        tally.uncounted += 1;
        uncounted.push(what);
      }
    }
    // regexcrossword.com's clues are ECMAScript: the same puzzles read in that dialect.
    if (file.includes('regexcrossword-com')) {
      const js = Puzzle.openBytes(file, readFileSync(file), JSON.stringify({ id, pool, dialect: 'ecmascript' }));
      same(['solve', '--json', '--dialect', 'ecmascript', ...sel, file], () => js.solve(), `${what}: solve --dialect ecmascript`);
      assert.equal(JSON.parse(js.view()).dialect, 'ecmascript', `${what}: the dialect option reaches the view`);
      js.free();
      tally.ecmascript += 1;
    }
    const givens = view.givens.map((g) => g ?? '');
    const status = JSON.parse(p.status(JSON.stringify(givens)));
    assert.equal(status.length, view.clues.length, `${what}: one status per clue`);
    const summary = records.at(-1);
    if (summary.solutions > 0) {
      assert.ok(!status.includes('broken'), `${what}: a clue is broken on the givens of a puzzle with a solution`);
    }
    if (givens.some((g) => g === '.')) return;
    const onGivens = gridFile(view, givens, 'givens.txt');
    if (same(['hint', '--json', '--grid', onGivens, ...sel, file], () => p.hint(JSON.stringify(givens)), `${what}: hint`)) tally.hinted += 1;
    const ex = ['explain', '--json', '--max-steps', String(MAX_STEPS), '--grid', onGivens, ...sel, file];
    if (same(ex, () => p.explain(JSON.stringify(givens), MAX_STEPS), `${what}: explain`)) tally.explained += 1;
    if (summary.solutions === 0 || view.pool) return;
    // The first solution, cell by cell, and the same with one letter changed.
    const solution = [];
    view.rows.forEach((row, r) => [...records[0].grid[r]].forEach((ch, k) => { solution[row[k]] = ch; }));
    if (solution.some((g) => g === '.')) return;
    const free = view.givens.findIndex((g) => g === null);
    const other = view.alphabet.find((a) => a !== solution[free]);
    for (const [name, cells] of [['solution', solution], ['a wrong letter', solution.map((ch, c) => (c === free && other ? other : ch))]]) {
      const path = gridFile(view, cells, 'grid.txt');
      const checked = same(['check', '--json', ...sel, file, path], () => p.check(JSON.stringify(cells)), `${what}: check ${name}`);
      if (checked) {
        tally.checked += 1;
        const failing = checked.filter((r) => r.type === 'failure').map((r) => r.clue).sort();
        const st = JSON.parse(p.status(JSON.stringify(cells)));
        assert.ok(st.every((s) => s === 'satisfied' || s === 'broken'), `${what}: status of a full grid`);
        const broken = view.clues.filter((_, i) => st[i] === 'broken').map((c) => c.label).sort();
        assert.deepStrictEqual(broken, failing, `${what}: status on ${name} against check`);
      }
      const partial = cells.map((ch, c) => (c === free || view.givens[c] !== null ? ch : ''));
      const hinted = gridFile(view, partial, 'partial.txt');
      same(['hint', '--json', '--grid', hinted, ...sel, file], () => p.hint(JSON.stringify(partial)), `${what}: hint on ${name}`);
    }
  } finally {
    p.free();
  }
}

const started = Date.now();
for (const file of files('puzzles')) {
  tally.files += 1;
  const listed = run(['list', '--json', file]);
  if (listed.error !== undefined) {
    const opened = call(() => {
      Puzzle.openBytes(file, readFileSync(file)).free();
      return 'null';
    });
    sameError(listed.error, opened.error, `${file}: open`);
    tally.refused += 1;
    continue;
  }
  const pool = file.endsWith('.csv') && existsSync(file.replace(/\.csv$/, '.txt')) ? readFileSync(file.replace(/\.csv$/, '.txt'), 'utf8') : undefined;
  for (const rec of listed.records.filter((r) => r.type === 'puzzle')) {
    const t0 = Date.now();
    puzzleCase(file, rec.id, pool);
    if (process.env.CROSSAT_WEB_TIMES) console.error(`${Date.now() - t0} ms ${file} ${rec.id ?? ''}`);
  }
}

// generate: the same seed gives the same puzzle (its time aside).
for (const [args, options] of [
  [['--size', '3x3', '--seed', '7'], { size: '3x3', seed: 7 }],
  [['--size', '2x4', '--seed', '11', '--difficulty', 'easy'], { size: '2x4', seed: 11, difficulty: 'easy' }],
  [['--hex', '2', '--seed', '3'], { hex: '2', seed: 3 }],
]) {
  const c = run(['generate', '--json', ...args]).records[0];
  const w = JSON.parse(generate(JSON.stringify(options)));
  delete c.time_ms;
  delete w.time_ms;
  assert.deepStrictEqual(w, c, `generate ${args.join(' ')}`);
  // The puzzle it makes opens and is unique.
  const p = Puzzle.open('generated.json', JSON.stringify(w.crossat));
  assert.equal(JSON.parse(p.solve()).at(-1).unique, true, `generate ${args.join(' ')}: unique`);
  p.free();
}

// Without a seed, one is drawn (from the browser's clock in wasm) and given back.
const drawn = JSON.parse(generate(JSON.stringify({ size: '2x2' })));
assert.equal(drawn.type, 'puzzle', 'generate without a seed');
assert.ok(drawn.seed >= 0, 'generate without a seed gives its seed');

// A count that runs out of time ends as the command line's does at its --timeout.
// Every row and column of 12 cells holds a multiple of five As: the sweep's table would
// need 5^12 entries and the branching search takes minutes.
const five = '(?:B*AB*AB*AB*AB*A)*B*';
const slow = join(tmp, 'fives.json');
writeFileSync(slow, JSON.stringify({ left: Array(12).fill(five), top: Array(12).fill(five), alphabet: 'AB' }));
const stopped = run(['solve', '--count', '--json', '--timeout', '0.2', slow]).records.at(-1);
assert.equal(stopped.reason, 'timeout', `${slow} is counted within 0.2 s: pick a slower puzzle`);
const p = Puzzle.openBytes(slow, readFileSync(slow));
assert.deepStrictEqual(JSON.parse(p.count(200)), stopped, 'count with a time limit');
p.free();

rmSync(tmp, { recursive: true, force: true });
assert.ok(tally.puzzles >= 150, `only ${tally.puzzles} puzzles compared`);
// Counts the command line does not finish within its timeout are skipped: bounded to
// 1 % of the puzzles, with a minimum actually compared.
assert.ok(tally.uncounted * 100 <= tally.puzzles, `${tally.uncounted} of ${tally.puzzles} counts not compared within ${COUNT_TIMEOUT_S} s (more than 1 %): ${uncounted.join(', ')}`);
assert.ok(tally.counted >= 150, `only ${tally.counted} counts compared`);
console.log(
  `web/test/api.mjs: ${tally.puzzles} puzzles from ${tally.files} files compared with ${cli} ` +
    `(${tally.refused} files or puzzles refused by both with the same message); ` +
    `${tally.counted} counts compared (${tally.uncounted} not finished within ${COUNT_TIMEOUT_S} s by the command line, ${tally.slow} binoternary hexagons not within ${SLOW_COUNT_TIMEOUT_S} s), ` +
    `${tally.hinted} hints, ${tally.explained} explanations, ${tally.checked} checks, ${tally.ecmascript} in the ECMAScript dialect; ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
