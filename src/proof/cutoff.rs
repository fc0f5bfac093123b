//! The cutoff argument for "every n": which models it covers (the *fragment*, decided
//! from the text) and the cutoff c up to which an invariant must be checked so that
//! it holds at every size.
//!
//! The argument (a small-model property, as in the use of symmetric invariants by
//! Cubicle, S. Conchon, A. Goel, S. Krstić, A. Mebsout and F. Zaïdi, *Cubicle: A
//! Parallel SMT-based Model Checker for Parameterized Systems*, CAV 2012, and by IC3PO,
//! A. Goel and K. A. Sakallah, *On Symmetry and Quantification: A New Approach to
//! Verify Distributed Protocols*, NFM 2021; written out with its side conditions in
//! docs/every-n.md): let Inv be a conjunction of universal clauses `forall distinct
//! x1..xk. not C(x1..xk)`. Take any size n and a state s. Restricting s to a set S of
//! its processes (renumbered 1..|S|) gives a state of size |S| when every
//! process-valued cell of S points into S; a universal formula true at s stays true at
//! the restriction, and an existential one whose witnesses lie in S stays true too. So
//! - an initial state violating a clause restricts to an initial state (init is
//!   universal) violating it, over the clause's processes and those the
//!   process-valued cells point to;
//! - a step from an Inv state to a state violating a clause restricts to a step of the
//!   same transition instance (its parameters and the witnesses of its guard's
//!   existential quantifiers, of `any` and of `:= .` are kept; its guard is
//!   existential-universal, its updates quantifier-free, so the guard still holds and
//!   every kept cell gets the same new value) from an Inv state to a state violating
//!   the clause;
//! - an Inv state violating a property (`unsafe`: existential-universal) restricts to
//!   one at the size of the property's processes and witnesses.
//!
//! Each restriction has at most c processes, so checking init ⇒ Inv, Inv ∧ T ⇒ Inv′
//! and Inv ⇒ ¬bad at every size 1..c proves them at every n. Range errors cannot
//! occur in the fragment (no arithmetic on range types), so none is missed.
//!
//! Cubicle ints with arithmetic are in the fragment when checked over their window
//! (`window_ints`: every initial value fixed to a literal, no `:= .` on them): a
//! store leaving the window (`int_bound`) is one more bad step, involving the step's
//! processes and the process of the cell written; updates are quantifier-free, so the
//! restriction stores the same value. The certificate must claim `int_bound` at
//! 1..c; then no run at any size leaves the window, and the runs over the window are
//! the runs over the integers (guards compute exactly, only stores are bounded).
//!
//! Ordered-symmetric families (process ids also compared by `<` between themselves,
//! `Model::is_ordered`) keep the argument when S is renumbered in increasing order:
//! the renumbering keeps every comparison between S's processes, and lemmas may carry
//! the order of their processes (`forall i < j. not C`, read by the checker as `i < j
//! && C`). Arithmetic on process ids (`i + 1`, rings) is not kept by the renumbering
//! and stays outside.
//!
//! A model read with the extra process id (`model::extra`, Flash's `Home`) keeps the
//! argument with the extra id 0 as a constant: S is closed up to it (cells of S may
//! hold 0), the renumbering fixes it, and it has no cell to restrict. Indexing a
//! process-indexed array with it is a range error, which the argument does not carry,
//! so every such index must be a process variable; a variable of the extra id that no
//! transition assigns holds 0 for ever and points to no process (docs/every-n.md).
//!
//! Arrays of processes indexed by processes (Flash's `UnetProc`) are covered as
//! *stand-in arrays* (`proof::standin`): when their cells are only compared with
//! terms the restriction keeps and lemmas read them only as `P[x] = y`, y a variable
//! named nowhere else in the lemma (or a kept term), every process outside S is merged
//! into one stand-in process, so each restriction has one process more (c + 1;
//! docs/every-n.md).
//!
//! The fragment: fully symmetric or ordered-symmetric; no `N`, no `number_procs`; no
//! range types, and arithmetic only on ints checked over their window; arrays of processes indexed by processes only as
//! stand-in arrays (not in an ordered family); guards and properties
//! existential-universal over processes (no `exists` inside a `forall`, counting
//! polarity); updates, their indices and `case` conditions free of quantifiers over
//! processes; `init` universal.

use crate::model::extra::EXTRA_ID;
use crate::model::ir::{Domain, Expr, Index, Model, Transition, Ty, UpdValue, VarKind};
use crate::source::Span;

