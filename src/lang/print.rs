//! Printing a checked model back as `.cub` text that parses to the same IR: every
//! compound expression is parenthesised, updates over fresh indices are written as
//! `case | _ : t`, and `let` and predicates (expanded by the checker) appear expanded.
//! Used to show models, and by the tests that generate random models.

use crate::model::ir::*;

fn type_text(m: &Model, t: Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Proc => "proc".into(),
        Ty::Int => "int".into(),
        // The int window is a range underneath; read back, `int` gets it again from
        // the loader's settings (`LoadOptions::of`).
        t if m.is_int_ty(t) => "int".into(),
        // Ints read as an enumeration (`model::ints::literal`) print back as `int`.
        Ty::Enum(e) if m.lit_ints.as_ref().is_some_and(|l| l.enum_id == e) => "int".into(),
        Ty::Enum(e) => m.enums[e].name.clone(),
        Ty::Range(r) => {
            let rg = &m.ranges[r];
            if rg.name.contains("..") {
                format!("{} .. {}", size_text(&rg.lo), size_text(&rg.hi))
            } else {
                rg.name.clone()
            }
        }
    }
}

fn size_text(e: &SizeExpr) -> String {
    match e {
        SizeExpr::Lit(v) if *v >= 0 => v.to_string(),
        SizeExpr::Lit(v) => format!("(0 - {})", -(*v as i128)),
        SizeExpr::Size => "N".into(),
        SizeExpr::Neg(a) => format!("(-{})", size_text(a)),
        SizeExpr::Add(a, b) => format!("({} + {})", size_text(a), size_text(b)),
        SizeExpr::Sub(a, b) => format!("({} - {})", size_text(a), size_text(b)),
        SizeExpr::Mul(a, b) => format!("({} * {})", size_text(a), size_text(b)),
    }
}

/// An expression, with `locals` naming the local variables.
pub fn expr_text(m: &Model, locals: &[Local], e: &Expr) -> String {
    let r = |x: &Expr| expr_text(m, locals, x);
    match e {
        Expr::Const(v, Ty::Bool) => if *v != 0 { "True" } else { "False" }.into(),
        Expr::Const(v, Ty::Enum(en)) => match m.lit_ints.as_ref().filter(|l| l.enum_id == *en) {
            // A literal of a literal-valued int (an interval is never written in a
            // formula: comparisons keep their literals).
            Some(l) => match l.values.get(*v as usize) {
                Some(crate::model::ints::literal::LitVal::Lit(k)) if *k < 0 => {
                    format!("(0 - {})", -(*k as i128))
                }
                Some(x) => x.name(),
                None => format!("<{v}>"),
            },
            None => m.enums[*en].ctors[*v as usize].clone(),
        },
        Expr::Const(v, Ty::Proc) => format!("#{v}"),
        Expr::Const(v, _) if *v >= 0 => v.to_string(),
        Expr::Const(v, _) => format!("(0 - {})", -(*v as i128)),
        Expr::Size => "N".into(),
        Expr::Local(id) => locals[*id].name.clone(),
        Expr::Read(var, idx) => {
            let name = &m.vars[*var].name;
            if idx.is_empty() {
                name.clone()
            } else {
                let ix: Vec<String> = idx.iter().map(r).collect();
                format!("{}[{}]", name, ix.join(", "))
            }
        }
        Expr::Arith(op, a, b) => {
            let o = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
            };
            format!("({} {} {})", r(a), o, r(b))
        }
        Expr::Cmp(op, a, b) => format!("({} {} {})", r(a), op.text(), r(b)),
        Expr::Not(a) => format!("(not {})", r(a)),
        Expr::And(xs) => format!("({})", xs.iter().map(r).collect::<Vec<_>>().join(" && ")),
        Expr::Or(xs) => format!("({})", xs.iter().map(r).collect::<Vec<_>>().join(" || ")),
        Expr::Imp(a, b) => format!("({} => {})", r(a), r(b)),
        Expr::Iff(a, b) => format!("({} <=> {})", r(a), r(b)),
        Expr::Ite(c, a, b, _) => format!("(if {} then {} else {})", r(c), r(a), r(b)),
        Expr::Quant(q) => {
            let v = &locals[q.var].name;
            let d = match &q.dom {
                Domain::Procs { except } if except.is_empty() => String::new(),
                Domain::Procs { except } => {
                    format!(
                        " <> {}",
                        except.iter().map(r).collect::<Vec<_>>().join(", ")
                    )
                }
                Domain::Type(t) => format!(" : {}", type_text(m, *t)),
            };
            let word = if q.forall { "forall" } else { "exists" };
            format!("({word} {v}{d}. {})", r(&q.body))
        }
    }
}

