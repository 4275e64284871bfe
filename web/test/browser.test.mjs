// Browser tests of the page (target/web, built by web/build) in Debian's Chromium.
// The expected answers come from the command-line program's JSON, never from this
// file. Run: node --test web/test/browser.test.mjs (after web/build and cargo build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CHALLENGES, ROOT, checkBuilt, crossat, gridText, launch, newPage, open, overprinted, ready, serve, shot } from './browser-lib.mjs';

let server;
let browser;

before(async () => {
  checkBuilt();
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const BEGINNER = { path: CHALLENGES, id: 'beginner/1', key: `${CHALLENGES}#beginner/1` };

async function fresh(viewport) {
  const page = await newPage(browser, viewport ? { viewport } : {});
  await page.goto(server.url);
  await ready(page);
  return page;
}

// Opens `text` as a pasted puzzle, the way a player does.
async function paste(page, text) {
  await page.click('#paste-box summary');
  await page.fill('#paste', text);
  await page.click('#paste-open');
  await page.waitForFunction(() => document.body.dataset.puzzle?.startsWith('pasted#'));
}

// Steps forward through the explanation the page shows, checking each of `steps`
// (crossat explain --json's) against the text shown, then `more(i, text)`.
async function stepThrough(page, steps, more) {
  await page.click('#explain');
  await page.waitForSelector('#steps:not([hidden])');
  for (let i = 0; i < steps.length; i++) {
    assert.equal(await page.textContent('#step-count'), `Step ${i + 1} of ${steps.length}`);
    const text = await page.textContent('#step-text');
    assert.ok(text.includes(steps[i].line), text);
    // The reason in words: its clues quoted “thus”, never in raw backticks.
    assert.ok(!text.includes('`'), text);
    for (const [, quoted] of steps[i].reason.matchAll(/`([^`]*)`/g)) assert.ok(text.includes(`“${quoted}”`), text);
    await more(i, text);
    if (i + 1 < steps.length) await page.click('#step-next');
  }
}

// Clue states by clue index (one element per clue carries data-clue).
function clueStates(page) {
  return page.$$eval('[data-clue]', (els) => {
    const out = [];
    for (const el of els) out[Number(el.dataset.clue)] = el.dataset.state ?? 'possible';
    return out;
  });
}

// Cells are found by their (row, index in row) as the command line numbers them.
function cellLabel([r, c]) { return `${r},${c}`; }

async function cellsWith(page, cls) {
  return page.$$eval(`#board .cell.${cls}`, (els) => els.map((e) => e.dataset.rc).sort());
}

function noErrors(page) {
  assert.deepEqual(page.errors, [], 'console errors');
}

// Types a rectangle's rows with the keyboard only: type along the row, then ArrowDown
// and ArrowLeft back to the row's first cell.
async function typeRows(page, rows) {
  await page.click('#board .cell[data-rc="0,0"]');
  for (let r = 0; r < rows.length; r++) {
    const chars = Array.from(rows[r]);
    if (r > 0) {
      await page.keyboard.press('ArrowDown');
      for (let i = 1; i < chars.length; i++) await page.keyboard.press('ArrowLeft');
    }
    for (const ch of chars) await page.keyboard.type(ch);
  }
}

test('beginner 1: typing its answer satisfies every clue and shows the solved state', async () => {
  const page = await fresh();
  const [sol] = crossat('solve', CHALLENGES, '--id', 'beginner/1', '--json');
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  assert.equal(await page.locator('#board .cell').count(), sol.grid.join('').length);
  assert.ok((await clueStates(page)).every((s) => s === 'possible'));
  assert.equal(await page.isVisible('#solved'), false);
  await typeRows(page, sol.grid);
  await page.waitForSelector('#solved:not([hidden])');
  const states = await clueStates(page);
  assert.equal(states.length, 4);
  assert.ok(states.every((s) => s === 'satisfied'), states.join());
  // A symbol besides the colour.
  assert.ok((await page.$$eval('[data-clue] .sym', (els) => els.map((e) => e.textContent))).every((t) => t === '✓'));
  await page.screenshot({ path: shot('beginner-solved.png'), fullPage: true });
  // Progress is kept per puzzle: a reload shows the same grid.
  await page.reload();
  await ready(page);
  assert.deepEqual(await gridText(page), sol.grid.join(''));
  noErrors(page);
});

test('a wrong letter marks the clue it breaks, as crossat check says', async () => {
  const page = await fresh();
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  const [sol] = crossat('solve', CHALLENGES, '--id', 'beginner/1', '--json');
  const grid = sol.grid.slice();
  grid[0] = 'Z' + grid[0].slice(1);
  await typeRows(page, grid);
  const tmp = path.join(ROOT, 'target/web-wrong-grid.txt');
  writeFileSync(tmp, grid.join('\n') + '\n');
  const failures = crossat('check', CHALLENGES, '--id', 'beginner/1', tmp, '--json').filter((r) => r.type === 'failure');
  assert.ok(failures.length > 0);
  await page.waitForFunction(() => document.querySelector('[data-state="broken"]'));
  const broken = await page.$$eval('[data-clue][data-state="broken"]', (els) => els.map((e) => e.getAttribute('aria-label')));
  assert.deepEqual(broken.map((l) => l.split(':')[0]).sort(), failures.map((f) => f.clue).sort());
  assert.ok(broken.every((l) => l.endsWith('broken')));
  assert.ok(await page.$$eval('[data-clue][data-state="broken"] .sym', (els) => els.every((e) => e.textContent === '✗')));
  assert.equal(await page.isVisible('#solved'), false);
  noErrors(page);
});

test('hint: the same cell and reason as crossat hint, on an empty and a partial grid', async () => {
  const page = await fresh();
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  const [h] = crossat('hint', CHALLENGES, '--id', 'beginner/1', '--json');
  await page.click('#hint');
  await page.waitForSelector('#board .cell.hinted');
  assert.deepEqual(await cellsWith(page, 'hinted'), [cellLabel(h.cell)]);
  assert.equal(await page.getAttribute('#help-out', 'data-reason'), h.reason);
  const name = await page.getAttribute('#board .cell.hinted', 'aria-label');
  assert.ok((await page.textContent('#help-out')).includes(`${name} is ${h.char}`));
  // With the hinted letter typed, the next hint follows `crossat hint --grid`.
  await page.keyboard.type(h.char);
  const grid = [['.', '.'], ['.', '.']];
  grid[h.cell[0]][h.cell[1]] = h.char;
  const tmp = path.join(ROOT, 'target/web-hint-grid.txt');
  writeFileSync(tmp, grid.map((r) => r.join('')).join('\n') + '\n');
  const [h2] = crossat('hint', CHALLENGES, '--id', 'beginner/1', '--grid', tmp, '--json');
  await page.click('#hint');
  await page.waitForFunction((l) => document.querySelector(`#board .cell.hinted[data-rc="${l}"]`), cellLabel(h2.cell));
  assert.equal(await page.getAttribute('#help-out', 'data-reason'), h2.reason);
  if (h2.clue) assert.match(await page.textContent('#help-out'), new RegExp(h2.clue.replace(/[()]/g, '\\$&')));
  noErrors(page);
});

test('explain: the steps of crossat explain, stepping highlights their cells', async () => {
  const page = await fresh();
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  const steps = crossat('explain', CHALLENGES, '--id', 'beginner/1', '--json').filter((r) => r.type === 'step');
  await stepThrough(page, steps, async (i) => {
    assert.deepEqual(await cellsWith(page, 'step'), steps[i].cells.map(cellLabel).sort());
  });
  assert.equal(await page.isDisabled('#step-next'), true);
  await page.click('#step-prev');
  assert.equal(await page.textContent('#step-count'), `Step ${steps.length - 1} of ${steps.length}`);
  assert.deepEqual(await cellsWith(page, 'step'), steps[steps.length - 2].cells.map(cellLabel).sort());
  noErrors(page);
});

// The letters each of `steps` fixes, cumulated: the grid (row-major text, '.' for an
// empty cell) after each step, from `crossat explain --json`.
function gridsAfterSteps(steps, sol) {
  const rows = sol.grid.map((r) => Array.from(r).map(() => '.'));
  return steps.map((st) => {
    st.cells.forEach(([r, c], i) => { if (Array.from(st.remaining[i]).length === 1) rows[r][c] = st.remaining[i]; });
    return rows.map((r) => r.join('')).join('');
  });
}

test('explain on MIT fills the board step by step to the answer, Back empties it again', async () => {
  const page = await fresh();
  const file = 'puzzles/antoine-trux/MIT.input.txt';
  await open(page, 'Hexagons (MIT 2013 and others)', 'MIT', `${file}#`);
  const recs = crossat('explain', file, '--json');
  const steps = recs.filter((r) => r.type === 'step');
  const [sol] = crossat('solve', file, '--json');
  const expected = gridsAfterSteps(steps, sol);
  assert.equal(expected.at(-1), sol.grid.join(''), 'the explanation ends at the answer');
  await page.click('#explain');
  await page.waitForSelector('#steps:not([hidden])');
  const grid = () => page.$$eval('#board .cell', (els) => els
    .map((e) => [...e.dataset.rc.split(',').map(Number), e.value || '.'])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]).join(''));
  for (let i = 0; i < steps.length; i++) {
    assert.equal(await page.textContent('#step-count'), `Step ${i + 1} of ${steps.length}`);
    assert.equal(await grid(), expected[i], `after step ${i + 1}`);
    if (i + 1 < steps.length) await page.click('#step-next');
  }
  await page.waitForSelector('body[data-solved="revealed"]');
  assert.match(await page.textContent('#solved'), /Revealed/);
  for (let i = steps.length - 1; i >= 0; i--) await page.click('#step-prev');
  assert.equal(await page.isDisabled('#step-prev'), true);
  assert.equal(await grid(), '.'.repeat(sol.grid.join('').length));
  await page.screenshot({ path: shot('mit-explain.png'), fullPage: true });
  noErrors(page);
});

test('explain a regex pool: entry and assign steps as crossat explain gives them', async () => {
  const page = await fresh();
  const text = JSON.stringify({
    name: 'pool', layout: 'free',
    entries: [
      { label: 'a', cells: [[0, 0], [0, 1], [0, 2]] },
      { label: 'd', cells: [[0, 0], [1, 0], [2, 0]] },
      { label: 'b', cells: [[2, 0], [2, 1], [2, 2]] },
    ],
    pool: ['C[AO][TW]', 'CO.', 'WE.'],
  });
  const tmp = path.join(ROOT, 'target/web-pool.json');
  writeFileSync(tmp, text);
  const steps = crossat('explain', tmp, '--json').filter((r) => r.type === 'step');
  assert.ok(steps.some((s) => s.kind === 'assign') && steps.some((s) => s.entries), JSON.stringify(steps));
  await paste(page, text);
  await stepThrough(page, steps, async (i, shown) => {
    for (const e of steps[i].entries ?? []) assert.ok(shown.includes(`${e.entry}: `), shown);
  });
  noErrors(page);
});

test('MIT hexagon: drawn with its clues and solved in the page', async () => {
  const page = await fresh();
  const file = 'puzzles/antoine-trux/MIT.input.txt';
  await open(page, 'Hexagons (MIT 2013 and others)', 'MIT', `${file}#`);
  const [sol] = crossat('solve', file, '--json');
  assert.equal(await page.locator('#board.hex .cell').count(), sol.grid.join('').length);
  assert.equal(await page.locator('[data-clue]').count(), 39);
  // Row clues beside their rows: the first row's clue ends left of the row's first cell.
  const clueBox = await page.locator('.clue[data-clue="0"]').boundingBox();
  const cellBox = await page.locator('#board .cell[data-rc="0,0"]').boundingBox();
  assert.ok(clueBox.x + clueBox.width <= cellBox.x + 1 && Math.abs(clueBox.y - cellBox.y) < 2);
  await page.click('#reveal');
  await page.waitForSelector('#solved:not([hidden])');
  const values = await gridText(page);
  assert.equal(values, sol.grid.join(''));
  assert.ok((await clueStates(page)).every((s) => s === 'satisfied'));
  await page.screenshot({ path: shot('mit.png'), fullPage: true });
  noErrors(page);
});

test('paste an antoine-trux puzzle', async () => {
  const page = await fresh();
  const file = 'puzzles/antoine-trux/intermediate_3.input.txt';
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const [sol] = crossat('solve', file, '--json');
  await paste(page, text);
  assert.equal(await page.locator('#board .cell').count(), sol.grid.join('').length);
  const regexes = [...text.matchAll(/^'(.*)'$/gm)].map((m) => m[1]);
  const shown = await page.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent));
  assert.deepEqual(shown.sort(), regexes.sort());
  // A bad paste is one clear error, and the puzzle stays.
  await page.fill('#paste', "shape = rectangular\nnum_rows = 1\nnum_cols = 1\n'('\n'A'\n");
  await page.click('#paste-open');
  await page.waitForSelector('#error:not([hidden])');
  assert.equal(await page.locator('#board .cell').count(), sol.grid.join('').length);
  noErrors(page);
});

