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
//! formula over the globals; the other conjuncts mention no process. The checker reads
//! P, E and the rest back from their text as `unsafe` blocks of the model (as every
//! lemma is) and counts with its own circuit: a sequential counter (C. Sinz, *Towards
//! an Optimal CNF Encoding of Boolean Cardinality Constraints*, CP 2005) over the
//! literals "P holds at process i", i = 1..n, on the per-process instance of each size.
//! Nothing of the engine's counter view (`counter`) is used.

use crate::model::ir::CmpOp;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// One counting atom `#{var : pred} op rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountAtom {
    pub var: String,
    pub pred: String,
    pub op: CmpOp,
    pub rhs: String,
}

impl CountAtom {
    /// The right-hand side as an integer literal, when it is one.
    pub fn literal(&self) -> Option<i64> {
        self.rhs.trim().parse().ok()
    }
}

/// A counting lemma's body: its counting atoms and the other conjuncts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountCube {
    pub atoms: Vec<CountAtom>,
    pub rest: Vec<String>,
}

/// Split at `&&` outside parentheses and braces.
fn conjuncts(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && c == '&' && cs.get(i + 1) == Some(&'&') {
            out.push(cur.trim().to_string());
            cur.clear();
            i += 2;
            continue;
        }
        cur.push(c);
        i += 1;
    }
    out.push(cur.trim().to_string());
    out
}

/// Parse a lemma body: `None` when it counts nothing.
pub fn parse(body: &str) -> Result<Option<CountCube>, String> {
    if !body.contains("#{") {
        return Ok(None);
    }
    let mut cube = CountCube {
        atoms: Vec::new(),
        rest: Vec::new(),
    };
    for c in conjuncts(body) {
        let Some(inner) = c.strip_prefix("#{") else {
            if c.contains("#{") {
                return Err(format!(
                    "`{c}`: a count `#{{x : P}}` must stand alone on the left of a comparison"
                ));
            }
            cube.rest.push(c);
            continue;
        };
        let close = inner.find('}').ok_or("`#{` without its `}`")?;
        let (head, after) = (&inner[..close], inner[close + 1..].trim());
        let (var, pred) = head.split_once(':').ok_or("expected `#{x : P}`")?;
        let var = var.trim();
        if var.is_empty()
            || !var.starts_with(|ch: char| ch.is_ascii_lowercase())
            || !var
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            return Err(format!("`{var}` is not a process variable name"));
        }
        let ops = [
            (">=", CmpOp::Ge),
            ("<=", CmpOp::Le),
            ("<>", CmpOp::Ne),
            ("=", CmpOp::Eq),
            (">", CmpOp::Gt),
            ("<", CmpOp::Lt),
        ];
        let (op, rhs) = ops
            .iter()
            .find_map(|(t, op)| after.strip_prefix(t).map(|r| (*op, r.trim())))
            .ok_or_else(|| format!("expected a comparison after the count in `{c}`"))?;
        if rhs.is_empty() || rhs.contains("#{") || pred.contains("#{") || pred.contains('}') {
            return Err(format!(
                "`{c}`: expected `#{{x : P}} OP E`, E without counts"
            ));
        }
        cube.atoms.push(CountAtom {
            var: var.to_string(),
            pred: pred.trim().to_string(),
            op,
            rhs: rhs.to_string(),
        });
    }
    Ok(Some(cube))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_atoms_and_the_rest() {
        let c = parse("#{x : Pc[x] = A || Pc[x] = B} <> N - Cnt && W = False")
            .unwrap()
            .unwrap();
        assert_eq!(c.atoms.len(), 1);
        assert_eq!(c.atoms[0].pred, "Pc[x] = A || Pc[x] = B");
        assert_eq!(c.atoms[0].op, CmpOp::Ne);
        assert_eq!(c.atoms[0].rhs, "N - Cnt");
        assert_eq!(c.rest, vec!["W = False".to_string()]);
        assert!(parse("W = False").unwrap().is_none());
        assert!(parse("1 + #{x : P[x]} = 2").is_err());
        assert!(parse("#{X : P[X]} = 2").is_err());
    }
}
