//! AIGER export: the transition system of `transys` (one size or the aggregate of a
//! range) as a **binary AIGER 1.9** file, so that ABC and the tools of the hardware
//! model checking competition check exactly the system nfold's SAT engines check. This
//! module owns the translation of the template circuit into an and-inverter graph and
//! the file format; it adds no semantics of its own.
//!
//! # The circuit
//!
//! - **Inputs**: the template's step inputs (`sel:t(p)` one selector per transition
//!   instance, `sel:idle`, and `step:k` for the others: nondeterministic choices and the
//!   auxiliary variables of the at-most-one constraint), then one input `init:NAME` per
//!   state bit that is *free* in the initial states (below).
//! - **Latches**: one per state bit (`A[1]:b` is bit b, least significant first, of the
//!   cell's value minus the lowest value of its type; one-hot cells: `A[1]:k` is "the
//!   value is the k-th"; `absent[p]` is the aggregate's presence bit of slot p), then
//!   `nfold:started` (reset 0, next 1; only when some bit is free) and `nfold:invalid`
//!   (a constraint failed at an earlier step).
//! - **AND gates**: every n-ary gate of the template becomes a balanced tree of 2-input
//!   ANDs, with structural hashing and constant folding; negation is the literal's
//!   parity, constants are 0 and 1. Only the cones of the latches' next values and of
//!   the bad outputs are written.
//! - **Bad outputs** (the B section; no ordinary outputs): one per `unsafe` property,
//!   `b0 NAME` in the symbol table, then `range_error`. No C or F sections; a J
//!   section (one justice property) only for an `ltl` property (`justice`).
//!
//! # Initial states: reset values, and an init-latch for the free bits
//!
//! `init` is a formula, not a reset value. A state bit that has the same value in every
//! initial state (decided by SAT on `init` ∧ the state constraints) is a latch with that
//! reset value (0 or 1). The others (the aggregate's presence bits, variables `init`
//! leaves open) are read through a multiplexer: the *current state* x is the `init:`
//! inputs while `started` is 0 (at time 0 only) and the latches afterwards; the whole
//! transition system (next state, properties, constraints) is built once over that x.
//! At time 0 the constraint `init(x)` is required (below), so x ranges over exactly
//! the initial states; the latches then take the successor of x at time 1. When
//! evaluating `init` can meet a range error, every bit is read this way, so that the
//! erring states exist at time 0; and so on request (`nfold aiger --init-inputs`). No latch is uninitialised: ABC's `pdr` reads a latch
//! with reset value "uninitialised" (its own literal) as reset 0 and gives wrong
//! answers without a prior `undc`/`zero`.
//!
//! **Depth relation**: the state at AIGER time k is the state at depth k of the nfold
//! run, so a bad output asserted at time (ABC: "frame") k is a violation at depth k,
//! and a shortest AIGER counterexample has exactly nfold's shortest depth.
//!
//! # Constraints: folded into the bad outputs
//!
//! The template's constraint groups (`STATE`: cell domains and properness of the
//! presence bits; `STEP`: exactly one selector, choice domains; `FIRE`: the selected
//! instance fires) hold on every step of a real run. ABC's `pdr` does not honour the
//! AIGER C section (it treats a constraint as one more property), so they are folded in:
//! with S the STATE constraints and `initok` = `started ∨ init(x)` (init without a range
//! error; `started` is the constant 1 when there is no such latch: x at time 0 is then
//! the one initial state, and `init` cannot err),
//!
//! - `valid` = ¬`invalid` ∧ S(x) ∧ `initok`: every constraint held on the steps so far
//!   and the state constraints hold now;
//! - `invalid'` = ¬(`valid` ∧ STEP ∧ FIRE): once a constraint fails, `invalid` stays 1;
//! - bad output of property p: `valid` ∧ bad_p(x) ∧ ¬err_p(x) (a violation without a
//!   range error while evaluating it);
//! - `range_error`: ¬`invalid` ∧ S(x) ∧ ((¬`started` ∧ init_err(x)) ∨ (`initok` ∧
//!   range(x))): evaluating `init` fails on a state at time 0 (a range error at depth 0,
//!   as in nfold), or evaluating a transition instance or one of the exported properties
//!   fails on a reached state.
//!
//! The step constraints of the step leaving the bad state are not required (nfold's
//! depth-k query does not constrain step k either; they are always satisfiable by the
//! idle step). Hence every AIGER trace that asserts a bad output at time k with the
//! constraints held is an nfold run of depth k reaching that violation, and conversely.

