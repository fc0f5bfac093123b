//! Stand-in arrays: arrays of processes indexed by processes (Flash's `UnetProc[proc] :
//! proc`, the process a node's pending message is from or for) that the cutoff
//! argument covers by merging every process outside the restriction into one stand-in
//! process (docs/every-n.md, "Arrays of process pointers"). This module decides from
//! the text whether a model's such arrays meet the argument's conditions, and names
//! the first construct that does not.
//!
//! The conditions (why each is needed is in docs/every-n.md): a cell `P[x]` of a
//! stand-in array is never used as an index nor as the value of anything but a cell of
//! a stand-in array (`P[i] := P[j]`, `P[i] := case | c : Q[j] | ...`); it is compared
//! only by `=` or `<>`, and only with a *kept* term: a transition or `unsafe`
//! parameter, a variable quantified existentially (by polarity, strictly: its witness
//! is in the restriction) in a guard, an `any` condition or a property, the process an
//! `any` chooses, a process-valued cell that is not a stand-in cell (a global, or an
//! array indexed by another type: closed as before), or a constant (the extra id
//! `#0`). Never with a universally quantified variable, an `init` parameter, an
//! update's bound index, another stand-in cell, or a term of any other shape. The
//! family must not be ordered (the stand-in has no place in the order). Lemmas may not
//! read stand-in arrays at all (`reads_standin`).

use super::fragment::{Outside, Pol};
use crate::lang::print::expr_text;
use crate::model::ir::{CmpOp, Expr, Index, Local, LocalId, Model, Ty, UpdValue, VarId};
use crate::source::Span;

/// The stand-in candidates of a model: arrays of processes indexed by one process
/// dimension. (Arrays of processes with several dimensions, one of them processes,
/// stay outside the fragment, named by `cutoff`.)
pub fn arrays(m: &Model) -> Vec<VarId> {
    (0..m.vars.len())
        .filter(|&v| m.vars[v].ty == Ty::Proc && m.vars[v].dims == [Ty::Proc])
        .collect()
}

/// Whether a formula reads a stand-in array.
pub fn reads_standin(arrays: &[VarId], e: &Expr) -> Option<VarId> {
    let mut found = None;
    e.walk(&mut |x| {
        if let Expr::Read(v, _) = x
            && arrays.contains(v)
            && found.is_none()
        {
            found = Some(*v);
        }
        true
    });
    found
}

/// The first stand-in array a lemma `forall distinct x1..x_params. not (body)` reads
/// outside the one form the argument carries (docs/every-n.md, "Lemmas that read a
/// stand-in array"): a conjunct of `body` that is `P[x] = y` (or `y = P[x]`), its index
/// free of stand-in cells, and `y` the extra id, a process global, or a lemma variable
/// named nowhere else in `body`. Where such a variable is the stand-in in a
/// restriction, the atom says "P[x] points outside", and the lemma's instance at the
/// process P[x] points to holds the same atoms in the full state.
pub fn lemma_reads(m: &Model, arrays: &[VarId], params: usize, body: &Expr) -> Option<VarId> {
    if arrays.is_empty() {
        return None;
    }
    let mut conjuncts = Vec::new();
    flatten_and(body, &mut conjuncts);
    let uses = |l: LocalId| {
        let mut n = 0;
        body.walk(&mut |x| {
            n += usize::from(matches!(x, Expr::Local(k) if *k == l));
            true
        });
        n
    };
    let covered = |cell: &Expr, other: &Expr| {
        let Expr::Read(v, ix) = cell else {
            return false;
        };
        arrays.contains(v)
            && ix.iter().all(|x| reads_standin(arrays, x).is_none())
            && match other {
                Expr::Local(l) => *l < params && uses(*l) == 1,
                Expr::Const(_, Ty::Proc) => true,
                Expr::Read(v, _) => {
                    !arrays.contains(v)
                        && m.vars[*v].ty == Ty::Proc
                        && !m.vars[*v].dims.contains(&Ty::Proc)
                }
                _ => false,
            }
    };
    for c in conjuncts {
        if let Expr::Cmp(CmpOp::Eq, a, b) = c {
            let (ra, rb) = (reads_standin(arrays, a), reads_standin(arrays, b));
            let fine = match (ra, rb) {
                (Some(_), None) => covered(a, b),
                (None, Some(_)) => covered(b, a),
                _ => false,
            };
            if fine {
                continue;
            }
        }
        if let Some(v) = reads_standin(arrays, c) {
            return Some(v);
        }
    }
    None
}

