//! Unbounded integers replaced by their rank. A class of `int` cells (globals and
//! arrays over processes) whose values only flow among themselves (copies, `case`
//! results), are compared with each other and with literals, and grow only by
//! `X + k` (k ≥ 1 a literal) where X is at least every value of the class, can be
//! checked exactly on states whose values above the class's largest literal c are
//! renumbered c+1, c+2, ... in order (equal values share a rank); values ≤ c stay as
//! they are.
//!
//! Why it is exact: the renumbering f of a state is strictly increasing and the
//! identity up to c, so every comparison of two cells, and of a cell with a literal
//! (all ≤ c), has the same truth on s and on f(s); copies commute with f; an increment
//! `X + k` from the largest value gives a new strict maximum on both sides, or the
//! same value ≤ c when X + k ≤ c. So a transition is enabled on s exactly when it is on
//! f(s), and f(succ(s)) = f(succ(f(s))): the ranked system is bisimilar to the
//! unbounded one, and finite at each size (at most c + cells ranks). It is the
//! data-abstraction argument for "data-independent with order" systems (Lazić and
//! Nowak, "A unifying approach to data-independence", CONCUR 2000), restricted to the
//! increment-from-the-maximum that tickets, clocks and round numbers use (Abdulla,
//! Delzanno and Rezine, "Parameterized verification of infinite-state processes with
//! global conditions", CAV 2007, treat Lamport's bakery this way).
//!
//! Whether `X` is the maximum is proved from the text when one global `G` of the class
//! only ever grows by increments of itself, starts at least as high as every literal of
//! the class, and every other cell of the class only receives copies and literals:
//! then G bounds the class in every reachable state. Otherwise it is checked on every
//! firing during the search (`RankInst::check`): a firing that increments a value that
//! is not the largest, above c, stops the search with an error naming the transition
//! and the cells (never a silent wrong answer).

use super::classes::VarClasses;
use crate::model::eval;
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::source::Span;

/// Why a model's ints are not ranked: the construct, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRanked {
    pub what: String,
    pub span: Span,
}

/// `G := X + k` in transition `trans`: an increment of the class's values.
#[derive(Clone, Debug)]
pub struct Inc {
    pub trans: usize,
    /// The cell read (`X`), over the transition's parameters.
    pub base: Expr,
    pub amount: i64,
    /// The target variable.
    pub target: VarId,
}

/// A class of int variables ranked together.
#[derive(Clone, Debug)]
pub struct Class {
    pub vars: Vec<VarId>,
    /// The largest literal the class is compared with, initialised to or stores.
    pub cap: i64,
    /// The largest increment.
    pub max_inc: i64,
    pub incs: Vec<Inc>,
    /// The global proved to bound the class (its increments need no check).
    pub top: Option<VarId>,
}

/// Every int variable of a model, in classes that qualify.
#[derive(Clone, Debug)]
pub struct Ranking {
    pub classes: Vec<Class>,
}

/// What a term is, for the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum T {
    Cell(VarId),
    Lit(i64),
    Other,
}

struct Walk<'m> {
    m: &'m Model,
    classes: VarClasses,
    /// Literals met with each variable (compared, stored, initialised).
    lits: Vec<(VarId, i64)>,
    /// Stores into int variables: (target, source term).
    stores: Vec<(VarId, T)>,
    incs: Vec<Inc>,
    span: Span,
    /// Where the walk is (for the note): `transition `t``, `init`, ...
    place: String,
}

