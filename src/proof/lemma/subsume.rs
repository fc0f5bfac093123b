//! Comparing lemmas: the atoms under their least renaming, subsumption (one lemma
//! implying another at every width the other claims), and `simplify`, which merges and
//! drops lemmas by these.

use super::{Atom, Lemma, PVal, atom_implies};

impl Lemma {
    /// The widths at which the lemma says something: below `procs` processes there is
    /// no tuple of distinct ones.
    fn effective(&self) -> (usize, usize) {
        (self.lo.max(self.procs), self.hi)
    }

    /// The atoms with the process variables renamed by `perm` (variable i becomes
    /// `perm[i]`), sorted.
    fn renamed(&self, perm: &[usize]) -> Vec<Atom> {
        let r = |p: PVal| match p {
            PVal::Proc(i) => PVal::Proc(perm[i]),
            c => c,
        };
        let mut atoms: Vec<Atom> = self
            .atoms
            .iter()
            .map(|a| Atom {
                var: a.var,
                index: a.index.iter().map(|&p| r(p)).collect(),
                value: r(a.value),
            })
            .collect();
        atoms.sort();
        atoms
    }

    /// The atoms under the renaming of the variables that sorts least (for up to five
    /// variables; beyond, the atoms as they are): equal for two lemmas iff they say
    /// the same of their widths.
    pub fn canonical_atoms(&self) -> Vec<Atom> {
        // An ordered lemma's variables are already in their one order.
        if self.procs > 5 || self.ordered {
            let mut a = self.atoms.clone();
            a.sort();
            return a;
        }
        let mut best: Option<Vec<Atom>> = None;
        let mut perm: Vec<usize> = (0..self.procs).collect();
        loop {
            let a = self.renamed(&perm);
            if best.as_ref().is_none_or(|b| a < *b) {
                best = Some(a);
            }
            if !next_permutation(&mut perm) {
                break;
            }
        }
        best.unwrap_or_default()
    }

    /// Whether this lemma implies `other` at every width `other` claims: its atoms,
    /// under some injective renaming into `other`'s variables, are among `other`'s
    /// (an increasing renaming when this lemma is ordered: then `other` must be
    /// ordered too, or its tuples would not all be in this lemma's order).
    pub fn subsumes(&self, other: &Lemma) -> bool {
        let (a, b) = (self.effective(), other.effective());
        if (self.ordered && !other.ordered)
            || self.procs > other.procs
            || a.0 > b.0
            || a.1 < b.1
            || self.atoms.len() > other.atoms.len()
        {
            return false;
        }
        let mut map = Vec::with_capacity(self.procs);
        self.embeds(other, &mut map)
    }

    fn embeds(&self, other: &Lemma, map: &mut Vec<usize>) -> bool {
        if map.len() == self.procs {
            // Each atom must follow from one of `other`'s (equal, or a narrower value).
            return self.renamed(map).iter().all(|x| {
                other.atoms.iter().any(|y| {
                    y.var == x.var
                        && y.index == x.index
                        && match (y.value, x.value) {
                            (PVal::Const(a), PVal::Const(b)) => a == b || atom_implies(a, b),
                            (a, b) => a == b,
                        }
                })
            });
        }
        for q in 0..other.procs {
            let fits = if self.ordered {
                map.last().is_none_or(|&p| q > p)
            } else {
                !map.contains(&q)
            };
            if fits {
                map.push(q);
                if self.embeds(other, map) {
                    return true;
                }
                map.pop();
            }
        }
        false
    }
}

/// The next permutation in lexicographic order (false after the last).
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// An equivalent, smaller conjunction of lemmas: lemmas saying the same of adjacent
/// or overlapping widths are merged, and lemmas another one implies are dropped.
pub fn simplify(lemmas: Vec<Lemma>) -> Vec<Lemma> {
    let mut by_atoms: Vec<(Vec<Atom>, Lemma)> = Vec::new();
    for l in lemmas {
        let key = l.canonical_atoms();
        let (lo, hi) = l.effective();
        if let Some((_, m)) = by_atoms.iter_mut().find(|(k, m)| {
            let (a, b) = m.effective();
            *k == key && m.procs == l.procs && m.ordered == l.ordered && lo <= b + 1 && a <= hi + 1
        }) {
            m.lo = m.effective().0.min(lo);
            m.hi = m.hi.max(hi);
            continue;
        }
        by_atoms.push((key, l));
    }
    let all: Vec<Lemma> = by_atoms.into_iter().map(|x| x.1).collect();
    let mut keep = vec![true; all.len()];
    for i in 0..all.len() {
        for j in 0..all.len() {
            if i != j && keep[j] && keep[i] && all[j].subsumes(&all[i]) {
                // Of two equal lemmas keep the first.
                if all[i].subsumes(&all[j]) && i < j {
                    continue;
                }
                keep[i] = false;
            }
        }
    }
    all.into_iter()
        .zip(keep)
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lemma::tests::atom;

    #[test]
    fn simplify_merges_and_subsumes() {
        // not (A[i] = 2 && A[j] = 2) at 2..5 and at 6..9: one lemma at 2..9.
        let l = |lo, hi, atoms: Vec<Atom>, procs| Lemma {
            lo,
            hi,
            procs,
            atoms,
            ordered: false,
        };
        let a = l(2, 5, vec![atom(0, 0, 2), atom(0, 1, 2)], 2);
        let b = l(6, 9, vec![atom(0, 1, 2), atom(0, 0, 2)], 2);
        // not (A[i] = 2 && A[j] = 2 && B[i] = 1) at 3..9: implied by the merged one.
        let c = l(3, 9, vec![atom(0, 0, 2), atom(1, 0, 1), atom(0, 1, 2)], 2);
        // not (A[i] = 2 && B[j] = 1) at 1..9: not implied.
        let d = l(1, 9, vec![atom(0, 0, 2), atom(1, 1, 1)], 2);
        let s = simplify(vec![a, b, c, d.clone()]);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].lo, s[0].hi), (2, 9));
        assert_eq!(s[1], d);
        let mut p = vec![0, 1, 2];
        let mut n = 1;
        while next_permutation(&mut p) {
            n += 1;
        }
        assert_eq!(n, 6);
    }
}
