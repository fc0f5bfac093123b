//! Front-end tests through the library: every construct of LANGUAGE.md parses and
//! checks, precedence and the quantifier scope rule, symmetry analysis, and every
//! class of bad input gives `line:col` and a message (never a panic).

use crate::common;
use nfold::lang::load_str;
use nfold::model::eval::{self, Fire};
use nfold::model::init::initial_states;
use nfold::model::instance::Instance;
use nfold::model::ir::{Expr, Model, PropKind};

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
    // The invariant is a property of its own kind, in the order of the file.
    assert_eq!(m.unsafes[0].name, "invariant1");
    assert_eq!(m.unsafes[0].kind, PropKind::Invariant);
    assert_eq!(m.unsafes[1].name, "unsafe1");
    assert_eq!(m.unsafes[1].kind, PropKind::Unsafe);
    assert_eq!(m.unsafes[2].name, "named_one");
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
    let Expr::Quant(q) = &parts[1] else {
        panic!("second conjunct is not the quantifier")
    };
    assert!(matches!(*q.body, Expr::And(ref b) if b.len() == 2));
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
            "ordered symmetric (process ids compared by order only",
            3,
        ),
        (
            "transition t (i j) requires { i < 2 } { }",
            "order comparison of a process id with an integer term",
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
        // Only order comparisons between two ids keep the order-preserving symmetry.
        assert_eq!(m.is_ordered(), what.starts_with("ordered"), "{t}");
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
            "array A[int] : bool\ninit () { true }",
            (1, 9),
            "the array `A` is indexed by `int`, which is not supported",
        ),
        (
            "var X : real\ninit () { true }",
            (1, 9),
            "timed models (`real`) are not supported: `X` is declared with type `real`",
        ),
        (
            "type s = A | B\nconst Tick : real\ninit () { true }",
            (2, 14),
            "timed models (`real`) are not supported: `Tick` is declared with type `real`",
        ),
        (
            "array Num[proc] : real\ninit () { true }",
            (1, 19),
            "timed models (`real`) are not supported: `Num` is declared with type `real`",
        ),
        (
            "var X : bool\ninit () { X = 1.0 }",
            (2, 15),
            "timed models (`real`) are not supported: `1.0` is a real number",
        ),
        (
            "var X : bool\ninit () { true }\ncandidate z { X }",
            (3, 1),
            "a `candidate` block is written `candidate (z1 ... zm) { f }`",
        ),
        (
            "(* generated *)\nmodule Germanish\nuse import bool.Bool\nlet f () = !x",
            (2, 1),
            "not a Cubicle model: `module` starts a WhyML (Why3) module",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i)\nrequire { X } assign { X := False } Y := 1",
            (4, 39),
            "expected `[`, found `:=`",
        ),
        ("var X : bool\ninit () { !X }", (2, 11), "write `not`"),
        (
            "var X : bool\ninit () { true }\ntranstion t (i) { X := True; }",
            (3, 1),
            "did you mean `transition`?",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) requres { X } { X := True; }",
            (3, 18),
            "did you mean `requires`?",
        ),
        (
            "var X : bool\ninit () { true }\nunsfae (z) { X }",
            (3, 1),
            "did you mean `unsafe`?",
        ),
        (
            "array A[proc] : bool\ninit () { exsts j. A[j] }",
            (2, 17),
            "did you mean `exists` instead of `exsts`?",
        ),
        (
            "var X : bool\ninit () { true }\nTransition t (i) { X := True; }",
            (3, 1),
            "did you mean `transition`?",
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
            "has 1 index, but 2 given",
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
            "array A[proc] : bool\ninit () { true }\ntransition t (i) { A[j] := .; }",
            (3, 22),
            "unknown name `j` in the index of an update",
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
            "var X : bool\ninit () { true }\nunsafe p () { X }\nunsafe p () { X }",
            (4, 1),
            "already defined",
        ),
        (
            "type t\ntype t\ninit () { true }",
            (2, 6),
            "already defined",
        ),
        (
            "type t\nvar X : t\ninit () { X < X }",
            (3, 11),
            "compare only with `=` and `<>`",
        ),
        (
            "type t\nvar X : t\ninit () { X + 1 = 2 }",
            (3, 11),
            "needs integers",
        ),
        (
            "type t\nvar X : t\ninit () { X = 1 }",
            (3, 11),
            "cannot compare",
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
        // Habits from other languages get the way out.
        (
            "array flag[proc] : bool\ninit () { true }",
            (1, 7),
            "start with a capital letter: write `Flag`",
        ),
        (
            "var X : bool\nvar Y : bool\ninit () { true }\ntransition t (i) { X := Y = if X then True else False; }",
            (4, 29),
            "parenthesised: `(if c then a else b)`",
        ),
        (
            "array A[proc] : bool\ninit () { \\A j \\in P : A[j] }",
            (2, 11),
            "write `forall j. f`",
        ),
        (
            "var X : bool\ninit () { true }\ntransition t (i) { X := True;\ntransition u (i) { X := False; }",
            (4, 1),
            "the block opened by `{` at line 3, column 18 is not closed",
        ),
        (
            "var X : 0 .. 4\ninit () { X = 0 }\ntransition t (i) { X := case | X = 1 : 2 | _ : 7; }",
            (3, 48),
            "`7` is outside the type `0 .. 4` of `X`",
        ),
        (
            "array A[proc, proc] : bool\ninit (z) { A[z] }",
            (2, 12),
            "has 2 indices, but 1 given",
        ),
    ];
    for (src, (line, col), what) in cases {
        let (l, c, r) = err(src);
        assert!(r.contains(what), "for {src:?} expected {what:?} in:\n{r}");
        assert_eq!((l, c), (*line, *col), "position for {src:?}:\n{r}");
    }
}