pub use super::fragment::Outside;
pub(super) use super::fragment::Pol;

/// What the cutoff of a model depends on, besides the invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// Process-valued cells outside process-indexed arrays (each may point to one
    /// more process).
    pub pointers: usize,
    /// The most processes one transition instance involves: its parameters and the
    /// witnesses of its guard, its `any` updates and its `:= .` on process cells.
    pub step: usize,
    /// The most processes a property violation involves: its parameters and the
    /// witnesses of its formula.
    pub bad: usize,
    /// The model has stand-in arrays (arrays of processes indexed by processes meeting
    /// the conditions of `proof::standin`): every restriction gets one more process,
    /// the stand-in for the processes outside it.
    pub standin: bool,
    /// The model has Cubicle ints with arithmetic, checked over their window
    /// (`window_ints`): a certificate must then claim `int_bound` at every size
    /// 1..c, so that no run leaves the window at any size.
    pub ints: bool,
}

/// The quantifier shape of a formula over processes.
#[derive(Default)]
struct Shape {
    /// Existential quantifiers over processes (by polarity), each needing a witness.
    witnesses: usize,
    /// Some quantifier over processes is universal (by polarity).
    universal: bool,
}

pub(super) fn domain_size(m: &Model, t: Ty) -> usize {
    match t {
        Ty::Bool => 2,
        Ty::Enum(e) => m.enums[e].ctors.len(),
        Ty::Range(r) if !m.ranges[r].lo.uses_size() && !m.ranges[r].hi.uses_size() => {
            (m.ranges[r].hi.eval(0) - m.ranges[r].lo.eval(0) + 1).max(0) as usize
        }
        // Other range types are outside the fragment; a bound keeps this total.
        _ => 1,
    }
}

/// Walk a formula in polarity `pol`; `under_forall`: inside a universal quantifier
/// over processes. Fails on an existential quantifier under a universal one.
fn walk(m: &Model, e: &Expr, pol: Pol, under_forall: bool, st: &mut Shape) -> Result<(), String> {
    match e {
        Expr::Const(..) | Expr::Size | Expr::Local(_) => Ok(()),
        Expr::Read(_, ix) => ix
            .iter()
            .try_for_each(|x| walk(m, x, Pol::Both, under_forall, st)),
        Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::Iff(a, b) => {
            walk(m, a, Pol::Both, under_forall, st)?;
            walk(m, b, Pol::Both, under_forall, st)
        }
        Expr::Not(a) => walk(m, a, pol.flip(), under_forall, st),
        Expr::And(xs) | Expr::Or(xs) => xs
            .iter()
            .try_for_each(|x| walk(m, x, pol, under_forall, st)),
        Expr::Imp(a, b) => {
            walk(m, a, pol.flip(), under_forall, st)?;
            walk(m, b, pol, under_forall, st)
        }
        Expr::Ite(c, a, b, _) => {
            walk(m, c, Pol::Both, under_forall, st)?;
            walk(m, a, pol, under_forall, st)?;
            walk(m, b, pol, under_forall, st)
        }
        Expr::Quant(q) => match q.dom {
            Domain::Type(Ty::Range(_)) => Err("a quantifier over a range type".into()),
            Domain::Type(t) if t != Ty::Proc => {
                // A finite conjunction or disjunction of copies of the body.
                let mut sub = Shape::default();
                walk(m, &q.body, pol, under_forall, &mut sub)?;
                st.witnesses += sub.witnesses * domain_size(m, t);
                st.universal |= sub.universal;
                Ok(())
            }
            _ => {
                for x in q.except() {
                    walk(m, x, Pol::Both, under_forall, st)?;
                }
                let both = pol == Pol::Both;
                let exists = both || (q.forall == (pol == Pol::Neg));
                let univ = both || (q.forall == (pol == Pol::Pos));
                if exists && under_forall {
                    return Err(
                        "an existential quantifier over processes inside a universal one".into(),
                    );
                }
                if exists {
                    st.witnesses += 1;
                }
                st.universal |= univ;
                walk(m, &q.body, pol, under_forall || univ, st)
            }
        },
    }
}

/// The existential quantifiers over processes of `e` in polarity `pol` (each needs a
/// witness), `under_forall` when `e` sits inside a universal one; fails on an
/// existential quantifier under a universal one (the formula is then not
/// existential-universal).
pub(super) fn witnesses(
    m: &Model,
    e: &Expr,
    pol: Pol,
    under_forall: bool,
) -> Result<usize, String> {
    let mut st = Shape::default();
    walk(m, e, pol, under_forall, &mut st)?;
    Ok(st.witnesses)
}

