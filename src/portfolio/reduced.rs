//! Any engine on the reduced model (`model::reduce`), its answers given for the model
//! as written (as pono's `modifiers/` put a transform in front of any engine). The
//! engine sees the reduced model only; nothing of the reduction is trusted:
//! - every counterexample is lifted to a run of the model (`reduce::lift`) and replayed
//!   on the model's interpreter before it is reported;
//! - every proof's certificate is rewritten for the model (its lemmas, which speak of
//!   cells the model has, plus the constants and equivalences as lemmas) and checked
//!   on the model by `proof::check` at each size before `holds` is reported;
//! - the constants and equivalences are checked on the model (`init` implies them, no
//!   step breaks them) at each size before any other answer is given.
//!
//! A report that cannot be lifted becomes `unknown` with the reason as an internal
//! error.

use crate::cert::{CertLemma, Certificate, text_hash};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::lasso::Lasso;
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::model::reduce::{self, Asked, Dropped, Plan, lift::Lift};
use crate::sat::SolverKind;
use crate::trace::Trace;
use crate::verdict::{Counterexample, Proof, SizeReport, Verdict};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// A model and its reduction for a problem: the plan and the reduced model read back.
pub struct Reduction {
    pub plan: Plan,
    pub model: Model,
}

/// What a problem asks of its model (`deadlock`: deadlocks are reported).
pub fn asked(p: &Problem, deadlock: bool) -> Asked {
    Asked {
        props: p.props.clone(),
        ltls: p.ltls.clone(),
        deadlock,
        fair: p.fair,
    }
}

/// The header's `reduced` line for the problem: what the reduction leaves out (empty
/// when nothing, or when the reduced model is not used).
pub fn summary(p: &Problem, deadlock: bool) -> String {
    match reduce(p, deadlock) {
        Ok(Some(r)) => r.plan.summary(p.model),
        _ => String::new(),
    }
}

/// The reduction of the problem's model, read back as a model of its own; `None` when
/// nothing can be reduced.
pub fn reduce(p: &Problem, deadlock: bool) -> Result<Option<Reduction>, String> {
    Ok(reduce_model(p.model, &asked(p, deadlock), (p.min, p.max)))
}

/// The reduction of `model` for what `asked` asks at sizes `min..=max`, read back;
/// `None` when nothing can be reduced. A reduced model that does not read back as the
/// same model (ints numbered by other literals) is not used: the model is checked as
/// written.
pub fn reduce_model(m: &Model, asked: &Asked, sizes: (usize, usize)) -> Option<Reduction> {
    let plan = reduce::plan(m, asked, sizes);
    if plan.is_empty() {
        return None;
    }
    read_back(m, &plan)
        .ok()
        .map(|model| Reduction { plan, model })
}

/// The reduced model of `plan` printed and read back, with the model's int window
/// (the reduced text may have lost literals the window was derived from).
pub fn read_back(m: &Model, plan: &Plan) -> Result<Model, String> {
    let mut back = crate::lang::read_back(&plan.model, "the reduced model")?;
    if back.vars.len() != plan.model.vars.len() || back.unsafes.len() != m.unsafes.len() {
        return Err("the reduced model lost items when read back".into());
    }
    // Literal-valued ints are numbered by the literals of the text: the reduced text
    // must number them alike, or its states are not the model's.
    let values = |x: &Model| x.lit_ints.as_ref().map(|l| l.values.clone());
    if values(&back) != values(m) {
        return Err("the reduced model reads its ints over other values".into());
    }
    if let (Some(w), Some(b)) = (&m.int_window, &mut back.int_window) {
        let range = b.range;
        let free = std::mem::take(&mut b.free);
        *b = w.clone();
        b.range = range;
        b.free = free;
    }
    back.warnings.clear();
    Ok(back)
}

/// An engine run on the reduced model (see the module comment).
pub struct Reduced {
    pub inner: Box<dyn Engine>,
    /// Deadlocks are reported (the enabledness of every transition is observed).
    pub deadlock: bool,
    /// The solver of the checks on the model.
    pub solver: SolverKind,
}

