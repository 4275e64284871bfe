// The board: cells placed from the library's view (x, y), clues beside their lines,
// typing and keyboard navigation along lines. It knows nothing about regexes: the
// clue states it shows come from the library (Board.setStates).
const SYMBOL = { satisfied: '✓', possible: '○', broken: '✗' };
const WORD = { satisfied: 'satisfied', possible: 'still possible', broken: 'broken' };

export class Board {
  constructor(boardEl, listsEl, onChange) {
    this.el = boardEl;
    this.listsEl = listsEl;
    this.onChange = onChange;
    this.view = null;
    this.values = [];
    this.inputs = [];
    this.clueEls = [];
    this.active = 0; // index of the clue (line) typing follows
    this.readonly = false;
  }

  draw(view, values) {
    this.view = view;
    this.values = values.slice();
    this.el.replaceChildren();
    this.listsEl.replaceChildren();
    this.el.classList.toggle('hex', view.shape?.kind === 'hex');
    this.clueEls = view.clues.map(() => []);
    this.byCell = view.cells.map(() => []);
    view.clues.forEach((c, k) => c.cells.forEach((id) => this.byCell[id].push(k)));

    const size = this.cellSize();
    const pos = this.positions(view, size);
    this.pos = pos;
    this.inputs = view.cells.map((cell, id) => {
      const input = document.createElement('input');
      input.className = 'cell';
      input.type = 'text';
      input.autocomplete = 'off';
      input.spellcheck = false;
      input.setAttribute('autocapitalize', 'characters');
      const name = cell.name ? cell.name.replace(/^\((.*)\)$/, '$1') : `row ${cell.row + 1}, cell ${cell.col + 1}`;
      input.setAttribute('aria-label', name);
      input.dataset.id = id;
      input.dataset.rc = `${cell.row},${cell.col}`;
      input.style.left = `${pos[id].x}px`;
      input.style.top = `${pos[id].y}px`;
      const given = view.givens?.[id];
      if (given != null) {
        input.value = given;
        input.readOnly = true;
        input.classList.add('given');
        this.values[id] = given;
      } else {
        input.value = this.values[id] ?? '';
      }
      input.addEventListener('keydown', (e) => this.keydown(e, id));
      input.addEventListener('input', () => this.typed(id));
      input.addEventListener('focus', () => this.focused(id));
      input.addEventListener('mousedown', () => {
        if (document.activeElement === input) this.switchLine(id);
      });
      this.el.append(input);
      return input;
    });
    this.placeClues(view, pos, size);
    this.fit();
    this.markLine();
  }

  cellSize() {
    const probe = document.createElement('input');
    probe.className = 'cell';
    this.el.append(probe);
    const s = probe.offsetWidth || 38;
    probe.remove();
    return s;
  }

  // Pixel positions: the smallest step between neighbours in a row is one cell width,
  // rows one cell apart (hexagon rows closer, as the cells interlock).
  positions(view, size) {
    const cells = view.cells;
    let dx = Infinity;
    for (const row of view.rows) {
      const xs = row.map((id) => cells[id].x).sort((a, b) => a - b);
      for (let i = 1; i < xs.length; i++) if (xs[i] > xs[i - 1]) dx = Math.min(dx, xs[i] - xs[i - 1]);
    }
    const ys = [...new Set(cells.map((c) => c.y))].sort((a, b) => a - b);
    let dy = Infinity;
    for (let i = 1; i < ys.length; i++) dy = Math.min(dy, ys[i] - ys[i - 1]);
    if (!Number.isFinite(dx)) dx = 1;
    if (!Number.isFinite(dy)) dy = 1;
    const rowStep = view.shape?.kind === 'hex' ? size * 0.9 : size;
    return cells.map((c) => ({ x: (c.x / dx) * size, y: (c.y / dy) * rowStep }));
  }

