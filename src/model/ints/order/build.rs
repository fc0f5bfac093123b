//! The abstract model of `model::ints::order`: the ints become their classes, each
//! pair of `Ord::pairs` a relation array, comparisons read the relations and classes,
//! stores update both, and one `order_lost_*` property per relation and class
//! array (and per pattern of equal indices) says that `lost` is never stored.

use super::*;

impl Ord<'_> {
    fn rc(&self, r: i64) -> Expr {
        Expr::Const(r, self.rel_ty)
    }

    fn cc(&self, d: usize) -> Expr {
        Expr::Const(d as i64, self.int_ty)
    }

    pub(super) fn eq(a: Expr, b: Expr) -> Expr {
        Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b))
    }

    fn ite(&self, c: Expr, a: Expr, b: Expr, ty: Ty) -> Expr {
        if a == b {
            return a;
        }
        Expr::Ite(Box::new(c), Box::new(a), Box::new(b), ty)
    }

    fn lost_class(&self) -> usize {
        self.values.len()
    }

    fn class_of_lit(&self, k: i64) -> usize {
        self.values
            .iter()
            .position(|v| *v == LitVal::Lit(k))
            .expect("every literal has its class")
    }

    /// The relation of cells `a` and `b` (on their relation array, turned round when
    /// needed; `=` for one cell with itself).
    fn rel_cells(&self, a: (VarId, &[Expr]), b: (VarId, &[Expr])) -> Result<Expr, String> {
        let Some((p, turn, reps)) = pair_of(a, b) else {
            return Ok(self.rc(self.rels.eq()));
        };
        let Some(k) = self.pairs.iter().position(|q| *q == p) else {
            return err(format!(
                "no relation between `{}` and `{}` (pattern {:?})",
                self.m.vars[p.a].name, self.m.vars[p.b].name, p.pat
            ));
        };
        let read = Expr::Read(self.rel_var[k], reps);
        Ok(if turn { self.flip(read) } else { read })
    }

    /// The relation of the other side: `<` and `>` swapped (differences negated).
    fn flip(&self, e: Expr) -> Expr {
        let r = self.rels;
        self.case_rel(e, |x| r.flip(x))
    }

    /// `e` (a relation) mapped value by value.
    fn case_rel(&self, e: Expr, f: impl Fn(i64) -> i64) -> Expr {
        if let Expr::Const(r, _) = e {
            return self.rc(f(r));
        }
        let lost = self.rels.lost();
        let mut out = self.rc(f(lost));
        for r in (0..lost).rev() {
            out = self.ite(
                Self::eq(e.clone(), self.rc(r)),
                self.rc(f(r)),
                out,
                self.rel_ty,
            );
        }
        out
    }

    /// The relation of a value of class `d` with the literal `l`: the difference when
    /// the class is a literal, the far side when it is an interval (more than the width
    /// away from every literal of the model, `analyse::widen`).
    fn class_rel(&self, d: usize, l: i64) -> i64 {
        match self.values[d] {
            LitVal::Lit(v) => self.rels.of(v.saturating_sub(l)),
            c => self.rels.far(class_vs(c, l)),
        }
    }

    /// A class expression mapped class by class (`lost` for the lost class).
    fn case_class(&self, e: Expr, ty: Ty, f: impl Fn(usize) -> Expr, lost: Expr) -> Expr {
        if let Expr::Const(d, _) = e {
            return if d as usize == self.lost_class() {
                lost
            } else {
                f(d as usize)
            };
        }
        let mut out = lost;
        for d in (0..self.values.len()).rev() {
            out = self.ite(Self::eq(e.clone(), self.cc(d)), f(d), out, ty);
        }
        out
    }

    /// The class a step from class `d` lands in, when it is one.
    fn land(&self, d: usize, a: Amount) -> Option<usize> {
        let top = self.values.len() - 1;
        match a {
            Amount::K(k) => match landing(&self.values, d, k)[..] {
                [one] => Some(one),
                _ => None,
            },
            Amount::C(_) => (d == top || d + 1 == top).then_some(top),
        }
    }

    /// The class of a leaf's value.
    fn class_of(&self, l: &Leaf) -> Expr {
        match l {
            Leaf::Lit(k) => self.cc(self.class_of_lit(*k)),
            Leaf::Cell(v, ix) => Expr::Read(*v, ix.clone()),
            Leaf::Inc(v, ix, a) => {
                let lost = self.cc(self.lost_class());
                let to = |d: usize| self.land(d, *a).map_or(lost.clone(), |c| self.cc(c));
                self.case_class(Expr::Read(*v, ix.clone()), self.int_ty, to, lost.clone())
            }
        }
    }

    /// The relation of two leaves' values (both read on the old state).
    fn rel_leaf(&self, x: &Leaf, y: &Leaf) -> Result<Expr, String> {
        Ok(match (x, y) {
            (Leaf::Lit(k), Leaf::Lit(l)) => self.rc(self.rels.of(k.saturating_sub(*l))),
            (c, Leaf::Lit(l)) => {
                let to = |d: usize| self.rc(self.class_rel(d, *l));
                self.case_class(self.class_of(c), self.rel_ty, to, self.rc(self.rels.lost()))
            }
            (Leaf::Lit(_), c) => self.flip(self.rel_leaf(c, x)?),
            (Leaf::Cell(v, a), Leaf::Cell(w, b)) => self.rel_cells((*v, a), (*w, b))?,
            (Leaf::Inc(v, a, k), Leaf::Cell(w, b)) => {
                // A constant amount is positive: at width 0, any positive shift is 1's.
                let m = step(*k).unwrap_or(1);
                let r = self.rels;
                self.case_rel(self.rel_cells((*v, a), (*w, b))?, |x| r.shift(x, m))
            }
            (Leaf::Cell(..), Leaf::Inc(..)) => self.flip(self.rel_leaf(y, x)?),
            (Leaf::Inc(v, a, k), Leaf::Inc(w, b, l)) if k == l => {
                self.rel_cells((*v, a), (*w, b))?
            }
            (Leaf::Inc(v, a, k), Leaf::Inc(w, b, l)) => match (step(*k), step(*l)) {
                (Some(k), Some(l)) if self.rels.k > 0 => {
                    let (r, m) = (self.rels, k.saturating_sub(l));
                    self.case_rel(self.rel_cells((*v, a), (*w, b))?, |x| r.shift(x, m))
                }
                _ => self.rc(self.rels.lost()),
            },
        })
    }

    /// The relation of two stored values.
    fn rel_tree(&self, a: &Tree, b: &Tree) -> Result<Expr, String> {
        Ok(match (a, b) {
            (Tree::Ite(c, p, q), _) => {
                let (p, q) = (self.rel_tree(p, b)?, self.rel_tree(q, b)?);
                self.ite(self.tr(c)?, p, q, self.rel_ty)
            }
            (Tree::Leaf(_), Tree::Ite(c, p, q)) => {
                let (p, q) = (self.rel_tree(a, p)?, self.rel_tree(a, q)?);
                self.ite(self.tr(c)?, p, q, self.rel_ty)
            }
            (Tree::Leaf(x), Tree::Leaf(y)) => self.rel_leaf(x, y)?,
        })
    }

    /// The class of a stored value.
    fn class_tree(&self, t: &Tree) -> Result<Expr, String> {
        Ok(match t {
            Tree::Ite(c, p, q) => {
                let (p, q) = (self.class_tree(p)?, self.class_tree(q)?);
                self.ite(self.tr(c)?, p, q, self.int_ty)
            }
            Tree::Leaf(l) => self.class_of(l),
        })
    }

    /// A formula with its int comparisons read on the relations and classes.
    fn tr(&self, e: &Expr) -> Result<Expr, String> {
        e.rewrite(self)
    }

    /// An int comparison read on the relations (two cells) or a class (a literal).
    fn cmp(&self, op: CmpOp, a: &Expr, b: &Expr) -> Result<Expr, String> {
        let ok = |o: Ordering| match op {
            CmpOp::Lt => o.is_lt(),
            CmpOp::Le => o.is_le(),
            CmpOp::Eq => o.is_eq(),
            CmpOp::Ne => o.is_ne(),
            CmpOp::Gt => o.is_gt(),
            CmpOp::Ge => o.is_ge(),
        };
        if self.lit(a).is_some() {
            return self.cmp(op.flip(), b, a);
        }
        let (Expr::Read(v, ix), Some(k)) = (a, self.lit(b)) else {
            let (Expr::Read(v, x), Expr::Read(w, y)) = (a, b) else {
                return err("an int comparison the order abstraction does not read".into());
            };
            let r = self.rel_cells((*v, &self.tr_all(x)?), (*w, &self.tr_all(y)?))?;
            return Ok(Expr::Or(
                (0..self.rels.lost())
                    .filter(|&x| ok(self.rels.sign(x)))
                    .map(|x| Self::eq(r.clone(), self.rc(x)))
                    .collect(),
            ));
        };
        let cell = Expr::Read(*v, self.tr_all(ix)?);
        Ok(Expr::Or(
            (0..self.values.len())
                .filter(|&d| ok(class_vs(self.values[d], k)))
                .map(|d| Self::eq(cell.clone(), self.cc(d)))
                .collect(),
        ))
    }

    fn tr_all(&self, xs: &[Expr]) -> Result<Vec<Expr>, String> {
        xs.iter().map(|x| self.tr(x)).collect()
    }
}