pub mod justice;

use crate::sat::circuit::{FALSE, TRUE};
use crate::sat::{Lit, SolveResult, SolverKind, Stop};
use crate::trace::step_label;
use crate::transys::{FIRE, STATE, STEP, Transys};
use std::collections::HashMap;
use std::io::{self, Write};

/// One justice property: a run is a witness when each literal holds infinitely often.
#[derive(Clone, Debug, Default)]
pub struct Justice {
    pub name: String,
    /// (what it says, literal).
    pub lits: Vec<(String, u32)>,
}

/// An and-inverter graph in AIGER's numbering: variable 0 is the constant (literal 0
/// false, 1 true), inputs are variables 1..=I, latches I+1..=I+L, AND gates the rest,
/// each gate's inputs numbered below it.
#[derive(Clone, Debug, Default)]
pub struct Aig {
    /// Names of the inputs (variables 1..=I).
    pub inputs: Vec<String>,
    /// Per latch (variables I+1..=I+L): its name, the literal of its next value, and its
    /// reset value (false: 0, true: 1).
    pub latches: Vec<(String, u32, bool)>,
    /// The AND gates in order: gate k defines variable I+L+1+k as the conjunction of two
    /// literals, the larger first.
    pub ands: Vec<(u32, u32)>,
    /// Ordinary outputs (the O section): name and literal. Only the form for ABC's
    /// liveness commands has them (`justice::for_abc`).
    pub outputs: Vec<(String, u32)>,
    /// The bad-state outputs (the B section): name and literal.
    pub bad: Vec<(String, u32)>,
    /// The justice properties (the J section): per property its name and its
    /// literals, each with a description (written as comments: the symbol table names
    /// properties, not their literals).
    pub justice: Vec<Justice>,
    /// Comment lines written after the symbol table.
    pub comments: Vec<String>,
}

impl Aig {
    /// The largest variable index M.
    pub fn max_var(&self) -> u32 {
        (self.inputs.len() + self.latches.len() + self.ands.len()) as u32
    }

    /// Write the graph as binary AIGER 1.9 (`aig M I L O A B C J F`; no constraint or
    /// fairness sections: constraints are folded into the properties, fairness is
    /// written as justice literals), with its symbol table and comments.
    pub fn write(&self, w: &mut dyn Write) -> io::Result<()> {
        let (i, l) = (self.inputs.len(), self.latches.len());
        let mut out = Vec::with_capacity(64 + 4 * self.ands.len() + 16 * (l + i));
        writeln!(
            out,
            "aig {} {} {} {} {} {} 0 {} 0",
            self.max_var(),
            i,
            l,
            self.outputs.len(),
            self.ands.len(),
            self.bad.len(),
            self.justice.len()
        )?;
        for &(_, next, reset) in &self.latches {
            if reset {
                writeln!(out, "{next} 1")?;
            } else {
                writeln!(out, "{next}")?;
            }
        }
        for (_, o) in &self.outputs {
            writeln!(out, "{o}")?;
        }
        for (_, b) in &self.bad {
            writeln!(out, "{b}")?;
        }
        // Justice: the sizes of the properties, then all their literals.
        for j in &self.justice {
            writeln!(out, "{}", j.lits.len())?;
        }
        for j in &self.justice {
            for (_, lit) in &j.lits {
                writeln!(out, "{lit}")?;
            }
        }
        let first = 2 * (i + l + 1) as u32;
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            let lhs = first + 2 * k as u32;
            debug_assert!(lhs > a && a >= b);
            push_delta(&mut out, lhs - a);
            push_delta(&mut out, a - b);
        }
        for (k, name) in self.inputs.iter().enumerate() {
            writeln!(out, "i{k} {}", symbol(name))?;
        }
        for (k, (name, _, _)) in self.latches.iter().enumerate() {
            writeln!(out, "l{k} {}", symbol(name))?;
        }
        for (k, (name, _)) in self.outputs.iter().enumerate() {
            writeln!(out, "o{k} {}", symbol(name))?;
        }
        for (k, (name, _)) in self.bad.iter().enumerate() {
            writeln!(out, "b{k} {}", symbol(name))?;
        }
        for (k, j) in self.justice.iter().enumerate() {
            writeln!(out, "j{k} {}", symbol(&j.name))?;
        }
        if !self.comments.is_empty() {
            out.extend_from_slice(b"c\n");
            for c in &self.comments {
                writeln!(out, "{c}")?;
            }
        }
        w.write_all(&out)?;
        w.flush()
    }
}