/// Words far from every keyword get no suggestion; near ones get the nearest keyword.
#[test]
fn keyword_suggestions_only_when_close() {
    use nfold::lang::lexer::{edit_distance, nearest_keyword};
    assert_eq!(edit_distance("unsfae", "unsafe"), 1); // a swap of neighbours
    assert_eq!(edit_distance("requres", "requires"), 1);
    assert_eq!(edit_distance("transtion", "transition"), 1);
    assert_eq!(edit_distance("abc", ""), 3);
    assert_eq!(nearest_keyword("requres"), Some("requires"));
    assert_eq!(nearest_keyword("unsfae"), Some("unsafe"));
    assert_eq!(nearest_keyword("forall_othr"), Some("forall_other"));
    assert_eq!(nearest_keyword("foo"), None);
    assert_eq!(nearest_keyword("x"), None);
    // `True` is a constructor, not a misspelt `true`.
    assert_eq!(nearest_keyword("True"), None);
    assert_eq!(nearest_keyword("vars"), Some("var"));
    // Two edits are too many for a keyword of four letters or fewer.
    assert_eq!(nearest_keyword("vxx"), None);
    assert_eq!(nearest_keyword("tipe"), Some("type"));
    assert_eq!(nearest_keyword("ttpie"), None);
    assert_eq!(nearest_keyword("variable"), None);
    let (_, _, r) = err("var X : bool\ninit () { true }\nfoo");
    assert!(!r.contains("did you mean"), "{r}");
}

/// Every character of a rendered message is printable text (newlines apart): no raw
/// bytes or control characters reach the terminal.
fn printable(r: &str) -> bool {
    r.chars()
        .all(|c| c == '\n' || (!c.is_control() && c != '\u{FFFD}' && (c as u32) < 0xF0000))
}

