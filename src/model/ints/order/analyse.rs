//! Which models the order abstraction reads (`model::ints::order`), decided from the
//! text: every int is a global or an array over processes fixed by `init` to a
//! literal (or free but written before it is read, `free`), compared only with another int or a literal, and stored only as a
//! literal, a copy or a step `X + k` (k ≥ 1 a literal, or an int constant that the
//! transition's guard says is positive and that is otherwise only compared with
//! literals). Also which pairs of int cells get a relation array (`Pair`, a pair of
//! ints and a pattern of equal indices): those compared, closed under the copies and
//! steps that store into one side.

use super::*;

/// One side of an int comparison.
enum Side<'e> {
    Lit(i64),
    Cell(VarId, &'e [Expr]),
    Amount,
}

impl<'m> Ord<'m> {
    /// The analysis of `m` with relations of width `k` (0: the order), or why its ints
    /// are not read so.
    pub(super) fn analyse(m: &'m Model, k: i64) -> Result<(Ord<'m>, Vec<(VarId, i64)>), String> {
        if m.int_window.is_none() {
            return err("the model has no ints over a window".into());
        }
        if !(0..=super::diff::MAX_WIDTH).contains(&k) {
            return err(format!(
                "differences kept up to {k}: the width is 0..{}",
                super::diff::MAX_WIDTH
            ));
        }
        let mut o = Ord {
            m,
            ints: Vec::new(),
            amounts: Vec::new(),
            values: Vec::new(),
            assumed: Vec::new(),
            pairs: Vec::new(),
            rel_var: Vec::new(),
            rels: Rels { k },
            rel_ty: Ty::Bool,
            int_ty: Ty::Bool,
        };
        o.int_vars()?;
        if o.ints.is_empty() {
            return err("no int variable".into());
        }
        if !m.ltls.is_empty() {
            return err("`ltl` blocks (the order abstraction is for safety)".into());
        }
        let mut lits = Vec::new();
        let mut pairs = Vec::new();
        for t in &m.transitions {
            o.formula(&t.guard, &mut lits, &mut pairs)
                .map_err(|e| format!("{e} in the guard of `{}`", t.name))?;
            let mut seen = Vec::new();
            for u in &t.updates {
                for ix in &u.index {
                    if let Index::Term(x) = ix {
                        o.formula(x, &mut lits, &mut pairs)?;
                    }
                }
                if !o.ints.contains(&u.var) {
                    match &u.value {
                        UpdValue::Term(e) => o.formula(e, &mut lits, &mut pairs),
                        UpdValue::Any { cond, .. } => o.formula(cond, &mut lits, &mut pairs),
                        UpdValue::Nondet => Ok(()),
                    }
                    .map_err(|e| format!("{e} in transition `{}`", t.name))?;
                    continue;
                }
                if seen.contains(&u.var) {
                    return err(format!("two updates of one int in transition `{}`", t.name));
                }
                seen.push(u.var);
                let UpdValue::Term(e) = &u.value else {
                    return err(format!(
                        "a nondeterministic int store in transition `{}`",
                        t.name
                    ));
                };
                let tree = o
                    .tree(e)
                    .map_err(|e| format!("{e} in transition `{}`", t.name))?;
                o.leaves(&tree, &mut lits, &mut pairs, t)?;
            }
        }
        let mut start = Vec::new();
        for init in &m.inits {
            o.formula(&init.body, &mut lits, &mut pairs)
                .map_err(|e| format!("{e} in `init`"))?;
            o.fixed(&init.body, &mut start);
        }
        for u in &m.unsafes {
            o.formula(&u.body, &mut lits, &mut pairs)
                .map_err(|e| format!("{e} in `{}`", u.name))?;
        }
        for &v in &o.ints {
            match start.iter().find(|(w, _)| *w == v) {
                Some(&(_, k)) => lits.push(k),
                None => {
                    let k = o.written_first(v)?;
                    o.assumed.push((v, k));
                    lits.push(k);
                }
            }
        }
        start.extend(o.assumed.iter().copied());
        widen(&mut lits, k);
        lits.sort_unstable();
        lits.dedup();
        o.values = classes(&lits);
        o.pairs = o.closure(pairs);
        Ok((o, start))
    }

    /// The int variables: tracked cells (globals and arrays over processes) and
    /// constants (step amounts), or why an int array is not read over its order.
    fn int_vars(&mut self) -> Result<(), String> {
        let m = self.m;
        for (v, var) in m.vars.iter().enumerate() {
            if !m.is_int_var(v) {
                continue;
            }
            if !var.dims.iter().all(|&d| d == Ty::Proc) {
                return err(format!(
                    "the int array `{}` is indexed by a type other than processes",
                    var.name
                ));
            }
            match var.kind {
                VarKind::Const => self.amounts.push(v),
                _ => self.ints.push(v),
            }
        }
        Ok(())
    }

