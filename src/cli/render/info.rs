//! `nfold info`: a model's types, variables, transitions and properties, and the
//! sizes of its instance and SAT encoding at a size.

use super::ints_line;
use crate::model::eval::transition_instances;
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ir::{Local, Model, Ty, VarKind};
use crate::source::Span;

pub(super) fn type_text(m: &Model, t: Ty) -> String {
    match t {
        Ty::Range(r) => {
            let rg = &m.ranges[r];
            let snippet = m.source.snippet(rg.span).trim().to_string();
            if snippet.contains("..") && !snippet.contains('=') {
                snippet
            } else {
                rg.name.clone()
            }
        }
        _ => m.type_name(t),
    }
}

/// Sizes of the SAT encoding at size n (binary cells): frame 0, one step of the
/// transition relation, and each bad-state check.
pub(super) fn sat_sizes(m: &Model, n: usize) -> String {
    use crate::transys::frame::Encoding;
    use crate::transys::unroll::Unroller;
    let mut u = Unroller::new(m, n, Encoding::Binary);
    u.add_step();
    let s1 = u.size();
    u.add_step();
    let s2 = u.size();
    let mut out = format!(
        "\nSAT encoding at size {n} (binary cells)\n  frame 0 + init     {} variables, {} clauses\n  per step           {} variables, {} clauses\n",
        u.sizes[0].vars,
        u.sizes[0].clauses,
        s2.vars - s1.vars,
        s2.clauses - s1.clauses
    );
    for (p, prop) in m.unsafes.iter().enumerate() {
        let before = u.size();
        u.unsafe_query(p, 2);
        let after = u.size();
        // The figures in the column of the lines above (at least one space after the
        // label, however long the name).
        let label = format!("bad `{}`", prop.name);
        out.push_str(&format!(
            "  {label:<18} {} variables, {} clauses (all {} tuples)\n",
            after.vars - before.vars,
            after.clauses - before.clauses,
            u.inst.distinct_tuples(prop.params).len()
        ));
    }
    let before = u.size();
    let props: Vec<usize> = (0..m.unsafes.len()).collect();
    u.range_query(2, &props);
    let after = u.size();
    out.push_str(&format!(
        "  range errors       {} variables, {} clauses\n",
        after.vars - before.vars,
        after.clauses - before.clauses
    ));
    if m.int_window.is_some() {
        let before = u.size();
        u.int_query(2, false);
        let after = u.size();
        out.push_str(&format!(
            "  int_bound          {} variables, {} clauses\n",
            after.vars - before.vars,
            after.clauses - before.clauses
        ));
    }
    out
}

/// `nfold info`.
pub fn info(m: &Model, size: Option<usize>) -> String {
    let mut out = header(m);
    out.push_str(&types(m));
    out.push_str(&variables(m));
    out.push_str(&transitions_and_properties(m));
    if let Some(n) = size {
        out.push_str(&size_section(m, n));
    }
    out
}

/// The model's name, symmetry, fixed size, extra id, ints and dead cells.
fn header(m: &Model) -> String {
    let mut out = format!(
        "model     {}\nsymmetry  {}\n",
        m.source.name,
        m.symmetry_summary()
    );
    for b in m.symmetry_breaks.iter().skip(1) {
        out.push_str(&format!(
            "          also: {} at {}\n",
            b.what,
            m.source.file_line(b.span.lo)
        ));
    }
    if let Some((k, _)) = m.number_procs {
        out.push_str(&format!("size      fixed to {k} (number_procs)\n"));
    }
    if let Some(x) = &m.extra_proc {
        out.push_str(&format!(
            "proc      processes 1..n and the extra id 0 ({} at {}, different from every process): not a process, fixed by permutations\n",
            x.names(),
            m.source.file_line(x.span.lo)
        ));
    }
    out.push_str(&ints_line(m));
    for d in crate::model::dead::analyse(m) {
        out.push_str(&format!(
            "dead      {}: never read before written again; the explicit search stores one value there\n",
            d.describe(m)
        ));
    }
    out
}

