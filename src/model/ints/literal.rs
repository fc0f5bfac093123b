//! Literal-valued `int`s read exactly as a finite enumeration (docs/every-n.md,
//! "Literal-valued ints"; docs/language.md).
//!
//! A model's `int` cells qualify when their values only ever come from literals and
//! from copies among themselves (assignments of literals, of int cells, `case` and
//! `if` results of those, `:= .`, free initial values), and they are only compared
//! (`=`, `<>`, `<`, `<=`, `>`, `>=`) with literals and with each other: no arithmetic,
//! no `N`, no other use. With the literals l1 < ... < lk of those comparisons and
//! stores, the map f sending an integer to its *class*: l_i itself, or the open
//! interval between two consecutive literals (or beyond the first or last) that holds
//! it, decides every comparison with a literal: all the integers of one class relate
//! alike to every l_i. f is also strictly increasing on the classes, so a comparison
//! of two cells is decided too, except when both hold the same interval (`2 < 3` and
//! `2 = 2` are both in (1,4)). So when no two cells that may hold an interval value
//! are compared, the model over the classes (an enumeration ordered like the
//! integers, with `=`, `<` ... on ordinals) is bisimilar to the model over the
//! integers: f commutes with copies and literal stores, and every guard has the same
//! truth on s and f(s). This is data independence (Lazić and Nowak, "A unifying
//! approach to data-independence", CONCUR 2000) for the simplest case, values that
//! only flow and are compared with constants.
//!
//! Which cells may hold an interval value is decided per class of cells (union of
//! copies and comparisons): a class with a cell whose initial value `init` does not
//! fix to a literal, an `int` constant or a `:= .` on one of its cells. A class
//! without one holds literals only (every value it ever holds was stored as a literal
//! or copied from the class), so its cells may be compared with each other. The
//! interval values exist in the enumeration only when some class needs them, and only
//! the nonempty ones (no interval between 1 and 2).
//!
//! The rewrite (`rewrite`) runs when the model is loaded (unless `--int-range` asks
//! for the window): every int variable gets the enumeration type `int` whose values
//! are named by their literal (`2`) or their interval (`(0,2)`, `(-inf,0)`), literals
//! in int terms become its values, and the int window goes. Engines, the every-n
//! fragment and the checker then see enumeration cells; the model prints back
//! (`lang::print`) with `int` declarations and literals, so reading it again gives
//! the same enumeration.

use super::classes::VarClasses;
use crate::model::ir::*;
use crate::source::Span;

/// One value of the enumeration that stands for the ints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitVal {
    /// The integer itself (a literal of the model).
    Lit(i64),
    /// Every integer strictly between the two bounds (`None`: unbounded); never empty.
    Between(Option<i64>, Option<i64>),
}

impl LitVal {
    /// How values are printed: `2`, `(0,2)`, `(-inf,0)`, `(2,+inf)`.
    pub fn name(self) -> String {
        match self {
            LitVal::Lit(k) => k.to_string(),
            LitVal::Between(a, b) => format!(
                "({},{})",
                a.map_or("-inf".to_string(), |a| a.to_string()),
                b.map_or("+inf".to_string(), |b| b.to_string())
            ),
        }
    }
}

/// The ints of a model read as an enumeration (set on the rewritten model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitInts {
    /// The enumeration (`Model::enums`) the int variables now have as type.
    pub enum_id: usize,
    /// The enumeration's values in order (ordinal = index), ordered like the integers.
    pub values: Vec<LitVal>,
    /// The int variables.
    pub vars: Vec<VarId>,
}