/// A symbol-table name on one line.
fn symbol(name: &str) -> String {
    name.replace(['\n', '\r'], " ")
}

/// AIGER's 7-bit variable-length encoding of an unsigned delta.
fn push_delta(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Builds 2-input AND gates with structural hashing, numbering them after the inputs
/// and latches.
struct Builder {
    first_var: u32,
    ands: Vec<(u32, u32)>,
    strash: HashMap<(u32, u32), u32>,
}

impl Builder {
    fn and2(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = if a >= b { (a, b) } else { (b, a) };
        if b == 0 || a == b ^ 1 {
            return 0;
        }
        if b == 1 || a == b {
            return a;
        }
        if let Some(&g) = self.strash.get(&(a, b)) {
            return g;
        }
        let g = 2 * (self.first_var + self.ands.len() as u32);
        self.ands.push((a, b));
        self.strash.insert((a, b), g);
        g
    }

    /// The conjunction as a balanced tree.
    fn and(&mut self, lits: &[u32]) -> u32 {
        match lits.len() {
            0 => 1,
            1 => lits[0],
            n => {
                let a = self.and(&lits[..n / 2]);
                let b = self.and(&lits[n / 2..]);
                self.and2(a, b)
            }
        }
    }

    fn or(&mut self, lits: &[u32]) -> u32 {
        let neg: Vec<u32> = lits.iter().map(|l| l ^ 1).collect();
        self.and(&neg) ^ 1
    }

    /// `if s then a else b`.
    fn mux(&mut self, s: u32, a: u32, b: u32) -> u32 {
        let x = self.and2(s, a);
        let y = self.and2(s ^ 1, b);
        self.or(&[x, y])
    }
}

/// Template literals mapped into the graph (unmapped variables: `u32::MAX`).
struct Mapper {
    map: Vec<u32>,
}

impl Mapper {
    /// The graph literal of template literal `l`, building the cones of its gates.
    fn lit(&mut self, ts: &Transys, b: &mut Builder, l: Lit) -> u32 {
        let v = l.unsigned_abs() as usize;
        if self.map[v] == u32::MAX {
            let mut stack = vec![v];
            while let Some(&x) = stack.last() {
                if self.map[x] != u32::MAX {
                    stack.pop();
                    continue;
                }
                // Every variable that is neither a state variable nor an input is a gate.
                let inputs = ts.c.gate(x as Lit).unwrap_or(&[]);
                debug_assert!(!inputs.is_empty(), "unmapped template variable {x}");
                let before = stack.len();
                for &i in inputs {
                    if self.map[i.unsigned_abs() as usize] == u32::MAX {
                        stack.push(i.unsigned_abs() as usize);
                    }
                }
                if stack.len() == before {
                    let ins: Vec<u32> = inputs
                        .iter()
                        .map(|&i| self.map[i.unsigned_abs() as usize] ^ (i < 0) as u32)
                        .collect();
                    self.map[x] = b.and(&ins);
                    stack.pop();
                }
            }
        }
        self.map[v] ^ (l < 0) as u32
    }

    /// The conjunction of a constraint group's clauses.
    fn group(&mut self, ts: &Transys, b: &mut Builder, g: usize) -> u32 {
        let mut parts = Vec::new();
        for cl in ts.c.group(g) {
            let lits: Vec<u32> = cl.iter().map(|&l| self.lit(ts, b, l)).collect();
            parts.push(b.or(&lits));
        }
        b.and(&parts)
    }
}

/// The state bits of the system, in the order of `Transys::latches`, with their names.
fn state_bits(ts: &Transys) -> Vec<(String, Lit, Lit)> {
    let mut out = Vec::new();
    for (s, (c, n)) in ts.cur.cells.iter().zip(&ts.next).enumerate() {
        let name = ts.inst.cell_name(s);
        for (k, (&a, &b)) in c.lits().iter().zip(n.lits()).enumerate() {
            if a != FALSE && a != TRUE {
                out.push((format!("{name}:{k}"), a, b));
            }
        }
    }
    for (p, &a) in ts.agg.absent.iter().enumerate() {
        if a != FALSE {
            out.push((format!("absent[{}]", p + 1), a, a));
        }
    }
    out
}

/// Per state bit (in the order of `bits`): the value every initial state gives it, when
/// they all agree (`None`: free, or every bit when `init` can meet a range error, whose
/// states must be readable at time 0, or has no state at all). Decided by SAT on the
/// template: `init` ∧ the state constraints, one bit flipped at a time.
fn constant_bits(ts: &Transys, bits: &[(String, Lit, Lit)]) -> Vec<Option<bool>> {
    let free = vec![None; bits.len()];
    let Ok(mut solver) = SolverKind::default_kind().create_plain() else {
        return free;
    };
    let mut cnf = ts.c.cnf.clone();
    for cl in ts.c.group(STATE) {
        cnf.add_clause(cl);
    }
    let stop = Stop::default();
    if ts.init_err != FALSE && solver.solve(&cnf, &[ts.init_err], &stop) != SolveResult::Unsat {
        return free;
    }
    if solver.solve(&cnf, &[ts.init], &stop) != SolveResult::Sat {
        return free;
    }
    let mut value: Vec<Option<bool>> = bits.iter().map(|b| Some(solver.value(b.1))).collect();
    for k in 0..bits.len() {
        let Some(v) = value[k] else { continue };
        let flipped = if v { -bits[k].1 } else { bits[k].1 };
        match solver.solve(&cnf, &[ts.init, flipped], &stop) {
            SolveResult::Unsat => {}
            SolveResult::Sat => {
                // Every bit this initial state disagrees on is free too.
                for (j, b) in bits.iter().enumerate().skip(k) {
                    if value[j].is_some_and(|v| v != solver.value(b.1)) {
                        value[j] = None;
                    }
                }
            }
            SolveResult::Unknown => return free,
        }
    }
    value
}

/// The graph of the transition system with one bad output per property of `props`
/// (indices into the model's `unsafe` properties, in the order given) and one for range
/// errors (evaluating `init` at time 0, a transition instance, or one of `props`); see
/// the module comment. With `reset_values`, the bits that are constant in the initial
/// states are latches with those reset values; without, every state bit is read from an
/// `init:` input at time 0 (ABC's `pdr` is often faster on this form: a cube with
/// `started` = 1 is disjoint from the initial state whatever its other literals).
pub fn build(ts: &mut Transys, props: &[usize], reset_values: bool) -> Aig {
    build_with(ts, props, reset_values, None)
}

/// `build`, with a justice property whose literals are template literals (each
/// conjoined with `valid`: every constraint held so far, see the module comment).
pub(crate) fn build_with(
    ts: &mut Transys,
    props: &[usize],
    reset_values: bool,
    justice: Option<(String, Vec<(String, Lit)>)>,
) -> Aig {
    // Build every literal the graph needs in the template first.
    let bads: Vec<(Lit, Lit)> = props.iter().map(|&p| ts.bad(p)).collect();
    let range = ts.range(props, false);
    // A store leaving the int window (`int_bound`), for a model with ints.
    let ints = ts.inst.model.int_window.is_some();
    let int_bound = if ints { ts.int_bound(false) } else { FALSE };
    let ts: &Transys = ts;
    let lay = layout(ts, reset_values);
    let mut b = Builder {
        first_var: (lay.ni + lay.nl + 1) as u32,
        ands: Vec::new(),
        strash: HashMap::new(),
    };
    let mut m = Mapper {
        map: vec![u32::MAX; ts.c.cnf.num_vars as usize + 1],
    };
    m.map[TRUE as usize] = 1;
    let (inputs, started, invalid) = map_inputs(ts, &lay, &mut m, &mut b);
    let state_ok = m.group(ts, &mut b, STATE);
    let init = m.lit(ts, &mut b, ts.init);
    // Without free bits, x at time 0 is the one initial state: init holds there.
    let initok = b.or(&[started, init]);
    let valid = b.and(&[invalid ^ 1, state_ok, initok]);
    let step = m.group(ts, &mut b, STEP);
    let fire = m.group(ts, &mut b, FIRE);
    let next_invalid = b.and(&[valid, step, fire]) ^ 1;
    let mut latches = Vec::with_capacity(lay.nl);
    for (k, (name, _, nx)) in lay.bits.iter().enumerate() {
        let l = m.lit(ts, &mut b, *nx);
        latches.push((name.clone(), l, lay.consts[k] == Some(true)));
    }
    if lay.has_started {
        latches.push(("nfold:started".to_string(), 1, false));
    }
    latches.push(("nfold:invalid".to_string(), next_invalid, false));
    let model = ts.inst.model;
    let mut bad = Vec::new();
    for (&p, &(v, e)) in props.iter().zip(&bads) {
        let v = m.lit(ts, &mut b, v);
        let e = m.lit(ts, &mut b, e);
        bad.push((model.unsafes[p].name.clone(), b.and(&[valid, v, e ^ 1])));
    }
    // Without `started`, `constant_bits` found that `init` cannot err.
    let at_init = if lay.has_started {
        let init_err = m.lit(ts, &mut b, ts.init_err);
        b.and2(started ^ 1, init_err)
    } else {
        0
    };
    let range = m.lit(ts, &mut b, range);
    let reached = b.and2(initok, range);
    let either = b.or(&[at_init, reached]);
    bad.push((
        "range_error".to_string(),
        b.and(&[invalid ^ 1, state_ok, either]),
    ));
    if ints {
        let int_bound = m.lit(ts, &mut b, int_bound);
        bad.push((
            "int_bound".to_string(),
            b.and(&[invalid ^ 1, state_ok, initok, int_bound]),
        ));
    }
    let justice = map_justice(ts, &mut m, &mut b, valid, justice);
    let mut aig = Aig {
        inputs,
        latches,
        ands: b.ands,
        outputs: Vec::new(),
        bad,
        justice,
        comments: comments(ts, &lay),
    };
    aig.sweep();
    aig
}

/// The graph's state bits and inputs, before any gate: which bits are constant in the
/// initial states, and how many inputs and latches there are.
struct Layout {
    /// Every state bit: its name, its template literal and its next value's.
    bits: Vec<(String, Lit, Lit)>,
    /// Each bit's value in every initial state, when it has one (its reset value).
    consts: Vec<Option<bool>>,
    /// The bits read from the `init:` inputs at time 0.
    free: Vec<usize>,
    /// Whether there is a `nfold:started` latch.
    has_started: bool,
    /// Every template variable that is neither a gate nor a state variable.
    step_inputs: Vec<Lit>,
    /// The number of inputs.
    ni: usize,
    /// The number of latches.
    nl: usize,
}

/// The layout of `ts`'s graph (`reset_values`: constant bits are latches with a reset
/// value, not read from inputs).
fn layout(ts: &Transys, reset_values: bool) -> Layout {
    let bits = state_bits(ts);
    debug_assert_eq!(
        bits.iter().map(|b| (b.1, b.2)).collect::<Vec<_>>(),
        ts.latches()
    );
    let consts = if reset_values {
        constant_bits(ts, &bits)
    } else {
        vec![None; bits.len()]
    };
    let free: Vec<usize> = (0..bits.len()).filter(|&k| consts[k].is_none()).collect();
    let has_started = !free.is_empty() || bits.is_empty();
    // The step inputs: every template variable that is neither a gate nor a state
    // variable (`ts.inputs`, and any variable the properties' encoding introduced).
    let latch_vars: std::collections::HashSet<u32> =
        bits.iter().map(|b| b.1.unsigned_abs()).collect();
    let step_inputs: Vec<Lit> = (2..=ts.c.cnf.num_vars)
        .filter(|&v| ts.c.gate(v).is_none() && !latch_vars.contains(&v.unsigned_abs()))
        .collect();
    // Variables: step inputs, init inputs of the free bits, state latches, started (when
    // some bit is free), invalid, gates.
    let ni = step_inputs.len() + free.len();
    let nl = bits.len() + has_started as usize + 1;
    Layout {
        bits,
        consts,
        free,
        has_started,
        step_inputs,
        ni,
        nl,
    }
}

/// Maps the step inputs and the state bits (through the `init:` multiplexers) to their
/// AIGER literals; returns the inputs' names and the literals of `started` and `invalid`.
fn map_inputs(
    ts: &Transys,
    lay: &Layout,
    m: &mut Mapper,
    b: &mut Builder,
) -> (Vec<String>, u32, u32) {
    let mut inputs = Vec::with_capacity(lay.ni);
    let sel_names = selector_names(ts);
    for (k, &x) in lay.step_inputs.iter().enumerate() {
        m.map[x as usize] = 2 * (k as u32 + 1);
        inputs.push(
            sel_names
                .get(&x)
                .cloned()
                .unwrap_or_else(|| format!("step:{k}")),
        );
    }
    let latch = |k: usize| 2 * (lay.ni + k + 1) as u32;
    // Without free bits there is no `started`: literal 1 (constant true) stands for it.
    let started = if lay.has_started {
        latch(lay.bits.len())
    } else {
        1
    };
    let invalid = latch(lay.nl - 1);
    let mut init_input = 2 * (lay.step_inputs.len() + 1) as u32;
    for (k, (name, x, _)) in lay.bits.iter().enumerate() {
        let eff = if lay.consts[k].is_some() {
            latch(k)
        } else {
            inputs.push(format!("init:{name}"));
            init_input += 2;
            b.mux(started, latch(k), init_input - 2)
        };
        m.map[x.unsigned_abs() as usize] = eff ^ (*x < 0) as u32;
    }
    (inputs, started, invalid)
}

/// The input name of each selector: `sel:` and the step it selects.
fn selector_names(ts: &Transys) -> HashMap<Lit, String> {
    ts.sel
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let name = match ts.instances.get(k) {
                Some((t, ps)) => {
                    let step = crate::model::eval::Step {
                        trans: *t,
                        params: ps.clone(),
                        choices: Vec::new(),
                    };
                    format!("sel:{}", step_label(ts.inst.model, &step))
                }
                None => "sel:idle".to_string(),
            };
            (s.abs(), name)
        })
        .collect()
}

