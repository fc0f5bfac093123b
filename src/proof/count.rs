//! Counting lemmas in certificates and their independent check (issue 26). A counting
//! lemma is a cube whose atoms may count processes:
//!
//! ```text
//! lemma not (#{x : Pc[x] = Reading} <> Cnt)
//! lemma sizes 4..4: not (#{x : Pc[x] = Writing} >= 1 && W = False)
//! ```
//!
//! `#{x : P} OP E` compares the number of processes x for which P holds (evaluated as an
//! `unsafe (x) { P }` body: a formula meeting a range error does not hold) with E, a
//! formula over the globals; the other conjuncts mention no process (the text is split
//! by `cert::count`). The checker reads P, E and the rest back from their text as
//! `unsafe` blocks of the model (as every lemma is) and counts with its own circuit: a sequential counter (C. Sinz, *Towards
//! an Optimal CNF Encoding of Boolean Cardinality Constraints*, CP 2005) over the
//! literals "P holds at process i", i = 1..n, on the per-process instance of each size.
//! Nothing of the engine's counter view (`counter`) is used.

use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// Sinz's sequential counter: `table[i][v]` ⇔ at least v of the first i literals of
/// `xs` hold, v = 0..=xs.len() + 1; the last row counts them all.
pub fn at_least(c: &mut Circuit, xs: &[Lit]) -> Vec<Vec<Lit>> {
    let mut ge = vec![TRUE];
    ge.extend(std::iter::repeat_n(FALSE, xs.len() + 1));
    let mut table = vec![ge.clone()];
    for (i, &x) in xs.iter().enumerate() {
        // Descending, so that ge[v - 1] is still the count over the first i literals.
        for v in (1..=i + 1).rev() {
            let step = c.and2(ge[v - 1], x);
            ge[v] = c.or(&[ge[v], step]);
        }
        table.push(ge.clone());
    }
    table
}

/// Clauses true of any two counters built by `at_least` over literal lists `xs`, `ys`:
/// where the lists agree on a prefix, the counts of that prefix agree. They add no
/// assumption; they spare the solver the rediscovery (for each process) that two equal
/// circuits over equal inputs are equal, which makes inductive counting lemmas hard for
/// CDCL.
pub fn agree(c: &mut Circuit, xs: &[Lit], ys: &[Lit], tx: &[Vec<Lit>], ty: &[Vec<Lit>]) {
    let mut same = TRUE;
    for i in 0..xs.len() {
        let eq = c.iff(xs[i], ys[i]);
        same = c.and2(same, eq);
        for v in 1..=i + 1 {
            c.clause(&[-same, -tx[i + 1][v], ty[i + 1][v]]);
            c.clause(&[-same, tx[i + 1][v], -ty[i + 1][v]]);
        }
    }
}

/// "The count is exactly v" from `ge`.
pub fn exactly(c: &mut Circuit, ge: &[Lit], v: usize) -> Lit {
    let next = ge.get(v + 1).copied().unwrap_or(FALSE);
    let this = ge.get(v).copied().unwrap_or(FALSE);
    c.and2(this, -next)
}
