//! The distributed explicit search (`check --distributed`, timely dataflow): on one
//! process with several workers and as two processes over TCP on localhost, it stores
//! the pinned state counts (tests/oracle/counts.txt, via `cli::COUNTS`) and finds the
//! shortest counterexamples of the family headers (`common::VERDICTS`), replayed; its
//! errors (a peer that never comes, a bad hostfile) are clear and bounded in time.

use crate::cli::{COUNTS, replay_json};
use crate::common::{VERDICTS, family, json_run, load, nfold, rows};
use serde_json::Value;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pinned (states, orbits) of a family at size n.
fn pinned(fam: &str, n: u64) -> (u64, u64) {
    let &(_, _, states, orbits) = COUNTS
        .iter()
        .find(|c| c.0 == fam && c.1 == n)
        .expect("a pinned count");
    (states, orbits)
}

/// The pinned shortest depth of a family's violated property.
fn pinned_depth(fam: &str) -> (u64, u64) {
    VERDICTS
        .iter()
        .find(|v| v.0 == fam)
        .and_then(|v| v.2)
        .expect("a pinned violation")
}

/// Two free ports on 127.0.0.1, as a hostfile.
fn hostfile(name: &str) -> String {
    let ports: Vec<u16> = (0..2)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect::<Vec<_>>()
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect();
    let dir = crate::common::fresh_dir(name);
    crate::common::write_file(
        &dir,
        "hosts",
        &format!(
            "# process 0 first\n127.0.0.1:{}\n127.0.0.1:{}\n",
            ports[0], ports[1]
        ),
    )
}

/// Run `args` as processes 0 and 1 of two on localhost: process 0's exit code and
/// JSON document; process 1 must exit alike and print nothing on stdout.
fn two_processes(name: &str, args: &[&str]) -> (i32, Value) {
    let hosts = hostfile(name);
    let dist = ["--distributed", "--processes", "2", "--hostfile", &hosts];
    let mut one: Vec<&str> = args.to_vec();
    one.extend_from_slice(&dist);
    one.extend_from_slice(&["--process", "1", "--json"]);
    let follower = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args(&one)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start process 1");
    let mut zero: Vec<&str> = args.to_vec();
    zero.extend_from_slice(&dist);
    zero.extend_from_slice(&["--process", "0"]);
    let (code, v) = json_run(&zero);
    let out = follower.wait_with_output().expect("process 1 ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "process 1:\n{err}");
    assert_eq!(out.status.code(), Some(code), "process 1:\n{err}");
    assert!(out.stdout.is_empty(), "process 1 printed on stdout");
    (code, v)
}

fn states_of(v: &Value) -> Vec<u64> {
    rows(v)
        .iter()
        .map(|r| r.stats.states.expect("states") as u64)
        .collect()
}

#[test]
fn one_process_with_several_workers_stores_the_pinned_counts() {
    let f = family("german");
    for extra in [&[][..], &["--no-symmetry"][..]] {
        let mut a = vec!["check", &f, "--sizes", "1..3", "--engine", "explicit"];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--distributed", "--workers", "3"]);
        let (code, v) = json_run(&a);
        assert_eq!(code, 0);
        let want: Vec<u64> = (1..=3)
            .map(|n| {
                let (s, o) = pinned("german", n);
                if extra.is_empty() { o } else { s }
            })
            .collect();
        assert_eq!(states_of(&v), want, "german {extra:?}");
        assert!(rows(&v).iter().all(|r| r.verdict == "holds"));
    }
    // The shortest counterexample, at every size, on two workers.
    let f = family("mutex_bug");
    let (first, depth) = pinned_depth("mutex_bug");
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1..4",
        "--distributed",
        "--workers",
        "2",
    ]);
    assert_eq!(code, 1);
    let model = load(&f);
    for (r, row) in v["results"].as_array().unwrap().iter().zip(rows(&v)) {
        if (row.size as u64) < first {
            assert_eq!(row.verdict, "holds");
            continue;
        }
        assert_eq!(
            (row.verdict.as_str(), row.depth),
            ("violated", Some(depth as usize))
        );
        if !r["trace"].is_null() && r["trace"]["steps"].is_array() {
            replay_json(&model, row.size, "mutex", &r["trace"]);
        }
    }
}

#[test]
fn two_processes_on_localhost_store_the_pinned_counts_and_the_shortest_trace() {
    let f = family("german");
    let (states, orbits) = pinned("german", 3);
    let (code, v) = two_processes(
        "dist-german",
        &["check", &f, "--size", "3", "--engine", "explicit"],
    );
    assert_eq!(code, 0);
    assert_eq!(states_of(&v), vec![orbits]);
    assert!(
        v["engine_text"]
            .as_str()
            .unwrap()
            .contains("2 process(es) x 1 worker(s)")
    );
    let (_, v) = two_processes(
        "dist-german-nosym",
        &[
            "check",
            &f,
            "--size",
            "3",
            "--engine",
            "explicit",
            "--no-symmetry",
        ],
    );
    assert_eq!(states_of(&v), vec![states]);
    // german_bug: the sequential search's depth, the header's, and a replayed trace.
    let f = family("german_bug");
    let (n, depth) = pinned_depth("german_bug");
    let size = n.to_string();
    let (code, v) = two_processes("dist-german-bug", &["check", &f, "--size", &size]);
    assert_eq!(code, 1);
    let (_, seq) = json_run(&["check", &f, "--size", &size, "--engine", "explicit"]);
    let row = &rows(&v)[0];
    assert_eq!(row.verdict, "violated");
    assert_eq!(row.depth, Some(depth as usize));
    assert_eq!(row.depth, rows(&seq)[0].depth);
    replay_json(
        &load(&f),
        n as usize,
        "coherence",
        &v["results"][0]["trace"],
    );
}

#[test]
fn an_absent_peer_and_a_bad_hostfile_are_clear_errors() {
    let hosts = hostfile("dist-absent");
    let f = family("mutex");
    let t0 = Instant::now();
    let (code, _, err) = nfold(&[
        "check",
        &f,
        "--size",
        "2",
        "--distributed",
        "--processes",
        "2",
        "--process",
        "1",
        "--hostfile",
        &hosts,
        "--connect-timeout",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("process 1: process 0 at 127.0.0.1:"), "{err}");
    assert!(err.contains("not reachable within 1 s"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(8));
    let (code, _, err) = nfold(&[
        "check",
        &f,
        "--size",
        "2",
        "--distributed",
        "--processes",
        "3",
        "--hostfile",
        &hosts,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("2 address(es) for 3 process(es)"), "{err}");
    let (code, _, err) = nfold(&[
        "check",
        &f,
        "--size",
        "2",
        "--distributed",
        "--processes",
        "2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --hostfile"), "{err}");
    let (code, _, err) = nfold(&["check", &f, "--size", "2", "--workers", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("belong to --distributed"), "{err}");
}