impl Walk<'_> {
    fn is_int(&self, v: VarId) -> bool {
        self.m.is_int_var(v)
    }

    fn no(&self, what: String) -> NotRanked {
        NotRanked {
            what: format!("{what} ({})", self.place),
            span: self.span,
        }
    }

    fn name(&self, v: VarId) -> &str {
        &self.m.vars[v].name
    }

    /// A term in a comparison or a store.
    fn term(&mut self, e: &Expr) -> Result<T, NotRanked> {
        if let Some(k) = e.int_literal() {
            return Ok(T::Lit(k));
        }
        match e {
            Expr::Read(v, ix) if self.is_int(*v) => {
                for x in ix {
                    self.formula(x)?;
                }
                Ok(T::Cell(*v))
            }
            _ => match self.m.first_int_read(e) {
                Some(v) => Err(self.no(match e {
                    Expr::Arith(op, ..) => format!(
                        "arithmetic (`{}`) on the int `{}` outside an increment stored in an int",
                        match op {
                            ArithOp::Add => "+",
                            ArithOp::Sub => "-",
                            ArithOp::Mul => "*",
                        },
                        self.name(v)
                    ),
                    Expr::Ite(..) => format!(
                        "an `if`/`case` term over the int `{}` outside a store",
                        self.name(v)
                    ),
                    _ => format!(
                        "the int `{}` used other than compared or copied",
                        self.name(v)
                    ),
                })),
                None => {
                    self.formula(e)?;
                    Ok(T::Other)
                }
            },
        }
    }

    /// A formula or a term that must not hold an int value.
    fn formula(&mut self, e: &Expr) -> Result<(), NotRanked> {
        match e {
            Expr::Cmp(_, a, b) => {
                let (ta, tb) = (self.term(a)?, self.term(b)?);
                match (ta, tb) {
                    (T::Cell(v), T::Cell(w)) => self.classes.union(v, w),
                    (T::Cell(v), T::Lit(k)) | (T::Lit(k), T::Cell(v)) => self.lits.push((v, k)),
                    (T::Cell(v), T::Other) | (T::Other, T::Cell(v)) => {
                        return Err(self.no(format!(
                            "the int `{}` compared with a term that is neither an int cell nor a literal",
                            self.name(v)
                        )));
                    }
                    _ => {}
                }
                Ok(())
            }
            Expr::Read(v, _) if self.is_int(*v) => Err(self.no(format!(
                "the int `{}` used other than compared or copied",
                self.name(*v)
            ))),
            Expr::Quant(q) if matches!(q.dom, Domain::Type(t) if self.m.is_int_ty(t)) => {
                Err(self.no("a quantifier over `int`".into()))
            }
            _ => e.try_for_each_child(|x| self.formula(x)),
        }
    }

    /// The value stored into int variable `v` by an update of transition `t`; `top`:
    /// not under a `case` (increments are allowed there only).
    fn stored(
        &mut self,
        v: VarId,
        t: usize,
        e: &Expr,
        top: bool,
        bound: bool,
    ) -> Result<(), NotRanked> {
        if let Expr::Ite(c, a, b, _) = e {
            self.formula(c)?;
            self.stored(v, t, a, false, bound)?;
            return self.stored(v, t, b, false, bound);
        }
        if let Expr::Arith(ArithOp::Add, a, b) = e {
            let (x, k) = match (a.int_literal(), b.int_literal()) {
                (None, Some(k)) => (&**a, k),
                (Some(k), None) => (&**b, k),
                _ => (e, 0),
            };
            if k >= 1 {
                let tx = self.term(x)?;
                let T::Cell(w) = tx else {
                    return Err(self.no(format!(
                        "`+ {k}` stored into the int `{}` of a term that is not an int cell",
                        self.name(v)
                    )));
                };
                if !top {
                    return Err(self.no(format!(
                        "an increment of `{}` inside a `case` or `if`",
                        self.name(w)
                    )));
                }
                if bound {
                    return Err(self.no(format!(
                        "an increment stored into `{}` over every process (`{}[j] := ...`)",
                        self.name(v),
                        self.name(v)
                    )));
                }
                let params = self.m.transitions[t].params;
                let mut locals_ok = true;
                x.walk(&mut |y| {
                    if let Expr::Local(id) = y {
                        locals_ok &= *id < params;
                    }
                    true
                });
                if !locals_ok {
                    return Err(self.no(format!(
                        "an increment of `{}` indexed by a bound name",
                        self.name(w)
                    )));
                }
                self.classes.union(v, w);
                self.stores.push((v, T::Cell(w)));
                self.incs.push(Inc {
                    trans: t,
                    base: x.clone(),
                    amount: k,
                    target: v,
                });
                return Ok(());
            }
        }
        match self.term(e)? {
            T::Cell(w) => {
                self.classes.union(v, w);
                self.stores.push((v, T::Cell(w)));
            }
            T::Lit(k) => {
                self.lits.push((v, k));
                self.stores.push((v, T::Lit(k)));
            }
            T::Other => {
                return Err(self.no(format!(
                    "a term that is neither an int cell, a literal nor an increment stored into the int `{}`",
                    self.name(v)
                )));
            }
        }
        Ok(())
    }
}

