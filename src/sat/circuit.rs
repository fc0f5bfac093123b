//! Tseitin circuits over a `Cnf` with structural hashing: an n-ary AND gate is created
//! once per set of inputs (sorted, deduplicated), constants fold away, and OR is
//! AND of negations. Literal 1 is the constant true.
//!
//! A circuit can also be a *template* (a transition system's): it then records every
//! gate's inputs, so that engines can instantiate any literal's cone elsewhere (an
//! unrolling frame), and routes constraint clauses into named groups instead of its
//! CNF, so that each engine chooses which constraints it loads.

use super::{Cnf, Lit};
use crate::hash::FastMap;

/// The constant true literal (variable 1, fixed by a unit clause).
pub const TRUE: Lit = 1;
/// The constant false literal.
pub const FALSE: Lit = -1;

/// A circuit builder writing its gates into a CNF.
pub struct Circuit {
    pub cnf: Cnf,
    ands: FastMap<Box<[Lit]>, Lit>,
    scratch: Vec<Lit>,
    /// Number of AND gates created.
    pub gates: usize,
    /// Template circuits: per variable, the `(start, len)` of its gate inputs in
    /// `gate_lits` (len 0: not a gate).
    defs: Option<Vec<(u32, u32)>>,
    gate_lits: Vec<Lit>,
    /// Constraint clauses go to this group (of `groups`) instead of the CNF.
    pub route: Option<usize>,
    /// Routed clauses per group, each clause followed by a 0.
    pub groups: Vec<Vec<Lit>>,
}

impl Default for Circuit {
    fn default() -> Self {
        Circuit::new()
    }
}

impl Circuit {
    pub fn new() -> Circuit {
        let mut cnf = Cnf::default();
        let t = cnf.new_var();
        debug_assert_eq!(t, TRUE);
        cnf.add_clause(&[TRUE]);
        Circuit {
            cnf,
            ands: FastMap::default(),
            scratch: Vec::new(),
            gates: 0,
            defs: None,
            gate_lits: Vec::new(),
            route: None,
            groups: Vec::new(),
        }
    }

    /// A template circuit: gates recorded, `groups` constraint groups.
    pub fn template(groups: usize) -> Circuit {
        let mut c = Circuit::new();
        c.defs = Some(vec![(0, 0); 2]);
        c.groups = vec![Vec::new(); groups];
        c
    }

    /// The inputs of the AND gate defining variable `v` (template circuits; `None`
    /// for a variable that is not a gate output).
    pub fn gate(&self, v: Lit) -> Option<&[Lit]> {
        let defs = self.defs.as_ref()?;
        let &(start, len) = defs.get(v.unsigned_abs() as usize)?;
        (len > 0).then(|| &self.gate_lits[start as usize..(start + len) as usize])
    }

    /// The clauses of a constraint group.
    pub fn group(&self, g: usize) -> impl Iterator<Item = &[Lit]> {
        self.groups[g].split(|&l| l == 0).filter(|c| !c.is_empty())
    }

    /// A fresh unconstrained variable.
    pub fn var(&mut self) -> Lit {
        let v = self.cnf.new_var();
        if let Some(d) = &mut self.defs {
            d.push((0, 0));
        }
        v
    }

    /// A constraint clause (into the current group of a template).
    pub fn clause(&mut self, lits: &[Lit]) {
        if lits.contains(&TRUE) {
            return;
        }
        let c: Vec<Lit> = lits.iter().copied().filter(|&l| l != FALSE).collect();
        match self.route {
            Some(g) => {
                self.groups[g].extend_from_slice(&c);
                self.groups[g].push(0);
            }
            None => self.cnf.add_clause(&c),
        }
    }

    /// Assert a literal.
    pub fn assert(&mut self, l: Lit) {
        self.clause(&[l]);
    }

    /// `a -> b` as a clause.
    pub fn imply(&mut self, a: Lit, b: Lit) {
        self.clause(&[-a, b]);
    }

    pub fn and(&mut self, lits: &[Lit]) -> Lit {
        let mut v = std::mem::take(&mut self.scratch);
        v.clear();
        for &l in lits {
            if l == FALSE {
                self.scratch = v;
                return FALSE;
            }
            if l != TRUE {
                v.push(l);
            }
        }
        v.sort_unstable_by_key(|l| (l.abs(), *l));
        v.dedup();
        if v.windows(2).any(|w| w[0] == -w[1]) {
            self.scratch = v;
            return FALSE;
        }
        let out = match v.len() {
            0 => TRUE,
            1 => v[0],
            _ => {
                if let Some(&g) = self.ands.get(&v[..]) {
                    g
                } else {
                    let g = self.var();
                    if let Some(d) = &mut self.defs {
                        d[g as usize] = (self.gate_lits.len() as u32, v.len() as u32);
                        self.gate_lits.extend_from_slice(&v);
                    }
                    for &l in &v {
                        self.cnf.add_clause(&[-g, l]);
                    }
                    let mut big: Vec<Lit> = v.iter().map(|&l| -l).collect();
                    big.push(g);
                    self.cnf.add_clause(&big);
                    self.ands.insert(v.clone().into_boxed_slice(), g);
                    self.gates += 1;
                    g
                }
            }
        };
        self.scratch = v;
        out
    }

    pub fn and2(&mut self, a: Lit, b: Lit) -> Lit {
        self.and(&[a, b])
    }

    pub fn or(&mut self, lits: &[Lit]) -> Lit {
        let neg: Vec<Lit> = lits.iter().map(|&l| -l).collect();
        -self.and(&neg)
    }

    pub fn or2(&mut self, a: Lit, b: Lit) -> Lit {
        -self.and(&[-a, -b])
    }

    /// `if c then a else b`.
    pub fn ite(&mut self, c: Lit, a: Lit, b: Lit) -> Lit {
        if a == b {
            return a;
        }
        let x = self.and2(c, a);
        let y = self.and2(-c, b);
        self.or2(x, y)
    }

    /// `a <-> b`.
    pub fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        if a == b {
            return TRUE;
        }
        if a == -b {
            return FALSE;
        }
        let x = self.or2(-a, b);
        let y = self.or2(a, -b);
        self.and2(x, y)
    }

    /// At most one of the literals is true (sequential counter, 3n clauses).
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        if lits.len() <= 4 {
            for i in 0..lits.len() {
                for j in i + 1..lits.len() {
                    self.clause(&[-lits[i], -lits[j]]);
                }
            }
            return;
        }
        let mut prev = FALSE;
        for (k, &x) in lits.iter().enumerate() {
            if k + 1 == lits.len() {
                self.clause(&[-x, -prev]);
                break;
            }
            let s = self.var();
            self.clause(&[-x, s]);
            self.clause(&[-prev, s]);
            self.clause(&[-x, -prev]);
            prev = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_and_folding() {
        let mut c = Circuit::new();
        let (a, b) = (c.var(), c.var());
        let g = c.and(&[a, b]);
        assert_eq!(c.and(&[b, a, TRUE, b]), g);
        assert_eq!(c.and(&[a, -a]), FALSE);
        assert_eq!(c.and(&[a, FALSE]), FALSE);
        assert_eq!(c.and(&[]), TRUE);
        assert_eq!(c.or(&[a, TRUE]), TRUE);
        assert_eq!(c.or(&[-g]), -g);
        assert_eq!(c.gates, 1);
        assert_eq!(c.iff(a, a), TRUE);
    }
}
