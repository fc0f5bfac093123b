//! Front-end tests through the library: every construct of LANGUAGE.md parses and
//! checks, precedence and the quantifier scope rule, symmetry analysis, and every
//! class of bad input gives `line:col` and a message (never a panic).

use nfold::lang::load_str;
use nfold::model::eval::{self, Fire};
use nfold::model::init::initial_states;
use nfold::model::instance::Instance;
use nfold::model::ir::{Expr, Model};

fn ok(src: &str) -> Model {
    match load_str("t.cub", src) {
        Ok(m) => m,
        Err(e) => panic!("unexpected error:\n{}", e.render()),
    }
}

/// (line, col, message) of the error.
fn err(src: &str) -> (usize, usize, String) {
    match load_str("t.cub", src) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => {
            let (l, c) = e.source.line_col(e.diagnostic.span.lo);
            let r = e.render();
            assert!(r.starts_with(&format!("t.cub:{l}:{c}: error: ")), "{r}");
            assert!(r.contains('^'), "no caret in:\n{r}");
            (l, c, r)
        }
    }
}

const ALL: &str = r#"
(* every construct (* with a nested comment *) *)
type state = | Idle | Want | Crit
type msg = Empty | Req
type level = 0 .. N
type small = 1 .. 3
var Flag : bool
var Turn : proc
const Home : proc
var Round : 0 .. N
var Count : small
array A[proc] : state
array Chan[proc, proc] : msg
array Victim[level] : proc
array Seen[proc, level] : bool

init (z) { A[z] = Idle && Flag = False && Round = 0 && Count = 1 }
init (x y) { Chan[x, y] = Empty && Seen[x, 0] = False }
init () { forall l : level. Victim[l] = Home }

invariant (z) { A[z] <> Crit || Flag }

predicate idle(p) { A[p] = Idle }
predicate both(p, q) { idle(p) && idle(q) }

unsafe (z1 z2) { A[z1] = Crit && A[z2] = Crit }
unsafe named_one (z) { A[z] = Crit && not Flag }

transition go (i)
requires { idle(i) && (forall_other j. A[j] <> Crit) && Round < N }
{
  A[i] := Want;
  Round := Round + 1;
  Flag := not Flag;
}

transition pair (i j)
requires { both(i, j) && Chan[i, j] = Empty && (exists k <> i. A[k] = Idle) }
{
  let r = Round in
  Chan[i, j] := Req;
  Chan[j, i] := if r = 0 then Req else Empty;
  Victim[r] := i;
}

transition crit (i)
requires { A[i] = Want -> Turn = i }
{
  A[k] := case | k = i : Crit | A[k] = Want : Idle | _ : A[k];
  Turn := .;
  Count := ?;
}

transition pick (i)
requires { A[i] = Crit <-> Flag = True }
{
  Turn := any j. A[j] <> Crit;
  Seen[i, l] := case | l = Round : True | _ : Seen[i, l];
}

transition reset ()
{
  Chan[x, y] := case | _ : Empty;
  Round := 0;
}

ltl live (i) { G (A[i] = Want => F A[i] = Crit) }
ltl other (i) { (A[i] = Idle U A[i] = Want) && X true || (Flag R Flag) W false }
"#;

#[test]
fn every_construct_parses_checks_and_runs() {
    let m = ok(ALL);
    assert_eq!(m.vars.len(), 9);
    assert_eq!(m.transitions.len(), 5);
    assert_eq!(m.inits.len(), 3);
    assert_eq!(m.unsafes[0].name, "unsafe1");
    assert_eq!(m.unsafes[1].name, "named_one");
    assert_eq!(m.ltls.len(), 2);
    assert!(m.is_symmetric(), "{}", m.symmetry_summary());
    // Instances: initial states and successors exist and the interpreter runs.
    for n in 1..=3 {
        let inst = Instance::new(&m, n);
        let inits = initial_states(&inst).unwrap();
        // Home (and with it every Victim cell) and Turn are free, and so is every
        // Seen[x, l] with l >= 1: n * n * 2^(n * n) initial states.
        assert_eq!(inits.len(), n * n * (1 << (n * n)), "size {n}");
        let (succ, errs) = eval::successors(&inst, &inits[0]);
        assert!(errs.is_empty());
        assert!(!succ.is_empty());
    }
}