impl LitInts {
    /// A comparison atom `cell op value` (op `=`, `<>`, `<=`, `>=`) as text over the
    /// integers, for certificates: a literal is written as itself, an interval as the
    /// comparisons with its bounds (read back, they give the same value).
    pub fn atom_text(&self, cell: &str, op: &str, ord: i64) -> String {
        let Some(v) = self.values.get(ord as usize) else {
            return format!("{cell} {op} <{ord}>");
        };
        match (*v, op) {
            (LitVal::Lit(k), _) => format!("{cell} {op} {k}"),
            (LitVal::Between(a, b), "=") | (LitVal::Between(a, b), "<>") => {
                let mut parts = Vec::new();
                if let Some(a) = a {
                    parts.push(format!("{a} < {cell}"));
                }
                if let Some(b) = b {
                    parts.push(format!("{cell} < {b}"));
                }
                let inside = if parts.is_empty() {
                    "True".to_string()
                } else {
                    format!("({})", parts.join(" && "))
                };
                if op == "=" {
                    inside
                } else {
                    format!("(not {inside})")
                }
            }
            (LitVal::Between(a, _), ">=") => a.map_or("True".into(), |a| format!("{cell} > {a}")),
            (LitVal::Between(_, b), "<=") => b.map_or("True".into(), |b| format!("{cell} < {b}")),
            (LitVal::Between(..), _) => format!("{cell} {op} {}", v.name()),
        }
    }

    /// One line for reports: the values the ints take.
    pub fn summary(&self, m: &Model) -> String {
        let names: Vec<&str> = self.vars.iter().map(|&v| m.vars[v].name.as_str()).collect();
        let vals: Vec<String> = self.values.iter().map(|v| v.name()).collect();
        format!(
            "{} only compared with literals and copied: read exactly as the finite values {}",
            names.join(", "),
            vals.join(", ")
        )
    }
}

/// Why a model's ints are not read as an enumeration: the construct, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFinite {
    pub what: String,
    pub span: Span,
}

/// Whether `e` is an int term other than a literal: an int cell, or an `if`/`case`
/// whose type is `int` or one of whose branches is such a term.
fn int_term(m: &Model, e: &Expr) -> bool {
    match e {
        Expr::Read(v, _) => m.is_int_var(*v),
        Expr::Ite(_, a, b, ty) => m.is_int_ty(*ty) || int_term(m, a) || int_term(m, b),
        _ => false,
    }
}

struct Walk<'m> {
    m: &'m Model,
    classes: VarClasses,
    lits: Vec<i64>,
    /// Comparisons of two non-literal int terms: a cell of each side, and where.
    pairs: Vec<(VarId, VarId, Span)>,
    /// Cells that may hold a value no literal names.
    free: Vec<VarId>,
    /// Steps `X + k` allowed in stored values (`model::ints::abstracted`), and whether one was met.
    steps: Option<bool>,
    span: Span,
    place: String,
}