impl Engine for Reduced {
    fn describe(&self, p: &Problem) -> String {
        self.inner.describe(p)
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn presentation(&self, p: &Problem) -> Presentation {
        self.inner.presentation(p)
    }
    fn every_n(&self) -> bool {
        self.inner.every_n()
    }
    fn liveness(&self) -> bool {
        self.inner.liveness()
    }
    fn check(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let Some(r) = reduce(p, self.deadlock)? else {
            return self.inner.check(p, ctl, report);
        };
        let q = Problem {
            model: &r.model,
            ..p.clone()
        };
        let lifting = Lifting::new(p.model, &r, self.solver, ctl);
        let mut out = self
            .inner
            .check(&q, ctl, &mut |rep| report(lifting.report(rep)))?;
        out.certificate = out.certificate.map(|c| lifting.translate(&c));
        out.certificates = out
            .certificates
            .iter()
            .map(|c| lifting.translate(c))
            .collect();
        Ok(out)
    }
}

/// The lifting of one run's reports to the model.
pub struct Lifting<'a> {
    model: &'a Model,
    r: &'a Reduction,
    solver: SolverKind,
    ctl: &'a Control,
    /// The certificates rewritten for the model, by the address of the reduced one.
    translated: RefCell<HashMap<usize, Arc<Certificate>>>,
    /// Per rewritten certificate (by address) and size: whether its check passed, and
    /// why not.
    checked: RefCell<HashMap<(usize, usize), Result<(), String>>>,
    /// Per size: whether the facts of the reduction hold on the model.
    facts: RefCell<HashMap<usize, Result<(), String>>>,
}

impl<'a> Lifting<'a> {
    pub fn new(model: &'a Model, r: &'a Reduction, solver: SolverKind, ctl: &'a Control) -> Self {
        Lifting {
            model,
            r,
            solver,
            ctl,
            translated: RefCell::new(HashMap::new()),
            checked: RefCell::new(HashMap::new()),
            facts: RefCell::new(HashMap::new()),
        }
    }

    /// A report about the reduced model made a report about the model.
    pub fn report(&self, mut rep: SizeReport) -> SizeReport {
        let n = rep.size;
        let facts = self.facts_hold(n);
        let lift = Lift::new(self.model, &self.r.model, &self.r.plan, n);
        for x in &mut rep.results {
            let v = std::mem::replace(&mut x.verdict, Verdict::Unknown);
            x.verdict = match self.verdict(v, &lift, n, &facts) {
                Ok(v) => v,
                Err(e) => {
                    rep.internal_errors.push(format!(
                        "size {n}, `{}`: the answer on the reduced model does not carry over to the model: {e}",
                        x.name
                    ));
                    Verdict::Unknown
                }
            };
        }
        if let Some(c) = &mut rep.coverage {
            // A transition the reduction dropped as idle may fire in the model.
            for &(t, why) in &self.r.plan.dropped {
                if why == Dropped::NoEffect && t < c.instances.len() {
                    c.instances[t] = false;
                }
            }
            // A conjunct with constants in is true in the same reachable states; but
            // whether some state at all satisfies a formula is asked of the model.
            c.conjuncts
                .retain(|(u, flags)| flags.len() == self.model.unsafes[*u].conjuncts.len());
            let changed: Vec<usize> = c
                .satisfiable
                .iter()
                .map(|x| x.0)
                .filter(|&u| self.r.plan.before.unsafes[u].body != self.model.unsafes[u].body)
                .collect();
            if !changed.is_empty() {
                let again = crate::explicit::vacuity::satisfiable_anywhere(
                    self.model,
                    n,
                    &changed,
                    &self.ctl.sat_stop(),
                );
                c.satisfiable.retain(|(u, _)| !changed.contains(u));
                c.satisfiable
                    .extend(again.into_iter().filter_map(|(u, s)| Some((u, s?))));
                c.satisfiable.sort_unstable();
            }
        }
        rep
    }

