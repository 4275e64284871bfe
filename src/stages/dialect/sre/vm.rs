//! The matcher: `SRE(match)` of CPython 3.11's `Modules/_sre/sre_lib.h`, with its
//! recursion made explicit.
//!
//! sre itself never recurses in C: a "call" (`DO_JUMP`) allocates a new context on
//! its data stack and jumps to `entrance`; a return pops it and jumps to the label
//! the caller left in it. [`Vm`] does the same with a `Vec<Frame>`: a `Frame` is a
//! `match_context` (`ptr`, `count`, `lastmark`, `lastindex`, the repeat, `toplevel`
//! and the resume label), `Vm::dispatch` runs the opcodes from `entrance`, and
//! `Vm::resume` holds the code after each `DO_JUMP`. Marks pushed by `MARK_PUSH`
//! and the `last_ptr` values pushed by `MAX_UNTIL`/`MIN_UNTIL` live on their own
//! stacks: everything on sre's data stack is pushed and popped in LIFO order around
//! the calls, so separating the kinds changes nothing.
//!
//! `state->ptr` is `Vm::sptr`; `state->mark`, `lastmark`, `lastindex` and
//! `repeat` are fields of the same names. The search-only parts (`must_advance`,
//! prefixes) are absent: fullmatch (`state->match_all`) only needs `SUCCESS` to fail
//! at the top level anywhere but at the end.

use super::charset::{CharTest, Fold};
use super::program::{AtCode, OneKind, Op, Program};
use crate::regex::syntax::MAXREPEAT;
use crate::regex::unicode as uni;

/// Position meaning "no pointer" (`NULL`).
const NONE: usize = usize::MAX;

/// The matcher gave up before a verdict: its step budget ran out, or its
/// backtracking stacks (contexts and saved marks, which sre keeps on the heap)
/// outgrew [`MAX_STACK`] entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BudgetExceeded {
    /// The step budget in force.
    pub steps: u64,
    /// `true` when the stacks, not the steps, hit their limit.
    pub stack: bool,
}

impl std::fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.stack {
            write!(f, "the matcher's backtracking stack outgrew {MAX_STACK} entries")
        } else {
            write!(f, "the matcher's budget of {} steps was exhausted", self.steps)
        }
    }
}

/// The most entries the backtracking stacks (contexts, saved marks) may hold: about
/// 100 MB at the worst.
pub(crate) const MAX_STACK: usize = 1 << 20;

impl std::error::Error for BudgetExceeded {}

/// Where a caller resumes after a call returns (sre's `JUMP_*` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    None,
    MaxUntil1,
    MaxUntil2,
    MaxUntil3,
    MinUntil1,
    MinUntil2,
    MinUntil3,
    Repeat,
    RepeatOne,
    MinRepeatOne,
    Branch,
    Assert,
    AssertNot,
    PossRepeat1,
    PossRepeat2,
    AtomicGroup,
}

/// `SRE(match_context)`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The opcode being executed (`ctx->pattern`).
    pc: usize,
    /// `ctx->ptr`.
    ptr: usize,
    toplevel: bool,
    /// Label of the caller to resume when this frame returns.
    jump: Label,
    count: isize,
    /// `ctx->u.rep`.
    rep: usize,
    /// `ctx->u.chr` for `REPEAT_ONE` with a literal tail (`None` otherwise).
    chr: Option<char>,
    lastmark: isize,
    lastindex: isize,
    /// Current alternative of a `BRANCH`.
    alt: usize,
    /// Start of a `*REPEAT_ONE`'s run (`ptr` = `base + count`).
    base: usize,
}

impl Frame {
    fn new(pc: usize, toplevel: bool, jump: Label) -> Frame {
        Frame { pc, ptr: 0, toplevel, jump, count: 0, rep: NONE, chr: None, lastmark: -1, lastindex: -1, alt: 0, base: 0 }
    }
}

/// `SRE_REPEAT`.
#[derive(Clone, Copy, Debug)]
struct Repeat {
    count: isize,
    /// Index of the `REPEAT` op.
    pc: usize,
    prev: usize,
    last_ptr: usize,
}

