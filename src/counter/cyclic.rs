//! Cyclic counters (issue 26): globals over `0 .. K` that only ever advance by one
//! modulo M = K + 1 (`X := if X = K then 0 else X + 1`), and process cells of the same
//! range that only receive copies of them, all compared with each other only by
//! equality. Such a family is invariant under rotating every value of the range at
//! once, so the counter view may describe the values *relative to one reference
//! counter* S: a cell t becomes (t - S) mod M, another counter X becomes
//! (X - S) mod M, S itself is always 0, and an advance of S moves every relative
//! value down by one. In relative values the ticket lock's `Next` counts the tickets
//! out, a place invariant modulo M (Lautenbach's place invariants, read over Z/M),
//! so the counter view is linear again where the absolute values wrap.
//!
//! The pattern is recognised from the transitions, never from names: any use of these
//! variables outside equality tests between them, copies into a cell, and the advance
//! of a counter by one leaves the model with absolute values (`detect` says `None`).
//! Every lemma found in relative values is written back over the model's own cells
//! (`Ticket[x] = Serving + 2 || Ticket[x] = Serving - 9`) and checked like any other.

use super::fold;
use crate::model::ir::*;

/// The cyclic counters of a model at one width.
#[derive(Clone, Debug)]
pub struct Cyclic {
    /// The range type of the reference (the counters' and cells' types may be other
    /// range types with the same bounds).
    pub range: usize,
    /// K: the values are 0..=K, M = K + 1 of them.
    pub top: i64,
    /// The reference counter S (always 0 in relative values).
    pub reference: VarId,
    /// The other counters (relative values (X - S) mod M).
    pub counters: Vec<VarId>,
    /// The process cells of the range (relative values (t - S) mod M).
    pub cells: Vec<VarId>,
}

impl Cyclic {
    /// M, the number of values.
    pub fn modulus(&self) -> i64 {
        self.top + 1
    }

    /// Whether `v` is one of the counters or cells.
    pub fn holds(&self, v: VarId) -> bool {
        v == self.reference || self.counters.contains(&v) || self.cells.contains(&v)
    }

    /// `e + 1` modulo M, as the model writes it.
    pub fn inc(&self, e: Expr) -> Expr {
        self.step(e, ArithOp::Add, self.top, 0)
    }

    /// `e - 1` modulo M.
    pub fn dec(&self, e: Expr) -> Expr {
        self.step(e, ArithOp::Sub, 0, self.top)
    }

    /// `if e = edge then wrapped else e op 1`: a step modulo M.
    fn step(&self, e: Expr, op: ArithOp, edge: i64, wrapped: i64) -> Expr {
        let ty = Ty::Range(self.range);
        let at_edge = Expr::Cmp(
            CmpOp::Eq,
            Box::new(e.clone()),
            Box::new(Expr::Const(edge, ty)),
        );
        let stepped = Expr::Arith(op, Box::new(e), Box::new(Expr::Const(1, Ty::Int)));
        Expr::Ite(
            Box::new(at_edge),
            Box::new(Expr::Const(wrapped, ty)),
            Box::new(stepped),
            ty,
        )
    }

    /// The relative value of cell `cell` being r, over the model's own cells:
    /// `t = S + r` or `t = S + r - M`.
    pub fn cell_text(&self, m: &Model, cell: &str, r: i64) -> String {
        let s = &m.vars[self.reference].name;
        if r == 0 {
            format!("{cell} = {s}")
        } else {
            format!(
                "({cell} = {s} + {r} || {cell} = {s} - {})",
                self.modulus() - r
            )
        }
    }

    /// `(X - S)` over the model's own counters (its value modulo M is the relative one).
    pub fn diff_text(&self, m: &Model, x: VarId) -> String {
        format!("({} - {})", m.vars[x].name, m.vars[self.reference].name)
    }
}

/// `(X - S) mod M  OP  v` over the model's own counters X and S.
pub fn atom_text(x: &str, s: &str, big: i64, op: &str, v: &str) -> String {
    format!("(({x} >= {s} && {x} - {s} {op} {v}) || ({x} < {s} && {x} - {s} + {big} {op} {v}))")
}

