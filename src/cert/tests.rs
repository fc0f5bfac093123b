//! Unit tests of the certificate format: printing, parsing, round trips and errors.

use super::*;

#[test]
fn lemmas_equal_up_to_variable_names_are_kept_once() {
    let lemma = |sizes, vars: &[&str], body: &str| CertLemma {
        sizes,
        vars: vars.iter().map(|v| v.to_string()).collect(),
        body: body.into(),
        no_range: false,
        no_int_bound: false,
        ordered: false,
        bdd: None,
    };
    let mut ls = vec![
        lemma(None, &["z1", "z2"], "A[z1] = Crit && A[z2] = Crit"),
        lemma(None, &["i"], "Sem = False && A[i] = Crit"),
        lemma(None, &["i", "j"], "A[i]=Crit  &&\n A[j] = Crit"),
        // Not the same: the variables swap roles, other sizes, other names.
        lemma(None, &["i", "j"], "A[j] = Crit && A[i] = Crit"),
        lemma(Some((1, 2)), &["i", "j"], "A[i] = Crit && A[j] = Crit"),
        lemma(None, &["i", "j"], "A[i] = Crit && B[j] = Crit"),
    ];
    CertLemma::dedup(&mut ls);
    let texts: Vec<String> = ls.iter().map(|l| l.text()).collect();
    assert_eq!(
        texts,
        vec![
            "forall distinct z1 z2. not (A[z1] = Crit && A[z2] = Crit)",
            "forall distinct i. not (Sem = False && A[i] = Crit)",
            "forall distinct i j. not (A[j] = Crit && A[i] = Crit)",
            "sizes 1..2: forall distinct i j. not (A[i] = Crit && A[j] = Crit)",
            "forall distinct i j. not (A[i] = Crit && B[j] = Crit)",
        ]
    );
}

#[test]
fn round_trip() {
    let c = Certificate {
        model: "m.cub".into(),
        hash: text_hash("x"),
        sizes: (1, 12),
        engine: "ic3".into(),
        evidence: Evidence::Induction {
            k: 2,
            simple_path: true,
        },
        proves: vec![("mutex".into(), vec![1, 2, 3, 5, 7, 8])],
        lemmas: vec![
            CertLemma::parse("forall distinct i j. not (A[i] = Crit && A[j] = Crit)").unwrap(),
            CertLemma::parse("sizes 2..5: not (Sem = False && A[#1] = Crit)").unwrap(),
            CertLemma::parse("sizes 1..3: no range error").unwrap(),
            CertLemma::parse("no int_bound").unwrap(),
            CertLemma::parse("forall i < j < k. not (A[i] = Crit && A[k] = Want)").unwrap(),
        ],
        ints: Some((-2, 5)),
        every: None,
        liveness: None,
        klive: None,
        assume: Vec::new(),
        abstraction: false,
        order: false,
        order_diff: 0,
        reduced: None,
    };
    let t = c.to_text();
    assert!(t.contains("proves mutex at 1..3, 5, 7..8"));
    assert_eq!(Certificate::parse(&t).unwrap(), c);
    assert!(c.lemmas[1].at(2) && !c.lemmas[1].at(6) && c.lemmas[0].at(40));
    // Over the order of the ints with differences kept up to 2.
    let d = Certificate {
        abstraction: true,
        order: true,
        order_diff: 2,
        ..c.clone()
    };
    assert!(d.to_text().contains("abstraction order diff 2\n"));
    assert_eq!(Certificate::parse(&d.to_text()).unwrap(), d);
    for bad in ["order diff 0", "order diff", "order diff x", "diff 1"] {
        let t = d.to_text().replace("order diff 2", bad);
        assert!(Certificate::parse(&t).is_err(), "{bad}");
    }
    assert!(CertLemma::parse("forall distinct I. not (x)").is_err());
    // Ordered lemmas: two names or more, each once.
    let o = &c.lemmas[4];
    assert!(o.ordered && o.vars == ["i", "j", "k"]);
    assert_eq!(
        o.text(),
        "forall i < j < k. not (A[i] = Crit && A[k] = Want)"
    );
    assert!(CertLemma::parse("forall i. not (x)").is_err());
    assert!(CertLemma::parse("forall i < i. not (x)").is_err());
    assert!(CertLemma::parse("forall i < . not (x)").is_err());
    // The order is part of what a lemma says.
    let mut two = vec![
        CertLemma::parse("forall i < j. not (A[i] = Crit && A[j] = Want)").unwrap(),
        CertLemma::parse("forall distinct i j. not (A[i] = Crit && A[j] = Want)").unwrap(),
    ];
    CertLemma::dedup(&mut two);
    assert_eq!(two.len(), 2);
    assert!(CertLemma::parse("A = B").is_err());
    assert!(Certificate::parse("bogus line\nsizes 1..2\n").is_err());
    let every = Certificate {
        every: Some(4),
        ..c
    };
    assert!(every.to_text().contains("\nevery n cutoff 4\n"));
    assert_eq!(Certificate::parse(&every.to_text()).unwrap(), every);
    let assumed = Certificate {
        assume: vec!["invariant1".into(), "sym".into()],
        ..every.clone()
    };
    assert!(assumed.to_text().contains("\nassume invariant1, sym\n"));
    assert_eq!(Certificate::parse(&assumed.to_text()).unwrap(), assumed);
    assert!(Certificate::parse("sizes 1..2\nassume \n").is_err());
    for fair in [false, true] {
        let live = Certificate {
            liveness: Some(("starvation_free".into(), fair)),
            every: None,
            ..every.clone()
        };
        let t = live.to_text();
        assert_eq!(t.contains("\nliveness starvation_free fair\n"), fair);
        assert_eq!(Certificate::parse(&t).unwrap(), live);
        let counting = Certificate {
            klive: Some(15),
            ..live
        };
        let t = counting.to_text();
        let want = if fair { " fair" } else { "" };
        assert!(t.contains(&format!("\nliveness starvation_free{want} counting 15\n")));
        assert_eq!(Certificate::parse(&t).unwrap(), counting);
    }
    assert!(Certificate::parse("sizes 1..2\nliveness a b\n").is_err());
    // Decision diagrams: nodes in order, children before parents, cell names with
    // several indices, negated references.
    let diagram = Certificate {
        evidence: Evidence::Diagrams(vec![
            BddNode::parse("1 E[1,2] 0 0 T F", 1).unwrap(),
            BddNode::parse("2 NfRounds 1 0 -1 T", 2).unwrap(),
        ]),
        lemmas: vec![CertLemma::parse("sizes 3..3: bdd -2").unwrap()],
        ..every.clone()
    };
    let t = diagram.to_text();
    assert!(t.contains("\nnode 2 NfRounds 1 0 -1 T\n") && t.contains("lemma sizes 3..3: bdd -2\n"));
    assert_eq!(Certificate::parse(&t).unwrap(), diagram);
    assert!(
        t.contains("\ninduction 1\n"),
        "diagrams are of an inductive invariant"
    );
    // One kind of evidence: diagrams of a 2-inductive invariant, or a ranking beside
    // diagrams, are refused.
    let two = t.replace("\ninduction 1\n", "\ninduction 2\n");
    let e = Certificate::parse(&two).unwrap_err().1;
    assert!(e.contains("one kind of evidence"), "{e}");
    let ranked = t.replace("\ninduction 1\n", "\ninduction 1\nranking i j\n");
    let e = Certificate::parse(&ranked).unwrap_err().1;
    assert!(e.contains("one kind of evidence"), "{e}");
    assert!(
        BddNode::parse("1 X 0 0 1 F", 1).is_err(),
        "a node names itself"
    );
    assert!(BddNode::parse("2 X 0 0 T F", 1).is_err(), "out of order");
    assert!(
        Certificate::parse("sizes 1..2\nlemma bdd 3\n").is_err(),
        "no node 3"
    );
    assert!(Certificate::parse("sizes 1..2\nliveness a counting 0\n").is_err());
}

