// Page benchmark (not a test): medians over paired runs in headless Chromium of
//   - interactive: navigation start → the first puzzle drawn with its clue states
//     (the page's `crossat:interactive` mark: wasm compiled, workers up, puzzle open);
//   - MIT solved: the Reveal click → the solved state shown, and the library's own
//     time for the solve inside the worker.
// Run after web/build (release wasm): node web/test/browser-bench.mjs [RUNS]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, checkBuilt, launch, newPage, ready, serve } from './browser-lib.mjs';

const runs = Number(process.argv[2] ?? 7);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

checkBuilt();
const server = await serve();
const browser = await launch();
try {
  const interactive = [];
  for (let i = 0; i < runs; i++) {
    const page = await newPage(browser);
    await page.goto(server.url);
    await ready(page);
    interactive.push(await page.evaluate(() => performance.getEntriesByName('crossat:interactive')[0].startTime));
    await page.context().close();
  }

  const page = await newPage(browser);
  await page.goto(server.url);
  await ready(page);
  await page.selectOption('#collection', { label: 'Hexagons (MIT 2013 and others)' });
  await page.selectOption('#puzzle-list', { label: 'MIT' });
  await page.waitForSelector('body[data-puzzle="puzzles/antoine-trux/MIT.input.txt#"]');
  const click = [];
  const worker = [];
  for (let i = 0; i < runs; i++) {
    await page.click('#clear');
    await page.waitForSelector('body[data-filled="0"]');
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const solved = document.getElementById('solved');
      const t0 = performance.now();
      const obs = new MutationObserver(() => {
        if (!solved.hidden) { obs.disconnect(); resolve(performance.now() - t0); }
      });
      obs.observe(solved, { attributes: true });
      document.getElementById('reveal').click();
    }));
    click.push(ms);
    worker.push(Number(await page.getAttribute('#help-out', 'data-ms')));
  }
  const figures = {
    runs,
    interactive_ms: median(interactive),
    mit_reveal_to_solved_ms: median(click),
    mit_solve_in_worker_ms: median(worker),
    samples: { interactive, click, worker },
  };
  writeFileSync(path.join(ROOT, 'target/web-bench.json'), JSON.stringify(figures, null, 1) + '\n');
  console.log(`interactive (median of ${runs}): ${figures.interactive_ms.toFixed(0)} ms`);
  console.log(`MIT: Reveal → solved shown ${figures.mit_reveal_to_solved_ms.toFixed(0)} ms; solve in the worker ${figures.mit_solve_in_worker_ms.toFixed(0)} ms`);
} finally {
  await browser.close();
  server.stop();
}
