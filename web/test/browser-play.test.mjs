// Browser tests of what players expect of a puzzle site: pencil marks, undo and redo,
// moving along a hexagon's three axes, a timer, progress kept across visits (with
// whether it was revealed), dark and colour-blind-safe colours. Answers come from
// the command-line program. Run: node --test web/test/browser-play.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CHALLENGES, checkBuilt, crossat, gridText, launch, newPage, open, ready, serve, shot } from './browser-lib.mjs';

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

const BEGINNER = ['regexcrossword.com challenges', 'Beginner 1: Beatles', `${CHALLENGES}#beginner/1`];
const MIT = ['Hexagons (MIT 2013 and others)', 'MIT', 'puzzles/antoine-trux/MIT.input.txt#'];

async function fresh(options) {
  const page = await newPage(browser, options);
  await page.goto(server.url);
  await ready(page);
  return page;
}

const focused = (page) => page.evaluate(() => document.activeElement?.dataset.rc ?? document.activeElement?.id ?? null);
const filled = (page, n) => page.waitForSelector(`body[data-filled="${n}"]`);
const marks = (page, rc) => page.getAttribute(`#board .cell[data-rc="${rc}"]`, 'data-marks');

test('pencil marks, undo and redo of every edit, and progress kept across visits with its revealed flag', async () => {
  const page = await fresh();
  await open(page, ...BEGINNER);
  const [sol] = crossat('solve', CHALLENGES, '--id', 'beginner/1', '--json');
  const row = Array.from(sol.grid[0]);
  const [a, b] = [row[0], row[1] === row[0] ? sol.grid[1][0] : row[1]];
  await page.click('#board .cell[data-rc="0,0"]');
  await page.click('#pencil');
  assert.equal(await page.getAttribute('#pencil', 'aria-pressed'), 'true');
  await page.click('#board .cell[data-rc="0,0"]');
  // Several candidates in one cell; the cell holds no letter and keeps the focus.
  await page.keyboard.type(a.toLowerCase());
  await page.keyboard.type(b);
  assert.deepEqual([...(await marks(page, '0,0'))].sort(), [a, b].sort());
  assert.equal(await page.inputValue('#board .cell[data-rc="0,0"]'), '');
  assert.equal(await focused(page), '0,0');
  assert.match(await page.getAttribute('#board .cell[data-rc="0,0"]', 'placeholder'), new RegExp(a));
  // Typing a mark again takes it out.
  await page.keyboard.type(b);
  assert.equal(await marks(page, '0,0'), a);
  // Letters again: the row's answer, along the row.
  await page.click('#pencil');
  await page.click('#board .cell[data-rc="0,0"]');
  await page.keyboard.type(sol.grid[0]);
  await filled(page, row.length);
  assert.equal(await page.isDisabled('#undo'), false);
  // Ctrl+Z takes out the last letter, Ctrl+Y puts it back.
  await page.keyboard.press('Control+z');
  await filled(page, row.length - 1);
  await page.keyboard.press('Control+y');
  await filled(page, row.length);
  await page.keyboard.press('Control+z');
  await filled(page, row.length - 1);
  await page.keyboard.press('Control+Shift+z');
  await filled(page, row.length);
  // The buttons undo every edit back to the two marks, then the first mark, then nothing.
  for (let i = 0; i < row.length; i++) await page.click('#undo');
  await filled(page, 0);
  assert.equal(await marks(page, '0,0'), a);
  await page.click('#undo');
  assert.deepEqual([...(await marks(page, '0,0'))].sort(), [a, b].sort());
  await page.click('#undo');
  await page.click('#undo');
  assert.equal(await marks(page, '0,0'), null);
  assert.equal(await page.isDisabled('#undo'), true);
  for (let i = 0; i < 3 + row.length; i++) await page.click('#redo');
  await filled(page, row.length);
  assert.equal(await marks(page, '0,0'), a);
  assert.equal(await page.isDisabled('#redo'), true);
  // A new visit shows the letters and the marks as they were, earned.
  await page.reload();
  await ready(page);
  await page.waitForSelector(`body[data-puzzle="${BEGINNER[2]}"]`);
  await filled(page, row.length);
  assert.equal((await gridText(page)).slice(0, row.length), sol.grid[0]);
  assert.equal(await marks(page, '0,0'), a);
  // Solved by hand: "Solved!", and so it stays on the next visit.
  await page.click('#board .cell[data-rc="1,0"]');
  await page.keyboard.type(sol.grid[1]);
  await page.waitForSelector('body[data-solved="1"]');
  await page.reload();
  await ready(page);
  await page.waitForSelector('body[data-solved="1"]');
  // Revealed: told apart from solving, and still so after a reload.
  await page.click('#clear');
  await filled(page, 0);
  await page.click('#reveal');
  await page.waitForSelector('body[data-solved="revealed"]');
  assert.match(await page.textContent('#solved'), /Revealed/);
  await page.reload();
  await ready(page);
  await page.waitForSelector('body[data-solved="revealed"]');
  assert.match(await page.textContent('#solved'), /Revealed/);
  assert.equal(await gridText(page), sol.grid.join(''));
  assert.deepEqual(page.errors, []);
});

