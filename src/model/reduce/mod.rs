//! The reduction of a model to what is asked of it, below every engine: the same
//! protocol written with a ghost counter, a stored constant row or a duplicated flag
//! gets the answers, and the cost, of the protocol without them.
//!
//! Four passes, repeated until none changes anything (after the simplifications of
//! hardware model checkers: cone of influence as in Clarke, Grumberg and Peled, *Model
//! Checking*, ch. 16; constants and equivalent cells as ABC's `scorr`, Mishchenko,
//! Case, Brayton and Jang 2008, found here from the text and checked):
//! - **constants** (`consts`): cells that no transition assigns (or only assigns their
//!   own value) and that `init` fixes to one value per cell at each size are replaced
//!   by those values; a row of per-process values becomes a table over the index
//!   (only in families that are not symmetric: a symmetric family's constants are
//!   uniform);
//! - **equivalent cells** (`equiv`): a cell kept equal to another (or to its negation)
//!   by `init` and by every transition, shown by induction on the text, is read as the
//!   other;
//! - **transitions that cannot fire** once constants are in: their guard folds to
//!   false (`fold`);
//! - **cone of influence** (`cone`): cells that nothing asked depends on (the
//!   properties; with `ltl`, fairness or deadlocks also every guard) are sliced away
//!   with their updates, and a transition left with no effect goes, unless its
//!   enabledness is observed.
//!
//! A cell is dropped only where no range error can be lost (`safe`). Transitions,
//! properties and `init` blocks keep their numbers, so that traces, coverage and
//! reports of the reduced model name the model's own items. What was reduced is
//! recorded (`Plan`): the reduced model's runs lift back to the model's
//! (`lift`), and the constants and equivalences are facts about the model that its
//! certificates carry (`Plan::facts`) and the independent checker checks.

mod build;
mod cone;
mod consts;
mod equiv;
mod fold;
pub mod lift;
pub mod safe;

use super::ir::*;

/// What is asked of a model: the properties checked, and whether the enabledness of
/// the transitions is observed (`ltl` properties, weak fairness, deadlocks).
#[derive(Clone, Debug, Default)]
pub struct Asked {
    /// The `unsafe` and `invariant` properties (indices into `model.unsafes`).
    pub props: Vec<usize>,
    /// The `ltl` properties (indices into `model.ltls`).
    pub ltls: Vec<usize>,
    /// Deadlocks are reported.
    pub deadlock: bool,
    /// Only weakly fair runs count (for the `ltl` properties).
    pub fair: bool,
}

impl Asked {
    /// Whether every transition's enabledness is observed: a transition may then lose
    /// its effect but not its guard.
    pub fn enabledness(&self) -> bool {
        self.deadlock || self.fair || !self.ltls.is_empty()
    }
}

/// A cell replaced by its values: per size, the value of every cell in layout order.
#[derive(Clone, Debug)]
pub struct Constant {
    pub var: VarId,
    pub values: Vec<(usize, Vec<i64>)>,
}

impl Constant {
    /// A `proc`-indexed row whose cell j holds j (each process's own id, stored): it
    /// reads as its index, which keeps a family's symmetry.
    pub fn identity(&self, m: &Model) -> bool {
        m.vars[self.var].dims == [Ty::Proc]
            && m.vars[self.var].ty == Ty::Proc
            && self
                .values
                .iter()
                .all(|(_, v)| v.iter().enumerate().all(|(j, &x)| x == j as i64 + 1))
    }

    /// Every cell holds the same value at every size.
    pub fn uniform(&self) -> Option<i64> {
        let first = *self.values.first()?.1.first()?;
        self.values
            .iter()
            .all(|(_, v)| v.iter().all(|&x| x == first))
            .then_some(first)
    }
}

/// A cell read as another: `var` equals `into` (or its negation, for `bool` cells).
#[derive(Clone, Debug)]
pub struct Merge {
    pub var: VarId,
    pub into: VarId,
    pub negated: bool,
}

/// Why a transition is not in the reduced model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dropped {
    /// Its guard is false once the constants are in.
    CannotFire,
    /// It writes no cell anything asked depends on, cannot meet a range error, and its
    /// enabledness is not observed.
    NoEffect,
}