impl Walk<'_> {
    fn no(&self, what: String) -> NotFinite {
        NotFinite {
            what: format!("{what} ({})", self.place),
            span: self.span,
        }
    }

    fn name(&self, v: VarId) -> &str {
        &self.m.vars[v].name
    }

    /// An int term (a literal, a cell, an `if`/`case` of those): its literals are
    /// collected and the cell it may hold returned (one per term: a term's cells are
    /// united, as its value is a copy of one of them).
    fn term(&mut self, e: &Expr) -> Result<Option<VarId>, NotFinite> {
        if let Some(k) = e.int_literal() {
            self.lits.push(k);
            return Ok(None);
        }
        match e {
            Expr::Read(v, ix) if self.m.is_int_var(*v) => {
                for x in ix {
                    self.formula(x)?;
                }
                Ok(Some(*v))
            }
            Expr::Ite(c, a, b, _) => {
                self.formula(c)?;
                let (x, y) = (self.term(a)?, self.term(b)?);
                if let (Some(x), Some(y)) = (x, y) {
                    self.classes.union(x, y);
                }
                Ok(x.or(y))
            }
            _ => Err(self.no(match self.m.first_int_read(e) {
                Some(v) => match e {
                    Expr::Arith(..) => format!("arithmetic on the int `{}`", self.name(v)),
                    _ => format!(
                        "the int `{}` used other than compared or copied",
                        self.name(v)
                    ),
                },
                None => match e {
                    Expr::Size => "`N` compared with or stored into an int".to_string(),
                    Expr::Arith(..) => {
                        "arithmetic compared with or stored into an int".to_string()
                    }
                    _ => "a term that is neither an int cell nor a literal compared with or stored into an int".to_string(),
                },
            })),
        }
    }

    /// A stored int value: a term, or (when steps are allowed) `X + k`, `k + X`,
    /// `X - k` of an int cell X, and `if`/`case` of those. A step makes its cell's
    /// class hold values no literal names.
    fn value(&mut self, e: &Expr) -> Result<Option<VarId>, NotFinite> {
        if self.steps.is_some() {
            if let Some((v, ix, _)) = step(self.m, e) {
                for x in ix {
                    self.formula(x)?;
                }
                self.steps = Some(true);
                self.free.push(v);
                return Ok(Some(v));
            }
            if let Expr::Ite(c, a, b, _) = e {
                self.formula(c)?;
                let (x, y) = (self.value(a)?, self.value(b)?);
                if let (Some(x), Some(y)) = (x, y) {
                    self.classes.union(x, y);
                }
                return Ok(x.or(y));
            }
        }
        self.term(e)
    }

    /// A formula, or a term of another type than `int`.
    fn formula(&mut self, e: &Expr) -> Result<(), NotFinite> {
        match e {
            Expr::Cmp(_, a, b) if int_term(self.m, a) || int_term(self.m, b) => {
                let (x, y) = (self.term(a)?, self.term(b)?);
                if let (Some(x), Some(y)) = (x, y) {
                    self.classes.union(x, y);
                    self.pairs.push((x, y, self.span));
                }
                Ok(())
            }
            Expr::Read(v, _) if self.m.is_int_var(*v) => Err(self.no(format!(
                "the int `{}` used other than compared or copied",
                self.name(*v)
            ))),
            Expr::Arith(..) => match self.m.first_int_read(e) {
                Some(v) => Err(self.no(format!("arithmetic on the int `{}`", self.name(v)))),
                None => e.try_for_each_child(|x| self.formula(x)),
            },
            Expr::Quant(q) if matches!(q.dom, Domain::Type(t) if self.m.is_int_ty(t)) => {
                Err(self.no("a quantifier over `int`".into()))
            }
            _ => e.try_for_each_child(|x| self.formula(x)),
        }
    }

    fn locals(&self, locals: &[Local]) -> Result<(), NotFinite> {
        match locals.iter().find(|l| self.m.is_int_ty(l.ty)) {
            Some(l) => Err(self.no(format!("the local name `{}` of type `int`", l.name))),
            None => Ok(()),
        }
    }

    /// Every formula and update of the model walked, each where it is (for the note).
    fn model(&mut self) -> Result<(), NotFinite> {
        for i in &self.m.inits {
            self.span = i.span;
            self.place = "init".into();
            self.locals(&i.locals)?;
            self.formula(&i.body)?;
        }
        for u in &self.m.unsafes {
            self.span = u.span;
            self.place = u.quoted();
            self.locals(&u.locals)?;
            self.formula(&u.body)?;
        }
        for l in &self.m.ltls {
            self.span = l.span;
            self.place = format!("ltl `{}`", l.name);
            self.locals(&l.locals)?;
            for a in l.body.atoms() {
                self.formula(a)?;
            }
        }
        for t in &self.m.transitions {
            self.span = t.span;
            self.place = format!("transition `{}`", t.name);
            self.locals(&t.locals)?;
            self.formula(&t.guard)?;
            for u in &t.updates {
                self.span = u.span;
                for ix in &u.index {
                    if let Index::Term(x) = ix {
                        self.formula(x)?;
                    }
                }
                match &u.value {
                    UpdValue::Term(e) if self.m.is_int_var(u.var) => {
                        if let Some(w) = self.value(e)? {
                            self.classes.union(u.var, w);
                        }
                    }
                    UpdValue::Term(e) => self.formula(e)?,
                    UpdValue::Nondet if self.m.is_int_var(u.var) => self.free.push(u.var),
                    UpdValue::Nondet => {}
                    UpdValue::Any { cond, .. } => self.formula(cond)?,
                }
            }
        }
        Ok(())
    }
}