// A cell's centre from its placement on the board.
const centre = (page, rc) => page.$eval(`#board .cell[data-rc="${rc}"]`, (e) => [parseFloat(e.style.left), parseFloat(e.style.top)]);
const activeClue = (page) => page.getAttribute('#board [data-clue].activeclue', 'data-clue');

test("a hexagon's three axes: Enter turns to each, Tab steps along it and Shift+Tab back, Tab leaves the grid at the line's end", async () => {
  const page = await fresh();
  await open(page, ...MIT);
  const middle = '6,6';
  await page.click(`#board .cell[data-rc="${middle}"]`);
  const angles = new Set();
  const clues = new Set();
  for (let axis = 0; axis < 3; axis++) {
    if (axis > 0) await page.keyboard.press('Enter');
    const clue = await activeClue(page);
    clues.add(clue);
    const from = await centre(page, middle);
    await page.keyboard.press('Tab');
    const next = await focused(page);
    assert.notEqual(next, middle);
    assert.equal(await activeClue(page), clue, 'Tab stays on the line');
    const to = await centre(page, next);
    // The next cell along the line is a neighbour: one cell width away.
    const size = await page.$eval('#board .cell', (e) => e.offsetWidth);
    const d = Math.hypot(to[0] - from[0], to[1] - from[1]);
    assert.ok(d > 0.9 * size && d < 1.6 * size, `a step of ${d}px`);
    angles.add(Math.round((Math.atan2(to[1] - from[1], to[0] - from[0]) * 180) / Math.PI + 360) % 180);
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(page), middle);
    assert.equal(await activeClue(page), clue);
  }
  assert.equal(clues.size, 3, 'three lines through the cell');
  assert.equal(angles.size, 3, `three directions: ${[...angles]}`);
  // Along the line to its end, then out of the grid (no keyboard trap).
  let tabs = 0;
  while (await page.evaluate(() => document.activeElement?.classList.contains('cell'))) {
    await page.keyboard.press('Tab');
    assert.ok(++tabs <= 13, 'Tab never left the grid');
  }
  assert.deepEqual(page.errors, []);
});

test('the timer: off by default, counts while the grid is unsolved, and is kept with the progress', async () => {
  const page = await fresh();
  await open(page, ...BEGINNER);
  assert.equal(await page.isVisible('#timer'), false);
  await page.check('#timer-on');
  await page.waitForSelector('#timer:not([hidden])');
  await page.waitForFunction(() => Number(document.getElementById('timer').dataset.seconds) >= 2, null, { timeout: 10000 });
  assert.match(await page.textContent('#timer'), /^0:0[2-9]$/);
  await page.reload();
  await ready(page);
  assert.equal(await page.isChecked('#timer-on'), true);
  assert.ok(Number(await page.getAttribute('#timer', 'data-seconds')) >= 2, 'the time played is kept');
  // Stopped when solved.
  await page.click('#reveal');
  await page.waitForSelector('body[data-solved="revealed"]');
  const at = await page.getAttribute('#timer', 'data-seconds');
  await page.waitForTimeout(1500);
  assert.equal(await page.getAttribute('#timer', 'data-seconds'), at);
  assert.deepEqual(page.errors, []);
});

