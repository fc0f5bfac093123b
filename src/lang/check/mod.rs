//! Name resolution and type checking: syntax tree to the typed IR of `model::ir`.
//! Predicates and `let` are expanded where they are used. Along the way the checker
//! records every construct that makes the family not fully symmetric (docs/language.md,
//! §13 "Symmetry"), with its position.
//!
//! By concern: `decls` (types, constants, variables and arrays), `expr` (terms and
//! formulas: names, predicates, quantifiers, operators and their typing rules),
//! `items` (`init`, `unsafe`/`invariant`, transitions and their updates, `ltl`) and
//! `ints` (the window of `int`, fixed once the whole model is known).

mod decls;
mod expr;
mod ints;
mod items;
mod scope;

use super::LoadOptions;
use super::ast::{self, Ident, TypeExpr};
use crate::model::data;
use crate::model::ir::*;
use crate::source::{Diagnostic, Source, Span};
use std::collections::HashMap;

/// What a lower-case name stands for in a scope.
#[derive(Clone, Debug)]
enum Binding {
    Local(LocalId),
    /// `let` names and predicate parameters stand for an already checked term.
    Subst(Expr, Ty),
}

/// The names visible inside one transition, property or init.
struct Scope {
    locals: Vec<Local>,
    names: Vec<(String, Binding)>,
    /// Parameters of the enclosing item (what `forall_other` excludes).
    params: Vec<LocalId>,
}

impl Scope {
    fn new() -> Scope {
        Scope {
            locals: Vec::new(),
            names: Vec::new(),
            params: Vec::new(),
        }
    }
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b)
    }
    fn fresh(&mut self, name: &str, ty: Ty) -> LocalId {
        self.locals.push(Local {
            name: name.to_string(),
            ty,
        });
        self.locals.len() - 1
    }
    /// Declare the item's parameters (process ids); duplicates are an error.
    fn params(&mut self, ps: &[Ident]) -> Result<(), Diagnostic> {
        for (k, p) in ps.iter().enumerate() {
            if ps[..k].iter().any(|q| q.name == p.name) {
                return Err(Diagnostic::error(
                    p.span,
                    format!("parameter `{}` is declared twice", p.name),
                ));
            }
            let id = self.fresh(&p.name, Ty::Proc);
            self.names.push((p.name.clone(), Binding::Local(id)));
            self.params.push(id);
        }
        Ok(())
    }
}

struct Checker<'a> {
    src: &'a Source,
    enums: Vec<EnumType>,
    ranges: Vec<RangeType>,
    vars: Vec<Var>,
    types: HashMap<String, Ty>,
    ctors: HashMap<String, (usize, usize)>,
    var_names: HashMap<String, VarId>,
    preds: HashMap<String, (&'a [Ident], &'a ast::Expr, Span)>,
    pred_stack: Vec<String>,
    number_procs: Option<(usize, Span)>,
    breaks: Vec<SymmetryBreak>,
    /// Abstract types: (enumeration holding their values, declaration).
    abstracts: Vec<(usize, Ident)>,
    /// `LoadOptions::data_value_names`.
    data_names: bool,
    /// The largest data value named `dK` and where.
    data_used: Option<(usize, Span)>,
    /// Warnings about readings taken from Cubicle (one per source position).
    notes: Vec<Diagnostic>,
    /// The range type `int` (its bounds set once the whole model is known) and its
    /// first use.
    int_type: Option<(usize, Span)>,
    /// Where `#0`, the extra process id (`model::extra`), is written.
    extra_id_uses: Vec<Span>,
}

type R<T> = Result<T, Diagnostic>;

/// `1 index`, `2 indices`.
fn indices(k: usize) -> String {
    if k == 1 {
        "1 index".to_string()
    } else {
        format!("{k} indices")
    }
}

fn err<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(Diagnostic::error(span, msg))
}

