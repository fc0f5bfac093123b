//! `--engine bdd` for `ltl` properties: a symbolic fixpoint with binary decision
//! diagrams on the aggregate of the sizes (T. Wahl's thesis, ch. 11, where the
//! aggregate was checked with BDDs), every width answered by one fixpoint.
//!
//! The system is the k-liveness product (`live::Variant::Klive`: the model, the
//! Büchi automaton of the negated property, and flags that record, since the last
//! count, an accepting state left and each process served) over the transition-system
//! layer of the SAT engines (`transys`), turned into BDDs bit for bit (`sys`).
//! The round counter itself is left out: the engine computes the sets L_k of states
//! from which some run completes k rounds and their limit L_∞, the states with a
//! fair accepting run — Emerson and Lei's fixpoint for one Büchi condition (E. A.
//! Emerson, C.-L. Lei, "Efficient model checking in fragments of the propositional
//! mu-calculus", LICS 1986), backward only (`rounds`).
//!
//! - A width whose initial states meet L_∞ fails: a lasso is read off the onion rings
//!   (E. M. Clarke, O. Grumberg, K. L. McMillan, X. Zhao, DAC 1995; `witness`),
//!   turned into a lasso of the model and replayed on the interpreter of the unreduced
//!   instance with fairness checked (`live::lasso_in_rounds`), then handed to BMC on
//!   the liveness-to-safety product for a shortest one within a few seconds (the
//!   output says when the printed lasso is the fixpoint's own, not a shortest one).
//! - A width whose initial states leave L_k holds: the sets become a certificate, an
//!   inductive invariant of the k-liveness product written as decision diagrams
//!   (`export`), checked by SAT on each width's own instance (`proof::check`, which
//!   shares nothing of this engine: docs/internals.md, "The trust base") before `holds (proved)` is printed, and re-checked
//!   by `nfold certify`.
//! - A range error reachable at a width (backward from the states where one occurs)
//!   is found by BMC at the depth the BDDs give and replayed; that width's property is
//!   then `unknown`, as with the nested search.
//!
//! BDD package: `oxidd` (N. Husung, C. Dubslaff, H. Hermanns, M. A. Köhl, TACAS 2024),
//! chosen for its shared unique table with complement edges, the relational product
//! (conjunction and quantification in one pass), substitution, and allocation
//! failures reported as errors rather than aborts; it is maintained and safe Rust.
//! (`biodivine-lib-bdd` keeps each BDD in an array of its own, with no shared table or
//! operation cache across operations, which a fixpoint of thousands of images needs.)

mod export;
mod rounds;
mod sys;
mod witness;

use crate::cert::{BddRef, CertLemma, Certificate};
use crate::engine::LtlChecked;
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::lasso::Lasso;
use crate::live::{self, LOOP_PROP, Origin, Product, Variant};
use crate::proof::check::{Checker, SizeCheck};
use crate::proof::finish;
use crate::sat::SolverKind;
use crate::trace::Trace;
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Stats, Verdict};
use oxidd::{BooleanFunction, Function};
use std::sync::Arc;
use std::time::{Duration, Instant};
use sys::{F, R, Stop, Sys};

/// The BDD engine.
#[derive(Clone, Debug)]
pub struct BddEngine {
    /// The SAT solver of the certificate check and of the lasso and range-error
    /// searches.
    pub solver: SolverKind,
    /// Capacity of the node table (nodes).
    pub nodes: usize,
}

/// The default node table: 2^26 nodes (about 1 GiB at most, touched as used).
pub const NODES: usize = 1 << 26;

/// How long BMC may look for shorter lassos, all widths of a property together.
const SHORTEN_SECONDS: f64 = 5.0;

/// The user's limits, polled between BDD operations.
pub struct Budget<'a> {
    ctl: &'a Control,
}

