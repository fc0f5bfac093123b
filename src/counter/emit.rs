//! The counter model written out: place invariants eliminate counters (each one a
//! readable lemma), the moves become transitions, and the model is read back through
//! the front end.

use super::build::{Ctx, Move, classes};
use super::cyclic::{self, Cyclic};
use super::linear;
use super::{CounterView, fragment, relevant, simplify};
use crate::lang::{self, LoadOptions};
use crate::model::ir::*;
use crate::source::Span;
use std::collections::HashMap;

fn read(v: VarId) -> Expr {
    Expr::Read(v, vec![])
}

fn int(v: i64) -> Expr {
    Expr::Const(v, Ty::Int)
}

fn arith(op: ArithOp, a: Expr, b: Expr) -> Expr {
    Expr::Arith(op, Box::new(a), Box::new(b))
}

/// The change of a global by a move: `Some(d)` for `G := G + d`, `G := G - d` or no
/// update, `None` otherwise.
fn delta(mv: &Move, g: VarId) -> Option<i64> {
    if let Some(&(_, d)) = mv.cyc.iter().find(|(v, _)| *v == g) {
        // A relative counter: its change modulo M, kept out of the exact invariants
        // (`modular` reads it).
        return if d == 0 { Some(0) } else { None };
    }
    match mv.globals.iter().find(|(v, _)| *v == g) {
        None => Some(0),
        Some((_, UpdValue::Term(Expr::Arith(op, a, b)))) => match (op, &**a, &**b) {
            (ArithOp::Add, Expr::Read(v, ix), Expr::Const(d, _)) if *v == g && ix.is_empty() => {
                Some(*d)
            }
            (ArithOp::Sub, Expr::Read(v, ix), Expr::Const(d, _)) if *v == g && ix.is_empty() => {
                Some(-*d)
            }
            _ => None,
        },
        Some((_, UpdValue::Term(Expr::Read(v, ix)))) if *v == g && ix.is_empty() => Some(0),
        _ => None,
    }
}

/// The value `init` pins global g to (a top-level `g = c`).
fn pinned(init: &Expr, g: VarId) -> Option<i64> {
    let conj: Vec<&Expr> = match init {
        Expr::And(xs) => xs.iter().collect(),
        e => vec![e],
    };
    conj.iter().find_map(|e| match e {
        Expr::Cmp(CmpOp::Eq, a, b) => match (&**a, &**b) {
            (Expr::Read(v, ix), Expr::Const(c, _)) | (Expr::Const(c, _), Expr::Read(v, ix))
                if *v == g && ix.is_empty() =>
            {
                Some(*c)
            }
            _ => None,
        },
        _ => None,
    })
}

/// The eliminations found: per class, the expression standing for its counter (over the
/// counters kept and the globals, in the numbering of the unreduced counter model),
/// and the place invariants as lemma bodies.
struct Elim {
    expr: Vec<Option<Expr>>,
    lemmas: Vec<String>,
    /// The globals (ids of the model) that a place invariant ties to the counts.
    counters: Vec<VarId>,
    /// Relative counters (ids of the counter model) eliminated, with their expression
    /// over the counters (`modular`).
    globals: Vec<(VarId, Expr)>,
}