enum Flow {
    /// `DO_JUMP` to `pc`, resuming the current frame at `label` afterwards.
    Call { label: Label, pc: usize, toplevel: bool },
    /// `RETURN_SUCCESS` / `RETURN_FAILURE`.
    Return(bool),
}

/// The outcome of a successful match: `state->mark`, `lastmark`, `lastindex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Marks {
    /// `state->mark` (`usize::MAX` for `NULL`); only `..=lastmark` are valid.
    pub mark: Vec<usize>,
    /// `state->lastmark`.
    pub lastmark: isize,
    /// `state->lastindex`.
    pub lastindex: isize,
}

/// One run of `SRE(match)` over one string.
pub(crate) struct Vm<'a> {
    prog: &'a Program,
    text: &'a [char],
    end: usize,
    /// `state->ptr`.
    sptr: usize,
    mark: Vec<usize>,
    lastmark: isize,
    lastindex: isize,
    /// `state->repeat` (index into `repeats`, `NONE` for `NULL`).
    repeat: usize,
    repeats: Vec<Repeat>,
    mark_stack: Vec<usize>,
    last_ptr_stack: Vec<usize>,
    frames: Vec<Frame>,
    steps: u64,
    budget: u64,
}

type Step = Result<Flow, BudgetExceeded>;