test('a pasted puzzle read as ECMAScript: the page reveals what crossat solve --dialect ecmascript finds, and the share link keeps the dialect', async () => {
  const page = await fresh();
  // `\Z` ends the string in Python (so the row cannot be AZ) and is a plain Z in ECMAScript.
  const text = JSON.stringify({ rows: 1, cols: 2, left: ['A\\Z|BC'], top: ['A|B', 'Z'] });
  const file = path.join(ROOT, 'target', 'web-dialect.json');
  writeFileSync(file, text);
  const python = crossat('solve', '--json', file);
  const ecma = crossat('solve', '--json', '--dialect', 'ecmascript', file);
  assert.equal(python.at(-1).solutions, 0);
  const [sol] = ecma;
  await paste(page, text);
  assert.equal(await page.getAttribute('#dialect-note', 'data-dialect'), python.at(-1).dialect);
  await page.click('#reveal');
  await page.waitForFunction(() => /No solution/.test(document.querySelector('#help-out').textContent));
  await page.selectOption('#paste-dialect', 'ecmascript');
  await page.click('#paste-open');
  await page.waitForSelector('#dialect-note[data-dialect="ecmascript"]');
  await page.click('#reveal');
  await page.waitForFunction(() => /Revealed/.test(document.querySelector('#help-out').textContent));
  assert.equal(await gridText(page), sol.grid.join(''));
  // The link opens the puzzle in the same dialect.
  await page.click('#share');
  await page.waitForFunction(() => location.hash.includes('dialect=ecmascript'));
  const other = await newPage(browser);
  await other.goto(page.url());
  await ready(other);
  await other.waitForSelector('#dialect-note[data-dialect="ecmascript"]');
  // Edited in Create mode, the clues stay ECMAScript: the row's new alternative `B\Z`
  // (BZ there) makes a second solution, where Python would still find none.
  await page.click('#mode-create');
  await page.fill('#clue-edit-0', 'A\\Z|BC|B\\Z');
  await page.waitForFunction(() => /2 solutions/.test(document.querySelector('#analysis').textContent));
  assert.equal(await page.getAttribute('#dialect-note', 'data-dialect'), 'ecmascript');
  noErrors(page);
  noErrors(other);
});

