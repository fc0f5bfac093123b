//! "Every n": the quantified invariant and its cutoff through the command line, the
//! cutoffs derived by hand from each family's text, `nfold certify` on claims for
//! every size (tampered ones rejected), and a soundness campaign over mutants of the
//! correct families: no mutant that a search refutes at some size gets "holds for
//! every n". `NFOLD_MUTANTS=all` runs every mutant (benches/every_soundness.sh) with
//! larger refutation sizes; by default a seeded sample runs.

use crate::common;

use common::{Rng, family, json_run, nfold, scratch_dir, write_file};
use nfold::engine::Control;
use nfold::explicit::reach::{ReachOptions, check_size as explicit};
use nfold::ic3::engine::Ic3Engine;
use nfold::portfolio::every::{EveryN, prove_every};
use nfold::sat::SolverKind;
use nfold::verdict::Kind;

/// (family, process-valued globals, processes of the largest step, of the largest
/// property violation), read off each file by hand.
const FAMILIES: &[(&str, usize, usize, usize)] = &[
    // Every transition has one parameter and no existential; `mutex (z1 z2)`.
    ("mutex", 0, 1, 2),
    // `read_miss_shared (i)` has `exists_other j`.
    ("mesi", 0, 2, 2),
    // `Tok : proc`; `pass (i j)`.
    ("token_mutex", 1, 2, 2),
    // `grant (j i)`.
    ("grant_mutex", 0, 2, 2),
    // `CurPtr : proc`; one parameter, `forall j` only; `coherence (z1 z2)`.
    ("german", 1, 1, 2),
    // Ordered: `back_off (i j)`; the other guards are universal (`forall_other`);
    // `mutex (z1 z2)`.
    ("burns", 0, 2, 2),
];

