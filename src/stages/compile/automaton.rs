//! The automaton every later stage reads: [`Automaton`], a complete deterministic table
//! over the alphabet's symbols with [`DEAD`] for a missing transition, its size cap
//! [`MAX_STATES`], and [`trim`], which keeps only the states that can still reach
//! acceptance (every builder of the compile stage hands its table through it).

/// Most states the explicit automaton of one clue may have.
pub(crate) const MAX_STATES: usize = 50_000;

/// Marks a missing transition in [`Automaton::next`].
pub(crate) const DEAD: u32 = u32::MAX;

/// A complete deterministic automaton over alphabet indices; every state can reach
/// acceptance (dead transitions are `DEAD`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Automaton {
    /// Number of alphabet symbols (row width of `next`).
    pub symbols: usize,
    /// Start state.
    pub start: u32,
    /// Whether each state accepts at the end of the line.
    pub accept: Vec<bool>,
    /// `next[s * symbols + a]`.
    pub next: Vec<u32>,
}

impl Automaton {
    /// Number of states.
    pub(crate) fn states(&self) -> usize {
        self.accept.len()
    }

    /// Transition on symbol `a`.
    pub(crate) fn step(&self, s: u32, a: usize) -> u32 {
        self.next[s as usize * self.symbols + a]
    }

    /// Whether the automaton accepts the word (a list of symbol indices).
    #[cfg(test)]
    pub(crate) fn accepts(&self, word: &[usize]) -> bool {
        let mut s = self.start;
        for &a in word {
            if s == DEAD {
                return false;
            }
            s = self.step(s, a);
        }
        s != DEAD && self.accept[s as usize]
    }

    /// The automaton accepting nothing.
    pub(crate) fn empty(symbols: usize) -> Automaton {
        Automaton { symbols, start: DEAD, accept: vec![], next: vec![] }
    }
}

/// Removes states that cannot reach acceptance; renumbers the rest.
pub(crate) fn trim(a: &Automaton) -> Automaton {
    let n = a.states();
    if n == 0 {
        return Automaton::empty(a.symbols);
    }
    // Predecessors of each state, back to back (counted, then filled).
    let mut pred_start = vec![0u32; n + 1];
    for &t in &a.next {
        if t != DEAD {
            pred_start[t as usize + 1] += 1;
        }
    }
    for q in 0..n {
        pred_start[q + 1] += pred_start[q];
    }
    let mut fill = pred_start.clone();
    let mut preds = vec![0u32; pred_start[n] as usize];
    // Row by row, so that an entry's state is the row's, not its index divided by the
    // symbol count.
    for (s, row) in a.next.chunks(a.symbols.max(1)).enumerate() {
        for &t in row {
            if t != DEAD {
                preds[fill[t as usize] as usize] = s as u32;
                fill[t as usize] += 1;
            }
        }
    }
    let mut live = a.accept.clone();
    let mut stack: Vec<u32> = (0..n as u32).filter(|&s| live[s as usize]).collect();
    while let Some(t) = stack.pop() {
        for &s in &preds[pred_start[t as usize] as usize..pred_start[t as usize + 1] as usize] {
            if !live[s as usize] {
                live[s as usize] = true;
                stack.push(s);
            }
        }
    }
    if !live[a.start as usize] {
        return Automaton::empty(a.symbols);
    }
    let mut map = vec![DEAD; n];
    let mut k = 0;
    for s in 0..n {
        if live[s] {
            map[s] = k;
            k += 1;
        }
    }
    let mut next = Vec::with_capacity(k as usize * a.symbols);
    let mut accept = Vec::with_capacity(k as usize);
    for s in (0..n).filter(|&s| live[s]) {
        accept.push(a.accept[s]);
        next.extend(a.next[s * a.symbols..(s + 1) * a.symbols].iter().map(|&t| if t == DEAD { DEAD } else { map[t as usize] }));
    }
    Automaton { symbols: a.symbols, start: map[a.start as usize], accept, next }
}