/// Whether `e` contains `N`, arithmetic, or a quantifier over processes.
fn scan(e: &Expr, f: &mut dyn FnMut(&Expr) -> bool) -> bool {
    f(e) || e.any_child(|x| scan(x, f))
}

fn proc_quantifier(e: &Expr) -> bool {
    scan(e, &mut |x| {
        matches!(
            x,
            Expr::Quant(q) if q.over_procs()
        )
    })
}

/// The first construct of `e` outside the fragment's terms: `N`, or arithmetic unless
/// `ints` (Cubicle ints in the fragment, `window_ints`: the only arithmetic left is on
/// them, process ids having none in a symmetric or ordered family).
fn bad_term_with(e: &Expr, ints: bool) -> Option<&'static str> {
    let mut what = None;
    scan(e, &mut |x| {
        what = match x {
            Expr::Size => Some("`N` (the size) in a formula"),
            Expr::Arith(..) if !ints => Some("arithmetic (range errors and size-dependent values)"),
            _ => None,
        };
        what.is_some()
    });
    what
}

/// The processes a formula of an `unsafe` block with `params` parameters involves
/// when it holds (parameters and witnesses), for an existential-universal formula.
fn property_procs(m: &Model, params: usize, body: &Expr) -> Result<usize, String> {
    let mut st = Shape::default();
    walk(m, body, Pol::Pos, false, &mut st)?;
    Ok(params + st.witnesses)
}

/// The processes a lemma `forall distinct x1..xk. not (body)` involves where it is
/// violated, when its negation is universal (`body` has no universal quantifier
/// over processes, by polarity).
pub fn lemma_procs(m: &Model, params: usize, body: &Expr) -> Result<usize, String> {
    // Negative literals are arithmetic (`0 - 1`): allowed where ints are.
    let ints = m.int_window.is_some() && window_ints(m).is_ok();
    if let Some(w) = bad_term_with(body, ints) {
        return Err(format!("{w} in a lemma"));
    }
    // Renaming processes in order must not change a lemma's meaning: no process is
    // named; order comparisons (between process ids: the fragment has no other
    // ordered values) are kept by the order-preserving renamings.
    // The extra process id `#0` is fixed by every renaming: a constant.
    if scan(
        body,
        &mut |x| matches!(x, Expr::Const(k, Ty::Proc) if *k != EXTRA_ID),
    ) {
        return Err("a lemma that names a process (`#k`) is not symmetric".into());
    }
    if m.extra_proc.is_some()
        && let Some(v) = extra_index_in(m, body)
    {
        return Err(format!(
            "a lemma indexes `{}` by a term that may hold the extra process id (only process variables are covered)",
            m.vars[v].name
        ));
    }
    if let Some(v) = super::standin::lemma_reads(m, &super::standin::arrays(m), params, body) {
        return Err(format!(
            "a lemma that reads the array `{0}` of processes indexed by processes other than as a conjunct `{0}[x] = y`, with y `#0`, a process global or a lemma variable named nowhere else (the stand-in argument carries only those, docs/every-n.md)",
            m.vars[v].name
        ));
    }
    let mut st = Shape::default();
    walk(m, body, Pol::Pos, false, &mut st)?;
    if st.universal {
        return Err("a lemma with a universal quantifier inside `not (...)`".into());
    }
    Ok(params + st.witnesses)
}