fn ltl_text(m: &Model, locals: &[Local], f: &Ltl) -> String {
    let r = |x: &Ltl| ltl_text(m, locals, x);
    match f {
        Ltl::Atom(e) => expr_text(m, locals, e),
        Ltl::Not(a) => format!("(not {})", r(a)),
        Ltl::And(a, b) => format!("({} && {})", r(a), r(b)),
        Ltl::Or(a, b) => format!("({} || {})", r(a), r(b)),
        Ltl::Imp(a, b) => format!("({} => {})", r(a), r(b)),
        Ltl::Iff(a, b) => format!("({} <=> {})", r(a), r(b)),
        Ltl::Next(a) => format!("(X {})", r(a)),
        Ltl::Globally(a) => format!("(G {})", r(a)),
        Ltl::Finally(a) => format!("(F {})", r(a)),
        Ltl::Until(a, b) => format!("({} U {})", r(a), r(b)),
        Ltl::Release(a, b) => format!("({} R {})", r(a), r(b)),
        Ltl::WeakUntil(a, b) => format!("({} W {})", r(a), r(b)),
    }
}

fn params_text(locals: &[Local], n: usize) -> String {
    locals[..n]
        .iter()
        .map(|l| l.name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The whole model as `.cub` text.
pub fn model_text(m: &Model) -> String {
    let mut out = declarations_text(m);
    for i in &m.inits {
        out.push_str(&format!(
            "init ({}) {{ {} }}\n",
            params_text(&i.locals, i.params),
            expr_text(m, &i.locals, &i.body)
        ));
    }
    for u in &m.unsafes {
        out.push_str(&format!(
            "{} {} ({}) {{ {} }}\n",
            u.kind.keyword(),
            u.name,
            params_text(&u.locals, u.params),
            expr_text(m, &u.locals, &u.body)
        ));
    }
    for t in &m.transitions {
        out.push_str(&transition_text(m, t));
    }
    for l in &m.ltls {
        out.push_str(&format!(
            "ltl {} ({}) {{ {} }}\n",
            l.name,
            params_text(&l.locals, l.params),
            ltl_text(m, &l.locals, &l.body)
        ));
    }
    out
}

/// The declarations: `number_procs`, the types, the variables, constants and arrays.
fn declarations_text(m: &Model) -> String {
    let mut out = String::new();
    if let Some((k, _)) = m.number_procs {
        out.push_str(&format!("number_procs {k}\n"));
    }
    for (k, e) in m.enums.iter().enumerate() {
        if m.lit_ints.as_ref().is_some_and(|l| l.enum_id == k) {
            // The ints, declared `int` (read back, they become this enumeration again).
            continue;
        }
        if m.data_type(k).is_some() {
            // An abstract type: its values d1..dD are chosen again when loaded.
            out.push_str(&format!("type {}\n", e.name));
        } else {
            out.push_str(&format!("type {} = {}\n", e.name, e.ctors.join(" | ")));
        }
    }
    for r in &m.ranges {
        // `int` is the loader's range for the int window (the text cannot declare
        // it): read back, the window comes from the loader's settings, and a model
        // whose ints became an enumeration (`model::ints::literal`, `model::ints::abstracted`) has
        // it unused.
        if !r.name.contains("..") && r.name != "int" {
            out.push_str(&format!(
                "type {} = {} .. {}\n",
                r.name,
                size_text(&r.lo),
                size_text(&r.hi)
            ));
        }
    }
    for v in &m.vars {
        let ty = type_text(m, v.ty);
        match v.kind {
            VarKind::Global => out.push_str(&format!("var {} : {}\n", v.name, ty)),
            VarKind::Const => out.push_str(&format!("const {} : {}\n", v.name, ty)),
            VarKind::Array => {
                let d: Vec<String> = v.dims.iter().map(|&t| type_text(m, t)).collect();
                out.push_str(&format!("array {}[{}] : {}\n", v.name, d.join(", "), ty));
            }
        }
    }
    out
}

/// One transition: its parameters, guard and updates.
fn transition_text(m: &Model, t: &Transition) -> String {
    let mut out = format!(
        "transition {} ({})\nrequires {{ {} }}\n{{\n",
        // `t#2` is the second transition named `t`, written `t` again.
        t.name.split('#').next().unwrap_or(&t.name),
        params_text(&t.locals, t.params),
        expr_text(m, &t.locals, &t.guard)
    );
    for u in &t.updates {
        let var = &m.vars[u.var].name;
        let wide = u.index.iter().any(|i| matches!(i, Index::Bind(_)));
        let lhs = if u.index.is_empty() {
            var.clone()
        } else {
            let ix: Vec<String> = u
                .index
                .iter()
                .map(|i| match i {
                    Index::Term(e) => expr_text(m, &t.locals, e),
                    Index::Bind(id) => t.locals[*id].name.clone(),
                })
                .collect();
            format!("{}[{}]", var, ix.join(", "))
        };
        let rhs = match &u.value {
            UpdValue::Term(e) if wide => format!("case | _ : {}", expr_text(m, &t.locals, e)),
            UpdValue::Term(e) => expr_text(m, &t.locals, e),
            UpdValue::Nondet => ".".into(),
            UpdValue::Any { var, cond } => {
                format!(
                    "any {}. {}",
                    t.locals[*var].name,
                    expr_text(m, &t.locals, cond)
                )
            }
        };
        out.push_str(&format!("  {lhs} := {rhs};\n"));
    }
    out.push_str("}\n");
    out
}

/// `t` without the parentheses that enclose all of it.
pub fn unparenthesised(t: String) -> String {
    let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        return t;
    };
    let mut depth = 0i32;
    for c in inner.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return t;
        }
    }
    inner.to_string()
}