#[test]
fn quantifier_body_extends_as_far_right_as_possible() {
    let m = ok(
        "type s = X | Y\narray A[proc] : s\nvar B : bool\ninit (z) { A[z] = X }\n\
                transition t (i) requires { A[i] = X && forall_other j. A[j] = Y && B } { B := True; }",
    );
    let Expr::And(parts) = &m.transitions[0].guard else {
        panic!("guard is not a conjunction")
    };
    assert_eq!(parts.len(), 2);
    let Expr::Quant { body, .. } = &parts[1] else {
        panic!("second conjunct is not the quantifier")
    };
    assert!(matches!(**body, Expr::And(ref b) if b.len() == 2));
}

#[test]
fn precedence() {
    let m = ok(
        "var A : bool\nvar B : bool\nvar C : bool\ninit () { true }\n\
                unsafe p1 () { A || B && C }\nunsafe p2 () { not A && B }\n\
                unsafe p3 () { A => B => C }\nunsafe p4 () { if A then B else C && A }",
    );
    assert!(matches!(&m.unsafes[0].body, Expr::Or(x) if matches!(x[1], Expr::And(_))));
    assert!(matches!(&m.unsafes[1].body, Expr::And(x) if matches!(x[0], Expr::Not(_))));
    assert!(matches!(&m.unsafes[2].body, Expr::Imp(_, r) if matches!(**r, Expr::Imp(..))));
    assert!(matches!(&m.unsafes[3].body, Expr::And(x) if matches!(x[0], Expr::Ite(..))));
}

#[test]
fn updates_are_simultaneous_and_case_takes_first_branch() {
    let m = ok(
        "type s = X | Y | Z\narray A[proc] : s\nvar B : bool\nvar C : bool\n\
                init (z) { A[z] = X && B = True && C = False }\n\
                transition t (i) { B := C; C := B; A[j] := case | j = i : Y | A[j] = X : Z | _ : A[j]; }",
    );
    let inst = Instance::new(&m, 3);
    let s0 = initial_states(&inst).unwrap().remove(0);
    let Fire::Enabled(v) = eval::fire(&inst, &s0, 0, &[2]) else {
        panic!()
    };
    let s1 = &v[0].1;
    // Layout: A[1..3], B, C.
    assert_eq!(s1, &vec![2, 1, 2, 0, 1]);
}

#[test]
fn nondeterministic_updates() {
    let m = ok("var X : 0 .. 3\nvar T : proc\ninit () { X = 0 }\n\
                transition a (i) { X := .; }\ntransition b (i) requires { X = 0 } { T := any j. j <> i; }");
    let inst = Instance::new(&m, 3);
    let inits = initial_states(&inst).unwrap();
    assert_eq!(inits.len(), 3); // T free
    let Fire::Enabled(v) = eval::fire(&inst, &inits[0], 0, &[1]) else {
        panic!()
    };
    assert_eq!(v.len(), 4);
    let Fire::Enabled(v) = eval::fire(&inst, &inits[0], 1, &[2]) else {
        panic!()
    };
    let ts: Vec<i64> = v.iter().map(|(c, _)| c[0]).collect();
    assert_eq!(ts, vec![1, 3]);
}

#[test]
fn range_errors_are_found_where_evaluation_reaches() {
    let m = ok("array A[proc] : 0 .. 2\ninit (z) { A[z] = 0 }\n\
                transition safe (i) requires { i < N && A[i + 1] = 0 } { A[i] := 1; }\n\
                transition bad (i) requires { A[i + 1] = 0 } { A[i] := 1; }\n\
                transition over (i) requires { A[i] = 2 } { A[i] := A[i] + 1; }");
    assert!(!m.is_symmetric());
    let inst = Instance::new(&m, 2);
    let s = vec![0, 0];
    assert!(matches!(eval::fire(&inst, &s, 0, &[2]), Fire::Disabled));
    match eval::fire(&inst, &s, 1, &[2]) {
        Fire::Error(e) => assert!(e.message.contains("A[3]"), "{}", e.message),
        f => panic!("{f:?}"),
    }
    match eval::fire(&inst, &[2, 0], 2, &[1]) {
        Fire::Error(e) => assert!(e.message.contains("storing 3"), "{}", e.message),
        f => panic!("{f:?}"),
    }
}

#[test]
fn number_procs_and_process_constants() {
    let m = ok(
        "number_procs 3\narray A[proc] : bool\ninit (z) { A[z] = False }\n\
                transition t (i) requires { i = #1 } { A[#2] := True; }",
    );
    assert_eq!(m.number_procs.map(|p| p.0), Some(3));
    assert!(!m.is_symmetric());
    let (l, c, r) = err("number_procs 2\nvar X : proc\ninit () { X = #3 }");
    assert_eq!((l, c), (3, 15), "{r}");
}