test('a file chosen from disk opens; one that is not UTF-8 is read as Windows-1252, as the command line reads it', async () => {
  const page = await fresh();
  const file = 'puzzles/antoine-trux/hamlet_5.input.txt';
  const [sol] = crossat('solve', file, '--json');
  await page.click('#paste-box summary');
  await page.setInputFiles('#file', path.join(ROOT, file));
  await page.waitForFunction(() => document.body.dataset.puzzle?.startsWith('hamlet_5.input.txt#'));
  assert.equal(await page.locator('#board .cell').count(), sol.grid.join('').length);
  const shown = await page.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent));
  assert.ok(shown.includes('[A?OH\u2013FIRE.]+J?'), shown.join(' '));
  noErrors(page);
});

test('keyboard only: Tab reaches the grid, letters run along the line, Enter turns to the crossing line', async () => {
  const page = await fresh();
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  const [sol] = crossat('solve', CHALLENGES, '--id', 'beginner/1', '--json');
  let tabs = 0;
  while (!(await page.evaluate(() => document.activeElement?.classList.contains('cell')))) {
    await page.keyboard.press('Tab');
    assert.ok(++tabs < 40, 'Tab never reached a cell');
  }
  assert.equal(await page.evaluate(() => document.activeElement.dataset.rc), '0,0');
  await page.keyboard.type(sol.grid[0]);
  await page.waitForSelector(`body[data-filled="${Array.from(sol.grid[0]).length}"]`);
  // Back to the row's first cell, then down its column.
  for (let i = 1; i < Array.from(sol.grid[0]).length; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type(Array.from(sol.grid[1])[0]);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.rc), '1,0', 'the column ends here');
  assert.ok((await page.getAttribute('[data-clue].activeclue', 'aria-label')).startsWith('column 1'));
  await page.waitForSelector(`body[data-filled="${Array.from(sol.grid[0]).length + 1}"]`);
  // The first column holds its answer: its clue is satisfied.
  const col = await page.$$eval('[data-clue]', (els) => els.filter((e) => e.getAttribute('aria-label').startsWith('column 1')).map((e) => e.dataset.state));
  assert.deepEqual(col, ['satisfied']);
  noErrors(page);
});