/// Place invariants with an integer row whose pivot is a counter eliminate that
/// counter; the row is a lemma `#{x : P} <> E` when its counters have coefficient 1
/// (and is left out when it is the conservation law, true of any state).
fn eliminate(ctx: &Ctx, moves: &[Move], init: &Expr, allowed: &[bool], preds: &[String]) -> Elim {
    let rot = ctx.rotation();
    let (k, n, m) = (ctx.classes.len(), ctx.n as i64, ctx.m);
    let mut none = Elim {
        expr: vec![None; k],
        lemmas: Vec::new(),
        counters: Vec::new(),
        globals: Vec::new(),
    };
    let single = allowed.iter().filter(|&&a| a).count() == 1;
    let (lin, orig) = linear_globals(ctx, moves, init);
    if k == 0 {
        // No local state at this width (a range empty here): nothing to count.
        return none;
    }
    if !single {
        // Only the conservation law: the first class is what the others leave.
        let rest: Vec<Expr> = (1..k).map(|c| read(UNREDUCED + c)).collect();
        none.expr[0] = Some(arith(ArithOp::Sub, Expr::Size, sum(rest)));
        return none;
    }
    let cols = k + lin.len();
    let mut deltas: Vec<Vec<i64>> = moves
        .iter()
        .map(|mv| {
            let mut d = vec![0; cols];
            if mv.src != mv.dst {
                d[mv.src] -= 1;
                d[mv.dst] += 1;
            }
            for (j, &(g, _)) in lin.iter().enumerate() {
                d[k + j] = delta(mv, g).unwrap_or(0);
            }
            d
        })
        .collect();
    // Where the reference counter advances, every process changes class along the
    // rotation: an invariant weighs the classes of one orbit alike.
    deltas.extend(orbit_rows(&rot, cols));
    let x0: Vec<i64> = (0..k)
        .map(|c| if allowed[c] { n } else { 0 })
        .chain(lin.iter().map(|&(_, v)| v))
        .collect();
    for row in linear::invariants(&deltas, cols) {
        let Some(coef) = row.iter().map(|q| q.as_int()).collect::<Option<Vec<i64>>>() else {
            continue;
        };
        let Some(p) = coef.iter().position(|&c| c != 0).filter(|&p| p < k) else {
            continue;
        };
        // With cyclic counters the classes are many and the conservation law would
        // put a sum of them in every guard, which SAT solvers reason about poorly:
        // only an equality between one count and one global eliminates there.
        if ctx.cyc.is_some() && coef.iter().filter(|&&c| c != 0).count() > 2 {
            continue;
        }
        let rhs: i64 = coef.iter().zip(&x0).map(|(a, b)| a * b).sum();
        let counters = &coef[..k];
        let globals = &coef[k..];
        for (j, _) in globals.iter().enumerate().filter(|(_, c)| **c != 0) {
            let o = orig[lin[j].0];
            if !none.counters.contains(&o) {
                none.counters.push(o);
            }
        }
        let conservation = counters.iter().all(|&c| c == 1) && globals.iter().all(|&c| c == 0);
        if !conservation {
            if !counters.iter().all(|&c| c == 0 || c == 1) {
                continue;
            }
            let set: Vec<&str> = (0..k)
                .filter(|&c| counters[c] == 1)
                .map(|c| preds[c].as_str())
                .collect();
            let e = rhs_text(m, rhs, globals, &lin, &orig);
            none.lemmas
                .push(format!("#{{x : {}}} <> {e}", set.join(" || ")));
        }
        none.expr[p] = Some(pivot_expr(&coef, p, rhs, k, &lin));
    }
    if let Some(cy) = ctx.cyc {
        modular(ctx, cy, moves, &rot, allowed, preds, &mut none);
    }
    none
}

/// The globals (ids in the counter model) with a linear change and a pinned initial
/// value, and each global's id in the model: such globals may join a place invariant.
fn linear_globals(ctx: &Ctx, moves: &[Move], init: &Expr) -> (Vec<(VarId, i64)>, Vec<VarId>) {
    let m = ctx.m;
    let mut lin: Vec<(VarId, i64)> = Vec::new();
    let mut orig = vec![0; ctx.gid.len()];
    for (&v, &g) in ctx.gid {
        orig[g] = v;
    }
    for (g, &o) in orig.iter().enumerate() {
        let var = &m.vars[o];
        if !matches!(var.ty, Ty::Range(_)) || var.kind != VarKind::Global {
            continue;
        }
        if moves.iter().all(|mv| delta(mv, g).is_some())
            && let Some(x0) = pinned(init, g)
        {
            lin.push((g, x0));
        }
    }
    (lin, orig)
}

/// Counter `p` solved from the invariant row `coef` (over the `k` counters, then the
/// globals of `lin`) with constant `rhs`: rhs - Σ_{j≠p} coef_j x_j.
fn pivot_expr(coef: &[i64], p: usize, rhs: i64, k: usize, lin: &[(VarId, i64)]) -> Expr {
    let mut e = int(rhs);
    for (j, &a) in coef.iter().enumerate() {
        if j == p || a == 0 {
            continue;
        }
        let x = if j < k {
            read(UNREDUCED + j)
        } else {
            read(lin[j - k].0)
        };
        let t = if a == 1 || a == -1 {
            x
        } else {
            arith(ArithOp::Mul, int(a.abs()), x)
        };
        e = arith(if a > 0 { ArithOp::Sub } else { ArithOp::Add }, e, t);
    }
    e
}