  // A clue along a horizontal line sits beside it (left, or right for a right clue or
  // one read right to left); any other line gets a numbered marker at its start and a
  // line in the list under the board.
  placeClues(view, pos, size) {
    const listed = [];
    const sideUsed = new Map();
    view.clues.forEach((clue, k) => {
      const pts = clue.cells.map((id) => pos[id]);
      const first = pts[0];
      const last = pts[pts.length - 1];
      const horizontal = pts.every((p) => Math.abs(p.y - first.y) < 1);
      if (horizontal && pts.length > 0) {
        const leftToRight = pts.length < 2 || last.x >= first.x;
        const right = clue.side === 'right' || (!leftToRight && clue.side !== 'left');
        const key = `${Math.round(first.y)}:${right}`;
        const before = sideUsed.get(key) ?? [];
        const el = this.clueElement(clue, k, 'clue');
        el.style.top = `${first.y}px`;
        // On a hexagon the diagonals' markers sit in the gap between a row and its clue.
        const gap = view.shape?.kind === 'hex' ? size : 4;
        const edge = right ? Math.max(first.x, last.x) + size + gap : Math.min(first.x, last.x) - gap;
        el.dataset.edge = edge;
        el.dataset.right = right ? '1' : '';
        el.classList.add(right ? 'right' : 'left');
        before.push(el);
        sideUsed.set(key, before);
        this.el.append(el);
        this.clueEls[k].push(el);
      } else {
        listed.push(k);
      }
    });
    // Stack several clues on one side of a line outward from the cells.
    for (const els of sideUsed.values()) {
      let offset = 0;
      for (const el of els) {
        const w = el.offsetWidth;
        const edge = Number(el.dataset.edge);
        if (el.dataset.right) el.style.left = `${edge + offset}px`;
        else el.style.left = `${edge - offset - w}px`;
        offset += w + 6;
      }
    }
    if (listed.length === 0) return;
    const ul = document.createElement('ol');
    ul.className = 'clue-list';
    ul.setAttribute('aria-label', 'Clues of the other lines');
    listed.forEach((k, n) => {
      const clue = view.clues[k];
      const pts = clue.cells.map((id) => pos[id]);
      const marker = document.createElement('span');
      marker.className = 'marker';
      marker.setAttribute('aria-hidden', 'true');
      const [a, b] = [pts[0], pts[1] ?? { x: pts[0].x, y: pts[0].y + size }];
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const ux = (b.x - a.x) / len;
      const uy = (b.y - a.y) / len;
      const atEnd = clue.side === 'bottom';
      const base = atEnd ? pts[pts.length - 1] : a;
      const dir = atEnd ? 1 : -1;
      marker.style.left = `${base.x + dir * ux * size * 0.85}px`;
      marker.style.top = `${base.y + dir * uy * size * 0.85 + size * 0.25}px`;
      marker.dataset.n = n + 1;
      marker.addEventListener('click', () => this.selectClue(k));
      this.el.append(marker);
      this.clueEls[k].push(marker);
      const li = this.clueElement(clue, k, 'list-clue', n + 1);
      ul.append(li);
      this.clueEls[k].push(li);
    });
    this.listsEl.append(ul);
  }

