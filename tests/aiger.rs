//! AIGER export (`nfold aiger`, src/bmc/aiger/mod.rs).
//!
//! - A reader of binary AIGER 1.9 written for the tests (tests/common/aig_reader.rs),
//!   independently of the writer, parses every exported file: header counts, latch
//!   lines with reset values, bad outputs, the delta-encoded AND gates (each after its
//!   inputs, larger input first), the symbol table. Every family and regression model
//!   is exported at size 2, the aggregate 1..3 and with `--init-inputs`, and the files
//!   checked for structure: no constant, repeated or complementary gate inputs, no gate
//!   twice, no gate outside the cones of the latches and bad outputs, every symbol
//!   named.
//! - The file's transition relation, turned into CNF, against the reference interpreter
//!   (src/model/eval.rs) on every family at sizes 1..3 and on models with range errors,
//!   errors in `init`, `any` and `X := .`, with reset values and with every bit read
//!   from an input: at time 0 exactly the initial states satisfy the constraints (a
//!   state that differs from a reset value is not initial); from a reached state the
//!   successors under the constraints are exactly the interpreter's successors plus the
//!   state itself (the idle step); each bad output is the interpreter's verdict on the
//!   state (a violation without a range error, or a range error).
//! - Where Debian's `berkeley-abc` is installed (the test prints a note and passes
//!   otherwise): ABC's `pdr -a` on the exported file gives nfold's explicit-engine
//!   verdict per property for every family at sizes 1..4, on the aggregate 1..4 (and
//!   2..4 for the buggy families) and at size 3 with `--init-inputs`; outputs ABC
//!   leaves undecided within its time limit are reported, and at least three quarters
//!   of the files must be decided. For each violated output ABC's `bmc3` finds it at
//!   exactly nfold's shortest depth (the depth relation of the module comment: time k
//!   is depth k), `pdr` at that depth or deeper.

use crate::aig_reader;
use crate::common;

use aig_reader::{Aig, parse, sat_lit};
use common::abc::{abc, abc_available};
use common::{json_run, nfold, scratch_dir};
use nfold::model::eval::{satisfies_init, successors, violation};
use nfold::model::init::initial_states;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::Model;
use nfold::sat::{Backend, Cnf, Lit, SolveResult, SolverKind, Stop};
use nfold::transys::Transys;
use nfold::transys::frame::Encoding;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

// ---------------------------------------------------------------------------------
// The exported relation against the interpreter.
// ---------------------------------------------------------------------------------

/// Latch `name:k` ↦ (slot, bit) for the cells of the instance.
fn bit_layout(aig: &Aig, inst: &Instance, nbits: usize) -> Vec<(usize, usize)> {
    let slots: HashMap<String, usize> = (0..inst.slots.len())
        .map(|s| (inst.cell_name(s), s))
        .collect();
    let mut out = Vec::new();
    let mut bits_per_slot = vec![0; inst.slots.len()];
    for k in 0..nbits {
        let name = &aig.latch_names[&k];
        let (cell, bit) = name.rsplit_once(':').unwrap();
        let s = slots[cell];
        let bit: usize = bit.parse().unwrap();
        bits_per_slot[s] += 1;
        out.push((s, bit));
    }
    for (s, sl) in inst.slots.iter().enumerate() {
        let size = (sl.hi - sl.lo + 1) as u64;
        let want = 64 - (size - 1).leading_zeros() as usize;
        assert_eq!(bits_per_slot[s], want, "bits of {}", inst.cell_name(s));
    }
    out
}

fn encode(inst: &Instance, layout: &[(usize, usize)], st: &[i64]) -> Vec<bool> {
    layout
        .iter()
        .map(|&(s, b)| ((st[s] - inst.slots[s].lo) >> b) & 1 == 1)
        .collect()
}

/// What the interpreter says of a state: per property a violation (without range
/// error), and whether a range error is met (a transition instance or a property).
fn verdicts(inst: &Instance, st: &[i64]) -> (Vec<bool>, bool) {
    let mut range = !successors(inst, st).1.is_empty();
    let mut out = Vec::new();
    for u in &inst.model.unsafes {
        match violation(inst, st, u) {
            Ok(v) => out.push(v.is_some()),
            Err(_) => {
                out.push(false);
                range = true;
            }
        }
    }
    (out, range)
}

struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What `check_relation` saw: states checked, state bits, bits read from `init:` inputs.
struct Checked {
    states: usize,
    bits: usize,
    free: usize,
}

/// Export `model` at size n through the library (constant initial bits as reset values
/// or not), read it back and check it against the interpreter on up to `max_states`
/// reached states.
fn check_relation(
    name: &str,
    model: &Model,
    n: usize,
    max_states: usize,
    reset_values: bool,
) -> Checked {
    let mut ts = Transys::new(model, n, n, Encoding::Binary);
    let props: Vec<usize> = (0..model.unsafes.len()).collect();
    let aig = nfold::bmc::aiger::build(&mut ts, &props, reset_values);
    let mut bytes = Vec::new();
    aig.write(&mut bytes).unwrap();
    let aig = parse(&bytes).unwrap_or_else(|e| panic!("{name} n={n}: unreadable AIGER: {e}"));
    let ctx = format!("{name} n={n} reset values {reset_values}");
    // Header and names.
    assert!(
        aig.outputs.is_empty() && aig.constraints.is_empty(),
        "{ctx}"
    );
    assert_eq!((aig.justice, aig.fairness), (0, 0), "{ctx}");
    assert!(aig.latches.iter().all(|&(_, r)| r <= 1), "{ctx}: resets");
    let mut want_bad: Vec<String> = model.unsafes.iter().map(|u| u.name.clone()).collect();
    want_bad.push("range_error".into());
    let got_bad: Vec<String> = (0..aig.bad.len())
        .map(|k| aig.bad_names[&k].clone())
        .collect();
    assert_eq!(got_bad, want_bad, "{ctx}");
    let nl = aig.latches.len();
    assert_eq!(aig.latch_names[&(nl - 1)], "nfold:invalid");
    let started = aig.latch_names.iter().find(|(_, n)| *n == "nfold:started");
    if let Some((&k, _)) = started {
        assert_eq!(k, nl - 2, "{ctx}");
        assert_eq!(aig.latches[k], (1, 0), "{ctx}: started resets to 0, next 1");
    }
    let nbits = nl - 1 - started.is_some() as usize;
    let inst = Instance::new(model, n);
    let layout = bit_layout(&aig, &inst, nbits);
    let inputs = aig.input_by_name();
    // Per state bit: its init: input, or None for a bit with a reset value.
    let init_inputs: Vec<Option<usize>> = (0..nbits)
        .map(|k| {
            inputs
                .get(&format!("init:{}", aig.latch_names[&k]))
                .copied()
        })
        .collect();
    let free = init_inputs.iter().filter(|x| x.is_some()).count();
    assert_eq!(free > 0, started.is_some(), "{ctx}: started iff a free bit");
    assert_eq!(
        aig.num_inputs as usize - free,
        ts.inputs.len(),
        "{ctx}: step inputs"
    );
    let resets: Vec<bool> = aig.latches.iter().map(|&(_, r)| r == 1).collect();

    let mut cnf = Cnf::default();
    let vars = aig.to_cnf(&mut cnf);
    let mut solver: Box<dyn Backend> = SolverKind::default_kind().create().unwrap();
    let stop = Stop::default();
    let latch_lit = |k: usize| vars[aig.latch_var(k) as usize];
    let input_lit = |k: usize| vars[k + 1];
    let next_invalid = sat_lit(&vars, aig.latches[nl - 1].0);
    let nexts: Vec<Lit> = (0..nbits)
        .map(|k| sat_lit(&vars, aig.latches[k].0))
        .collect();
    let units = |bits: &[bool], lits: &dyn Fn(usize) -> Lit| -> Vec<Lit> {
        bits.iter()
            .enumerate()
            .map(|(k, &b)| if b { lits(k) } else { -lits(k) })
            .collect()
    };

    // Time 0: latches at their reset values, the free bits from the init: inputs.
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15 ^ n as u64);
    let initial = initial_states(&inst);
    let mut candidates: Vec<State> = match &initial {
        Ok(v) => v.iter().take(20).cloned().collect(),
        Err(e) => vec![e.state.clone()],
    };
    if let (Ok(v), None) = (&initial, started) {
        assert_eq!(v.len(), 1, "{ctx}: no free bit, one initial state");
    }
    for _ in 0..12 {
        candidates.push(
            inst.slots
                .iter()
                .map(|s| s.lo + (rng.next() % (s.hi - s.lo + 1) as u64) as i64)
                .collect(),
        );
    }
    for s in &candidates {
        let enc = encode(&inst, &layout, s);
        let init = satisfies_init(&inst, s);
        if (0..nbits).any(|k| init_inputs[k].is_none() && enc[k] != resets[k]) {
            // Not a state of time 0: not initial, and `init` does not err on it.
            assert_eq!(
                init,
                Ok(false),
                "{ctx}: {s:?} differs from the reset values"
            );
            continue;
        }
        let mut ins = vec![false; aig.num_inputs as usize];
        for (k, &b) in enc.iter().enumerate() {
            if let Some(i) = init_inputs[k] {
                ins[i] = b;
            }
        }
        let vals = aig.eval(&ins, &resets);
        let bad: Vec<bool> = aig.bad.iter().map(|&b| Aig::value(&vals, b)).collect();
        let (want, ok) = match init {
            Ok(true) => {
                let (p, r) = verdicts(&inst, s);
                ([p, vec![r]].concat(), true)
            }
            Ok(false) => (vec![false; bad.len()], false),
            Err(_) => {
                let mut v = vec![false; bad.len()];
                *v.last_mut().unwrap() = true;
                (v, false)
            }
        };
        assert_eq!(bad, want, "{ctx}: bad outputs at time 0 on {s:?}");
        let mut assume = units(&resets, &latch_lit);
        assume.extend(init_inputs.iter().zip(&enc).filter_map(|(&k, &b)| {
            let l = input_lit(k?);
            Some(if b { l } else { -l })
        }));
        assume.push(-next_invalid);
        let r = solver.solve(&cnf, &assume, &stop);
        assert_eq!(
            r == SolveResult::Sat,
            ok,
            "{ctx}: constraints at time 0 on {s:?}"
        );
    }

    // Reached states: bad outputs and the successor relation.
    let mut seen: HashSet<State> = HashSet::new();
    let mut queue: VecDeque<State> = initial_states(&inst)
        .map(|v| v.into_iter().collect())
        .unwrap_or_default();
    let mut checked = 0;
    while let Some(s) = queue.pop_front() {
        if checked >= max_states || !seen.insert(s.clone()) {
            continue;
        }
        checked += 1;
        let mut latches = encode(&inst, &layout, &s);
        latches.extend(started.map(|_| true));
        latches.push(false);
        let vals = aig.eval(&vec![false; aig.num_inputs as usize], &latches);
        let bad: Vec<bool> = aig.bad.iter().map(|&b| Aig::value(&vals, b)).collect();
        let (p, r) = verdicts(&inst, &s);
        assert_eq!(bad, [p, vec![r]].concat(), "{ctx}: bad outputs on {s:?}");
        let mut succ: Vec<State> = successors(&inst, &s).0.into_iter().map(|x| x.1).collect();
        succ.push(s.clone());
        succ.sort();
        succ.dedup();
        let mut assume = units(&latches, &latch_lit);
        assume.push(-next_invalid);
        for t in &succ {
            let mut a = assume.clone();
            a.extend(units(&encode(&inst, &layout, t), &|k| nexts[k]));
            let r = solver.solve(&cnf, &a, &stop);
            assert_eq!(r, SolveResult::Sat, "{ctx}: {s:?} -> {t:?} missing");
            queue.push_back(t.clone());
        }
        // No other successor: with every interpreter successor excluded, unsatisfiable.
        let act = cnf.new_var();
        for t in &succ {
            let mut cl = vec![-act];
            for (k, b) in encode(&inst, &layout, t).into_iter().enumerate() {
                cl.push(if b { -nexts[k] } else { nexts[k] });
            }
            cnf.add_clause(&cl);
        }
        assume.push(act);
        let r = solver.solve(&cnf, &assume, &stop);
        if r == SolveResult::Sat {
            let extra: Vec<bool> = nexts.iter().map(|&l| solver.value(l)).collect();
            panic!("{ctx}: a successor of {s:?} the interpreter does not have: {extra:?}");
        }
        assert_eq!(r, SolveResult::Unsat, "{ctx}");
    }
    Checked {
        states: checked,
        bits: nbits,
        free,
    }
}