/// The literal each int variable is fixed to by a top-level `init` conjunct
/// `V[z..] = k`.
fn init_values(m: &Model) -> Vec<(VarId, i64)> {
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::And(xs) => xs.iter().for_each(|x| conjuncts(x, out)),
            _ => out.push(e),
        }
    }
    let mut out = Vec::new();
    for i in &m.inits {
        let mut cs = Vec::new();
        conjuncts(&i.body, &mut cs);
        for c in cs {
            if let Expr::Cmp(CmpOp::Eq, a, b) = c {
                match (&**a, &**b) {
                    (Expr::Read(v, _), x) | (x, Expr::Read(v, _)) if m.is_int_var(*v) => {
                        if let Some(k) = x.int_literal() {
                            out.push((*v, k));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The ranking a search applies: the model's ints qualify (`analyse`) and their
/// window was not fixed by `--int-range` (which asks for that window).
pub fn applies(m: &Model) -> Option<Ranking> {
    if m.int_window.as_ref().is_some_and(|w| w.given) {
        return None;
    }
    analyse(m).ok().flatten()
}

/// Decide from the text whether every `int` of the model can be ranked (module
/// comment); `Ok(None)` for a model without ints.
pub fn analyse(m: &Model) -> Result<Option<Ranking>, NotRanked> {
    let Some(w) = &m.int_window else {
        return Ok(None);
    };
    let mut walk = Walk {
        m,
        classes: VarClasses::new(m.vars.len()),
        lits: Vec::new(),
        stores: Vec::new(),
        incs: Vec::new(),
        span: w.span,
        place: "declarations".into(),
    };
    for v in &m.vars {
        walk.span = v.span;
        if v.dims.iter().any(|&t| m.is_int_ty(t)) {
            return Err(walk.no(format!("`{}` is indexed by `int`", v.name)));
        }
        if m.is_int_ty(v.ty) && v.kind == VarKind::Const {
            return Err(walk.no(format!("the int constant `{}` (a free value)", v.name)));
        }
    }
    if let Some(&v) = w.free.first() {
        walk.span = m.vars[v].span;
        return Err(walk.no(format!(
            "`init` does not fix `{}` to a literal",
            m.vars[v].name
        )));
    }
    for i in &m.inits {
        walk.span = i.span;
        walk.place = "init".into();
        walk.formula(&i.body)?;
    }
    for u in &m.unsafes {
        walk.span = u.span;
        walk.place = u.quoted();
        walk.formula(&u.body)?;
    }
    for l in &m.ltls {
        walk.span = l.span;
        walk.place = format!("ltl `{}`", l.name);
        for a in l.body.atoms() {
            walk.formula(a)?;
        }
    }
    walk.transitions()?;
    Ok(Some(Ranking {
        classes: rank_classes(&mut walk),
    }))
}

impl Walk<'_> {
    /// Every transition's guard and updates walked: a store into an int is recorded
    /// (`stored`), and an int may flow nowhere but into an int.
    fn transitions(&mut self) -> Result<(), NotRanked> {
        let m = self.m;
        for (ti, t) in m.transitions.iter().enumerate() {
            self.span = t.span;
            self.place = format!("transition `{}`", t.name);
            self.formula(&t.guard)?;
            for u in &t.updates {
                self.span = u.span;
                for ix in &u.index {
                    if let Index::Term(x) = ix {
                        self.formula(x)?;
                    }
                }
                let bound = u.index.iter().any(|x| matches!(x, Index::Bind(_)));
                match &u.value {
                    UpdValue::Term(e) if m.is_int_var(u.var) => {
                        self.stored(u.var, ti, e, true, bound)?
                    }
                    UpdValue::Term(e) => {
                        if let T::Cell(v) = self.term(e)? {
                            return Err(self.no(format!(
                                "the int `{}` copied into `{}`, which is not an int",
                                m.vars[v].name, m.vars[u.var].name
                            )));
                        }
                    }
                    UpdValue::Nondet if m.is_int_var(u.var) => {
                        return Err(self.no(format!(
                            "`{} := .` (any value of the int window)",
                            m.vars[u.var].name
                        )));
                    }
                    UpdValue::Nondet => {}
                    UpdValue::Any { cond, .. } => self.formula(cond)?,
                }
            }
        }
        Ok(())
    }
}

/// The classes of ints that share values, each with its largest literal (a class with
/// none is left out), its increments and the global proved to bound it.
fn rank_classes(walk: &mut Walk) -> Vec<Class> {
    let m = walk.m;
    let inits = init_values(m);
    let ints: Vec<VarId> = (0..m.vars.len()).filter(|&v| m.is_int_var(v)).collect();
    let mut roots: Vec<VarId> = Vec::new();
    for &v in &ints {
        let r = walk.classes.find(v);
        if !roots.contains(&r) {
            roots.push(r);
        }
    }
    let mut classes = Vec::new();
    for r in roots {
        let vars: Vec<VarId> = ints
            .iter()
            .copied()
            .filter(|&v| walk.classes.find(v) == r)
            .collect();
        let lit_of = |xs: &[(VarId, i64)]| -> Vec<i64> {
            xs.iter()
                .filter(|(v, _)| vars.contains(v))
                .map(|&(_, k)| k)
                .collect()
        };
        let lits = lit_of(&walk.lits);
        let Some(&cap) = lits.iter().max() else {
            continue;
        };
        let incs: Vec<Inc> = walk
            .incs
            .iter()
            .filter(|i| vars.contains(&i.target))
            .cloned()
            .collect();
        let max_inc = incs.iter().map(|i| i.amount).max().unwrap_or(0);
        let stores: Vec<(VarId, T)> = walk
            .stores
            .iter()
            .copied()
            .filter(|(v, _)| vars.contains(v))
            .collect();
        let top = proved_top(m, &vars, cap, &incs, &stores, &inits);
        classes.push(Class {
            vars,
            cap,
            max_inc,
            incs,
            top,
        });
    }
    classes
}

/// The global G of the class that bounds every cell of it in every reachable state:
/// its only stores are `G := G + k`, it starts at the largest literal of the class (at
/// least every other initial value and every literal stored), and the other cells
/// receive copies of class cells and literals only. Then G ≥ every cell initially, and
/// every step keeps it (copies are ≤ the old G ≤ the new G, literals ≤ G's first
/// value ≤ G).
fn proved_top(
    m: &Model,
    vars: &[VarId],
    cap: i64,
    incs: &[Inc],
    stores: &[(VarId, T)],
    inits: &[(VarId, i64)],
) -> Option<VarId> {
    let g = *vars.iter().find(|&&v| {
        m.vars[v].kind == VarKind::Global
            && incs
                .iter()
                .any(|i| i.target == v && i.base == Expr::Read(v, vec![]))
    })?;
    let g0 = inits.iter().find(|(v, _)| *v == g).map(|&(_, k)| k)?;
    if g0 < cap {
        return None;
    }
    let incs_ok = incs
        .iter()
        .all(|i| i.target == g && i.base == Expr::Read(g, vec![]));
    // The stores of G are exactly its increments.
    let g_stores = stores.iter().filter(|(v, _)| *v == g).count();
    let g_incs = incs.iter().filter(|i| i.target == g).count();
    (incs_ok && g_stores == g_incs).then_some(g)
}

impl Ranking {
    /// The ranked variables' names, class by class.
    pub fn names(&self, m: &Model) -> Vec<String> {
        self.classes
            .iter()
            .flat_map(|c| c.vars.iter().map(|&v| m.vars[v].name.clone()))
            .collect()
    }

    /// The largest value a ranked state holds at size n, plus one increment: the int
    /// window the ranked search needs (at least `lo..hi` of the model's window).
    fn ranked_hi(&self, m: &Model, n: usize) -> i64 {
        let cells = |v: VarId| -> i64 {
            m.vars[v]
                .dims
                .iter()
                .map(|&t| {
                    let (lo, hi) = match t {
                        Ty::Proc => (1, n as i64),
                        Ty::Bool => (0, 1),
                        Ty::Enum(e) => (0, m.enums[e].ctors.len() as i64 - 1),
                        Ty::Range(r) => {
                            (m.ranges[r].lo.eval(n as i64), m.ranges[r].hi.eval(n as i64))
                        }
                        Ty::Int => (0, 0),
                    };
                    (hi - lo + 1).max(0)
                })
                .product()
        };
        self.classes
            .iter()
            .map(|c| c.cap + c.vars.iter().map(|&v| cells(v)).sum::<i64>() + c.max_inc)
            .max()
            .unwrap_or(i64::MIN)
    }

    /// The largest value a run of `depth` steps from an initial state reaches on the
    /// unranked instance, plus one more step (initial values are literals ≤ cap).
    pub fn concrete_hi(&self, depth: usize) -> i64 {
        self.classes
            .iter()
            .map(|c| c.cap + (depth as i64 + 1) * c.max_inc)
            .max()
            .unwrap_or(i64::MIN)
    }

    /// `m` with the int window's top raised to `hi` (never lowered).
    pub fn with_hi(m: &Model, hi: i64) -> Model {
        let mut m = m.clone();
        if let Some(w) = m.int_window.as_mut()
            && hi > w.hi
        {
            w.hi = hi;
            m.ranges[w.range].hi = SizeExpr::Lit(hi);
        }
        m
    }

    /// The model the ranked search of size n runs on: the window wide enough for
    /// every ranked state and one increment.
    pub fn model_for(&self, m: &Model, n: usize) -> Model {
        Ranking::with_hi(m, self.ranked_hi(m, n))
    }
}

/// A ranking laid out on an instance: the slots of each class.
#[derive(Clone, Debug)]
pub struct RankInst {
    classes: Vec<(Vec<usize>, i64)>,
    /// Per transition of the model: the increments checked on every firing (class,
    /// base, amount).
    checks: Vec<Vec<(usize, Expr, i64)>>,
}

impl RankInst {
    pub fn new(r: &Ranking, inst: &Instance) -> RankInst {
        let classes = r
            .classes
            .iter()
            .map(|c| {
                let slots = (0..inst.slots.len())
                    .filter(|&s| c.vars.contains(&inst.slots[s].var))
                    .collect();
                (slots, c.cap)
            })
            .collect();
        let mut checks = vec![Vec::new(); inst.model.transitions.len()];
        for (k, c) in r.classes.iter().enumerate() {
            if c.top.is_some() {
                continue;
            }
            for i in &c.incs {
                checks[i.trans].push((k, i.base.clone(), i.amount));
            }
        }
        RankInst { classes, checks }
    }

    /// Renumber the values above each class's cap by rank (module comment).
    pub fn normalize(&self, st: &mut [i64], buf: &mut Vec<i64>) {
        for (slots, cap) in &self.classes {
            buf.clear();
            buf.extend(slots.iter().map(|&s| st[s]).filter(|v| v > cap));
            if buf.is_empty() {
                continue;
            }
            buf.sort_unstable();
            buf.dedup();
            for &s in slots {
                if st[s] > *cap {
                    let r = buf.binary_search(&st[s]).unwrap_or(0) as i64;
                    st[s] = cap + 1 + r;
                }
            }
        }
    }

    /// Whether transition `t` has increments checked on every firing.
    pub fn checks(&self, t: usize) -> bool {
        !self.checks[t].is_empty()
    }

    /// Check the increments of transition `t` fired with `params` on `st` (which
    /// enables it): an increment above the cap must be from the largest value of its
    /// class. The error names the transition and the cells.
    pub fn check(
        &self,
        inst: &Instance,
        st: &[i64],
        t: usize,
        params: &[i64],
    ) -> Result<(), String> {
        let tr = &inst.model.transitions[t];
        for (k, base, amount) in &self.checks[t] {
            let mut env = vec![0; tr.locals.len().max(params.len())];
            env[..params.len()].copy_from_slice(params);
            let x = eval::eval(inst, st, &mut env, base).map_err(|e| e.message)?;
            let (slots, cap) = &self.classes[*k];
            let Some(&top) = slots.iter().max_by_key(|&&s| st[s]) else {
                continue;
            };
            if x + amount > *cap && x < st[top] {
                let ps: Vec<String> = params.iter().map(|p| format!("#{p}")).collect();
                let cell = match base {
                    Expr::Read(v, ix) => {
                        let mut env2 = env.clone();
                        let ix: Option<Vec<i64>> = ix
                            .iter()
                            .map(|e| eval::eval(inst, st, &mut env2, e).ok())
                            .collect();
                        ix.and_then(|ix| inst.slot_of(*v, &ix))
                            .map(|s| inst.cell_name(s))
                            .unwrap_or_else(|| inst.model.vars[*v].name.clone())
                    }
                    _ => "the increment's cell".into(),
                };
                return Err(format!(
                    "ints cannot be ranked at size {}: transition `{}`({}) adds {amount} to `{cell}`, which is not the largest int of its class (`{}` is larger), above the largest literal {cap}; ranking is exact only for increments from the maximum (run with --no-rank-ints to check over the int window)",
                    inst.n,
                    tr.name,
                    ps.join(", "),
                    inst.cell_name(top),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    const HEAD: &str =
        "type loc = I | W | C\narray P[proc] : loc\narray T[proc] : int\nvar M : int\n";

    fn ranked(body: &str) -> Result<Option<Ranking>, NotRanked> {
        // A window given, so that a literal-valued model keeps its ints (the loader
        // reads those as an enumeration otherwise, `model::ints::literal`).
        let opts = crate::lang::LoadOptions {
            int_range: Some((-2, 5)),
            ..Default::default()
        };
        let m = crate::lang::load_str_with("t.cub", &format!("{HEAD}{body}"), &opts).unwrap();
        analyse(&m)
    }

    #[test]
    fn a_ticket_taken_from_a_growing_maximum_is_ranked_and_proved() {
        let r = ranked(
            "init (x) { P[x] = I && T[x] = 0 && M = 1 }\nunsafe (x y) { P[x] = C && P[y] = C }\n\
             transition take (x) requires { P[x] = I } { P[x] := W; T[x] := M; M := M + 1; }\n\
             transition enter (x) requires { P[x] = W && forall_other j. (T[j] = 0 || T[x] < T[j]) } { P[x] := C; }\n\
             transition leave (x) requires { P[x] = C } { P[x] := I; T[x] := 0; }\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.classes.len(), 1);
        let c = &r.classes[0];
        assert_eq!((c.cap, c.max_inc, c.vars.len()), (1, 1, 2));
        assert!(c.top.is_some());
    }

    #[test]
    fn constructs_outside_the_fragment_are_named() {
        let base =
            "init (x) { P[x] = I && T[x] = 0 && M = 1 }\nunsafe (x y) { P[x] = C && P[y] = C }\n";
        let no = |t: &str| ranked(&format!("{base}{t}")).unwrap_err().what;
        assert!(
            no("transition t (x) { T[x] := T[x] + M; }")
                .contains("arithmetic (`+`) on the int `T`")
        );
        assert!(
            no("transition t (x) requires { T[x] + 1 < M } { P[x] := W; }").contains("arithmetic")
        );
        assert!(
            no("transition t (x) requires { T[x] < x } { P[x] := W; }").contains("compared with")
        );
        assert!(no("transition t (x) { M := M - 1; }").contains("arithmetic"));
        assert!(no("transition t (x) { M := .; }").contains("M := ."));
        // An increment of a non-maximum is allowed by the text, but not proved.
        let r = ranked(&format!("{base}transition t (x) {{ T[x] := T[x] + 1; }}"))
            .unwrap()
            .unwrap();
        assert!(r.classes[0].top.is_none());
    }

    #[test]
    fn ranks_renumber_values_above_the_cap_in_order() {
        let m = load_str(
            "t.cub",
            &format!(
                "{HEAD}init (x) {{ P[x] = I && T[x] = 0 && M = 1 }}\nunsafe (x y) {{ P[x] = C && P[y] = C }}\n\
                 transition t (x) {{ T[x] := M; M := M + 1; }}\n"
            ),
        )
        .unwrap();
        let r = analyse(&m).unwrap().unwrap();
        let m2 = r.model_for(&m, 3);
        let inst = Instance::new(&m2, 3);
        let ri = RankInst::new(&r, &inst);
        // Slots: P[1..3], T[1..3], M (declaration order).
        let mut st = vec![0, 0, 0, 7, 0, 1, 9];
        ri.normalize(&mut st, &mut Vec::new());
        // 0 and 1 stay (cap 1); 7 and 9 become 2 and 3.
        assert_eq!(st, vec![0, 0, 0, 2, 0, 1, 3]);
    }
}
