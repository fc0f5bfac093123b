//! A warning for the quantifier-scope trap: a quantifier's body reaches as far right as
//! it can, so `forall_other j. Flag[j] < 3 && Pc[i] = Door` puts `Pc[i] = Door` inside
//! the quantifier (at size 1 the whole guard is then true). A conjunct of a body that
//! does not mention the bound variable is most likely meant outside it.

use crate::lang::ast::{BinOp, Expr, ExprKind, File, Item, QuantDom, Rhs, UpdateItem};
use crate::source::Diagnostic;

/// One warning per conjunct of a quantifier's body that does not mention its variable.
pub(super) fn quantifier_scopes(file: &File) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for it in &file.items {
        match it {
            Item::Init { body, .. }
            | Item::Invariant { body, .. }
            | Item::Unsafe { body, .. }
            | Item::Predicate { body, .. }
            | Item::Ltl { body, .. } => walk(body, &mut out),
            Item::Transition {
                requires, updates, ..
            } => {
                if let Some(r) = requires {
                    walk(r, &mut out);
                }
                for u in updates {
                    update(u, &mut out);
                }
            }
        }
    }
    out
}

fn update(u: &UpdateItem, out: &mut Vec<Diagnostic>) {
    match u {
        UpdateItem::Let(_, e) => walk(e, out),
        UpdateItem::Assign { lhs, rhs, .. } => {
            lhs.index.iter().for_each(|e| walk(e, out));
            match rhs {
                Rhs::Expr(e) => walk(e, out),
                Rhs::Any(_, e) => walk(e, out),
                Rhs::Case {
                    branches, default, ..
                } => {
                    for (g, t) in branches {
                        walk(g, out);
                        walk(t, out);
                    }
                    if let Some(d) = default {
                        walk(d, out);
                    }
                }
                Rhs::Nondet(_) => {}
            }
        }
    }
}

fn walk(e: &Expr, out: &mut Vec<Diagnostic>) {
    match &e.kind {
        ExprKind::Quant(q) => {
            let (var, dom) = (&q.var, &q.dom);
            let mut parts = Vec::new();
            conjuncts(&q.body, &mut parts);
            // `forall x <> y.` with `y` unbound binds both (Cubicle's reading): a
            // conjunct mentioning one of the excepted names is not flagged either.
            let names: Vec<&str> = match dom {
                QuantDom::ProcExcept(ys) => std::iter::once(var.name.as_str())
                    .chain(ys.iter().map(|y| y.name.as_str()))
                    .collect(),
                _ => vec![var.name.as_str()],
            };
            let reads = |c: &Expr| names.iter().any(|n| mentions(c, n));
            if parts.len() > 1 && parts.iter().any(|c| reads(c)) {
                let word = match (q.forall, dom) {
                    (true, QuantDom::Other) => "forall_other",
                    (false, QuantDom::Other) => "exists_other",
                    (true, _) => "forall",
                    (false, _) => "exists",
                };
                for c in parts.iter().filter(|c| !reads(c)) {
                    out.push(
                        Diagnostic::warning(
                            c.span,
                            format!(
                                "this conjunct does not mention `{}`, yet it is inside `{word} {}.`: a quantifier's body reaches as far right as it can",
                                var.name, var.name
                            ),
                        )
                        .with_note(format!(
                            "help: if it was meant outside, parenthesise the quantifier: `({word} {}. ...) && ...`",
                            var.name
                        )),
                    );
                }
            }
            walk(&q.body, out);
        }
        _ => children(e, &mut |c| walk(c, out)),
    }
}

/// The conjuncts of `e` (itself when it is no conjunction).
fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// Whether `e` reads the name `v`.
fn mentions(e: &Expr, v: &str) -> bool {
    if let ExprKind::Lower(n) = &e.kind {
        return n == v;
    }
    let mut found = false;
    children(e, &mut |c| found |= mentions(c, v));
    found
}

fn children(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Index(_, xs) | ExprKind::Call(_, xs) => xs.iter().for_each(f),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Temporal(_, a) => f(a),
        ExprKind::Bin(_, a, b) | ExprKind::Let(_, a, b) => {
            f(a);
            f(b);
        }
        ExprKind::Ite(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Quant(q) => f(&q.body),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    fn warnings(src: &str) -> Vec<String> {
        let m = crate::lang::load_str("t.cub", src).expect("loads");
        m.warnings
            .iter()
            .filter(|d| d.message.contains("does not mention"))
            .map(|d| src[d.span.lo..d.span.hi].to_string())
            .collect()
    }

    #[test]
    fn a_conjunct_without_the_variable_is_named() {
        let head = "type loc = Door | Crit\narray Pc[proc] : loc\narray Flag[proc] : bool\ninit (i) { Pc[i] = Door }\n";
        let trap = format!(
            "{head}transition t (i) requires {{ forall_other j. Flag[j] = False && Pc[i] = Door }} {{ Pc[i] := Crit; }}\n"
        );
        assert_eq!(warnings(&trap), vec!["Pc[i] = Door".to_string()]);
        let fine = format!(
            "{head}transition t (i) requires {{ (forall_other j. Flag[j] = False) && Pc[i] = Door }} {{ Pc[i] := Crit; }}\n"
        );
        assert!(warnings(&fine).is_empty());
        let both = format!(
            "{head}transition t (i) requires {{ forall_other j. Flag[j] = False && Pc[j] = Door }} {{ Pc[i] := Crit; }}\n"
        );
        assert!(warnings(&both).is_empty());
    }
}
