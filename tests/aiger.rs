//! AIGER export (`nfold aiger`, src/bmc/aiger.rs).
//!
//! - A reader of binary AIGER 1.9 written here, independently of the writer, parses every
//!   exported file (header counts, latch lines, bad outputs, the delta-encoded AND gates,
//!   the symbol table) and turns it into CNF; on every family at sizes 1..3 and on models
//!   with range errors, errors in `init`, `any` and `X := .`, the file's transition
//!   relation is checked against the reference interpreter (src/model/eval.rs): at time 0
//!   exactly the initial states satisfy the constraints; from a reached state the
//!   successors under the constraints are exactly the interpreter's successors plus the
//!   state itself (the idle step); each bad output is the interpreter's verdict on the
//!   state (a violation without a range error, or a range error).
//! - Where Debian's `berkeley-abc` is installed: ABC's `pdr` on the exported file gives
//!   nfold's explicit-engine verdict per property for every family at sizes 1..4 and on
//!   aggregates 1..3 (and 2..4 for the buggy families), and for each violated output
//!   ABC's `bmc3` finds it at exactly nfold's shortest depth (the depth relation of the
//!   module comment: time k is depth k), `pdr` at that depth or deeper.

mod common;

use common::{json_run, nfold};
use nfold::bmc::frame::Encoding;
use nfold::bmc::transys::Transys;
use nfold::model::eval::{satisfies_init, successors, violation};
use nfold::model::init::initial_states;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::Model;
use nfold::sat::{Backend, Cnf, Lit, SolveResult, SolverKind, Stop};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------
// A binary AIGER 1.9 reader.
// ---------------------------------------------------------------------------------

/// A parsed AIGER file.
#[derive(Debug, Default)]
struct Aig {
    max_var: u32,
    num_inputs: u32,
    /// (next, reset) per latch.
    latches: Vec<(u32, u32)>,
    outputs: Vec<u32>,
    bad: Vec<u32>,
    constraints: Vec<u32>,
    justice: usize,
    fairness: usize,
    /// (rhs0, rhs1) per AND gate, gate k defining variable I + L + 1 + k.
    ands: Vec<(u32, u32)>,
    input_names: HashMap<usize, String>,
    latch_names: HashMap<usize, String>,
    bad_names: HashMap<usize, String>,
}

fn read_line<'a>(data: &'a [u8], pos: &mut usize) -> Result<&'a str, String> {
    let start = *pos;
    let end = data[start..]
        .iter()
        .position(|&c| c == b'\n')
        .ok_or("unterminated line")?;
    *pos = start + end + 1;
    std::str::from_utf8(&data[start..start + end]).map_err(|e| e.to_string())
}

fn numbers(line: &str) -> Result<Vec<u32>, String> {
    line.split(' ')
        .map(|x| x.parse::<u32>().map_err(|e| format!("`{x}`: {e}")))
        .collect()
}

fn read_delta(data: &[u8], pos: &mut usize) -> Result<u32, String> {
    let mut x: u64 = 0;
    let mut shift = 0;
    loop {
        let &b = data.get(*pos).ok_or("truncated AND section")?;
        *pos += 1;
        x |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
        if shift > 35 {
            return Err("delta too long".into());
        }
    }
    u32::try_from(x).map_err(|_| "delta overflows".to_string())
}