#[test]
fn non_utf8_and_missing_files_are_errors() {
    let dir = common::scratch_dir("lang");
    let p = dir.join("bad.cub");
    std::fs::write(&p, b"var X : bool\ninit () { \xff }").unwrap();
    let e = nfold::lang::load_file(p.to_str().unwrap()).unwrap_err();
    let r = e.render();
    assert!(
        r.contains(":2:11: error: the file is not valid UTF-8"),
        "{r}"
    );
    // The bad byte is shown escaped, under the caret.
    assert!(r.contains("  2 | init () { \\xFF }\n"), "{r}");
    assert!(r.contains("    |           ^^^^\n"), "{r}");
    assert!(printable(&r), "{r}");
    // A binary file: one long line of bytes, some not UTF-8, some control characters.
    let mut bin: Vec<u8> = b"\x7fELF\x02\x01\x01\x00".to_vec();
    bin.extend((0..2000u32).map(|k| (k * 37 % 256) as u8));
    std::fs::write(&p, &bin).unwrap();
    let r = nfold::lang::load_file(p.to_str().unwrap())
        .unwrap_err()
        .render();
    assert!(r.contains(":1:"), "{r}");
    assert!(printable(&r), "{r}");
    // The excerpt line: at most 40 characters, each escaped to at most 4, plus `...`s.
    let excerpt = r.lines().nth(1).unwrap();
    assert!(excerpt.len() <= 7 + 40 * 4 + 6, "{excerpt}");
    assert!(r.contains("binary file"), "{r}");
    // Valid UTF-8 with a NUL byte: the lexer's error, escaped.
    std::fs::write(&p, b"var X : bool\ninit () { X \x00 }").unwrap();
    let r = nfold::lang::load_file(p.to_str().unwrap())
        .unwrap_err()
        .render();
    assert!(
        r.contains(":2:13: error: unexpected character `\\x00`"),
        "{r}"
    );
    assert!(r.contains("  2 | init () { X \\x00 }\n"), "{r}");
    assert!(r.contains("    |             ^^^^\n"), "{r}");
    assert!(printable(&r), "{r}");
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

/// The first warning of a model, rendered, and how many there are.
fn warnings(m: &Model) -> Vec<String> {
    m.warnings.iter().map(|w| w.render(&m.source)).collect()
}

/// Cubicle reads a repeated transition name as another transition: nfold keeps them
/// apart as `t`, `t#2`, `t#3`, with one warning listing the names and their lines.
#[test]
fn repeated_transition_names_are_separate_transitions() {
    let src = "var X : 0 .. 3\ninit () { X = 0 }\n\
               transition t () requires { X = 0 } { X := 1; }\n\
               transition t () requires { X = 1 } { X := 2; }\n\
               transition u () requires { X = 2 } { X := 3; }\n\
               transition t () requires { X = 3 } { X := 0; }\n\
               transition u () requires { X = 9 } { X := 0; }\n\
               unsafe () { X = 3 }\n";
    let m = ok(src);
    let names: Vec<&str> = m.transitions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["t", "t#2", "u", "t#3", "u#2"]);
    let w = warnings(&m);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "t.cub:4:12: warning: transition names used more than once: `t` (lines 3, 4, 6), `u` (lines 5, 7)\n"
        ),
        "{}",
        w[0]
    );
    assert_eq!(m.transition_by_name("t#2"), Some(1));
    assert_eq!(m.transition_by_name("u#2"), Some(4));
    // Each definition fires on its own: X = 0 -> 1 -> 2 -> 3 -> 0, each by one transition.
    let inst = Instance::new(&m, 1);
    let mut st = initial_states(&inst).unwrap().remove(0);
    for (want_t, want_x) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
        let (succ, errs) = eval::successors(&inst, &st);
        assert!(errs.is_empty());
        assert_eq!(succ.len(), 1);
        assert_eq!(succ[0].0.trans, want_t);
        st = succ[0].1.clone();
        assert_eq!(st, vec![want_x]);
    }
    // Printed back, the model has the names as written and loads to the same names.
    let text = nfold::lang::print::model_text(&m);
    assert!(!text.contains('#'), "{text}");
    let again = ok(&text);
    let names2: Vec<&str> = again.transitions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, names2);
}

/// A model that declares `N` means its declaration by `N`, with a warning.
#[test]
fn a_declared_n_shadows_the_size() {
    let m = ok("var N : 0 .. 2\ninit () { N = 0 }\n\
                transition inc () requires { N < 2 } { N := N + 1; }\nunsafe () { N = 2 }");
    assert_eq!(m.vars[0].name, "N");
    let w = warnings(&m);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "t.cub:1:5: warning: `N` is declared here, so in this file `N` names this declaration"
        ),
        "{}",
        w[0]
    );
    // At size 5 the variable still counts 0, 1, 2: it is not the size.
    let inst = Instance::new(&m, 5);
    let s0 = initial_states(&inst).unwrap().remove(0);
    assert_eq!(s0, vec![0]);
    let (succ, _) = eval::successors(&inst, &s0);
    assert_eq!(succ[0].1, vec![1]);
    let m = ok("type s = A | B\nconst N : s\narray Y[proc] : s\ninit (z) { Y[z] = N }");
    assert!(warnings(&m)[0].starts_with("t.cub:2:7: warning: `N` is declared here"));
    // Without a declaration `N` is the size, and no warning.
    let m = ok("var X : 0 .. N\ninit () { X = N }\nunsafe () { X = 0 }");
    assert!(m.warnings.is_empty(), "{:?}", warnings(&m));
}