/// What the reduction did to a model, and the reduced model (not read back yet: the
/// caller prints it and reads it back, `lang::read_back`).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The reduced model: the model's items in their places, the variables that remain
    /// (`kept`, in order), dropped transitions with guard `False` and no updates.
    pub model: Model,
    /// Per variable of the model: its number in the reduced model, if it remains.
    pub kept: Vec<Option<VarId>>,
    /// Variables nothing asked depends on (by the cone of influence).
    pub sliced: Vec<VarId>,
    pub constants: Vec<Constant>,
    pub merged: Vec<Merge>,
    /// Transitions (indices into `model.transitions`) that are gone, and why.
    pub dropped: Vec<(usize, Dropped)>,
    /// The sizes the plan is for.
    pub sizes: (usize, usize),
    /// The model after the constants and equivalences were substituted, before the
    /// cone was taken (the model's numbering): where the sliced cells' `init` is read.
    pub before: Model,
}

impl Plan {
    /// Whether the reduction changed nothing.
    pub fn is_empty(&self) -> bool {
        self.sliced.is_empty()
            && self.constants.is_empty()
            && self.merged.is_empty()
            && self.dropped.is_empty()
    }

    /// One line for the header: what was reduced and why, e.g.
    /// `K[*], Mem[*], Ptr: read by no property; Odd[*]: constant`.
    pub fn summary(&self, m: &Model) -> String {
        let name = |v: VarId| {
            let x = &m.vars[v];
            if x.dims.is_empty() {
                x.name.clone()
            } else {
                format!("{}[*]", x.name)
            }
        };
        let names =
            |vs: &mut dyn Iterator<Item = VarId>| vs.map(name).collect::<Vec<_>>().join(", ");
        let mut parts = Vec::new();
        if !self.sliced.is_empty() {
            parts.push(format!(
                "{}: read by nothing asked",
                names(&mut self.sliced.iter().copied())
            ));
        }
        if !self.constants.is_empty() {
            parts.push(format!(
                "{}: constant",
                names(&mut self.constants.iter().map(|c| c.var))
            ));
        }
        for g in &self.merged {
            parts.push(format!(
                "{}: equal to {}{}",
                name(g.var),
                if g.negated { "not " } else { "" },
                name(g.into)
            ));
        }
        let gone = |why: Dropped| -> Vec<&str> {
            self.dropped
                .iter()
                .filter(|d| d.1 == why)
                .map(|d| m.transitions[d.0].name.as_str())
                .collect()
        };
        let (never, idle) = (gone(Dropped::CannotFire), gone(Dropped::NoEffect));
        if !never.is_empty() {
            parts.push(format!("{}: cannot fire", never.join(", ")));
        }
        if !idle.is_empty() {
            parts.push(format!("{}: no effect on what is asked", idle.join(", ")));
        }
        parts.join("; ")
    }
}

