use super::*;
use crate::lang::load_str;

/// A ticket lock: a global counter handed out and compared.
const TICKETS: &str = "type loc = Idle | Wait | Crit\narray A[proc] : loc\narray T[proc] : int\nvar Next : int\n\
    init (z) { A[z] = Idle && T[z] = 0 && Next = 1 }\n\
    unsafe (x y) { A[x] = Crit && A[y] = Crit }\n\
    transition take (x) requires { A[x] = Idle } { A[x] := Wait; T[x] := Next; Next := Next + 1; }\n\
    transition enter (x) requires { A[x] = Wait && forall_other j. (T[j] = 0 || T[x] < T[j]) } { A[x] := Crit; }\n\
    transition leave (x) requires { A[x] = Crit } { A[x] := Idle; T[x] := 0; }\n";

#[test]
fn a_ticket_lock_reads_back_over_its_order() {
    let m = load_str("t.cub", TICKETS).unwrap();
    let a = ordered(&m).unwrap();
    let text = crate::lang::print::model_text(&a);
    let back = crate::lang::read_back(&a, "the model over its order");
    assert!(back.is_ok(), "{text}\n{:?}", back.err());
    let o = a.ord_ints.unwrap();
    // T ? T is compared. The closure (`closure`: an array of cells A[ā], B[b̄] needs
    // the arrays of the cells the new values of A[ā] and B[b̄] read) adds, through
    // `T[x] := Next`, T ? Next; Next against itself is one cell, always `=`, no array.
    assert_eq!(o.pairs, vec!["T[i] ? T[j]", "T[i] ? Next"], "{:?}", o.pairs);
}

/// Timestamps in channels `C[s,r]` compared only with the receiver's clock `K[r]`.
const STAMPS: &str = "type loc = Idle | Busy\narray A[proc] : loc\narray C[proc,proc] : int\n\
    array K[proc] : int\nvar Clk : int\n\
    init (z y) { A[z] = Idle && C[z,y] = 0 && K[z] = 0 && Clk = 1 }\n\
    unsafe (x y) { A[x] = Busy && A[y] = Busy }\n\
    transition send (z s) requires { A[z] = Idle } { C[z,s] := Clk; Clk := Clk + 1; }\n\
    transition recv (z s) requires { A[z] = Idle && C[s,z] < K[z] } { A[z] := Busy; K[z] := Clk; Clk := Clk + 1; }\n\
    transition done (z) requires { A[z] = Busy } { A[z] := Idle; }\n";

#[test]
fn relation_arrays_only_for_the_patterns_of_indices_compared() {
    let m = load_str("s.cub", STAMPS).unwrap();
    let a = ordered(&m).unwrap();
    let text = crate::lang::print::model_text(&a);
    let back = crate::lang::read_back(&a, "the model over its order");
    assert!(back.is_ok(), "{text}\n{:?}", back.err());
    // Compared: C[s,z] with K[z], so C[i,j] ? K[j] (2 dimensions, not 3). `send`
    // stores Clk into C[z,s]: C[i,j] ? Clk; `recv` stores Clk into K[z]: K[i] ? Clk.
    // Clk against Clk + 1 reads Clk against itself: no array.
    let o = a.ord_ints.unwrap();
    assert_eq!(
        o.pairs,
        vec!["C[i,j] ? K[j]", "C[i,j] ? Clk", "K[i] ? Clk"],
        "{text}"
    );
    assert!(text.contains("Ord_C_K_011["), "{text}");
}

#[test]
fn partitions_count_the_patterns_of_equal_indices() {
    assert_eq!(partitions(0).len(), 1);
    assert_eq!(partitions(2).len(), 2);
    assert_eq!(partitions(3).len(), 5);
    assert_eq!(partitions(4).len(), 15);
}

fn buffered(init_flag: &str, leave: &str) -> String {
    format!(
        "type loc = Idle | Wait | Crit\narray A[proc] : loc\narray T[proc] : int\narray B[proc] : int\n\
         array W[proc] : bool\nvar Next : int\n\
         init (z) {{ A[z] = Idle && T[z] = 0 && W[z] = {init_flag} && Next = 1 }}\n\
         unsafe (x y) {{ A[x] = Crit && A[y] = Crit }}\n\
         transition take (x) requires {{ A[x] = Idle && W[x] = False && T[x] = 0 }} {{ A[x] := Wait; T[x] := Next; Next := Next + 1; }}\n\
         transition enter (x) requires {{ A[x] = Wait && forall_other j. (T[j] = 0 || T[x] < T[j]) }} {{ A[x] := Crit; }}\n\
         transition leave (x) requires {{ A[x] = Crit }} {{ {leave} }}\n\
         transition flush (x) requires {{ W[x] = True }} {{ T[x] := B[x]; W[x] := False; }}\n"
    )
}

