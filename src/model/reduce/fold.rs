//! Constant folding of the model's formulas once constants are substituted, in the
//! interpreter's order: an operand is dropped only when it is never evaluated (after
//! the operand that decides an `&&` or `||`) or cannot fail (`safe`), so no range
//! error is lost. A guard that folds to `False` is a transition that cannot fire.

use super::safe::Ranges;
use crate::model::ir::*;

const TRUE: Expr = Expr::Const(1, Ty::Bool);
const FALSE: Expr = Expr::Const(0, Ty::Bool);

/// Whether `e` is the literal `False`.
pub fn is_false(e: &Expr) -> bool {
    *e == FALSE
}

/// Fold the guards, updates and `init` of the model.
pub fn model(m: &mut Model, sizes: &[usize]) {
    let before = m.clone();
    let ranges: Vec<Ranges> = sizes.iter().map(|&n| Ranges::new(&before, n)).collect();
    let safe = |locals: &[Local], e: &Expr| !ranges.iter().any(|r| r.may_fail(locals, e));
    for t in &mut m.transitions {
        let locals = t.locals.clone();
        let s = |e: &Expr| safe(&locals, e);
        t.guard = fold(&t.guard, &s);
        for u in &mut t.updates {
            for ix in &mut u.index {
                if let Index::Term(e) = ix {
                    *e = fold(e, &s);
                }
            }
            match &mut u.value {
                UpdValue::Term(e) | UpdValue::Any { cond: e, .. } => *e = fold(e, &s),
                UpdValue::Nondet => {}
            }
        }
    }
    // Properties keep their conjuncts as written (their coverage is reported per
    // conjunct), folded or not.
    for i in &mut m.inits {
        let locals = i.locals.clone();
        i.body = fold(&i.body, &|e| safe(&locals, e));
    }
}

fn boolean(b: bool) -> Expr {
    if b { TRUE } else { FALSE }
}

/// `e` folded; `safe` tells an operand that cannot fail.
pub fn fold(e: &Expr, safe: &dyn Fn(&Expr) -> bool) -> Expr {
    let f = |x: &Expr| fold(x, safe);
    match e {
        Expr::Not(a) => match f(a) {
            Expr::Const(v, Ty::Bool) => boolean(v == 0),
            a => Expr::Not(Box::new(a)),
        },
        Expr::And(xs) | Expr::Or(xs) => junction(matches!(e, Expr::And(_)), xs, safe),
        Expr::Imp(a, b) => match (f(a), f(b)) {
            (a, _) if a == FALSE => TRUE,
            (a, b) if a == TRUE => b,
            (a, b) if b == TRUE && safe(&a) => TRUE,
            (a, b) => Expr::Imp(Box::new(a), Box::new(b)),
        },
        Expr::Iff(a, b) => match (f(a), f(b)) {
            (Expr::Const(x, Ty::Bool), Expr::Const(y, Ty::Bool)) => boolean(x == y),
            (a, b) if a == TRUE => b,
            (a, b) if b == TRUE => a,
            (a, b) => Expr::Iff(Box::new(a), Box::new(b)),
        },
        Expr::Cmp(op, a, b) => match (f(a), f(b)) {
            (Expr::Const(x, _), Expr::Const(y, _)) => boolean(op.apply(x, y)),
            (a, b) => Expr::Cmp(*op, Box::new(a), Box::new(b)),
        },
        Expr::Ite(c, a, b, ty) => match (f(c), f(a), f(b)) {
            (c, a, _) if c == TRUE => a,
            (c, _, b) if c == FALSE => b,
            (c, a, b) if a == b && safe(&c) => a,
            (c, a, b) => Expr::Ite(Box::new(c), Box::new(a), Box::new(b), *ty),
        },
        Expr::Arith(op, a, b) => match (f(a), f(b)) {
            (Expr::Const(x, t), Expr::Const(y, _)) => {
                let r = match op {
                    ArithOp::Add => x.checked_add(y),
                    ArithOp::Sub => x.checked_sub(y),
                    ArithOp::Mul => x.checked_mul(y),
                };
                match r {
                    Some(v) => Expr::Const(v, t),
                    None => Expr::Arith(
                        *op,
                        Box::new(Expr::Const(x, t)),
                        Box::new(Expr::Const(y, t)),
                    ),
                }
            }
            (a, b) => Expr::Arith(*op, Box::new(a), Box::new(b)),
        },
        Expr::Read(v, ix) => Expr::Read(*v, ix.iter().map(f).collect()),
        Expr::Quant(q) => {
            let body = f(&q.body);
            let dom = match &q.dom {
                Domain::Procs { except } => Domain::Procs {
                    except: except.iter().map(f).collect(),
                },
                d => d.clone(),
            };
            // A body that does not depend on the bound process: `forall x. True` and
            // `exists x. False` whatever the domain.
            if (q.forall && body == TRUE) || (!q.forall && body == FALSE) {
                return body;
            }
            Expr::quant(q.forall, q.var, dom, body)
        }
        Expr::Const(..) | Expr::Size | Expr::Local(_) => e.clone(),
    }
}

/// The conjunction (`and`) or disjunction of `xs` folded: the unit of the junction is
/// dropped; its zero decides.
fn junction(and: bool, xs: &[Expr], safe: &dyn Fn(&Expr) -> bool) -> Expr {
    let (unit, zero) = if and { (TRUE, FALSE) } else { (FALSE, TRUE) };
    let mut out: Vec<Expr> = Vec::new();
    for x in xs {
        let x = fold(x, safe);
        if x == unit {
            continue;
        }
        if x == zero {
            if out.iter().all(safe) {
                return zero;
            }
            out.push(x);
            break;
        }
        out.push(x);
    }
    match out.len() {
        0 => unit,
        1 => out.pop().unwrap_or(unit),
        _ if and => Expr::And(out),
        _ => Expr::Or(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: VarId) -> Expr {
        Expr::Read(v, vec![])
    }

    #[test]
    fn folds_keep_the_operands_that_may_fail_before_the_deciding_one() {
        let never = |_: &Expr| true;
        let risky = |e: &Expr| !matches!(e, Expr::Read(1, _));
        let e = Expr::And(vec![read(0), FALSE, read(1)]);
        assert_eq!(fold(&e, &never), FALSE);
        let e = Expr::And(vec![read(1), FALSE, read(0)]);
        assert_eq!(fold(&e, &risky), Expr::And(vec![read(1), FALSE]));
        let e = Expr::Or(vec![FALSE, Expr::Not(Box::new(FALSE)), read(1)]);
        assert_eq!(fold(&e, &risky), TRUE);
        let e = Expr::Cmp(
            CmpOp::Lt,
            Box::new(Expr::Const(2, Ty::Int)),
            Box::new(Expr::Const(3, Ty::Int)),
        );
        assert_eq!(fold(&e, &never), TRUE);
    }
}
