//! Ints compared with each other (tickets), proved for every n over their order
//! (`model::ints::order`, docs/every-n.md "Ints compared with each other"): an
//! over-approximation whose `order_lost_*` properties must be proved with the asked
//! ones. The families are in tests/models/order/; each file's header derives its
//! verdicts by hand (the correct invariant; the buggy twins' first failing size and
//! trace), and the pins below come from those derivations.

use crate::common;

use common::{json_run, nfold, scratch_dir};

fn model(name: &str) -> String {
    format!("tests/models/order/{name}.cub")
}

/// The every-n answer of `check FILE --every-n --sizes 1..K` (JSON), with the exit code.
fn every(name: &str, sizes: &str) -> (i32, serde_json::Value) {
    json_run(&["check", &model(name), "--every-n", "--sizes", sizes])
}

/// `certify` accepts the certificate `cert` (its text `text`) of family `name`, and
/// refuses it without its first line starting with `lost` (an `order_lost_*` claim:
/// without it the abstract model need not simulate the model).
fn certified_and_refused_without_a_lost_claim(name: &str, cert: &str, text: &str, lost: &str) {
    let (code, out, err) = nfold(&["certify", &model(name), cert]);
    assert_eq!(code, 0, "{name}: {out}{err}");
    let lost = text.lines().find(|l| l.starts_with(lost)).unwrap();
    let cut: String = text
        .lines()
        .filter(|l| *l != lost)
        .map(|l| format!("{l}\n"))
        .collect();
    let bad = format!("{cert}.cut");
    std::fs::write(&bad, cut).unwrap();
    let (code, out, err) = nfold(&["certify", &model(name), &bad]);
    assert_ne!(code, 0, "{name}: {out}{err}");
    assert!(out.contains("does not claim `order_lost_"), "{out}{err}");
}

#[test]
fn ticket_locks_hold_for_every_n_over_the_order_of_their_tickets() {
    for name in ["ticket", "ticket_borrow", "ticket_buffer"] {
        let d = scratch_dir("order");
        let cert = d.join(format!("{name}.cert")).display().to_string();
        let (code, v) = json_run(&["check", &model(name), "--every-n", "--certificate", &cert]);
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(v["every_n"]["verdict"], "holds", "{name}: {v}");
        let how = v["every_n"]["properties"][0]["how"]
            .as_str()
            .or(v["every_n"]["how"].as_str())
            .unwrap_or_default()
            .to_string();
        assert!(
            how.contains("over their order") || v.to_string().contains("over their order"),
            "{name}: {v}"
        );
        let text = std::fs::read_to_string(&cert).unwrap();
        assert!(text.contains("abstraction order"), "{text}");
        assert!(text.contains("proves order_lost_"), "{text}");
        certified_and_refused_without_a_lost_claim(name, &cert, &text, "proves order_lost_");
    }
}

#[test]
fn level_barriers_hold_for_every_n_over_the_differences_of_their_levels() {
    // Over the order alone `leave` loses (a step from one level below); with the
    // differences kept up to the step, it lands exactly (files' headers).
    for (name, k) in [("level_barrier", 1), ("level_barrier_step2", 2)] {
        let d = scratch_dir("order");
        let cert = d.join(format!("{name}.cert")).display().to_string();
        let (code, v) = json_run(&["check", &model(name), "--every-n", "--certificate", &cert]);
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(v["every_n"]["verdict"], "holds", "{name}: {v}");
        assert!(
            v.to_string()
                .contains(&format!("differences up to {k} kept exactly")),
            "{name}: {v}"
        );
        let text = std::fs::read_to_string(&cert).unwrap();
        assert!(
            text.contains(&format!("abstraction order diff {k}\n")),
            "{text}"
        );
        certified_and_refused_without_a_lost_claim(name, &cert, &text, "proves order_lost_Ord");
        // Read over the order alone (the width left out), the lemmas speak of
        // relation values that model has not: never accepted.
        let plain = text.replace(&format!("abstraction order diff {k}"), "abstraction order");
        let bad = format!("{cert}.plain");
        std::fs::write(&bad, plain).unwrap();
        let (code, out, err) = nfold(&["certify", &model(name), &bad]);
        assert_ne!(code, 0, "{name}: {out}{err}");
    }
}

#[test]
fn buggy_twins_are_never_claimed_for_every_n() {
    // (twin, first failing size, its shortest depth): from each file's header.
    for (name, first, depth) in [
        ("ticket_borrow_bug", 3, 7),
        ("ticket_borrow4_bug", 4, 8),
        ("level_barrier_pair_bug", 3, 4),
        ("level_barrier_ahead_bug", 2, 5),
    ] {
        // Asked only below the first failing size: every size asked holds (the
        // levels, unbounded, within the int window), and the claim for every n must
        // still not be made.
        let below = format!("1..{}", first - 1);
        let (code, v) = every(name, &below);
        assert_ne!(v["every_n"]["verdict"], "holds", "{name} at {below}: {v}");
        assert_ne!(code, 0, "{name}: {v}");
        for r in v["results"].as_array().unwrap() {
            // The window's own `int_bound` rows (the levels grow) are not the property.
            if r["property"] != "unsafe1" {
                continue;
            }
            let ok = r["verdict"] == "holds"
                || (name.starts_with("level") && r["verdict"] == "within_int_window");
            assert!(ok, "{name}: {r}");
        }
        // With the failing size: violated there, at the derived depth.
        let upto = format!("1..{}", first + 1);
        let (code, v) = every(name, &upto);
        assert_eq!(code, 1, "{name}: {v}");
        assert_eq!(v["every_n"]["verdict"], "violated", "{name}: {v}");
        for r in v["results"].as_array().unwrap() {
            if r["property"] != "unsafe1" {
                continue;
            }
            let size = r["size"].as_u64().unwrap();
            if size < first {
                assert_ne!(r["verdict"], "violated", "{name}: {r}");
            } else {
                assert_eq!(r["verdict"], "violated", "{name}: {r}");
                if size == first {
                    assert_eq!(r["depth"].as_u64(), Some(depth), "{name}: {r}");
                }
            }
        }
    }
}

#[test]
fn free_initial_values_that_matter_are_never_claimed_for_every_n() {
    // (twin, first failing size, its shortest depth): from each file's header. The
    // free buffer B is read before it is written (flags raised by `init`, or by a
    // `leave` that does not store into B), so it is not taken as starting at 0.
    for (name, first, depth) in [
        ("ticket_buffer_bug", 2, 6),
        ("ticket_buffer_leak_bug", 2, 8),
    ] {
        let below = format!("1..{}", first - 1);
        let (code, v) = every(name, &below);
        assert_ne!(v["every_n"]["verdict"], "holds", "{name} at {below}: {v}");
        assert_ne!(code, 0, "{name}: {v}");
        let upto = format!("1..{}", first + 1);
        let (code, v) = every(name, &upto);
        assert_eq!(code, 1, "{name}: {v}");
        assert_eq!(v["every_n"]["verdict"], "violated", "{name}: {v}");
        // Only the property asked: the window's own `int_bound` rows are not it.
        for r in v["results"].as_array().unwrap() {
            if r["property"] != "unsafe1" {
                continue;
            }
            let size = r["size"].as_u64().unwrap();
            if size < first {
                assert_ne!(r["verdict"], "violated", "{name}: {r}");
            } else {
                assert_eq!(r["verdict"], "violated", "{name}: {r}");
                assert_eq!(r["depth"].as_u64(), Some(depth), "{name}: {r}");
            }
        }
    }
}