#[test]
fn symmetry_breaks_are_named_with_their_line() {
    let cases = [
        (
            "transition t (i j) requires { i < j } { }",
            "order comparison",
            3,
        ),
        (
            "transition t (i) requires { i = 1 } { }",
            "compared with an integer",
            3,
        ),
        (
            "transition t (i) requires { i + 1 = 2 } { }",
            "arithmetic on a process id",
            3,
        ),
        (
            "transition t (i) requires { A[#1] } { }",
            "process constant",
            3,
        ),
        (
            "transition t (i) { R[i] := True; }",
            "range-indexed array",
            3,
        ),
        (
            "transition t (i) { X := i; }",
            "converted to or from an integer",
            3,
        ),
    ];
    for (t, what, line) in cases {
        let src = format!(
            "array A[proc] : bool\narray R[0 .. N] : bool\nvar X : 0 .. 5\ninit () {{ true }}\n{t}"
        );
        let src = src.replacen("init () { true }\n", "init () { true } ", 1);
        let m = ok(&src);
        assert!(!m.is_symmetric(), "{t}");
        let s = m.symmetry_summary();
        assert!(s.contains(what), "{t}: {s}");
        assert!(
            s.contains(&format!("t.cub:{line}")) || s.contains("t.cub:4"),
            "{t}: {s}"
        );
    }
    // Equality on ids, copies, proc-indexed arrays and proc-valued range arrays are fine.
    let m = ok(
        "var T : proc\narray V[1 .. N] : proc\narray A[proc] : bool\ninit () { true }\n\
                transition t (i j) requires { T = i && V[1] <> j && A[T] } { T := j; V[N] := i; }",
    );
    assert!(m.is_symmetric(), "{}", m.symmetry_summary());
}

#[test]
fn bad_input_reports_position_and_message() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        // lexical
        (
            "var X : bool\ninit () { X @ True }",
            (2, 13),
            "unexpected character `@`",
        ),
        ("var X : bool\n(* open", (2, 1), "unterminated comment"),
        ("var X : bool\ninit () { X != True }", (2, 13), "write `<>`"),
        ("var X : bool\ninit () { X == True }", (2, 13), "write `=`"),
        // syntax
        (
            "var X : bool\ninit () { X = }",
            (2, 15),
            "expected a term or formula, found `}`",
        ),
        ("var X : bool\ninit () { X = True\n", (3, 1), "expected"),
        ("var X bool", (1, 7), "expected `:`"),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { X = True; }",
            (3, 22),
            "expected `:=`",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { X := True X := False }",
            (3, 30),
            "expected `;` or `}`",
        ),
        (
            "var X : bool\ninit () { true }\nvar Y : bool",
            (3, 1),
            "declarations",
        ),
        (
            "var X : bool\ninit () { X = True = False }",
            (2, 20),
            "comparisons do not chain",
        ),
        (
            "var X : bool\ninit () { true }\nfoo",
            (3, 1),
            "expected a declaration or an item",
        ),
        // types and names
        (
            "var X : int\ninit () { true }",
            (1, 9),
            "unsupported type `int`",
        ),
        (
            "var X : real\ninit () { true }",
            (1, 9),
            "unsupported type `real`",
        ),
        (
            "type t\nvar X : t\ninit () { true }",
            (1, 6),
            "abstract type `t` is not supported",
        ),
        (
            "array A[proc] : bool\ninit () { true }\ntransition t (i) { A[j] := case | j = i : True; }",
            (3, 28),
            "without a `_` branch",
        ),
        (
            "var X : bool\ninit () { Y = True }",
            (2, 11),
            "unknown name `Y`",
        ),
        (
            "var X : bool\ninit () { x = True }",
            (2, 11),
            "unknown name `x`",
        ),
        (
            "type s = A | B\nvar X : s\ninit () { X = True }",
            (3, 11),
            "cannot compare",
        ),
        (
            "type s = A | B\nvar X : s\ninit () { X }",
            (3, 11),
            "expected a formula",
        ),
        (
            "var X : bool\ninit () { X < True }",
            (2, 11),
            "compare only with",
        ),
        (
            "array A[proc] : bool\ninit () { A = True }",
            (2, 11),
            "is an array",
        ),
        (
            "array A[proc] : bool\ninit (z) { A[z, z] }",
            (2, 12),
            "has 1 index(es), but 2 given",
        ),
        (
            "const C : bool\ninit () { true }\ntransition t (i) { C := True; }",
            (3, 20),
            "constant",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { X := True; X := False; }",
            (3, 31),
            "assigned twice",
        ),
        (
            "array A[proc] : bool\ninit () { true }\ntransition t (i) { A[k] := True; }",
            (3, 22),
            "unknown name `k`",
        ),
        (
            "array A[proc] : bool\ninit () { true }\ntransition t (i) { A[i] := .; }",
            (3, 28),
            "global variables only",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { X := any j. true; }",
            (3, 29),
            "type `proc` only",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i i) { }",
            (3, 17),
            "declared twice",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { }\ntransition t (i) { }",
            (4, 12),
            "defined twice",
        ),
        (
            "var X : bool\nvar X : bool\ninit () { true }",
            (2, 5),
            "already defined",
        ),
        (
            "var X : bool\npredicate p(a) { p(a) }\ninit () { p(X) }",
            (2, 18),
            "used inside itself",
        ),
        (
            "var X : bool\npredicate p(a) { a }\ninit () { p(X, X) }",
            (3, 11),
            "takes 1 argument",
        ),
        (
            "var X : bool\ninit () { G X }",
            (2, 11),
            "only inside `ltl`",
        ),
        (
            "var X : bool\ninit () { true }\nltl p (i j) { true }",
            (3, 10),
            "at most one process parameter",
        ),
        (
            "var X : bool\ninit () { true }\nunsafe () { F X }",
            (3, 13),
            "only inside `ltl`",
        ),
        ("type r = 3 .. 1\ninit () { true }", (1, 6), "empty"),
        ("var X : 0 .. M\ninit () { true }", (1, 14), "range bound"),
        ("var X : bool", (1, 13), "no `init`"),
        ("number_procs 0\ninit () { true }", (1, 14), "1 to 64"),
        (
            "var X : bool\ninit () { 99999999999999999999 }",
            (2, 11),
            "too large",
        ),
    ];
    for (src, (line, col), what) in cases {
        let (l, c, r) = err(src);
        assert!(r.contains(what), "for {src:?} expected {what:?} in:\n{r}");
        assert_eq!((l, c), (*line, *col), "position for {src:?}:\n{r}");
    }
}