/// The enumerations, abstract types and ranges.
fn types(m: &Model) -> String {
    let mut out = String::new();
    out.push_str("\ntypes\n");
    for (k, e) in m.enums.iter().enumerate() {
        match m.data_type(k) {
            Some(d) => out.push_str(&format!("  {} (abstract): {}\n", e.name, d.summary(m))),
            None => out.push_str(&format!("  {} = {}\n", e.name, e.ctors.join(" | "))),
        }
    }
    for (k, r) in m.ranges.iter().enumerate() {
        if let Some(w) = m.int_window.as_ref().filter(|w| w.range == k) {
            out.push_str(&format!(
                "  int = {} (the window; leaving it is `int_bound`)\n",
                w.text()
            ));
            continue;
        }
        if !r.name.contains("..") {
            out.push_str(&format!(
                "  {} = {}\n",
                r.name,
                m.source
                    .snippet(r.span)
                    .split('=')
                    .nth(1)
                    .unwrap_or("")
                    .trim()
            ));
        }
    }
    out
}

/// The variables with their kinds and types.
fn variables(m: &Model) -> String {
    let mut out = String::new();
    out.push_str("\nvariables\n");
    for v in &m.vars {
        let kind = match v.kind {
            VarKind::Global => "var",
            VarKind::Const => "const",
            VarKind::Array => "array",
        };
        let dims = if v.dims.is_empty() {
            String::new()
        } else {
            let d: Vec<String> = v.dims.iter().map(|&t| type_text(m, t)).collect();
            format!("[{}]", d.join(", "))
        };
        out.push_str(&format!(
            "  {kind:<5} {}{} : {}\n",
            v.name,
            dims,
            type_text(m, v.ty)
        ));
    }
    out
}

/// The transitions with their lines, and the properties with their parameters.
fn transitions_and_properties(m: &Model) -> String {
    // An item's parameters, and its line: its signature and where it starts.
    let params = |locals: &[Local], k: usize| {
        let names: Vec<&str> = locals[..k].iter().map(|l| l.name.as_str()).collect();
        names.join(" ")
    };
    let row = |sig: String, span: Span| {
        let line = m.source.line_col(span.lo).0;
        format!("  {sig:<30} line {line}\n")
    };
    let mut out = String::new();
    out.push_str("\ntransitions\n");
    for t in &m.transitions {
        let sig = format!("{}({})", t.name, params(&t.locals, t.params));
        out.push_str(&row(sig, t.span));
    }
    out.push_str("\nproperties\n");
    for u in &m.unsafes {
        // `unsafe` and `invariant` aligned with `ltl`, lines as the transitions'.
        let ps = params(&u.locals, u.params);
        let sig = format!("{:<6} {} ({ps})", u.kind.keyword(), u.name);
        out.push_str(&row(sig, u.span));
    }
    for l in &m.ltls {
        let sig = format!("ltl    {} ({})", l.name, params(&l.locals, l.params));
        out.push_str(&row(sig, l.span));
    }
    out
}

/// The figures of one size: cells, state bits, transition instances, initial states,
/// and the SAT encoding's size.
fn size_section(m: &Model, n: usize) -> String {
    let mut out = String::new();
    out.push_str(&sat_sizes(m, n));
    let inst = Instance::new(m, n);
    let mut inits = 0usize;
    let capped = for_each_initial(&inst, &mut |_| {
        inits += 1;
        inits < 1_000_000
    });
    out.push_str(&format!(
        "\nsize {n}\n  cells              {}\n  state bits         {} ({} of 64 bits)\n  transition inst.   {}\n  initial states     {}{}\n",
        inst.slots.len(),
        inst.bits,
        if inst.words == 1 {
            "1 word".to_string()
        } else {
            format!("{} words", inst.words)
        },
        transition_instances(&inst).len(),
        inits,
        match capped {
            _ if inst.empty_typed_var().is_some() => {
                let var = &m.vars[inst.empty_typed_var().unwrap_or_default()];
                format!(
                    " (the type `{}` of `{}` is empty at this size)",
                    type_text(m, var.ty),
                    var.name
                )
            }
            Err(e) => format!(" (range error in init: {})", e.error),
            Ok(()) if inits >= 1_000_000 => " or more".to_string(),
            Ok(()) => String::new(),
        }
    ));
    out
}
