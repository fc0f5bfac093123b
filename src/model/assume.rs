//! Cubicle's reading of `invariant` blocks: *assumed*, not claimed. Cubicle's backward
//! search counts a state violating an `invariant` as covered and drops the initial
//! states violating one (S. Conchon, A. Goel, S. Krstić, A. Mebsout, F. Zaïdi,
//! *Cubicle: A Parallel SMT-based Model Checker for Parameterized Systems*, CAV 2012),
//! so its answers are about the system restricted to the states satisfying every
//! `invariant`.
//!
//! nfold builds that restricted system once, as a model, so that every engine (the
//! explicit search, BMC, IC3, the every-n step) and the independent checker answer it
//! unchanged:
//! - every `init` is conjoined with `forall distinct z1..zm. not F` for each
//!   `invariant (z1..zm) { F }` (an extra `init` block without parameters);
//! - every transition's guard is conjoined with the same formula **on the state after
//!   the step**: F with each read of a cell the transition writes replaced by the value
//!   written (`if the cell is the one written then the new value else the old one`), a
//!   weakest precondition of the deterministic updates (E. W. Dijkstra, *Guarded
//!   commands, nondeterminacy and formal derivation of programs*, CACM 1975). So a step
//!   whose target violates an invariant is not taken.
//!
//! A nondeterministic update (`:= .`, `:= any`) of a variable some invariant reads has
//! no single post-state value: such a model is refused, naming the update. A step that
//! the assumption removes is not taken, so a range error it would meet is not met
//! either. The properties of the restricted model keep their names; its source text is
//! its own, printed and read back (`run::every::assumed_model`), and a certificate about it says `assume NAMES`.

use super::ir::*;

/// The indices (into `model.unsafes`) of the `invariant` blocks.
pub fn invariants(model: &Model) -> Vec<usize> {
    (0..model.unsafes.len())
        .filter(|&u| model.unsafes[u].kind == PropKind::Invariant)
        .collect()
}

/// The names of the invariants `invs`, as a certificate's `assume` line and the
/// reports list them (`invariant1, invariant2`).
pub fn names(model: &Model, invs: &[usize]) -> Vec<String> {
    invs.iter()
        .map(|&u| model.unsafes[u].name.clone())
        .collect()
}

/// The invariants named `names` (a certificate's `assume` line).
pub fn by_name(model: &Model, names: &[String]) -> Result<Vec<usize>, String> {
    names
        .iter()
        .map(|n| {
            model
                .unsafes
                .iter()
                .position(|u| &u.name == n && u.kind == PropKind::Invariant)
                .ok_or_else(|| format!("the model has no `invariant` named `{n}`"))
        })
        .collect()
}

/// The model restricted to the states satisfying every invariant of `invs`: initial
/// states violating one dropped, steps whose target violates one not taken. Refused
/// (with the update named) when a nondeterministic update writes a variable an
/// invariant reads.
pub fn assume(model: &Model, invs: &[usize]) -> Result<Model, String> {
    let mut out = model.clone();
    out.assumed.extend(names(model, invs));
    for &u in invs {
        let inv = &model.unsafes[u];
        out.inits.push(Init {
            params: 0,
            locals: inv.locals.clone(),
            body: excluded(inv, 0, inv.body.clone()),
            span: inv.span,
        });
    }
    for t in &mut out.transitions {
        let mut conj = vec![t.guard.clone()];
        for &u in invs {
            let inv = &model.unsafes[u];
            let off = t.locals.len();
            let body = inv.body.rewrite(&Post { model, t, off, inv })?;
            conj.push(excluded(inv, off, body));
            // Fresh names, so that the model prints back without shadowing.
            t.locals.extend(inv.locals.iter().map(|l| Local {
                name: format!("{}_{off}", l.name),
                ty: l.ty,
            }));
        }
        t.guard = Expr::And(conj);
    }
    Ok(out)
}

/// `forall distinct z1..zm. not body`, the invariant's parameters at locals
/// `off..off + m`.
fn excluded(inv: &Unsafe, off: usize, body: Expr) -> Expr {
    let mut e = Expr::Not(Box::new(body));
    for k in (0..inv.params).rev() {
        let except = (0..k).map(|j| Expr::Local(off + j)).collect();
        e = Expr::quant(true, off + k, Domain::Procs { except }, e);
    }
    e
}

/// The invariant's formula read on the state after a step of `t`; its locals move to
/// `off..`.
struct Post<'a> {
    model: &'a Model,
    t: &'a Transition,
    off: usize,
    inv: &'a Unsafe,
}

