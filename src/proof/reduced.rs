//! The reduction of a model (`model::reduce`), checked on the model, independently of
//! the code that chose it, so that a proof about the reduced model is one about the
//! model (a certificate's `reduced` line; the reduced model is built again by the
//! same builder, as `assume` and `abstraction ints` are):
//! - **the slice is a cone of influence** (Clarke, Grumberg, Peled, *Model Checking*,
//!   ch. 16), decided from the text: nothing that stays reads a sliced variable (the
//!   guard and the updates of a transition that writes a variable that stays, the
//!   properties asked, the `init` conjuncts over variables that stay; every guard when
//!   the transitions' enabledness is observed; a transition whose guard the constants
//!   make false is left out, as it fires in no reachable state once the constants are
//!   checked below); an update of a sliced variable cannot
//!   fail (`Ranges`, at the sizes checked or at every size), is no `any`, and is the
//!   only one of its variable in its transition; a transition that writes sliced
//!   variables only cannot fail; an `init` conjunct reads sliced variables only or
//!   none, and one over sliced variables cannot fail;
//! - **the constants and equivalent cells hold in every reachable state**: at each
//!   size checked, as lemmas (`fact_lemmas`) checked by `proof::check` on the model;
//!   for every size, by the text: a constant is never written and an `init` conjunct
//!   sets it to a literal; an equivalent pair is written alike by every transition and
//!   set alike by `init`.
//!
//! Then every run of the model is, on the cells that stay, a run of the reduced model,
//! step for step, and an invariant of the reduced model is one of the model.

use crate::cert::{CertLemma, Certificate, Reduced, text_hash};
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::model::reduce::safe::Ranges;
use crate::model::reduce::{self, Asked, Plan};
use crate::sat::{SolverKind, Stop};

/// What a `reduced` line asks of the model.
pub fn asked(m: &Model, r: &Reduced) -> Result<Asked, String> {
    let mut a = Asked {
        fair: r.fair,
        deadlock: r.deadlock,
        ..Default::default()
    };
    for n in &r.asked {
        if let Some(u) = m.unsafe_by_name(n) {
            a.props.push(u);
        } else if let Some(l) = m.ltl_by_name(n) {
            a.ltls.push(l);
        } else {
            return Err(format!(
                "the certificate's reduction asks `{n}`, which the model lacks"
            ));
        }
    }
    Ok(a)
}

/// The `reduced` line for what `asked` asks at `sizes`.
pub fn line(m: &Model, asked: &Asked, sizes: (usize, usize)) -> Reduced {
    Reduced {
        sizes,
        asked: asked
            .props
            .iter()
            .map(|&u| m.unsafes[u].name.clone())
            .chain(asked.ltls.iter().map(|&l| m.ltls[l].name.clone()))
            .collect(),
        fair: asked.fair,
        deadlock: asked.deadlock,
    }
}

/// The plan and the reduced model (read back) of a `reduced` line.
pub fn rebuild(m: &Model, r: &Reduced) -> Result<(Plan, Asked, Model), String> {
    let asked = asked(m, r)?;
    let plan = reduce::plan(m, &asked, r.sizes);
    let back = read_back(m, &plan)?;
    Ok((plan, asked, back))
}

/// The reduced model of `plan` printed and read back, with the model's int window
/// (the reduced text may have lost literals the window was derived from).
pub fn read_back(m: &Model, plan: &Plan) -> Result<Model, String> {
    let mut back = crate::lang::read_back(&plan.model, "the reduced model")?;
    if back.vars.len() != plan.model.vars.len() || back.unsafes.len() != m.unsafes.len() {
        return Err("the reduced model lost items when read back".into());
    }
    // Literal-valued ints are numbered by the literals of the text: the reduced text
    // must number them alike, or its states are not the model's.
    let values = |x: &Model| x.lit_ints.as_ref().map(|l| l.values.clone());
    if values(&back) != values(m) {
        return Err("the reduced model reads its ints over other values".into());
    }
    if let (Some(w), Some(b)) = (&m.int_window, &mut back.int_window) {
        let (range, free) = (b.range, std::mem::take(&mut b.free));
        *b = w.clone();
        b.range = range;
        b.free = free;
    }
    back.warnings.clear();
    Ok(back)
}