/// Whether the model lies in the fragment, and its parameters.
pub fn fragment(m: &Model) -> Result<Fragment, Outside> {
    let out = |what: String, span: Span| Err(Outside { what, span });
    if let Some((_, span)) = m.number_procs {
        return out("`number_procs` fixes the size".into(), span);
    }
    if m.extra_proc.is_some() {
        extra_indices(m)?;
    }
    // Fully symmetric, or ordered-symmetric (process ids compared by order only).
    if let Some(b) = m.first_unordered_break() {
        return out(
            format!(
                "not fully symmetric, nor ordered-symmetric: {}{}",
                b.what,
                if b.what.contains("arithmetic") {
                    " (neighbour arithmetic such as `i + 1`, rings: no argument for it)"
                } else {
                    ""
                }
            ),
            b.span,
        );
    }
    // Decided once: `pointers` needs the reason when the ints are not in.
    let window = m.int_window.as_ref().map(|_| window_ints(m));
    let ints = window.as_ref().and_then(|w| w.as_ref().ok().copied());
    let pointers = pointers(m, window.as_ref())?;
    let standins = super::standin::arrays(m);
    super::standin::check(m, &standins)?;
    let arith = ints.is_some();
    for i in &m.inits {
        if let Some(w) = bad_term_with(&i.body, arith) {
            return out(format!("{w} in `init`"), i.span);
        }
        let mut st = Shape::default();
        if let Err(e) = walk(m, &i.body, Pol::Pos, false, &mut st) {
            return out(format!("`init`: {e}"), i.span);
        }
        if st.witnesses > 0 {
            return out(
                "an existential quantifier over processes in `init` (init must be universal)"
                    .into(),
                i.span,
            );
        }
    }
    let mut step = 0;
    for t in &m.transitions {
        step = step.max(step_procs(m, t, arith)?);
    }
    // A store leaving the int window (`int_bound`) involves the step's processes and
    // the process whose cell it writes, if the cell is an array's.
    let mut bad = ints.map_or(0, |arrays| step + usize::from(arrays));
    for u in &m.unsafes {
        if let Some(w) = bad_term_with(&u.body, arith) {
            return out(format!("{w} in `unsafe {}`", u.name), u.span);
        }
        match property_procs(m, u.params, &u.body) {
            Ok(k) => bad = bad.max(k),
            Err(e) => return out(format!("`unsafe {}`: {e}", u.name), u.span),
        }
    }
    Ok(Fragment {
        pointers,
        step,
        bad,
        standin: !standins.is_empty(),
        ints: arith,
    })
}

/// Whether the model's Cubicle ints (with arithmetic; literal-valued ones were read as
/// an enumeration, `model::ints::literal`) can be checked over their window for every n, and
/// whether an array holds them (`Ok(true)`). The window is exact for runs that never
/// leave it, and the certificate must prove that no run does (`int_bound` at every
/// size 1..c, where c covers the step and the cell stored): then the runs over the
/// integers are the runs over the window. What the window would cut short at the
/// start must not exist: every int cell's initial value fixed by `init` to a
/// literal, no `:= .` on an int cell (it would choose within the window only), no
/// array indexed by ints, no int constant left free.
pub fn window_ints(m: &Model) -> Result<bool, Outside> {
    let out = |what: String, span: Span| Err(Outside { what, span });
    let Some(w) = &m.int_window else {
        return Ok(false);
    };
    if let Some(&v) = w.free.first() {
        let v = &m.vars[v];
        return out(
            format!(
                "`init` does not fix the int `{}` to a literal (its initial values would be cut to the window)",
                v.name
            ),
            v.span,
        );
    }
    let mut arrays = false;
    for v in &m.vars {
        if v.dims.iter().any(|&t| m.is_int_ty(t)) {
            return out(format!("the array `{}` is indexed by ints", v.name), v.span);
        }
        arrays |= m.is_int_ty(v.ty) && !v.dims.is_empty();
    }
    for t in &m.transitions {
        for u in &t.updates {
            if m.is_int_ty(m.vars[u.var].ty) && matches!(u.value, UpdValue::Nondet) {
                return out(
                    format!(
                        "`{} := .` in `{}` (any integer; the window would cut it short)",
                        m.vars[u.var].name, t.name
                    ),
                    u.span,
                );
            }
        }
    }
    Ok(arrays)
}