/// Rows e_c - e_rot(c): a vector orthogonal to them is constant on each orbit.
fn orbit_rows(rot: &[usize], cols: usize) -> Vec<Vec<i64>> {
    (0..rot.len())
        .filter(|&c| rot[c] != c)
        .map(|c| {
            let mut d = vec![0; cols];
            d[c] += 1;
            d[rot[c]] -= 1;
            d
        })
        .collect()
}

/// Place invariants modulo M: a relative counter X changes by ±1 modulo M, so a
/// vector y over the classes with y·Δ = ΔX for every move gives y·x ≡ X + const
/// (mod M), true of every reachable state. A row with one relative counter (weight ±1)
/// and counts of weight 0 or 1 eliminates one counter of a class no process starts in
/// (a count of 0..n read modulo M is ambiguous only where it reaches M, which the
/// certificate's check decides), and is the lemma `#{x : P} ≡ (X - S) + c` written as
/// the few equalities the count's range leaves.
fn modular(
    ctx: &Ctx,
    cy: &Cyclic,
    moves: &[Move],
    rot: &[usize],
    allowed: &[bool],
    preds: &[String],
    elim: &mut Elim,
) {
    let (k, n, big) = (ctx.classes.len(), ctx.n as i64, cy.modulus());
    let rel: Vec<VarId> = cy.counters.iter().map(|x| ctx.gid[x]).collect();
    // Columns: classes no process starts in, then the others, then the relative
    // counters (so that a pivot is a class of the first kind where one exists).
    let order: Vec<usize> = (0..k)
        .filter(|&c| !allowed[c])
        .chain((0..k).filter(|&c| allowed[c]))
        .collect();
    let cols = k + rel.len();
    let mut deltas: Vec<Vec<i64>> = moves
        .iter()
        .map(|mv| {
            let mut d = vec![0; cols];
            let at = |c: usize| order.iter().position(|&x| x == c).unwrap_or(0);
            if mv.src != mv.dst {
                d[at(mv.src)] -= 1;
                d[at(mv.dst)] += 1;
            }
            for (j, g) in rel.iter().enumerate() {
                d[k + j] = mv.cyc.iter().find(|(v, _)| v == g).map_or(0, |x| x.1);
            }
            d
        })
        .collect();
    let inv: Vec<usize> = (0..k)
        .map(|c| order.iter().position(|&x| x == c).unwrap_or(0))
        .collect();
    let rot_o: Vec<usize> = order.iter().map(|&c| inv[rot[c]]).collect();
    deltas.extend(orbit_rows(&rot_o, cols));
    let pivots_before: Vec<usize> = (0..k).filter(|&c| elim.expr[c].is_some()).collect();
    for row in linear::invariants(&deltas, cols) {
        let Some(coef) = row.iter().map(|q| q.as_int()).collect::<Option<Vec<i64>>>() else {
            continue;
        };
        let g: Vec<usize> = (0..rel.len()).filter(|&j| coef[k + j] != 0).collect();
        let [j] = g.as_slice() else { continue };
        let b = coef[k + j];
        // Class coefficients in the model's numbering.
        let y: Vec<i64> = (0..k).map(|c| coef[inv[c]]).collect();
        let Some(p) = (0..k).map(|i| order[i]).find(|&c| y[c] != 0) else {
            continue;
        };
        if b.abs() != 1
            || y.iter().any(|&c| c != 0 && c != 1)
            || pivots_before.iter().any(|&c| y[c] != 0)
            || elim.expr[p].is_some()
        {
            continue;
        }
        let x_orig = cy.counters[*j];
        if !elim.counters.contains(&x_orig) {
            elim.counters.push(x_orig);
        }
        // The counter follows one count: it is eliminated (exactly: a counter is the
        // residue modulo M the row gives), so that no guard reads a sum.
        if y.iter().filter(|&&c| c != 0).count() > 1 || elim.globals.iter().any(|g| g.0 == rel[*j])
        {
            continue;
        }
        // Initially every relative counter is 0 and the allowed class holds all n.
        let rhs: i64 = (0..k).filter(|&c| allowed[c]).map(|c| y[c] * n).sum();
        // count_p + b X ≡ rhs (mod M). Below M processes the count is the residue of
        // rhs - b X: it goes, and lemmas speak of X (a threshold on X is a formula
        // over the globals, which the checker decides without counting); otherwise X
        // is the residue of b (rhs - count_p) and goes.
        if n < big {
            let x = read(rel[*j]);
            let (e, lo, hi) = if b > 0 {
                (arith(ArithOp::Sub, int(rhs), x), rhs - (big - 1), rhs)
            } else {
                (arith(ArithOp::Add, int(rhs), x), rhs, rhs + big - 1)
            };
            elim.expr[p] = Some(wrap(e, lo, hi, big));
            elim.lemmas
                .push(modular_lemma(ctx, cy, *j, &y, b, rhs, preds));
            continue;
        }
        let cp = read(UNREDUCED + p);
        let (e, lo, hi) = if b > 0 {
            (arith(ArithOp::Sub, int(rhs), cp), rhs - n, rhs)
        } else {
            (arith(ArithOp::Sub, cp, int(rhs)), -rhs, n - rhs)
        };
        elim.globals.push((rel[*j], wrap(e, lo, hi, big)));
        elim.lemmas
            .push(modular_lemma(ctx, cy, *j, &y, b, rhs, preds));
    }
}

