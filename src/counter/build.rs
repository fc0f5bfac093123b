//! The counter model of one width: classes, transitions as moves between classes,
//! properties as count tests, place invariants eliminating counters (module comment of
//! `counter`).

use super::cyclic::Cyclic;
use super::{domain, fold, simplify};
use crate::model::dead;
use crate::model::ir::*;
use std::collections::HashMap;

/// The counter model of a family at one width, and how to read its lemmas back.
#[derive(Clone, Debug)]
pub struct CounterView {
    pub width: usize,
    /// The counter model, read back through the front end.
    pub model: Model,
    /// Each counter variable's name and the count it stands for (`#{x : P(x)}`).
    pub counts: Vec<(String, String)>,
    /// The place invariants as lemma bodies (`#{x : P(x)} <> E`, inside `not (...)`).
    pub equalities: Vec<String>,
    /// The integer globals that count processes: each appears in a place invariant
    /// with the counts of some classes (`Cnt` in `#{x : Pc[x] = Reading} = Cnt`). Empty
    /// when no global counts processes; the view then has nothing to offer that a
    /// clause over a few processes cannot say (`ic3::counter_view`).
    pub counters: Vec<String>,
    /// The number of local-state classes (before elimination).
    pub classes: usize,
    /// Cyclic counters (`cyclic`): the counters read relative to the reference, its
    /// name, M. Empty names when the view holds absolute values.
    pub relative: (Vec<String>, String, i64),
}

