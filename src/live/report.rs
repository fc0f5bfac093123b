//! The reports of a safety engine run on a liveness product, read as reports about the
//! model: the product's property becomes the `ltl` property (its counterexamples
//! decoded into lassos and replayed, its depth bounds counted in steps of the model),
//! the product's range errors the model's; and certificates about a product, whose
//! `liveness` line names the model's property, checked against the product built again.

use super::decode::{decode_lasso, decode_trace};
use super::product::{Product, Variant};
use crate::cert::Certificate;
use crate::model::ir::Model;
use crate::verdict::{Counterexample, PropId, PropResult, SizeReport, Verdict};
use std::sync::Arc;

/// One size's report about the product `prod`, as a report about `model`: the
/// product's property is `ltl` property `prod.prop` (a product run of depth d is a lasso
/// of d - 1 steps of the model: the save step is no step of it), a trace to a range
/// error or a store leaving the int window is decoded into the model's. A run that does
/// not decode into a replayed lasso or trace is an internal error, and its verdict
/// unknown.
pub fn translate(model: &Model, prod: &Product, r: SizeReport) -> SizeReport {
    let name = model.ltls[prod.prop].name.clone();
    let mut errors = r.internal_errors.clone();
    let mut results = Vec::new();
    for x in r.results.iter().cloned() {
        match x.prop {
            PropId::Unsafe(_) => {
                let verdict = match x.verdict {
                    Verdict::Violated(c) => match *c {
                        Counterexample::Trace(t) => match decode_lasso(model, prod, &t) {
                            Ok(l) => Verdict::violated_by_lasso(l),
                            Err(e) => {
                                errors.push(format!("`{name}`: {e}"));
                                Verdict::Unknown
                            }
                        },
                        Counterexample::Lasso(_) => {
                            errors.push(format!("`{name}`: a lasso of the product"));
                            Verdict::Unknown
                        }
                    },
                    Verdict::NoViolationUpTo(d) => Verdict::NoViolationUpTo(d.saturating_sub(1)),
                    v => v,
                };
                results.push(PropResult {
                    size: x.size,
                    prop: PropId::Ltl(prod.prop),
                    name: name.clone(),
                    verdict,
                });
            }
            PropId::Range | PropId::IntBound => {
                let Some(t) = x.verdict.trace() else {
                    continue;
                };
                match decode_trace(model, prod, t) {
                    Ok(t) => results.push(PropResult {
                        verdict: Verdict::violated(t),
                        ..x
                    }),
                    Err(e) => errors.push(format!("{}: {e}", x.name)),
                }
            }
            PropId::Ltl(_) | PropId::Deadlock => {}
        }
    }
    let mut stats = r.stats.clone();
    // The product's runs have one step more than the lassos they stand for (the save).
    stats.bound = stats.bound.map(|d| d.saturating_sub(1));
    SizeReport {
        results,
        internal_errors: errors,
        stats,
        ..r
    }
}

/// The reports `b` merged into `a`, size by size (a size missing from `a` is taken
/// from `b`): rows appended, a range-error or `int_bound` row of `b` kept only when `a`
/// has none for that size, internal errors and times added up, the first limit kept.
pub fn merge(a: Vec<SizeReport>, b: Vec<SizeReport>) -> Vec<SizeReport> {
    let mut out = a;
    for r in b {
        let Some(x) = out.iter_mut().find(|x| x.size == r.size) else {
            out.push(r);
            continue;
        };
        for row in r.results {
            let pseudo = matches!(row.prop, PropId::Range | PropId::IntBound);
            if pseudo && x.results.iter().any(|y| y.prop == row.prop) {
                continue;
            }
            x.results.push(row);
        }
        x.internal_errors.extend(r.internal_errors);
        x.seconds += r.seconds;
        x.shared_time |= r.shared_time;
        x.limit = x.limit.or(r.limit);
        x.symmetry |= r.symmetry;
    }
    out.sort_by_key(|r| r.size);
    out
}

/// The model a certificate is about: the liveness product its `liveness` line names
/// (liveness-to-safety, or k-liveness with `counting K`), built again from `model`
/// (`None`: the model itself).
pub fn certified_model(model: &Model, cert: &Certificate) -> Result<Option<Model>, String> {
    let Some((name, fair)) = &cert.liveness else {
        return Ok(None);
    };
    // A ranking proof is about the model itself.
    if cert.ranking().is_some() {
        return Ok(None);
    }
    let prop = model.ltl_by_name(name).ok_or_else(|| {
        format!("the certificate is about `{name}`, an ltl property the model lacks")
    })?;
    let variant = match cert.klive {
        Some(k) => Variant::Klive(k),
        None => Variant::LoopClosing,
    };
    Ok(Some(Product::build(model, prop, *fair, variant)?.model))
}

/// A certificate of a product, marked as being about `model`'s `ltl` property (with
/// fairness or not), and every `holds` of `reports` pointing at it.
pub fn mark_certificate(
    cert: &Arc<Certificate>,
    model: &Model,
    prod: &Product,
    reports: &mut [SizeReport],
) -> Arc<Certificate> {
    let marked = Arc::new(Certificate {
        liveness: Some((model.ltls[prod.prop].name.clone(), prod.fair)),
        klive: match prod.variant {
            Variant::Klive(k) => Some(k),
            Variant::LoopClosing | Variant::Justice => None,
        },
        ..(**cert).clone()
    });
    for r in reports {
        for x in &mut r.results {
            if let Verdict::Holds(crate::verdict::Proof::Invariant { certificate, .. }) =
                &mut x.verdict
                && Arc::ptr_eq(certificate, cert)
            {
                *certificate = marked.clone();
            }
        }
    }
    marked
}

/// An `unknown` row for `ltl` property `prop` at every size of `reports` that has none
/// (a size no phase answered).
pub fn fill_unknown(reports: &mut [SizeReport], model: &Model, prop: usize) {
    for r in reports {
        if !r.results.iter().any(|x| x.prop == PropId::Ltl(prop)) {
            let row = PropResult::new(model, r.size, PropId::Ltl(prop), Verdict::Unknown);
            r.results.insert(0, row);
        }
    }
}