impl<'a> Vm<'a> {
    /// A matcher for `text` that gives up after `budget` steps.
    pub(crate) fn new(prog: &'a Program, text: &'a [char], budget: u64) -> Vm<'a> {
        Vm {
            prog,
            text,
            end: text.len(),
            sptr: 0,
            mark: vec![NONE; prog.groups * 2],
            lastmark: -1,
            lastindex: -1,
            repeat: NONE,
            repeats: Vec::new(),
            mark_stack: Vec::new(),
            last_ptr_stack: Vec::new(),
            frames: Vec::new(),
            steps: 0,
            budget,
        }
    }

    /// `sre_match` with `state->match_all` set (`Pattern.fullmatch`): the marks on
    /// success, `None` on failure.
    pub(crate) fn fullmatch(mut self) -> Result<Option<Marks>, BudgetExceeded> {
        // The INFO block: too short a string fails at once.
        if self.prog.min_len > 0 && self.end < self.prog.min_len {
            return Ok(None);
        }
        self.frames.push(Frame::new(0, true, Label::None));
        self.sptr = 0;
        let mut flow = self.dispatch(0, 0)?;
        loop {
            match flow {
                Flow::Call { label, pc, toplevel } => {
                    self.frames.push(Frame::new(pc, toplevel, label));
                    flow = self.dispatch(pc, self.sptr)?;
                }
                Flow::Return(ret) => {
                    let child = self.frames.pop().expect("a frame");
                    if self.frames.is_empty() {
                        return Ok(ret.then_some(Marks { mark: self.mark, lastmark: self.lastmark, lastindex: self.lastindex }));
                    }
                    flow = self.resume(child.jump, ret)?;
                }
            }
        }
    }

    fn tick(&mut self, n: u64) -> Result<(), BudgetExceeded> {
        self.steps += n;
        if self.steps > self.budget {
            return Err(BudgetExceeded { steps: self.budget, stack: false });
        }
        if self.frames.len() > MAX_STACK || self.mark_stack.len() > 8 * MAX_STACK {
            return Err(BudgetExceeded { steps: self.budget, stack: true });
        }
        Ok(())
    }

    fn top(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a frame")
    }

    /// A call from the current frame, which is at `pc` with `ptr`.
    fn call(&mut self, pc: usize, ptr: usize, label: Label, next: usize, toplevel: bool) -> Step {
        let f = self.top();
        f.pc = pc;
        f.ptr = ptr;
        Ok(Flow::Call { label, pc: next, toplevel })
    }

    // --- marks -------------------------------------------------------------

    fn lastmark_save(&mut self) {
        let (lm, li) = (self.lastmark, self.lastindex);
        let f = self.top();
        f.lastmark = lm;
        f.lastindex = li;
    }

    fn lastmark_restore(&mut self) {
        let f = *self.top();
        self.lastmark = f.lastmark;
        self.lastindex = f.lastindex;
    }

    fn mark_push(&mut self, lastmark: isize) {
        if lastmark >= 0 {
            self.mark_stack.extend_from_slice(&self.mark[..=lastmark as usize]);
        }
    }

    fn mark_pop(&mut self, lastmark: isize, discard: bool) {
        if lastmark >= 0 {
            let n = lastmark as usize + 1;
            let at = self.mark_stack.len() - n;
            self.mark[..n].copy_from_slice(&self.mark_stack[at..]);
            if discard {
                self.mark_stack.truncate(at);
            }
        }
    }

    fn mark_pop_discard(&mut self, lastmark: isize) {
        if lastmark >= 0 {
            let n = self.mark_stack.len() - (lastmark as usize + 1);
            self.mark_stack.truncate(n);
        }
    }

    /// The span of 0-based group `g` if sre considers it set.
    fn group_span(&self, g: usize) -> Option<(usize, usize)> {
        let i = g * 2;
        if i as isize >= self.lastmark {
            return None;
        }
        let (p, e) = (self.mark[i], self.mark[i + 1]);
        if p == NONE || e == NONE || e < p { None } else { Some((p, e)) }
    }

    // --- single characters ---------------------------------------------------

    /// `SRE(count)`: how many times `item` matches from `ptr`, at most `max`.
    fn count(&mut self, item: &CharTest, ptr: usize, max: u32) -> Result<usize, BudgetExceeded> {
        let mut end = self.end;
        if max != MAXREPEAT && (max as usize) < end - ptr {
            end = ptr + max as usize;
        }
        let n = match item {
            CharTest::AnyAll => end - ptr,
            _ => self.text[ptr..end].iter().take_while(|&&c| item.matches(c)).count(),
        };
        self.tick(n as u64 + 1)?;
        Ok(n)
    }

    fn at(&self, ptr: usize, code: AtCode) -> bool {
        let t = self.text;
        let word = |unicode: bool, c: char| if unicode { uni::is_word(c) } else { uni::is_ascii_word(c) };
        let boundary = |unicode: bool| {
            let that = ptr > 0 && word(unicode, t[ptr - 1]);
            let this = ptr < self.end && word(unicode, t[ptr]);
            this != that
        };
        match code {
            AtCode::Beginning => ptr == 0,
            AtCode::BeginningLine => ptr == 0 || t[ptr - 1] == '\n',
            AtCode::End => (self.end - ptr == 1 && t[ptr] == '\n') || ptr == self.end,
            AtCode::EndLine => ptr == self.end || t[ptr] == '\n',
            AtCode::EndString => ptr == self.end,
            AtCode::Boundary(u) => self.end != 0 && boundary(u),
            AtCode::NonBoundary(u) => self.end != 0 && !boundary(u),
        }
    }

    // --- the opcodes -----------------------------------------------------------

    /// `entrance` / `DISPATCH`: runs opcodes from `pc` with `ptr` until a call or a
    /// return.
    fn dispatch(&mut self, mut pc: usize, mut ptr: usize) -> Step {
        let prog = self.prog;
        let end = self.end;
        loop {
            self.tick(1)?;
            match &prog.ops[pc] {
                Op::Mark(i) => {
                    let i = *i;
                    if i & 1 == 1 {
                        self.lastindex = (i / 2 + 1) as isize;
                    }
                    if i as isize > self.lastmark {
                        for j in (self.lastmark + 1) as usize..i {
                            self.mark[j] = NONE;
                        }
                        self.lastmark = i as isize;
                    }
                    self.mark[i] = ptr;
                    pc += 1;
                }
                Op::Char(t) => {
                    if ptr >= end || !t.matches(self.text[ptr]) {
                        return Ok(Flow::Return(false));
                    }
                    ptr += 1;
                    pc += 1;
                }
                Op::Success => {
                    if self.top().toplevel && ptr != end {
                        return Ok(Flow::Return(false));
                    }
                    self.sptr = ptr;
                    return Ok(Flow::Return(true));
                }
                Op::At(code) => {
                    if !self.at(ptr, *code) {
                        return Ok(Flow::Return(false));
                    }
                    pc += 1;
                }
                Op::Jump(t) => pc = *t,
                Op::Branch(_) => {
                    self.lastmark_save();
                    if self.repeat != NONE {
                        self.mark_push(self.lastmark);
                    }
                    self.top().alt = 0;
                    return self.branch_next(pc, ptr);
                }
                Op::RepeatOne { kind, min, max, item } => {
                    let (min, max) = (*min, *max);
                    if min as usize > end - ptr {
                        return Ok(Flow::Return(false));
                    }
                    self.sptr = ptr;
                    match kind {
                        OneKind::Greedy => {
                            let count = self.count(item, ptr, max)?;
                            ptr += count;
                            if count < min as usize {
                                return Ok(Flow::Return(false));
                            }
                            let tail = pc + 1;
                            if prog.ops[tail] == Op::Success && ptr == end {
                                self.sptr = ptr;
                                return Ok(Flow::Return(true));
                            }
                            self.lastmark_save();
                            if self.repeat != NONE {
                                self.mark_push(self.lastmark);
                            }
                            let f = self.top();
                            f.base = ptr - count;
                            f.count = count as isize;
                            f.chr = match &prog.ops[tail] {
                                Op::Char(CharTest::Literal(Fold::None, c)) => Some(*c),
                                _ => None,
                            };
                            return self.repeat_one_next(pc);
                        }
                        OneKind::Lazy => {
                            let count = if min == 0 {
                                0
                            } else {
                                let n = self.count(item, ptr, min)?;
                                if n < min as usize {
                                    return Ok(Flow::Return(false));
                                }
                                n
                            };
                            ptr += count;
                            let toplevel = self.top().toplevel;
                            if prog.ops[pc + 1] == Op::Success && !(toplevel && ptr != end) {
                                self.sptr = ptr;
                                return Ok(Flow::Return(true));
                            }
                            self.lastmark_save();
                            if self.repeat != NONE {
                                self.mark_push(self.lastmark);
                            }
                            let f = self.top();
                            f.base = ptr - count;
                            f.count = count as isize;
                            return self.min_repeat_one_next(pc);
                        }
                        OneKind::Possessive => {
                            let count = self.count(item, ptr, max)?;
                            ptr += count;
                            if count < min as usize {
                                return Ok(Flow::Return(false));
                            }
                            pc += 1;
                            if prog.ops[pc] == Op::Success && ptr == end {
                                self.sptr = ptr;
                                return Ok(Flow::Return(true));
                            }
                        }
                    }
                }
                Op::Repeat { until, .. } => {
                    self.repeats.push(Repeat { count: -1, pc, prev: self.repeat, last_ptr: NONE });
                    let r = self.repeats.len() - 1;
                    self.repeat = r;
                    self.top().rep = r;
                    self.sptr = ptr;
                    return self.call(pc, ptr, Label::Repeat, *until, self.frames.last().expect("frame").toplevel);
                }
                Op::MaxUntil | Op::MinUntil => {
                    let r = self.repeat;
                    assert!(r != NONE, "an UNTIL outside its REPEAT");
                    self.sptr = ptr;
                    let count = self.repeats[r].count + 1;
                    let f = self.top();
                    f.rep = r;
                    f.count = count;
                    let toplevel = f.toplevel;
                    let Op::Repeat { min, max, .. } = prog.ops[self.repeats[r].pc] else { unreachable!("REPEAT") };
                    let body = self.repeats[r].pc + 1;
                    let lazy = prog.ops[pc] == Op::MinUntil;
                    if count < min as isize {
                        self.repeats[r].count = count;
                        let label = if lazy { Label::MinUntil1 } else { Label::MaxUntil1 };
                        return self.call(pc, ptr, label, body, toplevel);
                    }
                    if !lazy {
                        if (count < max as isize || max == MAXREPEAT) && self.sptr != self.repeats[r].last_ptr {
                            self.repeats[r].count = count;
                            self.lastmark_save();
                            self.mark_push(self.lastmark);
                            self.last_ptr_stack.push(self.repeats[r].last_ptr);
                            self.repeats[r].last_ptr = self.sptr;
                            return self.call(pc, ptr, Label::MaxUntil2, body, toplevel);
                        }
                        return self.max_until_tail(pc, ptr);
                    }
                    // MIN_UNTIL: see if the tail matches first.
                    self.repeat = self.repeats[r].prev;
                    self.lastmark_save();
                    if self.repeat != NONE {
                        self.mark_push(self.lastmark);
                    }
                    return self.call(pc, ptr, Label::MinUntil2, pc + 1, toplevel);
                }
                Op::PossessiveRepeat { .. } => {
                    self.sptr = ptr;
                    let f = self.top();
                    f.count = 0;
                    f.ptr = ptr;
                    return self.poss_repeat_min(pc, ptr);
                }
                Op::Atomic { .. } => {
                    self.sptr = ptr;
                    return self.call(pc, ptr, Label::AtomicGroup, pc + 1, false);
                }
                Op::GroupRef(g, fold) => {
                    let Some((mut p, e)) = self.group_span(*g) else { return Ok(Flow::Return(false)) };
                    self.tick((e - p) as u64)?;
                    while p < e {
                        if ptr >= end || fold.apply(self.text[ptr]) != fold.apply(self.text[p]) {
                            return Ok(Flow::Return(false));
                        }
                        p += 1;
                        ptr += 1;
                    }
                    pc += 1;
                }
                Op::GroupRefExists { group, no } => {
                    pc = if self.group_span(*group).is_some() { pc + 1 } else { *no };
                }
                Op::Assert { negate: false, back, .. } => {
                    if ptr < *back {
                        return Ok(Flow::Return(false));
                    }
                    self.sptr = ptr - back;
                    return self.call(pc, ptr, Label::Assert, pc + 1, false);
                }
                Op::Assert { negate: true, back, tail } => {
                    if ptr >= *back {
                        self.sptr = ptr - back;
                        self.lastmark_save();
                        if self.repeat != NONE {
                            self.mark_push(self.lastmark);
                        }
                        return self.call(pc, ptr, Label::AssertNot, pc + 1, false);
                    }
                    pc = *tail;
                }
            }
        }
    }

    /// The loop of `BRANCH` from the current alternative on.
    fn branch_next(&mut self, pc: usize, ptr: usize) -> Step {
        let prog = self.prog;
        let Op::Branch(alts) = &prog.ops[pc] else { unreachable!("BRANCH") };
        let mut alt = self.top().alt;
        while alt < alts.len() {
            let start = alts[alt];
            // sre skips an alternative whose first LITERAL / IN cannot match; doing
            // so for any single-character test is equally free of side effects.
            if let Op::Char(t) = &prog.ops[start]
                && (ptr >= self.end || !t.matches(self.text[ptr]))
            {
                alt += 1;
                continue;
            }
            self.sptr = ptr;
            let f = self.top();
            f.alt = alt;
            let toplevel = f.toplevel;
            return self.call(pc, ptr, Label::Branch, start, toplevel);
        }
        if self.repeat != NONE {
            let lm = self.top().lastmark;
            self.mark_pop_discard(lm);
        }
        Ok(Flow::Return(false))
    }

    /// The backtracking loop of `REPEAT_ONE`.
    fn repeat_one_next(&mut self, pc: usize) -> Step {
        let Op::RepeatOne { min, .. } = self.prog.ops[pc] else { unreachable!("REPEAT_ONE") };
        let min = min as isize;
        let f = *self.top();
        let mut count = f.count;
        if let Some(c) = f.chr {
            // Tail starts with a literal: skip positions where it cannot match.
            while count >= min {
                let ptr = f.base + count as usize;
                if ptr < self.end && self.text[ptr] == c {
                    break;
                }
                count -= 1;
            }
        }
        if count < min {
            if self.repeat != NONE {
                self.mark_pop_discard(f.lastmark);
            }
            return Ok(Flow::Return(false));
        }
        let ptr = f.base + count as usize;
        self.top().count = count;
        self.sptr = ptr;
        self.call(pc, ptr, Label::RepeatOne, pc + 1, f.toplevel)
    }

    /// The loop of `MIN_REPEAT_ONE`.
    fn min_repeat_one_next(&mut self, pc: usize) -> Step {
        let Op::RepeatOne { max, .. } = self.prog.ops[pc] else { unreachable!("MIN_REPEAT_ONE") };
        let f = *self.top();
        if max == MAXREPEAT || f.count <= max as isize {
            let ptr = f.base + f.count as usize;
            self.sptr = ptr;
            return self.call(pc, ptr, Label::MinRepeatOne, pc + 1, f.toplevel);
        }
        if self.repeat != NONE {
            self.mark_pop_discard(f.lastmark);
        }
        Ok(Flow::Return(false))
    }

    /// The end of `MAX_UNTIL`: no more items here, so the tail must match.
    fn max_until_tail(&mut self, pc: usize, ptr: usize) -> Step {
        let f = *self.top();
        self.repeat = self.repeats[f.rep].prev;
        self.call(pc, ptr, Label::MaxUntil3, pc + 1, f.toplevel)
    }

    /// The minimum loop of `POSSESSIVE_REPEAT`.
    fn poss_repeat_min(&mut self, pc: usize, ptr: usize) -> Step {
        let Op::PossessiveRepeat { min, .. } = self.prog.ops[pc] else { unreachable!("POSSESSIVE_REPEAT") };
        if self.top().count < min as isize {
            return self.call(pc, ptr, Label::PossRepeat1, pc + 1, false);
        }
        self.poss_repeat_more(pc, NONE)
    }

    /// The main loop of `POSSESSIVE_REPEAT`; `ptr` is the start of the previous
    /// iteration (`NONE` before the first).
    fn poss_repeat_more(&mut self, pc: usize, ptr: usize) -> Step {
        let Op::PossessiveRepeat { max, tail, .. } = self.prog.ops[pc] else { unreachable!("POSSESSIVE_REPEAT") };
        if (self.top().count < max as isize || max == MAXREPEAT) && self.sptr != ptr {
            self.lastmark_save();
            self.mark_push(self.lastmark);
            let ptr = self.sptr;
            return self.call(pc, ptr, Label::PossRepeat2, pc + 1, false);
        }
        self.dispatch(tail, self.sptr)
    }

    /// The code after each `DO_JUMP`, for the frame on top.
    fn resume(&mut self, label: Label, ret: bool) -> Step {
        self.tick(1)?;
        let f = *self.top();
        let (pc, ptr) = (f.pc, f.ptr);
        match label {
            Label::None => unreachable!("the outermost frame has no caller"),
            Label::Branch => {
                if ret {
                    if self.repeat != NONE {
                        self.mark_pop_discard(f.lastmark);
                    }
                    return Ok(Flow::Return(true));
                }
                if self.repeat != NONE {
                    self.mark_pop(f.lastmark, false);
                }
                self.lastmark_restore();
                self.top().alt += 1;
                self.branch_next(pc, ptr)
            }
            Label::RepeatOne | Label::MinRepeatOne => {
                if ret {
                    if self.repeat != NONE {
                        self.mark_pop_discard(f.lastmark);
                    }
                    return Ok(Flow::Return(true));
                }
                if self.repeat != NONE {
                    self.mark_pop(f.lastmark, false);
                }
                self.lastmark_restore();
                if label == Label::RepeatOne {
                    self.top().count -= 1;
                    return self.repeat_one_next(pc);
                }
                self.sptr = ptr;
                let prog = self.prog;
                let Op::RepeatOne { item, .. } = &prog.ops[pc] else { unreachable!("MIN_REPEAT_ONE") };
                if self.count(item, ptr, 1)? == 0 {
                    if self.repeat != NONE {
                        self.mark_pop_discard(f.lastmark);
                    }
                    return Ok(Flow::Return(false));
                }
                self.top().count += 1;
                self.min_repeat_one_next(pc)
            }
            Label::Repeat => {
                self.repeat = self.repeats[f.rep].prev;
                self.repeats.truncate(f.rep);
                Ok(Flow::Return(ret))
            }
            Label::MaxUntil1 | Label::MinUntil1 => {
                if ret {
                    return Ok(Flow::Return(true));
                }
                self.repeats[f.rep].count = f.count - 1;
                self.sptr = ptr;
                Ok(Flow::Return(false))
            }
            Label::MaxUntil2 => {
                self.repeats[f.rep].last_ptr = self.last_ptr_stack.pop().expect("last_ptr");
                if ret {
                    self.mark_pop_discard(f.lastmark);
                    return Ok(Flow::Return(true));
                }
                self.mark_pop(f.lastmark, true);
                self.lastmark_restore();
                self.repeats[f.rep].count = f.count - 1;
                self.sptr = ptr;
                self.max_until_tail(pc, ptr)
            }
            Label::MaxUntil3 => {
                self.repeat = f.rep;
                if ret {
                    return Ok(Flow::Return(true));
                }
                self.sptr = ptr;
                Ok(Flow::Return(false))
            }
            Label::MinUntil2 => {
                let repeat_of_tail = self.repeat;
                self.repeat = f.rep;
                if ret {
                    if repeat_of_tail != NONE {
                        self.mark_pop_discard(f.lastmark);
                    }
                    return Ok(Flow::Return(true));
                }
                if repeat_of_tail != NONE {
                    self.mark_pop(f.lastmark, true);
                }
                self.lastmark_restore();
                self.sptr = ptr;
                let rep = self.repeats[f.rep];
                let Op::Repeat { max, .. } = self.prog.ops[rep.pc] else { unreachable!("REPEAT") };
                if (f.count >= max as isize && max != MAXREPEAT) || self.sptr == rep.last_ptr {
                    return Ok(Flow::Return(false));
                }
                self.repeats[f.rep].count = f.count;
                self.last_ptr_stack.push(rep.last_ptr);
                self.repeats[f.rep].last_ptr = self.sptr;
                self.call(pc, ptr, Label::MinUntil3, rep.pc + 1, f.toplevel)
            }
            Label::MinUntil3 => {
                self.repeats[f.rep].last_ptr = self.last_ptr_stack.pop().expect("last_ptr");
                if ret {
                    return Ok(Flow::Return(true));
                }
                self.repeats[f.rep].count = f.count - 1;
                self.sptr = ptr;
                Ok(Flow::Return(false))
            }
            Label::PossRepeat1 => {
                if ret {
                    self.top().count += 1;
                    return self.poss_repeat_min(pc, ptr);
                }
                self.sptr = ptr;
                Ok(Flow::Return(false))
            }
            Label::PossRepeat2 => {
                if ret {
                    self.mark_pop_discard(f.lastmark);
                    self.top().count += 1;
                    return self.poss_repeat_more(pc, ptr);
                }
                self.mark_pop(f.lastmark, true);
                self.lastmark_restore();
                self.sptr = ptr;
                let Op::PossessiveRepeat { tail, .. } = self.prog.ops[pc] else { unreachable!("POSSESSIVE_REPEAT") };
                self.dispatch(tail, self.sptr)
            }
            Label::AtomicGroup => {
                if !ret {
                    self.sptr = ptr;
                    return Ok(Flow::Return(false));
                }
                let Op::Atomic { tail } = self.prog.ops[pc] else { unreachable!("ATOMIC_GROUP") };
                self.dispatch(tail, self.sptr)
            }
            Label::Assert => {
                if !ret {
                    return Ok(Flow::Return(false));
                }
                let Op::Assert { tail, .. } = self.prog.ops[pc] else { unreachable!("ASSERT") };
                self.dispatch(tail, ptr)
            }
            Label::AssertNot => {
                if ret {
                    if self.repeat != NONE {
                        self.mark_pop_discard(f.lastmark);
                    }
                    return Ok(Flow::Return(false));
                }
                if self.repeat != NONE {
                    self.mark_pop(f.lastmark, true);
                }
                self.lastmark_restore();
                let Op::Assert { tail, .. } = self.prog.ops[pc] else { unreachable!("ASSERT_NOT") };
                self.dispatch(tail, ptr)
            }
        }
    }
}