/// Check the reduction `plan` of `m` for `asked` (module comment): at `sizes`, or at
/// every size (`None`).
pub fn verify(
    m: &Model,
    plan: &Plan,
    asked: &Asked,
    sizes: Option<&[usize]>,
    solver: SolverKind,
    stop: &Stop,
) -> Result<(), String> {
    let ranges: Vec<Ranges> = match sizes {
        Some(ns) => ns.iter().map(|&n| Ranges::new(m, n)).collect(),
        None => vec![Ranges::every(m)],
    };
    let mut gone = vec![false; m.vars.len()];
    for &v in &plan.sliced {
        gone[v] = true;
    }
    // Constants and merged cells are fixed by the facts (checked below): a transition
    // that writes them and sliced cells only changes nothing that stays.
    let mut fixed = vec![false; m.vars.len()];
    for v in plan
        .constants
        .iter()
        .map(|c| c.var)
        .chain(plan.merged.iter().map(|g| g.var))
    {
        fixed[v] = true;
    }
    let never: Vec<bool> = m
        .transitions
        .iter()
        .map(|t| disabled_by_constants(&t.guard, plan))
        .collect();
    cone(m, &gone, &fixed, &never, asked, &ranges)?;
    match sizes {
        Some(ns) => facts_at(m, plan, ns, solver, stop),
        None => facts_everywhere(m, plan)
            .or_else(|e| facts_by_cutoff(m, plan, solver, stop).map_err(|f| format!("{e}; {f}"))),
    }
}

/// The constants and equivalences at every size, as lemmas checked for every n
/// (`check_every`) on the model with the slice applied (`reduce::sliced_only`), whose
/// cells they speak of: where the text alone does not show them (a constant written
/// only by a transition the constants disable).
fn facts_by_cutoff(m: &Model, plan: &Plan, solver: SolverKind, stop: &Stop) -> Result<(), String> {
    let sliced = read_back(
        m,
        &Plan {
            model: reduce::sliced_only(m, plan),
            ..plan.clone()
        },
    )
    .map_err(|e| format!("the sliced model: {e}"))?;
    let cert = Certificate {
        every: Some(1),
        ..facts_certificate(&sliced, plan.sizes, fact_lemmas(m, plan))
    };
    let ch = super::check::check_every(&sliced, &cert, solver, stop)?;
    match ch.refused {
        Some(r) => Err(r),
        None if ch.accepted() => Ok(()),
        None => Err("the constants and equivalent cells do not hold on the sliced model".into()),
    }
}

/// A certificate claiming nothing but its lemmas, about `m`.
fn facts_certificate(m: &Model, sizes: (usize, usize), lemmas: Vec<CertLemma>) -> Certificate {
    Certificate {
        model: m.source.name.clone(),
        hash: text_hash(&m.source.text),
        sizes,
        engine: "reduction".into(),
        lemmas,
        ints: m.int_window.as_ref().map(|w| (w.lo, w.hi)),
        assume: m.assumed.clone(),
        abstraction: m.abs_ints.is_some(),
        ..Certificate::default()
    }
}

fn reads(e: &Expr, gone: &[bool]) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let Expr::Read(v, _) = x {
            found |= gone[*v];
        }
        !found
    });
    found
}

fn update_reads(u: &Update, gone: &[bool]) -> bool {
    u.index
        .iter()
        .any(|i| matches!(i, Index::Term(e) if reads(e, gone)))
        || match &u.value {
            UpdValue::Term(e) | UpdValue::Any { cond: e, .. } => reads(e, gone),
            UpdValue::Nondet => false,
        }
}

