//! Unit tests of `proof::cutoff`.
use super::*;
use crate::lang::load_str;

fn frag(text: &str) -> Result<Fragment, String> {
    let m = load_str("t.cub", text).map_err(|e| e.diagnostic.message)?;
    fragment(&m).map_err(|o| o.what)
}

const HEAD: &str = "type st = I | T | C\nvar X : bool\nvar P : proc\narray A[proc] : st\n";

#[test]
fn step_counts_parameters_and_witnesses() {
    let f = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I && X = False }}\nunsafe u (z1 z2) {{ A[z1] = C && A[z2] = C }}\n\
         transition t (i) requires {{ A[i] = I && exists j. A[j] = T }} {{ A[i] := T; P := i; }}\n\
         transition s (i j) requires {{ forall k. A[k] <> C }} {{ A[i] := C; P := any k. A[k] = I; }}\n"
    ))
    .unwrap();
    assert_eq!(
        f,
        Fragment {
            pointers: 1,
            step: 3,
            bad: 2,
            standin: false,
            ints: false,
        }
    );
    assert_eq!(cutoff(&f, &[2, 1]), 1 + 2 + 3);
}

#[test]
fn order_comparisons_between_process_ids_stay_in_the_fragment() {
    // The lowest waiting process enters: `<` between ids in guards, in a `case`
    // condition and in the property.
    let text = format!(
        "{HEAD}init (z) {{ A[z] = I }}\nunsafe u (z1 z2) {{ z1 < z2 && A[z1] = C && A[z2] = C }}\n\
         transition t (i) requires {{ A[i] = I && forall_other j. (i < j || A[j] <> T) }} \
         {{ A[j] := case | j = i : T | i < j && A[j] = C : I | _ : A[j]; }}\n\
         transition s (i j) requires {{ A[i] = T && j <= i }} {{ A[i] := C; }}\n"
    );
    let m = load_str("t.cub", &text).unwrap();
    assert!(m.is_ordered() && !m.is_symmetric() && m.has_lemma_orbits());
    assert!(m.symmetry_summary().starts_with("ordered symmetric"));
    assert_eq!(
        fragment(&m).unwrap(),
        Fragment {
            pointers: 1,
            step: 2,
            bad: 2,
            standin: false,
            ints: false,
        }
    );
    // Ordered lemmas read as `unsafe` bodies: the order atoms are kept, `#k` is not.
    let body = |t: &str| {
        let m = load_str("t.cub", &format!("{text}unsafe l (i j) {{ {t} }}\n")).unwrap();
        let u = m.unsafes.last().unwrap().clone();
        lemma_procs(&m, u.params, &u.body)
    };
    assert_eq!(body("i < j && A[i] = C && A[j] = T"), Ok(2));
    assert!(body("i < j && A[i] = C && P = #1").is_err());
}

#[test]
fn negated_forall_is_existential_and_nesting_is_refused() {
    let f = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I }}\n\
         transition t (i) requires {{ not (forall j. A[j] = I) }} {{ A[i] := T; }}\n"
    ))
    .unwrap();
    assert_eq!(f.step, 2);
    let e = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I }}\n\
         transition t (i) requires {{ forall j. exists k. A[j] = A[k] }} {{ A[i] := T; }}\n"
    ))
    .unwrap_err();
    assert!(
        e.contains("existential quantifier over processes inside a universal"),
        "{e}"
    );
    let e = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I }}\n\
         transition t (i) requires {{ not (exists j. forall k. A[j] = A[k]) }} {{ A[i] := T; }}\n"
    ));
    // not exists j. forall k. = forall j. exists k.: refused.
    assert!(e.is_err());
}

#[test]
fn outside_constructs_are_named() {
    let e = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I }}\ntransition t (i) requires {{ A[i] = I }} {{ A[j] := case | A[j] = T && exists k. A[k] = C : I | _ : A[j]; }}\n"
    ))
    .unwrap_err();
    assert!(e.contains("quantifier over processes in an update"), "{e}");
    // A constant range type is in when no range error is possible, out when one is.
    assert!(frag("type r = 0 .. 3\nvar V : r\ninit () { V = 0 }\n").is_ok());
    let e =
        frag("type r = 0 .. 3\nvar V : r\ninit () { V = 0 }\ntransition t (i) { V := V + 1; }\n")
            .unwrap_err();
    assert!(
        e.contains("range type `r` (range errors possible: the update of `V` in `t`"),
        "{e}"
    );
    let e = frag("var V : 0 .. N\ninit () { V = 0 }\n").unwrap_err();
    assert!(e.contains("its bounds depend on `N`"), "{e}");
    let e = frag("array Q[proc] : proc\ninit (z) { Q[z] = z }\n").unwrap_err();
    assert!(e.contains("indexed by processes"), "{e}");
    let e = frag(
        "var V : bool\ninit () { V = False }\ntransition t (i) requires { i < 2 } { V := True; }\n",
    )
    .unwrap_err();
    assert!(
        e.contains("not fully symmetric, nor ordered-symmetric"),
        "{e}"
    );
    // Neighbour arithmetic is named as such.
    let e = frag(&format!(
        "{HEAD}init (z) {{ A[z] = I }}\ntransition t (i) requires {{ A[i + 1] = I }} {{ A[i] := T; }}\n"
    ))
    .unwrap_err();
    assert!(e.contains("arithmetic") && e.contains("`i + 1`"), "{e}");
    let e = frag(&format!("{HEAD}init (z) {{ exists j. A[j] = T }}\n")).unwrap_err();
    assert!(e.contains("init must be universal"), "{e}");
}
