//! The independent check of a certificate, run before any `holds` from a proof engine
//! is printed and by `nfold certify`. It shares with the engines the layers that say
//! what a model means (the language, the model, the transition system and its
//! `Unroller`) and nothing of a search (docs/internals.md, "The trust base"); an engine
//! only asks it for a verdict (`check`, `check_every`). The certificate's lemmas are
//! read back from their text as `unsafe` blocks of the model (so the printed formulas
//! are what is checked), every size is checked on its own instance (not the aggregate
//! the engine searched), with one-hot cells (the engines use binary ones) and fresh
//! solvers:
//! - init ⇒ Inv (and no range error in `init` where range errors are claimed absent);
//! - Inv ∧ T ⇒ Inv′ (for `induction k`: Inv holds on the first k-1 steps of every
//!   run, and k consecutive Inv states are followed by an Inv state, over runs whose
//!   every step fires a transition instance: they reach the same states as runs with
//!   idle steps);
//! - Inv ⇒ ¬bad for every property claimed at that size (`int_bound`: no transition
//!   instance stores a value outside the int window);
//! - for a model with ints, the certificate names the window the model is checked over.
//!
//! Inv is the conjunction of the lemmas claimed at the size. A lemma is violated where
//! its formula holds, evaluated as an `unsafe` body is: a formula whose evaluation
//! meets a range error does not hold (range errors are the `no range error` lemma's
//! business), so the certificate's text means what it says.

mod bdd_check;
mod diagram;
mod every;
pub mod rank;

pub use every::{EveryCheck, check_every};

use super::count;
use crate::cert::Certificate;
use crate::cert::count::{CountCube, parse as parse_count};
use crate::lang;
use crate::model::ir::{CmpOp, Model};
use crate::sat::circuit::{Circuit, TRUE};
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::transys::frame::Encoding;
use crate::transys::unroll::Unroller;
use diagram::Diagram;
use std::collections::HashMap;

/// The outcome at one size: every condition that failed (empty: certified).
#[derive(Clone, Debug)]
pub struct SizeCheck {
    pub size: usize,
    /// The properties certified at this size (`range_error` for range errors).
    pub certified: Vec<String>,
    pub failures: Vec<String>,
    /// The conditions a limit (`Stop`) left undecided: the size is then not certified,
    /// and nothing is known against the certificate.
    pub unchecked: Vec<String>,
    /// Which check decided the size.
    pub by: Checker,
}

/// The two checks of a size's obligations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checker {
    /// CDCL over the one-hot unrolling (`SizeQueries`): every kind of lemma.
    Sat,
    /// BDDs over the same one-hot encoding (`bdd_check`): `induction 1` certificates with
    /// decision-diagram lemmas; a size whose BDDs outgrow their node table goes to SAT.
    Bdd,
}

impl Checker {
    /// How the text of a verdict names it.
    pub fn phrase(self) -> &'static str {
        match self {
            Checker::Sat => "checked by SAT",
            Checker::Bdd => "checked by BDDs over the checker's encoding",
        }
    }

    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Checker::Sat => "sat",
            Checker::Bdd => "bdd",
        }
    }

    /// The checker a JSON name names.
    pub fn of_name(name: &str) -> Option<Checker> {
        [Checker::Sat, Checker::Bdd]
            .into_iter()
            .find(|c| c.name() == name)
    }
}

/// Which check a size goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// BDDs where they apply (a diagram among the size's lemmas), SAT otherwise and
    /// when the BDDs outgrow their node table.
    Auto,
    Sat,
    /// BDDs where they apply (a size whose BDDs outgrow their node table is left
    /// unchecked), SAT otherwise.
    Bdd,
}

impl SizeCheck {
    /// Every condition decided and none failed.
    pub fn accepted(&self) -> bool {
        self.failures.is_empty() && self.unchecked.is_empty()
    }
}

/// What a check left undecided when its limit was reached.
const NOT_CHECKED: &str = "not checked (limit)";

/// How the failure of a claimed property begins (`SizeQueries::claims`).
const CLAIM_FAILED: &str = "a state of the invariant violates `";