fn parse(data: &[u8]) -> Result<Aig, String> {
    let mut pos = 0;
    let header = read_line(data, &mut pos)?;
    let h = header
        .strip_prefix("aig ")
        .ok_or("not a binary AIGER file")?;
    let n = numbers(h)?;
    if n.len() < 5 || n.len() > 9 {
        return Err(format!("header `{header}`"));
    }
    let get = |k: usize| n.get(k).copied().unwrap_or(0);
    let (m, i, l, o, a) = (n[0], n[1], n[2], n[3], n[4]);
    let (b, c, j, f) = (get(5), get(6), get(7), get(8));
    if m != i + l + a {
        return Err(format!("M = {m} is not I + L + A = {}", i + l + a));
    }
    let mut aig = Aig {
        max_var: m,
        num_inputs: i,
        ..Default::default()
    };
    let lit_ok = |x: u32| x <= 2 * m + 1;
    for k in 0..l {
        let v = numbers(read_line(data, &mut pos)?)?;
        let cur = 2 * (i + k + 1);
        let (next, reset) = match v[..] {
            [nx] => (nx, 0),
            [nx, r] if r == 0 || r == 1 || r == cur => (nx, r),
            _ => return Err(format!("latch line {k}: {v:?}")),
        };
        if !lit_ok(next) {
            return Err(format!("latch {k}: literal {next} out of range"));
        }
        aig.latches.push((next, reset));
    }
    for (count, dst) in [(o, 0), (b, 1), (c, 2)] {
        for _ in 0..count {
            let v = numbers(read_line(data, &mut pos)?)?;
            if v.len() != 1 || !lit_ok(v[0]) {
                return Err(format!("output line {v:?}"));
            }
            [&mut aig.outputs, &mut aig.bad, &mut aig.constraints][dst].push(v[0]);
        }
    }
    // Justice: sizes, then literals; fairness: literals.
    let mut sizes = Vec::new();
    for _ in 0..j {
        sizes.push(numbers(read_line(data, &mut pos)?)?[0]);
    }
    for s in sizes {
        for _ in 0..s {
            read_line(data, &mut pos)?;
        }
    }
    for _ in 0..f {
        read_line(data, &mut pos)?;
    }
    aig.justice = j as usize;
    aig.fairness = f as usize;
    for k in 0..a {
        let lhs = 2 * (i + l + k + 1);
        let d0 = read_delta(data, &mut pos)?;
        let d1 = read_delta(data, &mut pos)?;
        let r0 = lhs
            .checked_sub(d0)
            .filter(|_| d0 > 0)
            .ok_or("bad delta 0")?;
        let r1 = r0.checked_sub(d1).ok_or("bad delta 1")?;
        aig.ands.push((r0, r1));
    }
    // Symbol table, then an optional comment section.
    while pos < data.len() {
        let line = read_line(data, &mut pos)?;
        if line == "c" {
            break;
        }
        let (tag, rest) = line.split_at(1);
        let (idx, name) = rest.split_once(' ').ok_or("symbol without a name")?;
        let idx: usize = idx.parse().map_err(|_| format!("symbol `{line}`"))?;
        let (table, count) = match tag {
            "i" => (&mut aig.input_names, i),
            "l" => (&mut aig.latch_names, l),
            "b" => (&mut aig.bad_names, b),
            "o" | "c" | "j" | "f" => continue,
            _ => return Err(format!("symbol `{line}`")),
        };
        if idx >= count as usize || table.insert(idx, name.to_string()).is_some() {
            return Err(format!("symbol `{line}`: index out of range or repeated"));
        }
    }
    Ok(aig)
}

impl Aig {
    fn num_latches(&self) -> u32 {
        self.latches.len() as u32
    }

    fn latch_var(&self, k: usize) -> u32 {
        self.num_inputs + 1 + k as u32
    }

    fn input_by_name(&self) -> HashMap<String, usize> {
        self.input_names
            .iter()
            .map(|(k, n)| (n.clone(), *k))
            .collect()
    }

    /// Simulate one time step: the value of every variable.
    fn eval(&self, inputs: &[bool], latches: &[bool]) -> Vec<bool> {
        let mut v = vec![false; self.max_var as usize + 1];
        v[1..=self.num_inputs as usize].copy_from_slice(inputs);
        let base = self.num_inputs as usize + 1;
        v[base..base + latches.len()].copy_from_slice(latches);
        let first = (self.num_inputs + self.num_latches() + 1) as usize;
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            let val = |x: u32| v[(x / 2) as usize] ^ (x & 1 == 1);
            v[first + k] = val(a) && val(b);
        }
        v
    }

    fn value(vals: &[bool], lit: u32) -> bool {
        vals[(lit / 2) as usize] ^ (lit & 1 == 1)
    }

    /// The combinational logic as CNF: SAT variable per AIG variable (the constant as a
    /// unit-false variable).
    fn to_cnf(&self, cnf: &mut Cnf) -> Vec<Lit> {
        let vars: Vec<Lit> = (0..=self.max_var).map(|_| cnf.new_var()).collect();
        cnf.add_clause(&[-vars[0]]);
        let first = (self.num_inputs + self.num_latches() + 1) as usize;
        let lit = |x: u32| {
            let v = vars[(x / 2) as usize];
            if x & 1 == 1 { -v } else { v }
        };
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            let g = vars[first + k];
            cnf.add_clause(&[-g, lit(a)]);
            cnf.add_clause(&[-g, lit(b)]);
            cnf.add_clause(&[g, -lit(a), -lit(b)]);
        }
        vars
    }
}