fn flatten_and<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::And(xs) => xs.iter().for_each(|x| flatten_and(x, out)),
        _ => out.push(e),
    }
}

/// What a local variable stands for, for the comparisons a stand-in cell may take part in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Its value is in the restriction's set S: a parameter, a witness, a chosen process.
    Kept,
    /// It ranges over every process (or is an `init` parameter, an update's bound index).
    Ranging,
}

/// One block of the model being checked: its locals, their roles, where it is.
struct Block<'a> {
    m: &'a Model,
    arrays: &'a [VarId],
    locals: &'a [Local],
    roles: Vec<Role>,
    span: Span,
    what: String,
}

impl<'a> Block<'a> {
    /// A block whose first `params` locals are its parameters (kept by the
    /// restriction), the others ranging over processes.
    fn new(
        m: &'a Model,
        arrays: &'a [VarId],
        locals: &'a [Local],
        params: usize,
        span: Span,
        what: String,
    ) -> Block<'a> {
        let mut roles = vec![Role::Ranging; locals.len()];
        roles[..params].fill(Role::Kept);
        Block {
            m,
            arrays,
            locals,
            roles,
            span,
            what,
        }
    }

    /// The stand-in array `v` breaks a condition (`why`) in this block.
    fn fail(&self, v: VarId, why: String) -> Outside {
        Outside {
            what: format!(
                "the array `{}` holds processes and is indexed by processes, and {why} in {} (the stand-in argument does not cover it, docs/every-n.md)",
                self.m.vars[v].name, self.what
            ),
            span: self.span,
        }
    }

    fn text(&self, e: &Expr) -> String {
        expr_text(self.m, self.locals, e)
    }

    fn standin(&self, e: &Expr) -> Option<VarId> {
        match e {
            Expr::Read(v, _) if self.arrays.contains(v) => Some(*v),
            _ => None,
        }
    }

    /// Whether `e` is a term whose value the restriction keeps (S or the extra id).
    fn kept(&self, e: &Expr) -> bool {
        match e {
            Expr::Local(l) => self.roles.get(*l) == Some(&Role::Kept),
            Expr::Const(_, Ty::Proc) => true,
            Expr::Read(v, _) => {
                !self.arrays.contains(v)
                    && self.m.vars[*v].ty == Ty::Proc
                    && !self.m.vars[*v].dims.contains(&Ty::Proc)
            }
            _ => false,
        }
    }

    /// Walk a formula (or a term in a position that is no stand-in copy) in polarity `pol`.
    fn formula(&mut self, e: &Expr, pol: Pol) -> Result<(), Outside> {
        match e {
            Expr::Const(..) | Expr::Size | Expr::Local(_) => Ok(()),
            Expr::Read(v, ix) => {
                if self.arrays.contains(v) {
                    return Err(self.fail(
                        *v,
                        format!(
                            "its cell `{}` is used other than compared by `=` or `<>` (as an index or a value)",
                            self.text(e)
                        ),
                    ));
                }
                ix.iter().try_for_each(|x| self.formula(x, Pol::Both))
            }
            Expr::Cmp(op, a, b) => self.comparison(e, *op, a, b),
            Expr::Arith(_, a, b) | Expr::Iff(a, b) => {
                self.formula(a, Pol::Both)?;
                self.formula(b, Pol::Both)
            }
            Expr::Not(a) => self.formula(a, pol.flip()),
            Expr::And(xs) | Expr::Or(xs) => xs.iter().try_for_each(|x| self.formula(x, pol)),
            Expr::Imp(a, b) => {
                self.formula(a, pol.flip())?;
                self.formula(b, pol)
            }
            Expr::Ite(c, a, b, _) => {
                self.formula(c, Pol::Both)?;
                self.formula(a, pol)?;
                self.formula(b, pol)
            }
            Expr::Quant(q) => {
                for x in q.except() {
                    self.formula(x, Pol::Both)?;
                }
                // Strictly existential by polarity: its witness is in S (the step and
                // property counts hold one per such quantifier).
                let existential = match pol {
                    Pol::Pos => !q.forall,
                    Pol::Neg => q.forall,
                    Pol::Both => false,
                };
                let role = if q.over_procs() && existential {
                    Role::Kept
                } else {
                    Role::Ranging
                };
                self.set(q.var, role);
                self.formula(&q.body, pol)
            }
        }
    }

    /// The comparison `e` (`a op b`): a stand-in cell may be compared only by `=` or
    /// `<>`, and only with a term whose value the restriction keeps.
    fn comparison(&mut self, e: &Expr, op: CmpOp, a: &Expr, b: &Expr) -> Result<(), Outside> {
        let (cell, other) = match (self.standin(a), self.standin(b)) {
            (Some(_), Some(w)) => {
                return Err(self.fail(
                    w,
                    format!(
                        "two stand-in cells are compared (`{}`: the stand-in would merge their targets)",
                        self.text(e)
                    ),
                ));
            }
            (Some(v), None) => (a, (v, b)),
            (None, Some(v)) => (b, (v, a)),
            (None, None) => {
                self.formula(a, Pol::Both)?;
                return self.formula(b, Pol::Both);
            }
        };
        let (v, other) = other;
        if !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            return Err(self.fail(
                v,
                format!("its cell is compared by order (`{}`)", self.text(e)),
            ));
        }
        if !self.kept(other) {
            let whom = match other {
                Expr::Local(_) => "a quantified (or `init`, or update-bound) variable",
                _ => "a term whose value the restriction does not keep",
            };
            return Err(self.fail(
                v,
                format!(
                    "its cell is compared with {whom} (`{}`: only parameters, existential witnesses, process globals and `#0` are covered)",
                    self.text(e)
                ),
            ));
        }
        // The cell's own index: any process term (read as an index).
        if let Expr::Read(_, ix) = cell {
            ix.iter().try_for_each(|x| self.formula(x, Pol::Both))?;
        }
        self.formula(other, Pol::Both)
    }

    fn set(&mut self, l: LocalId, role: Role) {
        if self.roles.len() <= l {
            self.roles.resize(l + 1, Role::Ranging);
        }
        self.roles[l] = role;
    }

    /// The value of an update of a stand-in cell: `case` conditions as formulas, its
    /// leaves copies (a stand-in cell, a process term of any kind: the merged map of
    /// the argument sends each to its image).
    fn standin_value(&mut self, target: VarId, e: &Expr) -> Result<(), Outside> {
        match e {
            Expr::Ite(c, a, b, _) => {
                self.formula(c, Pol::Both)?;
                self.standin_value(target, a)?;
                self.standin_value(target, b)
            }
            Expr::Read(v, ix) if self.arrays.contains(v) => {
                ix.iter().try_for_each(|x| self.formula(x, Pol::Both))
            }
            Expr::Local(_) | Expr::Const(_, Ty::Proc) => Ok(()),
            Expr::Read(..) if self.kept(e) => self.formula(e, Pol::Both),
            _ => Err(self.fail(
                target,
                format!("a cell is assigned `{}`, no process term", self.text(e)),
            )),
        }
    }
}