/// The lemma of a modular row: #{Y} = rhs - b (X - S) + t M for the t the ranges allow.
fn modular_lemma(
    ctx: &Ctx,
    cy: &Cyclic,
    j: usize,
    y: &[i64],
    b: i64,
    rhs: i64,
    preds: &[String],
) -> String {
    let (k, n, m, big) = (ctx.classes.len(), ctx.n as i64, ctx.m, cy.modulus());
    let x_orig = cy.counters[j];
    let set: Vec<&str> = (0..k)
        .filter(|&c| y[c] == 1)
        .map(|c| preds[c].as_str())
        .collect();
    let diff = cy.diff_text(m, x_orig);
    let e_text = match (b > 0, rhs) {
        (false, 0) => diff,
        (false, r) => format!("{diff} + {r}"),
        (true, r) => format!("{r} - {diff}"),
    };
    let (elo, ehi) = (rhs - (big - 1), rhs + big - 1);
    let count = format!("#{{x : {}}}", set.join(" || "));
    let atoms: Vec<String> = (-((ehi + big - 1) / big) - 1..=(n - elo) / big + 1)
        .filter(|t| ehi + t * big >= 0 && elo + t * big <= n)
        .map(|t| match t {
            0 => format!("{count} <> {e_text}"),
            t if t > 0 => format!("{count} <> {e_text} + {}", t * big),
            t => format!("{count} <> {e_text} - {}", -t * big),
        })
        .collect();
    atoms.join(" && ")
}

/// `e` modulo M, for e within lo..=hi: a chain of `if` over the multiples of M that
/// may bring it into 0..M.
fn wrap(e: Expr, lo: i64, hi: i64, big: i64) -> Expr {
    let ts: Vec<i64> = (-(hi.div_euclid(big)) - 1..=(-lo).div_euclid(big) + 1)
        .filter(|t| hi + t * big >= 0 && lo + t * big < big)
        .collect();
    let shifted = |t: i64| match t.cmp(&0) {
        std::cmp::Ordering::Equal => e.clone(),
        std::cmp::Ordering::Greater => arith(ArithOp::Add, e.clone(), int(t * big)),
        std::cmp::Ordering::Less => arith(ArithOp::Sub, e.clone(), int(-t * big)),
    };
    let mut out = shifted(*ts.last().unwrap_or(&0));
    for &t in ts.iter().rev().skip(1) {
        let v = shifted(t);
        let fits = Expr::And(vec![
            Expr::Cmp(CmpOp::Ge, Box::new(v.clone()), Box::new(int(0))),
            Expr::Cmp(CmpOp::Lt, Box::new(v.clone()), Box::new(int(big))),
        ]);
        out = Expr::Ite(Box::new(fits), Box::new(v), Box::new(out), Ty::Int);
    }
    out
}

fn sum(terms: Vec<Expr>) -> Expr {
    let mut it = terms.into_iter();
    let first = it.next().unwrap_or(int(0));
    it.fold(first, |a, t| arith(ArithOp::Add, a, t))
}