impl Budget<'_> {
    pub fn poll(&self) -> R<()> {
        if self.ctl.users_limit().is_some() {
            return Err(Stop::Limit);
        }
        if let (Some(max), Some(now)) = (self.ctl.max_memory, crate::limits::recent_memory())
            && now > max
        {
            return Err(Stop::Memory);
        }
        Ok(())
    }

    /// The limit a stop of the engine reports.
    fn limit(&self, stop: Stop) -> Limit {
        match stop {
            Stop::Memory => Limit::Memory,
            Stop::Limit => self.ctl.users_limit().unwrap_or(Limit::Timeout),
        }
    }
}

/// The sets the fixpoint starts from, over the valid states: the initial states, those
/// whose `init` meets a range error, those with a range error, and the initial states
/// of each width of the problem whose `init` meets none.
struct Start {
    valid: F,
    init: F,
    init_err: F,
    range: F,
    widths: Vec<(usize, F)>,
}

/// The fixpoint's `Start`; a width whose `init` meets a range error is left out, with
/// an error in `f` (the bdd engine does not report those).
fn start(sys: &mut Sys, p: &Problem, f: &mut Found) -> R<Start> {
    let init_lit = sys.ts.init;
    let err_lit = sys.ts.init_err;
    let valid = sys.valid.clone();
    let init = sys.eval(init_lit, None)?.and(&valid).map_err(Stop::from)?;
    let init_err = sys.eval(err_lit, None)?.and(&valid).map_err(Stop::from)?;
    let range_lit = sys.ts.range(&[], false);
    let range = sys.eval(range_lit, None)?.and(&valid).map_err(Stop::from)?;
    let mut widths: Vec<(usize, F)> = Vec::new();
    for w in p.sizes() {
        let width = sys.width(w)?;
        if init_err.and(&width).map_err(Stop::from)?.satisfiable() {
            f.errors.push((
                w,
                "evaluating init meets a range error at this size, which the bdd engine does not report".into(),
            ));
            continue;
        }
        widths.push((w, init.and(&width).map_err(Stop::from)?));
    }
    Ok(Start {
        valid,
        init,
        init_err,
        range,
        widths,
    })
}

/// The number of steps from `iw` to a range error: the first of the `rings` (the states
/// that many steps from one) that meets it, 0 when none does.
fn first_ring(iw: &F, rings: &[F]) -> R<usize> {
    for (d, ring) in rings.iter().enumerate() {
        if iw.and(ring).map_err(Stop::from)?.satisfiable() {
            return Ok(d);
        }
    }
    Ok(0)
}

/// The certificate check's failures as errors, and a note of which check accepted each
/// width: BDDs over the checker's own encoding, or SAT where those outgrew their node
/// table.
fn note_checks(checks: &[SizeCheck], f: &mut Found) {
    for c in checks.iter().filter(|c| !c.failures.is_empty()) {
        f.errors.push((
            c.size,
            format!(
                "the bdd certificate failed its check: {}",
                c.failures.join("; ")
            ),
        ));
    }
    for by in [Checker::Bdd, Checker::Sat] {
        let at: Vec<usize> = checks
            .iter()
            .filter(|c| c.accepted() && c.by == by)
            .map(|c| c.size)
            .collect();
        if !at.is_empty() {
            f.notes.push(format!(
                "bdd: the certificate {} at {}",
                by.phrase(),
                crate::cert::sizes_phrase(&at)
            ));
        }
    }
}

/// What the engine found for one `ltl` property.
#[derive(Default)]
struct Found {
    lassos: Vec<Lasso>,
    /// Range errors, as traces of the model.
    ranges: Vec<Trace>,
    /// Widths proved by the fixpoint, with K_w.
    proved: Vec<(usize, usize)>,
    /// The checked certificate and the widths it was accepted at.
    certificate: Option<(Arc<Certificate>, Vec<usize>)>,
    /// Per width, internal errors.
    errors: Vec<(usize, String)>,
    limit: Option<Limit>,
    notes: Vec<String>,
    /// When the search for shorter lassos must stop.
    shorten_until: Option<Instant>,
}