impl SizeCheck {
    /// Every failure is a claimed property that the invariant does not exclude, and
    /// nothing was left unchecked: the invariant itself held initially and was
    /// inductive at this size (only the SAT check's own words count; any other failure
    /// says no).
    pub fn only_claims_failed(&self) -> bool {
        self.unchecked.is_empty()
            && self.by == Checker::Sat
            && self.failures.iter().all(|f| f.starts_with(CLAIM_FAILED))
    }

    /// The claimed properties the invariant does not exclude at this size.
    pub fn failed_claims(&self) -> Vec<&str> {
        self.failures
            .iter()
            .filter_map(|f| f.strip_prefix(CLAIM_FAILED)?.strip_suffix('`'))
            .collect()
    }
}

/// How a counting lemma's atoms are read back: per atom, the property "P holds at
/// process x" and its right-hand side; the property of the other conjuncts.
#[derive(Clone, Debug)]
pub struct CountSpec {
    atoms: Vec<(usize, CmpOp, Rhs)>,
    rest: Option<usize>,
}

#[derive(Clone, Debug)]
enum Rhs {
    Literal(i64),
    /// Per count v = 0..=max, the property "v OP E".
    Values(Vec<usize>),
}

/// The model with the lemmas, each lemma's property, the counting lemmas' parts.
type WithLemmas = (Model, Vec<usize>, HashMap<usize, CountSpec>);

/// The model with the lemmas appended as `unsafe` blocks, the index of each lemma's
/// property, and the counting lemmas' parts (appended after every lemma's block).
fn with_lemmas(model: &Model, cert: &Certificate) -> Result<WithLemmas, String> {
    with_lemmas_and(model, cert, &[])
}

/// `with_lemmas` with more `unsafe` blocks (their full text) appended last: the
/// model's last `extra.len()` properties. The checker's own reading of a certificate
/// (no engine reads one through it: docs/internals.md, "The trust base").
fn with_lemmas_and(
    model: &Model,
    cert: &Certificate,
    extra: &[String],
) -> Result<WithLemmas, String> {
    let prefix = lang::unused_prefix(model, "nfold_lemma_");
    let mut text = String::new();
    let base = model.unsafes.len();
    let mut aux = Aux {
        prefix: &prefix,
        text: String::new(),
        next: base + cert.lemmas.len(),
    };
    let mut counts = HashMap::new();
    for (i, l) in cert.lemmas.iter().enumerate() {
        let cube = if l.bdd.is_some() {
            None
        } else {
            parse_count(&l.body).map_err(|e| format!("lemma {}: {e}", i + 1))?
        };
        if l.no_range || l.no_int_bound || l.bdd.is_some() || cube.is_some() {
            // A placeholder keeps one property per lemma; it is never evaluated.
            text.push_str(&format!("unsafe {prefix}{} () {{ False }}\n", i + 1));
        } else {
            // An ordered lemma speaks of its processes in increasing order only.
            let order: String = l
                .vars
                .windows(2)
                .filter(|_| l.ordered)
                .map(|w| format!("{} < {} && ", w[0], w[1]))
                .collect();
            text.push_str(&format!(
                "unsafe {prefix}{} ({}) {{ {order}({}) }}\n",
                i + 1,
                l.vars.join(" "),
                l.body
            ));
        }
        let Some(cube) = cube.filter(|_| !l.no_range && !l.no_int_bound) else {
            continue;
        };
        if !l.vars.is_empty() {
            return Err(format!(
                "lemma {}: a counting lemma quantifies no process",
                i + 1
            ));
        }
        counts.insert(base + i, count_spec(&cube, cert.sizes.1, &mut aux));
    }
    text.push_str(&aux.text);
    for e in extra {
        text.push_str(e);
        text.push('\n');
    }
    // The same int window and data values as the model (the lemmas' literals must not
    // move a default window).
    let m = lang::with_unsafes(model, &text).map_err(|e| {
        let (line, _) = e.source.line_col(e.diagnostic.span.lo);
        let base = model.source.text.lines().count() + 1;
        let which = line.saturating_sub(base);
        let which = if which > cert.lemmas.len() && !extra.is_empty() {
            "of the ranking (a phase, a weight, or the property's formulas)".to_string()
        } else if which > cert.lemmas.len() {
            "with a count".to_string()
        } else {
            which.to_string()
        };
        format!(
            "lemma {} of the certificate does not read as a formula of the model: {}",
            which, e.diagnostic.message
        )
    })?;
    Ok((m, (base..base + cert.lemmas.len()).collect(), counts))
}

