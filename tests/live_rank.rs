//! Ranking proofs of response properties (`--engine rank`, `nfold::rank`, and phase 0
//! of `auto` for `nfold live`):
//! - soundness against the nested depth-first search (`explicit::ndfs`, no symmetry
//!   reduction: complete) on the families with an `ltl` property and on generated
//!   models given a response property, with and without weak fairness: a size is
//!   proved only where the nested search finds no lasso;
//! - every certificate is accepted again by `proof::check` and reads back from its
//!   text; tampered ones (a weight raised, a phase dropped, fairness removed, a
//!   helpful phase made ranked) are rejected, through the library and `nfold certify`;
//! - the verdicts the families' headers derive: Peterson's filter lock is
//!   starvation-free under weak fairness at every size (proved at 1..4 here), and
//!   without fairness only at sizes 1 and 2 (never proved at 3 or 4).

use crate::common;

use common::Rng;
use common::generator::Gen;
use nfold::cert::Certificate;
use nfold::engine::{Control, Problem, run};
use nfold::explicit::ndfs::{self, NdfsOptions, NdfsVerdict};
use nfold::ltl::{LtlProperty, processes_to_check};
use nfold::model::ir::Model;
use nfold::proof::check;
use nfold::rank::engine::RankEngine;
use nfold::sat::{SolverKind, Stop};
use nfold::verdict::{Kind, PropId, SizeReport};
use std::sync::Arc;

/// Whether the nested search finds the property violated (or meets a range error) at
/// size n.
fn ndfs_fails(m: &Model, n: usize, k: usize, fair: bool) -> bool {
    let p = LtlProperty::new(m, k).unwrap();
    let opts = NdfsOptions {
        fair,
        shorten: false,
        ..Default::default()
    };
    processes_to_check(m, k, n).into_iter().any(|process| {
        let r = ndfs::check(m, n, &p, process, &opts);
        assert!(r.internal_errors.is_empty() && r.limit.is_none());
        r.range.is_some() || r.verdict == NdfsVerdict::Violated
    })
}

/// The rank engine's reports at sizes lo..=hi for every `ltl` property.
fn rows(m: &Model, lo: usize, hi: usize, fair: bool) -> (Vec<SizeReport>, Vec<Arc<Certificate>>) {
    let mut p = Problem::new(m, lo, hi, vec![]);
    p.ltls = (0..m.ltls.len()).collect();
    p.fair = fair;
    let eng = RankEngine {
        solver: SolverKind::default_kind(),
    };
    let mut out = Vec::new();
    let o = run(&eng, &p, &Control::default(), &mut |r| out.push(r)).unwrap();
    for r in &out {
        assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
        for x in &r.results {
            assert_ne!(
                x.verdict.kind(),
                Kind::Violated,
                "the rank engine refutes nothing"
            );
        }
    }
    (out, o.certificates)
}

fn proved(rs: &[SizeReport], n: usize, k: usize) -> bool {
    rs.iter()
        .filter(|r| r.size == n)
        .flat_map(|r| &r.results)
        .any(|x| x.prop == PropId::Ltl(k) && x.verdict.kind() == Kind::Holds)
}

/// The certificate reads back from its text and is accepted again.
fn recheck(m: &Model, cert: &Certificate) {
    assert_eq!(Certificate::parse(&cert.to_text()).unwrap(), *cert);
    let sizes: Vec<usize> = cert.proves.iter().flat_map(|p| p.1.clone()).collect();
    let ok = check::check(
        m,
        cert,
        &sizes,
        SolverKind::default_kind(),
        &Stop::default(),
    )
    .unwrap();
    assert!(ok.iter().all(|c| c.accepted()), "{ok:?}");
}

/// Sound against the nested search: each (property, size) proved holds there.
fn sound(m: &Model, hi: usize, fair: bool, what: &str) -> usize {
    let (rs, certs) = rows(m, 1, hi, fair);
    let mut count = 0;
    for k in 0..m.ltls.len() {
        for n in 1..=hi {
            if proved(&rs, n, k) {
                assert!(
                    !ndfs_fails(m, n, k, fair),
                    "{what} fair={fair} ltl {k} size {n}: proved by ranks, violated by ndfs\n{}",
                    m.source.text
                );
                count += 1;
            }
        }
    }
    for c in &certs {
        recheck(m, c);
    }
    count
}

const FAMILIES: &[(&str, usize)] = &[
    ("peterson", 4),
    ("mutex", 4),
    ("token_mutex", 4),
    ("ticket_lock", 4),
    ("mcs_lock", 3),
    ("oddeven_sort_live", 4),
    ("oddeven_sort_live_bug", 4),
];

#[test]
fn families_against_the_nested_search() {
    for &(f, hi) in FAMILIES {
        let m = nfold::lang::load_file(&format!("families/{f}.cub")).unwrap();
        for fair in [false, true] {
            sound(&m, hi, fair, f);
        }
    }
}

