//! IC3 on the counter view (`counter`, issue 26): for a fully symmetric family in the
//! view's fragment, each width n is proved on its counter model, where a lemma over the
//! counters says "no state has at least v processes in class c and ..." in one clause
//! that over the per-process encoding would need one clause per tuple of v processes.
//! The invariant is translated back into counting lemmas over the model's own cells
//! (`#{x : Pc[x] = Reading} >= 2`), joined with the view's place invariants
//! (`#{x : Pc[x] = Reading} <> Cnt`), and, like every invariant, checked by
//! `proof::check` on the per-process instance of every width before `holds` is
//! printed; the view itself is trusted for nothing. A counterexample of the counter
//! model is a run of the same length of the family: BMC finds a shortest one at that
//! width and replays it (`proof::finish`).

use super::engine::Ic3Engine;
use super::prove;
use crate::cert::{CertLemma, Evidence};
use crate::counter;
use crate::engine::{Control, Problem};
use crate::proof::finish::{self, Findings};
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::verdict::PropId;

/// What the counter view gave at every width of the problem, as findings over the
/// family, or `None` when the view does not apply, no global of the family counts
/// processes (`CounterView::counters`: no place invariant ties an integer global to
/// the counts), a limit stopped it, or it met a range error (which the per-process
/// search must place).
pub fn findings(
    eng: &Ic3Engine,
    p: &Problem,
    ctl: &Control,
    check_ctl: &Control,
    skip: &[(PropId, usize)],
) -> Result<Option<Findings>, String> {
    if counter::fragment(p.model).is_err() {
        return Ok(None);
    }
    let mut per_width: Vec<(usize, Vec<CertLemma>)> = Vec::new();
    let mut cexs = Vec::new();
    let mut frames = 0;
    for n in p.min..=p.max {
        let Some((lemmas, width_cexs, width_frames)) = width(eng, p, ctl, skip, n)? else {
            return Ok(None);
        };
        frames = frames.max(width_frames);
        cexs.extend(width_cexs);
        per_width.push((n, lemmas));
    }
    let lemmas = merge(per_width, (p.min, p.max));
    // The certificate is checked here, so that a view that misses something (a range
    // error of a cell it leaves out) hands over to the per-process search instead of
    // ending in `unknown`; `finish::conclude` uses this check when the certificate it
    // writes is this one (it is unless BMC could not shorten a counterexample).
    let claims: Vec<(String, Vec<usize>)> = finish::keys(p)
        .into_iter()
        .map(|k| {
            let sizes = p
                .sizes()
                .into_iter()
                .filter(|&n| !skip.contains(&(k, n)) && !cexs.iter().any(|c| c.0 == k && c.1 == n))
                .collect();
            (k.name(p.model), sizes)
        })
        .collect();
    let evidence = Evidence::Induction {
        k: 1,
        simple_path: false,
    };
    let (cert, checks) = finish::certify(
        p,
        HOW,
        evidence,
        lemmas.clone(),
        claims,
        eng.solver,
        check_ctl,
    )?;
    if checks.iter().any(|c| !c.failures.is_empty()) {
        if ctl.progress {
            crate::progress::line(
                "ic3 on the counter view: its invariant failed the check; back to the per-process search",
            );
        }
        return Ok(None);
    }
    Ok(Some(Findings {
        cexs,
        invariant: Some((lemmas, 1, false)),
        proof_depth: Some(frames),
        how: Some(HOW),
        checked: Some((cert, checks)),
        ..Findings::default()
    }))
}

/// What one width gave: the invariant's lemmas over the model's own cells, the
/// violations found (property, width, depth) and the frames used.
type Width = (Vec<CertLemma>, Vec<(PropId, usize, usize)>, usize);