#[test]
fn a_free_buffer_written_before_it_is_read_starts_at_its_stored_literal() {
    let ok = buffered("False", "A[x] := Idle; B[x] := 0; W[x] := True;");
    let m = load_str("b.cub", &ok).unwrap();
    let a = ordered(&m).unwrap();
    assert_eq!(a.ord_ints.unwrap().free, vec!["B from 0".to_string()]);
    // Flags raised initially: `flush` may read the initial value.
    let raised = buffered("True", "A[x] := Idle; B[x] := 0; W[x] := True;");
    let e = ordered(&load_str("b.cub", &raised).unwrap()).unwrap_err();
    assert!(e.contains("does not set `W` to False"), "{e}");
    // A flag raised without a store into B.
    let leak = buffered("False", "A[x] := Idle; W[x] := True;");
    let e = ordered(&load_str("b.cub", &leak).unwrap()).unwrap_err();
    assert!(e.contains("may set `W` without storing into `B`"), "{e}");
    // A read of B without the flag in the guard.
    let bare = ok.replace("requires { W[x] = True }", "requires { A[x] = Idle }");
    let e = ordered(&load_str("b.cub", &bare).unwrap()).unwrap_err();
    assert!(
        e.contains("reads `B[..]` without its guard saying `W[..] = True`"),
        "{e}"
    );
}

/// A barrier with round counters: `leave` steps a level while the processes that left
/// first are one up (tests/models/order/level_barrier.cub).
const BARRIER: &str = "type loc = Work | Wait\nvar Sense : bool\narray My[proc] : bool\n\
    array PC[proc] : loc\narray Level[proc] : int\n\
    init (z) { Sense = False && My[z] = False && PC[z] = Work && Level[z] = 0 }\n\
    unsafe (x y) { PC[x] = Work && PC[y] = Work && Level[x] <> Level[y] }\n\
    transition arrive (i) requires { PC[i] = Work } { PC[i] := Wait; My[i] := case | Sense = True : False | _ : True; }\n\
    transition release (i) requires { PC[i] = Wait && My[i] <> Sense && forall_other j. (PC[j] = Wait && My[j] <> Sense) } { Sense := My[i]; }\n\
    transition leave (i) requires { PC[i] = Wait && My[i] = Sense } { PC[i] := Work; Level[i] := Level[i] + STEP; }\n";

#[test]
fn differences_are_kept_up_to_the_largest_step() {
    for step in [1, 2] {
        let m = load_str("b.cub", &BARRIER.replace("STEP", &step.to_string())).unwrap();
        assert_eq!(diff_width(&m), Ok(step));
        let a = ordered_diff(&m, step).unwrap();
        let text = crate::lang::print::model_text(&a);
        let back = crate::lang::read_back(&a, "the model over its differences");
        assert!(back.is_ok(), "{text}\n{:?}", back.err());
        assert_eq!(a.ord_ints.as_ref().unwrap().diff, step);
        // Far below, -k..k, far above, lost; the literals widened by k (0 ± k).
        let rel = a.enums.iter().find(|e| e.name == "ord_rel").unwrap();
        assert_eq!(rel.ctors.len() as i64, 2 * step + 4, "{:?}", rel.ctors);
        assert!(text.contains("Oint_m1") && text.contains(&format!("Oint_{step}")));
        assert!(a.ord_ints.unwrap().summary().contains("differences up to"));
    }
    // Width 0 is the order abstraction, unchanged.
    let m = load_str("b.cub", &BARRIER.replace("STEP", "1")).unwrap();
    assert_eq!(
        crate::lang::print::model_text(&ordered(&m).unwrap()),
        crate::lang::print::model_text(&ordered_diff(&m, 0).unwrap())
    );
    assert!(!crate::lang::print::model_text(&ordered(&m).unwrap()).contains("Ord_m1"));
    assert!(ordered_diff(&m, super::diff::MAX_WIDTH + 1).is_err());
    // A step of a constant: its amount is unknown, no difference is exact.
    let constant = TICKETS
        .replace("var Next : int", "var Next : int\nconst K : int")
        .replace("{ A[x] = Idle }", "{ A[x] = Idle && 0 < K }")
        .replace("Next := Next + 1", "Next := Next + K");
    let m = load_str("t.cub", &constant).unwrap();
    assert!(ordered(&m).is_ok());
    let e = diff_width(&m).unwrap_err();
    assert!(e.contains("by a constant"), "{e}");
    assert!(
        ordered_diff(&m, 1)
            .unwrap_err()
            .contains("literal steps only")
    );
}