test('a free layout: drawn cell by cell, typed along its entries, revealed as the command line solves it', async () => {
  const page = await fresh();
  const text = JSON.stringify({
    name: 'free layout', layout: 'free',
    entries: [
      { label: '1 across', cells: [[0, 0], [0, 1], [0, 2]], clues: ['C[AO]T'] },
      { label: '1 down', cells: [[0, 0], [1, 0], [2, 0]], clues: 'C[OU]W' },
      { label: '2 down', cells: [[0, 2], [1, 2], [2, 2]], clues: ['T[EO]N', '.O.'] },
    ],
  });
  const tmp = path.join(ROOT, 'target/web-free.json');
  writeFileSync(tmp, text);
  const [sol] = crossat('solve', tmp, '--json');
  await paste(page, text);
  assert.equal(await page.locator('#board .cell').count(), sol.grid.join('').length);
  // (1, 2) sits two cells right of (1, 0) and one below (0, 2): the layout's gaps are kept.
  const box = async (rc) => page.locator(`#board .cell[data-rc="${rc}"]`).boundingBox();
  const [a, b, c] = [await box('1,0'), await box('1,2'), await box('0,2')];
  assert.ok(b.x - a.x > 1.5 * a.width && Math.abs(b.y - a.y) < 1 && b.y > c.y, JSON.stringify({ a, b, c }));
  // Typing down the first column follows the entry "1 down".
  await page.click('[data-clue] .regex >> text=C[OU]W');
  await page.keyboard.type(Array.from(sol.grid).map((row) => Array.from(row)[0]).join(''));
  await page.waitForSelector('body[data-filled="3"]');
  const down = await page.$$eval('[data-clue]', (els) => els.filter((e) => e.getAttribute('aria-label').startsWith('1 down')).map((e) => e.dataset.state));
  assert.deepEqual(down, ['satisfied']);
  await page.click('#reveal');
  await page.waitForSelector('#solved:not([hidden])');
  assert.equal(await gridText(page), sol.grid.join(''));
  noErrors(page);
});