/// The properties appended after the lemmas for their counts (the predicates, values
/// and rests of counting lemmas), numbered from `next` on.
struct Aux<'p> {
    prefix: &'p str,
    text: String,
    next: usize,
}

impl Aux<'_> {
    /// Append the property `body` over `vars`; its number.
    fn push(&mut self, vars: &str, body: &str) -> usize {
        self.text.push_str(&format!(
            "unsafe {}aux{} ({vars}) {{ {body} }}\n",
            self.prefix, self.next
        ));
        self.next += 1;
        self.next - 1
    }
}

/// How a counting lemma's cube is evaluated: each atom's predicate and right-hand side
/// (a literal, or one property per value 0..=`max_n`), and the rest, as properties
/// appended to `aux`.
fn count_spec(cube: &CountCube, max_n: usize, aux: &mut Aux) -> CountSpec {
    let mut spec = CountSpec {
        atoms: Vec::new(),
        rest: None,
    };
    for a in &cube.atoms {
        let pred = aux.push(&a.var, &a.pred);
        let rhs = match a.literal() {
            Some(v) => Rhs::Literal(v),
            None => Rhs::Values(
                (0..=max_n)
                    .map(|v| aux.push("", &format!("{v} {} ({})", a.op.text(), a.rhs)))
                    .collect(),
            ),
        };
        spec.atoms.push((pred, a.op, rhs));
    }
    if !cube.rest.is_empty() {
        spec.rest = Some(aux.push("", &cube.rest.join(" && ")));
    }
    spec
}

/// "count OP c" from the sequential counter `ge` over n processes.
fn compare(c: &mut Circuit, ge: &[Lit], op: CmpOp, v: i64, n: usize) -> Lit {
    let at_least = |v: i64| -> Lit {
        if v <= 0 {
            TRUE
        } else if v as usize > n {
            -TRUE
        } else {
            ge[v as usize]
        }
    };
    let eq = |c: &mut Circuit| {
        if v < 0 || v as usize > n {
            -TRUE
        } else {
            count::exactly(c, ge, v as usize)
        }
    };
    match op {
        CmpOp::Ge => at_least(v),
        CmpOp::Gt => at_least(v + 1),
        CmpOp::Le => -at_least(v + 1),
        CmpOp::Lt => -at_least(v),
        CmpOp::Eq => eq(c),
        CmpOp::Ne => -eq(c),
    }
}

/// The per-process literals of a counting atom and its counter, at one frame.
type Counter = (Vec<Lit>, Vec<Vec<Lit>>);

/// A counting lemma's violation at frame j of size n: every atom holds. Each atom's
/// counter is pushed on `counters`.
fn count_violation(
    u: &mut Unroller,
    spec: &CountSpec,
    j: usize,
    n: usize,
    counters: &mut Vec<Counter>,
) -> Lit {
    let mut all = Vec::new();
    for (pred, op, rhs) in &spec.atoms {
        let xs: Vec<Lit> = (1..=n as i64).map(|i| u.holds(*pred, j, &[i])).collect();
        let table = count::at_least(&mut u.c, &xs);
        let ge = table[n].clone();
        counters.push((xs, table));
        let lit = match rhs {
            Rhs::Literal(v) => compare(&mut u.c, &ge, *op, *v, n),
            Rhs::Values(props) => {
                let mut cases = Vec::new();
                for (v, &p) in props.iter().enumerate().take(n + 1) {
                    let holds = u.holds(p, j, &[]);
                    let is_v = count::exactly(&mut u.c, &ge, v);
                    cases.push(u.c.and2(is_v, holds));
                }
                u.c.or(&cases)
            }
        };
        all.push(lit);
    }
    if let Some(r) = spec.rest {
        let (b, e) = u.bad_tuple(r, j, &[]);
        all.push(u.c.and2(b, -e));
    }
    u.c.and(&all)
}