/// IC3 on the counter view at width `n`; `None` where `findings` gives up.
fn width(
    eng: &Ic3Engine,
    p: &Problem,
    ctl: &Control,
    skip: &[(PropId, usize)],
    n: usize,
) -> Result<Option<Width>, String> {
    let Ok(view) = counter::build(p.model, n) else {
        return Ok(None);
    };
    // The view pays only where a global counts processes. Without one, every count
    // the properties need is bounded by the few processes a clause names (mutex:
    // at most one critical), which the per-process lemmas say at once, while the
    // counter model makes IC3 learn the bound for each width again.
    if view.counters.is_empty() {
        if ctl.progress {
            crate::progress::line(format!(
                "counter view, size {n}: no global counts processes; the per-process search"
            ));
        }
        return Ok(None);
    }
    let cp = Problem::new(&view.model, n, n, p.props.clone());
    // Cyclic counters: one-hot counts (ticket lock 1..10: 1.9 s CPU against 2.5 s
    // binary, shared machine); the other views keep the binary counts they were
    // measured with.
    let enc = if view.relative.0.is_empty() {
        Encoding::Binary
    } else {
        Encoding::OneHot
    };
    let mut ts = Transys::new(&view.model, n, n, enc);
    let mut opts = eng.options(&cp, ctl);
    opts.symmetry = false;
    opts.progress = false;
    opts.exclude = skip.iter().filter(|(_, w)| *w == n).copied().collect();
    let out = prove(&mut ts, &opts)?;
    if out.limit.is_some() || out.cexs.iter().any(|c| !matches!(c.key, PropId::Unsafe(_))) {
        return Ok(None);
    }
    let Some(inv) = &out.invariant else {
        return Ok(None);
    };
    let mut lemmas: Vec<CertLemma> = view
        .equalities
        .iter()
        .map(|e| lemma(e.clone(), false))
        .collect();
    for l in inv {
        let cl = l.to_cert(&ts, (n, n));
        let cyclic = !view.relative.0.is_empty();
        lemmas.push(if cl.no_range || cl.no_int_bound {
            CertLemma { sizes: None, ..cl }
        } else if cyclic {
            spread(view.translate(&cl.body))
        } else {
            lemma(view.translate(&cl.body), false)
        });
    }
    if ctl.progress {
        crate::progress::line(format!(
            "ic3 on the counter view, size {n}: {} classes, {} lemmas, {} violations ({:.2}s)",
            view.classes,
            lemmas.len(),
            out.cexs.len(),
            out.stats.seconds
        ));
    }
    let cexs = out.cexs.iter().map(|c| (c.key, n, c.depth)).collect();
    Ok(Some((lemmas, cexs, out.stats.frames)))
}

/// The certificate's `engine` line.
const HOW: &str = "ic3 on the counter view";

fn lemma(body: String, no_range: bool) -> CertLemma {
    CertLemma {
        sizes: None,
        vars: Vec::new(),
        body,
        no_range,
        no_int_bound: false,
        ordered: false,
        bdd: None,
    }
}

/// A counting lemma that only asks for one or two processes in classes, `not (#{x :
/// P} >= 2 && G)`, said of distinct processes instead: `forall distinct i j. not (P(i)
/// && P(j) && G)` (the same states, the classes being disjoint). The checker decides
/// such a lemma for one pair of processes by renaming, where the count needs reasoning
/// about counters that CDCL finds hard (the ticket lock's "no two processes hold one
/// ticket": 0.05 s per ticket value at width 10 as a count).
fn spread(body: String) -> CertLemma {
    let Ok(Some(cube)) = crate::cert::count::parse(&body) else {
        return lemma(body, false);
    };
    let wanted: Option<Vec<(String, i64)>> = cube
        .atoms
        .iter()
        .map(|a| match (a.op, a.literal()) {
            (crate::model::ir::CmpOp::Ge, Some(v)) if v >= 1 => {
                Some((a.pred.replace(&format!("[{}]", a.var), "[{}]"), v))
            }
            _ => None,
        })
        .collect();
    let Some(wanted) = wanted else {
        return lemma(body, false);
    };
    let distinct = wanted.windows(2).all(|w| w[0].0 != w[1].0);
    if !distinct || wanted.iter().map(|w| w.1).sum::<i64>() > 2 {
        return lemma(body, false);
    }
    let names = ["i", "j"];
    let mut parts = Vec::new();
    let mut vars = Vec::new();
    for (pred, v) in &wanted {
        for _ in 0..*v {
            let name = names[vars.len()];
            // A class's predicate is one atom or parenthesized (`counter::emit::pred`).
            parts.push(pred.replace("[{}]", &format!("[{name}]")));
            vars.push(name.to_string());
        }
    }
    parts.extend(cube.rest);
    CertLemma {
        vars,
        ..lemma(parts.join(" && "), false)
    }
}

/// The widths' lemmas as one list: a lemma found at consecutive widths is claimed once
/// over their range (every width of the problem: no `sizes`).
fn merge(per_width: Vec<(usize, Vec<CertLemma>)>, all: (usize, usize)) -> Vec<CertLemma> {
    let mut out: Vec<(CertLemma, usize, usize)> = Vec::new();
    for (n, lemmas) in per_width {
        for l in lemmas {
            match out
                .iter_mut()
                .find(|(x, _, hi)| *hi + 1 == n && x.body == l.body && x.no_range == l.no_range)
            {
                Some(e) => e.2 = n,
                None => out.push((l, n, n)),
            }
        }
    }
    out.into_iter()
        .map(|(l, lo, hi)| CertLemma {
            sizes: ((lo, hi) != all).then_some((lo, hi)),
            ..l
        })
        .collect()
}