/// Whether `e` reads one of `group`.
fn is_member(e: &Expr, group: &[VarId]) -> bool {
    matches!(e, Expr::Read(v, _) if group.contains(v))
}

/// Every read of `group` in `e` stands in an equality test between two of them.
fn uses_ok(e: &Expr, group: &[VarId], ranges: &[usize]) -> bool {
    let r = |x: &Expr| uses_ok(x, group, ranges);
    match e {
        Expr::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) if is_member(a, group) || is_member(b, group) => {
            let ix_ok = |x: &Expr| match x {
                Expr::Read(_, ix) => ix.iter().all(r),
                _ => false,
            };
            ix_ok(a) && ix_ok(b)
        }
        Expr::Read(v, _) if group.contains(v) => false,
        Expr::Quant(q) if matches!(q.dom, Domain::Type(Ty::Range(t)) if ranges.contains(&t)) => {
            false
        }
        _ => e.all_children(r),
    }
}

/// Whether `e` is `if g = K then 0 else g + 1` (either side of `=` and `+`).
fn is_advance(e: &Expr, g: VarId, top: i64, n: usize) -> bool {
    let is_g = |x: &Expr| matches!(x, Expr::Read(v, ix) if *v == g && ix.is_empty());
    let Expr::Ite(c, a, b, _) = e else {
        return false;
    };
    let test = match &**c {
        Expr::Cmp(CmpOp::Eq, x, y) => {
            (is_g(x) && fold(y, n) == Some(top)) || (is_g(y) && fold(x, n) == Some(top))
        }
        _ => false,
    };
    let plus = match &**b {
        Expr::Arith(ArithOp::Add, x, y) => {
            (is_g(x) && fold(y, n) == Some(1)) || (is_g(y) && fold(x, n) == Some(1))
        }
        _ => false,
    };
    test && fold(a, n) == Some(0) && plus
}

/// The cyclic counters of `m` at width n, when it has them (module comment): the
/// variables of ranges `0 .. K` linked by comparisons and copies, one group at a time.
pub fn detect(m: &Model, n: usize) -> Option<Cyclic> {
    let bounds = |v: VarId| match m.vars[v].ty {
        Ty::Range(r) => {
            let rt = &m.ranges[r];
            let (lo, hi) = (rt.lo.eval(n as i64), rt.hi.eval(n as i64));
            (lo == 0 && hi >= 0).then_some(hi)
        }
        _ => None,
    };
    let cand: Vec<VarId> = (0..m.vars.len()).filter(|&v| bounds(v).is_some()).collect();
    // Union-find over the candidates, joined where compared or copied.
    let mut root: Vec<usize> = (0..m.vars.len()).collect();
    fn find(root: &mut [usize], v: usize) -> usize {
        let mut r = v;
        while root[r] != r {
            r = root[r];
        }
        root[v] = r;
        r
    }
    let mut pairs = Vec::new();
    let mut exprs: Vec<&Expr> = m.unsafes.iter().map(|u| &u.body).collect();
    for t in &m.transitions {
        exprs.push(&t.guard);
        for u in &t.updates {
            if let UpdValue::Term(Expr::Read(w, _)) = &u.value {
                pairs.push((u.var, *w));
            }
        }
    }
    for e in exprs {
        links(e, &mut pairs);
    }
    for (a, b) in pairs {
        if cand.contains(&a) && cand.contains(&b) && bounds(a) == bounds(b) {
            let (ra, rb) = (find(&mut root, a), find(&mut root, b));
            root[ra] = rb;
        }
    }
    let mut groups: Vec<Vec<VarId>> = Vec::new();
    for &v in &cand {
        let r = find(&mut root, v);
        match groups.iter_mut().find(|g| find(&mut root, g[0]) == r) {
            Some(g) => g.push(v),
            None => groups.push(vec![v]),
        }
    }
    groups.into_iter().find_map(|g| detect_group(m, n, g))
}