/// The number of process-valued cells (none indexed by processes), when no variable
/// holds or is indexed by a range type or integers; `window`: whether the model's ints
/// are checked over their window (`window_ints`), when it has ints.
fn pointers(m: &Model, window: Option<&Result<bool, Outside>>) -> Result<usize, Outside> {
    let out = |what: String, span: Span| Err(Outside { what, span });
    let mut pointers = 0;
    // The first place a range error may occur, decided once for the whole model.
    let mut range_error = None;
    for v in &m.vars {
        if let Some(Ty::Range(r)) = std::iter::once(v.ty)
            .chain(v.dims.iter().copied())
            .find(|t| matches!(t, Ty::Range(_)))
        {
            if m.int_window.as_ref().is_some_and(|w| w.range == r) {
                if matches!(window, Some(Ok(_))) {
                    // Checked over the window, leaving it proved impossible.
                    continue;
                }
                // Literal-valued ints were read as an enumeration when loaded
                // (`model::ints::literal`); these are not: say why.
                let why = match crate::model::ints::literal::analyse(m) {
                    Err(e) => format!(
                        "; not literal-valued: {} at {}",
                        e.what,
                        m.source.file_line(e.span.lo)
                    ),
                    _ => String::new(),
                };
                let why = match window {
                    Some(Err(o)) => format!("{why}; {}", o.text(m)),
                    _ => why,
                };
                return out(
                    format!(
                        "`{}` holds Cubicle ints (arithmetic, a bounded window{why})",
                        v.name
                    ),
                    v.span,
                );
            }
            let range = &m.ranges[r];
            let constant = !range.lo.uses_size() && !range.hi.uses_size();
            let stored = v.ty == Ty::Range(r) && !v.dims.iter().any(|d| matches!(d, Ty::Range(_)));
            let error =
                range_error.get_or_insert_with(|| crate::model::reduce::safe::first_range_error(m));
            if constant && stored && error.is_none() {
                // No store, index or read can leave the type at any size (decided
                // from the text): its cells hold finitely many values, like an
                // enumeration's.
                continue;
            }
            let why = match error {
                _ if !constant => {
                    return out(
                        format!(
                            "the range type `{}` (range errors possible: its bounds depend on `N`)",
                            range.name
                        ),
                        range.span,
                    );
                }
                Some((what, span)) => format!(
                    "range errors possible: {what} at {} may leave it",
                    m.source.file_line(span.lo)
                ),
                None => "it indexes an array".to_string(),
            };
            return out(
                format!(
                    "the range type `{}` ({why}; declare its values as an enumeration, or as `int` when only literals are stored and compared)",
                    range.name
                ),
                range.span,
            );
        }
        if v.ty == Ty::Int || v.dims.contains(&Ty::Int) {
            return out(format!("`{}` holds integers", v.name), v.span);
        }
        if v.ty != Ty::Proc || holds_extra_only(m, v) {
            continue;
        }
        if v.dims == [Ty::Proc] {
            // A stand-in array (`proof::standin` checks its conditions): its cells are
            // not closed over, the stand-in process takes their targets outside S.
            continue;
        }
        if v.dims.contains(&Ty::Proc) {
            return out(
                format!(
                    "the array `{}` holds processes and is indexed by processes (pointers without a bounded closure)",
                    v.name
                ),
                v.span,
            );
        }
        pointers += match v.kind {
            VarKind::Global | VarKind::Const => 1,
            VarKind::Array => v.dims.iter().map(|&t| domain_size(m, t)).product(),
        };
    }
    Ok(pointers)
}

/// A variable of the extra id that holds it for ever: one of those `init` declares
/// different from every process (so it holds 0 initially, at every size) that no
/// transition assigns. It points to no process, so it adds none to a restriction.
fn holds_extra_only(m: &Model, v: &crate::model::ir::Var) -> bool {
    m.extra_proc
        .as_ref()
        .is_some_and(|x| x.vars.contains(&v.name))
        && v.dims.is_empty()
        && !m
            .transitions
            .iter()
            .any(|t| t.updates.iter().any(|u| m.vars[u.var].name == v.name))
}

/// The first process-indexed array of `e` indexed by a term other than a process
/// variable (a parameter, a quantified or bound variable): with the extra id, such a
/// term may hold 0, which has no cell (a range error).
fn extra_index_in(m: &Model, e: &Expr) -> Option<usize> {
    let mut found = None;
    scan(e, &mut |x| {
        if let Expr::Read(v, ix) = x
            && ix
                .iter()
                .zip(&m.vars[*v].dims)
                .any(|(i, &d)| d == Ty::Proc && !matches!(i, Expr::Local(_)))
        {
            found = Some(*v);
        }
        found.is_some()
    });
    found
}

