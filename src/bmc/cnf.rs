//! The formula of one SAT query as DIMACS: the unrolling to depth k built exactly as
//! the driver builds it (every frame, every lex-leader activation literal and every
//! query literal of the earlier depths), plus the query and its symmetry-breaking
//! activation as unit clauses. It is satisfiable iff the engine's query at depth k is.

use super::encode::Unroller;
use super::frame::{Cell, Encoding};
use super::symbreak;
use crate::model::ir::Model;
use crate::sat::{Cnf, Lit};
use crate::trace::step_label;

/// The CNF, its unit clauses (the query) and comment lines describing the variables.
pub fn query(
    model: &Model,
    n: usize,
    depth: usize,
    prop: Option<usize>,
    symmetry: bool,
    enc: Encoding,
) -> (Cnf, Vec<Lit>, Vec<String>) {
    let mut u = Unroller::new(model, n, enc);
    let use_sym = symmetry && model.is_symmetric() && n > 1;
    let props: Vec<usize> = (0..model.unsafes.len()).collect();
    let mut units = Vec::new();
    for k in 0..=depth {
        if k > 0 {
            u.add_step();
        }
        let sb = use_sym.then(|| symbreak::lex_leader(&mut u, k));
        let qs: Vec<Lit> = props.iter().map(|&p| u.unsafe_query(p, k)).collect();
        let range = u.range_query(k, &props);
        if k == depth {
            let q = match prop {
                Some(p) => qs[p],
                None => {
                    let mut all = qs.clone();
                    all.push(range);
                    u.c.or(&all)
                }
            };
            units.push(q);
            units.extend(sb);
        }
    }
    let mut comments = vec![
        format!(
            "nfold cnf: {} at size {n}, depth {depth}, property {}, {} encoding, symmetry breaking {}",
            model.source.name,
            prop.map(|p| model.unsafes[p].name.clone())
                .unwrap_or_else(|| "any (every unsafe property and range errors)".into()),
            match enc {
                Encoding::Binary => "binary",
                Encoding::OneHot => "one-hot",
            },
            if use_sym { "on" } else { "off" }
        ),
        format!(
            "satisfiable iff the property is violated within {depth} steps (idle steps allowed)"
        ),
        "variable 1 is the constant true; state cells: frame, cell, literals".into(),
        match enc {
            Encoding::Binary => "(binary: bit 0 first, value = lowest value + number)".into(),
            Encoding::OneHot => "(one-hot: one literal per value, lowest value first)".into(),
        },
    ];
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
    (u.c.cnf, units, comments)
}