/// The pairs of variables `e` compares.
fn links(e: &Expr, out: &mut Vec<(VarId, VarId)>) {
    match e {
        Expr::Cmp(_, a, b) => {
            if let (Expr::Read(x, _), Expr::Read(y, _)) = (&**a, &**b) {
                out.push((*x, *y));
            }
            links(a, out);
            links(b, out);
        }
        // Not the exceptions: process terms, which compare nothing.
        Expr::Quant(q) => links(&q.body, out),
        _ => e.for_each_child(|x| links(x, out)),
    }
}

fn detect_group(m: &Model, n: usize, group: Vec<VarId>) -> Option<Cyclic> {
    let ranges: Vec<usize> = group
        .iter()
        .filter_map(|&v| match m.vars[v].ty {
            Ty::Range(r) => Some(r),
            _ => None,
        })
        .collect();
    let top = m.ranges[ranges[0]].hi.eval(n as i64);
    let globals: Vec<VarId> = group
        .iter()
        .copied()
        .filter(|&v| m.vars[v].dims.is_empty() && m.vars[v].kind == VarKind::Global)
        .collect();
    let cells: Vec<VarId> = group
        .iter()
        .copied()
        .filter(|&v| m.vars[v].dims == [Ty::Proc])
        .collect();
    if globals.is_empty() || globals.len() + cells.len() != group.len() {
        return None;
    }
    let advanced = advanced(m, n, top, &group, &ranges, (&globals, &cells))?;
    if m.unsafes.iter().any(|u| !uses_ok(&u.body, &group, &ranges)) {
        return None;
    }
    if !pinned_alike(m, n, &group, &ranges) {
        return None;
    }
    // The reference: a counter a guard compares with a cell, and that advances.
    let mut compared = Vec::new();
    for t in &m.transitions {
        compared_with_cells(&t.guard, &cells, &mut compared);
    }
    let reference = globals
        .iter()
        .copied()
        .find(|g| compared.contains(g) && advanced[*g])?;
    Some(Cyclic {
        range: match m.vars[reference].ty {
            Ty::Range(r) => r,
            _ => ranges[0],
        },
        top,
        reference,
        counters: globals.into_iter().filter(|&g| g != reference).collect(),
        cells,
    })
}

/// Per variable, whether a transition advances it; `None` unless every transition keeps
/// the group's values apart from the rest (`uses_ok`) and stores into a counter only its
/// advance, into a cell only a member's value.
fn advanced(
    m: &Model,
    n: usize,
    top: i64,
    group: &[VarId],
    ranges: &[usize],
    (globals, cells): (&[VarId], &[VarId]),
) -> Option<Vec<bool>> {
    let mut advanced = vec![false; m.vars.len()];
    for t in &m.transitions {
        if !uses_ok(&t.guard, group, ranges) {
            return None;
        }
        for u in &t.updates {
            for ix in &u.index {
                if let Index::Term(e) = ix
                    && !uses_ok(e, group, ranges)
                {
                    return None;
                }
            }
            let ok = match &u.value {
                UpdValue::Term(e) if globals.contains(&u.var) => {
                    advanced[u.var] = true;
                    is_advance(e, u.var, top, n)
                }
                UpdValue::Term(e) if cells.contains(&u.var) => {
                    is_member(e, group)
                        && matches!(e, Expr::Read(_, ix)
                            if ix.iter().all(|x| uses_ok(x, group, ranges)))
                }
                UpdValue::Term(e) => uses_ok(e, group, ranges),
                UpdValue::Nondet => !group.contains(&u.var),
                UpdValue::Any { cond, .. } => {
                    !group.contains(&u.var) && uses_ok(cond, group, ranges)
                }
            };
            if !ok {
                return None;
            }
        }
    }
    Some(advanced)
}

