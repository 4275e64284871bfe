// Shared by the browser tests and the page benchmark: serve target/web on localhost,
// drive Debian's Chromium with playwright-core, and ask the command-line program
// (the oracle the page must agree with) for its JSON.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../page/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB = path.join(ROOT, 'target/web');
export const SHOTS = path.join(ROOT, 'target/web-screenshots');
export const CHALLENGES = 'puzzles/regexcrossword-com/challenges.json';
const BIN = process.env.CROSSAT_BIN ?? path.join(ROOT, 'target/debug/crossat');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The page must have been built (web/build): the tests fail, never skip, without it.
export function checkBuilt() {
  for (const f of ['index.html', 'main.js', 'puzzles/index.json', 'pkg/crossat_web.js', 'pkg/crossat_web_bg.wasm']) {
    if (!existsSync(path.join(WEB, f))) throw new Error(`target/web/${f} is missing: run web/build first`);
  }
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run cargo build first`);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
}

// JSON Lines of `crossat ARGS` (run from the repository root); exit 0 or 1 only.
export function crossat(...args) {
  const r = spawnSync(BIN, args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`crossat ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// python3's static server on 127.0.0.1; stop() ends it by its PID.
export async function serve() {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', String(port), '-b', '127.0.0.1', '-d', WEB], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (child.exitCode != null || i > 100) throw new Error(`the static server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop: () => process.kill(child.pid) };
}

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A fresh context (empty localStorage) and page; console errors and page errors are
// collected in page.errors.
export async function newPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

export async function ready(page) {
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  const state = await page.getAttribute('body', 'data-ready');
  if (state !== '1') throw new Error(`the page did not start: ${await page.textContent('#error')}`);
}

// Opens a bundled puzzle from the menus, as a player does; `key` is the body's
// data-puzzle once it is shown.
export async function open(page, collection, label, key) {
  await page.selectOption('#collection', { label: collection });
  await page.waitForFunction((t) => [...document.querySelectorAll('#puzzle-list option')].some((o) => o.textContent === t), label);
  await page.selectOption('#puzzle-list', { label });
  await page.waitForSelector(`body[data-puzzle="${key}"]`);
}

// The board's letters row by row, left to right (as `solve --json` lists its grid).
export function gridText(page) {
  return page.$$eval('#board .cell', (els) => els
    .map((e) => [...e.dataset.rc.split(',').map(Number), e.value])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((x) => x[2]).join(''));
}

export function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

// Runs in the page: every visible character's box (a text node's glyphs, and each
// filled cell), grouped by the block box that lays it out, and the pairs of boxes
// from different blocks that overlap by more than 30 % of the smaller one's area.
// Glyph boxes rather than whole runs, so that text turned along a hexagon's diagonal
// is measured by where its letters are, not by its run's axis-aligned bounding box.
export function overprinted() {
  const boxes = [];
  const blockOf = (el) => {
    let b = el;
    while (b && getComputedStyle(b).display.startsWith('inline') && b.tagName !== 'INPUT') b = b.parentElement;
    return b;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.data.trim() || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    if (el.closest('select, option, script, style, textarea')) continue;
    const block = blockOf(el);
    const br = block.getBoundingClientRect();
    if (br.width * br.height <= 1) continue; // visually hidden
    for (let i = 0; i < n.data.length;) {
      const len = n.data.codePointAt(i) > 0xffff ? 2 : 1;
      if (n.data[i].trim()) {
        range.setStart(n, i);
        range.setEnd(n, i + len);
        const r = range.getBoundingClientRect();
        if (r.width * r.height > 0) boxes.push({ block, r, text: n.data.slice(i, i + len), where: el });
      }
      i += len;
    }
  }
  for (const input of document.querySelectorAll('input.cell')) {
    if (!input.value || !input.checkVisibility()) continue;
    boxes.push({ block: input, r: input.getBoundingClientRect(), text: input.value, where: input });
  }
  boxes.sort((a, b) => a.r.left - b.r.left);
  const out = [];
  const describe = (b) => `${b.text} in ${b.where.className || b.where.tagName}${b.where.closest('[data-clue]') ? ` (clue ${b.where.closest('[data-clue]').dataset.clue})` : ''}`;
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].r.left < a.r.right; j++) {
      const b = boxes[j];
      if (a.block === b.block) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w <= 0 || h <= 0) continue;
      const smaller = Math.min(a.r.width * a.r.height, b.r.width * b.r.height);
      if (w * h > 0.3 * smaller) out.push(`${describe(a)} / ${describe(b)}`);
    }
  }
  return out;
}

// A static server as a deployment would be (gzip, long cache lifetimes), for the
// Lighthouse audit: python's http.server sends neither, which Lighthouse would score
// as the page's fault. stop() closes it.
export async function serveCompressed() {
  const http = await import('node:http');
  const fs = await import('node:fs');
  const zlib = await import('node:zlib');
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.txt': 'text/plain; charset=utf-8' };
  const server = http.createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(WEB, path.normalize(rel));
    if (!file.startsWith(WEB) || !existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
    const ext = path.extname(file);
    const headers = { 'Content-Type': types[ext] ?? 'application/octet-stream' };
    headers['Cache-Control'] = ext === '.html' || path.basename(file) === 'sw.js' ? 'no-cache' : 'public, max-age=31536000';
    let body = fs.readFileSync(file);
    if (/gzip/.test(req.headers['accept-encoding'] ?? '')) { body = zlib.gzipSync(body); headers['Content-Encoding'] = 'gzip'; }
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() };
}
