#!/usr/bin/env node
// The ECMAScript oracle of crossat's differential tests: what node's RegExp says a
// clue accepts, as regexcrossword.com checks a line: new RegExp('^(?:' + C + ')$').test(s),
// without flags (Annex B syntax).
//
// Reads JSON lines {"p": PATTERN, "alphabet": CHARS, "n": LENGTH} on stdin and writes,
// per line, {"ok": true, "matches": [...]}: every string of exactly LENGTH characters
// over CHARS (code points, in the order of CHARS, the last position varying fastest)
// that the wrapped pattern accepts; or {"ok": false, "error": "..."} when
// new RegExp(PATTERN) throws (a clue must be a regular expression on its own, so
// `a)|(b`, which the wrapper happens to accept, is refused). When matching itself
// throws (V8 runs out of stack on a long backtracking match), the answer is
// {"ok": true, "crash": "..."}: node gives no verdict on that line.
'use strict';
const readline = require('readline');

const cache = new Map();
function compile(p) {
    if (!cache.has(p)) {
        let v;
        try {
            new RegExp(p);
            v = new RegExp('^(?:' + p + ')$');
        } catch (e) {
            v = String(e.message);
        }
        cache.set(p, v);
    }
    return cache.get(p);
}

const out = [];
function flush() {
    if (out.length) {
        process.stdout.write(out.join(''));
        out.length = 0;
    }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on('line', (line) => {
    if (!line) return;
    const c = JSON.parse(line);
    const rx = compile(c.p);
    if (typeof rx === 'string') {
        out.push(JSON.stringify({ ok: false, error: rx }) + '\n');
    } else {
        const letters = Array.from(c.alphabet);
        const matches = [];
        const idx = new Array(c.n).fill(0);
        const total = Math.pow(letters.length, c.n);
        let crash = null;
        for (let k = 0; k < total && crash === null; k++) {
            let s = '';
            for (let j = 0; j < c.n; j++) s += letters[idx[j]];
            try {
                if (rx.test(s)) matches.push(s);
            } catch (e) {
                crash = String(e.message) + ' on ' + JSON.stringify(s);
            }
            for (let j = c.n - 1; j >= 0; j--) {
                if (++idx[j] < letters.length) break;
                idx[j] = 0;
            }
        }
        out.push(JSON.stringify(crash === null ? { ok: true, matches } : { ok: true, crash }) + '\n');
    }
    if (out.length >= 256) flush();
});
rl.on('close', flush);