/// `rhs - Σ b_g G` as text over the model's own globals.
fn rhs_text(m: &Model, rhs: i64, b: &[i64], lin: &[(VarId, i64)], orig: &[VarId]) -> String {
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    for (j, &c) in b.iter().enumerate() {
        let name = &m.vars[orig[lin[j].0]].name;
        let t = if c.abs() == 1 {
            name.clone()
        } else {
            format!("{} * {name}", c.abs())
        };
        if c < 0 {
            pos.push(t);
        } else if c > 0 {
            neg.push(t);
        }
    }
    let mut s = pos.join(" + ");
    if rhs != 0 || pos.is_empty() {
        if s.is_empty() {
            s = rhs.to_string();
        } else if rhs > 0 {
            s = format!("{s} + {rhs}");
        } else {
            s = format!("{s} - {}", -rhs);
        }
    }
    for t in neg {
        s = format!("{s} - {t}");
    }
    s
}

/// The predicate of a class over the process `x`: its live cells' values.
fn pred(
    m: &Model,
    locals: &[VarId],
    class: &[i64],
    dead_in: &[bool],
    cyc: Option<&Cyclic>,
) -> String {
    let atoms: Vec<String> = locals
        .iter()
        .zip(class)
        .zip(dead_in)
        .filter(|(_, d)| !**d)
        .map(|((&v, &x), _)| {
            let var = &m.vars[v];
            if let Some(cy) = cyc.filter(|cy| cy.cells.contains(&v)) {
                return cy.cell_text(m, &format!("{}[x]", var.name), x);
            }
            let val = match var.ty {
                Ty::Bool => if x != 0 { "True" } else { "False" }.to_string(),
                Ty::Enum(e) => m.enums[e].ctors[x as usize].clone(),
                _ => x.to_string(),
            };
            format!("{}[x] = {val}", var.name)
        })
        .collect();
    match atoms.len() {
        0 => "True".into(),
        1 => atoms[0].clone(),
        _ => format!("({})", atoms.join(" && ")),
    }
}

/// The counter model of `m` at width n.
pub fn build(m: &Model, n: usize) -> Result<CounterView, String> {
    fragment(m)?;
    let rel = relevant(m);
    let locals: Vec<VarId> = (0..m.vars.len())
        .filter(|&v| m.vars[v].dims == [Ty::Proc] && rel[v])
        .collect();
    let (cls, deads) = classes(m, n, &locals)?;
    let cyc = cyclic::detect(m, n);
    let globals: Vec<VarId> = (0..m.vars.len())
        .filter(|&v| m.vars[v].dims.is_empty())
        .collect();
    let gid: HashMap<VarId, VarId> = globals.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let base = globals.len();
    let plain: Vec<Expr> = (0..cls.len()).map(|c| read(UNREDUCED + c)).collect();
    let ctx = Ctx {
        m,
        n,
        locals: &locals,
        classes: &cls,
        gid: &gid,
        count: &plain,
        cyc: cyc.as_ref(),
    };
    let moves = ctx.moves()?;
    let (init, allowed) = ctx.init()?;
    let props: Vec<Expr> = m
        .unsafes
        .iter()
        .map(|u| ctx.property(u))
        .collect::<Result<_, _>>()?;
    let preds: Vec<String> = cls
        .iter()
        .zip(&deads)
        .map(|(c, d)| pred(m, &locals, c, d, cyc.as_ref()))
        .collect();
    let elim = eliminate(&ctx, &moves, &init, &allowed, &preds);
    let prefix = counter_prefix(m);
    let (fin, kept) = final_counters(&elim, base);
    let remap = |e: &Expr| simplify(remap(e, &fin, &elim.globals), n);
    let mut out = m.clone();
    let counts = declare_counts(&mut out, &globals, &kept, &preds, &prefix);
    let rot = ctx.rotation();
    out.transitions = moves
        .iter()
        .map(|mv| transition(mv, &fin, &remap, base, &kept, &rot, &elim.globals))
        .collect();
    out.inits = vec![Init {
        params: 0,
        locals: vec![],
        body: remap(&counter_init(&init, &allowed, &fin)),
        span: Span::default(),
    }];
    for (u, body) in out.unsafes.iter_mut().zip(&props) {
        u.params = 0;
        u.locals.clear();
        u.body = remap(body);
        u.conjuncts = vec![Conjunct {
            expr: u.body.clone(),
            span: u.span,
        }];
    }
    out.ltls.clear();
    out.symmetry_breaks.clear();
    let model = read_back(m, n, &out)?;
    Ok(CounterView {
        width: n,
        model,
        counts,
        equalities: elim.lemmas,
        counters: elim
            .counters
            .iter()
            .map(|&v| m.vars[v].name.clone())
            .collect(),
        classes: cls.len(),
        relative: cyc
            .map(|cy| {
                let names = cy
                    .counters
                    .iter()
                    .map(|&x| m.vars[x].name.clone())
                    .collect();
                (names, m.vars[cy.reference].name.clone(), cy.modulus())
            })
            .unwrap_or_default(),
    })
}

