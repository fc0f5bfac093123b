//! `nfold certify MODEL CERT`: check a saved certificate independently of the engine
//! that found it (`proof::check`), at each of its sizes or those asked for.

use super::{EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, LoadArgs, SolverArg, parse_sizes, usage};
use crate::cert::{Certificate, Reduced, text_hash};
use crate::model::ir::Model;
use crate::proof::check;
use crate::sat::{SolverKind, Stop};
use crate::schema::{CertifyDoc, SCHEMA_VERSION, SizeCheckDoc, Tool};
use crate::source::{Diagnostic, Source};
use clap::Args;
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
    /// How the obligations of a certificate with decision-diagram lemmas are decided:
    /// BDDs over the checker's encoding, SAT when they outgrow their node table (auto);
    /// BDDs only (bdd); SAT only (sat). Other certificates are always checked by SAT.
    #[arg(long, value_enum, default_value = "auto")]
    check: CheckArg,
    #[command(flatten)]
    load: LoadArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CheckArg {
    Auto,
    Sat,
    Bdd,
}

impl CheckArg {
    fn method(self) -> check::Method {
        match self {
            CheckArg::Auto => check::Method::Auto,
            CheckArg::Sat => check::Method::Sat,
            CheckArg::Bdd => check::Method::Bdd,
        }
    }
}

pub(crate) fn certify(a: CertifyArgs) -> i32 {
    let model = match a.load.load(&a.model) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let text = match std::fs::read_to_string(&a.certificate) {
        Ok(t) => t,
        Err(e) => return usage(&format!("cannot read {}: {e}", a.certificate)),
    };
    let certs = match Certificate::parse_all(&text) {
        Ok(c) => c,
        Err((span, msg)) => {
            let src = Source::new(&a.certificate, text.as_str());
            eprint!("{}", Diagnostic::error(span, msg).render(&src));
            return EXIT_USAGE;
        }
    };
    let solver = a
        .solver
        .map(|s| s.kind())
        .unwrap_or_else(SolverKind::default_kind);
    let mut docs = Vec::new();
    for cert in &certs {
        match certify_one(&a, &model, cert, solver) {
            Ok(d) => docs.push(d),
            Err(code) => return code,
        }
    }
    let accepted = docs.iter().all(|d| d.accepted);
    if a.json {
        let mut docs = docs.into_iter();
        if let Some(mut first) = docs.next() {
            first.more = docs.collect();
            first.accepted = accepted;
            println!(
                "{}",
                serde_json::to_string_pretty(&first).unwrap_or_default()
            );
        }
    } else {
        for d in &docs {
            print!("{}", text_of(d, &model.source.name));
        }
        if docs.len() > 1 {
            println!(
                "{} of {} certificates accepted",
                docs.iter().filter(|d| d.accepted).count(),
                docs.len()
            );
        }
    }
    if accepted { EXIT_OK } else { EXIT_VIOLATION }
}

/// Checks one certificate of the file against the model it is about, built again from
/// `model`; `Err` is the exit code of a usage error, already reported.
fn certify_one(
    a: &CertifyArgs,
    model: &Model,
    cert: &Certificate,
    solver: SolverKind,
) -> Result<CertifyDoc, i32> {
    // A certificate from a run whose int window widened on its own (`run::widen`)
    // is about the wider window: without --int-range, the model is read in the
    // window the certificate names.
    let widened;
    let model = match (cert.ints, &model.int_window, a.load.int_range) {
        (Some(w), Some(mw), None) if w != (mw.lo, mw.hi) => {
            widened = match crate::lang::with_int_window(model, w) {
                Ok(m) => m,
                Err(e) => return Err(usage(&e.render())),
            };
            &widened
        }
        _ => model,
    };
    // A certificate of a liveness product is checked against the product, built
    // again from the model and the property its `liveness` line names.
    // One about the model restricted by its `invariant`s (`assume` line) is checked
    // against that model, built again here.
    let base = if cert.assume.is_empty() {
        model.clone()
    } else {
        match crate::model::assume::by_name(model, &cert.assume)
            .and_then(|invs| crate::run::assumed_model(model, &invs))
        {
            Ok(m) => m,
            Err(e) => return Err(usage(&e)),
        }
    };
    // One about the model reduced to what was asked (`reduced` line) is checked
    // against the reduced model, built again here once the reduction is shown to
    // hold on the model (at the sizes checked, or at every size by the text).
    let base = match &cert.reduced {
        None => base,
        Some(r) => match reduced_model(a, &base, cert, r, solver) {
            Ok(m) => m,
            Err(refused) => return Ok(*refused),
        },
    };
    // One about the over-approximation over the classes of the ints (`abstraction
    // ints` line) is checked against it, built again here.
    let base = if cert.abstraction {
        let built = if cert.order {
            crate::model::ints::order::ordered_diff(&base, cert.order_diff)
                .and_then(|m| crate::lang::read_back(&m, "the model over the order of its ints"))
        } else {
            crate::portfolio::every::abstracted(&base)
        };
        match built {
            Ok(m) => m,
            Err(e) => {
                return Err(usage(&format!(
                    "the certificate is about the model {}, which this model has not: {e}",
                    over_ints(cert.order)
                )));
            }
        }
    } else {
        base
    };
    let checked = match crate::live::certified_model(&base, cert) {
        Ok(Some(product)) => product,
        Ok(None) => base,
        Err(e) => return Err(usage(&e)),
    };
    if cert.hash != text_hash(&checked.source.text) {
        eprintln!(
            "nfold: warning: the certificate was written for another text of the model ({}); checking it anyway",
            cert.model
        );
    }
    let doc = if cert.every.is_some() && a.sizes.is_none() {
        certify_every(a, &checked, cert, solver)
    } else {
        certify_sizes(a, &checked, cert, solver)
    };
    doc.map_err(|e| usage(&e))
}