/// Check the conditions on the stand-in arrays `arrays` of `m` (all of them arrays of
/// processes indexed by processes): the first violation, named, or none.
pub fn check(m: &Model, arrays: &[VarId]) -> Result<(), Outside> {
    if arrays.is_empty() {
        return Ok(());
    }
    let first = &m.vars[arrays[0]];
    if m.is_ordered() {
        return Err(Outside {
            what: format!(
                "the array `{}` holds processes and is indexed by processes in an ordered family (the stand-in process has no place in the order)",
                first.name
            ),
            span: first.span,
        });
    }
    for i in &m.inits {
        // `init`'s locals all range: it is universal, with no parameter kept.
        Block::new(m, arrays, &i.locals, 0, i.span, "`init`".into()).formula(&i.body, Pol::Pos)?;
    }
    for u in &m.unsafes {
        let what = format!("`{}`", u.name);
        Block::new(m, arrays, &u.locals, u.params, u.span, what).formula(&u.body, Pol::Pos)?;
    }
    for t in &m.transitions {
        let what = format!("the guard of `{}`", t.name);
        let mut b = Block::new(m, arrays, &t.locals, t.params, t.span, what);
        b.formula(&t.guard, Pol::Pos)?;
        for u in &t.updates {
            b.span = u.span;
            b.what = format!("an update of `{}`", t.name);
            for ix in &u.index {
                match ix {
                    Index::Term(x) => b.formula(x, Pol::Both)?,
                    Index::Bind(l) => b.set(*l, Role::Ranging),
                }
            }
            let target_standin = arrays.contains(&u.var);
            match &u.value {
                UpdValue::Nondet => {}
                UpdValue::Any { var, cond } => {
                    b.set(*var, Role::Kept);
                    b.formula(cond, Pol::Pos)?;
                }
                UpdValue::Term(x) if target_standin => b.standin_value(u.var, x)?,
                UpdValue::Term(x) => {
                    // A process-valued target outside the stand-in arrays must not
                    // receive a stand-in cell (its value would leave S).
                    b.formula(x, Pol::Both)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    const HEAD: &str = "var Home : proc\nvar G : proc\narray P[proc] : proc\narray Q[proc] : proc\n\
                        array B[proc] : bool\ninit (p) { Home <> p && P[p] = Home && Q[p] = Home }\n";

    fn verdict(rest: &str) -> Result<(), String> {
        let m = load_str("t.cub", &format!("{HEAD}{rest}")).map_err(|e| e.diagnostic.message)?;
        check(&m, &arrays(&m)).map_err(|o| o.what)
    }

    #[test]
    fn kept_comparisons_and_copies_are_covered() {
        for ok in [
            "transition t (i j) requires { P[i] = j && Q[j] <> Home && P[j] = G } { P[i] := Q[j]; }",
            "transition t (i) requires { exists k. (P[i] = k && B[k] = True) } { P[i] := G; }",
            "transition t (i) requires { not (forall k. P[i] <> k) } { P[i] := .; }",
            "transition t (i) requires { forall k. P[k] <> i } { P[j] := case | j = i : Home | P[j] = i : j | _ : Q[j]; }",
            "transition t (i) { G := any k. P[k] = i; }",
            "unsafe (i j) { P[i] = j && Q[j] = i }",
        ] {
            assert_eq!(verdict(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn what_the_conditions_exclude_is_named() {
        for (bad, why) in [
            (
                "transition t (i) requires { forall k. P[i] <> k } { B[i] := True; }",
                "quantified",
            ),
            (
                "transition t (i) requires { not (exists k. P[i] = k) } { B[i] := True; }",
                "quantified",
            ),
            (
                "transition t (i) requires { (exists k. P[i] = k) <-> B[i] = True } { B[i] := True; }",
                "quantified",
            ),
            (
                "transition t (i j) requires { P[i] = Q[j] } { B[i] := True; }",
                "two stand-in cells",
            ),
            (
                "transition t (i j) requires { P[i] = P[j] } { B[i] := True; }",
                "two stand-in cells",
            ),
            (
                "transition t (i) { G := P[i]; }",
                "used other than compared",
            ),
            (
                "transition t (i) requires { B[P[i]] = True } { B[i] := True; }",
                "used other than compared",
            ),
            (
                "transition t (i) { B[j] := case | P[j] = j : True | _ : B[j]; }",
                "update-bound",
            ),
            ("unsafe (i) { forall k. P[i] <> k }", "quantified"),
        ] {
            let e = verdict(bad).unwrap_err();
            assert!(e.contains("the array `") && e.contains(why), "{bad}: {e}");
        }
        // `init` parameters are universal.
        let m = load_str("t.cub", "array P[proc] : proc\ninit (p q) { P[p] = q }\n").unwrap();
        assert!(
            check(&m, &arrays(&m))
                .unwrap_err()
                .what
                .contains("quantified")
        );
    }

    /// The form a lemma may read a stand-in array in: `P[x] = y` as a conjunct, y the
    /// extra id, a process global or a lemma variable named nowhere else.
    #[test]
    fn lemmas_read_a_stand_in_array_only_in_the_carried_form() {
        let read = |body: &str| {
            let m = load_str("t.cub", &format!("{HEAD}unsafe (i j) {{ {body} }}\n")).unwrap();
            let u = &m.unsafes[0];
            lemma_reads(&m, &arrays(&m), u.params, &u.body).map(|v| m.vars[v].name.clone())
        };
        for ok in [
            "P[i] = j && B[i] = True",
            "B[i] = True && j = P[i] && Q[i] = Home",
            "P[i] = Home && P[j] = G && B[j] = True",
            "P[i] = #0 && B[i] = True",
        ] {
            assert_eq!(read(ok), None, "{ok}");
        }
        for (bad, v) in [
            // The variable named twice: as the pointer's target and another's index.
            ("P[i] = j && B[j] = True", "P"),
            ("P[i] = j && Q[i] = j", "P"),
            ("B[i] = True && j = P[i] && Q[j] = Home", "P"),
            // Its own index: the stand-in's own pointer would be read as pointing home.
            ("P[i] = i && B[j] = True", "P"),
            ("P[i] <> j && B[i] = True", "P"),
            ("P[i] = j || B[i] = True", "P"),
            ("P[i] = Q[j]", "P"),
            ("P[P[i]] = j", "P"),
        ] {
            assert_eq!(read(bad).as_deref(), Some(v), "{bad}");
        }
    }
}