/// The amount of a step when it is a literal.
fn step(a: Amount) -> Option<i64> {
    match a {
        Amount::K(k) => Some(k),
        Amount::C(_) => None,
    }
}

/// The model over the order of its ints (module `model::ints::order`), or why its ints
/// are not read so. It is to be printed and read back (`lang::read_back`) before use.
pub fn ordered(m: &Model) -> Result<Model, String> {
    ordered_diff(m, 0)
}

/// The width of the differences worth keeping for `m` (`abstraction order diff K`): its
/// largest step amount, when every step adds a literal; or why none is.
pub fn diff_width(m: &Model) -> Result<i64, String> {
    let (o, _) = Ord::analyse(m, 0)?;
    let mut k = 0;
    for t in &m.transitions {
        for &v in &o.ints {
            if let Some((_, tree)) = o.update_of(t, v) {
                k = k.max(max_step(m, &tree)?);
            }
        }
    }
    if k == 0 {
        return err("no int steps: differences would not make a step exact".into());
    }
    if k > super::diff::MAX_WIDTH {
        return err(format!(
            "a step of {k}: differences are kept up to {} only",
            super::diff::MAX_WIDTH
        ));
    }
    Ok(k)
}

/// The largest literal amount a stored value steps by (0: none), or why differences do
/// not apply (a constant amount).
fn max_step(m: &Model, t: &Tree) -> Result<i64, String> {
    match t {
        Tree::Ite(_, a, b) => Ok(max_step(m, a)?.max(max_step(m, b)?)),
        Tree::Leaf(Leaf::Inc(v, _, a)) => step(*a).ok_or_else(|| {
            format!(
                "a step of `{}` by a constant: differences are kept for literal steps only",
                m.vars[*v].name
            )
        }),
        Tree::Leaf(_) => Ok(0),
    }
}