const RANGE_MODEL: &str = "
type s = Idle | Busy
array A[proc] : 0 .. 2
array S[proc] : s
var T : proc
var R : 0 .. 3
init (z) { A[z] = 0 && S[z] = Idle && R = 0 }
unsafe two_busy (z1 z2) { S[z1] = Busy && S[z2] = Busy }
unsafe next_busy (z) { S[z + 1] = Busy }
transition inc (i) requires { S[i] = Idle } { A[i] := A[i] + 1; }
transition busy (i) requires { A[i] = 2 } { S[i] := Busy; T := any j. S[j] = Idle; }
transition hop (i) requires { i < N && A[i + 1] = 1 } { R := .; }
transition reset (i) requires { S[i] = Busy } { S[i] := Idle; A[i] := 0; }
";

/// `init` itself meets a range error on some states (`B[X + 1]` with X = N), and the
/// initial states leave X free.
const INIT_ERROR_MODEL: &str = "
array B[proc] : bool
var X : proc
var Y : bool
init (z) { B[X + 1] = False && B[z] = Y }
unsafe all_true (z) { B[z] = True && Y = True }
transition flip (i) requires { B[i] = False } { B[i] := True; Y := .; }
transition move (i j) requires { X = i } { X := j; }
";

/// The families and the regression models, loaded.
fn all_models() -> Vec<(String, Model)> {
    let mut dir: Vec<PathBuf> = std::fs::read_dir("families")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dir.extend(
        std::fs::read_dir("tests/regressions")
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    dir.sort();
    dir.iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cub"))
        .map(|p| {
            let name = p.display().to_string();
            (name.clone(), nfold::lang::load_file(&name).unwrap())
        })
        .collect()
}

#[test]
fn exports_are_well_formed() {
    let mut files = 0;
    for (name, m) in all_models() {
        for (lo, hi, reset_values) in [(2, 2, true), (1, 3, true), (3, 3, false)] {
            let ctx = format!("{name} {lo}..{hi} reset values {reset_values}");
            let mut ts = Transys::new(&m, lo, hi, Encoding::Binary);
            let props: Vec<usize> = (0..m.unsafes.len()).collect();
            let mut bytes = Vec::new();
            nfold::bmc::aiger::build(&mut ts, &props, reset_values)
                .write(&mut bytes)
                .unwrap();
            // The reader checks the header (M = I + L + A, no O, C, J, F needed), every
            // literal's range and the delta encoding (lhs > rhs0 >= rhs1).
            let aig = parse(&bytes).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            let (i, l) = (aig.num_inputs, aig.num_latches());
            assert_eq!(aig.max_var, i + l + aig.ands.len() as u32, "{ctx}");
            assert_eq!(aig.bad.len(), m.unsafes.len() + 1, "{ctx}");
            assert!(
                aig.outputs.is_empty() && aig.constraints.is_empty(),
                "{ctx}"
            );
            // Gates: no constant or repeated input, no complementary pair, each once.
            let mut seen = HashSet::new();
            for (k, &(a, b)) in aig.ands.iter().enumerate() {
                let lhs = 2 * (i + l + 1 + k as u32);
                assert!(lhs > a && a > b && b >= 2 && a != b ^ 1, "{ctx}: gate {k}");
                assert!(
                    seen.insert((a, b)),
                    "{ctx}: gate {k} repeats an earlier one"
                );
            }
            // Every gate is in the cone of a latch's next value or a bad output.
            let mut used = vec![false; aig.max_var as usize + 1];
            let mut stack: Vec<u32> = aig.latches.iter().map(|x| x.0 / 2).collect();
            stack.extend(aig.bad.iter().map(|&b| b / 2));
            while let Some(v) = stack.pop() {
                if !std::mem::replace(&mut used[v as usize], true) && v > i + l {
                    let (a, b) = aig.ands[(v - i - l - 1) as usize];
                    stack.extend([a / 2, b / 2]);
                }
            }
            assert!(
                used[(i + l + 1) as usize..].iter().all(|&u| u),
                "{ctx}: dead gates"
            );
            // Every input, latch and bad output named, names distinct.
            let names: HashSet<&String> = aig
                .input_names
                .values()
                .chain(aig.latch_names.values())
                .collect();
            assert_eq!(names.len(), (i + l) as usize, "{ctx}: names");
            assert_eq!(aig.bad_names.len(), aig.bad.len(), "{ctx}");
            // Resets: 0 or 1, and without reset values all 0.
            assert!(aig.latches.iter().all(|x| x.1 <= 1), "{ctx}");
            if !reset_values {
                assert!(aig.latches.iter().all(|x| x.1 == 0), "{ctx}");
            }
            files += 1;
        }
    }
    assert!(files >= 36, "{files}");
}

#[test]
fn exported_relation_is_the_interpreters() {
    let mut models: Vec<(String, Model, usize)> = all_models()
        .into_iter()
        .map(|(name, m)| (name, m, 3))
        .collect();
    for (name, text) in [("range", RANGE_MODEL), ("init_error", INIT_ERROR_MODEL)] {
        let m = nfold::lang::load_str(name, text).unwrap();
        models.push((name.to_string(), m, 3));
    }
    let (mut total, mut bits, mut free) = (0, 0, 0);
    for (name, m, max) in &models {
        for n in 1..=*max {
            let c = check_relation(name, m, n, 60, true);
            (total, bits, free) = (total + c.states, bits + c.bits, free + c.free);
            // Every bit read from an input at time 0: the same relation.
            let c = check_relation(name, m, n, 20, false);
            assert_eq!(c.free, c.bits, "{name} n={n}");
        }
    }
    assert!(total > 1000, "{total} states checked");
    // Most state bits of the families and regressions start at a constant.
    assert!(free * 2 < bits, "{free} of {bits} bits free at time 0");
}

#[test]
fn init_errors_and_range_errors_are_bad_at_their_depth() {
    // The init-error model: a state with X = N violates `range_error` at time 0.
    let m = nfold::lang::load_str("init_error", INIT_ERROR_MODEL).unwrap();
    let inst = Instance::new(&m, 2);
    assert!(initial_states(&inst).is_err());
    let c = check_relation("init_error", &m, 2, 10, true);
    // `init` can err: every bit is read from an input, so that the erring state exists.
    assert_eq!(c.free, c.bits);
    // Mutex: every bit constant, so no input and no `started` latch.
    let m = nfold::lang::load_file("families/mutex.cub").unwrap();
    let c = check_relation("mutex", &m, 3, 10, true);
    assert_eq!((c.free, c.bits > 0), (0, true));
}

// ---------------------------------------------------------------------------------
// The command and ABC.
// ---------------------------------------------------------------------------------

#[test]
fn command_line_writes_what_the_library_builds() {
    let dir = scratch_dir("aiger-cli");
    let out = dir.join("mesi.aig");
    let (code, _, err) = nfold(&[
        "aiger",
        "families/mesi.cub",
        "--sizes",
        "1..3",
        "--property",
        "exclusive_alone",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("b0 exclusive_alone, b1 range_error"), "{err}");
    let aig = parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(aig.bad.len(), 2);
    assert_eq!(aig.bad_names[&0], "exclusive_alone");
    // Presence bits of slots 2 and 3 are latches of the aggregate.
    let latches: HashSet<&String> = aig.latch_names.values().collect();
    assert!(latches.contains(&"absent[2]".to_string()));
    assert!(latches.contains(&"absent[3]".to_string()));
    assert!(!latches.contains(&"absent[1]".to_string()));
    // Standard output, same bytes.
    let stdout = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args([
            "aiger",
            "families/mesi.cub",
            "--sizes",
            "1..3",
            "--property",
            "exclusive_alone",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(stdout.stdout, std::fs::read(&out).unwrap());
    // Usage and input errors.
    for args in [
        vec!["aiger", "families/mesi.cub"],
        vec!["aiger", "families/mesi.cub", "--size", "0"],
        vec![
            "aiger",
            "families/mesi.cub",
            "--size",
            "2",
            "--sizes",
            "1..3",
        ],
        vec!["aiger", "families/mesi.cub", "--sizes", "3..1"],
        vec![
            "aiger",
            "families/mesi.cub",
            "--size",
            "2",
            "--property",
            "nope",
        ],
        vec!["aiger", "families/nope.cub", "--size", "2"],
        vec!["aiger", "Cargo.toml", "--size", "2"],
        vec![
            "aiger",
            "families/mesi.cub",
            "--size",
            "2",
            "-o",
            "/nonexistent-dir/x.aig",
        ],
    ] {
        let (code, out, err) = nfold(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// nfold's explicit verdicts: (size, property) -> shortest depth of a violation, or
/// None when the property holds; and whether every size was explored completely.
fn explicit_verdicts(family: &str) -> BTreeMap<(usize, String), Option<usize>> {
    // A model with `ltl` properties only is checked for range errors beside a deadlock
    // check (`nfold check` refuses it otherwise, pointing to `nfold live`); those
    // families (the sorts) never deadlock.
    let ltl_only = nfold::lang::load_file(family).unwrap().unsafes.is_empty();
    let mut args = vec!["check", family, "--sizes", "1..4", "--engine", "explicit"];
    if ltl_only {
        args.push("--deadlock");
    }
    let (_, doc) = json_run(&args);
    let mut out = BTreeMap::new();
    for r in doc["results"].as_array().unwrap() {
        let size = r["size"].as_u64().unwrap() as usize;
        let prop = r["property"].as_str().unwrap().to_string();
        let depth = match r["verdict"].as_str().unwrap() {
            "holds" => None,
            "violated" => Some(r["depth"].as_u64().unwrap() as usize),
            v => panic!("{family} size {size} {prop}: {v}"),
        };
        out.insert((size, prop), depth);
    }
    out
}

/// Numbers following `key` in `text`'s lines that contain it.
fn frames_after(text: &str, key: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|l| {
            let rest = &l[l.find(key)? + key.len()..];
            rest.trim_start()
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

/// ABC's time limit per run (seconds of its own clock).
const ABC_SECONDS: u32 = 4;

/// One export checked by ABC: returns a line for the report, or a note.
fn abc_job(
    family: &str,
    sizes: (usize, usize, bool),
    want: &[(String, Option<usize>)],
    dir: &Path,
) -> String {
    let (lo, hi, init_inputs) = sizes;
    let spec = if lo == hi {
        format!("{lo}")
    } else {
        format!("{lo}..{hi}")
    };
    let stem = Path::new(family).file_stem().unwrap().to_string_lossy();
    let file = dir.join(format!(
        "{stem}-{}{}.aig",
        spec.replace("..", "_"),
        if init_inputs { "-inputs" } else { "" }
    ));
    let flag = if lo == hi { "--size" } else { "--sizes" };
    let mut args = vec!["aiger", family, flag, &spec, "-o", file.to_str().unwrap()];
    if init_inputs {
        args.push("--init-inputs");
    }
    let (code, _, err) = nfold(&args);
    assert_eq!(code, 0, "{err}");
    let spec = if init_inputs {
        format!("{spec} (--init-inputs)")
    } else {
        spec
    };
    let aig = parse(&std::fs::read(&file).unwrap()).unwrap();
    let names: Vec<String> = (0..aig.bad.len())
        .map(|k| aig.bad_names[&k].clone())
        .collect();
    let want_names: Vec<String> = want.iter().map(|w| w.0.clone()).collect();
    assert_eq!(names, want_names, "{family} {spec}");
    let f = file.to_str().unwrap();
    let Some(text) = abc(
        &format!("read {f}; pdr -a -T {ABC_SECONDS}"),
        ABC_SECONDS as f64 + 1.5,
    ) else {
        return format!("{family} at {spec}: ABC's pdr ran out of time (not compared)");
    };
    let disproved: HashSet<usize> = text
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("Output ")?;
            if !l.contains("was asserted in frame") {
                return None;
            }
            rest.split(' ').next()?.parse().ok()
        })
        .collect();
    let summary = text
        .lines()
        .find(|l| l.starts_with("Properties:"))
        .unwrap_or_else(|| panic!("{family} {spec}: no summary from ABC:\n{text}"));
    let undecided: usize = frames_after(summary, "Undecided =")[0];
    let ctx = format!("{family} at {spec}");
    for (k, (name, depth)) in want.iter().enumerate() {
        if depth.is_some() {
            assert!(
                disproved.contains(&k),
                "{ctx}: nfold finds `{name}` violated, ABC's pdr does not:\n{text}"
            );
        } else {
            assert!(
                !disproved.contains(&k),
                "{ctx}: ABC's pdr finds `{name}` violated, nfold proves it:\n{text}"
            );
        }
    }
    let mut line = format!(
        "{ctx}: {}",
        want.iter()
            .map(|(n, d)| match d {
                Some(d) => format!("{n} violated at depth {d}"),
                None => format!("{n} holds"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    if undecided > 0 {
        line.push_str(&format!(
            " (ABC: {undecided} output(s) undecided within {ABC_SECONDS} s; only its violations compared)"
        ));
    } else {
        line.push_str(" (ABC agrees)");
    }
    // Depths: bmc3 finds exactly nfold's shortest depth, pdr that depth or deeper.
    for (k, (name, depth)) in want.iter().enumerate() {
        let Some(d) = depth else { continue };
        let text = abc(
            &format!(
                "read {f}; cone -O {k} -s; bmc3 -F {}; read {f}; cone -O {k} -s; pdr -T {ABC_SECONDS}",
                d + 2
            ),
            4.0 * ABC_SECONDS as f64,
        )
        .unwrap_or_else(|| panic!("{ctx} `{name}`: ABC ran out of time"));
        let frames = frames_after(&text, "was asserted in frame");
        assert_eq!(frames.len(), 2, "{ctx} `{name}`:\n{text}");
        assert_eq!(frames[0], *d, "{ctx} `{name}`: bmc3's depth\n{text}");
        assert!(frames[1] >= *d, "{ctx} `{name}`: pdr's depth\n{text}");
        line.push_str(&format!(
            "; `{name}`: bmc3 depth {}, pdr depth {}",
            frames[0], frames[1]
        ));
    }
    line
}

#[test]
fn abc_agrees_with_the_explicit_engine() {
    if !abc_available() {
        eprintln!("note: `berkeley-abc` is not installed; skipping the comparison with ABC");
        return;
    }
    let dir = scratch_dir("aiger-abc");
    let mut families: Vec<String> = std::fs::read_dir("families")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".cub"))
        .collect();
    families.sort();
    let mut jobs = Vec::new();
    for fam in &families {
        let m = nfold::lang::load_file(fam).unwrap();
        let verdicts = explicit_verdicts(fam);
        let mut specs: Vec<(usize, usize, bool)> = (1..=4).map(|n| (n, n, false)).collect();
        specs.push((1, 4, false));
        specs.push((3, 3, true));
        if fam.ends_with("_bug.cub") {
            specs.push((2, 4, false));
        }
        for (lo, hi, init_inputs) in specs {
            let mut want = Vec::new();
            let names = m
                .unsafes
                .iter()
                .map(|u| u.name.clone())
                .chain(["range_error".to_string()]);
            for name in names {
                // A property fails on the aggregate when it fails at some size: at the
                // least of its sizes' depths.
                let depth = (lo..=hi)
                    .filter_map(|n| verdicts.get(&(n, name.clone())).copied().flatten())
                    .min();
                want.push((name, depth));
            }
            jobs.push((fam.clone(), (lo, hi, init_inputs), want));
        }
    }
    // The slowest for ABC are popped first.
    let heavy = |f: &str| {
        ["ticket_lock", "german.", "peterson"]
            .iter()
            .any(|h| f.contains(h))
    };
    jobs.sort_by_key(|j| (heavy(&j.0), j.1.1 - j.1.0 + j.1.1));
    let jobs = Mutex::new(jobs);
    let report = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let Some((fam, sizes, want)) = jobs.lock().unwrap().pop() else {
                        break;
                    };
                    let t0 = Instant::now();
                    let line = abc_job(&fam, sizes, &want, &dir);
                    let line = format!("{line} [{:.2}s]", t0.elapsed().as_secs_f64());
                    report.lock().unwrap().push(line);
                }
            });
        }
    });
    let mut report = report.into_inner().unwrap();
    report.sort();
    for l in &report {
        eprintln!("{l}");
    }
    let agreed = report.iter().filter(|l| l.contains("(ABC agrees)")).count();
    assert!(agreed * 4 >= report.len() * 3, "too few decided by ABC");
    let _ = std::fs::remove_dir_all(&dir);
}