/// `X + k`, `k + X` or `X - k` (k a literal) of an int cell X: the cell, its indices
/// and the step (negative for `-`).
pub fn step<'e>(m: &Model, e: &'e Expr) -> Option<(VarId, &'e [Expr], i64)> {
    let Expr::Arith(op, a, b) = e else {
        return None;
    };
    let cell = |x: &'e Expr| match x {
        Expr::Read(v, ix) if m.is_int_var(*v) => Some((*v, ix)),
        _ => None,
    };
    match (op, cell(a), b.int_literal(), a.int_literal(), cell(b)) {
        (ArithOp::Add, Some((v, ix)), Some(k), _, _) => Some((v, ix.as_slice(), k)),
        (ArithOp::Sub, Some((v, ix)), Some(k), _, _) => Some((v, ix.as_slice(), -k)),
        (ArithOp::Add, _, _, Some(k), Some((v, ix))) => Some((v, ix.as_slice(), k)),
        _ => None,
    }
}

/// The plan of the rewrite: the enumeration's values, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub values: Vec<LitVal>,
    pub vars: Vec<VarId>,
    /// A stored value steps from a cell (`X + k`): the model over the values is then
    /// an over-approximation (`model::ints::abstracted`), not the model.
    pub steps: bool,
}

/// Decide from the text whether the model's ints are literal-valued (module
/// comment); `Ok(None)` for a model without ints.
pub fn analyse(m: &Model) -> Result<Option<Plan>, NotFinite> {
    analyse_with(m, false)
}

/// `analyse`, also allowing steps `X + k` in stored values when `steps` is set
/// (`model::ints::abstracted`).
pub fn analyse_with(m: &Model, steps: bool) -> Result<Option<Plan>, NotFinite> {
    let Some(w) = &m.int_window else {
        return Ok(None);
    };
    let mut walk = Walk {
        m,
        classes: VarClasses::new(m.vars.len()),
        lits: Vec::new(),
        pairs: Vec::new(),
        free: w.free.clone(),
        steps: steps.then_some(false),
        span: w.span,
        place: "declarations".into(),
    };
    for (k, v) in m.vars.iter().enumerate() {
        walk.span = v.span;
        if v.dims.iter().any(|&t| m.is_int_ty(t)) {
            return Err(walk.no(format!("`{}` is indexed by `int`", v.name)));
        }
        if m.is_int_ty(v.ty) && v.kind == VarKind::Const && !walk.free.contains(&k) {
            walk.free.push(k);
        }
    }
    walk.model()?;
    // A class holding a value no literal names may not compare two of its cells.
    let free_roots: Vec<VarId> = walk
        .free
        .clone()
        .into_iter()
        .map(|v| walk.classes.find(v))
        .collect();
    for (x, y, span) in walk.pairs.clone() {
        let r = walk.classes.find(x);
        if free_roots.contains(&r) {
            let witness = walk
                .free
                .clone()
                .into_iter()
                .find(|&v| walk.classes.find(v) == r)
                .unwrap_or(x);
            return Err(NotFinite {
                what: format!(
                    "the ints `{}` and `{}` are compared with each other while `{}` may hold a value no literal names (init leaves it free, or `:= .`): two such values in one interval between literals are not told apart",
                    walk.name(x),
                    walk.name(y),
                    walk.name(witness)
                ),
                span,
            });
        }
    }
    let mut lits = walk.lits.clone();
    lits.sort_unstable();
    lits.dedup();
    let intervals = !walk.free.is_empty();
    let mut values = Vec::new();
    let mut prev: Option<i64> = None;
    for &k in &lits {
        // The integers strictly between the previous literal and k, if any.
        if intervals && prev.is_none_or(|p| k - p >= 2) {
            values.push(LitVal::Between(prev, Some(k)));
        }
        values.push(LitVal::Lit(k));
        prev = Some(k);
    }
    if intervals {
        values.push(LitVal::Between(prev, None));
    }
    Ok(Some(Plan {
        values,
        vars: (0..m.vars.len()).filter(|&v| m.is_int_var(v)).collect(),
        steps: walk.steps == Some(true),
    }))
}

struct Rw<'m> {
    m: &'m Model,
    ty: Ty,
    values: &'m [LitVal],
    /// Comparisons with a literal become the disjunction of the values that satisfy
    /// them, so the enumeration needs no order (`model::ints::abstracted`).
    expand: bool,
}