/// The model over the order of its ints with the differences of two cells kept up to
/// `k` (`order::diff`; 0: the order only), or why its ints are not read so. To be read
/// back before use.
pub fn ordered_diff(m: &Model, k: i64) -> Result<Model, String> {
    let (mut o, start) = Ord::analyse(m, k)?;
    let mut out = m.clone();
    let taken = |n: &str| {
        m.enums
            .iter()
            .any(|e| e.name == n || e.ctors.iter().any(|c| c == n))
            || m.vars.iter().any(|v| v.name == n)
    };
    let int_names: Vec<String> = o
        .values
        .iter()
        .map(|v| super::super::abstracted::ctor(*v).replacen("Int_", "Oint_", 1))
        .chain(["Oint_lost".to_string()])
        .collect();
    let rel_names = o.rels.names();
    for n in rel_names.iter().cloned().chain(int_names.clone()) {
        if taken(&n) {
            return err(format!("the name `{n}` is the model's"));
        }
    }
    out.enums.push(EnumType {
        name: "ord_rel".into(),
        ctors: rel_names,
    });
    o.rel_ty = Ty::Enum(out.enums.len() - 1);
    out.enums.push(EnumType {
        name: "ord_int".into(),
        ctors: int_names,
    });
    o.int_ty = Ty::Enum(out.enums.len() - 1);
    for &v in o.ints.iter().chain(&o.amounts) {
        out.vars[v].ty = o.int_ty;
    }
    let name = |v: VarId| m.vars[v].name.clone();
    for p in &o.pairs.clone() {
        let n = rel_name(m, p);
        if taken(&n) || out.vars.iter().any(|v| v.name == n) {
            return err(format!("the name `{n}` is the model's"));
        }
        let dims = vec![Ty::Proc; p.blocks()];
        out.vars.push(Var {
            name: n,
            kind: if dims.is_empty() {
                VarKind::Global
            } else {
                VarKind::Array
            },
            dims,
            ty: o.rel_ty,
            span: m.vars[p.a].span,
        });
        o.rel_var.push(out.vars.len() - 1);
    }
    for (ti, t) in m.transitions.iter().enumerate() {
        let nt = transition(&o, t)?;
        out.transitions[ti] = nt;
    }
    for (i, init) in m.inits.iter().enumerate() {
        out.inits[i].body = o.tr(&init.body)?;
    }
    free_inits(&o, &mut out);
    inits(&o, &start, &mut out);
    for (i, u) in m.unsafes.iter().enumerate() {
        out.unsafes[i].body = o.tr(&u.body)?;
        for (j, c) in u.conjuncts.iter().enumerate() {
            out.unsafes[i].conjuncts[j].expr = o.tr(&c.expr)?;
        }
    }
    let lost = lost_props(&o, &mut out);
    out.int_window = None;
    out.abs_ints = None;
    out.ord_ints = Some(OrdInts {
        vars: o.ints.iter().map(|&v| name(v)).collect(),
        pairs: o.pairs.iter().map(|p| pair_text(m, p)).collect(),
        lost,
        free: o
            .assumed
            .iter()
            .map(|&(v, k)| format!("{} from {k}", name(v)))
            .collect(),
        diff: k,
    });
    out.warnings.clear();
    Ok(out)
}