/// Check a certificate at each of `sizes` (those of its sizes to check), each size by
/// BDDs where they apply, by SAT otherwise (`Method::Auto`).
pub fn check(
    model: &Model,
    cert: &Certificate,
    sizes: &[usize],
    solver: SolverKind,
    stop: &Stop,
) -> Result<Vec<SizeCheck>, String> {
    check_with(model, cert, sizes, solver, stop, Method::Auto)
}

/// `check` with the choice of the check made by `method`. Under a limit the check runs
/// on a thread of its own, waited for until the limit (`cores::until_stopped`): a single
/// BDD operation of the check cannot be interrupted (odd-even sort at widths 1..40: one
/// `ite` ran past 30 s), so past that the sizes are reported not checked.
pub fn check_with(
    model: &Model,
    cert: &Certificate,
    sizes: &[usize],
    solver: SolverKind,
    stop: &Stop,
    method: Method,
) -> Result<Vec<SizeCheck>, String> {
    if stop.deadline.is_none() && stop.flag.is_none() {
        return check_here(model, cert, sizes, solver, stop, method);
    }
    let (m, c, s, st) = (model.clone(), cert.clone(), sizes.to_vec(), stop.clone());
    let job = move || check_here(&m, &c, &s, solver, &st, method);
    crate::cores::until_stopped(&|| stop.now(), job)
        .unwrap_or_else(|| Ok(sizes.iter().map(|&n| not_checked(n)).collect()))
}

/// Size n left unchecked by the limit.
fn not_checked(n: usize) -> SizeCheck {
    SizeCheck {
        size: n,
        certified: Vec::new(),
        failures: Vec::new(),
        unchecked: vec![format!("size {n}: {NOT_CHECKED}")],
        by: Checker::Sat,
    }
}

/// `check_with` on the caller's thread.
fn check_here(
    model: &Model,
    cert: &Certificate,
    sizes: &[usize],
    solver: SolverKind,
    stop: &Stop,
    method: Method,
) -> Result<Vec<SizeCheck>, String> {
    if cert.ranking().is_some() {
        return rank::check(model, cert, sizes, solver, stop);
    }
    let (m, lemma_props, counts) = with_lemmas(model, cert)?;
    if let Some(failed) = other_window(model, cert, sizes) {
        return Ok(failed);
    }
    // One size's check; the sizes are independent, so they are checked on the
    // machine's cores, the largest first (the slowest), each answer in its place.
    let one = |n: usize| -> Result<SizeCheck, String> {
        let claims: Vec<String> = cert
            .proves
            .iter()
            .filter(|(_, s)| s.contains(&n))
            .map(|(p, _)| p.clone())
            .collect();
        let lemmas = lemmas_at(cert, &lemma_props, n);
        // Past the limit a size's instance is not even built (that alone takes
        // seconds on large sizes).
        if stop.now() {
            return Ok(not_checked(n));
        }
        let base = model.unsafes.len();
        let at_n: Vec<usize> = lemmas.iter().map(|&(p, _)| p - base).collect();
        let counting = |i: usize| counts.contains_key(&(base + i));
        if method != Method::Sat && bdd_check::applies(cert, &at_n, &counting) {
            match bdd_check::check_size(&m, base, cert, n, &claims, &at_n, stop) {
                Some(c) => return Ok(c),
                None if method == Method::Bdd => {
                    return Ok(SizeCheck {
                        size: n,
                        certified: Vec::new(),
                        failures: Vec::new(),
                        unchecked: vec![format!(
                            "size {n}: not checked (the BDDs outgrew their node table)"
                        )],
                        by: Checker::Bdd,
                    });
                }
                None => {}
            }
        }
        let (failures, unchecked) =
            check_size(&m, model, cert, n, &claims, &lemmas, &counts, solver, stop)?;
        Ok(SizeCheck {
            size: n,
            certified: if failures.is_empty() && unchecked.is_empty() {
                claims
            } else {
                Vec::new()
            },
            failures,
            unchecked,
            by: Checker::Sat,
        })
    };
    crate::cores::largest_first(sizes, &one, &|_| false)
        .into_iter()
        .map(|d| d.unwrap_or_else(|| Err("a size's check did not finish".into())))
        .collect()
}

