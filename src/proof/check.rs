//! The independent check of a certificate, run before any `holds` from a proof engine
//! is printed and by `nfold certify`. It shares no code with the engines' search: the
//! certificate's lemmas are read back from their text as `unsafe` blocks of the model
//! (so the printed formulas are what is checked), every size is checked on its own
//! instance (not the aggregate the engine searched), with one-hot cells (the engines
//! use binary ones) and fresh solvers:
//! - init ⇒ Inv (and no range error in `init` where range errors are claimed absent);
//! - Inv ∧ T ⇒ Inv′ (for `induction k`: Inv holds on the first k-1 steps of every
//!   run, and k consecutive Inv states are followed by an Inv state);
//! - Inv ⇒ ¬bad for every property claimed at that size (`int_bound`: no transition
//!   instance stores a value outside the int window);
//! - for a model with ints, the certificate names the window the model is checked over.
//!
//! Inv is the conjunction of the lemmas claimed at the size. A lemma is violated where
//! its formula holds, evaluated as an `unsafe` body is: a formula whose evaluation
//! meets a range error does not hold (range errors are the `no range error` lemma's
//! business), so the certificate's text means what it says.

use crate::bmc::frame::Encoding;
use crate::bmc::unroll::Unroller;
use crate::cert::Certificate;
use crate::lang;
use crate::model::ir::Model;
use crate::sat::circuit::TRUE;
use crate::sat::{Lit, SolveResult, SolverKind, Stop};

/// The outcome at one size: every condition that failed (empty: certified).
#[derive(Clone, Debug)]
pub struct SizeCheck {
    pub size: usize,
    /// The properties certified at this size (`range_error` for range errors).
    pub certified: Vec<String>,
    pub failures: Vec<String>,
}

/// The model with the lemmas appended as `unsafe` blocks, and the index of each
/// lemma's property.
pub fn with_lemmas(model: &Model, cert: &Certificate) -> Result<(Model, Vec<usize>), String> {
    let mut prefix = "nfold_lemma_".to_string();
    while model.unsafes.iter().any(|u| u.name.starts_with(&prefix)) {
        prefix.insert(0, 'x');
    }
    let mut text = model.source.text.clone();
    text.push('\n');
    for (i, l) in cert.lemmas.iter().enumerate() {
        if l.no_range || l.no_int_bound {
            // A placeholder keeps one property per lemma; it is never evaluated.
            text.push_str(&format!("unsafe {prefix}{} () {{ False }}\n", i + 1));
            continue;
        }
        text.push_str(&format!(
            "unsafe {prefix}{} ({}) {{ {} }}\n",
            i + 1,
            l.vars.join(" "),
            l.body
        ));
    }
    // The same int window and data values as the model (the lemmas' literals must not
    // move a default window).
    let opts = lang::LoadOptions {
        data_value_names: true,
        ..lang::LoadOptions::of(model)
    };
    let m = lang::load_str_with(&model.source.name, &text, &opts).map_err(|e| {
        let (line, _) = e.source.line_col(e.diagnostic.span.lo);
        let base = model.source.text.lines().count() + 1;
        let which = line.saturating_sub(base);
        format!(
            "lemma {} of the certificate does not read as a formula of the model: {}",
            which, e.diagnostic.message
        )
    })?;
    let base = model.unsafes.len();
    Ok((m, (base..base + cert.lemmas.len()).collect()))
}