/// The counter model's variables declared in `out` (a copy of the model): the globals,
/// then a count per class kept, of a range 0..N added for them. Returns each count's
/// name with the count it stands for (`#{x : P}`).
fn declare_counts(
    out: &mut Model,
    globals: &[VarId],
    kept: &[usize],
    preds: &[String],
    prefix: &str,
) -> Vec<(String, String)> {
    out.ranges.push(RangeType {
        name: format!("{}_count", prefix.to_lowercase()),
        lo: SizeExpr::Lit(0),
        hi: SizeExpr::Size,
        span: Span::default(),
    });
    let count_ty = Ty::Range(out.ranges.len() - 1);
    out.vars = globals.iter().map(|&v| out.vars[v].clone()).collect();
    let mut counts = Vec::new();
    for &c in kept {
        let name = format!("{prefix}{c}");
        counts.push((name.clone(), format!("#{{x : {}}}", preds[c])));
        out.vars.push(Var {
            name,
            kind: VarKind::Global,
            dims: vec![],
            ty: count_ty,
            span: Span::default(),
        });
    }
    counts
}

/// A prefix for the counters' names that no variable or range of `m` starts with.
fn counter_prefix(m: &Model) -> String {
    let mut prefix = "NfoldK".to_string();
    while m.vars.iter().any(|v| v.name.starts_with(&prefix))
        || m.ranges
            .iter()
            .any(|r| r.name.starts_with(&prefix.to_lowercase()))
    {
        prefix.push('X');
    }
    prefix
}

/// Each class's counter in its final form, and the classes whose counters are kept:
/// final ids are the globals first (`base` of them), then the counters kept.
fn final_counters(elim: &Elim, base: usize) -> (Vec<Expr>, Vec<usize>) {
    let classes = elim.expr.len();
    let mut fin: Vec<Expr> = Vec::new();
    let mut kept = Vec::new();
    for c in 0..classes {
        if elim.expr[c].is_none() {
            fin.push(read(base + kept.len()));
            kept.push(c);
        } else {
            fin.push(int(0));
        }
    }
    // An elimination may read a counter eliminated by another (a modular one):
    // as many passes as eliminations settle the chains.
    let elims = elim.expr.iter().flatten().count();
    for _ in 0..elims.max(1) {
        for c in 0..classes {
            if let Some(e) = &elim.expr[c] {
                fin[c] = remap(e, &fin, &[]);
            }
        }
    }
    (fin, kept)
}

/// The counter model's initial condition (before `remap`): the model's, with every
/// process in a class `init` allows and none in the others.
fn counter_init(init: &Expr, allowed: &[bool], fin: &[Expr]) -> Expr {
    let mut init_c = vec![init.clone()];
    let allowed_sum: Vec<Expr> = (0..fin.len())
        .filter(|&c| allowed[c])
        .map(|c| fin[c].clone())
        .collect();
    init_c.push(Expr::Cmp(
        CmpOp::Eq,
        Box::new(sum(allowed_sum)),
        Box::new(Expr::Size),
    ));
    for c in (0..fin.len()).filter(|&c| !allowed[c]) {
        init_c.push(Expr::Cmp(
            CmpOp::Eq,
            Box::new(fin[c].clone()),
            Box::new(int(0)),
        ));
    }
    Expr::And(init_c)
}

