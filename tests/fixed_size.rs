//! `number_procs k` makes a model one instance of k processes: `--every-n` answers at
//! that one size, labelled so, never as "holds for every n". Hand-made models; the
//! verdicts are derived in the comments.

use crate::common;

use common::{json_run, nfold, scratch_dir, write_file};

/// Two processes take turns through `Turn` (#1 may enter only on its turn, #2 only on
/// the other): never both in Crit. `bad` adds a door for #2 that ignores the turn:
/// #1 enters on its turn (Turn starts at #1), then #2 enters by the door, depth 2.
fn model(bad: bool) -> String {
    let mut s = String::from(
        "number_procs 2\ntype s = Idle | Crit\narray S[proc] : s\nvar Turn : proc\n\
         init () { S[#1] = Idle && S[#2] = Idle && Turn = #1 }\n\
         unsafe (i j) { S[i] = Crit && S[j] = Crit }\n\
         transition e1 () requires { S[#1] = Idle && Turn = #1 } { S[#1] := Crit; }\n\
         transition l1 () requires { S[#1] = Crit } { S[#1] := Idle; Turn := #2; }\n\
         transition e2 () requires { S[#2] = Idle && Turn = #2 } { S[#2] := Crit; }\n\
         transition l2 () requires { S[#2] = Crit } { S[#2] := Idle; Turn := #1; }\n",
    );
    if bad {
        s.push_str("transition door () requires { S[#2] = Idle } { S[#2] := Crit; }\n");
    }
    s
}

#[test]
fn every_n_on_a_fixed_size_answers_that_size_only() {
    let d = scratch_dir("fixed-size");
    let good = write_file(&d, "good.cub", &model(false));
    let (code, out, _) = nfold(&["check", &good, "--every-n"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("every n: holds at size 2, the only size the model admits (`number_procs 2`)"),
        "{out}"
    );
    assert!(!out.contains("holds for every n"), "{out}");
    let (code, v) = json_run(&["check", &good, "--every-n"]);
    assert_eq!(code, 0);
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    assert_eq!(v["every_n"]["checked_sizes"], serde_json::json!([2]), "{v}");
    assert!(v["every_n"]["cutoff"].is_null(), "{v}");

    let bad = write_file(&d, "bad.cub", &model(true));
    let (code, out, _) = nfold(&["check", &bad, "--every-n"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("VIOLATED at size 2"), "{out}");
    assert!(!out.contains("the only size the model admits"), "{out}");
}
