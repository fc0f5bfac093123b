//! Proofs that count (issue 26): IC3 on the counter view against the explicit engine
//! at sizes 1..4, its certificates re-checked by `nfold certify`, tampering rejected,
//! and a counter off by one at some sizes not proved there. Expected verdicts come from
//! the models' headers (hand arguments, confirmed there by an oracle) and from the
//! explicit engine, never from the engine under test.

use crate::common;
use std::process::Command;

fn nfold(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args(args)
        .output()
        .expect("nfold runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

/// The last line of `check`: the summary of the verdicts.
fn summary(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .split("; ")
        .filter(|part| !part.contains("peak memory"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn tmp(name: &str) -> String {
    let dir = common::scratch_dir("counting");
    dir.join(name).to_string_lossy().to_string()
}

/// IC3 (through the counter view) and the explicit engine agree at sizes 1..4, with
/// the verdict the model's header derives by hand; the certificate is accepted by
/// `nfold certify`.
fn agree(model: &str, expected: &str) {
    let cert = tmp(&format!("{}.cert", model.replace('/', "_")));
    let (_, ic3) = nfold(&[
        "check",
        model,
        "--sizes",
        "1..4",
        "--engine",
        "ic3",
        "--certificate",
        &cert,
    ]);
    let (_, explicit) = nfold(&["check", model, "--sizes", "1..4", "--engine", "explicit"]);
    assert_eq!(summary(&ic3), expected, "{ic3}");
    assert_eq!(summary(&explicit), expected, "{explicit}");
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("engine ic3 on the counter view"), "{text}");
    assert!(text.contains("#{x : "), "{text}");
    let (code, out) = nfold(&["certify", model, &cert]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn counting_families_agree_with_the_explicit_engine() {
    agree("benches/models/rw_counter.cub", "holds at sizes 1..4");
    agree("benches/models/semaphore_k2.cub", "holds at sizes 1..4");
    agree("benches/models/semaphore_k3.cub", "holds at sizes 1..4");
    agree("benches/models/barrier.cub", "holds at sizes 1..4");
    // Passes at 3 arrivals: violated exactly above 3 (the header's argument).
    agree(
        "benches/models/barrier_bug.cub",
        "violation at size 4; holds at sizes 1..3",
    );
}

#[test]
fn the_reader_count_is_a_readable_lemma_and_tampering_is_rejected() {
    let model = "benches/models/rw_counter.cub";
    let cert = tmp("rw.cert");
    let (code, _) = nfold(&[
        "check",
        model,
        "--sizes",
        "1..4",
        "--engine",
        "ic3",
        "--certificate",
        &cert,
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&cert).unwrap();
    // Cnt is the number of readers (the header's argument), at every size.
    assert!(
        text.lines()
            .any(|l| l == "lemma not (#{x : Pc[x] = Reading} <> Cnt)"),
        "{text}"
    );
    let tampered = [
        text.replace(
            "#{x : Pc[x] = Reading} <> Cnt)",
            "#{x : Pc[x] = Reading} <> Cnt + 1)",
        ),
        text.replace(
            "#{x : Pc[x] = Reading} <> Cnt)",
            "#{x : Pc[x] = Idle} <> Cnt)",
        ),
        // A false lemma: readers are reachable.
        format!("{text}lemma not (#{{x : Pc[x] = Reading}} >= 1)\n"),
    ];
    for (k, t) in tampered.iter().enumerate() {
        assert_ne!(t, &text);
        let bad = tmp(&format!("rw_bad{k}.cert"));
        std::fs::write(&bad, t).unwrap();
        let (code, out) = nfold(&["certify", model, &bad]);
        assert_eq!(code, 1, "tampering {k} accepted:\n{out}");
    }
}

/// end_read takes two from the counter when it reads 3: with 3 readers in and 2 out,
/// the last reader is not counted (depth 5), so a writer may join it. Fewer than 3
/// processes never bring the counter to 3.
const OFF_BY_ONE: &str = "type loc = Idle | Reading | Writing
var Cnt : 0 .. N
var W : bool
array Pc[proc] : loc
init (p) { Pc[p] = Idle && Cnt = 0 && W = False }
unsafe reader_not_counted (p) { Pc[p] = Reading && Cnt = 0 }
transition start_read (i) requires { Pc[i] = Idle && W = False } { Pc[i] := Reading; Cnt := Cnt + 1; }
transition end_read (i) requires { Pc[i] = Reading } { Pc[i] := Idle; Cnt := if Cnt = 3 then Cnt - 2 else Cnt - 1; }
transition start_write (i) requires { Pc[i] = Idle && W = False && Cnt = 0 } { Pc[i] := Writing; W := True; }
transition end_write (i) requires { Pc[i] = Writing } { Pc[i] := Idle; W := False; }
";

#[test]
fn a_counter_off_by_one_is_not_proved_where_it_is_wrong() {
    let model = tmp("off_by_one.cub");
    std::fs::write(&model, OFF_BY_ONE).unwrap();
    let (_, ic3) = nfold(&["check", &model, "--sizes", "1..4", "--engine", "ic3"]);
    let (_, explicit) = nfold(&["check", &model, "--sizes", "1..4", "--engine", "explicit"]);
    let expected = "violations at sizes 3..4; holds at sizes 1..2";
    assert_eq!(summary(&explicit), expected, "{explicit}");
    assert_eq!(summary(&ic3), expected, "{ic3}");
}