/// Whether a guard has a conjunct `X = k` (or `k = X`, or `X <> c`) on a global `X`
/// that the plan says is the constant c at every size and cell, with k other than c:
/// then the guard is false in every state where the constants hold. Decided from the
/// text, independently of how the reduction found the transition.
fn disabled_by_constants(guard: &Expr, plan: &Plan) -> bool {
    let constant = |e: &Expr| match e {
        Expr::Read(v, ix) if ix.is_empty() && !plan.sliced.contains(v) => plan
            .constants
            .iter()
            .find(|c| c.var == *v)
            .and_then(|c| c.uniform()),
        _ => None,
    };
    let literal = |e: &Expr| match e {
        Expr::Const(k, _) => Some(*k),
        _ => None,
    };
    flat_and(guard).into_iter().any(|c| {
        let Expr::Cmp(op, a, b) = c else {
            return false;
        };
        let (value, k) = match (constant(a), literal(b), constant(b), literal(a)) {
            (Some(v), Some(k), _, _) | (_, _, Some(v), Some(k)) => (v, k),
            _ => return false,
        };
        match op {
            CmpOp::Eq => value != k,
            CmpOp::Ne => value == k,
            _ => false,
        }
    })
}

fn flat_and(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(xs) => xs.iter().flat_map(flat_and).collect(),
        e => vec![e],
    }
}

/// The conditions of a cone of influence for the variables `gone`.
fn cone(
    m: &Model,
    gone: &[bool],
    fixed: &[bool],
    never: &[bool],
    asked: &Asked,
    ranges: &[Ranges],
) -> Result<(), String> {
    let fails = |l: &[Local], e: &Expr| ranges.iter().any(|r| r.may_fail(l, e));
    // A transition the constants disable fires in no reachable state (the constants
    // are checked below, on the model with it): it moves nothing into what stays.
    for t in m
        .transitions
        .iter()
        .zip(never)
        .filter(|x| !x.1)
        .map(|x| x.0)
    {
        let keeps = t.updates.iter().any(|u| !gone[u.var] && !fixed[u.var]);
        for u in t.updates.iter().filter(|u| gone[u.var]) {
            let twice = t.updates.iter().filter(|x| x.var == u.var).count() > 1;
            let may_fail = ranges.iter().any(|r| r.update_may_fail(t, u));
            if twice || matches!(u.value, UpdValue::Any { .. }) || may_fail {
                return Err(format!(
                    "an update of `{}` in `{}` may fail or disable the transition",
                    m.vars[u.var].name, t.name
                ));
            }
        }
        let observed = keeps || asked.enabledness();
        if observed && reads(&t.guard, gone) {
            return Err(format!(
                "the guard of `{}` reads a variable sliced away",
                t.name
            ));
        }
        if t.updates
            .iter()
            .any(|u| !gone[u.var] && update_reads(u, gone))
        {
            return Err(format!(
                "`{}` writes a variable that stays from one sliced away",
                t.name
            ));
        }
        if !observed && fails(&t.locals, &t.guard) {
            return Err(format!("the guard of `{}`, which goes, may fail", t.name));
        }
    }
    for &u in &asked.props {
        if reads(&m.unsafes[u].body, gone) {
            return Err(format!(
                "`{}` reads a variable sliced away",
                m.unsafes[u].name
            ));
        }
    }
    for &l in &asked.ltls {
        if m.ltls[l].body.atoms().into_iter().any(|a| reads(a, gone)) {
            return Err(format!("`{}` reads a variable sliced away", m.ltls[l].name));
        }
    }
    for i in &m.inits {
        for c in flat_and(&i.body) {
            let stays = {
                let keep: Vec<bool> = gone.iter().map(|g| !g).collect();
                reads(c, &keep)
            };
            let sliced = reads(c, gone);
            if sliced && (stays || fails(&i.locals, c)) {
                return Err(
                    "an `init` conjunct over variables sliced away reads others or may fail".into(),
                );
            }
        }
    }
    Ok(())
}

/// The constants and equivalences at sizes `ns`, as lemmas checked on the model.
fn facts_at(
    m: &Model,
    plan: &Plan,
    ns: &[usize],
    solver: SolverKind,
    stop: &Stop,
) -> Result<(), String> {
    let lemmas = fact_lemmas(m, plan);
    if lemmas.is_empty() {
        return Ok(());
    }
    let cert = facts_certificate(m, plan.sizes, lemmas);
    for c in super::check::check(m, &cert, ns, solver, stop)? {
        if !c.failures.is_empty() || !c.unchecked.is_empty() {
            return Err(format!(
                "the constants and equivalent cells do not hold at size {}: {}",
                c.size,
                [&c.failures[..], &c.unchecked[..]].concat().join("; ")
            ));
        }
    }
    Ok(())
}