    /// Check a formula: its int terms only in comparisons of two cells, or of a cell
    /// or an amount with a literal; collect the literals and the compared pairs.
    fn formula(&self, e: &Expr, lits: &mut Vec<i64>, pairs: &mut Vec<Pair>) -> Result<(), String> {
        match e {
            Expr::Cmp(_, a, b) if self.int_term(a) || self.int_term(b) => {
                let (sa, sb) = (self.side(a)?, self.side(b)?);
                for x in [a, b] {
                    if let Expr::Read(_, ix) = &**x {
                        for i in ix {
                            self.formula(i, lits, pairs)?;
                        }
                    }
                }
                match (sa, sb) {
                    (Side::Cell(v, x), Side::Cell(w, y)) => {
                        pairs.extend(pair_of((v, x), (w, y)).map(|(p, ..)| p))
                    }
                    (Side::Cell(..) | Side::Amount, Side::Lit(k))
                    | (Side::Lit(k), Side::Cell(..) | Side::Amount) => lits.push(k),
                    _ => return err(
                        "an int comparison other than of two int cells, or of an int and a literal"
                            .into(),
                    ),
                }
                Ok(())
            }
            Expr::Read(v, _) if self.is_int(*v) => err(format!(
                "the int `{}` read outside a comparison",
                self.m.vars[*v].name
            )),
            Expr::Arith(..) => err("arithmetic outside a stored step".into()),
            _ => e.try_for_each_child(|x| self.formula(x, lits, pairs)),
        }
    }

