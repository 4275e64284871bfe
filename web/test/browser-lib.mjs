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

export function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}