/// The most processes a lemma line of a certificate names (`forall distinct i j.`,
/// or `forall i < j.` for an ordered lemma).
fn widest_lemma(cert: &str) -> usize {
    cert.lines()
        .filter_map(|l| l.strip_prefix("lemma "))
        .map(|l| {
            if let Some((names, _)) = l
                .strip_prefix("forall distinct ")
                .and_then(|r| r.split_once('.'))
            {
                names.split_whitespace().count()
            } else if let Some((names, _)) =
                l.strip_prefix("forall ").and_then(|r| r.split_once('.'))
            {
                names.split('<').count()
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn correct_families_hold_for_every_n_with_the_cutoff_of_their_text() {
    let dir = scratch_dir("every-fam");
    for &(fam, pointers, step, bad) in FAMILIES {
        let f = format!("families/{fam}.cub");
        let cert = dir.join(format!("{fam}.cert"));
        let cert = cert.to_str().unwrap();
        let (code, v) = json_run(&["check", &f, "--certificate", cert]);
        assert_eq!(code, 0, "{fam}");
        let e = &v["every_n"];
        assert_eq!(e["verdict"], "holds", "{fam}: {e}");
        let text = std::fs::read_to_string(cert).unwrap();
        assert!(text.contains("\nevery n cutoff "), "{fam}");
        let k = widest_lemma(&text);
        let want = pointers + (k + step).max(bad);
        assert_eq!(e["cutoff"], want as u64, "{fam}: lemmas of {k} processes");
        let sizes: Vec<u64> = (1..=want as u64).collect();
        assert_eq!(e["checked_sizes"], serde_json::json!(sizes), "{fam}");
        let (code, out, err) = nfold(&["certify", &f, cert]);
        assert_eq!(code, 0, "{fam}: {out}{err}");
        assert!(out.contains("the properties hold at every size"), "{out}");
        assert!(
            out.contains(&format!(
                "the cutoff computed from the model and the lemmas is {want}"
            )),
            "{out}"
        );
        // The text verdict says how it was proved.
        let (_, out, _) = nfold(&["check", &f]);
        assert!(
            out.contains("every n: holds for every n (a quantified invariant of ")
                && out.contains(&format!("checked at sizes 1..{want}, the cutoff")),
            "{out}"
        );
    }
}

#[test]
fn every_n_is_refused_with_a_reason() {
    // A violation at a checked size.
    let (code, v) = json_run(&["check", "families/german_bug.cub"]);
    assert_eq!(code, 1);
    // A violation found and replayed at a size checked: not merely "not proved".
    assert_eq!(v["every_n"]["verdict"], "violated");
    assert!(
        v["every_n"]["reason"]
            .as_str()
            .unwrap()
            .contains("violated at sizes 2..4")
    );
    // Outside the fragment, naming the construct and its line.
    for (fam, why) in [
        (
            "peterson",
            "range type `0 .. N - 1` (range errors possible:",
        ),
        ("token_ring", "not fully symmetric"),
        ("ticket_lock", "range type"),
        ("oddeven_sort", "not fully symmetric"),
    ] {
        let (code, v) = json_run(&["check", &format!("families/{fam}.cub")]);
        assert_eq!(code, 0, "{fam}");
        let r = v["every_n"]["reason"].as_str().unwrap();
        assert!(
            r.contains("outside the fragment") && r.contains(why),
            "{fam}: {r}"
        );
    }
    // Asked for explicitly: short of it is not what was asked (exit 4).
    let (code, out, _) = nfold(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "1..3",
        "--every-n",
    ]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("every n: not proved: outside the fragment"),
        "{out}"
    );
    let (code, v) = json_run(&[
        "check",
        "families/mutex.cub",
        "--sizes",
        "1..2",
        "--every-n",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["every_n"]["verdict"], "holds");
    // With explicit sizes and no flag, no claim is tried.
    let (_, v) = json_run(&["check", "families/mutex.cub", "--sizes", "1..2"]);
    assert!(v.get("every_n").is_none());
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex.cub",
        "--every-n",
        "--engine",
        "sat",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--every-n needs --engine auto or ic3"),
        "{err}"
    );
    let (code, v) = json_run(&["check", "families/mutex.cub", "--no-symmetry"]);
    assert_eq!(code, 0);
    assert!(
        v["every_n"]["reason"]
            .as_str()
            .unwrap()
            .contains("needs symmetric lemma orbits")
    );
}

#[test]
fn a_bug_beyond_the_checked_sizes_is_not_claimed_away() {
    // Five processes in B violate the property: sizes 1..4 hold, 5 and up fail.
    let dir = scratch_dir("every-five");
    let p = dir.join("five.cub");
    std::fs::write(
        &p,
        "type st = A | B\narray S[proc] : st\ninit (z) { S[z] = A }\n\
         unsafe five (z1 z2 z3 z4 z5) { S[z1] = B && S[z2] = B && S[z3] = B && S[z4] = B && S[z5] = B }\n\
         transition go (i) requires { S[i] = A } { S[i] := B; }\n",
    )
    .unwrap();
    let (code, v) = json_run(&["check", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["every_n"]["verdict"], "not_proved");
    assert!(
        v["every_n"]["reason"]
            .as_str()
            .unwrap()
            .contains("violated at size 5"),
        "{}",
        v["every_n"]
    );
}

/// Semaphore mutual exclusion (families/mutex.cub: `mutex` holds for every n) with two
/// properties beside it that fail: `idle` in the initial state (every process starts
/// Idle), `two_want` from two processes on (both request, depth 2). The attempt before
/// the sizes proves `mutex` without them, so the sizes are searched for the two only,
/// and `mutex`'s row at each size is its invariant's.
#[test]
fn a_property_proved_for_every_n_is_not_searched_beside_violated_ones() {
    let dir = scratch_dir("every-apart");
    let text = std::fs::read_to_string(family("mutex")).unwrap()
        + "unsafe idle (z) { A[z] = Idle }
unsafe two_want (z1 z2) { A[z1] = Want && A[z2] = Want }
";
    let p = write_file(&dir, "apart.cub", &text);
    let (code, v) = json_run(&["check", &p, "--every-n", "--sizes", "1..4"]);
    assert_eq!(code, 1, "{v}");
    let every: Vec<(String, String)> = (v["every_n"]["properties"].as_array().unwrap().iter())
        .map(|q| {
            (
                q["property"].as_str().unwrap().into(),
                q["verdict"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [
        ("mutex", "holds"),
        ("idle", "violated"),
        ("two_want", "violated"),
    ];
    assert_eq!(
        every,
        want.map(|(a, b)| (a.to_string(), b.to_string())),
        "{v}"
    );
    let rows = v["results"].as_array().unwrap();
    for n in 1..=4u64 {
        let at = |name: &str| {
            rows.iter()
                .find(|r| r["size"] == n && r["property"] == name)
                .unwrap_or_else(|| panic!("no row for {name} at {n}: {v}"))
        };
        assert_eq!(at("mutex")["verdict"], "holds");
        assert_eq!(at("mutex")["proof"]["engine"], "every-n", "{}", at("mutex"));
        assert_eq!(at("idle")["verdict"], "violated");
        assert_eq!(at("idle")["depth"], 0);
        let (verdict, depth) = if n == 1 {
            ("holds", None)
        } else {
            ("violated", Some(2))
        };
        assert_eq!(at("two_want")["verdict"], verdict);
        assert_eq!(at("two_want")["depth"].as_u64(), depth);
    }
    let (_, out, _) = nfold(&["check", &p, "--every-n", "--sizes", "1..4"]);
    assert!(
        out.contains("`mutex` at sizes 1..4: answered by the invariant for every n"),
        "{out}"
    );
}

/// Ten properties that one clause proves (a process in `B` has set `G`: each says a
/// process in `B` with `G` unset, beside others in `A` or `B`) and one violated from
/// five processes on: the ten hold for every n, by one certificate that claims them
/// (not one try each: a file of 386 such properties ran past 200 s before), `five`
/// is not proved, and the summary counts the ten instead of naming them.
#[test]
fn the_properties_one_invariant_proves_are_proved_together() {
    let dir = scratch_dir("every-many");
    let p = dir.join("many.cub");
    let mut text = String::from(
        "type st = A | B\narray S[proc] : st\nvar G : bool\ninit (z) { S[z] = A && G = False }\n\
         unsafe five (z1 z2 z3 z4 z5) { S[z1] = B && S[z2] = B && S[z3] = B && S[z4] = B && S[z5] = B }\n\
         transition go (i) requires { S[i] = A } { S[i] := B; G := True; }\n",
    );
    let mut k = 0;
    for width in 1..=3 {
        for bits in 1..(1u32 << width) {
            k += 1;
            if k > 10 {
                break;
            }
            let zs: Vec<String> = (1..=width).map(|i| format!("z{i}")).collect();
            let conj: Vec<String> = (0..width)
                .map(|i| {
                    format!(
                        "S[z{}] = {}",
                        i + 1,
                        if bits >> i & 1 == 1 { "B" } else { "A" }
                    )
                })
                .collect();
            text.push_str(&format!(
                "unsafe g{k} ({}) {{ {} && G = False }}\n",
                zs.join(" "),
                conj.join(" && ")
            ));
        }
    }
    std::fs::write(&p, text).unwrap();
    let (code, v) = json_run(&["check", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    let props = v["every_n"]["properties"].as_array().unwrap();
    assert_eq!(props.len(), 11);
    for q in props {
        let want = if q["property"] == "five" {
            "not_proved"
        } else {
            "holds"
        };
        assert_eq!(q["verdict"], want, "{q}");
    }
    let (_, out, _) = nfold(&["check", p.to_str().unwrap()]);
    assert!(
        out.contains("10 of the 11 properties hold for every n; every n: not proved for `five`"),
        "{out}"
    );
}

#[test]
fn certify_rejects_tampered_claims_for_every_size() {
    let dir = scratch_dir("every-tamper");
    let cert = dir.join("g.cert");
    let cert = cert.to_str().unwrap();
    let (code, _, _) = nfold(&["check", "families/german.cub", "--certificate", cert]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(cert).unwrap();
    let write = |name: &str, t: &str| common::write_file(&dir, name, t);
    // The lemmas over two processes, dropped: nothing left excludes two caches
    // holding the line at once.
    let dropped: String = text
        .lines()
        .filter(|l| !l.starts_with("lemma forall distinct i j."))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(
        dropped, text,
        "the certificate should have lemmas over two processes"
    );
    let (code, out, _) = nfold(&["certify", "families/german.cub", &write("d.cert", &dropped)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the certificate is rejected"), "{out}");
    // A lemma naming a process is not symmetric: refused before any check.
    let named = format!("{text}lemma forall distinct i. not (Cache[i] = E && CurPtr = #1)\n");
    let (code, out, _) = nfold(&["certify", "families/german.cub", &write("n.cert", &named)]);
    assert_eq!(code, 1);
    assert!(
        out.contains("REJECTED") && out.contains("not symmetric"),
        "{out}"
    );
    // A smaller cutoff in the file does not shrink the check.
    let small = text.replace("every n cutoff 4", "every n cutoff 1");
    let (code, out, _) = nfold(&["certify", "families/german.cub", &write("s.cert", &small)]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("size   4: checked"), "{out}");
    // The same claim for a model outside the fragment.
    let p = text.replace("families/german.cub", "families/peterson.cub");
    let (code, out, _) = nfold(&["certify", "families/peterson.cub", &write("p.cert", &p)]);
    assert_eq!(code, 1);
    assert!(out.contains("outside the fragment"), "{out}");
}

// ------------------------------------------------------------ soundness campaign

/// Every single-point mutation of a model's text: a conjunct of a guard dropped, a
/// constructor replaced by another of its type, `=` and `<>` swapped, quantifiers
/// swapped.
pub fn mutants(text: &str, ctors: &[Vec<String>]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let words: Vec<(usize, &str)> = word_spans(text);
    for &(at, w) in &words {
        let swap = match w {
            "forall_other" => Some("exists_other"),
            "exists_other" => Some("forall_other"),
            "forall" => Some("exists"),
            "exists" => Some("forall"),
            _ => None,
        };
        if let Some(s) = swap {
            out.push((
                format!("{w}->{s} at {at}"),
                format!("{}{s}{}", &text[..at], &text[at + w.len()..]),
            ));
        }
        for group in ctors {
            if group.iter().any(|c| c == w) {
                for other in group.iter().filter(|c| *c != w) {
                    out.push((
                        format!("{w}->{other} at {at}"),
                        format!("{}{other}{}", &text[..at], &text[at + w.len()..]),
                    ));
                }
            }
        }
    }
    for (i, _) in text.match_indices("<>") {
        out.push((
            format!("<>->= at {i}"),
            format!("{}={}", &text[..i], &text[i + 2..]),
        ));
    }
    for (i, _) in text.match_indices(" = ") {
        out.push((
            format!("=-><> at {i}"),
            format!("{}<>{}", &text[..i + 1], &text[i + 2..]),
        ));
    }
    // Drop one conjunct of a guard: the text between `&&`s inside `requires { }`.
    for (r, _) in text.match_indices("requires {") {
        let end = r + text[r..].find('}').unwrap_or(0);
        let body = r + "requires {".len();
        let mut cuts = vec![body];
        cuts.extend(text[body..end].match_indices("&&").map(|(i, _)| body + i));
        cuts.push(end);
        if cuts.len() < 3 {
            continue;
        }
        for k in 0..cuts.len() - 1 {
            let (a, b) = (cuts[k], cuts[k + 1]);
            // Remove the conjunct and one neighbouring `&&`.
            let (lo, hi) = if k == 0 { (a, b + 2) } else { (a, b) };
            out.push((
                format!("drop conjunct at {a}"),
                format!("{}{}", &text[..lo], &text[hi..]),
            ));
        }
    }
    out
}

/// Every single-point mutation of an order comparison outside comments: `<` and `>`
/// swapped, `<` made `<=` and `<=` made `<`.
fn order_mutants(text: &str) -> Vec<(String, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut in_comment = 0;
    let mut line_comment = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'\n' {
            line_comment = false;
        }
        if c == b'(' && next == Some(b'*') {
            in_comment += 1;
        } else if c == b'*' && next == Some(b')') && in_comment > 0 {
            in_comment -= 1;
        } else if c == b'/' && next == Some(b'/') {
            line_comment = true;
        }
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        if in_comment == 0
            && !line_comment
            && matches!(c, b'<' | b'>')
            && prev != b'<'
            && prev != b'-'
        {
            // Not `<>`, `<->`, `->` or `=>` (a `<` or `>` next to `=`, `-` or `>`).
            let op_len = if next == Some(b'=') { 2 } else { 1 };
            let arrow = prev == b'=' || next == Some(b'>') || next == Some(b'-');
            if !arrow {
                let op = &text[i..i + op_len];
                let flips: &[&str] = match op {
                    "<" => &[">", "<="],
                    ">" => &["<", ">="],
                    "<=" => &["<", ">="],
                    ">=" => &[">", "<="],
                    _ => &[],
                };
                for f in flips {
                    out.push((
                        format!("order {op}->{f} at {i}"),
                        format!("{}{f}{}", &text[..i], &text[i + op_len..]),
                    ));
                }
            }
            i += op_len;
            continue;
        }
        i += 1;
    }
    out
}

fn word_spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut in_comment = 0;
    let b = text.as_bytes();
    for (i, c) in text.char_indices() {
        if c == '(' && b.get(i + 1) == Some(&b'*') {
            in_comment += 1;
        }
        if c == ')' && i > 0 && b[i - 1] == b'*' && in_comment > 0 {
            in_comment -= 1;
            continue;
        }
        let word = c.is_ascii_alphanumeric() || c == '_';
        match (word && in_comment == 0, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether the mutant is refuted: a violation by the explicit engine at sizes
/// 1..`explicit_max` or by IC3 on the aggregate 1..`ic3_max`.
pub fn refuted(m: &nfold::model::ir::Model, explicit_max: usize, ic3_max: usize) -> Option<String> {
    for n in 1..=explicit_max {
        let r = explicit(
            m,
            n,
            &ReachOptions {
                symmetry: true,
                max_states: Some(300_000),
                ..Default::default()
            },
        );
        if let Some(p) = r
            .results
            .iter()
            .find(|p| p.verdict.kind() == Kind::Violated)
        {
            return Some(format!("explicit: `{}` violated at size {n}", p.name));
        }
        if r.limit.is_some() {
            break;
        }
    }
    let p = nfold::engine::Problem::new(m, 1, ic3_max, (0..m.unsafes.len()).collect());
    let ctl = Control {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
        ..Default::default()
    };
    let ic3 = Ic3Engine::new(SolverKind::default_kind(), true);
    let (_, out) = ic3.run(&p, &ctl, &[]).ok()?;
    out.cexs
        .first()
        .map(|c| format!("ic3: violated at size {}", c.width))
}

#[test]
fn no_refuted_mutant_holds_for_every_n() {
    let all = std::env::var("NFOLD_MUTANTS").is_ok_and(|v| v == "all");
    let (explicit_max, ic3_max) = if all { (6, 12) } else { (4, 8) };
    let mut rng = Rng::new(20261123);
    let (mut tried, mut proved, mut refuted_n, mut outside) = (0, 0, 0, 0);
    let (mut order_refuted, mut order_proved) = (0, 0);
    let mut bad = Vec::new();
    for &(fam, ..) in FAMILIES {
        let path = format!("families/{fam}.cub");
        let text = std::fs::read_to_string(&path).unwrap();
        let model = nfold::lang::load_file(&path).unwrap();
        let ctors: Vec<Vec<String>> = model.enums.iter().map(|e| e.ctors.clone()).collect();
        let mut ms = mutants(&text, &ctors);
        if !all {
            // A seeded sample of each family's mutants.
            let keep = 14.min(ms.len());
            for i in 0..keep {
                let j = i + (rng.next() as usize) % (ms.len() - i);
                ms.swap(i, j);
            }
            ms.truncate(keep);
        }
        // Every order flip of an ordered family.
        let order = order_mutants(&text);
        assert_eq!(
            order.is_empty(),
            !model.is_ordered(),
            "{fam}: order comparisons and ordered symmetry disagree"
        );
        ms.extend(order);
        for (what, t) in ms {
            let Ok(m) = nfold::lang::load_str(&path, &t) else {
                continue;
            };
            tried += 1;
            let props: Vec<usize> = (0..m.unsafes.len()).collect();
            let ctl = Control {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
                ..Default::default()
            };
            let every = prove_every(&m, &props, SolverKind::default_kind(), true, &ctl).unwrap();
            let refutation = refuted(&m, explicit_max, ic3_max);
            let flip = what.starts_with("order ");
            if flip && refutation.is_some() {
                order_refuted += 1;
            }
            match (&every, &refutation) {
                (EveryN::Proved { .. }, Some(r)) => bad.push(format!("{fam} {what}: {r}\n{t}")),
                (EveryN::Proved { .. }, None) => {
                    proved += 1;
                    if flip {
                        order_proved += 1;
                    }
                }
                (EveryN::OnlySize { .. }, _) => unreachable!("prove_every answers for every n"),
                (EveryN::NotReached { reason, .. }, _) => {
                    if reason.contains("outside the fragment") {
                        outside += 1;
                    }
                    if refutation.is_some() {
                        refuted_n += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "every-n soundness: {tried} mutants, {proved} proved for every n, {refuted_n} refuted, {outside} outside the fragment; order flips: {order_refuted} refuted, {order_proved} proved"
    );
    if !bad.is_empty() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
        for (i, b) in bad.iter().enumerate() {
            let _ = std::fs::write(dir.join(format!("every-{i}.cub.txt")), b);
        }
        panic!("every n claimed for refuted mutants:\n{}", bad.join("\n\n"));
    }
    assert!(tried >= 60, "{tried}");
    assert!(proved > 0 && refuted_n > 0, "{proved} {refuted_n}");
    // The order flips of the ordered families reach both answers, so the campaign
    // can fail there.
    assert!(
        order_refuted > 0 && order_proved > 0,
        "{order_refuted} {order_proved}"
    );
}

/// `text` with each enumeration written as a constant range type: `type st = A | B |
/// C` becomes `type st = 0 .. 2`, and each constructor its ordinal (the order of `<`
/// on an enumeration). The same protocol, declared the other way.
fn as_ranges(text: &str, ctors: &[Vec<String>]) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let decl = line.trim_start().strip_prefix("type ").and_then(|rest| {
            let (name, _) = rest.split_once('=')?;
            let cs = ctors.iter().find(|cs| {
                let body: Vec<&str> = rest
                    .split_once('=')
                    .unwrap()
                    .1
                    .split('|')
                    .map(str::trim)
                    .collect();
                body == cs.iter().map(String::as_str).collect::<Vec<_>>()
            })?;
            Some(format!("type {}= 0 .. {}", name, cs.len() - 1))
        });
        out.push_str(&decl.unwrap_or_else(|| line.to_string()));
        out.push('\n');
    }
    let mut res = String::new();
    let mut last = 0;
    for (at, w) in word_spans(&out) {
        if let Some(k) = ctors.iter().find_map(|cs| cs.iter().position(|c| c == w)) {
            res.push_str(&out[last..at]);
            res.push_str(&k.to_string());
            last = at + w.len();
        }
    }
    res.push_str(&out[last..]);
    res
}

#[test]
fn constant_range_types_storing_literals_get_the_enumerations_answer() {
    // docs/language.md presents ranges as the natural way to write a small counter
    // or level: a range type whose stores are provably in range is inside the
    // cutoff argument like the enumeration with the same values. Each family and a
    // seeded sample of its mutants, written both ways, get the same every-n answer,
    // and no refuted mutant is claimed.
    let mut rng = Rng::new(20261128);
    let (mut same, mut proved) = (0, 0);
    for fam in ["mutex", "mesi", "german"] {
        let path = format!("families/{fam}.cub");
        let text = std::fs::read_to_string(&path).unwrap();
        let model = nfold::lang::load_file(&path).unwrap();
        let ctors: Vec<Vec<String>> = model.enums.iter().map(|e| e.ctors.clone()).collect();
        let mut ms = mutants(&text, &ctors);
        let keep = 6.min(ms.len());
        for i in 0..keep {
            let j = i + (rng.next() as usize) % (ms.len() - i);
            ms.swap(i, j);
        }
        ms.truncate(keep);
        ms.push(("as written".into(), text.clone()));
        for (what, t) in ms {
            let (Ok(e), Ok(r)) = (
                nfold::lang::load_str(&path, &t),
                nfold::lang::load_str(&path, &as_ranges(&t, &ctors)),
            ) else {
                continue;
            };
            assert!(r.enums.len() < e.enums.len(), "{fam} {what}: no range type");
            let props: Vec<usize> = (0..e.unsafes.len()).collect();
            let ctl = || Control {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
                ..Default::default()
            };
            let solver = SolverKind::default_kind();
            let ev = prove_every(&e, &props, solver, true, &ctl()).unwrap();
            let rv = prove_every(&r, &props, solver, true, &ctl()).unwrap();
            let holds = |v: &EveryN| matches!(v, EveryN::Proved { .. });
            assert_eq!(holds(&ev), holds(&rv), "{fam} {what}: {ev:?}\n{rv:?}");
            if holds(&rv) {
                proved += 1;
                assert_eq!(refuted(&r, 4, 8), None, "{fam} {what}");
            }
            same += 1;
        }
    }
    assert!(same >= 15 && proved >= 3, "{same} {proved}");
    // Where a store may leave the range, the reason says where and what to write.
    let dir = scratch_dir("every-range");
    let p = dir.join("count.cub");
    std::fs::write(
        &p,
        "type lvl = 0 .. 3\narray L[proc] : lvl\ninit (z) { L[z] = 0 }\n\
         unsafe (z1 z2) { L[z1] = 3 && L[z2] = 3 }\n\
         transition up (i) requires { L[i] < 3 } { L[i] := L[i] + 1; }\n\
         transition jump (i) { L[i] := L[i] + 1; }\n",
    )
    .unwrap();
    let (_, v) = json_run(&["check", p.to_str().unwrap(), "--sizes", "1..1", "--every-n"]);
    let why = v["every_n"]["reason"].as_str().unwrap();
    assert!(
        why.contains("the update of `L` in `jump`")
            && why.contains("declare its values as an enumeration"),
        "{why}"
    );
}