/// `A[i] := .` chooses any value of the cell's type; the index is evaluated in update
/// order and may be out of range.
#[test]
fn nondeterministic_update_of_an_array_cell() {
    let m = ok(
        "array A[proc] : 0 .. 2\narray C[proc, proc] : bool\ninit (z) { A[z] = 0 }\n\
                transition r (i) { A[i] := .; }\n\
                transition s (i j) { C[i, j] := .; A[j] := 1; }\n\
                transition bad (i) { A[i + 1] := .; }",
    );
    let inst = Instance::new(&m, 2);
    let s0 = vec![0, 0, 0, 0, 0, 0];
    let Fire::Enabled(v) = eval::fire(&inst, &s0, 0, &[2]) else {
        panic!()
    };
    // A[2] takes 0, 1, 2 in turn; the choices name the value chosen.
    let got: Vec<(Vec<i64>, Vec<i64>)> = v.into_iter().collect();
    assert_eq!(
        got,
        vec![
            (vec![0], vec![0, 0, 0, 0, 0, 0]),
            (vec![1], vec![0, 1, 0, 0, 0, 0]),
            (vec![2], vec![0, 2, 0, 0, 0, 0]),
        ]
    );
    // C[2, 1] is slot 2 + (2 - 1) * 2 + (1 - 1) = 4.
    let Fire::Enabled(v) = eval::fire(&inst, &s0, 1, &[2, 1]) else {
        panic!()
    };
    assert_eq!(v.len(), 2);
    assert_eq!(v[1].1, vec![1, 0, 0, 0, 1, 0]);
    assert!(matches!(eval::fire(&inst, &s0, 2, &[1]), Fire::Enabled(_)));
    match eval::fire(&inst, &s0, 2, &[2]) {
        Fire::Error(e) => assert!(e.message.contains("A[3]"), "{}", e.message),
        f => panic!("{f:?}"),
    }
}