/// A ranking certificate prints and reads back; its lines are checked as they are
/// read (numbering, order, kinds).
#[test]
fn ranking_lines_round_trip_and_errors() {
    let head = "model m.cub 00000000000000ff\nsizes 3..3\nengine rank\ninduction 1\n";
    let text = format!(
        "{head}liveness live fair ranks\nranking i j\nphase 1 helpful: Pc[i] = Wait\n\
         phase 2 ranked: Pc[i] = SetV\nweight 2 3: Pc[j] = Idle\nweight 2 1: Pc[j] = Wait\n\
         proves live at 3\nlemma forall distinct i. not (Pc[i] = Crit)\n"
    );
    let c = Certificate::parse(&text).unwrap();
    let r = c.ranking().unwrap();
    assert_eq!((r.var.as_str(), r.other.as_str()), ("i", "j"));
    assert_eq!(r.phases.len(), 2);
    assert!(r.phases[0].helpful && !r.phases[1].helpful);
    assert_eq!(
        r.phases[1].weights,
        vec![
            (3, "Pc[j] = Idle".to_string()),
            (1, "Pc[j] = Wait".to_string())
        ]
    );
    assert_eq!(c.liveness, Some(("live".into(), true)));
    assert_eq!(Certificate::parse(&c.to_text()).unwrap(), c);
    let bad = |body: &str| Certificate::parse(&format!("{head}{body}")).unwrap_err().1;
    assert!(bad("liveness live ranks\n").contains("needs both"));
    assert!(bad("ranking i j\n").contains("needs both"));
    assert!(bad("phase 1 helpful: True\n").contains("before the `ranking` line"));
    assert!(
        bad("liveness l ranks\nranking i j\nphase 2 helpful: True\n").contains("expected phase 1")
    );
    assert!(
        bad("liveness l ranks\nranking i j\nphase 1 helpful: True\nweight 1 2: True\n")
            .contains("helpful: it has no weights")
    );
    assert!(
        bad("liveness l ranks\nranking i j\nphase 1 ranked: True\nweight 2 2: True\n")
            .contains("not declared before it")
    );
    assert!(bad("liveness l ranks\nranking i i\n").contains("two process names"));
    assert!(
        bad("liveness l ranks\nranking i j\nphase 1 sometimes: True\n")
            .contains("not helpful or ranked")
    );
}
