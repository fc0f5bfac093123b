//! The formula of one SAT query as DIMACS: the unrolling to depth k built exactly as
//! the driver builds it (every frame, every lex-leader activation literal and every
//! query literal of the earlier depths), plus the query and its symmetry-breaking
//! activation as unit clauses. It is satisfiable iff the engine's query at depth k is.

use crate::model::ir::Model;
use crate::sat::{Cnf, Lit};
use crate::trace::step_label;
use crate::transys::Por;
use crate::transys::frame::{Cell, Encoding};
use crate::transys::query::{Queries, SymBreak, Target};
use crate::transys::unroll::Unroller;

/// The CNF, its unit clauses (the query) and comment lines describing the variables.
/// `prop`: one `unsafe` property, or (None) any property, a range error or (with ints)
/// a store leaving the int window.
pub fn query(
    model: &Model,
    n: usize,
    depth: usize,
    prop: Option<usize>,
    mode: SymBreak,
    enc: Encoding,
    por: Por,
) -> (Cnf, Vec<Lit>, Vec<String>) {
    let mut u = Unroller::new(model, n, enc);
    u.reduce_interleavings(por);
    let use_sym = mode != SymBreak::Off && model.is_symmetric() && n > 1;
    let mut queries = Queries::new(if use_sym { mode } else { SymBreak::Off });
    let props: Vec<usize> = (0..model.unsafes.len()).collect();
    let mut open: Vec<Target> = props.iter().map(|&p| Target::Unsafe(p)).collect();
    open.push(Target::Range(props.clone()));
    if model.int_window.is_some() {
        open.push(Target::IntBound);
    }
    let any = Target::Any(open.clone());
    let mut units = Vec::new();
    // The same construction sequence as the driver, every property open throughout.
    for k in 0..=depth {
        if k > 0 {
            u.add_step();
        }
        let combined = queries.assumptions(&mut u, &any, k);
        let single: Vec<Option<Vec<Lit>>> = open
            .iter()
            .map(|t| queries.assumptions(&mut u, t, k))
            .collect();
        if k == depth {
            let chosen = match prop {
                Some(p) => single[p].clone(),
                None => combined,
            };
            // A trivially unsatisfiable query becomes the empty clause's unit: false.
            units = chosen.unwrap_or_else(|| vec![-1]);
        }
    }
    let mut comments = header(model, n, depth, prop, enc, use_sym, mode);
    variable_comments(model, &u, &mut comments);
    (u.c.cnf, units, comments)
}

/// The comment lines saying what the formula asks.
fn header(
    model: &Model,
    n: usize,
    depth: usize,
    prop: Option<usize>,
    enc: Encoding,
    use_sym: bool,
    mode: SymBreak,
) -> Vec<String> {
    vec![
        format!(
            "nfold cnf: {} at size {n}, depth {depth}, property {}, {} encoding, symmetry breaking {}",
            model.source.name,
            prop.map(|p| model.unsafes[p].name.clone())
                .unwrap_or_else(|| {
                    if model.int_window.is_some() {
                        "any (every unsafe property, range errors and int_bound)".into()
                    } else {
                        "any (every unsafe property and range errors)".into()
                    }
                }),
            match enc {
                Encoding::Binary => "binary",
                Encoding::OneHot => "one-hot",
            },
            match (use_sym, mode) {
                (false, _) | (_, SymBreak::Off) => "off",
                (_, SymBreak::LexLeader) => "lex-leader",
                (_, SymBreak::WitnessLex) => "witnesses fixed + lex-leader",
            }
        ),
        format!(
            "satisfiable iff the property is violated within {depth} steps (idle steps allowed)"
        ),
        "variable 1 is the constant true; state cells: frame, cell, literals".into(),
        match enc {
            Encoding::Binary => "(binary: bit 0 first, value = lowest value + number)".into(),
            Encoding::OneHot => "(one-hot: one literal per value, lowest value first)".into(),
        },
    ]
}

/// A comment line per cell of every frame (its literals) and per step (its selectors).
fn variable_comments(model: &Model, u: &Unroller, comments: &mut Vec<String>) {
    for (j, f) in u.frames.iter().enumerate() {
        for (s, cell) in f.cells.iter().enumerate() {
            let lits: Vec<String> = cell.lits().iter().map(|l| l.to_string()).collect();
            let kind = match cell {
                Cell::Binary(_) => "bits",
                Cell::OneHot(_) => "values",
            };
            comments.push(format!(
                "frame {j} {} {kind} {}",
                u.inst.cell_name(s),
                if lits.is_empty() {
                    "(constant)".to_string()
                } else {
                    lits.join(" ")
                }
            ));
        }
    }
    for (j, st) in u.steps.iter().enumerate() {
        let mut parts = Vec::new();
        for (i, &l) in st.sel.iter().enumerate() {
            let label = match u.instances.get(i) {
                Some((t, params)) => step_label(
                    model,
                    &crate::model::eval::Step {
                        trans: *t,
                        params: params.clone(),
                        choices: Vec::new(),
                    },
                ),
                None => "idle".into(),
            };
            parts.push(format!("{label}={l}"));
        }
        comments.push(format!("step {} selectors {}", j + 1, parts.join(" ")));
    }
}