    fn side<'e>(&self, e: &'e Expr) -> Result<Side<'e>, String> {
        if let Some(k) = self.lit(e) {
            return Ok(Side::Lit(k));
        }
        match e {
            Expr::Read(v, ix) if self.ints.contains(v) => Ok(Side::Cell(*v, ix)),
            Expr::Read(v, ix) if ix.is_empty() && self.amounts.contains(v) => Ok(Side::Amount),
            _ => err("an int term in a comparison other than a cell or a literal".into()),
        }
    }

    /// Check the leaves of a stored value and collect their literals and conditions.
    fn leaves(
        &self,
        t: &Tree,
        lits: &mut Vec<i64>,
        pairs: &mut Vec<Pair>,
        tr: &Transition,
    ) -> Result<(), String> {
        match t {
            Tree::Ite(c, a, b) => {
                self.formula(c, lits, pairs)?;
                self.leaves(a, lits, pairs, tr)?;
                self.leaves(b, lits, pairs, tr)
            }
            Tree::Leaf(Leaf::Lit(k)) => {
                lits.push(*k);
                Ok(())
            }
            Tree::Leaf(Leaf::Cell(_, ix) | Leaf::Inc(_, ix, _)) => {
                for i in ix {
                    self.formula(i, lits, pairs)?;
                }
                if let Tree::Leaf(Leaf::Inc(_, _, Amount::C(c))) = t
                    && self.rels.k > 0
                {
                    return err(format!(
                        "transition `{}` adds the constant `{}`: differences are kept for literal steps only",
                        tr.name, self.m.vars[*c].name
                    ));
                }
                if let Tree::Leaf(Leaf::Inc(_, _, Amount::C(c))) = t
                    && !positive(self.m, &tr.guard, *c)
                {
                    return err(format!(
                        "transition `{}` adds the constant `{}` without its guard saying `0 < {}`",
                        tr.name, self.m.vars[*c].name, self.m.vars[*c].name
                    ));
                }
                Ok(())
            }
        }
    }

    /// The tracked ints a top-level conjunct `X[..] = k` of `init` fixes.
    fn fixed(&self, e: &Expr, out: &mut Vec<(VarId, i64)>) {
        match e {
            Expr::And(xs) => xs.iter().for_each(|x| self.fixed(x, out)),
            Expr::Cmp(CmpOp::Eq, a, b) => {
                let (cell, k) = match (&**a, &**b) {
                    (Expr::Read(v, ix), x) | (x, Expr::Read(v, ix)) => ((*v, ix), self.lit(x)),
                    _ => return,
                };
                let locals = cell.1.iter().all(|i| matches!(i, Expr::Local(_)));
                if let Some(k) = k
                    && self.ints.contains(&cell.0)
                    && locals
                    && !out.iter().any(|(w, _)| *w == cell.0)
                {
                    out.push((cell.0, k));
                }
            }
            _ => {}
        }
    }

    /// The update of int `v` in transition `t`, as a tree, with the update.
    pub(super) fn update_of<'t>(&self, t: &'t Transition, v: VarId) -> Option<(&'t Update, Tree)> {
        let u = t.updates.iter().find(|u| u.var == v)?;
        let UpdValue::Term(e) = &u.value else {
            return None;
        };
        self.tree(e).ok().map(|tree| (u, tree))
    }

    /// The values after `t` of the two cells of relation array `p` at the index terms
    /// `here` (one per block), as trees read on the old state.
    pub(super) fn after(&self, t: &Transition, p: &Pair, here: &[Expr]) -> (Tree, Tree) {
        let da = self.m.vars[p.a].dims.len();
        let at = |pat: &[usize]| pat.iter().map(|&k| here[k].clone()).collect::<Vec<_>>();
        (
            self.new_value(t, p.a, at(&p.pat[..da])),
            self.new_value(t, p.b, at(&p.pat[da..])),
        )
    }

    /// The value after `t` of the cell `v[here]`: its store's tree where the store's
    /// indices are `here`, the old cell elsewhere.
    fn new_value(&self, t: &Transition, v: VarId, here: Vec<Expr>) -> Tree {
        let old = Tree::Leaf(Leaf::Cell(v, here.clone()));
        let Some((u, tree)) = self.update_of(t, v) else {
            return old;
        };
        let mut hit = Vec::new();
        let mut s = Vec::new();
        for (i, ix) in u.index.iter().enumerate() {
            match ix {
                Index::Term(x) => hit.push(Ord::eq(here[i].clone(), x.clone())),
                Index::Bind(l) => s.push((*l, here[i].clone())),
            }
        }
        let tree = subst_tree(&tree, &s);
        if hit.is_empty() {
            tree
        } else {
            Tree::Ite(Expr::And(hit), Box::new(tree), Box::new(old))
        }
    }

    /// The relation arrays compared, closed under the stores: for an array (A, B,
    /// pattern) and a transition that stores into A or B, the arrays of the pairs of
    /// cells the new values of A[ā] and B[b̄] read (their leaves, and the comparisons
    /// of their `case` conditions), with the index terms the transition gives them.
    fn closure(&self, mut pairs: Vec<Pair>) -> Vec<Pair> {
        pairs.sort_unstable();
        pairs.dedup();
        let mut next = 0;
        while next < pairs.len() {
            let p = pairs[next].clone();
            next += 1;
            for t in &self.m.transitions {
                if self.update_of(t, p.a).is_none() && self.update_of(t, p.b).is_none() {
                    continue;
                }
                // Fresh locals for the array's indices: no term of t is one of them.
                let here: Vec<Expr> = (0..p.blocks())
                    .map(|k| Expr::Local(t.locals.len() + k))
                    .collect();
                let (x, y) = self.after(t, &p, &here);
                let mut more = Vec::new();
                read_pairs(self, &x, &y, &mut more);
                for q in more {
                    if !pairs.contains(&q) {
                        pairs.push(q);
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }
}

/// The relation arrays the relation of two stored values reads (`Ord::rel_tree`): those
/// of the pairs of cells of their leaves and of the comparisons in their conditions.
fn read_pairs(o: &Ord, x: &Tree, y: &Tree, out: &mut Vec<Pair>) {
    let mut conds = Vec::new();
    let (mut lx, mut ly) = (Vec::new(), Vec::new());
    leaves_of(x, &mut lx, &mut conds);
    leaves_of(y, &mut ly, &mut conds);
    for c in conds {
        // Checked by `formula` before the closure, over the transition's own terms.
        let _ = o.formula(&c, &mut Vec::new(), out);
    }
    for (v, a) in &lx {
        for (w, b) in &ly {
            out.extend(pair_of((*v, a), (*w, b)).map(|(p, ..)| p));
        }
    }
}

/// The cells a stored value's leaves read, and its `case` conditions.
fn leaves_of(t: &Tree, cells: &mut Vec<(VarId, Vec<Expr>)>, conds: &mut Vec<Expr>) {
    match t {
        Tree::Ite(c, a, b) => {
            conds.push(c.clone());
            leaves_of(a, cells, conds);
            leaves_of(b, cells, conds);
        }
        Tree::Leaf(Leaf::Cell(v, ix) | Leaf::Inc(v, ix, _)) => cells.push((*v, ix.clone())),
        Tree::Leaf(Leaf::Lit(_)) => {}
    }
}

/// The literals widened by `k` on each side (`l - k ..= l + k`): with differences kept up
/// to k, an interval class between them is more than k away from every literal of the
/// model, on a known side (docs/every-n.md, "Difference-bounded relations").
fn widen(lits: &mut Vec<i64>, k: i64) {
    let base = lits.clone();
    for l in base {
        for j in 1..=k {
            lits.extend([l.checked_sub(j), l.checked_add(j)].into_iter().flatten());
        }
    }
}