  clueElement(clue, k, cls, n) {
    const el = document.createElement(cls === 'list-clue' ? 'li' : 'span');
    el.className = `${cls} possible`;
    el.tabIndex = 0;
    el.setAttribute('role', 'button');
    el.dataset.clue = k;
    const sym = document.createElement('span');
    sym.className = 'sym';
    sym.setAttribute('aria-hidden', 'true');
    sym.textContent = SYMBOL.possible;
    const text = document.createElement('span');
    text.className = 'regex';
    text.textContent = clue.regex;
    if (n != null) {
      const lbl = document.createElement('span');
      lbl.className = 'lbl';
      lbl.textContent = `${n}. ${clue.label}`;
      el.append(lbl, text, sym);
    } else if (cls === 'clue' && clue.side === 'right') {
      el.append(sym, text);
    } else {
      el.append(text, sym);
    }
    el.setAttribute('aria-label', `${clue.label}: ${clue.regex}, ${WORD.possible}`);
    el.addEventListener('click', () => this.selectClue(k));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.selectClue(k); }
    });
    return el;
  }

  // Shift everything so that no clue sticks out to the left or top; size the board.
  fit() {
    const kids = [...this.el.children];
    let minX = 0, minY = 0, maxX = 0, maxY = 0;
    for (const el of kids) {
      const x = parseFloat(el.style.left) || 0;
      const y = parseFloat(el.style.top) || 0;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x + el.offsetWidth);
      maxY = Math.max(maxY, y + el.offsetHeight);
    }
    for (const el of kids) {
      el.style.left = `${(parseFloat(el.style.left) || 0) - minX}px`;
      el.style.top = `${(parseFloat(el.style.top) || 0) - minY}px`;
    }
    this.el.style.width = `${maxX - minX}px`;
    this.el.style.height = `${maxY - minY}px`;
  }

  // `unknown` (a line too long to decide alone) is shown as still possible.
  setStates(states) {
    this.states = states;
    states.forEach((given, k) => {
      const st = given === 'unknown' ? 'possible' : given;
      for (const el of this.clueEls[k] ?? []) {
        el.classList.remove('satisfied', 'possible', 'broken');
        el.classList.add(st);
        el.dataset.state = st;
        const sym = el.querySelector('.sym');
        if (sym) sym.textContent = SYMBOL[st] ?? '?';
        if (el.classList.contains('marker')) el.textContent = `${el.dataset.n}${SYMBOL[st] ?? ''}`;
        else {
          const clue = this.view.clues[k];
          el.setAttribute('aria-label', `${clue.label}: ${clue.regex}, ${WORD[st] ?? st}`);
        }
      }
    });
  }

  setValues(values) {
    this.values = values.slice();
    this.inputs.forEach((input, id) => { input.value = this.values[id] ?? ''; });
    this.onChange(this.values.slice());
  }

  highlight(cls, ids) {
    for (const input of this.inputs) {
      input.classList.remove(cls);
      if (cls === 'ambiguous') input.removeAttribute('title');
    }
    for (const id of ids ?? []) this.inputs[id]?.classList.add(cls);
  }

  focusCell(id) { this.inputs[id]?.focus(); }

  selectClue(k) {
    this.active = k;
    this.markLine();
    const ids = this.view.clues[k].cells;
    const empty = ids.find((id) => !this.values[id]);
    this.focusCell(empty ?? ids[0]);
  }

  markLine() {
    const line = new Set(this.view?.clues[this.active]?.cells ?? []);
    this.inputs.forEach((input, id) => input.classList.toggle('inline', line.has(id)));
    this.clueEls.forEach((els, k) => els.forEach((el) => el.classList.toggle('activeclue', k === this.active)));
  }

  focused(id) {
    const lines = this.byCell[id];
    if (lines.length && !lines.includes(this.active)) {
      // Keep the direction when possible: the line through this cell most like the last.
      const prev = this.view.clues[this.active];
      const horiz = prev && this.isHorizontal(prev);
      this.active = lines.find((k) => this.isHorizontal(this.view.clues[k]) === horiz) ?? lines[0];
    }
    this.markLine();
  }

  isHorizontal(clue) {
    const ys = clue.cells.map((id) => this.pos[id].y);
    return ys.every((y) => Math.abs(y - ys[0]) < 1);
  }

  // Enter (or a second click) switches to the next line through the cell.
  switchLine(id) {
    const lines = this.distinctLines(id);
    if (lines.length < 2) return;
    const i = lines.indexOf(this.active);
    this.active = lines[(i + 1) % lines.length];
    this.markLine();
  }

  distinctLines(id) {
    const seen = new Set();
    return this.byCell[id].filter((k) => {
      const key = this.view.clues[k].cells.join(',');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  typed(id) {
    const input = this.inputs[id];
    const chars = Array.from(input.value);
    let ch = chars.length ? chars[chars.length - 1] : '';
    ch = this.normalise(ch);
    input.value = ch;
    this.values[id] = ch;
    this.onChange(this.values.slice());
    if (ch) this.advance(id, 1);
  }

  // Letters typed in lower case become upper case when only the upper case letter is
  // in the puzzle's alphabet.
  normalise(ch) {
    const alphabet = this.view.alphabet ?? [];
    if (!ch || alphabet.includes(ch)) return ch;
    const up = ch.toUpperCase();
    if (alphabet.includes(up)) return up;
    const low = ch.toLowerCase();
    if (alphabet.includes(low)) return low;
    return ch;
  }

  advance(id, step) {
    const line = this.view.clues[this.active]?.cells ?? [];
    let i = line.indexOf(id);
    if (i < 0) return;
    for (i += step; i >= 0 && i < line.length; i += step) {
      if (this.view.givens?.[line[i]] == null) { this.focusCell(line[i]); return; }
    }
  }

  keydown(e, id) {
    const input = this.inputs[id];
    if (e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      if (input.readOnly) { this.advance(id, -1); return; }
      if (input.value === '' && e.key === 'Backspace') {
        this.advance(id, -1);
        return;
      }
      input.value = '';
      this.values[id] = '';
      this.onChange(this.values.slice());
      return;
    }
    if (e.key === 'Enter') { e.preventDefault(); this.switchLine(id); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const next = this.neighbour(id, ...dirs[e.key]);
      if (next != null) this.focusCell(next);
      return;
    }
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && input.readOnly) {
      e.preventDefault();
      this.advance(id, 1);
    }
  }

  // The nearest cell in a direction: same row for left/right, the next row up or down
  // (closest in x) for up/down.
  neighbour(id, dx, dy) {
    const p = this.pos[id];
    let best = null;
    let bestScore = Infinity;
    this.pos.forEach((q, j) => {
      if (j === id) return;
      const ex = q.x - p.x;
      const ey = q.y - p.y;
      let score;
      if (dx) {
        if (Math.abs(ey) > 1 || Math.sign(ex) !== dx) return;
        score = Math.abs(ex);
      } else {
        if (Math.sign(ey) !== dy || Math.abs(ey) < 1) return;
        score = Math.abs(ey) * 1000 + Math.abs(ex);
      }
      if (score < bestScore) { bestScore = score; best = j; }
    });
    return best;
  }
}