impl Rewrite for Post<'_> {
    type Error = String;

    fn local(&self, id: LocalId) -> Result<Expr, String> {
        Ok(Expr::Local(id + self.off))
    }

    // An exception is a name (`forall j <> i`) unless the state after the step gives
    // it: then it is tested in the body (`Expr::quant_excepting`).
    fn bound(&self, var: LocalId) -> LocalId {
        var + self.off
    }

    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, String> {
        self.cell_after(v, ix)
    }
}

impl Post<'_> {
    /// The value of cell `v[ix]` after the step (`ix` already read after it).
    fn cell_after(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, String> {
        let mut acc = Expr::Read(v, ix.clone());
        for u in self.t.updates.iter().filter(|u| u.var == v) {
            let UpdValue::Term(value) = &u.value else {
                return Err(format!(
                    "cannot assume the invariants: `{}` of transition `{}` chooses a value nondeterministically (at {}), and `{}` reads `{}`",
                    self.model.vars[v].name,
                    self.t.name,
                    self.model.source.position(u.span.lo),
                    self.inv.name,
                    self.model.vars[v].name
                ));
            };
            let mut conds = Vec::new();
            let mut binds: Vec<(LocalId, Expr)> = Vec::new();
            for (k, x) in u.index.iter().enumerate() {
                match x {
                    Index::Term(t) => conds.push(Expr::Cmp(
                        CmpOp::Eq,
                        Box::new(ix[k].clone()),
                        Box::new(t.clone()),
                    )),
                    Index::Bind(id) => binds.push((*id, ix[k].clone())),
                }
            }
            let value = bind(value, &binds);
            acc = if conds.is_empty() {
                value
            } else {
                Expr::Ite(
                    Box::new(Expr::And(conds)),
                    Box::new(value),
                    Box::new(acc),
                    self.model.vars[v].ty,
                )
            };
        }
        Ok(acc)
    }
}

/// `e` with each bound index `id` replaced by the term it stands for.
fn bind(e: &Expr, binds: &[(LocalId, Expr)]) -> Expr {
    if binds.is_empty() {
        return e.clone();
    }
    let Ok(e) = e.rewrite(&Bind(binds));
    e
}

/// The rewrite of `bind`. A quantifier of the update's value binds its own locals,
/// never a bound index; an exception naming a bound index (`forall k <> j`) is a term
/// now.
struct Bind<'a>(&'a [(LocalId, Expr)]);

impl Rewrite for Bind<'_> {
    type Error = std::convert::Infallible;

    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(self
            .0
            .iter()
            .find(|(b, _)| *b == id)
            .map_or(Expr::Local(id), |(_, t)| t.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::eval::{Fire, fire};
    use crate::model::instance::Instance;

    fn load(text: &str) -> Model {
        crate::lang::load_str("t.cub", text).unwrap()
    }

    /// A state of `inst` with the given cells (by variable name, index, value).
    fn state(inst: &Instance, cells: &[(&str, &[i64], i64)]) -> Vec<i64> {
        let mut st = vec![0; inst.slots.len()];
        for &(name, ix, v) in cells {
            let var = inst.model.vars.iter().position(|x| x.name == name).unwrap();
            st[inst.slot_of(var, ix).unwrap()] = v;
        }
        st
    }

    const TEXT: &str = "type s = A | B | C\narray S[proc] : s\nvar G : bool\n\
        init (i) { S[i] = A && G = False }\n\
        invariant (i) { S[i] = C }\n\
        unsafe (i j) { S[i] = B && S[j] = B }\n\
        transition ab (i) requires { S[i] = A } { S[i] := B; }\n\
        transition bc (i) requires { S[i] = B } { S[i] := C; G := True; }\n\
        transition all (i) requires { G = True } { S[j] := case | j = i : C | _ : A; }\n";

    #[test]
    fn steps_into_an_invariant_violation_are_not_taken() {
        let m = load(TEXT);
        let a = assume(&m, &invariants(&m)).unwrap();
        assert_eq!(a.inits.len(), 2);
        let inst = Instance::new(&a, 2);
        let bc = a.transitions.iter().position(|t| t.name == "bc").unwrap();
        let ab = a.transitions.iter().position(|t| t.name == "ab").unwrap();
        let all = a.transitions.iter().position(|t| t.name == "all").unwrap();
        // S = [B, A], G = False: `bc` at 1 would write C: not taken; `ab` at 2 is.
        let st = state(&inst, &[("S", &[1], 1), ("S", &[2], 0), ("G", &[], 0)]);
        assert!(matches!(fire(&inst, &st, bc, &[1]), Fire::Disabled));
        assert!(matches!(fire(&inst, &st, ab, &[2]), Fire::Enabled(_)));
        // G = True: `all` at 1 writes C into S[1] (the `case` row bound to j): not taken.
        let st = state(&inst, &[("S", &[1], 0), ("S", &[2], 0), ("G", &[], 1)]);
        assert!(matches!(fire(&inst, &st, all, &[1]), Fire::Disabled));
    }
}