impl LitVal {
    /// Whether every integer of this value satisfies `x op k`, for a literal k of the
    /// model (never inside an interval, so all of one interval relate alike).
    pub fn satisfies(self, op: CmpOp, k: i64) -> bool {
        let x = match self {
            LitVal::Lit(l) => l,
            LitVal::Between(Some(a), _) => a + 1,
            LitVal::Between(None, Some(b)) => b - 1,
            LitVal::Between(None, None) => 0,
        };
        op.apply(x, k)
    }
}

impl Rw<'_> {
    /// `a op c` with one side a literal, as the disjunction of `cell = v` over the
    /// values v that satisfy it.
    fn expanded(&self, op: CmpOp, a: &Expr, c: &Expr) -> Option<Expr> {
        let (cell, op, k) = match (a.int_literal(), c.int_literal()) {
            (None, Some(k)) => (a, op, k),
            (Some(k), None) => (c, op.flip(), k),
            _ => return None,
        };
        let cell = self.term(cell);
        Some(Expr::Or(
            (0..self.values.len())
                .filter(|&v| self.values[v].satisfies(op, k))
                .map(|v| {
                    Expr::Cmp(
                        CmpOp::Eq,
                        Box::new(cell.clone()),
                        Box::new(Expr::Const(v as i64, self.ty)),
                    )
                })
                .collect(),
        ))
    }

    fn ord(&self, k: i64) -> i64 {
        // Every literal of an int term is a value (`analyse` collected it).
        self.values
            .iter()
            .position(|v| *v == LitVal::Lit(k))
            .unwrap_or(0) as i64
    }

    /// An int term: literals become values of the enumeration.
    fn term(&self, e: &Expr) -> Expr {
        if let Some(k) = e.int_literal() {
            return Expr::Const(self.ord(k), self.ty);
        }
        match e {
            Expr::Ite(c, a, b, _) => Expr::Ite(
                Box::new(self.expr(c)),
                Box::new(self.term(a)),
                Box::new(self.term(b)),
                self.ty,
            ),
            _ => self.expr(e),
        }
    }

    fn expr(&self, e: &Expr) -> Expr {
        let b = |x: &Expr| Box::new(self.expr(x));
        match e {
            Expr::Cmp(op, a, c) if int_term(self.m, a) || int_term(self.m, c) => self
                .expand
                .then(|| self.expanded(*op, a, c))
                .flatten()
                .unwrap_or_else(|| Expr::Cmp(*op, Box::new(self.term(a)), Box::new(self.term(c)))),
            Expr::Const(..) | Expr::Size | Expr::Local(_) => e.clone(),
            Expr::Read(v, ix) => Expr::Read(*v, ix.iter().map(|x| self.expr(x)).collect()),
            Expr::Arith(op, x, y) => Expr::Arith(*op, b(x), b(y)),
            Expr::Cmp(op, x, y) => Expr::Cmp(*op, b(x), b(y)),
            Expr::Not(x) => Expr::Not(b(x)),
            Expr::And(xs) => Expr::And(xs.iter().map(|x| self.expr(x)).collect()),
            Expr::Or(xs) => Expr::Or(xs.iter().map(|x| self.expr(x)).collect()),
            Expr::Imp(x, y) => Expr::Imp(b(x), b(y)),
            Expr::Iff(x, y) => Expr::Iff(b(x), b(y)),
            Expr::Ite(c, x, y, t) => Expr::Ite(b(c), b(x), b(y), *t),
            Expr::Quant(q) => Expr::Quant(Quant {
                dom: match &q.dom {
                    Domain::Procs { except } => Domain::Procs {
                        except: except.iter().map(|x| self.expr(x)).collect(),
                    },
                    Domain::Type(t) => Domain::Type(*t),
                },
                body: b(&q.body),
                ..*q
            }),
        }
    }

    fn ltl(&self, l: &Ltl) -> Ltl {
        let b = |x: &Ltl| Box::new(self.ltl(x));
        match l {
            Ltl::Atom(e) => Ltl::Atom(self.expr(e)),
            Ltl::Not(a) => Ltl::Not(b(a)),
            Ltl::Next(a) => Ltl::Next(b(a)),
            Ltl::Globally(a) => Ltl::Globally(b(a)),
            Ltl::Finally(a) => Ltl::Finally(b(a)),
            Ltl::And(x, y) => Ltl::And(b(x), b(y)),
            Ltl::Or(x, y) => Ltl::Or(b(x), b(y)),
            Ltl::Imp(x, y) => Ltl::Imp(b(x), b(y)),
            Ltl::Iff(x, y) => Ltl::Iff(b(x), b(y)),
            Ltl::Until(x, y) => Ltl::Until(b(x), b(y)),
            Ltl::Release(x, y) => Ltl::Release(b(x), b(y)),
            Ltl::WeakUntil(x, y) => Ltl::WeakUntil(b(x), b(y)),
        }
    }
}