test('setter mode: a 2x2 with two solutions shows "2 solutions" and the ambiguous cells', async () => {
  const page = await fresh();
  await page.click('#mode-create');
  await page.fill('#new-rows', '2');
  await page.fill('#new-cols', '2');
  await page.click('#new-blank');
  await page.waitForSelector('#clue-edit-3');
  const clues = { rows: ['A[BC]', 'DE'], cols: ['AD', '[BC]E'] };
  const labels = await page.$$eval('#clue-editor label', (els) => els.map((e) => e.textContent));
  for (let k = 0; k < labels.length; k++) {
    const [kind, n] = labels[k].split(' ');
    await page.fill(`#clue-edit-${k}`, (kind === 'row' ? clues.rows : clues.cols)[Number(n) - 1]);
  }
  const tmp = path.join(ROOT, 'target/web-setter.json');
  writeFileSync(tmp, JSON.stringify({ left: clues.rows, top: clues.cols }));
  const sols = crossat('solve', tmp, '--all', '--json').filter((r) => r.type === 'solution').map((r) => r.grid);
  assert.equal(sols.length, 2);
  const ambiguous = [];
  sols[0].forEach((row, r) => Array.from(row).forEach((ch, c) => {
    if (sols.some((g) => Array.from(g[r])[c] !== ch)) ambiguous.push(cellLabel([r, c]));
  }));
  await page.waitForFunction(() => document.querySelector('#analysis').dataset.result === '2');
  assert.match(await page.textContent('#analysis'), /2 solutions/);
  assert.deepEqual(await cellsWith(page, 'ambiguous'), ambiguous.sort());
  await page.screenshot({ path: shot('setter.png'), fullPage: true });
  // One more edit makes it unique.
  await page.fill('#clue-edit-0', 'AB');
  await page.waitForFunction(() => document.querySelector('#analysis').dataset.result === '1');
  assert.deepEqual(await cellsWith(page, 'ambiguous'), []);
  noErrors(page);
});

test('generate, then export as antoine-trux text: the command line solves the export as the page reveals it', async () => {
  const page = await fresh();
  await page.click('#mode-create');
  await page.fill('#new-rows', '3');
  await page.fill('#new-cols', '4');
  await page.selectOption('#gen-difficulty', 'easy');
  await page.click('#generate');
  await page.waitForFunction(() => document.body.dataset.puzzle?.startsWith('generated:'), null, { timeout: 60000 });
  assert.equal(await page.locator('#board .cell').count(), 12);
  // The seed the page shows, given to the command line, makes the same clues (a u64:
  // it travels as digits, never through a JavaScript number).
  const seed = await page.getAttribute('body', 'data-seed');
  assert.match(seed, /^\d+$/);
  assert.ok((await page.textContent('#puzzle-title')).includes(seed));
  const [made] = crossat('generate', '--size', '3x4', '--difficulty', 'easy', '--seed', seed, '--json');
  const shown = await page.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent));
  assert.deepEqual(shown.sort(), [...made.crossat.left, ...made.crossat.top].sort());
  await page.waitForFunction(() => document.querySelector('#analysis').dataset.result === '1', null, { timeout: 60000 });
  await page.selectOption('#export-format', 'trux');
  await page.click('#export');
  await page.waitForSelector('#export-out:not([hidden])');
  const tmp = path.join(ROOT, 'target/web-export.txt');
  writeFileSync(tmp, await page.inputValue('#export-out'));
  const recs = crossat('solve', tmp, '--json');
  const sol = recs.find((r) => r.type === 'solution');
  assert.equal(recs.find((r) => r.type === 'summary').unique, true);
  await page.click('#mode-play');
  await page.click('#reveal');
  await page.waitForSelector('#solved:not([hidden])');
  assert.equal(await gridText(page), sol.grid.join(''));
  noErrors(page);
});