    fn verdict(
        &self,
        v: Verdict,
        lift: &Lift,
        n: usize,
        facts: &Result<(), String>,
    ) -> Result<Verdict, String> {
        Ok(match v {
            Verdict::Violated(c) => match *c {
                Counterexample::Trace(t) => Verdict::violated(self.trace(lift, t)?),
                Counterexample::Lasso(l) => Verdict::violated_by_lasso(self.lasso(lift, l)?),
            },
            Verdict::WithinInts { lo, hi, within } => Verdict::WithinInts {
                lo,
                hi,
                within: Box::new(self.verdict(*within, lift, n, facts)?),
            },
            Verdict::Holds(Proof::Invariant {
                engine,
                certificate,
            }) => {
                facts.clone()?;
                let c = self.translate(&certificate);
                self.check_at(&c, n)?;
                Verdict::Holds(Proof::Invariant {
                    engine,
                    certificate: c,
                })
            }
            Verdict::Vacuous | Verdict::Unknown => v,
            v => {
                facts.clone()?;
                v
            }
        })
    }

    fn trace(&self, lift: &Lift, t: Trace) -> Result<Trace, String> {
        let (init, steps) = lift.trace(&t.init, &t.steps)?;
        let lifted = Trace {
            size: t.size,
            init,
            steps,
            violation: t.violation,
        };
        lifted.replay(self.model)?;
        Ok(lifted)
    }

    fn lasso(&self, lift: &Lift, l: Lasso) -> Result<Lasso, String> {
        let (init, steps, loop_start) = lift.lasso(&l.init, &l.steps, l.loop_start)?;
        let lifted = Lasso {
            init,
            steps,
            loop_start,
            ..l
        };
        lifted.replay(self.model)?;
        Ok(lifted)
    }

    /// The constants and equivalences at size n, checked on the model once.
    fn facts_hold(&self, n: usize) -> Result<(), String> {
        if let Some(r) = self.facts.borrow().get(&n) {
            return r.clone();
        }
        let lemmas = fact_lemmas(self.model, &self.r.plan);
        let r = if lemmas.is_empty() {
            Ok(())
        } else {
            let cert = Certificate {
                lemmas,
                proves: Vec::new(),
                engine: "reduction".into(),
                ..self.base_certificate()
            };
            self.run_check(&cert, n)
        };
        self.facts.borrow_mut().insert(n, r.clone());
        r
    }

    fn base_certificate(&self) -> Certificate {
        let m = self.model;
        Certificate {
            model: m.source.name.clone(),
            hash: text_hash(&m.source.text),
            sizes: self.r.plan.sizes,
            engine: String::new(),
            induction: 1,
            simple_path: false,
            proves: Vec::new(),
            lemmas: Vec::new(),
            ints: m.int_window.as_ref().map(|w| (w.lo, w.hi)),
            every: None,
            liveness: None,
            klive: None,
            assume: m.assumed.clone(),
            abstraction: m.abs_ints.is_some(),
            nodes: Vec::new(),
            ranking: None,
        }
    }

    fn run_check(&self, cert: &Certificate, n: usize) -> Result<(), String> {
        let checked = match crate::live::certified_model(self.model, cert)? {
            Some(prod) => {
                crate::proof::check::check(&prod, cert, &[n], self.solver, &self.ctl.sat_stop())
            }
            None => crate::proof::check::check(
                self.model,
                cert,
                &[n],
                self.solver,
                &self.ctl.sat_stop(),
            ),
        }?;
        match checked.first() {
            Some(c) if c.failures.is_empty() && c.unchecked.is_empty() => Ok(()),
            Some(c) => Err(format!(
                "its check on the model failed at size {n}: {}",
                [&c.failures[..], &c.unchecked[..]].concat().join("; ")
            )),
            None => Err(format!("no check at size {n}")),
        }
    }

    /// The certificate of the reduced model rewritten for the model: the same lemmas
    /// and claims, the facts of the reduction added, the model's name and hash.
    pub fn translate(&self, c: &Arc<Certificate>) -> Arc<Certificate> {
        let key = Arc::as_ptr(c) as usize;
        if let Some(t) = self.translated.borrow().get(&key) {
            return t.clone();
        }
        let t = Arc::new(rewrite_certificate(self.model, &self.r.plan, c));
        self.translated.borrow_mut().insert(key, t.clone());
        t
    }