/// How the number of values of an abstract type is chosen (`model::data`).
#[test]
fn abstract_types_get_their_number_of_values() {
    use nfold::lang::{LoadOptions, load_str_with};
    use nfold::model::data::Origin;
    const BASE: &str = "type data\ntype st = I | S\nvar Mem : data\nvar Aux : data\n\
                        array C[proc] : st\narray D[proc] : data\n";
    // (rest of the model, values, origin, independent: Ok(m) or Err(text), symmetric)
    type Case<'a> = (&'a str, usize, Origin, Result<usize, &'a str>, bool);
    let cases: &[Case] = &[
        // German's data paths: copies only, init equates two cells, properties read 2.
        (
            "init (z) { C[z] = I && Mem = Aux }\n\
             transition f (i) requires { C[i] = I } { C[i] := S; D[i] := Mem; }\n\
             transition w (i) requires { C[i] = S } { Mem := .; Aux := Mem; }\n\
             unsafe (z) { C[z] = S && D[z] <> Aux }\nunsafe () { Mem <> Aux }",
            3,
            Origin::Independent,
            Ok(2),
            true,
        ),
        // No property reads data: one value.
        (
            "init (z) { C[z] = I }\ntransition w (i) { Mem := .; D[i] := Mem; }\n\
             unsafe (z1 z2) { C[z1] = S && C[z2] = S }",
            1,
            Origin::Independent,
            Ok(0),
            true,
        ),
        // Three cells per tuple: D[z1], D[z2], Mem (Mem read twice counts once).
        (
            "init () { true }\n\
             unsafe (z1 z2) { D[z1] <> D[z2] && (D[z1] = Mem || D[z2] = Mem) }",
            4,
            Origin::Independent,
            Ok(3),
            true,
        ),
        // An `if then else` of data inside a property still reads cells.
        (
            "init () { true }\nunsafe (z) { (if C[z] = S then D[z] else Mem) = Aux }",
            4,
            Origin::Independent,
            Ok(3),
            true,
        ),
        // A guard compares data: the number of values matters.
        (
            "init () { true }\ntransition t (i) requires { D[i] = Mem } { C[i] := S; }\n\
             unsafe (z) { C[z] = S }",
            3,
            Origin::Default,
            Err("compares values of `data` in transition `t` at t.cub:8"),
            true,
        ),
        // So does a `case` condition.
        (
            "init () { true }\n\
             transition t (i) { C[j] := case | D[j] <> Mem : S | _ : C[j]; }\n\
             unsafe (z) { C[z] = S }",
            3,
            Origin::Default,
            Err("compares values of `data` in transition `t`"),
            true,
        ),
        // init may equate cells, not tell them apart.
        (
            "init () { Mem <> Aux }\nunsafe () { Mem = Aux }",
            3,
            Origin::Default,
            Err("compares values of `data` in `init` (other than an equality) at t.cub:7"),
            true,
        ),
        (
            "init () { not (Mem <> Aux) && (Mem = Aux => C[1] = I) }\nunsafe () { Mem = Aux }",
            3,
            Origin::Default,
            Err("in `init`"),
            true,
        ),
        (
            "init () { not (Mem <> Aux) && (C[1] = I => Mem = Aux) }\nunsafe () { Mem = Aux }",
            3,
            Origin::Independent,
            Ok(2),
            true,
        ),
        // A property over every process's cell has no bound.
        (
            "init () { true }\nunsafe () { forall j. D[j] = Mem }",
            3,
            Origin::Default,
            Err("reads `D` for a quantified process in a property (`unsafe1`) at t.cub:8"),
            true,
        ),
        // Quantifying over the type.
        (
            "init () { true }\ntransition t (i) requires { forall v : data. true } { C[i] := S; }",
            3,
            Origin::Default,
            Err("quantifies over `data` in transition `t`"),
            true,
        ),
        // An ltl property that reads data.
        (
            "init () { true }\nltl p (i) { G (D[i] = Mem) }",
            3,
            Origin::Default,
            Err("reads data in the ltl property `p`"),
            true,
        ),
    ];
    for (rest, values, origin, indep, symmetric) in cases {
        let src = format!("{BASE}{rest}");
        let m = ok(&src);
        assert_eq!(m.data_types.len(), 1);
        let d = &m.data_types[0];
        assert_eq!(d.values, *values, "{src}");
        assert_eq!(d.origin, *origin, "{src}");
        assert_eq!(d.symmetric, *symmetric, "{src}");
        match (&d.independent, indep) {
            (Ok(k), Ok(want)) => assert_eq!(k, want, "{src}"),
            (Err(dep), Err(want)) => {
                let text = format!("{} at {}", dep.what, m.source.file_line(dep.span.lo));
                assert!(text.contains(want), "{src}\n{text}");
            }
            (got, want) => panic!("{src}\n{got:?} vs {want:?}"),
        }
        assert_eq!(m.enums[d.enum_id].ctors.len(), *values);
        assert_eq!(m.enums[d.enum_id].ctors[0], "d1");
        // The warning at the declaration reports the number.
        let w = warnings(&m);
        let mine: Vec<&String> = w.iter().filter(|x| x.contains("abstract type")).collect();
        assert_eq!(mine.len(), 1);
        assert!(mine[0].starts_with("t.cub:1:6: warning: abstract type `data`: "));
        let count = if *values == 1 {
            "1 value d1".to_string()
        } else {
            format!("{values} values d1..d{values}")
        };
        assert!(mine[0].contains(&count), "{}", mine[0]);
        if *origin == Origin::Default {
            assert!(mine[0].contains("(default)"), "{}", mine[0]);
            assert!(
                mine[0].contains("verdicts are for 3 values only"),
                "{}",
                mine[0]
            );
        }
    }
    // An array indexed by the type: values not interchangeable.
    let m =
        ok("type data\narray M[data] : bool\nvar X : data\ninit () { true }\nunsafe () { M[X] }");
    let d = &m.data_types[0];
    assert!(!d.symmetric);
    assert_eq!((d.values, d.origin), (3, Origin::Default));
    assert!(
        d.independent
            .as_ref()
            .unwrap_err()
            .what
            .contains("indexes the array `M`")
    );
    assert!(!m.has_data_symmetry());
    // --data-values sets every abstract type's number, and the report says what would
    // have sufficed.
    let opts = LoadOptions {
        data_values: Some(5),
        ..Default::default()
    };
    let m = load_str_with(
        "t.cub",
        "type a\ntype b\nvar X : a\nvar Y : b\ninit () { true }\nunsafe () { X <> X && Y = Y }",
        &opts,
    )
    .unwrap();
    assert_eq!(m.data_types.len(), 2);
    for d in &m.data_types {
        assert_eq!((d.values, d.origin), (5, Origin::Given));
        assert_eq!(d.independent, Ok(1));
        assert!(d.summary(&m).contains("--data-values"));
        assert!(d.summary(&m).contains("2 values would give the verdicts"));
    }
    // Values of an abstract type print as d1, d2, ...
    let inst = Instance::new(&m, 1);
    assert_eq!(inst.slot_value_name(0, 0), "d1");
    assert_eq!(inst.slot_value_name(1, 4), "d5");
    assert_eq!(initial_states(&inst).unwrap().len(), 25);
    // Printed back, an abstract type is written abstract.
    let text = nfold::lang::print::model_text(&m);
    assert!(text.starts_with("type a\ntype b\n"), "{text}");
}