/// Peterson's header: starvation-free under weak fairness at every n; without
/// fairness at n = 1 and 2 only (two processes overtake a third forever).
#[test]
fn peterson_as_its_header_derives() {
    let m = nfold::lang::load_file("families/peterson.cub").unwrap();
    let (rs, certs) = rows(&m, 1, 4, true);
    assert!((1..=4).all(|n| proved(&rs, n, 0)));
    assert_eq!(certs.len(), 4);
    let (rs, _) = rows(&m, 1, 4, false);
    assert!(!proved(&rs, 3, 0) && !proved(&rs, 4, 0));
}

#[test]
fn generated_models_against_the_nested_search() {
    let count: u64 = std::env::var("NFOLD_MODELS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 6 } else { 40 });
    let mut proofs = 0;
    for seed in 9100..9100 + count {
        let mut g = Gen {
            rng: Rng::new(seed),
            asym: seed.is_multiple_of(3),
            extra: false,
        };
        let mut gm = g.model();
        let i = ["i".to_string()];
        let (a, b) = (g.atom(&gm, &i, 0), g.atom(&gm, &i, 0));
        gm.ltls = vec![format!("G ({a} => F {b})")];
        let Ok(m) = nfold::lang::load_str("generated.cub", &gm.text()) else {
            continue;
        };
        if m.int_window.is_some() {
            continue;
        }
        for fair in [false, true] {
            proofs += sound(&m, 3, fair, &format!("seed {seed}"));
        }
    }
    eprintln!("rank: {proofs} sizes proved on {count} generated models");
    // The comparison is not vacuous: some sizes are proved.
    assert!(count < 20 || proofs > 0, "no size proved on {count} models");
}

/// Through the CLI: the certificates of Peterson 1..3 under fairness are accepted by
/// `nfold certify`, and tampered ones are rejected.
#[test]
fn certificates_through_the_cli() {
    let dir = common::scratch_dir("live-rank");
    let cert = dir.join("peterson.cert");
    let path = cert.to_str().unwrap();
    let (code, out, _) = common::nfold(&[
        "live",
        "families/peterson.cub",
        "--sizes",
        "1..3",
        "--fair",
        "--engine",
        "rank",
        "--certificate",
        path,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("proved at sizes 1..3 by ranking proofs"),
        "{out}"
    );
    let (code, out, _) = common::nfold(&["certify", "families/peterson.cub", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 of 3 certificates accepted"), "{out}");
    let text = std::fs::read_to_string(&cert).unwrap();
    let size3 = &text[text.rfind("# nfold certificate").unwrap()..];
    let tamper = |name: &str, f: &dyn Fn(&str) -> String| {
        let p = dir.join(name);
        std::fs::write(&p, f(size3)).unwrap();
        common::nfold(&["certify", "families/peterson.cub", p.to_str().unwrap()])
    };
    // The lowest weight of phase 2 raised above the one before it on the others' path.
    let raised = |t: &str| {
        let line = t.lines().rfind(|l| l.starts_with("weight 2 ")).unwrap();
        t.replace(line, &line.replacen("weight 2 ", "weight 2 9", 1))
    };
    // The phase where the process is enabled at its last level dropped: its states
    // fall into the ranked phase, where the others' weights need not fall.
    let dropped = |t: &str| {
        let mut out = String::new();
        for l in t.lines() {
            if l.starts_with("phase 1 ") {
                continue;
            }
            let l = match l.split_once(' ') {
                Some(("phase", rest)) | Some(("weight", rest)) => {
                    let (k, r) = rest.split_once(' ').unwrap();
                    let k: usize = k.parse().unwrap();
                    format!("{} {} {r}", l.split(' ').next().unwrap(), k - 1)
                }
                _ => l.to_string(),
            };
            out.push_str(&l);
            out.push('\n');
        }
        out
    };
    let unfair = |t: &str| t.replace(" fair ranks", " ranks");
    let ranked = |t: &str| t.replace("phase 1 helpful", "phase 1 ranked");
    for (name, f) in [
        ("raised.cert", &raised as &dyn Fn(&str) -> String),
        ("dropped.cert", &dropped),
        ("ranked.cert", &ranked),
    ] {
        let (code, out, err) = tamper(name, f);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(out.contains("REJECTED"), "{name}: {out}");
    }
    let (code, _, err) = tamper("unfair.cert", &unfair);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs weak fairness"), "{err}");
}

/// `auto`, the default: Peterson under weak fairness, the sizes the explicit phase
/// leaves (here from size 4, which stores 3,639 product states, over `--max-states`)
/// are proved by the ranking phase, each row `holds (proved)`; the sizes below are the
/// explicit search's and are not reported twice.
#[test]
fn auto_proves_peterson_by_ranks() {
    let (code, out, _) = common::nfold(&[
        "live",
        "families/peterson.cub",
        "--sizes",
        "1..5",
        "--fair",
        "--engine",
        "auto",
        "--max-states",
        "1000",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches("holds (proved)").count(), 2, "{out}");
    assert_eq!(
        out.matches("starvation_free      holds").count(),
        5,
        "{out}"
    );
    assert!(
        out.contains("sizes 1..3 answered by exhaustive explicit search"),
        "{out}"
    );
    assert!(
        out.contains("sizes 4..5 answered by ranking proofs"),
        "{out}"
    );
}