/// The name of a relation array: `Ord_A_B` when no indices are equal, else with
/// the block of each index (`Ord_C_Clock_011`: `C[i,j]` against `Clock[j]`).
fn rel_name(m: &Model, p: &Pair) -> String {
    let base = format!("Ord_{}_{}", m.vars[p.a].name, m.vars[p.b].name);
    if p.blocks() == p.pat.len() {
        return base;
    }
    let digits: Vec<String> = p.pat.iter().map(|b| b.to_string()).collect();
    format!("{base}_{}", digits.join(""))
}

/// A relation array for reports: `C[i,j] ? Clock[j]`.
fn pair_text(m: &Model, p: &Pair) -> String {
    let da = m.vars[p.a].dims.len();
    let cell = |v: VarId, pat: &[usize]| {
        let ix: Vec<String> = pat
            .iter()
            .map(|&b| ((b'i' + b as u8) as char).to_string())
            .collect();
        match ix.is_empty() {
            true => m.vars[v].name.clone(),
            false => format!("{}[{}]", m.vars[v].name, ix.join(",")),
        }
    };
    format!("{} ? {}", cell(p.a, &p.pat[..da]), cell(p.b, &p.pat[da..]))
}

/// Transition `t` over the order: its formulas read on the relations, its int
/// stores as classes, and one update per relation array a store touches.
fn transition(o: &Ord, t: &Transition) -> Result<Transition, String> {
    let mut nt = t.clone();
    nt.guard = o.tr(&t.guard)?;
    nt.updates.clear();
    for u in &t.updates {
        let index = u
            .index
            .iter()
            .map(|i| match i {
                Index::Term(x) => o.tr(x).map(Index::Term),
                b => Ok(b.clone()),
            })
            .collect::<Result<Vec<_>, String>>()?;
        let value = if o.ints.contains(&u.var) {
            let (_, tree) = o
                .update_of(t, u.var)
                .ok_or("an int store that is not a value")?;
            UpdValue::Term(o.class_tree(&tree)?)
        } else {
            match &u.value {
                UpdValue::Term(e) => UpdValue::Term(o.tr(e)?),
                UpdValue::Any { var, cond } => UpdValue::Any {
                    var: *var,
                    cond: o.tr(cond)?,
                },
                UpdValue::Nondet => UpdValue::Nondet,
            }
        };
        nt.updates.push(Update {
            index,
            value,
            ..u.clone()
        });
    }
    for (k, p) in o.pairs.iter().enumerate() {
        if o.update_of(t, p.a).is_none() && o.update_of(t, p.b).is_none() {
            continue;
        }
        let binders: Vec<LocalId> = (0..p.blocks())
            .map(|b| {
                nt.locals.push(Local {
                    name: format!("o{k}_{b}"),
                    ty: Ty::Proc,
                });
                nt.locals.len() - 1
            })
            .collect();
        let here: Vec<Expr> = binders.iter().map(|&l| Expr::Local(l)).collect();
        let (x, y) = o.after(t, p, &here);
        nt.updates.push(Update {
            var: o.rel_var[k],
            index: binders.iter().map(|&l| Index::Bind(l)).collect(),
            value: UpdValue::Term(o.rel_tree(&x, &y)?),
            span: t.span,
        });
    }
    Ok(nt)
}