/// Cubicle's `candidate` blocks (conjectured invariants its proof search checks) are
/// ignored like `invariant` blocks, with one warning naming their lines.
#[test]
fn candidate_blocks_are_ignored_with_a_warning() {
    let base = "array A[proc] : bool\ninit (z) { A[z] = False }\n\
                transition t (i) requires { A[i] = False } { A[i] := True; }\n\
                unsafe (z1 z2) { A[z1] && A[z2] }\n";
    let with = base.to_string()
        + "candidate (z1) { A[z1] = True && Undeclared = 3 }\ncandidate () { true }\n";
    let m = ok(&with);
    let w = warnings(&m);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("t.cub:5:1: warning: 2 `candidate` blocks ignored (lines 5, 6)\n"),
        "{}",
        w[0]
    );
    // The same states and successors as without the blocks.
    let plain = ok(base);
    assert!(plain.warnings.is_empty());
    for n in 1..=3 {
        let (a, b) = (Instance::new(&m, n), Instance::new(&plain, n));
        let (ia, ib) = (initial_states(&a).unwrap(), initial_states(&b).unwrap());
        assert_eq!(ia, ib);
        assert_eq!(
            eval::successors(&a, &ia[0]).0,
            eval::successors(&b, &ib[0]).0
        );
    }
    // A predicate, transition or property called `candidate` is not a block.
    let m = ok("array A[proc] : bool\npredicate candidate(p) { A[p] }\n\
                init (z) { not candidate(z) }\nunsafe candidate (z) { candidate(z) }\n\
                transition candidate (i) { A[i] := True; }");
    assert!(m.warnings.is_empty(), "{:?}", warnings(&m));
}

/// Cubicle's old transition syntax (`require`, `uguard`, `assign { }` and array
/// updates `A[j] := {| ... }` after the guard) reads as the current one, with a warning.
#[test]
fn old_transition_syntax_reads_as_the_current_one() {
    let old = "type m = E | R | G\nvar Cmd : m\nvar Ptr : proc\narray Ch[proc] : m\narray Sh[proc] : bool\narray Inv[proc] : bool\n\
               init (z) { Ch[z] = E && Sh[z] = False && Cmd = E }\n\
               unsafe (z1 z2) { Sh[z1] = True && Sh[z2] = True }\n\
               transition req (n)\nrequire { Ch[n] = E }\nCh[j] := {| j = n : R | _ : Ch[j] }\n\
               transition recv (n)\nrequire { Cmd = E && Ch[n] = R }\nassign { Cmd := R; Ptr := n; Inv := Sh }\n\
               Ch[j] := {| j = n : E | _ : Ch[j] }\n\
               transition grant (n)\nrequire { Ptr = n && Cmd = R }\nuguard (j) { Sh[j] = False }\n\
               assign { Cmd := E }\nSh[j] := {| j = n : True | _ : Sh[j] }\nCh[j] := {| j = n : G | _ : Ch[j] }\n\
               transition new_body (n)\nrequire { Sh[n] = True } { Sh[n] := False; }\n";
    let new = "type m = E | R | G\nvar Cmd : m\nvar Ptr : proc\narray Ch[proc] : m\narray Sh[proc] : bool\narray Inv[proc] : bool\n\
               init (z) { Ch[z] = E && Sh[z] = False && Cmd = E }\n\
               unsafe (z1 z2) { Sh[z1] = True && Sh[z2] = True }\n\
               transition req (n) requires { Ch[n] = E } { Ch[j] := case | j = n : R | _ : Ch[j]; }\n\
               transition recv (n) requires { Cmd = E && Ch[n] = R }\n\
               { Cmd := R; Ptr := n; Inv := Sh; Ch[j] := case | j = n : E | _ : Ch[j]; }\n\
               transition grant (n) requires { (Ptr = n && Cmd = R) && forall_other j. (Sh[j] = False) }\n\
               { Cmd := E; Sh[j] := case | j = n : True | _ : Sh[j]; Ch[j] := case | j = n : G | _ : Ch[j]; }\n\
               transition new_body (n) requires { Sh[n] = True } { Sh[n] := False; }\n";
    let a = ok(old);
    let b = ok(new);
    let w = warnings(&a);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "t.cub:10:1: warning: Cubicle's old transition syntax (4 transitions), read as the current one\n"
        ),
        "{}",
        w[0]
    );
    assert!(b.warnings.is_empty());
    assert_eq!(
        nfold::lang::print::model_text(&a),
        nfold::lang::print::model_text(&b)
    );
}