impl Engine for BddEngine {
    fn name(&self) -> &'static str {
        "bdd"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation::new("none (the BDD engine does not use symmetry)", "nodes")
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "BDD fixpoint on the k-liveness product (Emerson-Lei, oxidd){}; certificates checked independently ({})",
            p.aggregate_text(),
            self.solver.name()
        )
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::LTL
    }

    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> LtlChecked {
        let start = Instant::now();
        let model = p.model;
        let f = if model.int_window.is_some() || model.extra_proc.is_some() {
            let mut f = Found::default();
            f.notes.push(format!(
                "`{}`: the bdd engine does not read models with `int` or the extra process id; not checked",
                model.ltls[k].name
            ));
            f
        } else {
            self.find_within_limits(p, ctl, k)?
        };
        let seconds = start.elapsed().as_secs_f64();
        let mut reports: Vec<SizeReport> = p
            .sizes()
            .into_iter()
            .map(|n| self.report(p, k, &f, n, seconds))
            .collect();
        live::fill_unknown(&mut reports, model, k);
        // Only a certificate accepted at every width it claims leaves the engine.
        let whole = f.certificate.as_ref().filter(|(c, ok)| {
            c.proves
                .iter()
                .all(|(_, ws)| ws.iter().all(|w| ok.contains(w)))
        });
        let out = Outcome {
            limit: f.limit,
            certificate: whole.map(|c| c.0.clone()),
            certificates: whole.iter().map(|c| c.0.clone()).collect(),
            aggregate: p.max > p.min,
            notes: f.notes,
            ..Outcome::default()
        };
        Ok((reports, out))
    }
}

impl BddEngine {
    /// What the fixpoint finds for property k, within the user's limits.
    fn find(&self, p: &Problem, ctl: &Control, k: usize) -> Result<Found, String> {
        let mut f = Found::default();
        let prod = Product::build(p.model, k, p.fair, Variant::Klive(1))?;
        let budget = Budget { ctl };
        if let Err(stop) = self.search(p, ctl, k, &prod, &budget, &mut f)? {
            f.limit = Some(budget.limit(stop));
        }
        Ok(f)
    }

