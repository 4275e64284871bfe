// The page's quality gates, in Debian's Chromium: Lighthouse 12 (web/page's pinned
// lighthouse) on the landing page and on MIT, served as a deployment serves it (gzip,
// cache headers: serveCompressed); axe (@axe-core/playwright) in play, create and
// explain modes, light and dark; and the layout's stability (cumulative layout shift)
// through play, hint, reveal and explain. Run: node --test web/test/browser-audit.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHALLENGES, ROOT, checkBuilt, launch, newPage, open, ready, serveCompressed } from './browser-lib.mjs';

const require = createRequire(new URL('../page/package.json', import.meta.url));
const { default: AxeBuilder } = await import(require.resolve('@axe-core/playwright'));
const LIGHTHOUSE = path.join(ROOT, 'web/page/node_modules/.bin/lighthouse');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The issue's thresholds (issue 38).
const MIN = { performance: 0.95, accessibility: 0.98, 'best-practices': 1, seo: 0.95 };
const MAX_CLS = 0.02;
const MIT = ['Hexagons (MIT 2013 and others)', 'MIT', 'puzzles/antoine-trux/MIT.input.txt#'];

let server;
let browser;
before(async () => {
  checkBuilt();
  server = await serveCompressed();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

// One Lighthouse run (its mobile defaults: simulated slow 4G and a 4x slower CPU);
// the four categories' scores and the audits that cost points. Run asynchronously:
// the server is in this process.
async function lighthouse(url) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crossat-lh-'));
  try {
    const out = path.join(dir, 'report.json');
    await promisify(execFile)(LIGHTHOUSE, [url, '--quiet', '--output=json', `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu'], {
      env: { ...process.env, CHROME_PATH: CHROMIUM }, timeout: 240000, maxBuffer: 1 << 26,
    });
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const scores = Object.fromEntries(Object.entries(report.categories).map(([k, c]) => [k, c.score]));
    const lost = Object.values(report.audits)
      .filter((a) => a.score != null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => `${a.id} ${a.score}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    return { scores, lost };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Lighthouse's own advice for a noisy machine (this one is shared): several runs, the
// median run. The run with the median performance score is judged, as Lighthouse's
// computeMedianRun picks it.
const RUNS = 5;

for (const [what, hash] of [['the landing page', ''], ['MIT', '#c=antoine-trux&f=MIT.input.txt']]) {
  test(`Lighthouse on ${what}: performance, accessibility, best practices and SEO at the issue's thresholds (median of ${RUNS} runs)`, { timeout: 600000 }, async () => {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await lighthouse(server.url + hash));
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    const { scores, lost } = runs[Math.floor(RUNS / 2)];
    console.log(`lighthouse ${what}: performance ${runs.map((r) => r.scores.performance).join(' ')}; median run ${JSON.stringify(scores)}; below 1: ${lost.join(', ')}`);
    for (const [k, min] of Object.entries(MIN)) {
      assert.ok(scores[k] >= min, `${k} ${scores[k]} < ${min} on ${what}; audits below 1: ${lost.join(', ')}`);
    }
  });
}

async function axe(page, where) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`), [], `axe in ${where}`);
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe: no serious or critical violation in play, explain and create modes (${colorScheme})`, async () => {
    const page = await newPage(browser, { colorScheme });
    await page.goto(server.url);
    await ready(page);
    await axe(page, 'the landing page');
    await open(page, ...MIT);
    await page.click('#board .cell[data-rc="0,0"]');
    await page.keyboard.type('NH');
    await axe(page, 'play on MIT');
    await page.click('#pencil');
    await page.click('#board .cell[data-rc="3,3"]');
    await page.keyboard.type('AB');
    await page.click('#timer-on');
    await axe(page, 'play with pencil marks and the timer');
    await page.click('#explain');
    await page.waitForSelector('#steps:not([hidden])');
    await page.click('#step-next');
    await axe(page, 'explain');
    await page.click('#mode-create');
    await page.waitForSelector('#create:not([hidden])');
    await page.waitForFunction(() => document.getElementById('analysis').textContent.trim() !== '', null, { timeout: 60000 });
    await axe(page, 'create');
    await page.check('#palette-cb');
    await page.click('#mode-play');
    await page.click('#reveal');
    await page.waitForSelector('body[data-solved="revealed"]');
    await axe(page, 'a revealed grid in the colour-blind-safe palette');
    assert.deepEqual(page.errors, []);
  });
}

test(`layout shift stays under ${MAX_CLS} through play, hint, reveal and explain`, async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const page = await newPage(browser, { viewport });
    // Every layout shift not caused by the player's own input, summed as Lighthouse
    // does within its session windows (at most 1 s apart, 5 s long), from the start.
    await page.addInitScript(() => {
      window.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push([e.startTime, e.value]);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const cls = () => page.evaluate(() => {
      let best = 0;
      let sum = 0;
      let first = -Infinity;
      let last = -Infinity;
      for (const [t, v] of window.shifts) {
        if (t - last > 1000 || t - first > 5000) { sum = 0; first = t; }
        sum += v;
        last = t;
        best = Math.max(best, sum);
      }
      return best;
    });
    await page.goto(`${server.url}#c=regexcrossword-com&id=beginner/1`);
    await ready(page);
    await page.waitForSelector(`body[data-puzzle="${CHALLENGES}#beginner/1"]`);
    await page.click('#board .cell[data-rc="0,0"]');
    await page.keyboard.type('HE');
    await page.click('#hint');
    await page.waitForFunction(() => document.getElementById('help-out').textContent !== '');
    await page.click('#reveal');
    await page.waitForSelector('body[data-solved="revealed"]');
    await page.click('#clear');
    await page.waitForSelector('body[data-filled="0"]');
    await page.click('#explain');
    await page.waitForSelector('#steps:not([hidden])');
    for (let i = 0; i < 3; i++) {
      if (await page.isDisabled('#step-next')) break;
      await page.click('#step-next');
    }
    await page.click('#step-prev');
    await page.waitForTimeout(300);
    const value = await cls();
    console.log(`cumulative layout shift at ${viewport.width}x${viewport.height}: ${value.toFixed(4)}`);
    assert.ok(value <= MAX_CLS, `cumulative layout shift ${value} > ${MAX_CLS} at ${viewport.width}x${viewport.height}: ${JSON.stringify(await page.evaluate(() => window.shifts))}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