/// The constants and equivalences at every size, by the text (module comment).
fn facts_everywhere(m: &Model, plan: &Plan) -> Result<(), String> {
    let written = |v: VarId| {
        m.transitions
            .iter()
            .any(|t| t.updates.iter().any(|u| u.var == v))
    };
    let conjuncts: Vec<&Expr> = m.inits.iter().flat_map(|i| flat_and(&i.body)).collect();
    for c in &plan.constants {
        let name = &m.vars[c.var].name;
        let identity = c.identity(m);
        let value = c.uniform();
        if value.is_none() && !identity {
            return Err(format!("`{name}` is a constant only at some sizes"));
        }
        // `X[z] = k` for a uniform value, `X[z] = z` for each process's own id.
        let set = conjuncts.iter().any(|x| match x {
            Expr::Cmp(CmpOp::Eq, a, b) => match (&**a, &**b) {
                (Expr::Read(v, ix), Expr::Const(k, _)) => {
                    *v == c.var && Some(*k) == value && all_params(ix)
                }
                (Expr::Read(v, ix), Expr::Local(z)) => {
                    *v == c.var && identity && ix.len() == 1 && ix[0] == Expr::Local(*z)
                }
                _ => false,
            },
            _ => false,
        });
        if written(c.var) || !set {
            return Err(format!(
                "`{name}` is not shown constant at every size by the text"
            ));
        }
    }
    for g in &plan.merged {
        if !mirrored(m, g.var, g.into, g.negated)
            || !set_alike(&conjuncts, g.var, g.into, g.negated)
        {
            return Err(format!(
                "`{}` is not shown equal to `{}` at every size by the text",
                m.vars[g.var].name, m.vars[g.into].name
            ));
        }
    }
    Ok(())
}

/// Indices that are `init` parameters (or none): the conjunct then speaks of every cell.
fn all_params(ix: &[Expr]) -> bool {
    ix.iter().all(|x| matches!(x, Expr::Local(_)))
}

/// Every transition writes `y` exactly where and as it writes `x` (`y` read as `x`).
fn mirrored(m: &Model, y: VarId, x: VarId, negated: bool) -> bool {
    let as_x = |e: &Expr| -> Expr {
        e.rewrite(&Rename { y, x, negated })
            .unwrap_or_else(|n: std::convert::Infallible| match n {})
    };
    m.transitions.iter().all(|t| {
        let ux: Vec<&Update> = t.updates.iter().filter(|u| u.var == x).collect();
        let uy: Vec<&Update> = t.updates.iter().filter(|u| u.var == y).collect();
        ux.len() == uy.len()
            && ux.iter().zip(&uy).all(|(a, b)| {
                let same_index = a.index.iter().zip(&b.index).all(|(p, q)| match (p, q) {
                    (Index::Term(p), Index::Term(q)) => as_x(p) == as_x(q),
                    _ => false,
                });
                let (UpdValue::Term(va), UpdValue::Term(vb)) = (&a.value, &b.value) else {
                    return false;
                };
                let (va, vb) = (as_x(va), as_x(vb));
                same_index
                    && if negated {
                        match (&va, &vb) {
                            (Expr::Const(p, Ty::Bool), Expr::Const(q, Ty::Bool)) => p != q,
                            (Expr::Not(p), q) | (q, Expr::Not(p)) => **p == *q,
                            _ => false,
                        }
                    } else {
                        va == vb
                    }
            })
    })
}

/// `init` sets `y` as `x`: a conjunct `y[..] = x[..]`, or both set to one literal.
fn set_alike(conjuncts: &[&Expr], y: VarId, x: VarId, negated: bool) -> bool {
    let lit = |v: VarId| {
        conjuncts.iter().find_map(|c| match c {
            Expr::Cmp(CmpOp::Eq, a, b) => match (&**a, &**b) {
                (Expr::Read(w, ix), Expr::Const(k, _)) if *w == v && all_params(ix) => Some(*k),
                _ => None,
            },
            _ => None,
        })
    };
    let copied = !negated
        && conjuncts.iter().any(|c| {
            matches!(c, Expr::Cmp(CmpOp::Eq, a, b)
                if matches!((&**a, &**b), (Expr::Read(p, i), Expr::Read(q, j))
                    if ((*p == y && *q == x) || (*p == x && *q == y)) && i == j && all_params(i)))
        });
    copied
        || match (lit(y), lit(x)) {
            (Some(a), Some(b)) => (a == b) != negated,
            _ => false,
        }
}

