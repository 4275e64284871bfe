// The README's screenshot (docs/img/page.png): the MIT hexagon part-filled, with a
// wrong letter the hint points at. Run after web/build: node web/test/browser-shot.mjs
import { launch, newPage, ready, serve, crossat } from './browser-lib.mjs';
const server = await serve(); const browser = await launch();
try {
  const page = await newPage(browser, { viewport: { width: 860, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(server.url); await ready(page);
  await page.selectOption('#collection', { label: 'Hexagons (MIT 2013 and others)' });
  await page.selectOption('#puzzle-list', { label: 'MIT' });
  await page.waitForSelector('body[data-puzzle="puzzles/antoine-trux/MIT.input.txt#"]');
  const [sol] = crossat('solve', 'puzzles/antoine-trux/MIT.input.txt', '--json');
  for (const r of [0, 1, 2, 6, 7]) {
    await page.click(`#board .cell[data-rc="${r},0"]`);
    await page.keyboard.type(r === 2 ? 'FOXNXAXPQ' : sol.grid[r]);
  }
  await page.waitForSelector('body[data-filled="49"]', { timeout: 30000 });
  await page.click('#hint');
  await page.waitForFunction(() => document.querySelector('#help-out').textContent);
  await page.evaluate(() => { document.getElementById('open').hidden = true; document.querySelector('footer').hidden = true; document.getElementById('clue-lists').hidden = true; document.getElementById('legend').hidden = true; });
  await page.screenshot({ path: 'docs/img/page.png', fullPage: true });
  console.log(page.errors);
} finally { await browser.close(); server.stop(); }
