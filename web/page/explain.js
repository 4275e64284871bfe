// The explanation stepped forward and back on the board: each step's cells are
// highlighted and the letters the steps so far have fixed are written in (Back takes
// them out again, down to the grid as it was). The steps are the library's
// (`crossat explain --json`); case splits show their assumption and how many sub-steps
// refute it. A space is shown `␣`, as the command line's grid shows it.
const $ = (id) => document.getElementById(id);
let steps = [];
let summary = null;
let at = 0;
let ctx = null;
let base = [];

export function reset() { steps = []; summary = null; at = 0; }

// context: {cellId, cellName, board, root, values (the grid explained), apply(values)}.
export function load(records, context) {
  ctx = context;
  base = context.values.slice();
  steps = records.filter((r) => r.type === 'step');
  summary = records.find((r) => r.type === 'summary') ?? null;
  at = 0;
}

const shown = (ch) => (ch === ' ' ? '␣' : ch);
const chars = (text) => Array.from(text ?? '').map(shown).join(' ');

// The library's reason as a person reads it: a clue quoted “thus” instead of in
// backticks, and a space among the letters after "excludes" shown as `␣` (the letters
// are listed one space apart, so a space letter is a run of three spaces).
export function readable(reason) {
  let text = reason.replace(/`([^`]*)`/g, '“$1”');
  const m = /^(.*? excludes )(.*)$/s.exec(text);
  if (m) {
    const cs = [];
    for (let i = 0; i < m[2].length;) {
      const cp = String.fromCodePoint(m[2].codePointAt(i));
      cs.push(shown(cp));
      i += cp.length + 1;
    }
    text = m[1] + cs.join(' ');
  }
  return text;
}

// The grid after the first `n` steps: the explained grid with every cell a step left
// one letter for written in.
function gridAfter(n) {
  const values = base.slice();
  for (const step of steps.slice(0, n)) {
    (step.cells ?? []).forEach((rc, i) => {
      const left = Array.from(step.remaining?.[i] ?? '');
      const id = ctx.cellId(rc);
      if (left.length === 1 && id != null) values[id] = left[0];
    });
  }
  return values;
}

function describe(step) {
  const lines = [];
  const head = `${step.number}. ${step.line ?? step.kind}`;
  lines.push(step.uses?.length ? `${head} (uses ${step.uses.join(', ')})` : head);
  if (step.assume?.cell) lines.push(`suppose ${ctx.cellName(step.assume.cell)} is ${step.assume.letter}`);
  if (step.assume?.entry) lines.push(`suppose ${step.assume.entry} holds ${step.assume.regex}`);
  if (step.reason) lines.push(readable(step.reason));
  (step.cells ?? []).forEach((rc, i) => {
    const removed = step.removed?.[i];
    const left = step.remaining?.[i];
    if (removed == null && left == null) return;
    const rest = Array.from(left ?? '');
    const tail = rest.length === 1 ? `it is ${shown(rest[0])}` : `${chars(left)} left`;
    lines.push(`${ctx.cellName(rc)}: not ${chars(removed)}; ${tail}`);
  });
  // A regex pool's entries whose candidate regexes the step narrows.
  (step.entries ?? []).forEach((e) => {
    const tail = e.remaining.length === 1 ? `it holds ${e.remaining[0]}` : `${e.remaining.length} regexes left`;
    lines.push(`${e.entry}: ${e.removed.length} regex${e.removed.length === 1 ? '' : 'es'} ruled out; ${tail}`);
  });
  if (step.steps?.length) lines.push(`(${step.steps.length} steps inside this case)`);
  return lines.join('\n');
}

function verdict() {
  if (!summary) return '';
  const a = summary.answer;
  if (a === 'unique') return summary.unique_by_deduction ? 'Unique by deduction: every cell is forced.' : 'Unique: the search settles the rest.';
  if (a === 'none') return 'No solution.';
  if (a === 'several') return 'Not unique.';
  return 'Stopped at the step limit.';
}

// Step i (0-based); -1 is the grid before the first step.
export function show(i) {
  if (!steps.length) {
    $('step-count').textContent = 'No step';
    $('step-text').textContent = verdict();
    ctx.board.highlight('step', []);
    return;
  }
  at = Math.max(-1, Math.min(steps.length - 1, i));
  ctx.apply(gridAfter(at + 1));
  if (at < 0) {
    $('step-count').textContent = `Before step 1 of ${steps.length}`;
    $('step-text').textContent = 'The grid as it was. Forward writes in what each step proves.';
    ctx.board.highlight('step', []);
    $('steps').dataset.step = '-1';
    $('steps').dataset.cells = '';
    $('step-prev').disabled = true;
    $('step-next').disabled = false;
    return;
  }
  const step = steps[at];
  $('step-count').textContent = `Step ${at + 1} of ${steps.length}`;
  $('step-text').textContent = describe(step) + (at === steps.length - 1 ? `\n${verdict()}` : '');
  const ids = (step.cells ?? []).map(ctx.cellId).filter((id) => id != null);
  ctx.board.highlight('step', ids);
  $('steps').dataset.step = String(at);
  $('steps').dataset.cells = ids.join(',');
  $('step-prev').disabled = false;
  $('step-next').disabled = at === steps.length - 1;
}

export function move(d) { show(at + d); }