/// The error for Cubicle's timed models: `real` types and real literals.
fn real_error(span: Span, what: Option<String>) -> Diagnostic {
    let msg = match what {
        Some(w) => format!("timed models (`real`) are not supported: {w}"),
        None => "timed models (`real`) are not supported".to_string(),
    };
    Diagnostic::error(span, msg)
        .with_note("note: nfold checks untimed, finite-state families; clocks and real numbers have no finite counterpart")
}

/// A declaration whose type mentions `real` is an error naming the declaration.
fn real_decl(name: &Ident, tys: &[TypeExpr]) -> R<()> {
    for t in tys {
        if let TypeExpr::Named(id) = t
            && id.name == "real"
        {
            return Err(real_error(
                id.span,
                Some(format!("`{}` is declared with type `real`", name.name)),
            ));
        }
    }
    Ok(())
}

/// What the items of a file check into, before they become a model.
#[derive(Default)]
struct Items {
    transitions: Vec<Transition>,
    inits: Vec<Init>,
    unsafes: Vec<Unsafe>,
    ltls: Vec<LtlProp>,
    /// How many unnamed `unsafe` and `invariant` blocks were numbered so far.
    unnamed: usize,
    unnamed_inv: usize,
    /// Transitions whose name was used before: the name and the transition's span.
    repeated: Vec<(Ident, Span)>,
}

/// Check a parsed file into a model.
pub fn check(file: &ast::File, source: Source, opts: &LoadOptions) -> Result<Model, Diagnostic> {
    let mut c = Checker::new(&source, opts);
    if let Some((k, span)) = file.number_procs {
        c.number_procs(k, span)?;
    }
    for d in &file.decls {
        c.decl(d)?;
    }
    c.predicates(&file.items)?;
    let mut items = Items::default();
    for it in &file.items {
        c.item(it, &mut items)?;
    }
    if items.inits.is_empty() {
        let end = source.text.len();
        return Err(Diagnostic::error(Span::new(end, end), "the model has no `init`")
            .with_note("help: add `init (z) { ... }`; write `init () { true }` to leave every variable unconstrained"));
    }
    let mut warnings: Vec<Diagnostic> = repeated_names(&items, &source).into_iter().collect();
    if items.unsafes.is_empty() && items.ltls.is_empty() {
        warnings.push(Diagnostic::warning(
            Span::new(0, 0),
            "the model states no property (`unsafe`, `invariant` or `ltl`)",
        ));
    }
    warnings.append(&mut c.notes);
    warnings.extend(scope::quantifier_scopes(file));
    let abstracts = std::mem::take(&mut c.abstracts);
    let data_used = c.data_used;
    let int_type = c.int_type;
    let extra_id_uses = std::mem::take(&mut c.extra_id_uses);
    let mut model = Model {
        number_procs: c.number_procs,
        enums: c.enums,
        ranges: c.ranges,
        vars: c.vars,
        transitions: items.transitions,
        inits: items.inits,
        unsafes: items.unsafes,
        ltls: items.ltls,
        symmetry_breaks: c.breaks,
        data_types: Vec::new(),
        extra_proc: None,
        int_window: None,
        lit_ints: None,
        abs_ints: None,
        ord_ints: None,
        assumed: Vec::new(),
        warnings,
        source,
    };
    for (e, name) in abstracts {
        let w = data::settle(&mut model, e, &name.name, name.span, opts.data_values);
        model.warnings.push(w);
        if let Some((k, span)) = data_used
            && k > model.enums[e].ctors.len()
        {
            return Err(Diagnostic::error(
                span,
                format!(
                    "`d{k}` is not a value of `{}` (d1..d{})",
                    name.name,
                    model.enums[e].ctors.len()
                ),
            ));
        }
    }
    if let Some((r, span)) = int_type {
        let w = ints::settle_ints(&mut model, r, span, opts.int_range)?;
        let w = ints::literal_valued(&mut model, w, opts.int_range.is_some());
        model.warnings.push(w);
    }
    crate::model::extra::settle(&mut model);
    if let Some(&span) = extra_id_uses.first()
        && model.extra_proc.is_none()
    {
        return err(
            span,
            "`#0` is the extra process id, which only a model whose `init` declares a `proc` variable different from every process has (docs/language.md, the extra process id)",
        );
    }
    Ok(model)
}