/// The locals `z1..zk` of an `init` block or property over k processes.
fn proc_locals(k: usize) -> Vec<Local> {
    (1..=k)
        .map(|i| Local {
            name: format!("z{i}"),
            ty: Ty::Proc,
        })
        .collect()
}

/// One `init` block per int `init` leaves free but that is written before it is read
/// (`free`): its class is that of the literal it is taken to start at.
fn free_inits(o: &Ord, out: &mut Model) {
    for &(v, k) in &o.assumed {
        let dims = o.m.vars[v].dims.len();
        out.inits.push(Init {
            params: dims,
            locals: proc_locals(dims),
            body: Ord::eq(
                Expr::Read(v, (0..dims).map(Expr::Local).collect()),
                o.cc(o.class_of_lit(k)),
            ),
            span: o.m.vars[v].span,
        });
    }
}

/// One `init` block per relation array: the relation of the literals `init` fixes.
fn inits(o: &Ord, start: &[(VarId, i64)], out: &mut Model) {
    let at = |v: VarId| {
        start
            .iter()
            .find(|(w, _)| *w == v)
            .map(|&(_, k)| k)
            .unwrap_or(0)
    };
    for (i, p) in o.pairs.iter().enumerate() {
        let k = p.blocks();
        let locals = proc_locals(k);
        let body = Ord::eq(
            Expr::Read(o.rel_var[i], (0..k).map(Expr::Local).collect()),
            o.rc(o.rels.of(at(p.a).saturating_sub(at(p.b)))),
        );
        out.inits.push(Init {
            params: k,
            locals,
            body,
            span: o.m.vars[p.a].span,
        });
    }
}

/// The `order_lost_*` properties: no relation or class cell holds `lost`, for each
/// pattern of equal indices (the parameters of a property are distinct). Their names.
fn lost_props(o: &Ord, out: &mut Model) -> Vec<String> {
    let lost_class = o.cc(o.lost_class());
    let arrays: Vec<(VarId, Expr)> = o
        .ints
        .iter()
        .map(|&v| (v, lost_class.clone()))
        .chain(o.rel_var.iter().map(|&v| (v, o.rc(o.rels.lost()))))
        .collect();
    let mut names = Vec::new();
    for (v, lost) in arrays {
        let var = out.vars[v].clone();
        for (i, part) in partitions(var.dims.len()).into_iter().enumerate() {
            let k = part.iter().max().map_or(0, |&b| b + 1);
            let body = Ord::eq(
                Expr::Read(v, part.iter().map(|&b| Expr::Local(b)).collect()),
                lost.clone(),
            );
            let name = format!("order_lost_{}_{}", var.name, i + 1);
            out.unsafes.push(Unsafe {
                name: name.clone(),
                kind: PropKind::Unsafe,
                params: k,
                locals: proc_locals(k),
                conjuncts: vec![Conjunct {
                    expr: body.clone(),
                    span: var.span,
                }],
                body,
                span: var.span,
            });
            names.push(name);
        }
    }
    names
}

/// The int comparisons read on the relations and classes (`Ord::cmp`); everything
/// else kept.
impl Rewrite for Ord<'_> {
    type Error = String;

    fn compare(&self, op: CmpOp, a: &Expr, b: &Expr) -> Option<Result<Expr, String>> {
        (self.int_term(a) || self.int_term(b)).then(|| self.cmp(op, a, b))
    }
}