/// The model reduced to what was asked (`reduced` line `r`), once the reduction is
/// shown to hold on `base`; `Err` is the document that refuses the certificate.
fn reduced_model(
    a: &CertifyArgs,
    base: &Model,
    cert: &Certificate,
    r: &Reduced,
    solver: SolverKind,
) -> Result<Model, Box<CertifyDoc>> {
    let every = cert.every.is_some() && a.sizes.is_none();
    let sizes: Vec<usize> = {
        let (lo, hi) = a.sizes.unwrap_or(cert.sizes);
        (lo..=hi).collect()
    };
    let rebuilt = crate::proof::reduced::rebuild(base, r).and_then(|(plan, asked, m)| {
        crate::proof::reduced::verify(
            base,
            &plan,
            &asked,
            (!every).then_some(&sizes[..]),
            solver,
            &Stop::default(),
        )?;
        Ok(m)
    });
    rebuilt.map_err(|e| {
        Box::new(CertifyDoc {
            refused: Some(format!("the reduction does not hold on the model: {e}")),
            ..doc_of(a, base, cert)
        })
    })
}

/// The checks of each size; which check decided it is named for a certificate with
/// decision diagrams (both checks can decide those; SAT alone decides the others).
fn size_docs(checks: &[check::SizeCheck], cert: &Certificate) -> Vec<SizeCheckDoc> {
    let diagrams = cert.lemmas.iter().any(|l| l.bdd.is_some());
    checks
        .iter()
        .map(|c| SizeCheckDoc {
            size: c.size,
            certified: c.certified.clone(),
            failures: [&c.failures[..], &c.unchecked[..]].concat(),
            checked_by: diagrams.then(|| c.by.name().to_string()),
        })
        .collect()
}

/// A certificate claimed at sizes: checked at each (or those asked for).
fn certify_sizes(
    a: &CertifyArgs,
    model: &Model,
    cert: &Certificate,
    solver: SolverKind,
) -> Result<CertifyDoc, String> {
    let (lo, hi) = a.sizes.unwrap_or(cert.sizes);
    let sizes: Vec<usize> = (lo..=hi).collect();
    let start = Instant::now();
    let checks = check::check_with(
        model,
        cert,
        &sizes,
        solver,
        &Stop::default(),
        a.check.method(),
    )?;
    Ok(CertifyDoc {
        induction: Some(cert.induction()),
        accepted: checks.iter().all(|c| c.accepted()),
        results: size_docs(&checks, cert),
        seconds: start.elapsed().as_secs_f64(),
        ..doc_of(a, model, cert)
    })
}

/// A certificate claimed at every size: the cutoff argument's conditions, then the
/// check at every size up to the cutoff computed here.
fn certify_every(
    a: &CertifyArgs,
    model: &Model,
    cert: &Certificate,
    solver: SolverKind,
) -> Result<CertifyDoc, String> {
    let start = Instant::now();
    let ch = check::check_every(model, cert, solver, &Stop::default())?;
    Ok(CertifyDoc {
        every_n: Some(true),
        cutoff: Some(ch.cutoff),
        refused: ch.refused.clone(),
        accepted: ch.accepted(),
        results: size_docs(&ch.sizes, cert),
        seconds: start.elapsed().as_secs_f64(),
        ..doc_of(a, model, cert)
    })
}

