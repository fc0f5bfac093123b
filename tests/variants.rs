//! The same protocol written another way gets the same answers (issue 43): every
//! family and generated models, rewritten by each variant of tests/common/variants.rs
//! (an unread counter, an unread scratch memory, a constant row in every guard, a
//! stored id, a duplicated cell, names and order, a split transition), through the
//! command line with the reduction on (the default): the same verdict and shortest
//! depth per (property, size) with the default engine, the same answers for every n,
//! for the `ltl` properties with and without weak fairness, and for deadlocks; and,
//! for variants 1-3, the explicit search stores exactly the original's states.
//! Without the reduction the variants' own runs say the same (a check of the
//! variants, not of the reduction).

use crate::common::generator::Gen;
use crate::common::variants::{NAMES, variant};
use crate::common::{Rng, families, fresh_dir, nfold, write_file};
use serde_json::Value;

/// (size, kind, verdict, depth) of every row; names are left out (variant 6 renames
/// the properties) but the order of the rows is the model's.
type Rows = Vec<(u64, String, String, Option<u64>)>;

fn rows(v: &Value) -> Rows {
    v["results"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| {
                    (
                        r["size"].as_u64().unwrap_or(0),
                        r["kind"].as_str().unwrap_or("").to_string(),
                        r["verdict"].as_str().unwrap_or("").to_string(),
                        r["depth"].as_u64(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The states each row reports (explicit search).
fn states(v: &Value) -> Vec<Option<u64>> {
    v["results"]
        .as_array()
        .map(|rs| rs.iter().map(|r| r["states"].as_u64()).collect())
        .unwrap_or_default()
}

/// The verdict for every n per property, in order.
fn every(v: &Value) -> Vec<String> {
    v["every_n"]["properties"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| p["verdict"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// What is compared, per command: the rows, and for the explicit search of variants
/// 1-3 the states stored.
struct Answers {
    runs: Vec<(String, Rows)>,
    every: Vec<String>,
    states: Vec<Option<u64>>,
    internal: Vec<String>,
}

fn answers(file: &str, has_ltl: bool, sizes: &str) -> Answers {
    let mut runs = Vec::new();
    let mut internal = Vec::new();
    let mut run = |what: &str, args: &[&str]| -> Value {
        let mut a = args.to_vec();
        a.push("--json");
        let (_, out, err) = nfold(&a);
        let v: Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{what}: bad JSON ({e}):\n{out}\n{err}"));
        for line in err.lines().filter(|l| l.contains("internal error")) {
            internal.push(format!("{what}: {line}"));
        }
        runs.push((what.to_string(), rows(&v)));
        v
    };
    run("check", &["check", file, "--sizes", sizes]);
    let explicit = run(
        "explicit",
        &["check", file, "--sizes", sizes, "--engine", "explicit"],
    );
    run(
        "deadlock",
        &[
            "check",
            file,
            "--sizes",
            sizes,
            "--engine",
            "explicit",
            "--deadlock",
        ],
    );
    if has_ltl {
        run("live", &["live", file, "--sizes", sizes]);
        run("live fair", &["live", file, "--sizes", sizes, "--fair"]);
    }
    let e = run("every", &["check", file, "--every-n", "--sizes", "1..2"]);
    Answers {
        runs,
        every: every(&e),
        states: states(&explicit),
        internal,
    }
}

/// Compare the answers of `original` and of its variants (files in `dir`).
fn compare(dir: &std::path::Path, name: &str, original: &nfold::model::ir::Model, sizes: &str) {
    let has_ltl = !original.ltls.is_empty();
    let text = nfold::lang::print::model_text(original);
    let base = write_file(dir, &format!("{name}.cub"), &text);
    let want = answers(&base, has_ltl, sizes);
    assert!(want.internal.is_empty(), "{name}: {:?}", want.internal);
    for k in 1..=NAMES.len() {
        let Some(v) = variant(original, k) else {
            continue;
        };
        let label = format!("{name} variant {} ({})", k, NAMES[k - 1]);
        // The variant is a model of the language.
        if let Err(e) = nfold::lang::load_str("v.cub", &v) {
            panic!("{label} does not load: {}\n{v}", e.render());
        }
        let file = write_file(dir, &format!("{name}_v{k}.cub"), &v);
        let got = answers(&file, has_ltl, sizes);
        assert!(got.internal.is_empty(), "{label}: {:?}", got.internal);
        for ((what, a), (_, b)) in want.runs.iter().zip(&got.runs) {
            // A lasso of the variant must also bring its unread counter or memory
            // back around: its cycle may be longer than the original's (a multiple
            // of it); safety traces keep their shortest depth.
            let no_lasso_depth = |rs: &Rows| -> Rows {
                rs.iter()
                    .map(|(n, k, v, d)| {
                        (*n, k.clone(), v.clone(), if k == "ltl" { None } else { *d })
                    })
                    .collect()
            };
            assert_eq!(
                no_lasso_depth(a),
                no_lasso_depth(b),
                "{label}: `{what}` answers differ\n{v}"
            );
        }
        assert_eq!(
            want.every, got.every,
            "{label}: answers for every n differ\n{v}"
        );
        if k <= 3 {
            assert_eq!(
                want.states, got.states,
                "{label}: states stored differ\n{v}"
            );
        }
    }
}

#[test]
fn every_family_and_its_variants_get_the_same_answers() {
    let dir = fresh_dir("variants-families");
    for (name, m) in families() {
        compare(&dir, &name, &m, "1..3");
    }
}

#[test]
fn generated_models_and_their_variants_get_the_same_answers() {
    let dir = fresh_dir("variants-generated");
    for seed in 0..12u64 {
        let mut generator = Gen {
            rng: Rng::new(seed * 7919 + 5),
            asym: seed % 3 == 0,
            extra: seed % 5 == 2,
        };
        let text = generator.model().text();
        let Ok(m) = nfold::lang::load_str("g.cub", &text) else {
            continue;
        };
        compare(&dir, &format!("gen{seed}"), &m, "1..2");
    }
}

/// `nfold reduce FILE --size N` prints the reduced model as `.cub` that the loader reads
/// back: the R/W lock with unread digits, memory and cursor reduces to the bare lock,
/// whose explicit search at n = 3 gives the same verdicts and the same 5 states (the
/// bare lock's count: idle, one to three readers, one writer, up to symmetry).
#[test]
fn the_reduced_model_is_printed_and_read_back() {
    let dir = crate::common::fresh_dir("reduce_cmd");
    let (code, text, err) = crate::common::nfold(&[
        "reduce",
        "benches/models/rw_lock_scratch.cub",
        "--size",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("K[*], Mem[*], Ptr: read by nothing asked"),
        "{text}"
    );
    let file = crate::common::write_file(&dir, "reduced.cub", &text);
    let run = |f: &str| {
        let (_, v) = crate::common::json_run(&["check", f, "--size", "3", "--engine", "explicit"]);
        (rows(&v), states(&v))
    };
    let (reduced, original) = (run(&file), run("benches/models/rw_lock_scratch.cub"));
    assert_eq!(reduced, original);
    assert_eq!(reduced.1, vec![Some(5), Some(5)]);
    assert_eq!(run("benches/models/rw_lock.cub"), original);
}

/// A write-back that can never fire (its command stays `None`: nothing sets it to
/// `Wb`), copying a cell only it reads into one a property reads, as in Cubicle's Flash
/// models: the reduction drops it, slices the copied cell away, and its check on the
/// model accepts that (the constant disables the write-back). `Mem` then stays `False`,
/// so `dirty` holds at every size, by the reduced run as by the unreduced one, with no
/// internal error (before, the check refused the slice and every answer was unknown).
#[test]
fn a_transition_the_constants_disable_may_read_what_is_sliced() {
    let src = "type cmd = None | Wb\nvar WbCmd : cmd\nvar WbData : bool\nvar Mem : bool\n\
               array P[proc] : bool\n\
               init (x) { WbCmd = None && P[x] = False && Mem = False }\n\
               unsafe dirty (x) { P[x] = True && Mem = True }\n\
               transition wb () requires { WbCmd = Wb } { WbCmd := None; Mem := WbData; }\n\
               transition flip () { WbData := True; }\n\
               transition set (x) requires { P[x] = False } { P[x] := True; }\n";
    let dir = crate::common::fresh_dir("reduce_disabled");
    let f = crate::common::write_file(&dir, "writeback.cub", src);
    let (_, text, _) = crate::common::nfold(&["reduce", &f, "--size", "2"]);
    assert!(text.contains("WbData: read by nothing asked"), "{text}");
    assert!(text.contains("wb: cannot fire"), "{text}");
    for extra in [None, Some("--no-reduce")] {
        let mut args = vec!["check", &f, "--sizes", "1..3"];
        args.extend(extra);
        let (code, v) = crate::common::json_run(&args);
        assert_eq!(code, 0, "{extra:?}: {v}");
        for r in crate::common::rows(&v) {
            assert_eq!(r.verdict, "holds", "{extra:?}: {r:?}");
            assert!(r.internal_errors.is_empty(), "{extra:?}: {r:?}");
        }
    }
}

/// Not a check: writes the models of the virtual-best measurement on models nobody
/// tuned for (docs/engines.md, "The default against every engine") into the directory
/// `NFOLD_VB_DIR`: generated models (symmetric or not, with the extra id or not, and
/// some with their range made `0 .. N - 2`, empty at size 1), and variants 1-8 of the
/// families named by `NFOLD_VB_FAMILIES` (comma-separated stems; default all).
/// `NFOLD_VB_DIR=/tmp/vb cargo test --release --test all -- --ignored write_models_for_the_virtual_best`
#[test]
#[ignore]
fn write_models_for_the_virtual_best() {
    let Some(dir) = std::env::var_os("NFOLD_VB_DIR").map(std::path::PathBuf::from) else {
        return;
    };
    let gen_dir = dir.join("generated");
    let var_dir = dir.join("variants");
    std::fs::create_dir_all(&gen_dir).unwrap();
    std::fs::create_dir_all(&var_dir).unwrap();
    write_generated(&gen_dir, 24, 8);
    let only: Option<Vec<String>> = std::env::var("NFOLD_VB_FAMILIES")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    for (name, m) in families() {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        for k in 1..=NAMES.len() {
            if let Some(v) = variant(&m, k) {
                write_file(&var_dir, &format!("{name}_{}.cub", NAMES[k - 1]), &v);
            }
        }
    }
}

/// `plain` generated models that load, then `empty` more whose range `0 .. N` became
/// `0 .. N - 2`; models with a `[proc, proc]` array of a range left out (3^16 initial
/// states at size 4 and more: a measure of the explicit search's limit only).
fn write_generated(dir: &std::path::Path, plain: usize, empty: usize) {
    let (mut written, mut emptied) = (0, 0);
    for seed in 20261201u64..20261201 + 2000 {
        if written >= plain && emptied >= empty {
            break;
        }
        let mut generator = Gen {
            rng: Rng::new(seed),
            asym: seed % 3 == 0,
            extra: seed % 5 == 2,
        };
        let g = generator.model();
        let text = g.text();
        if text.contains("proc, proc] : lvl") {
            continue;
        }
        let want_empty = g.range_hi == "N" && text.contains(": lvl") && emptied < empty;
        let text = if want_empty {
            text.replace("type lvl = 0 .. N\n", "type lvl = 0 .. N - 2\n")
        } else if written < plain {
            text
        } else {
            continue;
        };
        if nfold::lang::load_str("g.cub", &text).is_err() {
            continue;
        }
        let name = if want_empty {
            emptied += 1;
            format!("empty_{seed}.cub")
        } else {
            written += 1;
            format!("gen_{seed}.cub")
        };
        write_file(dir, &name, &format!("// seed {seed}\n{text}"));
    }
}