/// The justice property's literals in the graph, each conjoined with `valid`.
fn map_justice(
    ts: &Transys,
    m: &mut Mapper,
    b: &mut Builder,
    valid: u32,
    justice: Option<(String, Vec<(String, Lit)>)>,
) -> Vec<Justice> {
    justice
        .into_iter()
        .map(|(name, lits)| Justice {
            name,
            lits: lits
                .into_iter()
                .map(|(what, l)| {
                    let l = m.lit(ts, b, l);
                    (what, b.and2(valid, l))
                })
                .collect(),
        })
        .collect()
}

/// The file's comment lines: what was exported and how to read its bad outputs.
fn comments(ts: &Transys, lay: &Layout) -> Vec<String> {
    let (bits, free) = (&lay.bits, &lay.free);
    let sizes = if ts.single() {
        format!("size {}", ts.agg.min)
    } else {
        format!("sizes {}..{} (the aggregate)", ts.agg.min, ts.agg.max)
    };
    vec![
        format!("nfold aiger: {} at {sizes}", ts.inst.model.source.name),
        "a bad output asserted at time k is a violation at depth k (time 0: the initial state)"
            .to_string(),
        format!(
            "{} state bits: {} constant in every initial state (latch reset values), {} read from init: inputs at time 0",
            bits.len(),
            bits.len() - free.len(),
            free.len()
        ),
        "constraints are folded into the bad outputs (latch nfold:invalid)".to_string(),
        format!(
            "{} step inputs, {} transition instances",
            lay.step_inputs.len(),
            ts.instances.len()
        ),
    ]
}