/// Every size failed when the certificate was made with another int window than the
/// model is checked with; `None` when the windows agree.
fn other_window(model: &Model, cert: &Certificate, sizes: &[usize]) -> Option<Vec<SizeCheck>> {
    let window = model.int_window.as_ref().map(|w| (w.lo, w.hi));
    if cert.ints == window {
        return None;
    }
    let text = |w: Option<(i64, i64)>| match w {
        Some((lo, hi)) => format!("ints {lo}..{hi}"),
        None => "no ints".to_string(),
    };
    let failure = format!(
        "the certificate is about {}, the model is checked with {}",
        text(cert.ints),
        text(window)
    );
    Some(
        sizes
            .iter()
            .map(|&n| SizeCheck {
                size: n,
                certified: Vec::new(),
                failures: vec![failure.clone()],
                unchecked: Vec::new(),
                by: Checker::Sat,
            })
            .collect(),
    )
}

/// The lemmas at size n, as (property, what it is about: `Some(true)` the int window,
/// `Some(false)` range errors, `None` the states).
fn lemmas_at(cert: &Certificate, lemma_props: &[usize], n: usize) -> Vec<(usize, Option<bool>)> {
    cert.lemmas
        .iter()
        .zip(lemma_props)
        .filter(|(l, _)| l.at(n))
        .map(|(l, &p)| (p, (l.no_int_bound || l.no_range).then_some(l.no_int_bound)))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn check_size(
    m: &Model,
    original: &Model,
    cert: &Certificate,
    n: usize,
    claims: &[String],
    lemmas: &[(usize, Option<bool>)],
    counts: &HashMap<usize, CountSpec>,
    solver: SolverKind,
    stop: &Stop,
) -> Result<(Vec<String>, Vec<String>), String> {
    let k = cert.induction();
    let mut q = SizeQueries::new(m, original, cert, n, lemmas, counts, solver, stop)?;
    q.initiation();
    let first = q.consecution_targets(m, n);
    // The range error of `init`, the one query left that does not assume Inv.
    if claims.iter().any(|c| c == "range_error") {
        let init_err = q.u.init_err;
        q.ask(&[init_err], "evaluating init meets a range error", 0);
    }
    // Inv as a unit clause from here on when k = 1 (the queries left all assume it):
    // the solver propagates it once, at the root.
    if k == 1 {
        q.u.c.assert(q.inv[0]);
    }
    q.consecution(&first);
    q.claims(claims);
    Ok((q.failures, q.unchecked))
}

/// The queries of one size's check: the instance unrolled k steps (one-hot cells), Inv
/// and each lemma's violation at every frame, one incremental solver for every query,
/// and the conditions that failed so far.
struct SizeQueries<'a> {
    u: Unroller<'a>,
    s: Box<dyn Backend>,
    stop: &'a Stop,
    original: &'a Model,
    cert: &'a Certificate,
    lemmas: &'a [(usize, Option<bool>)],
    counts: &'a HashMap<usize, CountSpec>,
    all_props: Vec<usize>,
    /// Inv at frame j.
    inv: Vec<Lit>,
    /// Each lemma's violation at frame j.
    viol: Vec<Vec<Lit>>,
    /// The consecution query's runs: stutter-free, simple (assumptions).
    path: Vec<Lit>,
    failures: Vec<String>,
    /// The conditions the limit left undecided.
    unchecked: Vec<String>,
}