    /// `find` on a thread of its own, given up `GRACE` after a limit is reached. The
    /// engine polls its limits between BDD operations, and one operation cannot be
    /// interrupted (oxidd has no cancellation): on a large set it runs for tens of
    /// seconds. Given up, the thread goes on to the end of its operation and then stops
    /// at its next poll (the deadline has passed); its result is dropped.
    fn find_within_limits(&self, p: &Problem, ctl: &Control, k: usize) -> Result<Found, String> {
        if ctl.deadline.is_none() && ctl.stop.is_none() && ctl.max_memory.is_none() {
            return self.find(p, ctl, k);
        }
        const GRACE: Duration = Duration::from_millis(400);
        const POLL: Duration = Duration::from_millis(50);
        let (tx, rx) = std::sync::mpsc::channel();
        let (engine, ctl_t, model) = (self.clone(), ctl.clone(), Arc::new(p.model.clone()));
        let (min, max, fair) = (p.min, p.max, p.fair);
        let (props, ltls) = (p.props.clone(), p.ltls.clone());
        std::thread::spawn(move || {
            let p = Problem {
                model: &model,
                min,
                max,
                props,
                ltls,
                fair,
            };
            // The receiver is gone when the search was given up.
            let _ = tx.send(engine.find(&p, &ctl_t, k));
        });
        let mut limit_since: Option<(Instant, Limit)> = None;
        loop {
            match rx.recv_timeout(POLL) {
                Ok(found) => return found,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err("the bdd engine's thread ended without an answer".into());
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            let budget = Budget { ctl };
            let Err(stop) = budget.poll() else {
                continue;
            };
            let limit = budget.limit(stop);
            let (since, limit) = *limit_since.get_or_insert((Instant::now(), limit));
            if since.elapsed() >= GRACE {
                let mut f = Found {
                    limit: Some(limit),
                    ..Found::default()
                };
                f.notes.push(
                    "bdd: stopped in the middle of one BDD operation, which cannot be interrupted (it finishes in the background)".into(),
                );
                return Ok(f);
            }
        }
    }

    /// The fixpoint and what follows from it; `Ok(Err(stop))` when a limit or the node
    /// table stopped it (what was found before stays in `f`).
    fn search(
        &self,
        p: &Problem,
        ctl: &Control,
        k: usize,
        prod: &Product,
        budget: &Budget,
        f: &mut Found,
    ) -> Result<R<()>, String> {
        let ts = Transys::new(&prod.model, p.min, p.max, Encoding::Binary);
        let rounds_var = prod.model.vars.len() - 1;
        let left_out: Vec<usize> = (0..ts.inst.slots.len())
            .filter(|&s| ts.inst.slots[s].var == rounds_var)
            .collect();
        let origin = prod.origin.clone();
        let instances = ts.instances.clone();
        let special = move |t: usize| origin[instances[t].0] == Origin::Count;
        // The property's process on top (the labels read it), then every cell by
        // process slot: a process's fairness flag beside its cells (the flags at the
        // bottom made the relations of the semaphore mutex at n = 10 remember every
        // process's enabledness: 9.6 million nodes), the automaton state and the
        // acceptance flag with the cells of no process.
        let var_of: Vec<usize> = ts.inst.slots.iter().map(|s| s.var).collect();
        let proc_var = prod.proc_var;
        let tier = move |s: usize| usize::from(Some(var_of[s]) != proc_var);
        let t0 = Instant::now();
        let mut sys = match Sys::new(ts, &left_out, &tier, &special, self.nodes, budget) {
            Ok(s) => s,
            Err(e) => return Ok(Err(e)),
        };
        if ctl.progress {
            crate::progress::line(format!(
                "bdd: {} state bits, {} transition instances, {} nodes ({:.2}s)",
                sys.bits.len(),
                sys.steps.len() + sys.special.len(),
                sys.nodes(),
                t0.elapsed().as_secs_f64()
            ));
        }
        let r = self.fixpoint(p, ctl, k, prod, &mut sys, budget, f);
        f.notes.push(format!(
            "bdd: peak {} nodes in the node table ({:.2}s)",
            sys.peak.max(sys.nodes()),
            t0.elapsed().as_secs_f64()
        ));
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn fixpoint(
        &self,
        p: &Problem,
        ctl: &Control,
        k: usize,
        prod: &Product,
        sys: &mut Sys,
        budget: &Budget,
        f: &mut Found,
    ) -> Result<R<()>, String> {
        macro_rules! bdd {
            ($e:expr) => {
                match $e {
                    Ok(x) => x,
                    Err(e) => return Ok(Err(e)),
                }
            };
        }
        // Held to the end, as the sets were when this was one function: the node
        // table keeps what is referenced.
        let Start {
            valid,
            init: _init,
            init_err: _init_err,
            range,
            widths,
        } = bdd!(start(sys, p, f));
        let widths = bdd!(self.ranged(p, ctl, prod, sys, (&range, &valid), widths, budget, f)?);
        let t0 = Instant::now();
        let progress = ctl.progress;
        let out = bdd!(rounds::run(
            sys,
            &widths,
            budget,
            &mut |k, l, open, images| {
                if progress {
                    crate::progress::line(format!(
                        "bdd: L_{k}: {} nodes, {open} widths open, {images} images ({:.2}s)",
                        l.node_count(),
                        t0.elapsed().as_secs_f64()
                    ));
                }
            }
        ));
        f.notes.push(format!(
            "bdd: {} fixpoint steps (rounds), {} images{}",
            out.sets.len(),
            out.images,
            if out.converged {
                ", the sequence converged"
            } else {
                ""
            }
        ));
        f.proved = out.proved.clone();
        let fair = out
            .sets
            .last()
            .expect("the rounds start from the valid states")
            .clone();
        for &w in &out.failing {
            let iw = &widths
                .iter()
                .find(|x| x.0 == w)
                .expect("a failing width is one the rounds were asked about")
                .1;
            let l = bdd!(witness::lasso(
                sys, p.model, k, p.fair, w, iw, &fair, budget
            ));
            match l {
                Ok(l) => {
                    let l = self.shorten(p, ctl, k, l, f);
                    f.lassos.push(l);
                }
                Err(e) => f
                    .errors
                    .push((w, format!("no lasso from the fixpoint: {e}"))),
            }
        }
        if !f.proved.is_empty() {
            bdd!(self.certify(p, ctl, k, sys, &out.sets, f)?);
        }
        Ok(Ok(()))
    }

    /// The widths `widths` whose initial states reach no range error (`range`, within
    /// the `valid` states); each of the others is given its range error, by BMC at the
    /// depth the BDDs give, and left out. A width meeting one in an initial state's
    /// first step needs no backward search: on a model whose every width meets one
    /// there, that search was the engine's whole time, for `unknown` at every width.
    #[allow(clippy::too_many_arguments)]
    fn ranged(
        &self,
        p: &Problem,
        ctl: &Control,
        prod: &Product,
        sys: &mut Sys,
        (range, valid): (&F, &F),
        widths: Vec<(usize, F)>,
        budget: &Budget,
        f: &mut Found,
    ) -> Result<R<Vec<(usize, F)>>, String> {
        if !range.satisfiable() {
            return Ok(Ok(widths));
        }
        let mut later = Vec::new();
        for (w, iw) in widths {
            match iw.and(range).map_err(Stop::from) {
                Err(e) => return Ok(Err(e)),
                Ok(x) if x.satisfiable() => self.range_error(p, ctl, prod, w, 0, f),
                Ok(_) => later.push((w, iw)),
            }
        }
        if later.is_empty() {
            return Ok(Ok(later));
        }
        let (back, rings) = match rounds::reach_all_back(sys, range, valid, budget) {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        };
        let mut keep = Vec::new();
        for (w, iw) in later {
            match iw.and(&back).map_err(Stop::from) {
                Err(e) => return Ok(Err(e)),
                Ok(x) if !x.satisfiable() => keep.push((w, iw)),
                Ok(_) => match first_ring(&iw, &rings) {
                    Ok(depth) => self.range_error(p, ctl, prod, w, depth, f),
                    Err(e) => return Ok(Err(e)),
                },
            }
        }
        Ok(Ok(keep))
    }

    /// A range error at width w within `depth` steps, by BMC on the product, replayed.
    fn range_error(
        &self,
        p: &Problem,
        ctl: &Control,
        prod: &Product,
        w: usize,
        depth: usize,
        f: &mut Found,
    ) {
        let pp = Problem::new(&prod.model, w, w, Vec::new());
        match finish::shortest(&pp, PropId::Range, w, depth, self.solver, ctl)
            .and_then(|t| live::decode_trace(p.model, prod, &t))
        {
            Ok(t) => f.ranges.push(t),
            Err(e) => f.errors.push((w, format!("range error: {e}"))),
        }
    }

    /// A shortest lasso of the width of `l` by BMC on the liveness-to-safety product
    /// (one step for the save, and the stutters of a deadlock), within
    /// `SHORTEN_SECONDS` for all widths together; `l` itself, with a note, when that search does not finish.
    fn shorten(&self, p: &Problem, ctl: &Control, k: usize, l: Lasso, f: &mut Found) -> Lasso {
        let until = *f
            .shorten_until
            .get_or_insert_with(|| Instant::now() + Duration::from_secs_f64(SHORTEN_SECONDS));
        let within = Control {
            deadline: Some(ctl.deadline.map_or(until, |d| d.min(until))),
            ..ctl.clone()
        };
        let found = Product::new(p.model, k, p.fair).and_then(|prod| {
            let depth = l.steps.len() + 1 + prod.automaton_states;
            let pp = Problem::new(&prod.model, l.size, l.size, vec![LOOP_PROP]);
            let key = PropId::Unsafe(LOOP_PROP);
            let t = finish::shortest(&pp, key, l.size, depth, self.solver, &within)?;
            live::decode_lasso(p.model, &prod, &t)
        });
        match found {
            Ok(s) if s.steps.len() <= l.steps.len() => s,
            _ => {
                f.notes.push(format!(
                    "the lasso of size {} is the BDD fixpoint's own ({} steps), not shown to be shortest: the search for a shorter one did not finish",
                    l.size,
                    l.steps.len()
                ));
                l
            }
        }
    }

    /// The certificate of the widths proved (`export`), checked at each of them.
    fn certify(
        &self,
        p: &Problem,
        ctl: &Control,
        k: usize,
        sys: &mut Sys,
        sets: &[F],
        f: &mut Found,
    ) -> Result<R<()>, String> {
        let top = f
            .proved
            .iter()
            .map(|x| x.1)
            .max()
            .expect("certify is only called with widths proved");
        let prod = Product::build(p.model, k, p.fair, Variant::Klive(top))?;
        let t0 = Instant::now();
        let mut ex = export::Exporter::new(sys);
        let rounds_name = prod.model.vars[prod.model.vars.len() - 1].name.clone();
        let bits = (usize::BITS - top.leading_zeros()) as usize;
        let mut widths: Vec<usize> = f.proved.iter().map(|x| x.0).collect();
        widths.sort_unstable();
        let lemmas = match self.lemmas(sys, &mut ex, sets, &f.proved, (&rounds_name, bits)) {
            Ok(l) => l,
            Err(e) => return Ok(Err(e)),
        };
        let nodes = std::mem::take(&mut ex.nodes);
        let count = nodes.len();
        let (lo, hi) = (widths[0], widths[widths.len() - 1]);
        let pp = Problem::new(&prod.model, lo, hi, vec![0]);
        let name = PropId::Unsafe(0).name(&prod.model);
        let (cert, checks) = finish::certify_diagrams(
            &pp,
            "bdd",
            lemmas,
            nodes,
            vec![(name, widths.clone())],
            &widths,
            self.solver,
            ctl,
        )?;
        let accepted: Vec<usize> = checks
            .iter()
            .filter(|c| c.accepted())
            .map(|c| c.size)
            .collect();
        note_checks(&checks, f);
        if ctl.progress {
            crate::progress::line(format!(
                "bdd: certificate of {count} nodes (k-liveness, K = {top}) checked at {} in {:.2}s",
                crate::cert::sizes_phrase(&widths),
                t0.elapsed().as_secs_f64()
            ));
        }
        let marked = Arc::new(Certificate {
            liveness: Some((p.model.ltls[k].name.clone(), p.fair)),
            klive: Some(top),
            ..(*cert).clone()
        });
        f.certificate = Some((marked, accepted));
        Ok(Ok(()))
    }

    /// The certificate's lemmas for each width w proved with K_w rounds (`proved`): the
    /// sets `sets` at w, exported by `ex`, decided on the product's round counter (the
    /// cell `rounds`, of `bits` bits).
    fn lemmas(
        &self,
        sys: &mut Sys,
        ex: &mut export::Exporter,
        sets: &[F],
        proved: &[(usize, usize)],
        (rounds_name, bits): (&str, usize),
    ) -> R<Vec<CertLemma>> {
        let mut lemmas = Vec::new();
        for &(w, kw) in proved {
            let exists = self.existing(sys, w);
            let mut roots = vec![BddRef::Const(true)];
            for set in sets.iter().take(kw + 1).skip(1) {
                let at = export::at_width(sys, set, w, &exists)?;
                roots.push(ex.export(&at)?);
            }
            // One lemma per counter value c < K_w (L_{K_w - c}), one for c >= K_w
            // (every state): the check asks consecution one lemma at a time, and
            // these queries are far easier apart (odd-even sort, n = 6: 16.5 s as one
            // lemma).
            let lemma = |root: BddRef| CertLemma {
                sizes: Some((w, w)),
                vars: Vec::new(),
                body: String::new(),
                no_range: false,
                no_int_bound: false,
                ordered: false,
                bdd: Some(root),
            };
            for c in 0..=kw {
                let leaves: Vec<BddRef> = (0..1usize << bits)
                    .map(|v| match v {
                        v if v == c && c < kw => roots[kw - c],
                        v if v >= kw && c == kw => BddRef::Const(true),
                        _ => BddRef::Const(false),
                    })
                    .collect();
                let root = ex.decide(rounds_name, 0, &leaves);
                lemmas.push(lemma(root));
            }
        }
        Ok(lemmas)
    }

    /// Per cell of the aggregate, whether it exists at width w.
    fn existing(&self, sys: &mut Sys, w: usize) -> Vec<bool> {
        let n = sys.ts.inst.slots.len();
        (0..n)
            .map(|s| {
                let slot = sys.ts.inst.slots[s].clone();
                let dims = sys.ts.inst.model.vars[slot.var].dims.clone();
                slot.index.iter().zip(&dims).all(|(&i, &d)| {
                    let l = sys.ts.agg.index_exists(&mut sys.ts.c, d, i, 0);
                    let wl = sys.ts.agg.width[w - 1];
                    // Exists at w: the literal holds in every state of width w.
                    let both = sys.ts.c.and2(wl, -l);
                    match sys.eval(both, None) {
                        Ok(b) => !b.and(&sys.valid).is_ok_and(|x| x.satisfiable()),
                        Err(_) => true,
                    }
                })
            })
            .collect()
    }

    /// The report of width n.
    fn report(&self, p: &Problem, k: usize, f: &Found, n: usize, seconds: f64) -> SizeReport {
        let model = p.model;
        let mut results = Vec::new();
        let proved = f.proved.iter().find(|x| x.0 == n);
        let ranged = f.ranges.iter().any(|t| t.size == n);
        let verdict = if let Some(l) = f.lassos.iter().find(|l| l.size == n) {
            Some(Verdict::violated_by_lasso(l.clone()))
        } else if ranged {
            Some(Verdict::Unknown)
        } else if proved.is_some() {
            Some(Verdict::proved_if_checked("bdd", f.certificate.as_ref(), n))
        } else {
            None
        };
        if let Some(v) = verdict {
            results.push(PropResult::new(model, n, PropId::Ltl(k), v));
        }
        for t in f.ranges.iter().filter(|t| t.size == n) {
            let v = Verdict::violated(t.clone());
            results.push(PropResult::new(model, n, PropId::Range, v));
        }
        let internal: Vec<String> = f
            .errors
            .iter()
            .filter(|e| e.0 == n)
            .map(|e| format!("`{}` (bdd): {}", model.ltls[k].name, e.1))
            .collect();
        SizeReport {
            size: n,
            engine: "bdd",
            symmetry: false,
            results,
            seconds,
            shared_time: p.max > p.min,
            limit: f.limit,
            internal_errors: internal,
            stats: Stats {
                proof_depth: proved.map(|x| x.1),
                lemmas: f
                    .certificate
                    .as_ref()
                    .filter(|c| c.1.contains(&n))
                    .map(|c| c.0.nodes().len()),
                ..Stats::default()
            },
            ..SizeReport::default()
        }
    }
}
