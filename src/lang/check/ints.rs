//! The window of `int`: the range type `int` stands for gets its bounds once the whole
//! model is known, from `--int-range` or from the model's integer literals.

use crate::model::ints::{IntWindow, MAX_INT_VALUES};
use crate::model::ir::*;
use crate::source::{Diagnostic, Span};

/// Every integer literal of an expression.
fn literals(e: &Expr, out: &mut Vec<i64>) {
    e.walk(&mut |x| match x.int_literal() {
        Some(v) => {
            out.push(v);
            false
        }
        None => true,
    });
}

fn ltl_literals(l: &Ltl, out: &mut Vec<i64>) {
    for a in l.atoms() {
        literals(a, out);
    }
}

/// The least and greatest integer literal of the model's transitions, `init`,
/// `unsafe` and `ltl` blocks.
fn literal_bounds(m: &Model) -> Option<(i64, i64)> {
    let mut lits = Vec::new();
    for t in &m.transitions {
        literals(&t.guard, &mut lits);
        for u in &t.updates {
            for ix in &u.index {
                if let Index::Term(x) = ix {
                    literals(x, &mut lits);
                }
            }
            match &u.value {
                UpdValue::Term(x) | UpdValue::Any { cond: x, .. } => literals(x, &mut lits),
                UpdValue::Nondet => {}
            }
        }
    }
    for i in &m.inits {
        literals(&i.body, &mut lits);
    }
    for u in &m.unsafes {
        literals(&u.body, &mut lits);
    }
    for l in &m.ltls {
        ltl_literals(&l.body, &mut lits);
    }
    Some((*lits.iter().min()?, *lits.iter().max()?))
}

/// Whether an `init` block fixes every cell of `var` to a literal: one of its
/// top-level conjuncts is `V[z1, .., zk] = lit` with z1..zk distinct parameters of the
/// block (which range over every process, so every cell is meant).
fn init_fixes(init: &Init, var: VarId) -> bool {
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::And(xs) => xs.iter().for_each(|x| conjuncts(x, out)),
            _ => out.push(e),
        }
    }
    let mut cs = Vec::new();
    conjuncts(&init.body, &mut cs);
    cs.into_iter().any(|c| {
        let Expr::Cmp(CmpOp::Eq, a, b) = c else {
            return false;
        };
        let cell = match (&**a, &**b) {
            (Expr::Read(v, ix), x) | (x, Expr::Read(v, ix))
                if *v == var && x.int_literal().is_some() =>
            {
                ix
            }
            _ => return false,
        };
        let mut ids: Vec<usize> = Vec::new();
        for x in cell {
            match x {
                Expr::Local(id) if *id < init.params && !ids.contains(id) => ids.push(*id),
                _ => return false,
            }
        }
        true
    })
}

/// Fix the window of `int` (the range type `r`, first used at `span`): given by
/// `--int-range`, or derived from the model's literals. Returns the warning that
/// reports it.
pub(super) fn settle_ints(
    model: &mut Model,
    r: usize,
    span: Span,
    given: Option<(i64, i64)>,
) -> Result<Diagnostic, Diagnostic> {
    let lits = literal_bounds(model);
    let (lo, hi) = given.unwrap_or_else(|| IntWindow::default_for(lits));
    if hi < lo || hi.saturating_sub(lo) >= MAX_INT_VALUES {
        return Err(Diagnostic::error(
            span,
            format!(
                "the int window {lo}..{hi} is {}",
                if hi < lo { "empty" } else { "too large" }
            ),
        )
        .with_note(format!(
            "help: give --int-range LO..HI with at most {MAX_INT_VALUES} values"
        )));
    }
    model.ranges[r].lo = SizeExpr::Lit(lo);
    model.ranges[r].hi = SizeExpr::Lit(hi);
    let ty = Ty::Range(r);
    let free: Vec<VarId> = (0..model.vars.len())
        .filter(|&v| model.vars[v].ty == ty && !model.inits.iter().any(|i| init_fixes(i, v)))
        .collect();
    let w = IntWindow {
        range: r,
        lo,
        hi,
        given: given.is_some(),
        widened_from: None,
        literals: lits,
        free,
        span,
    };
    let mut d = Diagnostic::warning(span, format!("int: {}", w.summary(model)));
    if given.is_none() {
        d = d.with_note("help: set the window with --int-range LO..HI");
    } else if let Some((a, b)) = lits.filter(|&(a, b)| a < lo || b > hi) {
        d = d.with_note(format!(
            "note: the model's literals {a}..{b} reach outside the window; values outside it are never reached"
        ));
    }
    model.int_window = Some(w);
    Ok(d)
}

/// Read the model's ints as a finite enumeration when they are literal-valued
/// (`model::ints::literal`) and the window was not given: the warning `w` about the window
/// is replaced by one saying so. Otherwise the window stays, and its warning says why
/// the ints are not literal-valued.
pub(super) fn literal_valued(model: &mut Model, w: Diagnostic, given: bool) -> Diagnostic {
    use crate::model::ints::literal;
    if given {
        return w;
    }
    match literal::analyse(model) {
        Ok(Some(plan)) => {
            *model = literal::rewrite(model, &plan);
            let l = model.lit_ints.as_ref().expect("rewritten");
            Diagnostic::warning(w.span, format!("int: {}", l.summary(model))).with_note(
                "note: exact (docs/language.md, literal-valued ints); --int-range LO..HI checks over a window instead",
            )
        }
        Ok(None) => w,
        Err(e) => w.with_note(format!(
            "note: not read as a finite enumeration: {} at {}",
            e.what,
            model.source.file_line(e.span.lo)
        )),
    }
}
