//! The check of a certificate claimed at every size (`every n cutoff c`): the cutoff
//! argument's conditions on the model and the lemmas (`proof::cutoff`; for a ranking
//! proof of a response property, also its phases and weights, `proof::live_cutoff`),
//! then the check of each size 1..c.

use super::{SizeCheck, check, with_lemmas};
use crate::cert::Certificate;
use crate::model::ir::Model;
use crate::sat::{SolverKind, Stop};

/// The check of a certificate claimed at every size (`every n cutoff c`).
#[derive(Clone, Debug)]
pub struct EveryCheck {
    /// The cutoff computed from the model and the lemmas.
    pub cutoff: usize,
    /// The check at each size 1..cutoff.
    pub sizes: Vec<SizeCheck>,
    /// Why the claim for every size is rejected before any size is checked.
    pub refused: Option<String>,
}

impl EveryCheck {
    /// Every size 1..cutoff checked, every claim certified at each.
    pub fn accepted(&self) -> bool {
        self.refused.is_none() && self.sizes.iter().all(|c| c.accepted())
    }
}

/// Where offset `at` of the model with the lemmas lies: in the model's text, or the
/// text of the lemma it belongs to.
fn lemma_line(model: &Model, cert: &Certificate, m: &Model, at: usize) -> String {
    if at < model.source.text.len() {
        return model.source.file_line(at);
    }
    let (line, _) = m.source.line_col(at);
    let base = model.source.text.lines().count() + 1;
    match line.checked_sub(base + 1).and_then(|i| cert.lemmas.get(i)) {
        Some(l) => format!("lemma `{}`", l.text()),
        None => m.source.file_line(at),
    }
}

/// The cutoff `c` of the lemmas, raised to a ranking proof's own (its obligations bound
/// the sizes too, `proof::live_cutoff`); or why the ranking is outside the argument.
fn ranking_cutoff(
    model: &Model,
    cert: &Certificate,
    frag: &crate::proof::cutoff::Fragment,
    c: usize,
) -> Result<usize, String> {
    if cert.ranking().is_none() {
        return Ok(c);
    }
    super::rank::every_cutoff(model, cert, frag)
        .map(|l| c.max(l.cutoff))
        .map_err(|e| format!("the ranking is outside the liveness argument: {e}"))
}

/// Over the order of the ints, the abstract model simulates the model only while no
/// relation is lost: the certificate must prove that at every size it claims, and say
/// which abstraction it is about.
fn order_refusal(model: &Model, cert: &Certificate) -> Option<String> {
    let o = model.ord_ints.as_ref()?;
    let all: Vec<usize> = (1..=cert.sizes.1).collect();
    if let Some(l) = o.lost.iter().find(|l| {
        !cert
            .proves
            .iter()
            .any(|(n, s)| n == *l && all.iter().all(|k| s.contains(k)))
    }) {
        return Some(format!(
            "the model is over the order of its ints, and the certificate does not claim `{l}` at every size 1..{}",
            cert.sizes.1
        ));
    }
    (!cert.order).then(|| {
        "the model is over the order of its ints, and the certificate does not say `abstraction order`".into()
    })
}

/// Check a certificate's claim for every size: the model must lie in the fragment of
/// the cutoff argument, every lemma must be a universal clause claimed at every size,
/// every property must be claimed at every size 1..c, and the certificate must check
/// at each size 1..c, where c is computed here from the model and the lemmas' text
/// (and a ranking's, `ranking_cutoff`).
pub fn check_every(
    model: &Model,
    cert: &Certificate,
    solver: SolverKind,
    stop: &Stop,
) -> Result<EveryCheck, String> {
    use crate::proof::cutoff;
    let refuse = |why: String| EveryCheck {
        cutoff: 0,
        sizes: Vec::new(),
        refused: Some(why),
    };
    let frag = match cutoff::fragment(model) {
        Ok(f) => f,
        Err(o) => {
            return Ok(refuse(format!(
                "the model is outside the fragment of the cutoff argument: {}",
                o.text(model)
            )));
        }
    };
    if cert.induction() != 1 {
        return Ok(refuse(
            "a claim for every size needs an inductive invariant (`induction 1`)".into(),
        ));
    }
    if let Some(why) = order_refusal(model, cert) {
        return Ok(refuse(why));
    }
    let (m, props, counts) = with_lemmas(model, cert)?;
    // The lemmas may compare their processes by order (the model then is, or becomes,
    // ordered-symmetric), nothing else that breaks symmetry.
    if let Some(b) = m.first_unordered_break() {
        return Ok(refuse(format!(
            "the lemmas are not symmetric: {} at {}",
            b.what,
            lemma_line(model, cert, &m, b.span.lo)
        )));
    }
    let mut procs = Vec::new();
    for (l, &p) in cert.lemmas.iter().zip(&props) {
        if counts.contains_key(&p) {
            return Ok(refuse(format!(
                "lemma `{}` counts processes: counting lemmas are checked at each size only",
                l.text()
            )));
        }
        if l.bdd.is_some() {
            return Ok(refuse(format!(
                "lemma `{}` is a decision diagram: checked at each size only",
                l.text()
            )));
        }
        if l.sizes.is_some() {
            return Ok(refuse(format!(
                "lemma `{}` is claimed at some sizes only",
                l.text()
            )));
        }
        if l.no_range {
            continue;
        }
        let u = &m.unsafes[p];
        match cutoff::lemma_procs(&m, u.params, &u.body) {
            Ok(k) => procs.push(k),
            Err(e) => return Ok(refuse(format!("lemma `{}`: {e}", l.text()))),
        }
    }
    let c = match ranking_cutoff(model, cert, &frag, cutoff::cutoff(&frag, &procs)) {
        Ok(c) => c,
        Err(e) => return Ok(refuse(e)),
    };
    // Ints checked over their window: the runs over the integers are those over the
    // window only if none leaves it, at any size.
    if frag.ints && !cert.proves.iter().any(|(p, _)| p == "int_bound") {
        return Ok(refuse(format!(
            "the model's ints are checked over the window {}, and the certificate does not claim `int_bound` (that no run leaves it)",
            model
                .int_window
                .as_ref()
                .map_or(String::new(), |w| w.text())
        )));
    }
    for (p, s) in &cert.proves {
        if let Some(n) = (1..=c).find(|n| !s.contains(n)) {
            return Ok(refuse(format!(
                "`{p}` is not claimed at size {n}, below the cutoff {c}"
            )));
        }
    }
    let sizes: Vec<usize> = (1..=c).collect();
    Ok(EveryCheck {
        cutoff: c,
        sizes: check(model, cert, &sizes, solver, stop)?,
        refused: None,
    })
}