fn sat_lit(vars: &[Lit], x: u32) -> Lit {
    let v = vars[(x / 2) as usize];
    if x & 1 == 1 { -v } else { v }
}

// ---------------------------------------------------------------------------------
// The exported relation against the interpreter.
// ---------------------------------------------------------------------------------

/// Latch `name:k` ↦ (slot, bit) for the cells of the instance.
fn bit_layout(aig: &Aig, inst: &Instance) -> Vec<(usize, usize)> {
    let slots: HashMap<String, usize> = (0..inst.slots.len())
        .map(|s| (inst.cell_name(s), s))
        .collect();
    let mut out = Vec::new();
    let mut bits_per_slot = vec![0; inst.slots.len()];
    for k in 0..aig.latches.len() - 2 {
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

/// Export `model` at size n through the library, read it back and check it against the
/// interpreter on up to `max_states` reached states. Returns the number of states
/// checked.
fn check_relation(name: &str, model: &Model, n: usize, max_states: usize) -> usize {
    let mut ts = Transys::new(model, n, n, Encoding::Binary);
    let props: Vec<usize> = (0..model.unsafes.len()).collect();
    let aig = nfold::bmc::aiger::build(&mut ts, &props);
    let mut bytes = Vec::new();
    aig.write(&mut bytes).unwrap();
    let aig = parse(&bytes).unwrap_or_else(|e| panic!("{name} n={n}: unreadable AIGER: {e}"));
    let ctx = format!("{name} n={n}");
    // Header and names.
    assert!(
        aig.outputs.is_empty() && aig.constraints.is_empty(),
        "{ctx}"
    );
    assert_eq!((aig.justice, aig.fairness), (0, 0), "{ctx}");
    assert!(aig.latches.iter().all(|&(_, r)| r == 0), "{ctx}: resets");
    let mut want_bad: Vec<String> = model.unsafes.iter().map(|u| u.name.clone()).collect();
    want_bad.push("range_error".into());
    let got_bad: Vec<String> = (0..aig.bad.len())
        .map(|k| aig.bad_names[&k].clone())
        .collect();
    assert_eq!(got_bad, want_bad, "{ctx}");
    let nl = aig.latches.len();
    assert_eq!(aig.latch_names[&(nl - 2)], "nfold:started");
    assert_eq!(aig.latch_names[&(nl - 1)], "nfold:invalid");
    assert_eq!(aig.latches[nl - 2].0, 1, "{ctx}: started's next is 1");
    let inst = Instance::new(model, n);
    let layout = bit_layout(&aig, &inst);
    let inputs = aig.input_by_name();
    let init_inputs: Vec<usize> = (0..layout.len())
        .map(|k| inputs[&format!("init:{}", aig.latch_names[&k])])
        .collect();

    let mut cnf = Cnf::default();
    let vars = aig.to_cnf(&mut cnf);
    let mut solver: Box<dyn Backend> = SolverKind::default_kind().create().unwrap();
    let stop = Stop::default();
    let latch_lit = |k: usize| vars[aig.latch_var(k) as usize];
    let input_lit = |k: usize| vars[k + 1];
    let next_invalid = sat_lit(&vars, aig.latches[nl - 1].0);
    let nexts: Vec<Lit> = (0..layout.len())
        .map(|k| sat_lit(&vars, aig.latches[k].0))
        .collect();
    let units = |bits: &[bool], lits: &dyn Fn(usize) -> Lit| -> Vec<Lit> {
        bits.iter()
            .enumerate()
            .map(|(k, &b)| if b { lits(k) } else { -lits(k) })
            .collect()
    };

    // Time 0: latches 0, the state from the init: inputs.
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15 ^ n as u64);
    let mut candidates: Vec<State> = match initial_states(&inst) {
        Ok(v) => v.into_iter().take(20).collect(),
        Err(e) => vec![e.state],
    };
    for _ in 0..12 {
        candidates.push(
            inst.slots
                .iter()
                .map(|s| s.lo + (rng.next() % (s.hi - s.lo + 1) as u64) as i64)
                .collect(),
        );
    }
    let zeros = vec![false; nl];
    for s in &candidates {
        let enc = encode(&inst, &layout, s);
        let mut ins = vec![false; aig.num_inputs as usize];
        for (k, &b) in enc.iter().enumerate() {
            ins[init_inputs[k]] = b;
        }
        let vals = aig.eval(&ins, &zeros);
        let bad: Vec<bool> = aig.bad.iter().map(|&b| Aig::value(&vals, b)).collect();
        let (want, ok) = match satisfies_init(&inst, s) {
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
        let mut assume = units(&zeros, &latch_lit);
        assume.extend(
            init_inputs
                .iter()
                .zip(&enc)
                .map(|(&k, &b)| if b { input_lit(k) } else { -input_lit(k) }),
        );
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
        latches.extend([true, false]);
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
    checked
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

#[test]
fn exported_relation_is_the_interpreters() {
    let mut models: Vec<(String, Model, usize)> = Vec::new();
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
    for p in dir
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cub"))
    {
        let m = nfold::lang::load_file(p.to_str().unwrap()).unwrap();
        models.push((p.display().to_string(), m, 3));
    }
    for (name, text) in [("range", RANGE_MODEL), ("init_error", INIT_ERROR_MODEL)] {
        let m = nfold::lang::load_str(name, text).unwrap();
        models.push((name.to_string(), m, 3));
    }
    let mut total = 0;
    for (name, m, max) in &models {
        for n in 1..=*max {
            total += check_relation(name, m, n, 60);
        }
    }
    assert!(total > 1000, "{total} states checked");
}

#[test]
fn init_errors_and_range_errors_are_bad_at_their_depth() {
    // The init-error model: a state with X = N violates `range_error` at time 0.
    let m = nfold::lang::load_str("init_error", INIT_ERROR_MODEL).unwrap();
    let inst = Instance::new(&m, 2);
    assert!(initial_states(&inst).is_err());
    check_relation("init_error", &m, 2, 10);
}

// ---------------------------------------------------------------------------------
// The command and ABC.
// ---------------------------------------------------------------------------------

fn scratch_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nfold-aiger-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn command_line_writes_what_the_library_builds() {
    let dir = scratch_dir("cli");
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
    let (_, doc) = json_run(&["check", family, "--sizes", "1..4"]);
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

fn abc_available() -> bool {
    Command::new("berkeley-abc")
        .args(["-c", "quit"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run ABC's command line: its standard output, or None when it ran out of `limit`
/// (wall-clock seconds; the machine may be shared) and was stopped.
fn abc(script: &str, limit: f64) -> Option<String> {
    let mut child = Command::new("berkeley-abc")
        .args(["-c", script])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run berkeley-abc");
    let start = Instant::now();
    while child.try_wait().expect("wait for berkeley-abc").is_none() {
        if start.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child
        .wait_with_output()
        .expect("read berkeley-abc's output");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
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
    sizes: (usize, usize),
    want: &[(String, Option<usize>)],
    dir: &Path,
) -> String {
    let (lo, hi) = sizes;
    let spec = if lo == hi {
        format!("{lo}")
    } else {
        format!("{lo}..{hi}")
    };
    let stem = Path::new(family).file_stem().unwrap().to_string_lossy();
    let file = dir.join(format!("{stem}-{}.aig", spec.replace("..", "_")));
    let flag = if lo == hi { "--size" } else { "--sizes" };
    let (code, _, err) = nfold(&["aiger", family, flag, &spec, "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let aig = parse(&std::fs::read(&file).unwrap()).unwrap();
    let names: Vec<String> = (0..aig.bad.len())
        .map(|k| aig.bad_names[&k].clone())
        .collect();
    let want_names: Vec<String> = want.iter().map(|w| w.0.clone()).collect();
    assert_eq!(names, want_names, "{family} {spec}");
    let f = file.to_str().unwrap();
    let Some(text) = abc(
        &format!("read {f}; pdr -a -T {ABC_SECONDS}"),
        2.0 * ABC_SECONDS as f64,
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
    let dir = scratch_dir("abc");
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
        let mut specs: Vec<(usize, usize)> = (1..=4).map(|n| (n, n)).collect();
        specs.push((1, 3));
        if fam.ends_with("_bug.cub") {
            specs.push((2, 4));
        }
        for (lo, hi) in specs {
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
            jobs.push((fam.clone(), (lo, hi), want));
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