/// The model with its ints read as the enumeration of `plan` (module comment).
pub fn rewrite(m: &Model, plan: &Plan) -> Model {
    if m.int_window.is_none() {
        return m.clone();
    }
    let (mut out, enum_id) = over_values(
        m,
        plan,
        "int",
        plan.values.iter().map(|v| v.name()).collect(),
        false,
    );
    out.lit_ints = Some(LitInts {
        enum_id,
        values: plan.values.clone(),
        vars: plan.vars.clone(),
    });
    out
}

/// The model with its int variables of type `name`, a new enumeration with
/// constructors `ctors` (one per value of `plan`), every int literal its value, and no
/// int window; comparisons with literals `expand`ed to disjunctions when asked. Steps
/// (`X + k`) are left as they are. Returns the enumeration's index.
pub(super) fn over_values(
    m: &Model,
    plan: &Plan,
    name: &str,
    ctors: Vec<String>,
    expand: bool,
) -> (Model, usize) {
    let mut out = m.clone();
    let enum_id = out.enums.len();
    out.enums.push(EnumType {
        name: name.into(),
        ctors,
    });
    let ty = Ty::Enum(enum_id);
    let rw = Rw {
        m,
        ty,
        values: &plan.values,
        expand,
    };
    for &v in &plan.vars {
        out.vars[v].ty = ty;
    }
    for i in &mut out.inits {
        i.body = rw.expr(&i.body);
    }
    for u in &mut out.unsafes {
        u.body = rw.expr(&u.body);
        for c in &mut u.conjuncts {
            c.expr = rw.expr(&c.expr);
        }
    }
    for l in &mut out.ltls {
        l.body = rw.ltl(&l.body);
    }
    for t in &mut out.transitions {
        t.guard = rw.expr(&t.guard);
        for u in &mut t.updates {
            for ix in &mut u.index {
                if let Index::Term(x) = ix {
                    *x = rw.expr(x);
                }
            }
            u.value = match &u.value {
                UpdValue::Term(e) if m.is_int_var(u.var) => UpdValue::Term(rw.term(e)),
                UpdValue::Term(e) => UpdValue::Term(rw.expr(e)),
                UpdValue::Nondet => UpdValue::Nondet,
                UpdValue::Any { var, cond } => UpdValue::Any {
                    var: *var,
                    cond: rw.expr(cond),
                },
            };
        }
    }
    out.int_window = None;
    (out, enum_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    const HEAD: &str =
        "type loc = I | W | C\narray P[proc] : loc\narray F[proc] : int\nvar R : int\n";

    fn plan(body: &str) -> Result<Option<Plan>, NotFinite> {
        let m = load_str("t.cub", &format!("{HEAD}{body}")).unwrap();
        // The loader already rewrote a qualifying model; analyse the int-window one.
        let m = crate::lang::load_str_with(
            "t.cub",
            &m.source.text,
            &crate::lang::LoadOptions {
                int_range: Some((-5, 5)),
                ..Default::default()
            },
        )
        .unwrap();
        analyse(&m)
    }

    const SAFE: &str = "init (x) { P[x] = I && F[x] = 0 && R = 1 }\n\
        unsafe (x y) { P[x] = C && P[y] = C }\n";

    #[test]
    fn literal_stores_and_comparisons_qualify_without_intervals() {
        let p = plan(&format!(
            "{SAFE}transition a (x) requires {{ P[x] = I && R < 3 }} {{ P[x] := W; F[x] := 2; R := 3; }}\n\
             transition b (x) requires {{ F[x] <> 2 && F[x] = R }} {{ F[x] := case | R = 1 : R | _ : 0; }}\n"
        ))
        .unwrap()
        .unwrap();
        // Literals 0, 1, 2, 3; init fixes every int, so no interval.
        assert_eq!(
            p.values,
            vec![
                LitVal::Lit(0),
                LitVal::Lit(1),
                LitVal::Lit(2),
                LitVal::Lit(3)
            ]
        );
    }

    #[test]
    fn free_initial_values_add_the_nonempty_intervals() {
        let p = plan(
            "init (x) { P[x] = I && R = 1 }\nunsafe (x y) { P[x] = C && P[y] = C }\n\
             transition a (x) requires { F[x] < 3 && R = 1 } { F[x] := 0; R := 2; }\n",
        )
        .unwrap()
        .unwrap();
        // F is free: literals 0, 1, 2, 3 and the intervals below 0 and above 3 (none
        // between consecutive literals).
        assert_eq!(
            p.values,
            vec![
                LitVal::Between(None, Some(0)),
                LitVal::Lit(0),
                LitVal::Lit(1),
                LitVal::Lit(2),
                LitVal::Lit(3),
                LitVal::Between(Some(3), None)
            ]
        );
    }

    #[test]
    fn refusals_name_the_construct() {
        let no = |t: &str| plan(&format!("{SAFE}{t}")).unwrap_err().what;
        assert!(no("transition t (x) { R := R + 1; }").contains("arithmetic on the int `R`"));
        assert!(
            no("transition t (x) requires { F[x] + 1 < 3 } { R := 2; }").contains("arithmetic")
        );
        assert!(no("transition t (x) requires { F[x] < N } { R := 2; }").contains("`N`"));
        // Free F compared with another cell of its class.
        let free = plan(
            "init (x) { P[x] = I && R = 1 }\nunsafe (x y) { P[x] = C && P[y] = C }\n\
             transition t (x y) requires { F[x] = F[y] } { R := 2; }\n",
        )
        .unwrap_err()
        .what;
        assert!(free.contains("compared with each other"), "{free}");
        // The same comparison is fine when init fixes F.
        assert!(
            plan(&format!(
                "{SAFE}transition t (x y) requires {{ F[x] = F[y] }} {{ R := 2; }}\n"
            ))
            .is_ok()
        );
        // `:= .` makes the class free.
        let nd = plan(&format!(
            "{SAFE}transition t (x y) requires {{ F[x] < F[y] }} {{ F[x] := .; }}\n"
        ))
        .unwrap_err()
        .what;
        assert!(nd.contains("compared with each other"), "{nd}");
    }

    #[test]
    fn the_loaded_model_has_the_enumeration_and_prints_back() {
        let m = load_str(
            "t.cub",
            &format!(
                "{HEAD}{SAFE}transition a (x) requires {{ F[x] < 2 }} {{ F[x] := 2; R := -1; }}\n"
            ),
        )
        .unwrap();
        let l = m.lit_ints.as_ref().expect("rewritten");
        assert!(m.int_window.is_none());
        assert_eq!(m.enums[l.enum_id].ctors, vec!["-1", "0", "1", "2"]);
        let text = crate::lang::print::model_text(&m);
        let again = load_str("t.cub", &text).unwrap();
        assert_eq!(again.lit_ints.as_ref().unwrap().values, l.values);
        assert_eq!(crate::lang::print::model_text(&again), text);
    }

    #[test]
    fn interval_atoms_print_as_comparisons() {
        let l = LitInts {
            enum_id: 0,
            values: vec![
                LitVal::Between(None, Some(0)),
                LitVal::Lit(0),
                LitVal::Between(Some(0), Some(3)),
                LitVal::Lit(3),
            ],
            vars: vec![],
        };
        assert_eq!(l.atom_text("F[i]", "=", 1), "F[i] = 0");
        assert_eq!(l.atom_text("F[i]", "=", 2), "(0 < F[i] && F[i] < 3)");
        assert_eq!(l.atom_text("F[i]", "=", 0), "(F[i] < 0)");
        assert_eq!(l.atom_text("F[i]", ">=", 2), "F[i] > 0");
        assert_eq!(l.atom_text("F[i]", "<=", 2), "F[i] < 3");
    }
}
