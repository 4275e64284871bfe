// The explanation stepped forward and back; each step's cells are highlighted. The
// steps are the library's (`crossat explain --json`); case splits show their
// assumption and how many sub-steps refute it.
const $ = (id) => document.getElementById(id);
let steps = [];
let summary = null;
let at = 0;
let ctx = null;

export function reset() { steps = []; summary = null; at = 0; }

export function load(records, context) {
  ctx = context;
  steps = records.filter((r) => r.type === 'step');
  summary = records.find((r) => r.type === 'summary') ?? null;
  at = 0;
}

function describe(step) {
  const lines = [];
  const head = `${step.number}. ${step.line ?? step.kind}`;
  lines.push(step.uses?.length ? `${head} (uses ${step.uses.join(', ')})` : head);
  if (step.assume?.cell) lines.push(`suppose ${ctx.cellName(step.assume.cell)} is ${step.assume.letter}`);
  if (step.assume?.entry) lines.push(`suppose ${step.assume.entry} holds ${step.assume.regex}`);
  if (step.reason) lines.push(step.reason);
  (step.cells ?? []).forEach((rc, i) => {
    const removed = step.removed?.[i];
    const left = step.remaining?.[i];
    if (removed == null && left == null) return;
    const rest = Array.from(left ?? '');
    const tail = rest.length === 1 ? `it is ${rest[0]}` : `${rest.join(' ')} left`;
    lines.push(`(${ctx.cellName(rc)}): not ${Array.from(removed ?? '').join(' ')}; ${tail}`);
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

export function show(i) {
  if (!steps.length) {
    $('step-count').textContent = 'No step';
    $('step-text').textContent = verdict();
    ctx.board.highlight('step', []);
    return;
  }
  at = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[at];
  $('step-count').textContent = `Step ${at + 1} of ${steps.length}`;
  $('step-text').textContent = describe(step) + (at === steps.length - 1 ? `\n${verdict()}` : '');
  $('step-text').style.whiteSpace = 'pre-line';
  const ids = (step.cells ?? []).map(ctx.cellId).filter((id) => id != null);
  ctx.board.highlight('step', ids);
  $('steps').dataset.step = String(at);
  $('steps').dataset.cells = ids.join(',');
  $('step-prev').disabled = at === 0;
  $('step-next').disabled = at === steps.length - 1;
}

export function move(d) { show(at + d); }