test('share links: a bundled puzzle by its name, a pasted one deflated; opened fresh, the menus show what the board shows', async () => {
  const page = await fresh();
  const file = 'puzzles/antoine-trux/hexagonal_4.input.txt';
  await open(page, 'Hexagons (MIT 2013 and others)', 'hexagonal_4', `${file}#`);
  const before = await page.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent));
  await page.click('#share');
  await page.waitForFunction(() => location.hash.length > 1);
  const url = page.url();
  assert.equal(new URL(url).hash, '#c=antoine-trux&f=hexagonal_4.input.txt');
  assert.ok(url.length < 200, url);
  await page.waitForFunction(() => document.querySelector('#share-out').textContent === '', null, { timeout: 6000 });
  const other = await newPage(browser);
  await other.goto(url);
  await ready(other);
  assert.deepEqual(await other.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent)), before);
  assert.equal(await other.textContent('#puzzle-title'), await page.textContent('#puzzle-title'));
  const menus = (p) => p.evaluate(() => [document.querySelector('#collection'), document.querySelector('#puzzle-list')]
    .map((s) => s.selectedOptions[0]?.textContent));
  // (The antoine-trux hexagons are listed in two collections: the first that has it.)
  assert.deepEqual(await menus(other), ['antoine-trux tests', 'hexagonal_4']);
  // A challenge by its set and number.
  await other.goto(`${server.url}#c=regexcrossword-com&id=beginner/1`);
  await other.reload();
  await ready(other);
  await other.waitForSelector(`body[data-puzzle="${BEGINNER.key}"]`);
  assert.deepEqual(await menus(other), ['regexcrossword.com challenges', 'Beginner 1: Beatles']);
  // MIT pasted as text: its link carries the puzzle alone, deflated, under 2,000 characters.
  const mit = readFileSync(path.join(ROOT, 'puzzles/antoine-trux/MIT.input.txt'), 'utf8');
  await paste(page, mit);
  assert.deepEqual(await menus(page), ['Hexagons (MIT 2013 and others)', '(pasted puzzle)']);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.includes('z='));
  const link = page.url();
  assert.ok(link.length < 2000, `${link.length} characters`);
  const third = await newPage(browser);
  await third.goto(link);
  await ready(third);
  assert.equal(await third.locator('#board .cell').count(), 127);
  assert.equal(await third.locator('[data-clue]').count(), 39);
  noErrors(page);
  noErrors(other);
  noErrors(third);
});

test('typing stays responsive during a long count, and Stop ends it', async () => {
  const page = await fresh();
  // Every row and column of 12 cells holds a multiple of five As: too wide for the
  // counting sweep, and minutes for the branching search.
  const five = '(?:B*AB*AB*AB*AB*A)*B*';
  await paste(page, JSON.stringify({ left: Array(12).fill(five), top: Array(12).fill(five), alphabet: 'AB' }));
  await page.click('#unique');
  await page.waitForSelector('#busy:not([hidden])');
  // While the worker counts, the board takes letters and the live worker answers
  // with the clue states of the grid as typed.
  await page.click('#board .cell[data-rc="0,0"]');
  await page.keyboard.type('AB');
  await page.waitForSelector('body[data-filled="2"]');
  assert.equal(await page.isVisible('#busy'), true, 'the count was still running');
  await page.click('#stop');
  await page.waitForSelector('#busy[hidden]', { state: 'attached' });
  assert.match(await page.textContent('#help-out'), /stopped/);
  // The restarted worker answers again.
  await page.click('#clear');
  await page.click('#hint');
  await page.waitForFunction(() => /^(Hint|No empty cell is forced)/.test(document.querySelector('#help-out').textContent));
  noErrors(page);
});

