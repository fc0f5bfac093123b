//! The answers for every n, per property, in text and JSON, and the pass that answers
//! the `unsafe` properties assuming the `invariant`s (`model::assume`), as Cubicle
//! reads them.

use crate::cert::sizes_phrase;
use crate::model::ir::Model;
use crate::portfolio::every::{EveryAnswers, EveryN, PropEvery};
use crate::run::{AssumedRun, Run};
use crate::schema::{EveryDoc, EveryPropDoc};
use crate::verdict::{PropId, SizeReport};

/// A property's label in the lines for every n: an `unsafe` block's (its name, or its
/// position when it has none), an `ltl` property's name.
fn label(m: &Model, p: PropId) -> String {
    match p {
        PropId::Unsafe(u) => m.unsafes[u].label(),
        other => other.name(m),
    }
}
use std::sync::Arc;

/// `, assuming inv1, inv2` (empty without assumptions).
fn assuming_text(assuming: &[String]) -> String {
    if assuming.is_empty() {
        String::new()
    } else {
        format!(", assuming {}", assuming.join(", "))
    }
}

/// ` (assuming inv1, inv2)` (empty without assumptions).
fn parenthesised(assuming: &[String]) -> String {
    if assuming.is_empty() {
        String::new()
    } else {
        format!(" (assuming {})", assuming.join(", "))
    }
}

fn plural(k: usize) -> &'static str {
    if k == 1 { "" } else { "s" }
}

/// How a proof for every n was made, for JSON's `how`.
fn how(c: &crate::cert::Certificate) -> String {
    if c.ranking().is_some() {
        "ranking proof over a quantified invariant".into()
    } else {
        c.engine.clone()
    }
}

/// One answer in words.
fn answer_text(e: &EveryN, assuming: &[String]) -> String {
    match e {
        EveryN::Proved {
            cutoff,
            certificate,
            init_everywhere,
            seconds,
        } => {
            let vacuous = if *init_everywhere {
                ""
            } else {
                "; vacuous at any size without an initial state"
            };
            let k = certificate.lemmas.len();
            let clauses = format!("a quantified invariant of {k} clause{}", plural(k));
            match certificate.ranking() {
                Some(r) => format!(
                    "holds for every n (ranking proof, cutoff {cutoff}: {} phase{} of the property's process over {clauses}, checked at sizes 1..{cutoff}{vacuous}; {seconds:.2}s)",
                    r.phases.len(),
                    plural(r.phases.len()),
                ),
                None => format!(
                    "holds for every n{} ({clauses} from {}, checked at sizes 1..{cutoff}, the cutoff{vacuous}; {seconds:.2}s)",
                    assuming_text(assuming),
                    certificate.engine,
                ),
            }
        }
        EveryN::OnlySize { size, .. } => format!(
            "holds at size {size}, the only size the model admits (`number_procs {size}`){}",
            assuming_text(assuming)
        ),
        EveryN::NotReached { violated, .. } if !violated.is_empty() => format!(
            "VIOLATED at {}{}, so it does not hold for every n",
            sizes_phrase(violated),
            parenthesised(assuming)
        ),
        EveryN::NotReached { reason, .. } => {
            format!("not proved{}: {reason}", parenthesised(assuming))
        }
    }
}

/// Whether every property got the one answer (one invariant for all, or one reason).
fn one_answer(a: &EveryAnswers) -> Option<&EveryN> {
    let first = &a.props.first()?.answer;
    let same = a.props.iter().all(|p| match (&p.answer, first) {
        (EveryN::Proved { certificate: c, .. }, EveryN::Proved { certificate: d, .. }) => {
            Arc::ptr_eq(c, d)
        }
        (
            EveryN::NotReached {
                reason: r,
                violated: v,
                ..
            },
            EveryN::NotReached {
                reason: s,
                violated: w,
                ..
            },
        ) => r == s && v.is_empty() && w.is_empty(),
        (EveryN::OnlySize { .. }, EveryN::OnlySize { .. }) => true,
        _ => false,
    });
    same.then_some(first)
}

