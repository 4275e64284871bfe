#!/usr/bin/env node
// The oracle for crossat's ECMAScript dialect (src/stages/dialect/ecma/tests/): what
// node's RegExp says about a clue, as regexcrossword.com asks it.
//
// Reads JSON lines {"p": clue, "s": [line, ...]} on stdin and writes one JSON line per
// input line:
//   {"e": "message"}        new RegExp(clue) throws (a clue must be a pattern on its own)
//   {"w": "message"}        the clue alone compiles but the wrapped pattern throws
//   {"r": [bool, ...]}      new RegExp('^(?:' + clue + ')$').test(line), per line
//   {"t": ms}               node's own backtracking took longer than TIMEOUT_MS: no
//                           verdict (the caller decides what that means)
// The one process answers every case: starting node costs ~40 ms.
'use strict';
const readline = require('readline');
const vm = require('vm');

const TIMEOUT_MS = 2000;
const context = vm.createContext({ p: '', s: [], out: null });
// Runs in the context so that a runaway match can be interrupted by the timeout.
const script = new vm.Script(`
  out = null;
  try {
    new RegExp(p);
    try {
      const re = new RegExp('^(?:' + p + ')$');
      out = { r: s.map((x) => re.test(x)) };
    } catch (e) {
      out = { w: String(e.message) };
    }
  } catch (e) {
    out = { e: String(e.message) };
  }
`);

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
function flush() {
  if (out.length) {
    process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  }
}
rl.on('line', (line) => {
  if (!line) return;
  const { p, s } = JSON.parse(line);
  context.p = p;
  context.s = s;
  let answer;
  try {
    script.runInContext(context, { timeout: TIMEOUT_MS });
    answer = context.out;
  } catch (e) {
    answer = { t: TIMEOUT_MS };
  }
  out.push(JSON.stringify(answer));
  if (out.length >= 256) flush();
});
rl.on('close', flush);