test('a slow open never replaces a later one: picking an entry while the collection\'s first entry still loads keeps the pick', async () => {
  const page = await fresh();
  // Every bundled file but Hamlet 1 arrives 1.5 s late, so the open that choosing the
  // collection starts (its first entry) ends after the one the pick starts.
  await page.route(/\/puzzles\/(?!solrabizna\/hamlet-1\.json)[^?]*$/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await open(page, 'More rectangles', 'Hamlet hamlet-1', 'puzzles/solrabizna/hamlet-1.json#');
  await page.waitForTimeout(3000);
  assert.equal(await page.getAttribute('body', 'data-puzzle'), 'puzzles/solrabizna/hamlet-1.json#');
  assert.equal(await page.$eval('#puzzle-list', (s) => s.selectedOptions[0].textContent), 'Hamlet hamlet-1');
  await page.unroute(/.*/);
});

test('a phone (390x844): the board fits its width, its cells and every control are at least 24x24 px', async () => {
  const page = await fresh({ width: 390, height: 844 });
  const fits = async () => {
    const boxes = await page.$$eval('#board .cell, #board [data-clue]', (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    return boxes.every((b) => b.left >= 0 && b.right <= 390);
  };
  await open(page, 'regexcrossword.com challenges', 'Beginner 1: Beatles', BEGINNER.key);
  assert.ok(await fits(), 'beginner 1 fits');
  const labels = await page.$$eval('#board .cell', (els) => els.map((e) => e.getAttribute('aria-label')));
  assert.ok(labels.every((l) => /^row \d+, column \d+$/.test(l)));
  await open(page, 'More rectangles', 'Hamlet hamlet-1', 'puzzles/solrabizna/hamlet-1.json#');
  assert.ok(await fits(), 'Hamlet 1 fits: every column and clue in view');
  // Controls: every button, field and cell a finger can hit.
  const small = async () => page.$$eval('button, select, input, summary, a[href]', (els) => els
    .filter((e) => e.checkVisibility())
    .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24)
    .map(([n, r]) => `${n} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`));
  assert.deepEqual(await small(), []);
  await open(page, 'Hexagons (MIT 2013 and others)', 'MIT', 'puzzles/antoine-trux/MIT.input.txt#');
  assert.deepEqual(await small(), []);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page width ${width}`);
  await page.screenshot({ path: shot('phone-mit.png'), fullPage: true });
  noErrors(page);
});

test('every puzzle the page lists opens with the library (puzzles/index.json)', async () => {
  const { pathToFileURL } = await import('node:url');
  const pkg = path.join(ROOT, 'target/web/pkg');
  const api = await import(pathToFileURL(path.join(pkg, 'crossat_web.js')).href);
  await api.default({ module_or_path: readFileSync(path.join(pkg, 'crossat_web_bg.wasm')) });
  const web = path.join(ROOT, 'target/web');
  const index = JSON.parse(readFileSync(path.join(web, 'puzzles/index.json'), 'utf8'));
  // As the page reads a file: UTF-8, else Windows-1252.
  const decode = (b) => {
    try { return new TextDecoder('utf-8', { fatal: true }).decode(b); } catch { return new TextDecoder('windows-1252').decode(b); }
  };
  const failed = [];
  let opened = 0;
  const open = (name, text, id) => {
    try {
      const p = api.Puzzle.open(name, text, id ? JSON.stringify({ id }) : undefined);
      assert.ok(JSON.parse(p.view()).cells.length > 0);
      p.free();
      opened++;
    } catch (e) {
      failed.push(`${name} ${id ?? ''}: ${e.message}`);
    }
  };
  for (const c of index.collections) {
    if (c.kind === 'challenges') {
      const text = readFileSync(path.join(web, c.path), 'utf8');
      for (const set of JSON.parse(text)) set.puzzles.forEach((_, i) => open(c.path, text, `${set.id}/${i + 1}`));
    } else {
      for (const f of c.files) open(f.path, decode(readFileSync(path.join(web, f.path))));
    }
  }
  assert.deepEqual(failed, []);
  assert.ok(opened > 150, `${opened} puzzles`);
});

// Every puzzle the page lists, opened from its menus at a desktop and a phone size: no
// letter of any clue, label or cell is printed over another.
for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test(`nothing overprinted on any listed puzzle at ${viewport.width}x${viewport.height}`, async () => {
    const page = await fresh(viewport);
    await page.evaluate(`window.overprinted = ${overprinted.toString()};`);
    const failures = await page.evaluate(async () => {
      const out = [];
      const col = document.querySelector('#collection');
      const list = document.querySelector('#puzzle-list');
      const settle = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const waitFor = async (key) => {
        for (let i = 0; i < 600 && document.body.dataset.puzzle !== key; i++) await new Promise((r) => setTimeout(r, 20));
        if (document.body.dataset.puzzle !== key) throw new Error(`${key} did not open`);
      };
      for (const c of [...col.options]) {
        col.value = c.value;
        col.dispatchEvent(new Event('change'));
        for (let i = 0; i < 600 && !(list.entries && list.entries[0] && list.dataset.collection === c.value); i++) await new Promise((r) => setTimeout(r, 20));
        for (const o of [...list.options]) {
          const e = list.entries[Number(o.value)];
          const key = `${e.path}#${e.id ?? ''}`;
          if (document.body.dataset.puzzle !== key) {
            list.value = o.value;
            list.dispatchEvent(new Event('change'));
            await waitFor(key);
          }
          await settle();
          const bad = window.overprinted();
          if (bad.length) out.push(`${o.textContent}: ${bad.length} overprinted, e.g. ${bad.slice(0, 3).join('; ')}`);
        }
      }
      return out;
    });
    assert.deepEqual(failures, []);
    noErrors(page);
  });
}