/// The answer for every size: one line when every property has the same answer,
/// otherwise (and always for answers assuming invariants, about some of the
/// properties) one line per property.
pub(super) fn every_lines(m: &Model, sizes: &[usize], a: &EveryAnswers) -> String {
    let head = "every n";
    // `ltl` properties are always named: their answers are about one property each.
    let ltl = a.props.iter().any(|p| matches!(p.prop, PropId::Ltl(_)));
    if let Some(e) = one_answer(a).filter(|_| a.assuming.is_empty() && !ltl) {
        let text = answer_text(e, &a.assuming);
        return match e {
            EveryN::NotReached { .. } => format!(
                "\n{head}: {text}; the verdicts above are for {} only\n",
                sizes_phrase(sizes)
            ),
            EveryN::Proved { .. } | EveryN::OnlySize { .. } => format!("\n{head}: {text}\n"),
        };
    }
    let mut out = format!("\n{head}, per property:\n");
    for p in &a.props {
        out.push_str(&format!(
            "  {}: {}\n",
            label(m, p.prop),
            answer_text(&p.answer, &a.assuming)
        ));
    }
    out
}

/// The most names a summary line lists.
const LISTED: usize = 8;

/// `names` joined, the first `LISTED` of them and how many more when there are more.
fn few(names: &[String]) -> String {
    match names.len() {
        k if k > LISTED => format!("{} and {} more", names[..LISTED].join(", "), k - LISTED),
        _ => names.join(", "),
    }
}

/// The properties proved for every n, for the summary line: `holds for every n` when
/// all are, else their names and those not proved (`every n: not proved`), so that a
/// run that did not reach every n never ends on `holds` alone.
pub(super) fn summary_part(m: &Model, a: &EveryAnswers) -> Option<String> {
    let proved: Vec<String> = a
        .props
        .iter()
        .filter(|p| p.answer.holds())
        .map(|p| format!("`{}`", label(m, p.prop)))
        .collect();
    let assuming = assuming_text(&a.assuming);
    // With `number_procs` the one size is every size the model admits: said so.
    let every = match m.number_procs.map(|(k, _)| k) {
        Some(k) => format!("at size {k}, the only size the model admits"),
        None => "for every n".into(),
    };
    if let (true, Some((k, _))) = (a.all_proved() && a.assuming.is_empty(), m.number_procs) {
        Some(format!("size {k} is the only size the model admits"))
    } else if a.all_proved() && a.assuming.is_empty() {
        Some("holds for every n".into())
    } else if proved.is_empty() {
        Some("every n: not proved".into())
    } else {
        let open: Vec<String> = a
            .props
            .iter()
            .filter(|p| !p.answer.holds())
            .map(|p| format!("`{}`", label(m, p.prop)))
            .collect();
        let rest = if open.is_empty() {
            String::new()
        } else {
            format!("; every n: not proved for {}", few(&open))
        };
        // A file of hundreds of properties gets a count; the block above names each.
        let held = if proved.len() > LISTED {
            format!("{} of the {} properties", proved.len(), a.props.len())
        } else {
            proved.join(", ")
        };
        Some(format!(
            "{held} hold{} {every}{assuming}{rest}",
            if proved.len() == 1 { "s" } else { "" }
        ))
    }
}

/// The assumed pass in text: its rows, its answer for every n.
pub(super) fn assumed_text(run: &Run, a: &AssumedRun) -> String {
    let mut out = format!(
        "\nassuming {} (as Cubicle reads them: initial states violating one dropped, steps into one not taken), the `unsafe` properties not proved without assuming them:\n",
        a.invariants.join(", ")
    );
    let Some(m) = &a.model else {
        out.push_str(&format!(
            "not answered: {}\n",
            a.refused.as_deref().unwrap_or("")
        ));
        return out;
    };
    let mut prev: Option<&SizeReport> = None;
    for r in &a.reports {
        out.push_str(&super::table::rows(m, r, prev));
        prev = Some(r);
    }
    for n in &a.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(l) = a.limit {
        out.push_str(&format!(
            "stopped: {} (the pass assuming the invariants)\n",
            l.text()
        ));
    }
    if let Some(e) = &a.every {
        out.push_str(&every_lines(m, &run.sizes, e));
    }
    out
}

