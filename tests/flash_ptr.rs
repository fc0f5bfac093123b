//! Stand-in arrays (`proof::standin`, docs/every-n.md "Arrays of process pointers"):
//! a small Flash-like directory with a pending-request pointer per node (`Src[proc] :
//! proc`) and the extra id `Home` is proved for every n with the cutoff derived by
//! hand; no single-point mutant that a search refutes is proved; the variants outside
//! the argument's conditions are refused, named; tampered certificates are rejected.

use crate::common;
use crate::every::{mutants, refuted};
use common::{model, nfold};
use nfold::engine::Control;
use nfold::portfolio::every::{EveryN, prove_every};
use nfold::proof::cutoff;
use nfold::sat::SolverKind;

/// A directory: Home grants the line when no node owns it (`Owner = Home`), otherwise
/// forwards the request to the owner (`Src[i] := Owner`), who gives it up; a request
/// forwarded to a node that is no longer the owner is sent back (`nak`, `retry`, the
/// latter with an existential witness). `Src[i]`, whom node i's pending request is at,
/// is compared only with `Home`, parameters and the witness, and copied. Safe: the
/// line is exclusive at one node at most (E, or a `Put` in flight to the new owner).
const DIR: &str = "type st = I | E\ntype msg = None | Get | Put\n\
var Home : proc\nvar Owner : proc\n\
array C[proc] : st\narray M[proc] : msg\narray Src[proc] : proc\n\
init (p) { Home <> p && C[p] = I && M[p] = None && Src[p] = Home && Owner = Home }\n\
unsafe mutex (p q) { C[p] = E && C[q] = E }\n\
transition req (i) requires { C[i] = I && M[i] = None } { M[i] := Get; Src[i] := Home; }\n\
transition grant (i) requires { M[i] = Get && Src[i] = Home && Owner = Home } { M[i] := Put; Owner := i; }\n\
transition fwd (i) requires { M[i] = Get && Src[i] = Home && Owner <> Home } { Src[i] := Owner; }\n\
transition give (i j) requires { M[i] = Get && Src[i] = j && Owner = j && C[j] = E } \
{ C[j] := I; M[i] := Put; Src[k] := case | k = i : Home | _ : Src[k]; Owner := i; }\n\
transition nak (i j) requires { M[i] = Get && Src[i] = j && Owner <> j } { Src[i] := Home; }\n\
transition retry (i) requires { M[i] = Get && exists j. (Src[i] = j && C[j] = I) } { Src[i] := Home; }\n\
transition recv (i) requires { M[i] = Put } { C[i] := E; M[i] := None; }\n\
transition evict (i) requires { C[i] = E && M[i] = None } { C[i] := I; Owner := Home; }\n";

/// Whether every `Src[x] = y` of a lemma line has a variable y named nowhere else in
/// the line's body, and `Src` is read nowhere else.
fn carried_form(line: &str) -> bool {
    let body = line.split_once(". not (").unwrap().1;
    body.trim_end_matches(')').split(" && ").all(|atom| {
        if !atom.contains("Src") {
            return true;
        }
        let Some((_, y)) = atom.split_once("] = ") else {
            return false;
        };
        let tokens = body.split(|c: char| !c.is_alphanumeric() && c != '#');
        y == "#0" || tokens.filter(|t| *t == y).count() == 1
    })
}

/// The most process variables of a lemma line (`forall distinct i j.`).
fn widest(cert: &str) -> usize {
    cert.lines()
        .filter_map(|l| l.strip_prefix("lemma forall distinct "))
        .map(|l| l.split('.').next().unwrap().split_whitespace().count())
        .max()
        .unwrap()
}

