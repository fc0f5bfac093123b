//! `nfold certify MODEL CERT`: check a saved certificate independently of the engine
//! that found it (`proof::check`), at each of its sizes or those asked for.

use super::parse_data_values;
use super::{EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, SolverArg, load, parse_sizes, usage};
use crate::cert::{Certificate, text_hash};
use crate::proof::check;
use crate::sat::{SolverKind, Stop};
use crate::source::{Diagnostic, Source};
use clap::Args;
use serde_json::json;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Exit codes: 0 every claim of the certificate checked, 1 a claim \
                        failed (the certificate is rejected), 2 usage or input error."
)]
pub(crate) struct CertifyArgs {
    /// The model file (.cub).
    model: String,
    /// The certificate (written by `nfold check --certificate FILE`).
    certificate: String,
    /// Check these sizes only (default: every size of the certificate).
    #[arg(long, value_name = "A..B", value_parser = parse_sizes)]
    sizes: Option<(usize, usize)>,
    /// The solver (default: cadical when built in).
    #[arg(long, value_enum)]
    solver: Option<SolverArg>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// The number of values of every abstract type, as for `check`.
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
}

pub(crate) fn certify(a: CertifyArgs) -> i32 {
    let model = match load(&a.model, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if let Some(e) = crate::model::extra::unsupported(&model, "certify") {
        return usage(&e);
    }
    let text = match std::fs::read_to_string(&a.certificate) {
        Ok(t) => t,
        Err(e) => return usage(&format!("cannot read {}: {e}", a.certificate)),
    };
    let cert = match Certificate::parse(&text) {
        Ok(c) => c,
        Err((span, msg)) => {
            let src = Source::new(&a.certificate, text.as_str());
            eprint!("{}", Diagnostic::error(span, msg).render(&src));
            return EXIT_USAGE;
        }
    };
    // A certificate of a liveness product is checked against the product, built again
    // from the model and the property its `liveness` line names.
    let model = match crate::live::certified_model(&model, &cert) {
        Ok(Some(product)) => product,
        Ok(None) => model,
        Err(e) => return usage(&e),
    };
    if cert.hash != text_hash(&model.source.text) {
        eprintln!(
            "nfold: warning: the certificate was written for another text of the model ({}); checking it anyway",
            cert.model
        );
    }
    let solver_kind = a
        .solver
        .map(|s| s.kind())
        .unwrap_or_else(SolverKind::default_kind);
    if cert.every.is_some() && a.sizes.is_none() {
        return certify_every(&a, &model, &cert, solver_kind);
    }
    let (lo, hi) = a.sizes.unwrap_or(cert.sizes);
    let sizes: Vec<usize> = (lo..=hi).collect();
    let solver = solver_kind;
    let start = Instant::now();
    let checks = match check::check(&model, &cert, &sizes, solver, &Stop::default()) {
        Ok(c) => c,
        Err(e) => return usage(&e),
    };
    let rejected = checks.iter().any(|c| !c.failures.is_empty());
    if a.json {
        let rows: Vec<_> = checks
            .iter()
            .map(|c| {
                json!({
                    "size": c.size,
                    "certified": c.certified,
                    "failures": c.failures,
                })
            })
            .collect();
        let doc = json!({
            "model": model.source.name,
            "certificate": a.certificate,
            "lemmas": cert.lemmas.len(),
            "induction": cert.induction,
            "results": rows,
            "accepted": !rejected,
            "seconds": start.elapsed().as_secs_f64(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        println!(
            "certificate {} for {}: {} lemmas, {}-inductive{}, found by {}",
            a.certificate,
            model.source.name,
            cert.lemmas.len(),
            cert.induction,
            if cert.simple_path {
                " (simple paths)"
            } else {
                ""
            },
            cert.engine
        );
        for c in &checks {
            if c.failures.is_empty() {
                println!(
                    "size {:>3}: checked; proves {}",
                    c.size,
                    if c.certified.is_empty() {
                        "no property (none is claimed at this size)".to_string()
                    } else {
                        c.certified.join(", ")
                    }
                );
            } else {
                println!("size {:>3}: REJECTED", c.size);
                for f in &c.failures {
                    println!("          {f}");
                }
            }
        }
        println!(
            "{}; {:.2}s",
            if rejected {
                "the certificate is rejected"
            } else {
                "the certificate is accepted"
            },
            start.elapsed().as_secs_f64()
        );
    }
    if rejected { EXIT_VIOLATION } else { EXIT_OK }
}

/// A certificate claimed at every size: the cutoff argument's conditions, then the
/// check at every size up to the cutoff computed here.
fn certify_every(
    a: &CertifyArgs,
    model: &crate::model::ir::Model,
    cert: &Certificate,
    solver: SolverKind,
) -> i32 {
    let start = Instant::now();
    let ch = match check::check_every(model, cert, solver, &Stop::default()) {
        Ok(c) => c,
        Err(e) => return usage(&e),
    };
    let accepted = ch.accepted();
    if a.json {
        let rows: Vec<_> = ch
            .sizes
            .iter()
            .map(|c| json!({"size": c.size, "certified": c.certified, "failures": c.failures}))
            .collect();
        let doc = json!({
            "model": model.source.name,
            "certificate": a.certificate,
            "lemmas": cert.lemmas.len(),
            "every_n": true,
            "cutoff": ch.cutoff,
            "refused": ch.refused,
            "results": rows,
            "accepted": accepted,
            "seconds": start.elapsed().as_secs_f64(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        println!(
            "certificate {} for {}: {} lemmas, claimed at every size (cutoff {} in the file), found by {}",
            a.certificate,
            model.source.name,
            cert.lemmas.len(),
            cert.every.unwrap_or(0),
            cert.engine
        );
        if let Some(r) = &ch.refused {
            println!("REJECTED: {r}");
        } else {
            println!(
                "the model is in the fragment of the cutoff argument; the cutoff computed from the model and the lemmas is {}",
                ch.cutoff
            );
            for c in &ch.sizes {
                if c.failures.is_empty() {
                    println!(
                        "size {:>3}: checked; proves {}",
                        c.size,
                        c.certified.join(", ")
                    );
                } else {
                    println!("size {:>3}: REJECTED", c.size);
                    for f in &c.failures {
                        println!("          {f}");
                    }
                }
            }
        }
        println!(
            "{}; {:.2}s",
            if accepted {
                "the certificate is accepted: the properties hold at every size"
            } else {
                "the certificate is rejected"
            },
            start.elapsed().as_secs_f64()
        );
    }
    if accepted { EXIT_OK } else { EXIT_VIOLATION }
}