/// The warning that lists the transition names used more than once, if any.
fn repeated_names(items: &Items, source: &Source) -> Option<Diagnostic> {
    let (first, _) = items.repeated.first()?;
    let mut names: Vec<String> = Vec::new();
    for (id, _) in &items.repeated {
        let lines: Vec<String> = items
            .transitions
            .iter()
            .filter(|t| t.name.split('#').next() == Some(id.name.as_str()))
            .map(|t| source.line_col(t.span.lo).0.to_string())
            .collect();
        let entry = format!("`{}` (lines {})", id.name, lines.join(", "));
        if !names.contains(&entry) {
            names.push(entry);
        }
    }
    Some(
        Diagnostic::warning(
            first.span,
            format!(
                "transition names used more than once: {}",
                names.join(", ")
            ),
        )
        .with_note(
            "note: each definition is a separate transition (as in Cubicle); the second of a name is shown as `name#2`, the third as `name#3`, ...",
        ),
    )
}

impl<'a> Checker<'a> {
    fn new(src: &'a Source, opts: &LoadOptions) -> Checker<'a> {
        Checker {
            src,
            enums: Vec::new(),
            ranges: Vec::new(),
            vars: Vec::new(),
            types: HashMap::new(),
            ctors: HashMap::new(),
            var_names: HashMap::new(),
            preds: HashMap::new(),
            pred_stack: Vec::new(),
            number_procs: None,
            breaks: Vec::new(),
            abstracts: Vec::new(),
            notes: Vec::new(),
            int_type: None,
            extra_id_uses: Vec::new(),
            data_names: opts.data_value_names,
            data_used: None,
        }
    }

    /// `number_procs k`: the size fixed to k (1 to 64).
    fn number_procs(&mut self, k: i64, span: Span) -> R<()> {
        if !(1..=64).contains(&k) {
            return err(
                span,
                format!("`number_procs {k}`: the size must be 1 to 64"),
            );
        }
        self.number_procs = Some((k as usize, span));
        self.asym("`number_procs` fixes the size (and allows `#k`)", span);
        Ok(())
    }

    /// Record the predicates, which are expanded where they are used (so they may be
    /// used before their definition).
    fn predicates(&mut self, items: &'a [ast::Item]) -> R<()> {
        for it in items {
            if let ast::Item::Predicate {
                name,
                params,
                body,
                span,
            } = it
            {
                if self.preds.contains_key(&name.name) {
                    return err(
                        name.span,
                        format!("predicate `{}` is defined twice", name.name),
                    );
                }
                for (k, p) in params.iter().enumerate() {
                    if params[..k].iter().any(|q| q.name == p.name) {
                        return err(p.span, format!("parameter `{}` is declared twice", p.name));
                    }
                }
                self.preds
                    .insert(name.name.clone(), (params.as_slice(), body, *span));
            }
        }
        Ok(())
    }

    fn asym(&mut self, what: impl Into<String>, span: Span) {
        self.breaks.push(SymmetryBreak {
            what: what.into(),
            span,
            order: false,
        });
    }

    /// An order comparison between two process ids: breaks full symmetry, keeps the
    /// order-preserving one.
    fn asym_order(&mut self, span: Span) {
        self.breaks.push(SymmetryBreak {
            what: "an order comparison on process ids".into(),
            span,
            order: true,
        });
    }

    fn ty_name(&self, t: Ty) -> String {
        type_name(&self.enums, &self.ranges, t)
    }
}