/// The cutoff by hand: g = 1 (`Owner`, assigned; `Home` is the extra id for ever, never
/// assigned, so not counted; `Src` is a stand-in array, not counted), step = 2 (`give
/// (i j)`, `nak (i j)`, and `retry (i)` with its witness j; no `.`, no `any`), bad = 2
/// (`mutex (p q)`), plus 1 for the stand-in: c = 1 + max(k + 2, 2) + 1 with k the widest
/// lemma of the certificate.
#[test]
fn the_directory_holds_for_every_n_with_the_hand_derived_cutoff() {
    let m = model(DIR);
    assert!(m.extra_proc.is_some());
    assert_eq!(
        cutoff::fragment(&m).unwrap(),
        cutoff::Fragment {
            pointers: 1,
            step: 2,
            bad: 2,
            standin: true,
            ints: false,
        }
    );
    let dir = common::fresh_dir("flash-ptr");
    let file = dir.join("dir.cub");
    std::fs::write(&file, DIR).unwrap();
    let cert = dir.join("dir.cert");
    let (f, c) = (file.to_str().unwrap(), cert.to_str().unwrap());
    let (code, out, err) = nfold(&["check", f, "--every-n", "--certificate", c]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every n: holds for every n"), "{out}");
    let text = std::fs::read_to_string(&cert).unwrap();
    for l in text.lines().filter(|l| l.contains("Src")) {
        assert!(
            carried_form(l),
            "a lemma reads the stand-in array only as `Src[i] = j`, j named once:\n{text}"
        );
    }
    let want = 1 + (widest(&text) + 2).max(2) + 1;
    assert!(text.contains(&format!("every n cutoff {want}\n")), "{text}");
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "the cutoff computed from the model and the lemmas is {want}"
        )),
        "{out}"
    );
    // A smaller cutoff written in the file is ignored (recomputed).
    std::fs::write(
        &cert,
        text.replace(&format!("every n cutoff {want}"), "every n cutoff 2"),
    )
    .unwrap();
    let (code, out, _) = nfold(&["certify", f, c]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("is {want}")), "{out}");
    // A lemma that reads the stand-in array other than as `Src[x] = y`, y a variable
    // named nowhere else, is refused, though true: a request is never at its own node
    // (`Src[i]` is `Home` or a former owner other than i), and a request at a node j
    // that has no copy is retried, so never granted from there at once.
    for lemma in [
        "forall distinct i. not (M[i] = Get && Src[i] = i)",
        "forall distinct i j. not (M[i] = Put && Src[i] = j && C[j] = E && C[i] = E)",
        "forall distinct i j. not (M[i] = Put && (Src[i] = j || C[j] = E))",
    ] {
        std::fs::write(&cert, format!("{text}lemma {lemma}\n")).unwrap();
        let (code, out, err) = nfold(&["certify", f, c]);
        assert_ne!(code, 0, "{lemma}: {out}{err}");
        assert!(out.contains("reads the array `Src`"), "{lemma}: {out}{err}");
    }
    // The carried form is accepted: a granted request is answered by Home (true: `grant`
    // needs `Src[i] = Home` and `give` sets it), the cutoff unchanged.
    std::fs::write(
        &cert,
        format!("{text}lemma forall distinct i j. not (M[i] = Put && Src[i] = j)\n"),
    )
    .unwrap();
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("is {want}")), "{out}");
    // The property alone is not inductive: without the lemmas the claim is rejected.
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with("lemma "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cert, bare).unwrap();
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_eq!(code, 1, "{out}{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every single-point mutant of the directory (a guard conjunct dropped, a constructor
/// replaced, `=` and `<>` swapped — on the pointer comparisons too —, `exists` and
/// `forall` swapped): none that the explicit engine refutes at sizes 1..4 or IC3 on the
/// aggregate 1..6 is proved for every n. Dropping `Owner = Home` from `grant` is refuted
/// at n = 2 (two requests granted), so the campaign can fail; the unrefuted ones can be
/// proved, with lemmas that read `Src` in the carried form (`Src[i] = j`, j named once)
/// among their clauses: the campaign is also the soundness check of that form.
#[test]
fn no_refuted_mutant_of_the_directory_is_proved() {
    let m = model(DIR);
    let ctors: Vec<Vec<String>> = m.enums.iter().map(|e| e.ctors.clone()).collect();
    let (mut proved, mut refuted_n, mut outside, mut tried) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    for (what, t) in mutants(DIR, &ctors) {
        let Ok(mm) = nfold::lang::load_str("dir.cub", &t) else {
            continue;
        };
        tried += 1;
        let ctl = Control {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
            ..Default::default()
        };
        let every = prove_every(&mm, &[0], SolverKind::default_kind(), true, &ctl).unwrap();
        let refutation = refuted(&mm, 4, 6);
        match (&every, &refutation) {
            (EveryN::Proved { .. }, Some(r)) => bad.push(format!("{what}: {r}\n{t}")),
            (EveryN::Proved { .. }, None) => proved += 1,
            (EveryN::OnlySize { .. }, _) => unreachable!("prove_every answers for every n"),
            (EveryN::NotReached { reason, .. }, r) => {
                outside += usize::from(reason.contains("outside the fragment"));
                refuted_n += usize::from(r.is_some());
            }
        }
    }
    eprintln!(
        "stand-in mutants: {tried} tried, {proved} proved, {refuted_n} refuted, {outside} outside"
    );
    assert!(bad.is_empty(), "proved but refuted:\n{}", bad.join("\n\n"));
    assert!(tried >= 30, "{tried}");
    assert!(proved > 0 && refuted_n > 0, "{proved} {refuted_n}");
}

/// What the conditions exclude is refused, named with the array and the place.
#[test]
fn pointer_uses_outside_the_conditions_are_named() {
    let refused = |from: &str, to: &str| {
        let text = DIR.replace(from, to);
        assert_ne!(text, DIR, "{from}");
        cutoff::fragment(&model(&text))
            .unwrap_err()
            .text(&model(&text))
    };
    // Compared with a quantified variable: `retry`'s witness made universal.
    let e = refused(
        "exists j. (Src[i] = j && C[j] = I)",
        "forall j. (Src[i] = j || C[j] = I)",
    );
    assert!(
        e.contains("the array `Src`") && e.contains("quantified") && e.contains("`retry`"),
        "{e}"
    );
    // The mutant campaign's quantifier swap gives the same refusal.
    let e = refused("exists j.", "forall j.");
    assert!(e.contains("quantified"), "{e}");
    // Two pointer cells compared.
    let e = refused("Src[i] = j && Owner <> j", "Src[i] = Src[j] && Owner <> j");
    assert!(e.contains("two stand-in cells are compared"), "{e}");
    // Compared with its own bound index in an update over every k.
    let e = refused("case | k = i : Home", "case | Src[k] = k : Home");
    assert!(e.contains("update-bound"), "{e}");
    // A pointer flowing into a global (its value would leave the restriction).
    let e = refused(
        "Owner := i; }\ntransition nak",
        "Owner := Src[i]; }\ntransition nak",
    );
    assert!(e.contains("used other than compared"), "{e}");
    // An ordered family with a stand-in array.
    let e = refused("Src[i] = j && Owner <> j", "Src[i] = j && i < j");
    assert!(e.contains("ordered family"), "{e}");
    // The place: file, line and column of the block (`retry` is on line 15).
    let e = refused("exists j.", "forall j.");
    assert!(e.contains(".cub:15:"), "{e}");
    // Through the command line: not proved, outside, named.
    let dir = common::fresh_dir("flash-ptr-out");
    let file = dir.join("dir.cub");
    std::fs::write(&file, DIR.replace("exists j.", "forall j.")).unwrap();
    let (code, out, err) = nfold(&["check", file.to_str().unwrap(), "--every-n"]);
    assert_eq!(code, 4, "{out}{err}");
    assert!(
        out.contains("outside the fragment") && out.contains("the array `Src`"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