/// With the extra process id, every index of a process-indexed array must be a
/// process variable, so that no range error can happen (the argument has none to
/// carry to the smaller sizes): the first other one is named.
fn extra_indices(m: &Model) -> Result<(), Outside> {
    let named = |v: usize, span: Span| {
        Err(Outside {
            what: format!(
                "the array `{}` is indexed by a term that may hold the extra process id (a range error; the argument covers indices that are process variables only)",
                m.vars[v].name
            ),
            span,
        })
    };
    for i in &m.inits {
        if let Some(v) = extra_index_in(m, &i.body) {
            return named(v, i.span);
        }
    }
    for u in &m.unsafes {
        if let Some(v) = extra_index_in(m, &u.body) {
            return named(v, u.span);
        }
    }
    for t in &m.transitions {
        if let Some(v) = extra_index_in(m, &t.guard) {
            return named(v, t.span);
        }
        for u in &t.updates {
            let dims = &m.vars[u.var].dims;
            if u.index.iter().zip(dims).any(|(i, &d)| {
                d == Ty::Proc && matches!(i, Index::Term(x) if !matches!(x, Expr::Local(_)))
            }) {
                return named(u.var, u.span);
            }
            let terms: Vec<&Expr> = u
                .index
                .iter()
                .filter_map(|i| match i {
                    Index::Term(x) => Some(x),
                    Index::Bind(_) => None,
                })
                .chain(match &u.value {
                    UpdValue::Term(x) | UpdValue::Any { cond: x, .. } => Some(x),
                    UpdValue::Nondet => None,
                })
                .collect();
            if let Some(v) = terms.into_iter().find_map(|x| extra_index_in(m, x)) {
                return named(v, u.span);
            }
        }
    }
    Ok(())
}

/// The processes a step of transition `t` involves: its parameters, the witnesses of
/// its guard, a process chosen by `X := .` on a `proc` cell and the candidate (and
/// witnesses) of each `any`; when its terms lie in the fragment.
fn step_procs(m: &Model, t: &Transition, arith: bool) -> Result<usize, Outside> {
    let out = |what: String, span: Span| Err(Outside { what, span });
    let name = &t.name;
    let bad_term = |e: &Expr| bad_term_with(e, arith);
    if let Some(w) = bad_term(&t.guard) {
        return out(format!("{w} in the guard of `{name}`"), t.span);
    }
    let mut st = Shape::default();
    if let Err(e) = walk(m, &t.guard, Pol::Pos, false, &mut st) {
        return out(format!("the guard of `{name}`: {e}"), t.span);
    }
    let mut involved = t.params + st.witnesses;
    for u in &t.updates {
        let target = &m.vars[u.var];
        for ix in &u.index {
            if let Index::Term(x) = ix {
                if let Some(w) = bad_term(x) {
                    return out(format!("{w} in an update of `{name}`"), u.span);
                }
                if proc_quantifier(x) {
                    return out(
                        format!("a quantifier over processes in an index of `{name}`"),
                        u.span,
                    );
                }
            }
        }
        match &u.value {
            UpdValue::Term(x) => {
                if let Some(w) = bad_term(x) {
                    return out(format!("{w} in an update of `{name}`"), u.span);
                }
                if proc_quantifier(x) {
                    return out(
                        format!(
                            "a quantifier over processes in an update of `{name}` (updates and `case` conditions must be free of them)"
                        ),
                        u.span,
                    );
                }
            }
            UpdValue::Nondet => {
                if target.ty == Ty::Proc {
                    involved += 1;
                }
            }
            UpdValue::Any { cond, .. } => {
                if let Some(w) = bad_term(cond) {
                    return out(format!("{w} in an `any` of `{name}`"), u.span);
                }
                let mut st = Shape::default();
                if let Err(e) = walk(m, cond, Pol::Pos, false, &mut st) {
                    return out(format!("an `any` of `{name}`: {e}"), u.span);
                }
                involved += 1 + st.witnesses;
            }
        }
    }
    Ok(involved)
}

/// The cutoff for an invariant whose lemmas involve `lemmas[i]` processes each: the
/// largest restriction of the argument above, at least 1.
pub fn cutoff(f: &Fragment, lemmas: &[usize]) -> usize {
    let clause = lemmas.iter().copied().max().unwrap_or(0);
    let most = (clause + f.step).max(f.bad);
    (f.pointers + most + usize::from(f.standin)).max(1)
}

/// Whether every size has an initial state when size 1 has one: `init` blocks with at
/// most one parameter, no quantifier over processes and no process-valued cell read,
/// so that copying the one process of a size-1 initial state to every process gives
/// an initial state of any size.
pub fn init_everywhere(m: &Model) -> bool {
    m.inits.iter().all(|i| {
        i.params <= 1
            && !proc_quantifier(&i.body)
            && !scan(
                &i.body,
                &mut |x| matches!(x, Expr::Read(v, _) if m.vars[*v].ty == Ty::Proc),
            )
    })
}

#[cfg(test)]
#[path = "cutoff_tests.rs"]
mod tests;