/// Cubicle's `forall x <> y. f` binds both names (pairwise distinct processes) when `y`
/// is not bound; with `y` bound it quantifies over x only.
#[test]
fn forall_distinct_binds_unbound_names_as_cubicle() {
    let m = ok("array A[proc] : bool\ninit (z) { A[z] = False }\n\
                predicate two(v) { exists x <> y. A[x] = v && A[y] = v }\n\
                transition t (i) { A[i] := True; }\n\
                unsafe () { two(True) }\nunsafe other (i) { forall x <> i. A[x] }");
    let w = warnings(&m);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("t.cub:3:32: warning: `y` is not bound here, so this quantifier binds `x`, `y` (pairwise distinct processes), as Cubicle reads it\n"),
        "{}",
        w[0]
    );
    let same = ok("array A[proc] : bool\ninit (z) { A[z] = False }\n\
                   transition t (i) { A[i] := True; }\n\
                   unsafe () { exists y. exists x <> y. A[x] && A[y] }\n\
                   unsafe other (i) { forall x <> i. A[x] }");
    // Both read the same: at size 2 the first property is true once both cells are set.
    for mm in [&m, &same] {
        let inst = Instance::new(mm, 2);
        let hit = |st: &[i64]| {
            eval::violation(&inst, st, &mm.unsafes[0])
                .unwrap()
                .is_some()
        };
        assert!(hit(&[1, 1]), "both set");
        assert!(!hit(&[1, 0]), "one set");
        assert!(!hit(&[0, 0]), "none set");
    }
}

/// Errors that suggest the fix: a misspelt name gets the closest declared one, SPIN's
/// `[]` and `<>` in an `ltl` property get `G` and `F`.
#[test]
fn errors_suggest_the_fix() {
    let base = "type state = Idle | Want | Crit\nvar Serving : proc\narray A[proc] : state\ninit (i) { A[i] = Idle }\n";
    let (l, c, r) = err(&format!(
        "{base}transition enter (i)\nrequires {{ A[i] = Want && Servng = i }}\n{{ A[i] := Crit; }}\n"
    ));
    assert_eq!((l, c), (6, 27));
    assert!(r.contains("did you mean `Serving`?"), "{r}");
    let (_, _, r) = err(&format!(
        "{base}transition enter (i)\nrequires {{ A[i] = Wnt }}\n{{ A[i] := Crit; }}\n"
    ));
    assert!(r.contains("did you mean `Want`?"), "{r}");
    let (_, _, r) = err(&format!(
        "{base}transition enter (i)\nrequires {{ A[i] = Busy }}\n{{ A[i] := Crit; }}\n"
    ));
    assert!(!r.contains("did you mean"), "{r}");
    let (l, c, r) = err(&format!("{base}ltl live (i) {{ [] (A[i] = Want) }}\n"));
    assert_eq!((l, c), (5, 16));
    assert!(r.contains("write `G f`"), "{r}");
    let (_, _, r) = err(&format!(
        "{base}ltl live (i) {{ G (A[i] = Want -> <> A[i] = Crit) }}\n"
    ));
    assert!(r.contains("write `F f`"), "{r}");
    // A `case` without `_`: the help names the cell a default branch would keep.
    let (_, _, r) = err(&format!(
        "{base}transition t (i)\n{{ A[i] := case | i = Serving : Crit; }}\n"
    ));
    assert!(r.contains("e.g. `| _ : A[i]` to keep it"), "{r}");
    let (_, _, r) = err(&format!(
        "{base}transition t (i)\n{{ Serving := case | A[i] = Crit : i; }}\n"
    ));
    assert!(r.contains("e.g. `| _ : Serving` to keep it"), "{r}");
}