/// The reduction of `m` for what `asked` asks at sizes `min..=max` (see the module
/// comment); `Plan::is_empty` when nothing can be reduced.
pub fn plan(m: &Model, asked: &Asked, (min, max): (usize, usize)) -> Plan {
    let sizes: Vec<usize> = (min.max(1)..=max.max(1)).collect();
    let mut cur = m.clone();
    let mut constants: Vec<Constant> = Vec::new();
    let mut merged: Vec<Merge> = Vec::new();
    let mut dropped: Vec<(usize, Dropped)> = Vec::new();
    loop {
        let mut changed = false;
        for c in consts::find(&cur, &sizes, &dropped) {
            consts::substitute(&mut cur, &c, &sizes);
            constants.push(c);
            changed = true;
        }
        for g in equiv::find(&cur, &sizes, &dropped) {
            equiv::substitute(&mut cur, &g);
            merged.push(g);
            changed = true;
        }
        fold::model(&mut cur, &sizes);
        for t in 0..cur.transitions.len() {
            if !dropped.iter().any(|d| d.0 == t) && fold::is_false(&cur.transitions[t].guard) {
                dropped.push((t, Dropped::CannotFire));
                build::disable(&mut cur, t);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let cone = cone::cone(&cur, asked, &sizes, &dropped);
    for t in cone.idle {
        dropped.push((t, Dropped::NoEffect));
        build::disable(&mut cur, t);
    }
    dropped.sort_unstable();
    let gone = |v: VarId| constants.iter().any(|c| c.var == v) || merged.iter().any(|g| g.var == v);
    let sliced: Vec<VarId> = (0..m.vars.len())
        .filter(|&v| !cone.cells[v] && !gone(v))
        .collect();
    let keep: Vec<bool> = (0..m.vars.len()).map(|v| cone.cells[v]).collect();
    let (model, kept) = build::restrict(&cur, &keep);
    Plan {
        before: cur,
        model,
        kept,
        sliced,
        constants,
        merged,
        dropped,
        sizes: (min, max),
    }
}

/// The model with only the cone's slice applied: the sliced variables gone with their
/// updates, the transitions that go as idle disabled, the constants and equivalent
/// cells still state (where the reduction's facts about them are checked for every n,
/// `proof::reduced`). Its numbering of transitions and properties is the model's.
pub fn sliced_only(m: &Model, plan: &Plan) -> Model {
    let mut cur = m.clone();
    for &(t, why) in &plan.dropped {
        if why == Dropped::NoEffect {
            build::disable(&mut cur, t);
        }
    }
    let keep: Vec<bool> = (0..m.vars.len())
        .map(|v| !plan.sliced.contains(&v))
        .collect();
    build::restrict(&cur, &keep).0
}

/// Apply `f` to every formula and term of the model: guards, update indices, values and
/// `any` conditions, properties, `ltl` atoms and `init` bodies.
fn rewrite_all(m: &mut Model, f: &mut dyn FnMut(&Expr) -> Expr) {
    for t in &mut m.transitions {
        t.guard = f(&t.guard);
        for u in &mut t.updates {
            for ix in &mut u.index {
                if let Index::Term(e) = ix {
                    *e = f(e);
                }
            }
            match &mut u.value {
                UpdValue::Term(e) => *e = f(e),
                UpdValue::Any { cond, .. } => *cond = f(cond),
                UpdValue::Nondet => {}
            }
        }
    }
    for u in &mut m.unsafes {
        u.body = f(&u.body);
        for c in &mut u.conjuncts {
            c.expr = f(&c.expr);
        }
    }
    for l in &mut m.ltls {
        l.body = map_atoms(&l.body, f);
    }
    for i in &mut m.inits {
        i.body = f(&i.body);
    }
}

/// The LTL formula with `f` applied to its state formulas.
fn map_atoms(l: &Ltl, f: &mut dyn FnMut(&Expr) -> Expr) -> Ltl {
    let one = |a: &Ltl, f: &mut dyn FnMut(&Expr) -> Expr| Box::new(map_atoms(a, f));
    match l {
        Ltl::Atom(e) => Ltl::Atom(f(e)),
        Ltl::Not(a) => Ltl::Not(one(a, f)),
        Ltl::Next(a) => Ltl::Next(one(a, f)),
        Ltl::Globally(a) => Ltl::Globally(one(a, f)),
        Ltl::Finally(a) => Ltl::Finally(one(a, f)),
        Ltl::And(a, b) => Ltl::And(one(a, f), one(b, f)),
        Ltl::Or(a, b) => Ltl::Or(one(a, f), one(b, f)),
        Ltl::Imp(a, b) => Ltl::Imp(one(a, f), one(b, f)),
        Ltl::Iff(a, b) => Ltl::Iff(one(a, f), one(b, f)),
        Ltl::Until(a, b) => Ltl::Until(one(a, f), one(b, f)),
        Ltl::Release(a, b) => Ltl::Release(one(a, f), one(b, f)),
        Ltl::WeakUntil(a, b) => Ltl::WeakUntil(one(a, f), one(b, f)),
    }
}

/// The variables `e` reads.
pub(crate) fn reads(e: &Expr, out: &mut [bool]) {
    e.walk(&mut |x| {
        if let Expr::Read(v, _) = x {
            out[*v] = true;
        }
        true
    });
}

/// The conjunction of `cs`: `True` for none, the formula itself for one.
fn and(mut cs: Vec<Expr>) -> Expr {
    match cs.len() {
        0 => Expr::tt(),
        1 => cs.pop().unwrap_or_else(Expr::tt),
        _ => Expr::And(cs),
    }
}

/// The top-level conjuncts of a formula (`&&` flattened).
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(xs) => xs.iter().flat_map(conjuncts).collect(),
        e => vec![e],
    }
}

/// The updates of live transitions that write variable `v`.
fn writes<'a>(
    m: &'a Model,
    dropped: &'a [(usize, Dropped)],
    v: VarId,
) -> impl Iterator<Item = (usize, &'a Update)> + 'a {
    m.transitions
        .iter()
        .enumerate()
        .filter(move |(t, _)| !dropped.iter().any(|d| d.0 == *t))
        .flat_map(move |(t, tr)| {
            tr.updates
                .iter()
                .filter(move |u| u.var == v)
                .map(move |u| (t, u))
        })
}