/// Reads of `y` become reads of `x` (negated for a negation).
struct Rename {
    y: VarId,
    x: VarId,
    negated: bool,
}

impl Rewrite for Rename {
    type Error = std::convert::Infallible;
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(if v == self.y {
            let r = Expr::Read(self.x, ix);
            if self.negated {
                Expr::Not(Box::new(r))
            } else {
                r
            }
        } else {
            Expr::Read(v, ix)
        })
    }
}

/// The constants and equivalences of the plan as lemmas about the model: a state
/// where a constant cell holds another value, or a merged cell differs from its
/// partner, is unreachable.
pub fn fact_lemmas(m: &Model, plan: &Plan) -> Vec<CertLemma> {
    let lemma = |sizes: Option<(usize, usize)>, body: String| CertLemma {
        sizes,
        vars: Vec::new(),
        body,
        no_range: false,
        no_int_bound: false,
        ordered: false,
        bdd: None,
    };
    let value = |t: Ty, v: i64| crate::lang::print::expr_text(m, &[], &Expr::Const(v, t));
    let mut out = Vec::new();
    for c in &plan.constants {
        let var = &m.vars[c.var];
        if let Some(u) = c.uniform() {
            let (q, cell) = every_cell(m, c.var);
            out.push(lemma(None, format!("{q}{cell} <> {}", value(var.ty, u))));
            continue;
        }
        if c.identity(m) {
            let (q, cell) = every_cell(m, c.var);
            out.push(lemma(None, format!("{q}{cell} <> nfold_x1")));
            continue;
        }
        for (n, vals) in &c.values {
            let inst = Instance::new(m, *n);
            let l = &inst.vars[c.var];
            let cells: Vec<String> = (0..l.cells)
                .map(|k| {
                    format!(
                        "{} <> {}",
                        cell_text(m, c.var, &inst, l.base + k),
                        value(var.ty, vals[k])
                    )
                })
                .collect();
            out.push(lemma(Some((*n, *n)), cells.join(" || ")));
        }
    }
    for g in &plan.merged {
        let (q, y) = every_cell(m, g.var);
        let (_, x) = every_cell(m, g.into);
        let op = if g.negated { "=" } else { "<>" };
        out.push(lemma(None, format!("{q}{y} {op} {x}")));
    }
    out
}

/// `exists x1 : T1. exists x2. ` and `X[x1, x2]`: every cell of variable v.
fn every_cell(m: &Model, v: VarId) -> (String, String) {
    let var = &m.vars[v];
    if var.dims.is_empty() {
        return (String::new(), var.name.clone());
    }
    let mut q = String::new();
    let mut ix = Vec::new();
    for (k, &d) in var.dims.iter().enumerate() {
        let x = format!("nfold_x{}", k + 1);
        match d {
            Ty::Proc => q.push_str(&format!("exists {x}. ")),
            t => q.push_str(&format!("exists {x} : {}. ", m.type_name(t))),
        }
        ix.push(x);
    }
    (q, format!("{}[{}]", var.name, ix.join(", ")))
}

/// The cell at `slot` as a term of the language (`X[#2, 3]`).
fn cell_text(m: &Model, v: VarId, inst: &Instance, slot: usize) -> String {
    let var = &m.vars[v];
    let s = &inst.slots[slot];
    if s.index.is_empty() {
        return var.name.clone();
    }
    let ix: Vec<String> = s
        .index
        .iter()
        .zip(&var.dims)
        .map(|(&i, &d)| crate::lang::print::expr_text(m, &[], &Expr::Const(i, d)))
        .collect();
    format!("{}[{}]", var.name, ix.join(", "))
}