impl CounterView {
    /// A lemma body of the counter model as a formula of the family: every counter
    /// replaced by the count it stands for.
    pub fn translate(&self, body: &str) -> String {
        let (rel, reference, big) = &self.relative;
        let body = if rel.is_empty() {
            body.to_string()
        } else {
            // IC3's atoms `X OP v` over a relative counter, read back over X and S.
            body.split(" && ")
                .map(|atom| {
                    let mut w = atom.splitn(3, ' ');
                    match (w.next(), w.next(), w.next()) {
                        (Some(x), Some(op), Some(v)) if rel.iter().any(|r| r == x) => {
                            super::cyclic::atom_text(x, reference, *big, op, v)
                        }
                        _ => atom.to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" && ")
        };
        let mut out = String::new();
        let mut word = String::new();
        let flush = |w: &mut String, out: &mut String| {
            if !w.is_empty() {
                let t = std::mem::take(w);
                match self.counts.iter().find(|(n, _)| *n == t) {
                    Some((_, c)) => out.push_str(c),
                    None => out.push_str(&t),
                }
            }
        };
        for ch in body.chars() {
            if ch.is_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                flush(&mut word, &mut out);
                out.push(ch);
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

/// What the substitution knows: the classes of the process locals, the values of the
/// locals bound to a type, the new ids of globals and counters.
pub(super) struct Ctx<'a> {
    pub(super) m: &'a Model,
    pub(super) n: usize,
    pub(super) locals: &'a [VarId],
    pub(super) classes: &'a [Vec<i64>],
    pub(super) gid: &'a HashMap<VarId, VarId>,
    /// The counter reads, per class (a variable or its elimination).
    pub(super) count: &'a [Expr],
    /// Cyclic counters: values are relative to the reference counter (`cyclic`).
    pub(super) cyc: Option<&'a Cyclic>,
}

impl Ctx<'_> {
    fn local_index(&self, v: VarId) -> Option<usize> {
        self.locals.iter().position(|&x| x == v)
    }

    /// `e` with the process locals `procs` (local id → class) and `vals` (local id →
    /// value) substituted.
    fn sub(
        &self,
        e: &Expr,
        procs: &[(LocalId, usize)],
        vals: &[(LocalId, i64)],
    ) -> Result<Expr, String> {
        let r = |x: &Expr| self.sub(x, procs, vals);
        Ok(match e {
            Expr::Const(..) | Expr::Size => e.clone(),
            Expr::Local(id) => match vals.iter().find(|(l, _)| l == id) {
                Some(&(_, v)) => Expr::Const(v, Ty::Int),
                None => return Err("a process id is used as a value".into()),
            },
            Expr::Read(v, ix) if ix.is_empty() => match self.cyc {
                Some(c) if c.reference == *v => Expr::Const(0, self.m.vars[*v].ty),
                _ => Expr::Read(self.gid[v], vec![]),
            },
            Expr::Read(v, ix) => {
                let (Some(k), [Expr::Local(p)]) = (self.local_index(*v), ix.as_slice()) else {
                    return Err(format!(
                        "`{}` is read at another index",
                        self.m.vars[*v].name
                    ));
                };
                let Some(&(_, c)) = procs.iter().find(|(l, _)| l == p) else {
                    return Err("a cell is indexed by a name that is no process".into());
                };
                Expr::Const(self.classes[c][k], self.m.vars[*v].ty)
            }
            Expr::Arith(op, a, b) => Expr::Arith(*op, Box::new(r(a)?), Box::new(r(b)?)),
            Expr::Cmp(op, a, b) => Expr::Cmp(*op, Box::new(r(a)?), Box::new(r(b)?)),
            Expr::Not(a) => Expr::Not(Box::new(r(a)?)),
            Expr::And(xs) => Expr::And(xs.iter().map(r).collect::<Result<_, _>>()?),
            Expr::Or(xs) => Expr::Or(xs.iter().map(r).collect::<Result<_, _>>()?),
            Expr::Imp(a, b) => Expr::Imp(Box::new(r(a)?), Box::new(r(b)?)),
            Expr::Iff(a, b) => Expr::Iff(Box::new(r(a)?), Box::new(r(b)?)),
            Expr::Ite(c, a, b, t) => {
                Expr::Ite(Box::new(r(c)?), Box::new(r(a)?), Box::new(r(b)?), *t)
            }
            Expr::Quant(q) => match q.dom {
                Domain::Type(t) => {
                    let vs = domain(self.m, t, self.n).ok_or("a quantifier over a large type")?;
                    let mut xs = Vec::new();
                    for v in vs {
                        let mut vals2 = vals.to_vec();
                        vals2.push((q.var, v));
                        xs.push(self.sub(&q.body, procs, &vals2)?);
                    }
                    if q.forall {
                        Expr::And(xs)
                    } else {
                        Expr::Or(xs)
                    }
                }
                Domain::Procs { .. } => self.count_test(q, procs, vals)?,
            },
        })
    }

    /// `forall j (not in except). body`: no process outside `except` in a class where
    /// body fails; `exists`: one in a class where it holds.
    fn count_test(
        &self,
        q: &Quant,
        procs: &[(LocalId, usize)],
        vals: &[(LocalId, i64)],
    ) -> Result<Expr, String> {
        let (forall, var, body) = (q.forall, q.var, &*q.body);
        let mut terms = Vec::new();
        let mut minus = 0i64;
        for c in 0..self.classes.len() {
            let mut p2 = procs.to_vec();
            p2.push((var, c));
            let b = simplify(self.sub(body, &p2, vals)?, self.n);
            let Some(holds) = fold(&b, self.n) else {
                return Err("a quantified formula reads globals".into());
            };
            if (holds != 0) != forall {
                terms.push(self.count[c].clone());
                for x in q.except() {
                    let Expr::Local(p) = x else {
                        return Err("a quantifier excludes a computed process".into());
                    };
                    if procs.iter().any(|&(l, cl)| l == *p && cl == c) {
                        minus += 1;
                    }
                }
            }
        }
        let sum = sum(terms, minus);
        let zero = Expr::Const(0, Ty::Int);
        Ok(if forall {
            Expr::Cmp(CmpOp::Le, Box::new(sum), Box::new(zero))
        } else {
            Expr::Cmp(CmpOp::Gt, Box::new(sum), Box::new(zero))
        })
    }
}

/// `t1 + ... + tk - minus`.
fn sum(terms: Vec<Expr>, minus: i64) -> Expr {
    let mut it = terms.into_iter();
    let mut acc = it.next().unwrap_or(Expr::Const(0, Ty::Int));
    for t in it {
        acc = Expr::Arith(ArithOp::Add, Box::new(acc), Box::new(t));
    }
    if minus > 0 {
        acc = Expr::Arith(
            ArithOp::Sub,
            Box::new(acc),
            Box::new(Expr::Const(minus, Ty::Int)),
        );
    }
    acc
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr::Cmp(op, Box::new(a), Box::new(b))
}

/// One move of the counter system before it is written out.
pub(super) struct Move {
    pub(super) name: String,
    pub(super) src: usize,
    pub(super) dst: usize,
    pub(super) guard: Expr,
    pub(super) globals: Vec<(VarId, UpdValue)>,
    /// The reference counter advances: every relative value moves down by one.
    pub(super) shift: bool,
    /// The change of each relative counter (ids of the counter model), modulo M.
    pub(super) cyc: Vec<(VarId, i64)>,
}

/// The classes of width n: the tuples of the relevant local arrays' values, with dead
/// cells set to their lowest value.
pub(super) fn classes(m: &Model, n: usize, locals: &[VarId]) -> ClassList {
    let doms: Vec<Vec<i64>> = locals
        .iter()
        .map(|&v| domain(m, m.vars[v].ty, n).ok_or("a local cell of a large type"))
        .collect::<Result<_, _>>()?;
    let deads = dead::analyse(m);
    let mut tuples: Vec<Vec<i64>> = vec![vec![]];
    for d in &doms {
        tuples = tuples
            .into_iter()
            .flat_map(|t| {
                d.iter().map(move |&x| {
                    let mut t = t.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
        if tuples.len() > 512 {
            return Err("too many local states".into());
        }
    }
    let mut out: Vec<Vec<i64>> = Vec::new();
    let mut dead_in = Vec::new();
    for mut t in tuples {
        let d = normalize(&mut t, locals, &deads, &doms);
        if !out.contains(&t) {
            out.push(t);
            dead_in.push(d);
        }
    }
    Ok((out, dead_in))
}

/// The classes, and per class which of its cells are dead.
pub(super) type ClassList = Result<(Vec<Vec<i64>>, Vec<Vec<bool>>), String>;

/// Set the dead cells of a local state to their lowest value; returns which are dead.
fn normalize(
    t: &mut [i64],
    locals: &[VarId],
    deads: &[dead::DeadArray],
    doms: &[Vec<i64>],
) -> Vec<bool> {
    let mut is_dead = vec![false; t.len()];
    for d in deads {
        let (Some(x), Some(c)) = (
            locals.iter().position(|&v| v == d.var),
            locals.iter().position(|&v| v == d.control),
        ) else {
            continue;
        };
        if d.dead.get(t[c] as usize).copied().unwrap_or(false) {
            t[x] = doms[x][0];
            is_dead[x] = true;
        }
    }
    is_dead
}

impl Ctx<'_> {
    /// Every move of every transition from every class.
    pub(super) fn moves(&self) -> Result<Vec<Move>, String> {
        let (m, n) = (self.m, self.n);
        let mut out = Vec::new();
        for t in &m.transitions {
            for c in 0..self.classes.len() {
                let guard = simplify(self.sub(&t.guard, &[(0, c)], &[])?, n);
                if fold(&guard, n) == Some(0) {
                    continue;
                }
                let mut targets = vec![(self.classes[c].clone(), vec![guard])];
                let mut globals = Vec::new();
                let (mut shift, mut advanced) = (false, Vec::new());
                for u in &t.updates {
                    let var = &m.vars[u.var];
                    if let Some(cy) = self.cyc
                        && var.dims.is_empty()
                        && cy.holds(u.var)
                    {
                        // `detect` saw an advance by one modulo M.
                        if u.var == cy.reference {
                            shift = true;
                        } else {
                            advanced.push(u.var);
                        }
                        continue;
                    }
                    if var.dims.is_empty() {
                        let v = match &u.value {
                            UpdValue::Term(e) => {
                                UpdValue::Term(simplify(self.sub(e, &[(0, c)], &[])?, n))
                            }
                            UpdValue::Nondet => UpdValue::Nondet,
                            UpdValue::Any { .. } => return Err("`any` in an update".into()),
                        };
                        globals.push((self.gid[&u.var], v));
                        continue;
                    }
                    let Some(k) = self.local_index(u.var) else {
                        continue; // a cell nothing reads
                    };
                    if !matches!(u.index.as_slice(), [Index::Term(Expr::Local(0))]) {
                        return Err(format!("`{}` is written at another process", var.name));
                    }
                    let dom = domain(m, var.ty, n).ok_or("a local cell of a large type")?;
                    let value = match &u.value {
                        UpdValue::Term(e) => Some(simplify(self.sub(e, &[(0, c)], &[])?, n)),
                        UpdValue::Nondet => None,
                        UpdValue::Any { .. } => return Err("`any` in an update".into()),
                    };
                    targets = split(targets, k, &dom, value.as_ref(), n);
                }
                let mut cyc = Vec::new();
                if let Some(cy) = self.cyc {
                    for &x in &cy.counters {
                        let d = advanced.contains(&x) as i64 - shift as i64;
                        let g = self.gid[&x];
                        if d != 0 {
                            let e = Expr::Read(g, vec![]);
                            let e = if d > 0 { cy.inc(e) } else { cy.dec(e) };
                            globals.push((g, UpdValue::Term(e)));
                        }
                        cyc.push((g, d));
                    }
                }
                if targets.len() == 1
                    && targets[0].0 == self.classes[c]
                    && globals.is_empty()
                    && !shift
                {
                    continue; // a step of cells nothing reads: a stutter here
                }
                for (j, (mut tuple, conds)) in targets.into_iter().enumerate() {
                    if shift {
                        self.shift(&mut tuple);
                    }
                    self.normalize(&mut tuple);
                    // A value outside the type is a range error: no successor.
                    let Some(dst) = self.classes.iter().position(|x| *x == tuple) else {
                        continue;
                    };
                    let mut g = vec![cmp(
                        CmpOp::Ge,
                        self.count[c].clone(),
                        Expr::Const(1, Ty::Int),
                    )];
                    g.extend(conds);
                    out.push(Move {
                        name: format!("{}_{c}_{j}", t.name.split('#').next().unwrap_or(&t.name)),
                        src: c,
                        dst,
                        guard: simplify(Expr::And(g), n),
                        globals: globals.clone(),
                        shift,
                        cyc: cyc.clone(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// Every relative cell of a local state down by one (the reference advanced).
    fn shift(&self, t: &mut [i64]) {
        let Some(cy) = self.cyc else { return };
        for (k, v) in self.locals.iter().enumerate() {
            if cy.cells.contains(v) {
                t[k] = (t[k] - 1).rem_euclid(cy.modulus());
            }
        }
    }

    /// The class each class becomes when the reference advances (a permutation).
    pub(super) fn rotation(&self) -> Vec<usize> {
        (0..self.classes.len())
            .map(|c| {
                let mut t = self.classes[c].clone();
                self.shift(&mut t);
                self.normalize(&mut t);
                self.classes.iter().position(|x| *x == t).unwrap_or(c)
            })
            .collect()
    }

    fn normalize(&self, t: &mut [i64]) {
        let doms: Vec<Vec<i64>> = self
            .locals
            .iter()
            .map(|&v| domain(self.m, self.m.vars[v].ty, self.n).unwrap_or_default())
            .collect();
        normalize(t, self.locals, &dead::analyse(self.m), &doms);
    }

    /// The initial states: a formula over the globals and the classes a process may
    /// start in.
    pub(super) fn init(&self) -> Result<(Expr, Vec<bool>), String> {
        let all = vec![true; self.classes.len()];
        let Some(i) = self.m.inits.first() else {
            return Ok((Expr::tt(), all));
        };
        // Conjuncts about cells nothing reads say nothing about the classes.
        let conj: Vec<Expr> = match &i.body {
            Expr::And(xs) => xs.clone(),
            e => vec![e.clone()],
        };
        // In relative values every cyclic counter and cell starts at 0 (`detect` saw
        // them start at one common constant).
        let conj: Vec<Expr> = conj
            .into_iter()
            .map(|e| match (&e, self.cyc) {
                (Expr::Cmp(CmpOp::Eq, a, b), Some(cy)) => match (&**a, &**b) {
                    (Expr::Read(v, _), _) | (_, Expr::Read(v, _)) if cy.holds(*v) => {
                        let r = if matches!(&**a, Expr::Read(..)) { a } else { b };
                        cmp(CmpOp::Eq, (**r).clone(), Expr::Const(0, self.m.vars[*v].ty))
                    }
                    _ => e,
                },
                _ => e,
            })
            .collect();
        let body = Expr::And(
            conj.into_iter()
                .filter(|e| {
                    let mut r = Vec::new();
                    super::reads(e, &mut r);
                    r.iter()
                        .all(|&v| self.m.vars[v].dims.is_empty() || self.locals.contains(&v))
                })
                .collect(),
        );
        if i.params == 0 {
            return Ok((simplify(self.sub(&body, &[], &[])?, self.n), all));
        }
        let mut g: Option<Expr> = None;
        let mut allowed = Vec::new();
        for c in 0..self.classes.len() {
            let e = simplify(self.sub(&body, &[(0, c)], &[])?, self.n);
            let ok = fold(&e, self.n) != Some(0);
            allowed.push(ok);
            if ok {
                if g.as_ref().is_some_and(|x| *x != e) {
                    return Err("init ties the globals to a process's local state".into());
                }
                g = Some(e);
            }
        }
        Ok((g.unwrap_or(Expr::Const(0, Ty::Bool)), allowed))
    }

    /// A property as a count test: some tuple of classes satisfying the body, each
    /// class holding as many processes as the tuple names in it.
    pub(super) fn property(&self, u: &Unsafe) -> Result<Expr, String> {
        let k = self.classes.len();
        let mut seen = Vec::new();
        let mut cases = Vec::new();
        let total = k.checked_pow(u.params as u32).filter(|&t| t <= 100_000);
        let total = total.ok_or("a property over too many tuples of classes")?;
        for code in 0..total {
            let tuple: Vec<usize> = (0..u.params).map(|i| code / k.pow(i as u32) % k).collect();
            let procs: Vec<(LocalId, usize)> = tuple.iter().copied().enumerate().collect();
            let body = simplify(self.sub(&u.body, &procs, &[])?, self.n);
            if fold(&body, self.n) == Some(0) {
                continue;
            }
            let mut conds = Vec::new();
            for c in 0..k {
                let mult = tuple.iter().filter(|&&x| x == c).count() as i64;
                if mult > 0 {
                    conds.push(cmp(
                        CmpOp::Ge,
                        self.count[c].clone(),
                        Expr::Const(mult, Ty::Int),
                    ));
                }
            }
            conds.push(body);
            let e = simplify(Expr::And(conds), self.n);
            let key = format!("{e:?}");
            if !seen.contains(&key) {
                seen.push(key);
                cases.push(e);
            }
        }
        Ok(simplify(Expr::Or(cases), self.n))
    }
}

/// The targets after one local update: each (tuple, conditions) with component k set to
/// the value, split over the values of the domain when the value depends on globals.
fn split(
    targets: Vec<(Vec<i64>, Vec<Expr>)>,
    k: usize,
    dom: &[i64],
    value: Option<&Expr>,
    n: usize,
) -> Vec<(Vec<i64>, Vec<Expr>)> {
    let mut out = Vec::new();
    for (t, conds) in targets {
        if let Some(v) = value.and_then(|e| fold(e, n)) {
            let mut t = t.clone();
            t[k] = v;
            out.push((t, conds));
            continue;
        }
        for &v in dom {
            let mut t2 = t.clone();
            t2[k] = v;
            let mut c2 = conds.clone();
            if let Some(e) = value {
                let c = simplify(cmp(CmpOp::Eq, e.clone(), Expr::Const(v, Ty::Int)), n);
                if fold(&c, n) == Some(0) {
                    continue;
                }
                c2.push(c);
            }
            out.push((t2, c2));
        }
    }
    out
}