/// The counter model printed and read back through the front end, so that it is
/// checked as any model is.
fn read_back(m: &Model, n: usize, out: &Model) -> Result<Model, String> {
    let text = lang::print::model_text(out);
    lang::load_str_with(
        &format!("{} (counter view, width {n})", m.source.name),
        &text,
        &LoadOptions::of(m),
    )
    .map_err(|e| {
        format!(
            "the counter view does not read back: {}\n{text}",
            e.render()
        )
    })
}

/// The counters of the unreduced counter model are read as variables from here on (one
/// per class), until `remap` gives each its final form.
const UNREDUCED: usize = 1 << 40;

/// Reads of unreduced counters replaced by `fin`, of eliminated globals by `gsub`.
fn remap(e: &Expr, fin: &[Expr], gsub: &[(VarId, Expr)]) -> Expr {
    let r = |x: &Expr| remap(x, fin, gsub);
    match e {
        Expr::Read(v, ix) if ix.is_empty() && *v >= UNREDUCED => fin[*v - UNREDUCED].clone(),
        Expr::Read(v, ix) if ix.is_empty() && gsub.iter().any(|g| g.0 == *v) => {
            let g = gsub.iter().find(|g| g.0 == *v).map(|g| &g.1);
            g.map_or_else(|| e.clone(), |x| remap(x, fin, &[]))
        }
        Expr::Read(v, ix) => Expr::Read(*v, ix.iter().map(r).collect()),
        Expr::Arith(op, a, b) => arith(*op, r(a), r(b)),
        Expr::Cmp(op, a, b) => Expr::Cmp(*op, Box::new(r(a)), Box::new(r(b))),
        Expr::Not(a) => Expr::Not(Box::new(r(a))),
        Expr::And(xs) => Expr::And(xs.iter().map(r).collect()),
        Expr::Or(xs) => Expr::Or(xs.iter().map(r).collect()),
        Expr::Imp(a, b) => Expr::Imp(Box::new(r(a)), Box::new(r(b))),
        Expr::Iff(a, b) => Expr::Iff(Box::new(r(a)), Box::new(r(b))),
        Expr::Ite(c, a, b, t) => Expr::Ite(Box::new(r(c)), Box::new(r(a)), Box::new(r(b)), *t),
        other => other.clone(),
    }
}

fn transition(
    mv: &Move,
    fin: &[Expr],
    remap: &dyn Fn(&Expr) -> Expr,
    base: usize,
    kept: &[usize],
    rot: &[usize],
    gone: &[(VarId, Expr)],
) -> Transition {
    let span = Span::default();
    let mut updates: Vec<Update> = mv
        .globals
        .iter()
        .filter(|(v, _)| !gone.iter().any(|g| g.0 == *v))
        .map(|(v, val)| Update {
            var: *v,
            index: vec![],
            value: match val {
                UpdValue::Term(e) => UpdValue::Term(remap(e)),
                other => other.clone(),
            },
            span,
        })
        .collect();
    if mv.shift {
        // Every process moves along the rotation; the mover, counted at rot(src), is
        // at dst instead.
        for (j, &c) in kept.iter().enumerate() {
            let Some(pre) = rot.iter().position(|&x| x == c) else {
                continue;
            };
            let mut e = fin[pre].clone();
            let (out_, in_) = (rot[mv.src] == c, mv.dst == c);
            if out_ && !in_ {
                e = arith(ArithOp::Sub, e, int(1));
            } else if in_ && !out_ {
                e = arith(ArithOp::Add, e, int(1));
            }
            if pre != c || out_ != in_ {
                updates.push(Update {
                    var: base + j,
                    index: vec![],
                    value: UpdValue::Term(e),
                    span,
                });
            }
        }
    } else if mv.src != mv.dst {
        for (c, op) in [(mv.src, ArithOp::Sub), (mv.dst, ArithOp::Add)] {
            if let Some(j) = kept.iter().position(|&x| x == c) {
                updates.push(Update {
                    var: base + j,
                    index: vec![],
                    value: UpdValue::Term(arith(op, fin[c].clone(), int(1))),
                    span,
                });
            }
        }
    }
    Transition {
        name: mv.name.clone(),
        params: 0,
        locals: vec![],
        guard: remap(&mv.guard),
        updates,
        span,
    }
}