impl Aig {
    /// Drop the AND gates outside the cones of the latches' next values and the bad
    /// outputs (left by constant folding, e.g. the `init` cone when there is no
    /// `started`), renumbering the others in order, so that each still comes after its
    /// inputs and the larger input stays first.
    fn sweep(&mut self) {
        let first = (self.inputs.len() + self.latches.len() + 1) as u32;
        let gate = |lit: u32| (lit / 2).checked_sub(first).map(|k| k as usize);
        let mut used = vec![false; self.ands.len()];
        let mut stack: Vec<usize> = self
            .latches
            .iter()
            .map(|l| l.1)
            .chain(self.outputs.iter().map(|o| o.1))
            .chain(self.bad.iter().map(|b| b.1))
            .chain(self.justice.iter().flat_map(|j| j.lits.iter().map(|l| l.1)))
            .filter_map(gate)
            .collect();
        while let Some(k) = stack.pop() {
            if !std::mem::replace(&mut used[k], true) {
                let (a, b) = self.ands[k];
                stack.extend(gate(a).into_iter().chain(gate(b)));
            }
        }
        if used.iter().all(|&u| u) {
            return;
        }
        let mut var = vec![0u32; self.ands.len()];
        let mut next = first;
        for (k, &u) in used.iter().enumerate() {
            if u {
                var[k] = next;
                next += 1;
            }
        }
        let map = |lit: u32| match gate(lit) {
            Some(k) => 2 * var[k] + (lit & 1),
            None => lit,
        };
        let ands = std::mem::take(&mut self.ands);
        self.ands = ands
            .into_iter()
            .zip(&used)
            .filter(|(_, u)| **u)
            .map(|((a, b), _)| (map(a), map(b)))
            .collect();
        for l in &mut self.latches {
            l.1 = map(l.1);
        }
        for o in self.outputs.iter_mut().chain(&mut self.bad) {
            o.1 = map(o.1);
        }
        for j in &mut self.justice {
            for l in &mut j.lits {
                l.1 = map(l.1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transys::frame::Encoding;

    #[test]
    fn deltas_and_folding() {
        let mut v = Vec::new();
        for x in [0u32, 1, 127, 128, 300, 16384, u32::MAX] {
            v.clear();
            push_delta(&mut v, x);
            let mut y = 0u64;
            for (k, byte) in v.iter().enumerate() {
                y |= ((byte & 0x7f) as u64) << (7 * k);
                assert_eq!(byte & 0x80 != 0, k + 1 < v.len());
            }
            assert_eq!(y, x as u64);
        }
        let mut b = Builder {
            first_var: 3,
            ands: Vec::new(),
            strash: HashMap::new(),
        };
        assert_eq!(b.and2(2, 0), 0);
        assert_eq!(b.and2(2, 1), 2);
        assert_eq!(b.and2(2, 3), 0);
        assert_eq!(b.and2(4, 4), 4);
        let g = b.and2(2, 4);
        assert_eq!((g, b.and2(4, 2)), (6, 6));
        assert_eq!(b.ands, vec![(4, 2)]);
        assert_eq!(b.and(&[2, 4, 6, 8]), b.and(&[2, 4, 6, 8]));
    }

    #[test]
    fn header_counts_match_the_graph() {
        let m = crate::lang::load_str(
            "m.cub",
            "type s = I | W | C\nvar L : bool\narray A[proc] : s\ninit (z) { A[z] = I && L = False }\n\
             unsafe mutex (z1 z2) { A[z1] = C && A[z2] = C }\n\
             transition req (i) requires { A[i] = I } { A[i] := W; }\n\
             transition enter (i) requires { A[i] = W && L = False } { A[i] := C; L := True; }\n\
             transition exit (i) requires { A[i] = C } { A[i] := I; L := False; }\n",
        )
        .unwrap();
        for (lo, hi) in [(1, 1), (2, 2), (1, 3)] {
            let mut ts = Transys::new(&m, lo, hi, Encoding::Binary);
            let aig = build(&mut ts, &[0], true);
            let mut out = Vec::new();
            aig.write(&mut out).unwrap();
            let head =
                String::from_utf8_lossy(&out[..out.iter().position(|&c| c == b'\n').unwrap()])
                    .into_owned();
            let n: Vec<usize> = head[4..].split(' ').map(|x| x.parse().unwrap()).collect();
            // L, two bits per A[p], the presence bits of the aggregate; the cells are
            // constant in the initial states, the presence bits free.
            let bits = 1 + 2 * hi + (hi - lo);
            assert_eq!(n[1], ts.inputs.len() + (hi - lo));
            assert_eq!(n[2], bits + (lo < hi) as usize + 1);
            assert!(aig.latches.iter().all(|l| !l.2));
            assert_eq!(n[0], n[1] + n[2] + n[4]);
            assert_eq!((n[3], n[5], n[6], n[7], n[8]), (0, 2, 0, 0, 0));
            for (k, &(a, c)) in aig.ands.iter().enumerate() {
                let lhs = 2 * (n[1] + n[2] + 1 + k) as u32;
                assert!(lhs > a && a >= c);
            }
        }
    }
}