#[test]
fn non_utf8_and_missing_files_are_errors() {
    let dir = std::env::temp_dir().join(format!("nfold-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad.cub");
    std::fs::write(&p, b"var X : bool\ninit () { \xff }").unwrap();
    let e = nfold::lang::load_file(p.to_str().unwrap()).unwrap_err();
    assert!(
        e.render()
            .contains(":2:11: error: the file is not valid UTF-8"),
        "{}",
        e.render()
    );
    let e = nfold::lang::load_file("/nonexistent/x.cub").unwrap_err();
    assert!(e.render().contains("cannot read file"));
}

#[test]
fn whole_array_copy() {
    let m = ok(
        "array A[proc] : bool\narray B[proc] : bool\narray C[proc] : 0 .. 2\n\
                init (z) { A[z] = False && B[z] = True }\n\
                transition t (i) requires { A[i] = False } { A := B; B[j] := case | j = i : False | _ : B[j]; }",
    );
    let inst = Instance::new(&m, 2);
    let s0 = initial_states(&inst).unwrap().remove(0);
    let Fire::Enabled(v) = eval::fire(&inst, &s0, 0, &[1]) else {
        panic!()
    };
    // A := old B (True, True); B[1] := False. C stays free: its first value 0.
    assert_eq!(v[0].1, vec![1, 1, 0, 1, 0, 0]);
    let (_, _, r) = err(
        "array A[proc] : bool\narray C[proc] : 0 .. 2\ninit () { true }\ntransition t (i) { A := C; }",
    );
    assert!(r.contains("needs an index"), "{r}");
}

/// Inside `ltl`, `G`, `F` and `X` are operators only when a formula follows: `X[i]` and
/// `F = ...` name a variable and a constructor.
#[test]
fn temporal_letters_as_names_inside_ltl() {
    use nfold::model::ir::Ltl;
    let m = ok(
        "type s = E | F\narray X[proc] : s\nvar G : bool\ninit (z) { X[z] = E }\n\
                ltl p (i) { G F X[i] = F && X X[i] = E || G }\n",
    );
    let Ltl::Or(a, b) = &m.ltls[0].body else {
        panic!("{:?}", m.ltls[0].body)
    };
    let Ltl::And(g, x) = &**a else {
        panic!("{a:?}")
    };
    assert!(matches!(&**g, Ltl::Globally(f) if matches!(&**f, Ltl::Finally(_))));
    assert!(matches!(&**x, Ltl::Next(inner) if matches!(&**inner, Ltl::Atom(_))));
    assert!(matches!(&**b, Ltl::Atom(_)));
}