const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+/g).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

test('dark theme following the system or chosen, and a colour-blind-safe palette with the states still in symbols', async () => {
  const page = await fresh({ colorScheme: 'dark' });
  await open(page, ...BEGINNER);
  assert.ok(luminance(await background(page)) < 60, 'dark when the system is');
  const cellBg = await page.$eval('#board .cell', (e) => getComputedStyle(e).backgroundColor);
  assert.ok(luminance(cellBg) < 80, `cells dark too: ${cellBg}`);
  await page.selectOption('#theme', 'light');
  assert.ok(luminance(await background(page)) > 200, 'light when chosen');
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue('#theme'), 'light');
  assert.ok(luminance(await background(page)) > 200, 'the choice is kept');
  await page.selectOption('#theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.ok(luminance(await background(page)) < 60, 'dark when chosen');
  // A solved grid's clues: green by default, blue in the colour-blind-safe palette,
  // and ✓ either way.
  await page.click('#reveal');
  await page.waitForSelector('body[data-solved="revealed"]');
  await page.selectOption('#theme', 'light');
  const okColour = () => page.$eval('.clue.satisfied', (e) => getComputedStyle(e).color);
  const green = await okColour();
  await page.check('#palette-cb');
  const blue = await okColour();
  assert.notEqual(green, blue);
  const [r, g, b] = blue.match(/\d+/g).map(Number);
  assert.ok(b > r && b > g, `satisfied is blue: ${blue}`);
  const syms = await page.$$eval('.clue.satisfied .sym', (els) => els.map((e) => e.textContent));
  assert.ok(syms.length > 0 && syms.every((s) => s === '✓'));
  assert.deepEqual(page.errors, []);
});

// Screenshots for people to look at (target/web-screenshots/): play, explain and
// create for a rectangle, a puzzle with two clues per column, MIT, and MIT on a phone.
// Each view is checked for what it must show before it is taken.
test('screenshots of play, explain and create: a rectangle, two clues per column, MIT, a phone', { timeout: 300000 }, async () => {
  const puzzles = [
    ['rectangle', ...BEGINNER, null],
    ['two-clues', 'antoine-trux tests', 'player_puzzle_good_ol_days', 'puzzles/antoine-trux/player_puzzle_good_ol_days.input.txt#', null],
    ['mit', ...MIT, null],
    ['phone-mit', ...MIT, { width: 390, height: 844 }],
  ];
  for (const [name, collection, label, key, viewport] of puzzles) {
    const page = await newPage(browser, viewport ? { viewport, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
    await page.goto(server.url);
    await ready(page);
    await open(page, collection, label, key);
    await page.click('#board .cell[data-rc="0,0"]');
    await page.screenshot({ path: shot(`${name}-play.png`), fullPage: true });
    await page.click('#explain');
    await page.waitForSelector('#steps:not([hidden])');
    for (let i = 0; i < 3 && !(await page.isDisabled('#step-next')); i++) await page.click('#step-next');
    assert.ok(Number(await page.getAttribute('body', 'data-filled')) > 0 || (await page.getAttribute('#steps', 'data-cells')) !== '', `${name}: explain shows its step on the board`);
    await page.screenshot({ path: shot(`${name}-explain.png`), fullPage: true });
    await page.click('#mode-create');
    await page.waitForFunction(() => document.getElementById('analysis').textContent.trim() !== '', null, { timeout: 60000 });
    await page.screenshot({ path: shot(`${name}-create.png`), fullPage: true });
    assert.deepEqual(page.errors, [], name);
    await page.context().close();
  }
});
