//! A regex pool's assignment: each regex goes to exactly one entry (the pool has as
//! many regexes as entries). Over the entries' candidate regexes, an assignment is a
//! perfect matching; a regex stays a candidate of an entry exactly when some perfect
//! matching gives it that regex (`assignable`).
//!
//! A person rarely reasons with matchings, so a pool step shows the simplest rule
//! that removes something, and only what it removes: a regex that is some entry's
//! only candidate is no other entry's (**taken**); a regex that only one entry can
//! take is that entry's (**only**). Where neither applies, the step removes what no
//! assignment allows (**no assignment**), which includes what any set of `k` entries
//! sharing `k` regexes rules out for the rest.

use crate::propagate::SymSet;

/// Why a pool step removes what it removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Regex `regex` is entry `entry`'s only candidate: no other entry takes it.
    Taken {
        /// The entry.
        entry: usize,
        /// The regex.
        regex: usize,
    },
    /// Only entry `entry` can take regex `regex`: it is that entry's.
    Only {
        /// The entry.
        entry: usize,
        /// The regex.
        regex: usize,
    },
    /// No one-to-one assignment of the candidates gives an entry a removed regex.
    NoAssignment,
}

/// Per entry (`doms[e]`: the regexes it may take), the regexes some one-to-one
/// assignment of all entries gives it; every set empty when there is none.
pub(crate) fn assignable(doms: &[SymSet]) -> Vec<SymSet> {
    let n = doms.len();
    let Some(owner) = matching(doms) else { return vec![SymSet::default(); n] };
    let mut mine = vec![usize::MAX; n];
    for (r, &e) in owner.iter().enumerate() {
        if e != usize::MAX {
            mine[e] = r;
        }
    }
    // Entry e can hand its regex on to e' when e may take e''s regex; an edge (e, r)
    // is in some perfect matching when r is e's own, or r's owner reaches e.
    let reach: Vec<Vec<bool>> = (0..n)
        .map(|from| {
            let mut seen = vec![false; n];
            let mut stack = vec![from];
            seen[from] = true;
            while let Some(e) = stack.pop() {
                for r in doms[e].iter() {
                    let next = owner.get(r).copied().unwrap_or(usize::MAX);
                    if next != usize::MAX && !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            seen
        })
        .collect();
    (0..n)
        .map(|e| {
            let mut keep = SymSet::default();
            for r in doms[e].iter() {
                let o = owner.get(r).copied().unwrap_or(usize::MAX);
                if r == mine[e] || (o != usize::MAX && reach[o][e]) {
                    keep.insert(r);
                }
            }
            keep
        })
        .collect()
}

/// A perfect matching: per regex, the entry that takes it (`usize::MAX`: none);
/// `None` when some entry can take no regex in any assignment.
fn matching(doms: &[SymSet]) -> Option<Vec<usize>> {
    let regexes = doms.iter().filter_map(|d| d.iter().last()).max().map_or(0, |m| m + 1);
    let mut owner = vec![usize::MAX; regexes];
    for e in 0..doms.len() {
        let mut seen = vec![false; regexes];
        if !augment(doms, e, &mut owner, &mut seen) {
            return None;
        }
    }
    Some(owner)
}

/// Finds a regex for entry `e`, moving other entries to other regexes if need be.
fn augment(doms: &[SymSet], e: usize, owner: &mut [usize], seen: &mut [bool]) -> bool {
    for r in doms[e].iter() {
        if seen[r] {
            continue;
        }
        seen[r] = true;
        if owner[r] == usize::MAX || augment(doms, owner[r], owner, seen) {
            owner[r] = e;
            return true;
        }
    }
    false
}

/// The simplest rule that removes something from `doms` (the entries' candidates),
/// given `support` (what [`assignable`] keeps), and the candidates it leaves.
pub(crate) fn simplest(doms: &[SymSet], support: &[SymSet]) -> (Rule, Vec<SymSet>) {
    let n = doms.len();
    for e in 0..n {
        if let (1, Some(r)) = (doms[e].len(), doms[e].iter().next())
            && (0..n).any(|f| f != e && doms[f].contains(r))
        {
            let left = (0..n)
                .map(|f| {
                    let mut d = doms[f];
                    if f != e {
                        d.remove(r);
                    }
                    d
                })
                .collect();
            return (Rule::Taken { entry: e, regex: r }, left);
        }
    }
    let all = doms.iter().fold(SymSet::default(), |a, d| a.or(d));
    for r in all.iter() {
        let mut holders = (0..n).filter(|&e| doms[e].contains(r));
        if let (Some(e), None) = (holders.next(), holders.next())
            && doms[e].len() > 1
        {
            let mut left = doms.to_vec();
            let mut only = SymSet::default();
            only.insert(r);
            left[e] = only;
            return (Rule::Only { entry: e, regex: r }, left);
        }
    }
    (Rule::NoAssignment, doms.iter().zip(support).map(|(d, s)| d.and(s)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[usize]) -> SymSet {
        let mut s = SymSet::default();
        xs.iter().for_each(|&x| s.insert(x));
        s
    }

    /// Every perfect matching of `doms`, by brute force.
    fn all(doms: &[SymSet], e: usize, used: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if e == doms.len() {
            out.push(used.clone());
            return;
        }
        for r in doms[e].iter() {
            if !used.contains(&r) {
                used.push(r);
                all(doms, e + 1, used, out);
                let _ = used.pop();
            }
        }
    }

    #[test]
    fn assignable_keeps_exactly_the_edges_of_some_perfect_matching() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..3000 {
            let n = 1 + rng.below(6);
            let doms: Vec<SymSet> = (0..n).map(|_| set(&(0..n).filter(|_| rng.below(3) > 0).collect::<Vec<_>>())).collect();
            let mut found = Vec::new();
            all(&doms, 0, &mut Vec::new(), &mut found);
            let mut want = vec![SymSet::default(); n];
            for m in &found {
                for (e, &r) in m.iter().enumerate() {
                    want[e].insert(r);
                }
            }
            assert_eq!(assignable(&doms), want, "{doms:?}");
            if want != doms && !found.is_empty() {
                let (rule, left) = simplest(&doms, &want);
                // The rule removes something, and only what no assignment allows.
                assert!(left.iter().zip(&doms).any(|(l, d)| l != d), "{doms:?}: {rule:?}");
                assert!(left.iter().zip(&want).all(|(l, w)| l.and(w) == *w), "{doms:?}: {rule:?} removes too much");
            }
        }
    }
}