/// One property's answer as JSON.
fn prop_doc(m: &Model, p: &PropEvery, assuming: &[String]) -> EveryPropDoc {
    let (property, kind) = match p.prop {
        PropId::Unsafe(u) => (m.unsafes[u].name.clone(), m.unsafes[u].kind.keyword()),
        other => (other.name(m), "ltl"),
    };
    let mut doc = EveryPropDoc {
        property,
        kind: kind.into(),
        verdict: "not_proved".into(),
        violated_sizes: Vec::new(),
        cutoff: None,
        lemmas: None,
        how: None,
        initial_states_at_every_size: None,
        reason: None,
        assuming: assuming.to_vec(),
        seconds: p.answer.seconds(),
    };
    match &p.answer {
        EveryN::Proved {
            cutoff,
            certificate,
            init_everywhere,
            ..
        } => {
            doc.verdict = "holds".into();
            doc.cutoff = Some(*cutoff);
            doc.lemmas = Some(certificate.lemmas.len());
            doc.how = Some(how(certificate));
            doc.initial_states_at_every_size = Some(*init_everywhere);
        }
        EveryN::OnlySize { size, .. } => {
            doc.verdict = "holds".into();
            doc.how = Some(format!(
                "the only size the model admits (number_procs {size})"
            ));
        }
        EveryN::NotReached {
            reason, violated, ..
        } => {
            if !violated.is_empty() {
                doc.verdict = "violated".into();
                doc.violated_sizes = violated.clone();
            }
            doc.reason = Some(reason.clone());
        }
    }
    doc
}

/// The answers for every size as JSON: over all properties, and per property.
pub(super) fn every_doc(m: &Model, a: &EveryAnswers) -> EveryDoc {
    let props: Vec<EveryPropDoc> = a
        .props
        .iter()
        .map(|p| prop_doc(m, p, &a.assuming))
        .collect();
    let verdict = if a.all_proved() {
        "holds"
    } else if props.iter().any(|p| p.verdict == "violated") {
        "violated"
    } else {
        "not_proved"
    };
    let mut doc = EveryDoc {
        verdict: verdict.into(),
        assuming: a.assuming.clone(),
        properties: props,
        cutoff: None,
        checked_sizes: None,
        lemmas: None,
        how: None,
        initial_states_at_every_size: None,
        certificate: None,
        reason: None,
        seconds: a.seconds,
    };
    match one_answer(a) {
        Some(EveryN::Proved {
            cutoff,
            certificate,
            init_everywhere,
            ..
        }) => {
            doc.cutoff = Some(*cutoff);
            doc.checked_sizes = Some((1..=*cutoff).collect());
            doc.lemmas = Some(certificate.lemmas.len());
            doc.how = Some(how(certificate));
            doc.initial_states_at_every_size = Some(*init_everywhere);
            doc.certificate = Some(certificate.to_text());
        }
        Some(EveryN::OnlySize { size, .. }) => {
            doc.checked_sizes = Some(vec![*size]);
            doc.how = Some(format!(
                "the only size the model admits (number_procs {size})"
            ));
        }
        Some(EveryN::NotReached { reason, .. }) => doc.reason = Some(reason.clone()),
        None => {
            let certs = a.certificates();
            if !certs.is_empty() {
                doc.certificate = Some(certs.iter().map(|c| c.to_text()).collect());
            }
            doc.reason = (!a.all_proved()).then(|| {
                a.props
                    .iter()
                    .filter(|p| !p.answer.holds())
                    .map(|p| match &p.answer {
                        EveryN::NotReached { reason, .. } => {
                            format!("`{}`: {reason}", p.prop.name(m))
                        }
                        EveryN::Proved { .. } | EveryN::OnlySize { .. } => String::new(),
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            });
        }
    }
    doc
}