impl<'a> SizeQueries<'a> {
    /// Unroll the instance of size `n` of `m` (the model with the lemmas) k steps and
    /// build Inv and the lemmas' violations at every frame (with `simple path`, runs of
    /// pairwise distinct states only).
    #[allow(clippy::too_many_arguments)]
    fn new(
        m: &'a Model,
        original: &'a Model,
        cert: &'a Certificate,
        n: usize,
        lemmas: &'a [(usize, Option<bool>)],
        counts: &'a HashMap<usize, CountSpec>,
        solver: SolverKind,
        stop: &'a Stop,
    ) -> Result<SizeQueries<'a>, String> {
        let k = cert.induction();
        let mut u = Unroller::new(m, n, Encoding::OneHot);
        for _ in 0..k {
            u.add_step();
        }
        let s = solver.create_plain()?;
        let all_props: Vec<usize> = (0..original.unsafes.len()).collect();
        let mut inv = Vec::new();
        let mut viol: Vec<Vec<Lit>> = Vec::new();
        let mut counters: Vec<Vec<Counter>> = Vec::new();
        let mut failures = Vec::new();
        let base = original.unsafes.len();
        for j in 0..=k {
            let mut cs = Vec::new();
            let mut bad = Vec::new();
            let mut diagram = Diagram::new(&u, cert.nodes());
            for &(p, special) in lemmas {
                if let Some(r) = cert.lemmas[p - base].bdd {
                    match diagram.lit(&mut u, j, r) {
                        Ok(l) => bad.push(l),
                        Err(e) => {
                            if j == 0 {
                                failures.push(e);
                            }
                            bad.push(-TRUE);
                        }
                    }
                } else if let Some(int) = special {
                    // `no int_bound` or `no range error`.
                    let r = if int {
                        u.ts.int_bound(false)
                    } else {
                        u.ts.range(&all_props, false)
                    };
                    bad.push(u.lit(j, r));
                } else if let Some(spec) = counts.get(&p) {
                    bad.push(count_violation(&mut u, spec, j, n, &mut cs));
                } else {
                    let (b, e) = u.bad(p, j);
                    bad.push(u.c.and2(b, -e));
                }
            }
            let any = u.c.or(&bad);
            inv.push(-any);
            viol.push(bad);
            counters.push(cs);
        }
        for j in 0..k {
            for (a, b) in counters[j].iter().zip(&counters[j + 1]) {
                count::agree(&mut u.c, &a.0, &b.0, &a.1, &b.1);
            }
        }
        // The run shape of the consecution query, assumed there only: an initiation
        // query must see every run, also one that stops or repeats a state before k
        // steps. A k-induction (k > 1) is over stutter-free runs, with `simple path`
        // over runs of pairwise distinct states.
        let mut path = Vec::new();
        if k > 1 {
            for j in 0..k {
                path.push(-u.idle(j));
            }
        }
        if cert.simple_path() {
            path.extend(simple_path(&mut u, k));
        }
        Ok(SizeQueries {
            u,
            s,
            stop,
            original,
            cert,
            lemmas,
            counts,
            all_props,
            inv,
            viol,
            path,
            failures,
            unchecked: Vec::new(),
        })
    }

    /// Ask whether `a` is satisfiable; if so, `what` failed, naming the first lemma
    /// violated at `frame` in the model found (if the solver gave up, `what` is
    /// unchecked).
    fn ask(&mut self, a: &[Lit], what: &str, frame: usize) {
        match self.s.solve(&self.u.c.cnf, a, self.stop) {
            SolveResult::Unsat => {}
            SolveResult::Unknown => self.unchecked.push(format!("{what}: {NOT_CHECKED}")),
            SolveResult::Sat => {
                let which = self.viol[frame]
                    .iter()
                    .position(|&l| self.s.value(l))
                    .map(|i| format!(" (lemma `{}`)", self.lemma_text(i)))
                    .unwrap_or_default();
                self.failures.push(format!("{what}{which}"));
            }
        }
    }

    /// The text of the i-th lemma claimed at this size.
    fn lemma_text(&self, i: usize) -> String {
        let idx = self.lemmas[i].0 - self.original.unsafes.len();
        self.cert.lemmas[idx].text()
    }

    /// Initial states (and the first k-1 steps of every run) satisfy Inv.
    fn initiation(&mut self) {
        let k = self.cert.induction();
        for j in 0..k.min(self.inv.len()) {
            let a = [self.u.init_ok, -self.inv[j]];
            let what = if j == 0 {
                "an initial state violates the invariant".to_string()
            } else {
                format!("a state reached in {j} steps violates the invariant")
            };
            self.ask(&a, &what, j);
        }
    }

    /// Consecution is asked one lemma at a time: many easy queries in one incremental
    /// solver are far cheaper than one query for the whole disjunction. When the model
    /// with the lemmas is fully symmetric (the front end's analysis of the whole text:
    /// no process constants or order on processes in any transition, property or
    /// lemma), Inv and the steps are closed under renaming the processes, so a step
    /// from Inv violating a lemma at some tuple of distinct processes is a renaming of
    /// one violating it at the tuple 1..k: that tuple is the one asked.
    fn consecution_targets(&mut self, m: &Model, n: usize) -> Vec<Lit> {
        let k = self.cert.induction();
        // A diagram names cells, not processes: with one, Inv is not closed under
        // renaming.
        let diagrams = self.cert.lemmas.iter().any(|l| l.bdd.is_some());
        if !(m.is_symmetric() && n > 1) || diagrams {
            return self.viol[k].clone();
        }
        let u = &mut self.u;
        // A counting lemma is invariant under renaming: a step violating it is a
        // renaming of one whose transition instance has process n as its first
        // parameter (the last one its counter adds up, so that `count::agree` settles
        // the processes before it).
        let others: Vec<Lit> = u
            .instances
            .iter()
            .zip(&u.steps[k - 1].sel)
            .filter(|((_, ps), _)| ps.first().is_some_and(|&p| p != n as i64))
            .map(|(_, &s)| -s)
            .collect();
        let last = u.c.and(&others);
        self.lemmas
            .iter()
            .zip(&self.viol[k])
            .map(|(&(p, special), &all)| {
                let params = m.unsafes[p].params;
                if self.counts.contains_key(&p) {
                    return u.c.and2(all, last);
                }
                if special.is_some() || params > n {
                    return all;
                }
                let tuple: Vec<i64> = (1..=params as i64).collect();
                let (b, e) = u.bad_tuple(p, k, &tuple);
                u.c.and2(b, -e)
            })
            .collect()
    }

    /// Inv ∧ T ⇒ Inv′, one lemma's violation at a time, up to the first failure.
    fn consecution(&mut self, first: &[Lit]) {
        let k = self.cert.induction();
        for &v in first {
            // Still assumed: a constant Inv (false, for a model without initial states)
            // is no clause.
            let mut a: Vec<Lit> = self.inv[..k].to_vec();
            a.extend(&self.path);
            a.push(v);
            let before = self.failures.len() + self.unchecked.len();
            self.ask(
                &a,
                "the invariant is not inductive: a step from it leaves it",
                k,
            );
            if self.failures.len() + self.unchecked.len() > before {
                break;
            }
        }
    }

    /// Inv ⇒ ¬bad for every claimed property.
    fn claims(&mut self, claims: &[String]) {
        for c in claims {
            let u = &mut self.u;
            let bad = if c == "range_error" {
                let r = u.ts.range(&self.all_props, false);
                u.lit(0, r)
            } else if c == "int_bound" {
                let r = u.ts.int_bound(false);
                u.lit(0, r)
            } else {
                let Some(p) = self.original.unsafes.iter().position(|x| &x.name == c) else {
                    self.failures.push(format!(
                        "the certificate claims `{c}`, which the model lacks"
                    ));
                    continue;
                };
                let (b, e) = u.bad(p, 0);
                u.c.and2(b, -e)
            };
            if bad != -TRUE {
                let inv0 = self.inv[0];
                self.ask(&[inv0, bad], &format!("{CLAIM_FAILED}{c}`"), 0);
            }
        }
    }
}

/// "The frames 0..=k differ pairwise", one literal per pair.
fn simple_path(u: &mut Unroller, k: usize) -> Vec<Lit> {
    let mut out = Vec::new();
    for i in 0..=k {
        for j in i + 1..=k {
            out.push(u.differ(i, j));
        }
    }
    out
}