/// Whether every member starts at one common constant, and init says nothing else of
/// them.
fn pinned_alike(m: &Model, n: usize, group: &[VarId], ranges: &[usize]) -> bool {
    let mut start = None;
    let mut pinned = Vec::new();
    for i in &m.inits {
        let conj: Vec<&Expr> = match &i.body {
            Expr::And(xs) => xs.iter().collect(),
            e => vec![e],
        };
        for e in conj {
            let pin = match e {
                Expr::Cmp(CmpOp::Eq, a, b) => match (&**a, &**b) {
                    (Expr::Read(v, _), c) | (c, Expr::Read(v, _)) if group.contains(v) => {
                        fold(c, n).map(|c| (*v, c))
                    }
                    _ => None,
                },
                _ => None,
            };
            match pin {
                Some((v, c)) => {
                    if start.is_some_and(|s| s != c) {
                        return false;
                    }
                    start = Some(c);
                    pinned.push(v);
                }
                None if !uses_ok(e, group, ranges) => return false,
                None => {}
            }
        }
    }
    group.iter().all(|v| pinned.contains(v))
}

/// The globals that `e` compares with a cell.
fn compared_with_cells(e: &Expr, cells: &[VarId], out: &mut Vec<VarId>) {
    match e {
        Expr::Cmp(_, a, b) => {
            for (x, y) in [(&**a, &**b), (&**b, &**a)] {
                if let (Expr::Read(x, _), Expr::Read(y, iy)) = (x, y)
                    && cells.contains(x)
                    && iy.is_empty()
                {
                    out.push(*y);
                }
            }
        }
        Expr::Not(a) => compared_with_cells(a, cells, out),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| compared_with_cells(x, cells, out)),
        Expr::Imp(a, b) | Expr::Iff(a, b) => {
            compared_with_cells(a, cells, out);
            compared_with_cells(b, cells, out);
        }
        Expr::Quant(q) => compared_with_cells(&q.body, cells, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(text: &str) -> Model {
        crate::lang::load_str("t.cub", text).unwrap()
    }

    fn names(m: &Model, vs: &[VarId]) -> Vec<String> {
        vs.iter().map(|&v| m.vars[v].name.clone()).collect()
    }

    #[test]
    fn the_ticket_locks_have_cyclic_counters() {
        // By hand: Serving is compared with the tickets and advances; Next only
        // advances and is copied into a ticket.
        for (path, n, reference, counter, cell, top) in [
            (
                "families/ticket_lock.cub",
                3,
                "Serving",
                "Next",
                "Ticket",
                3,
            ),
            (
                "benches/models/ticket_user.cub",
                4,
                "NowServing",
                "NextTicket",
                "MyTicket",
                3,
            ),
        ] {
            let m = crate::lang::load_file(path).unwrap();
            let c = detect(&m, n).expect(path);
            assert_eq!(m.vars[c.reference].name, reference);
            assert_eq!(names(&m, &c.counters), vec![counter]);
            assert_eq!(names(&m, &c.cells), vec![cell]);
            assert_eq!(c.top, top);
        }
    }

    /// The ticket lock as shipped.
    const BASE: &str = include_str!("../../families/ticket_lock.cub");

    #[test]
    fn values_used_otherwise_are_not_cyclic() {
        assert!(detect(&model(BASE), 3).is_some());
        for (what, from, to) in [
            (
                "an advance at the wrong top",
                "Next = N then",
                "Next = N - 1 then",
            ),
            (
                "a comparison with a constant",
                "Ticket[i] = Serving }",
                "Ticket[i] = Serving && Serving = 1 }",
            ),
            (
                "an order test",
                "Ticket[i] = Serving }",
                "Ticket[i] <= Serving }",
            ),
            (
                "arithmetic on a ticket",
                "Ticket[i] := Next;",
                "Ticket[i] := Next - 0;",
            ),
            (
                "two start values",
                "Next = 0 && Serving = 0",
                "Next = 1 && Serving = 0",
            ),
        ] {
            let text = BASE.replace(from, to);
            assert_ne!(text, BASE, "{what}");
            assert!(detect(&model(&text), 3).is_none(), "{what}");
        }
        let rw = crate::lang::load_file("benches/models/rw_counter.cub").unwrap();
        assert!(detect(&rw, 3).is_none());
    }
}
