//! The members of a state's orbit under every process permutation, enumerated without
//! repetition, and the orbit's size: what an annotated state of the partial-symmetry
//! search stands for (Wahl, dissertation 2007, ch. 10: `Orbit(s, P)` for the coarsest
//! partition P).
//!
//! On the sorting path of `model::canon` (`Symmetry::sort_classes`), processes with
//! the same class are exactly the interchangeable ones, so the distinct images are the
//! distinct arrangements of the multiset of classes over the positions: they are
//! enumerated as multiset permutations in lexicographic order, and their number is the
//! multinomial coefficient. Elsewhere every permutation is applied and the images
//! deduplicated (`MAX_GENERIC` processes at most).

use crate::model::canon::{Symmetry, next_permutation};
use crate::model::instance::State;
use std::collections::HashSet;

/// Beyond this many processes the generic enumeration (n! images) is not tried: the
/// partial-symmetry search then declines states off the sorting path.
pub const MAX_GENERIC: usize = 8;

/// Every distinct image of `st` under process permutations, `st` itself first. `None`
/// when `st` is off the sorting path and there are more than `MAX_GENERIC` processes.
pub fn members(sym: &Symmetry, n: usize, st: &[i64]) -> Option<Vec<State>> {
    let mut out = Vec::new();
    let mut img = vec![0; st.len()];
    match sym.sort_classes(st) {
        Some(class) => {
            // by_class[c]: the processes of class c, in id order (0-based).
            let classes = class.iter().max().map_or(0, |m| m + 1);
            let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); classes];
            for (p, &c) in class.iter().enumerate() {
                by_class[c].push(p);
            }
            let start: Vec<i64> = class.iter().map(|&c| c as i64).collect();
            let mut arr = start.clone();
            let mut pi = vec![0i64; n];
            let mut next = vec![0usize; classes];
            loop {
                // Position q takes the next process of class arr[q].
                next.iter_mut().for_each(|x| *x = 0);
                for (q, &c) in arr.iter().enumerate() {
                    let c = c as usize;
                    pi[by_class[c][next[c]]] = q as i64 + 1;
                    next[c] += 1;
                }
                sym.apply(&pi, st, &mut img);
                out.push(img.clone());
                // After the last arrangement it wraps to the ascending one: go on until
                // back at `start`.
                next_permutation(&mut arr);
                if arr == start {
                    break;
                }
            }
        }
        None => {
            if n > MAX_GENERIC {
                return None;
            }
            let mut seen: HashSet<State> = HashSet::new();
            let mut pi: Vec<i64> = (1..=n as i64).collect();
            loop {
                sym.apply(&pi, st, &mut img);
                if seen.insert(img.clone()) {
                    out.push(img.clone());
                }
                if !next_permutation(&mut pi) {
                    break;
                }
            }
            // The identity comes first in lexicographic order: `st` leads.
        }
    }
    Some(out)
}

/// The number of distinct images of `st` (as `members(..).len()`).
pub fn size(sym: &Symmetry, n: usize, st: &[i64]) -> Option<usize> {
    match sym.sort_classes(st) {
        Some(class) => {
            // n! / prod(count_c!), built as a product of binomials to stay exact.
            let classes = class.iter().max().map_or(0, |m| m + 1);
            let mut count = vec![0usize; classes];
            for &c in &class {
                count[c] += 1;
            }
            let mut total: u128 = 1;
            let mut placed = 0usize;
            for &k in &count {
                for i in 1..=k {
                    total = total * (placed + i) as u128 / i as u128;
                }
                placed += k;
            }
            Some(usize::try_from(total).unwrap_or(usize::MAX))
        }
        None => members(sym, n, st).map(|m| m.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;
    use crate::model::instance::Instance;

    /// Orbits counted by hand: three processes over {A, B}: AAB has 3 images, ABC-like
    /// (with a flag) 6, AAA 1; the multiset enumeration and the generic one agree.
    #[test]
    fn orbit_members_and_sizes() {
        let m = load_str(
            "t.cub",
            "type t = A | B | C\narray X[proc] : t\ninit (z) { X[z] = A }\n\
             transition go (i) requires { X[i] = A } { X[i] := B; }",
        )
        .unwrap();
        let inst = Instance::new(&m, 3);
        let sym = Symmetry::new(&inst);
        for (st, want) in [
            (vec![0, 0, 1], 3usize),
            (vec![0, 1, 2], 6),
            (vec![2, 2, 2], 1),
        ] {
            let ms = members(&sym, 3, &st).unwrap();
            assert_eq!(ms.len(), want, "{st:?}");
            assert_eq!(ms[0], st, "the state itself first");
            let distinct: HashSet<_> = ms.iter().cloned().collect();
            assert_eq!(distinct.len(), want);
            assert_eq!(size(&sym, 3, &st), Some(want));
        }
    }
}