/// The fields every certificate's document has.
fn doc_of(a: &CertifyArgs, model: &Model, cert: &Certificate) -> CertifyDoc {
    CertifyDoc {
        schema: SCHEMA_VERSION,
        tool: Tool::this(),
        model: model.source.name.clone(),
        certificate: a.certificate.clone(),
        lemmas: cert.lemmas.len(),
        engine: cert.engine.clone(),
        simple_path: cert.simple_path(),
        induction: None,
        liveness: cert.liveness_text(),
        every_n: None,
        cutoff: None,
        refused: None,
        assuming: cert.assume.clone(),
        reduced: cert.reduced.as_ref().map(|r| r.text()),
        abstraction: cert.abstraction,
        order: cert.order,
        results: Vec::new(),
        accepted: false,
        seconds: 0.0,
        more: Vec::new(),
    }
}

/// Which over-approximation of the ints an `abstraction` certificate is about.
fn over_ints(order: bool) -> &'static str {
    if order {
        "over the order of its ints"
    } else {
        "over the classes of its ints"
    }
}

/// The text report of one certificate's check.
fn text_of(d: &CertifyDoc, model: &str) -> String {
    let mut out = String::new();
    let mut about = match &d.liveness {
        Some(l) => match l.strip_suffix(" ranks") {
            Some(l) => format!(" (a ranking proof of `{l}` on the model)"),
            None => format!(" (the liveness product of `{l}`)"),
        },
        None => String::new(),
    };
    if !d.assuming.is_empty() {
        about.push_str(&format!(
            " (assuming {}: the states violating them removed)",
            d.assuming.join(", ")
        ));
    }
    if d.abstraction {
        about.push_str(&format!(" ({}: an over-approximation)", over_ints(d.order)));
    }
    if let Some(r) = &d.reduced {
        about.push_str(&format!(
            " (reduced for {r}, the reduction checked on the model)"
        ));
    }
    if d.every_n == Some(true) {
        out.push_str(&format!(
            "certificate {} for {model}{about}: {} lemmas, claimed at every size, found by {}\n",
            d.certificate, d.lemmas, d.engine
        ));
        match &d.refused {
            Some(r) => out.push_str(&format!("REJECTED: {r}\n")),
            None => out.push_str(&format!(
                "the model{} is in the fragment of the cutoff argument; the cutoff computed from the model and the lemmas{} is {}\n",
                if d.abstraction {
                    format!(" {}", over_ints(d.order))
                } else {
                    String::new()
                },
                if d.liveness.as_deref().is_some_and(|l| l.ends_with(" ranks")) {
                    " and the ranking"
                } else {
                    ""
                },
                d.cutoff.unwrap_or(0)
            )),
        }
    } else {
        out.push_str(&format!(
            "certificate {} for {model}{about}: {} lemmas, {}-inductive{}, found by {}\n",
            d.certificate,
            d.lemmas,
            d.induction.unwrap_or(1),
            if d.simple_path { " (simple paths)" } else { "" },
            d.engine
        ));
        if let Some(r) = &d.refused {
            out.push_str(&format!("REJECTED: {r}\n"));
        }
    }
    for c in &d.results {
        if c.failures.is_empty() {
            let checked = c
                .checked_by
                .as_deref()
                .and_then(check::Checker::of_name)
                .map_or("checked", check::Checker::phrase);
            out.push_str(&format!(
                "size {:>3}: {checked}; proves {}\n",
                c.size,
                if c.certified.is_empty() {
                    "no property (none is claimed at this size)".to_string()
                } else {
                    c.certified.join(", ")
                }
            ));
        } else {
            out.push_str(&format!("size {:>3}: REJECTED\n", c.size));
            for f in &c.failures {
                out.push_str(&format!("          {f}\n"));
            }
        }
    }
    out.push_str(&format!(
        "{}; {:.2}s\n",
        match (d.accepted, d.every_n == Some(true)) {
            (true, true) => "the certificate is accepted: the properties hold at every size",
            (true, false) => "the certificate is accepted",
            (false, _) => "the certificate is rejected",
        },
        d.seconds
    ));
    out
}
