//! Response properties, `ltl name (i) { G (A => F B) }` with A and B state formulas:
//! the form a ranking proof (`cert::Ranking`, checked by `proof::check::rank`) is
//! about. The two formulas are given as text of the input language over the
//! property's process, so that a checker reads them back as `unsafe` bodies.

use crate::lang::print::expr_text;
use crate::model::ir::{Expr, Ltl, Model};

/// A response property of one process.
#[derive(Clone, Debug)]
pub struct Response {
    /// Index into `model.ltls`.
    pub prop: usize,
    /// The name of the property's process in `a` and `b`.
    pub var: String,
    /// The request, as text.
    pub a: String,
    /// The response, as text.
    pub b: String,
    pub a_expr: Expr,
    pub b_expr: Expr,
}

/// The `ltl` property `name` as a response property, or why it is not one.
pub fn of(model: &Model, name: &str) -> Result<Response, String> {
    let prop = model
        .ltl_by_name(name)
        .ok_or_else(|| format!("the model has no `ltl` property `{name}`"))?;
    let l = &model.ltls[prop];
    if l.params != 1 {
        return Err(format!(
            "`{name}` is not a property of one process (a ranking proof needs `ltl {name} (i)`)"
        ));
    }
    let not_form =
        || format!("`{name}` is not of the form `G (A => F B)` with A, B state formulas");
    let Ltl::Globally(body) = &l.body else {
        return Err(not_form());
    };
    let Ltl::Imp(a, fb) = &**body else {
        return Err(not_form());
    };
    let (Ltl::Atom(a), Ltl::Finally(b)) = (&**a, &**fb) else {
        return Err(not_form());
    };
    let Ltl::Atom(b) = &**b else {
        return Err(not_form());
    };
    Ok(Response {
        prop,
        var: l.locals[0].name.clone(),
        a: expr_text(model, &l.locals, a),
        b: expr_text(model, &l.locals, b),
        a_expr: a.clone(),
        b_expr: b.clone(),
    })
}