/// Check a certificate at each of `sizes` (those of its sizes to check).
pub fn check(
    model: &Model,
    cert: &Certificate,
    sizes: &[usize],
    solver: SolverKind,
    stop: &Stop,
) -> Result<Vec<SizeCheck>, String> {
    let (m, lemma_props) = with_lemmas(model, cert)?;
    let window = model.int_window.as_ref().map(|w| (w.lo, w.hi));
    if cert.ints != window {
        let text = |w: Option<(i64, i64)>| match w {
            Some((lo, hi)) => format!("ints {lo}..{hi}"),
            None => "no ints".to_string(),
        };
        let failure = format!(
            "the certificate is about {}, the model is checked with {}",
            text(cert.ints),
            text(window)
        );
        return Ok(sizes
            .iter()
            .map(|&n| SizeCheck {
                size: n,
                certified: Vec::new(),
                failures: vec![failure.clone()],
            })
            .collect());
    }
    let mut out = Vec::new();
    for &n in sizes {
        let claims: Vec<String> = cert
            .proves
            .iter()
            .filter(|(_, s)| s.contains(&n))
            .map(|(p, _)| p.clone())
            .collect();
        let lemmas: Vec<(usize, Option<bool>)> = cert
            .lemmas
            .iter()
            .zip(&lemma_props)
            .filter(|(l, _)| l.at(n))
            .map(|(l, &p)| {
                (
                    p,
                    if l.no_int_bound {
                        Some(true)
                    } else if l.no_range {
                        Some(false)
                    } else {
                        None
                    },
                )
            })
            .collect();
        let failures = check_size(&m, model, cert, n, &claims, &lemmas, solver, stop)?;
        out.push(SizeCheck {
            size: n,
            certified: if failures.is_empty() {
                claims
            } else {
                Vec::new()
            },
            failures,
        });
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn check_size(
    m: &Model,
    original: &Model,
    cert: &Certificate,
    n: usize,
    claims: &[String],
    lemmas: &[(usize, Option<bool>)],
    solver: SolverKind,
    stop: &Stop,
) -> Result<Vec<String>, String> {
    let k = cert.induction;
    let mut u = Unroller::new(m, n, Encoding::OneHot);
    for _ in 0..k {
        u.add_step();
    }
    let mut s = solver.create_plain()?;
    let mut failures = Vec::new();
    let all_props: Vec<usize> = (0..original.unsafes.len()).collect();
    // Inv at frame j, and each lemma's violation there.
    let mut inv = Vec::new();
    let mut viol: Vec<Vec<Lit>> = Vec::new();
    for j in 0..=k {
        let mut bad = Vec::new();
        for &(p, special) in lemmas {
            if let Some(int) = special {
                // `no int_bound` or `no range error`.
                let r = if int {
                    u.ts.int_bound(false)
                } else {
                    u.ts.range(&all_props, false)
                };
                bad.push(u.lit(j, r));
            } else {
                let (b, e) = u.bad(p, j);
                bad.push(u.c.and2(b, -e));
            }
        }
        let any = u.c.or(&bad);
        inv.push(-any);
        viol.push(bad);
    }
    if cert.simple_path {
        // Runs of pairwise distinct states only.
        for i in 0..=k {
            for j in i + 1..=k {
                let (a, b) = (u.frames[i].cells.clone(), u.frames[j].cells.clone());
                let mut diff = Vec::new();
                for (ca, cb) in a.iter().zip(&b) {
                    for (&x, &y) in ca.lits().iter().zip(cb.lits()) {
                        let same = u.c.iff(x, y);
                        diff.push(-same);
                    }
                }
                let d = u.c.or(&diff);
                u.c.assert(d);
            }
        }
    }
    let lemma_text = |i: usize| {
        let idx = lemmas[i].0 - original.unsafes.len();
        cert.lemmas[idx].text()
    };
    let mut ask =
        |u: &Unroller, a: &[Lit], what: &str, frame: usize, failures: &mut Vec<String>| match s
            .solve(&u.c.cnf, a, stop)
        {
            SolveResult::Unsat => {}
            SolveResult::Unknown => failures.push(format!("{what}: not checked (limit)")),
            SolveResult::Sat => {
                let which = viol[frame]
                    .iter()
                    .position(|&l| s.value(l))
                    .map(|i| format!(" (lemma `{}`)", lemma_text(i)))
                    .unwrap_or_default();
                failures.push(format!("{what}{which}"));
            }
        };
    // Initial states (and the first k-1 steps of every run) satisfy Inv.
    for (j, &inv_j) in inv.iter().enumerate().take(k) {
        let a = [u.init_ok, -inv_j];
        let what = if j == 0 {
            "an initial state violates the invariant".to_string()
        } else {
            format!("a state reached in {j} steps violates the invariant")
        };
        ask(&u, &a, &what, j, &mut failures);
    }
    // Consecution, one lemma at a time: many easy queries in one incremental solver
    // are far cheaper than one query for the whole disjunction. When the model with
    // the lemmas is fully symmetric (the front end's analysis of the whole text: no
    // process constants or order on processes in any transition, property or lemma),
    // Inv and the steps are closed under renaming the processes, so a step from Inv
    // violating a lemma at some tuple of distinct processes is a renaming of one
    // violating it at the tuple 1..k: that tuple is the one asked.
    let first: Vec<Lit> = if m.is_symmetric() && n > 1 {
        lemmas
            .iter()
            .zip(&viol[k])
            .map(|(&(p, special), &all)| {
                let params = m.unsafes[p].params;
                if special.is_some() || params > n {
                    return all;
                }
                let tuple: Vec<i64> = (1..=params as i64).collect();
                let (b, e) = u.bad_tuple(p, k, &tuple);
                u.c.and2(b, -e)
            })
            .collect()
    } else {
        viol[k].clone()
    };
    // The range error of `init`, the one query left that does not assume Inv.
    if claims.iter().any(|c| c == "range_error") {
        let init_err = u.init_err;
        ask(
            &u,
            &[init_err],
            "evaluating init meets a range error",
            0,
            &mut failures,
        );
    }
    // Inv as a unit clause from here on when k = 1 (the queries left all assume it):
    // the solver propagates it once, at the root.
    if k == 1 {
        u.c.assert(inv[0]);
    }
    for &v in &first {
        // Still assumed: a constant Inv (false, for a model without initial states)
        // is no clause.
        let mut a: Vec<Lit> = inv[..k].to_vec();
        a.push(v);
        let before = failures.len();
        ask(
            &u,
            &a,
            "the invariant is not inductive: a step from it leaves it",
            k,
            &mut failures,
        );
        if failures.len() > before {
            break;
        }
    }
    // Every claimed property.
    for c in claims {
        let bad = if c == "range_error" {
            let r = u.ts.range(&all_props, false);
            u.lit(0, r)
        } else if c == "int_bound" {
            let r = u.ts.int_bound(false);
            u.lit(0, r)
        } else {
            let Some(p) = original.unsafes.iter().position(|x| &x.name == c) else {
                failures.push(format!(
                    "the certificate claims `{c}`, which the model lacks"
                ));
                continue;
            };
            let (b, e) = u.bad(p, 0);
            u.c.and2(b, -e)
        };
        if bad != -TRUE {
            ask(
                &u,
                &[inv[0], bad],
                &format!("a state of the invariant violates `{c}`"),
                0,
                &mut failures,
            );
        }
    }
    Ok(failures)
}

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
        self.refused.is_none() && self.sizes.iter().all(|c| c.failures.is_empty())
    }
}

/// Check a certificate's claim for every size: the model must lie in the fragment of
/// the cutoff argument, every lemma must be a universal clause claimed at every size,
/// every property must be claimed at every size 1..c, and the certificate must check
/// at each size 1..c, where c is computed here from the model and the lemmas' text.
pub fn check_every(
    model: &Model,
    cert: &Certificate,
    solver: SolverKind,
    stop: &Stop,
) -> Result<EveryCheck, String> {
    use super::cutoff;
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
    if cert.induction != 1 {
        return Ok(refuse(
            "a claim for every size needs an inductive invariant (`induction 1`)".into(),
        ));
    }
    let (m, props) = with_lemmas(model, cert)?;
    let mut procs = Vec::new();
    for (l, &p) in cert.lemmas.iter().zip(&props) {
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
    let c = cutoff::cutoff(&frag, &procs);
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
