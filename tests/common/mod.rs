//! Oracles and helpers shared by the integration tests.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

pub mod abc;
pub mod fair_scc;
pub mod generator;
pub mod reference;
pub mod variants;

use nfold::explicit::reach::{ReachOptions, ReachResult, check_size};
use nfold::lasso::Lasso;
use nfold::model::eval::Step;
use nfold::model::instance::Instance;
use nfold::model::ir::Model;
use nfold::schema::{CheckDoc, Row};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Expected verdict per family: the sizes from which the property is violated and the
/// shortest depth (from the family headers).
/// (family, property, Some((first failing size, shortest depth)) or None when it holds)
pub type Expected = (&'static str, &'static str, Option<(u64, u64)>);

pub const VERDICTS: &[Expected] = &[
    ("mutex", "mutex", None),
    ("mutex_bug", "mutex", Some((2, 6))),
    ("token_mutex", "mutex", None),
    ("token_mutex", "crit_holds_token", None),
    ("german", "coherence", None),
    ("german_bug", "coherence", Some((2, 8))),
    ("mesi", "modified_alone", None),
    ("mesi", "exclusive_alone", None),
    ("peterson", "mutex", None),
    ("grant_mutex", "mutex", None),
    ("token_ring", "mutex", None),
    ("token_ring", "crit_holds_token", None),
    ("ticket_lock", "mutex", None),
    ("oddeven_sort", "unsorted", None),
    // tests/oracle/live_oracle.py and the headers' arguments; mcs_lock's `mutex` is
    // pinned in tests/families_new.rs only (IC3 takes minutes on it, see the header).
    ("readers_writers", "two_writers", None),
    ("readers_writers", "writer_and_reader", None),
    ("handoff_lock", "mutex", None),
    // The mutual-exclusion argument in the header (ordered symmetric).
    ("burns", "mutex", None),
];

/// Runs the `nfold` binary from the crate root: exit code, stdout, stderr. Fails the
/// test if anything panicked or a backtrace hint reached the user.
pub fn nfold(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run nfold");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(
        !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
        "panic:\n{e}"
    );
    (out.status.code().unwrap_or(-1), o, e)
}

/// A directory of the system's temporary directory for one test's files,
/// `nfold-NAME-PID`, created if missing. Every test runs in the one process of
/// tests/all.rs, so each test names its own.
pub fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nfold-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `scratch_dir`, emptied of what an earlier run left.
pub fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nfold-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `text` to `dir/name` and returns the file's path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// The path of a shipped family, from the crate root.
pub fn family(name: &str) -> String {
    format!("families/{name}.cub")
}

/// Loads a model file: a path from the crate root, or an absolute one.
pub fn load(path: &str) -> Model {
    let p = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
    };
    nfold::lang::load_file(&p).unwrap()
}

/// Loads a model from its text, failing the test with the rendered error.
pub fn model(src: &str) -> Model {
    nfold::lang::load_str("t.cub", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The explicit engine's run at size `n`, with or without symmetry reduction; fails the
/// test on an internal error.
pub fn explicit(m: &Model, n: usize, symmetry: bool) -> ReachResult {
    let r = check_size(
        m,
        n,
        &ReachOptions {
            symmetry,
            ..Default::default()
        },
    );
    assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
    r
}

/// Runs `nfold ... --json`: exit code and the parsed document.
pub fn json_run(args: &[&str]) -> (i32, Value) {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = nfold(&a);
    let v: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{out}\n{err}"));
    (code, v)
}

/// `v` without the fields named `keys`, at any depth (what differs between runs that
/// must otherwise agree: times, memory, the command line).
pub fn without_keys(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            m.values_mut().for_each(|x| without_keys(x, keys));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| without_keys(x, keys)),
        _ => {}
    }
}

/// The document of `nfold check/live --json`, read through the library's own types (a
/// field missing or of the wrong shape fails the test here).
pub fn check_doc(v: &Value) -> CheckDoc {
    serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("not a check/live document ({e}):\n{v:#}"))
}

/// The rows of a `nfold check/live --json` document, one per size and property.
pub fn rows(v: &Value) -> Vec<Row> {
    check_doc(v).results
}

/// A JSON array of integers.
pub fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect()
}

/// A cell's value in a printed trace as the interpreter names it: a JSON number for
/// numeric types, a string otherwise.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Number(k) => k.to_string(),
        Value::String(s) => s.clone(),
        other => panic!("a cell value is a number or a name, not {other}"),
    }
}

/// The initial state of a printed trace or lasso (`"init": {cell: value name}`).
pub fn init_from_json(inst: &Instance, t: &Value) -> Vec<i64> {
    let init_obj = t["init"].as_object().unwrap();
    (0..inst.slots.len())
        .map(|s| {
            let want = value_text(&init_obj[&inst.cell_name(s)]);
            let (lo, hi) = (inst.slots[s].lo, inst.slots[s].hi);
            (lo..=hi)
                .find(|&v| inst.slot_value_name(s, v) == want)
                .unwrap()
        })
        .collect()
}

/// The steps of a printed trace or lasso (`"steps": [{"transition", "params",
/// "choices"}]`).
pub fn steps_from_json(model: &Model, t: &Value) -> Vec<Step> {
    t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Step {
            trans: model
                .transition_by_name(s["transition"].as_str().unwrap())
                .unwrap(),
            params: ints(&s["params"]),
            choices: ints(&s["choices"]),
        })
        .collect()
}

/// A printed lasso (`"kind": "lasso"`) rebuilt from its JSON form: property, process,
/// initial state, steps, where the cycle starts and whether it was asked fair.
pub fn lasso_from_json(model: &Model, size: usize, t: &Value) -> Lasso {
    assert_eq!(t["kind"], "lasso", "{t}");
    let inst = Instance::new(model, size);
    Lasso {
        size,
        prop: model
            .ltls
            .iter()
            .position(|l| l.name == t["property"].as_str().unwrap())
            .unwrap(),
        process: t["process"].as_i64(),
        init: init_from_json(&inst, t),
        steps: steps_from_json(model, t),
        loop_start: t["loop_start"].as_u64().unwrap() as usize,
        fair: t["fair"].as_bool().unwrap(),
    }
}

/// The shipped families, by file stem, sorted.
pub fn families() -> Vec<(String, Model)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/families")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cub") {
            let m = nfold::lang::load_file(p.to_str().unwrap()).unwrap();
            out.push((p.file_stem().unwrap().to_string_lossy().into_owned(), m));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// xorshift64*: a small, seeded, reproducible generator for the tests.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator whose state is spread from `seed` (any seed, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// A number in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// The certificate at `cert` rests on the order abstraction (docs/every-n.md), claims
/// no int window, and `nfold certify` accepts it for `model`; returns certify's output.
pub fn assert_order_certificate(model: &str, cert: &str) -> String {
    let text = std::fs::read_to_string(cert).unwrap();
    assert!(text.contains("abstraction order"), "{text}");
    assert!(!text.contains("int_bound"), "{text}");
    let (code, out, err) = nfold(&["certify", model, cert]);
    assert_eq!(code, 0, "{out}{err}");
    out
}
