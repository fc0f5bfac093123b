//! Partial-order reduction of the unrolling: the cells each transition instance reads
//! and writes (its footprint, from the cone of its firing and writes in the template
//! circuit), and the pairs of step selectors whose order between adjacent steps is
//! fixed.

use super::Transys;
use crate::sat::Lit;
use crate::sat::circuit::FALSE;
use std::collections::HashMap;

/// Partial-order reduction of the unrolling: which reorderings of a run's steps are
/// left out (`Transys::commuting_pairs`). Every run keeps a reordering of the same
/// length and final state, so queries about the final frame of runs from an initial
/// state (bounded model checking) keep their answers and their shortest depths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Por {
    /// Every interleaving, idle steps anywhere.
    Off,
    /// Idle steps only at the end of a run (a run shorter than the depth has one
    /// placement instead of one per choice of idle positions).
    #[default]
    Idle,
    /// Also commuting instances in one fixed order between adjacent steps (falls back
    /// to `Idle` beyond `MAX_PAIRS` pairs per step).
    Full,
}

/// At most this many commuting pairs are ordered per step (two binary clauses' worth
/// of memory each, per step); beyond it only idle steps are ordered.
const MAX_PAIRS: usize = 100_000;

/// The cells (slots) an instance reads and may write, sorted.
#[derive(Clone, Debug, Default)]
pub(super) struct Footprint {
    reads: Vec<usize>,
    writes: Vec<usize>,
}

impl Transys<'_> {
    /// The cells (slots) instance `t` may write, sorted: every cell outside them keeps
    /// its value when `t` fires (the BDD engine's frame condition).
    pub fn written(&self, t: usize) -> &[usize] {
        &self.footprints[t].writes
    }

    /// The footprint of each instance: the cells in the cone of `roots[t]` (its firing
    /// condition, write conditions and written values) and the cells it writes.
    pub(super) fn footprints_of(
        &self,
        roots: &[Vec<Lit>],
        written: Vec<Vec<usize>>,
    ) -> Vec<Footprint> {
        let mut slot_of: HashMap<usize, usize> = HashMap::new();
        for (s, cell) in self.cur.cells.iter().enumerate() {
            for &l in cell.lits() {
                slot_of.insert(l.unsigned_abs() as usize, s);
            }
        }
        let mut seen = vec![usize::MAX; self.c.cnf.num_vars as usize + 1];
        roots
            .iter()
            .zip(written)
            .enumerate()
            .map(|(t, (rs, mut writes))| {
                let mut reads = Vec::new();
                let mut stack: Vec<usize> = rs.iter().map(|l| l.unsigned_abs() as usize).collect();
                while let Some(v) = stack.pop() {
                    if seen[v] == t {
                        continue;
                    }
                    seen[v] = t;
                    match self.c.gate(v as Lit) {
                        Some(ins) => stack.extend(ins.iter().map(|l| l.unsigned_abs() as usize)),
                        None => reads.extend(slot_of.get(&v).copied()),
                    }
                }
                reads.sort_unstable();
                reads.dedup();
                writes.sort_unstable();
                writes.dedup();
                Footprint { reads, writes }
            })
            .collect()
    }

    /// Pairs `(a, b)` of step selectors (indices into `sel`, the idle selector last)
    /// whose order between adjacent steps `por` fixes: with `Por::Full` every `a > b`
    /// whose instances commute: neither writes a cell the other reads or
    /// writes, so from any state "a then b" and "b then a" are both possible or both not,
    /// and end in the same state. The idle step commutes with every instance. Forbidding
    /// "a then b" for every such pair keeps, of each run, its lexicographically least
    /// reordering (same length, same final state): the partial-order reduction of
    /// bounded model checking (the runs' Foata/lexicographic normal form).
    pub fn commuting_pairs(&self, por: Por) -> Vec<(usize, usize)> {
        let disjoint = |x: &[usize], y: &[usize]| {
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => return false,
                }
            }
            true
        };
        let f = &self.footprints;
        let n = f.len();
        let mut pairs = Vec::new();
        if por == Por::Off {
            return pairs;
        }
        if por == Por::Full {
            'all: for a in 0..n {
                for b in 0..a {
                    if self.fire[a] != FALSE
                        && self.fire[b] != FALSE
                        && disjoint(&f[a].writes, &f[b].writes)
                        && disjoint(&f[a].writes, &f[b].reads)
                        && disjoint(&f[b].writes, &f[a].reads)
                    {
                        pairs.push((a, b));
                        if pairs.len() > MAX_PAIRS {
                            pairs.clear();
                            break 'all;
                        }
                    }
                }
            }
        }
        pairs.extend((0..n).map(|b| (n, b)));
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transys::frame::Encoding;

    /// The semaphore mutex at size 2, pairs derived by hand: `req(i)` touches only
    /// `A[i]`, so it commutes with every instance of the other process; `enter` and
    /// `exit` both read and write `Sem`, so no two of them commute.
    #[test]
    fn commuting_pairs_of_the_semaphore_mutex() {
        let text = "type state = Idle | Want | Crit\n\
            var Sem : bool\n\
            array A[proc] : state\n\
            init (z) { A[z] = Idle && Sem = False }\n\
            unsafe (z1 z2) { A[z1] = Crit && A[z2] = Crit }\n\
            transition req (i) requires { A[i] = Idle } { A[i] := Want; }\n\
            transition enter (i) requires { A[i] = Want && Sem = False } { A[i] := Crit; Sem := True; }\n\
            transition exit (i) requires { A[i] = Crit } { A[i] := Idle; Sem := False; }\n";
        let m = crate::lang::load_str("mutex.cub", text).unwrap();
        let ts = Transys::new(&m, 2, 2, Encoding::Binary);
        let name = |k: usize| -> String {
            match ts.instances.get(k) {
                Some((t, ps)) => format!("{}({})", m.transitions[*t].name, ps[0]),
                None => "idle".into(),
            }
        };
        let mut full: Vec<(String, String)> = ts
            .commuting_pairs(Por::Full)
            .into_iter()
            .map(|(a, b)| {
                let (x, y) = (name(a), name(b));
                if x < y { (x, y) } else { (y, x) }
            })
            .filter(|(x, y)| x != "idle" && y != "idle")
            .collect();
        full.sort();
        let want = [
            ("enter(1)", "req(2)"),
            ("enter(2)", "req(1)"),
            ("exit(1)", "req(2)"),
            ("exit(2)", "req(1)"),
            ("req(1)", "req(2)"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(full, want);
        // The idle step goes after every instance, in both reduced modes.
        let idle = ts.instances.len();
        for por in [Por::Idle, Por::Full] {
            let pairs = ts.commuting_pairs(por);
            assert!((0..idle).all(|b| pairs.contains(&(idle, b))));
        }
        assert_eq!(ts.commuting_pairs(Por::Idle).len(), idle);
        assert!(ts.commuting_pairs(Por::Off).is_empty());
    }
}
