//! Cyclic counters in the counter view (issue 26's ticket locks): IC3 on the view in
//! values relative to the served ticket agrees with the explicit engine, its
//! certificate states the ticket count readably and is re-checked by `nfold certify`,
//! tampering is rejected, and a ticket lock with too few ticket values is refuted
//! exactly at the sizes where tickets collide. Expected verdicts come from the models'
//! headers and hand arguments (below), never from the engine under test.

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

/// The last line of `check` without its times.
fn summary(text: &str) -> String {
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    last.split("; ")
        .filter(|p| !p.contains("peak memory"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn tmp(name: &str) -> String {
    let dir = common::scratch_dir("cyclic");
    dir.join(name).to_string_lossy().to_string()
}

fn ic3(model: &str, sizes: &str, cert: &str) -> String {
    let (_, out) = nfold(&[
        "check",
        model,
        "--sizes",
        sizes,
        "--engine",
        "ic3",
        "--certificate",
        cert,
    ]);
    out
}

/// Both ticket locks hold at every size (their headers: tickets are distinct while at
/// most n are out and at least n values exist), by IC3 on the counter view and by the
/// explicit engine; the certificates speak of tickets relative to `Serving` and are
/// accepted by `nfold certify`.
#[test]
fn ticket_locks_are_proved_on_the_counter_view() {
    for (model, serving) in [
        ("families/ticket_lock.cub", "Ticket[x] = Serving"),
        ("benches/models/ticket_user.cub", "MyTicket[x] = NowServing"),
    ] {
        let cert = tmp(&format!("{}.cert", model.replace('/', "_")));
        let out = ic3(model, "1..4", &cert);
        let (_, explicit) = nfold(&["check", model, "--sizes", "1..4", "--engine", "explicit"]);
        assert_eq!(summary(&out), "holds at sizes 1..4", "{out}");
        assert_eq!(summary(&explicit), "holds at sizes 1..4", "{explicit}");
        let text = std::fs::read_to_string(&cert).unwrap();
        assert!(text.contains("engine ic3 on the counter view"), "{text}");
        assert!(text.contains(serving), "{text}");
        let (code, out) = nfold(&["certify", model, &cert]);
        assert_eq!(code, 0, "{out}");
    }
}

/// At size 3 the ticket lock has M = 4 ticket values and every process that is not
/// idle holds one of the tickets out, (Next - Serving) mod 4 of them (each take issues
/// one and advances Next, each leave retires one and advances Serving): so
/// #{Idle} = 3 - (Next - Serving) when Next >= Serving, and 3 - (Next - Serving) - 4
/// when Next has wrapped. The certificate says exactly that; tampered versions are
/// rejected.
#[test]
fn the_ticket_count_is_a_readable_lemma_and_tampering_is_rejected() {
    let model = "families/ticket_lock.cub";
    let cert = tmp("ticket.cert");
    let out = ic3(model, "1..4", &cert);
    assert_eq!(summary(&out), "holds at sizes 1..4", "{out}");
    let text = std::fs::read_to_string(&cert).unwrap();
    let count = "lemma sizes 3..3: not (#{x : Pc[x] = Idle} <> 3 - (Next - Serving) - 4 \
                 && #{x : Pc[x] = Idle} <> 3 - (Next - Serving))";
    assert!(text.lines().any(|l| l == count), "{text}");
    let tampered = [
        // One ticket too many out.
        text.replace(count, &count.replace("3 - (Next", "2 - (Next")),
        // The modulus of another size.
        text.replace(count, &count.replace(" - 4 ", " - 5 ")),
        // A false lemma: two processes wait at size 2 (both take a ticket).
        format!("{text}lemma sizes 2..2: not (#{{x : Pc[x] = Wait}} >= 2)\n"),
        // A false lemma: a waiting ticket one past the served one exists at size 2.
        format!(
            "{text}lemma sizes 2..2: not (#{{x : Pc[x] = Wait && \
             (Ticket[x] = Serving + 1 || Ticket[x] = Serving - 2)}} >= 1)\n"
        ),
    ];
    for (k, t) in tampered.iter().enumerate() {
        assert_ne!(t, &text, "tampering {k} changed nothing");
        let bad = tmp(&format!("ticket_bad{k}.cert"));
        std::fs::write(&bad, t).unwrap();
        let (code, out) = nfold(&["certify", model, &bad]);
        assert_eq!(code, 1, "tampering {k} accepted:\n{out}");
    }
}

/// Three ticket values whatever the size: with n <= 3 processes at most 3 tickets are
/// out, all distinct, so mutex holds; with 4, the fourth take wraps Next to the ticket
/// the first holds: take(1) enter(1) take(2) take(3) take(4) enter(4) puts two
/// processes in Crit (depth 6). Within the cyclic pattern, so the counter view
/// answers; it must not prove sizes 4 and up.
const THREE_TICKETS: &str = "type loc = Idle | Wait | Crit
array Pc[proc] : loc
array Ticket[proc] : 0 .. 2
var Next : 0 .. 2
var Serving : 0 .. 2
init (z) { Pc[z] = Idle && Ticket[z] = 0 && Next = 0 && Serving = 0 }
unsafe mutex (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }
transition take (i) requires { Pc[i] = Idle }
{ Ticket[i] := Next; Next := if Next = 2 then 0 else Next + 1; Pc[i] := Wait; }
transition enter (i) requires { Pc[i] = Wait && Ticket[i] = Serving } { Pc[i] := Crit; }
transition leave (i) requires { Pc[i] = Crit }
{ Pc[i] := Idle; Serving := if Serving = 2 then 0 else Serving + 1; }
";

#[test]
fn too_few_tickets_are_refuted_where_they_collide() {
    let model = tmp("three_tickets.cub");
    std::fs::write(&model, THREE_TICKETS).unwrap();
    let cert = tmp("three_tickets.cert");
    let out = ic3(&model, "1..4", &cert);
    let (_, explicit) = nfold(&["check", &model, "--sizes", "1..4", "--engine", "explicit"]);
    let expected = "violation at size 4; holds at sizes 1..3";
    assert_eq!(summary(&explicit), expected, "{explicit}");
    assert_eq!(summary(&out), expected, "{out}");
    assert!(
        out.contains("at depth 6") || out.contains("depth 6"),
        "{out}"
    );
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("engine ic3 on the counter view"), "{text}");
    assert!(!text.contains("proves mutex at 1..4"), "{text}");
    let (code, out) = nfold(&["certify", &model, &cert]);
    assert_eq!(code, 0, "{out}");
}