    /// Check the rewritten certificate `c` on the model at size n (once).
    fn check_at(&self, c: &Arc<Certificate>, n: usize) -> Result<(), String> {
        let key = (Arc::as_ptr(c) as usize, n);
        if let Some(r) = self.checked.borrow().get(&key) {
            return r.clone();
        }
        let r = self.run_check(c, n);
        self.checked.borrow_mut().insert(key, r.clone());
        r
    }
}

/// A certificate of the reduced model rewritten for the model: the same lemmas and
/// claims, the facts of the reduction added (`fact_lemmas`), the model's name and the
/// hash of its text (or of its liveness product's, for a certificate about one).
pub fn rewrite_certificate(m: &Model, plan: &Plan, c: &Certificate) -> Certificate {
    let mut t = c.clone();
    t.model = m.source.name.clone();
    t.lemmas.extend(fact_lemmas(m, plan));
    t.hash = match crate::live::certified_model(m, &t) {
        Ok(Some(prod)) => text_hash(&prod.source.text),
        _ => text_hash(&m.source.text),
    };
    t
}

/// The constants and equivalences of the plan as lemmas about the model: a state
/// where a constant cell holds another value, or a merged cell differs from its
/// partner, is unreachable.
pub fn fact_lemmas(m: &Model, plan: &Plan) -> Vec<CertLemma> {
    let lemma = |sizes: Option<(usize, usize)>, body: String| CertLemma {
        sizes,
        vars: Vec::new(),
        body,
        no_range: false,
        no_int_bound: false,
        ordered: false,
        bdd: None,
    };
    let value = |t: Ty, v: i64| crate::lang::print::expr_text(m, &[], &Expr::Const(v, t));
    let mut out = Vec::new();
    for c in &plan.constants {
        let var = &m.vars[c.var];
        if let Some(u) = c.uniform() {
            let (q, cell) = every_cell(m, c.var);
            out.push(lemma(None, format!("{q}{cell} <> {}", value(var.ty, u))));
            continue;
        }
        for (n, vals) in &c.values {
            let inst = Instance::new(m, *n);
            let l = &inst.vars[c.var];
            let cells: Vec<String> = (0..l.cells)
                .map(|k| {
                    let name = inst.cell_name(l.base + k);
                    format!(
                        "{} <> {}",
                        cell_text(m, c.var, &inst, l.base + k, &name),
                        value(var.ty, vals[k])
                    )
                })
                .collect();
            out.push(lemma(Some((*n, *n)), cells.join(" || ")));
        }
    }
    for g in &plan.merged {
        let (q, y) = every_cell(m, g.var);
        let (_, x) = every_cell(m, g.into);
        let op = if g.negated { "=" } else { "<>" };
        out.push(lemma(None, format!("{q}{y} {op} {x}")));
    }
    out
}

/// `exists x1 : T1. exists x2. ` and `X[x1, x2]`: every cell of variable v.
fn every_cell(m: &Model, v: VarId) -> (String, String) {
    let var = &m.vars[v];
    if var.dims.is_empty() {
        return (String::new(), var.name.clone());
    }
    let mut q = String::new();
    let mut ix = Vec::new();
    for (k, &d) in var.dims.iter().enumerate() {
        let x = format!("nfold_x{}", k + 1);
        match d {
            Ty::Proc => q.push_str(&format!("exists {x}. ")),
            t => q.push_str(&format!("exists {x} : {}. ", m.type_name(t))),
        }
        ix.push(x);
    }
    (q, format!("{}[{}]", var.name, ix.join(", ")))
}

/// The cell at `slot` as a term of the language (`X[#2, 3]`).
fn cell_text(m: &Model, v: VarId, inst: &Instance, slot: usize, _name: &str) -> String {
    let var = &m.vars[v];
    let s = &inst.slots[slot];
    if s.index.is_empty() {
        return var.name.clone();
    }
    let ix: Vec<String> = s
        .index
        .iter()
        .zip(&var.dims)
        .map(|(&i, &d)| crate::lang::print::expr_text(m, &[], &Expr::Const(i, d)))
        .collect();
    format!("{}[{}]", var.name, ix.join(", "))
}
