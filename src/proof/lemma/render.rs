//! A lemma as a formula over the model's own variables (`forall distinct i j. not
//! (...)`), the form certificates are written in and `proof::check` reads.

use super::{Lemma, PVal, Rel, decode};
use crate::cert::CertLemma;
use crate::model::ir::Ty;
use crate::transys::Transys;

impl Lemma {
    /// The lemma as a formula over the model's own variables, the form certificates
    /// are written in: `forall distinct i j. not (A[i] = Crit && A[j] = Crit)`, with
    /// the sizes it is claimed for when they are not all of `all`.
    pub fn render(&self, ts: &Transys, all: (usize, usize)) -> String {
        self.to_cert(ts, all).text()
    }

    /// The lemma as a certificate lemma (see `render`).
    pub fn to_cert(&self, ts: &Transys, all: (usize, usize)) -> CertLemma {
        let model = ts.inst.model;
        let names = ["i", "j", "k", "l", "m"];
        let pname = |i: usize| {
            names
                .get(i)
                .map(|s| s.to_string())
                .unwrap_or_else(|| format!("x{}", i + 1))
        };
        let show = |p: PVal, ty: Ty| match p {
            PVal::Proc(i) => pname(i),
            PVal::Const(c) if ty == Ty::Proc => format!("#{c}"),
            PVal::Const(c) => match ty {
                Ty::Bool => if c != 0 { "True" } else { "False" }.to_string(),
                Ty::Enum(e) => model.enums[e].ctors[c as usize].clone(),
                _ => c.to_string(),
            },
        };
        let atoms: Vec<String> = self
            .atoms
            .iter()
            .map(|a| {
                let var = &model.vars[a.var];
                let cell = if a.index.is_empty() {
                    var.name.clone()
                } else {
                    let ix: Vec<String> = a
                        .index
                        .iter()
                        .zip(&var.dims)
                        .map(|(&p, &d)| show(p, d))
                        .collect();
                    format!("{}[{}]", var.name, ix.join(", "))
                };
                let (op, value) = match a.value {
                    PVal::Const(c) => match decode(c) {
                        (Rel::Eq, v) => ("=", PVal::Const(v)),
                        (Rel::Ge, v) => (">=", PVal::Const(v)),
                        (Rel::Le, v) => ("<=", PVal::Const(v)),
                    },
                    p => ("=", p),
                };
                match (model.lit_ints.as_ref(), value, var.ty) {
                    // A literal-valued int: an interval value as comparisons with its
                    // bounds, so that the text reads back as the same value.
                    (Some(l), PVal::Const(c), Ty::Enum(e)) if l.enum_id == e => {
                        l.atom_text(&cell, op, c)
                    }
                    _ => format!("{cell} {op} {}", show(value, var.ty)),
                }
            })
            .collect();
        let body = if atoms.is_empty() {
            "True".to_string()
        } else {
            atoms.join(" && ")
        };
        // Below `procs` processes the lemma says nothing (no distinct tuple exists).
        let lo = if self.procs > 0 && self.lo <= self.procs {
            all.0
        } else {
            self.lo
        };
        CertLemma {
            sizes: ((lo, self.hi) != all).then_some((lo, self.hi)),
            vars: (0..self.procs).map(pname).collect(),
            body,
            no_range: false,
            no_int_bound: false,
            ordered: self.ordered,
            bdd: None,
        }
    }
}
