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
    this.marks = []; // pencil marks per cell: the candidate letters, a string
    this.pencil = false; // typing writes pencil marks instead of letters
  }

  draw(view, values, marks = []) {
    this.view = view;
    this.values = values.slice();
    this.marks = view.cells.map((_, id) => (typeof marks[id] === 'string' ? marks[id] : ''));
    this.el.replaceChildren();
    this.listsEl.replaceChildren();
    this.el.classList.toggle('hex', view.shape?.kind === 'hex');
    this.clueEls = view.clues.map(() => []);
    this.byCell = view.cells.map(() => []);
    view.clues.forEach((c, k) => c.cells.forEach((id) => this.byCell[id].push(k)));

    const size = this.cellSize();
    this.size = size;
    this.el.style.zoom = '';
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
      // One cell of the grid is in the page's Tab order (the last focused): Tab moves
      // along the current line and leaves the grid at its end.
      input.tabIndex = id === 0 ? 0 : -1;
      this.showMarks(id, input);
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
    this.zoom();
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
  // rows one cell apart.
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
    // Hexagon rows one cell apart too: their cells (round) never overlap, so each is a
    // whole target for a finger or a pointer.
    const rowStep = size;
    return cells.map((c) => ({ x: (c.x / dx) * size, y: (c.y / dy) * rowStep }));
  }

  // Each clue is drawn where its line is, in the command line's order, with its state
  // (✓ ○ ✗) at the end nearest the grid:
  // - a horizontal line's clues beside it (left, or right for a right clue or a line
  //   read right to left), several side by side in the order the puzzle lists them;
  // - a rectangle's column clues above (or below, for a bottom clue or a column read
  //   upwards) their column: level text when every clue of that side fits the column's
  //   width, else turned to read upwards, side by side within the column, in order;
  // - a hexagon's diagonals at the end of the line that points right, turned along
  //   the line, reading away from it;
  // - a free layout's entries in a list under the board (by their labels).
  // Lines never share the strip their clues stand in, so no clue covers another.
  placeClues(view, pos, size) {
    const hex = view.shape?.kind === 'hex';
    const free = view.shape?.kind === 'free' || !view.shape;
    const centre = (id) => ({ x: pos[id].x + size / 2, y: pos[id].y + size / 2 });
    const groups = new Map();
    const listed = [];
    const diagonal = [];
    view.clues.forEach((clue, k) => {
      const pts = clue.cells.map(centre);
      if (!pts.length) return;
      const first = pts[0];
      const last = pts[pts.length - 1];
      const sameY = pts.every((p) => Math.abs(p.y - first.y) < 1);
      const sameX = pts.every((p) => Math.abs(p.x - first.x) < 1);
      let kind;
      if (pts.length === 1) kind = ['top', 'bottom'].includes(clue.side) ? 'v' : 'h';
      else kind = sameY ? 'h' : sameX && !hex ? 'v' : 'd';
      if (free && kind !== 'h') { listed.push(k); return; }
      if (free && !this.rowFree(view, pos, clue)) { listed.push(k); return; }
      if (kind === 'd') { diagonal.push(k); return; }
      let side;
      if (kind === 'h') side = clue.side === 'right' || (clue.side !== 'left' && last.x < first.x) ? 'right' : 'left';
      else side = clue.side === 'bottom' || (clue.side !== 'top' && last.y < first.y) ? 'bottom' : 'top';
      const key = `${[...clue.cells].sort((a, b) => a - b).join(',')}:${side}`;
      if (!groups.has(key)) groups.set(key, { side, pts, clues: [] });
      groups.get(key).clues.push(k);
    });
    const gap = 6;
    // Column clues lie level only when every one of them fits its column.
    const columnEls = [];
    for (const g of groups.values()) {
      g.els = g.clues.map((k) => {
        const el = this.clueElement(view.clues[k], k, 'clue', null, g.side);
        el.classList.add(g.side);
        this.el.append(el);
        this.clueEls[k].push(el);
        if (g.side === 'top' || g.side === 'bottom') columnEls.push(el);
        return el;
      });
    }
    // Every clue is measured once, after all are in place, so drawing forces one
    // layout rather than one per clue.
    const boxOf = new Map();
    const measure = (els) => { for (const el of els) boxOf.set(el, { w: el.offsetWidth, h: el.offsetHeight }); };
    measure(columnEls);
    const multi = [...groups.values()].some((g) => (g.side === 'top' || g.side === 'bottom') && g.clues.length > 1);
    const level = !multi && columnEls.every((el) => boxOf.get(el).w <= size);
    if (!level) columnEls.forEach((el) => el.classList.add('upright'));
    measure([...groups.values()].flatMap((g) => g.els));
    const W = (el) => boxOf.get(el).w;
    const H = (el) => boxOf.get(el).h;
    for (const g of groups.values()) {
      const xs = g.pts.map((p) => p.x);
      const ys = g.pts.map((p) => p.y);
      if (g.side === 'left' || g.side === 'right') {
        const y = g.pts[0].y - size / 2;
        if (g.side === 'left') {
          let x = Math.min(...xs) - size / 2 - gap;
          for (const el of [...g.els].reverse()) {
            x -= W(el);
            el.style.left = `${x}px`;
            el.style.top = `${y}px`;
            x -= gap;
          }
        } else {
          let x = Math.max(...xs) + size / 2 + gap;
          for (const el of g.els) {
            el.style.left = `${x}px`;
            el.style.top = `${y}px`;
            x += W(el) + gap;
          }
        }
        continue;
      }
      // A column's clues: side by side as many as fit the column, then in tiers
      // outward from the grid.
      const cx = g.pts[0].x;
      const w = Math.max(...g.els.map((el) => W(el)));
      const across = Math.max(1, Math.floor(size / w));
      const top = g.side === 'top';
      let edge = top ? Math.min(...ys) - size / 2 - gap : Math.max(...ys) + size / 2 + gap;
      for (let t = 0; t * across < g.els.length; t++) {
        const tier = g.els.slice(t * across, (t + 1) * across);
        const h = Math.max(...tier.map((el) => H(el)));
        const span = tier.reduce((a, el) => a + W(el), 0);
        let x = cx - span / 2;
        for (const el of tier) {
          el.style.left = `${x}px`;
          el.style.top = `${top ? edge - H(el) : edge}px`;
          x += W(el);
        }
        edge = top ? edge - h - gap : edge + h + gap;
      }
    }
    // A diagonal's clues continue its line beyond the end that points right.
    const byLine = new Map();
    for (const k of diagonal) {
      const key = [...view.clues[k].cells].sort((a, b) => a - b).join(',');
      if (!byLine.has(key)) byLine.set(key, []);
      byLine.get(key).push(k);
    }
    const lines = [...byLine.values()].map((ks) => ks.map((k) => {
      const el = this.clueElement(view.clues[k], k, 'clue', null, 'diagonal');
      el.classList.add('diagonal');
      this.el.append(el);
      this.clueEls[k].push(el);
      return el;
    }));
    measure(lines.flat());
    [...byLine.values()].forEach((ks, n) => {
      const pts = view.clues[ks[0]].cells.map(centre);
      let [end, prev] = [pts[pts.length - 1], pts[pts.length - 2]];
      if (end.x < prev.x || (end.x === prev.x && end.y > prev.y)) [end, prev] = [pts[0], pts[1]];
      const len = Math.hypot(end.x - prev.x, end.y - prev.y) || 1;
      const ux = (end.x - prev.x) / len;
      const uy = (end.y - prev.y) / len;
      const angle = Math.atan2(uy, ux);
      let along = size * 0.6;
      for (const el of lines[n]) {
        el.style.left = `${end.x + ux * along}px`;
        el.style.top = `${end.y + uy * along - H(el) / 2}px`;
        el.style.transform = `rotate(${angle}rad)`;
        along += W(el) + gap;
      }
    });
    if (listed.length === 0) return;
    const ul = document.createElement('ul');
    ul.className = 'clue-list';
    ul.setAttribute('aria-label', 'Clues of the entries');
    for (const k of listed) {
      const li = document.createElement('li');
      li.append(this.clueElement(view.clues[k], k, 'list-clue', view.clues[k].label));
      ul.append(li);
      this.clueEls[k].push(li.firstChild);
    }
    this.listsEl.append(ul);
  }

  // A free layout's horizontal entry has its clue beside it when no other cell of its
  // row lies to its left.
  rowFree(view, pos, clue) {
    const ys = new Set(clue.cells.map((id) => pos[id].y));
    const minX = Math.min(...clue.cells.map((id) => pos[id].x));
    return !view.cells.some((_, id) => ys.has(pos[id].y) && pos[id].x < minX);
  }

  clueElement(clue, k, cls, label, side) {
    const el = document.createElement(cls === 'list-clue' ? 'div' : 'span');
    el.className = `${cls} possible`;
    // A clue is a labelled note, not a control: a click on it picks its line, and the
    // keyboard reaches every line through its cells (Enter turns to the next line).
    el.setAttribute('role', 'note');
    el.dataset.clue = k;
    const sym = document.createElement('span');
    sym.className = 'sym';
    sym.setAttribute('aria-hidden', 'true');
    sym.textContent = SYMBOL.possible;
    const text = document.createElement('span');
    text.className = 'regex';
    text.textContent = clue.regex;
    if (label != null) {
      const lbl = document.createElement('span');
      lbl.className = 'lbl';
      lbl.textContent = label;
      el.append(lbl, text, sym);
    } else if (side === 'left' || side === 'bottom') {
      el.append(text, sym);
    } else {
      el.append(sym, text);
    }
    el.setAttribute('aria-label', `${clue.label}: ${clue.regex}, ${WORD.possible}`);
    el.addEventListener('click', () => this.selectClue(k));
    return el;
  }

  // Shift everything so that no clue sticks out to the left or top; size the board.
  fit() {
    const kids = [...this.el.children];
    const origin = this.el.getBoundingClientRect();
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const el of kids) {
      const r = el.getBoundingClientRect();
      minX = Math.min(minX, r.left - origin.left);
      minY = Math.min(minY, r.top - origin.top);
      maxX = Math.max(maxX, r.right - origin.left);
      maxY = Math.max(maxY, r.bottom - origin.top);
    }
    if (!kids.length) { minX = minY = maxX = maxY = 0; }
    for (const el of kids) {
      el.style.left = `${(parseFloat(el.style.left) || 0) - minX}px`;
      el.style.top = `${(parseFloat(el.style.top) || 0) - minY}px`;
    }
    this.el.style.width = `${Math.ceil(maxX - minX)}px`;
    this.el.style.height = `${Math.ceil(maxY - minY)}px`;
  }

  // On a narrow screen the board is scaled to the width it has, but never so far that
  // a cell is smaller than 25 px (a finger's target is 24); past that the frame pans.
  zoom() {
    const wrap = this.el.parentElement;
    this.el.style.zoom = '';
    const natural = this.el.offsetWidth;
    const room = wrap.clientWidth;
    if (!natural || !room || natural <= room) return;
    const least = 25 / (this.size || 38);
    this.el.style.zoom = String(Math.max(least, room / natural));
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
        const clue = this.view.clues[k];
        el.setAttribute('aria-label', `${clue.label}: ${clue.regex}, ${WORD[st] ?? st}`);
      }
    });
  }

  // marks: the pencil marks to show with the letters (unchanged when omitted).
  setValues(values, marks = null) {
    this.values = values.slice();
    if (marks) this.marks = this.view.cells.map((_, id) => marks[id] ?? '');
    this.inputs.forEach((input, id) => { input.value = this.values[id] ?? ''; this.showMarks(id, input); });
    this.onChange(this.values.slice());
  }

  // A cell's pencil marks show (small, as its placeholder) while it holds no letter.
  showMarks(id, input = this.inputs[id]) {
    const m = this.marks[id] ?? '';
    input.placeholder = Array.from(m).map((c) => (c === ' ' ? '␣' : c)).join('');
    input.classList.toggle('marked', m !== '');
    if (m) input.dataset.marks = m; else delete input.dataset.marks;
  }

  // Typing `ch` in pencil mode adds it to the cell's marks, or takes it out again;
  // the marks are kept in the puzzle's alphabet order.
  toggleMark(id, ch) {
    const set = new Set(Array.from(this.marks[id] ?? ''));
    if (set.has(ch)) set.delete(ch); else set.add(ch);
    const order = this.view.alphabet ?? [];
    const rank = (c) => { const i = order.indexOf(c); return i < 0 ? order.length + c.codePointAt(0) : i; };
    this.marks[id] = [...set].sort((a, b) => rank(a) - rank(b)).join('');
    this.showMarks(id);
  }

  highlight(cls, ids) {
    for (const input of this.inputs) {
      input.classList.remove(cls);
      if (cls === 'ambiguous') input.removeAttribute('title');
    }
    for (const id of ids ?? []) this.inputs[id]?.classList.add(cls);
  }

  focusCell(id) { this.inputs[id]?.focus(); }

  // After a resize (a phone turned), the board is scaled again.
  resized() { if (this.view) this.zoom(); }

  selectClue(k) {
    this.active = k;
    this.markLine();
    const ids = this.view.clues[k].cells;
    const empty = ids.find((id) => !this.values[id]);
    this.focusCell(empty ?? ids[0]);
  }

  // The current line's cells and clue are marked; the other clues through the focused
  // cell are marked more lightly.
  markLine() {
    const line = new Set(this.view?.clues[this.active]?.cells ?? []);
    const through = new Set(this.byCell?.[this.focusedId] ?? []);
    this.inputs.forEach((input, id) => input.classList.toggle('inline', line.has(id)));
    this.clueEls.forEach((els, k) => els.forEach((el) => {
      el.classList.toggle('activeclue', k === this.active);
      el.classList.toggle('crossing', k !== this.active && through.has(k));
    }));
  }

  focused(id) {
    this.focusedId = id;
    this.inputs.forEach((input, j) => { input.tabIndex = j === id ? 0 : -1; });
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
    if (this.pencil) {
      input.value = this.values[id] ?? '';
      if (ch) this.toggleMark(id, ch);
      this.onChange(this.values.slice());
      return;
    }
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

  // To the next cell of the current line that is not given; false at the line's end.
  advance(id, step, givens = false) {
    const line = this.view.clues[this.active]?.cells ?? [];
    let i = line.indexOf(id);
    if (i < 0) return false;
    for (i += step; i >= 0 && i < line.length; i += step) {
      if (givens || this.view.givens?.[line[i]] == null) { this.focusCell(line[i]); return true; }
    }
    return false;
  }

  keydown(e, id) {
    const input = this.inputs[id];
    if (e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      if (input.readOnly) { this.advance(id, -1); return; }
      if (this.pencil && !input.value && this.marks[id]) {
        this.marks[id] = '';
        this.showMarks(id);
        this.onChange(this.values.slice());
        return;
      }
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
    // Tab and Shift+Tab step along the current line (a row, a column or one of a
    // hexagon's three axes, chosen with Enter), as regexle does; at the line's end
    // they leave the grid.
    if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey) {
      if (this.advance(id, e.shiftKey ? -1 : 1, true)) e.preventDefault();
      return;
    }
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