test('a puzzle whose name and clues are HTML is shown as text, from a paste and from a share link; the page allows no inline script', async () => {
  const page = await fresh();
  const name = '<img src=x onerror="window.pwned=1"><b>bold</b>';
  const text = JSON.stringify({ name, rows: 1, cols: 2, left: ['<i>|AB'], top: ['A|<', 'B|i'] });
  await paste(page, text);
  assert.equal(await page.textContent('#puzzle-title'), name);
  const shown = await page.$$eval('[data-clue] .regex', (els) => els.map((e) => e.textContent));
  assert.deepEqual(shown.sort(), ['<i>|AB', 'A|<', 'B|i'].sort());
  const injected = () => page.evaluate(() => ({
    tags: document.querySelectorAll('main img, main b, main i, main script').length,
    pwned: window.pwned ?? null,
  }));
  assert.deepEqual(await injected(), { tags: 0, pwned: null });
  // The same through a share link opened fresh.
  await page.click('#share');
  await page.waitForFunction(() => location.hash.length > 1);
  const other = await newPage(browser);
  await other.goto(page.url());
  await ready(other);
  assert.equal(await other.textContent('#puzzle-title'), name);
  assert.deepEqual(await other.evaluate(() => ({
    tags: document.querySelectorAll('main img, main b, main i, main script').length,
    pwned: window.pwned ?? null,
  })), { tags: 0, pwned: null });
  // The Content-Security-Policy refuses an inline script, should one ever be written.
  const ran = await other.evaluate(() => new Promise((resolve) => {
    document.addEventListener('securitypolicyviolation', () => resolve('refused'), { once: true });
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan = 1';
    document.body.append(s);
    setTimeout(() => resolve(window.inlineRan ? 'ran' : 'refused'), 500);
  }));
  assert.equal(ran, 'refused');
  noErrors(page);
  assert.ok(other.errors.every((e) => /Content Security Policy/.test(e)), other.errors.join('\n'));
});

test('the served folder holds the page alone and is small', async () => {
  const { readdirSync, statSync } = await import('node:fs');
  const web = path.join(ROOT, 'target/web');
  let bytes = 0;
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = path.join(dir, f);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else {
        bytes += st.size;
        assert.match(f, /\.(html|css|js|mjs|json|wasm|svg|png|webmanifest|txt|dat|md)$|^(LICENSE|LICENSE-.*)$/, `${p} is not part of the page`);
      }
    }
  };
  walk(web);
  assert.ok(bytes < 5e6, `${bytes} bytes served`);
  assert.ok(statSync(path.join(web, 'pkg/crossat_web_bg.wasm')).size <= 2 * 1024 * 1024);
});

test('offline: after one visit, with the network cut, a reload opens and solves MIT', async () => {
  const page = await fresh();
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30000 });
  await page.context().setOffline(true);
  await page.reload();
  await ready(page);
  const file = 'puzzles/antoine-trux/MIT.input.txt';
  await open(page, 'Hexagons (MIT 2013 and others)', 'MIT', `${file}#`);
  const [sol] = crossat('solve', file, '--json');
  await page.click('#reveal');
  await page.waitForSelector('#solved:not([hidden])');
  assert.equal(await gridText(page), sol.grid.join(''));
  // Installable: a manifest the browser reads.
  const manifest = await page.evaluate(async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json());
  assert.equal(manifest.start_url, './');
  assert.ok(manifest.icons.length > 0);
  noErrors(page);
});
