// A Web Worker running the library, with requests as promises and a Stop that
// terminates the worker and starts a fresh one (the compiled module is reused, so a
// restart costs an instantiation, not a compilation).
export class Stopped extends Error {
  constructor() { super('stopped'); this.stopped = true; }
}

export class Engine {
  // onBusy(n): called with the number of requests in flight (initialisation excluded).
  // A lazy engine starts its worker at its first request (and again after a Stop), so
  // a worker not needed yet costs the page's start nothing.
  constructor(module, onBusy = () => {}, { lazy = false } = {}) {
    this.module = module;
    this.onBusy = onBusy;
    this.lazy = lazy;
    this.seq = 0;
    this.pending = new Map();
    this.worker = null;
    if (!lazy) this.start();
  }

  start() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.answer(e.data);
    this.worker.onerror = (e) => {
      const err = new Error(e.message || 'the worker failed');
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
      this.report();
    };
    this.ready = this.send('init', null, [], { module: this.module });
    this.ready.catch(() => {});
  }

  inFlight() {
    let n = 0;
    for (const p of this.pending.values()) if (p.op !== 'init') n++;
    return n;
  }

  report() { this.onBusy(this.inFlight()); }

  answer(m) {
    const p = this.pending.get(m.seq);
    if (!p) return;
    this.pending.delete(m.seq);
    this.report();
    if (m.ok) p.resolve({ result: m.result, ms: m.ms });
    else p.reject(new Error(m.error));
  }

  send(op, puzzle, args, extra = {}) {
    if (!this.worker) this.start();
    const seq = ++this.seq;
    const promise = new Promise((resolve, reject) => this.pending.set(seq, { op, resolve, reject }));
    this.worker.postMessage({ seq, op, puzzle, args, ...extra });
    this.report();
    return promise;
  }

  // Run `op` on the puzzle (a free function of the API when puzzle is null);
  // resolves to {result, ms}, rejects with Stopped when stopped.
  call(op, puzzle, ...args) { return this.send(op, puzzle, args); }

  stop() {
    this.worker?.terminate();
    this.worker = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of pending) reject(new Stopped());
    this.report();
    if (!this.lazy) this.start();
  }
}
