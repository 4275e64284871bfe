import { launch, newPage, ready, serve } from './browser-lib.mjs';
const server = await serve(); const browser = await launch();
try {
  const page = await newPage(browser);
  await page.goto(server.url); await ready(page);
  await page.click('#mode-create');
  await page.fill('#new-rows', '3'); await page.fill('#new-cols', '4');
  await page.selectOption('#gen-difficulty', 'medium');
  let t0 = Date.now();
  await page.click('#generate');
  await page.waitForFunction(() => document.body.dataset.puzzle?.startsWith('generated'), null, {timeout: 60000});
  console.log('generated in', Date.now() - t0, await page.textContent('#puzzle-title'));
  await page.waitForFunction(() => document.querySelector('#analysis').dataset.result !== 'busy', null, {timeout: 60000});
  console.log(await page.textContent('#analysis'));
  for (const f of ['crossat', 'challenges', 'trux']) {
    await page.selectOption('#export-format', f);
    await page.click('#export');
    await page.waitForSelector('#export-out:not([hidden])');
    console.log(f, (await page.inputValue('#export-out')).slice(0, 200).replace(/\n/g, '|'));
  }
  await page.screenshot({ path: '/tmp/page-stub/gen.png', fullPage: true });
  await page.click('#mode-play');
  await page.selectOption('#collection', { label: 'Hexagons (MIT 2013 and others)' });
  await page.selectOption('#puzzle-list', { label: 'MIT' });
  await page.waitForSelector('body[data-puzzle="puzzles/antoine-trux/MIT.input.txt#"]');
  t0 = Date.now();
  await page.click('#explain');
  await page.waitForSelector('#steps:not([hidden])', {timeout: 60000});
  console.log('explain MIT', Date.now() - t0, await page.textContent('#step-count'));
  await page.click('#step-next'); await page.click('#step-next');
  await page.click('#check');
  await page.waitForFunction(() => document.querySelector('#help-out').textContent.startsWith('Check'));
  console.log(await page.textContent('#help-out'));
  await page.click('#unique');
  await page.waitForFunction(() => document.querySelector('#help-out').textContent.startsWith('Is it'), null, {timeout: 60000});
  console.log(await page.textContent('#help-out'));
  await page.click('#hint');
  await page.waitForFunction(() => document.querySelector('#help-out').textContent.startsWith('Hint'));
  console.log(await page.textContent('#help-out'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/page-stub/phone.png', fullPage: false });
  console.log('errors', page.errors);
} finally { await browser.close(); server.stop(); }
