//! Any engine on the reduced model (`model::reduce`), its answers given for the model
//! as written (as pono's `modifiers/` put a transform in front of any engine). The
//! engine sees the reduced model only; nothing of the reduction is trusted:
//! - every counterexample is lifted to a run of the model (`reduce::lift`) and replayed
//!   on the model's interpreter before it is reported;
//! - before any other answer at a size, the reduction is checked on the model at that
//!   size (`proof::reduced::verify`: the slice is a cone of influence, the constants
//!   and equivalent cells hold, by `proof::check`);
//! - every proof's certificate, checked by the engine on the reduced model as always,
//!   is marked with its `reduced` line, so that `nfold certify` builds the reduction
//!   again from the model, checks it, and checks the lemmas on the reduced model.
//!
//! A report that cannot be lifted becomes `unknown` with the reason as an internal
//! error.

use crate::cert::Certificate;
use crate::engine::{Checked, Report};
use crate::engine::{Control, Engine, Presentation, Problem};
use crate::lasso::Lasso;
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
    /// What the model was reduced for.
    pub asked: Asked,
}

impl Reduction {
    /// The certificate `c` of the reduced model, marked as being about the model's
    /// reduction (its `reduced` line).
    pub fn mark(&self, m: &Model, c: &Certificate) -> Certificate {
        Certificate {
            model: m.source.name.clone(),
            reduced: Some(crate::proof::reduced::line(m, &self.asked, self.plan.sizes)),
            ..c.clone()
        }
    }
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
/// nothing can be reduced; an error when the reduced model does not read back as the
/// same model (ints numbered by other literals): the model is then checked as written.
pub fn reduce(p: &Problem, deadlock: bool) -> Result<Option<Reduction>, String> {
    reduce_model(p.model, &asked(p, deadlock), (p.min, p.max))
}

/// The reduction of `model` for what `asked` asks at sizes `min..=max` (`reduce`).
pub fn reduce_model(
    m: &Model,
    asked: &Asked,
    sizes: (usize, usize),
) -> Result<Option<Reduction>, String> {
    let plan = reduce::plan(m, asked, sizes);
    if plan.is_empty() {
        return Ok(None);
    }
    let model = crate::proof::reduced::read_back(m, &plan)?;
    Ok(Some(Reduction {
        plan,
        model,
        asked: asked.clone(),
    }))
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
    fn answers(&self) -> crate::engine::Answers {
        self.inner.answers()
    }
    fn check(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        let r = match reduce(p, self.deadlock) {
            Ok(Some(r)) => r,
            Ok(None) => return self.inner.check(p, ctl, report),
            Err(e) => {
                let mut out = self.inner.check(p, ctl, report)?;
                out.notes
                    .push(format!("the model is checked as written, unreduced: {e}"));
                return Ok(out);
            }
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
    /// The certificates marked for the model, by the address of the reduced one.
    marked: RefCell<HashMap<usize, Arc<Certificate>>>,
    /// Per size: whether the reduction holds on the model there, and why not.
    verified: RefCell<HashMap<usize, Result<(), String>>>,
}

impl<'a> Lifting<'a> {
    pub fn new(model: &'a Model, r: &'a Reduction, solver: SolverKind, ctl: &'a Control) -> Self {
        Lifting {
            model,
            r,
            solver,
            ctl,
            marked: RefCell::new(HashMap::new()),
            verified: RefCell::new(HashMap::new()),
        }
    }

    /// A report about the reduced model made a report about the model.
    pub fn report(&self, mut rep: SizeReport) -> SizeReport {
        let n = rep.size;
        let facts = self.verified_at(n);
        let lift = Lift::new(self.model, &self.r.model, &self.r.plan, n);
        for x in &mut rep.results {
            let v = std::mem::replace(&mut x.verdict, Verdict::Unknown);
            x.verdict = match self.verdict(v, &lift, &facts) {
                Ok(v) => v,
                // A limit stopped the check of the reduction: unanswered, as any
                // search a limit stops, not an internal error.
                Err(_) if let Some(l) = self.ctl.users_limit() => {
                    rep.limit = rep.limit.or(Some(l));
                    Verdict::Unknown
                }
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
                within: Box::new(self.verdict(*within, lift, facts)?),
            },
            Verdict::Holds(Proof::Invariant {
                engine,
                certificate,
            }) => {
                facts.clone()?;
                Verdict::Holds(Proof::Invariant {
                    engine,
                    certificate: self.translate(&certificate),
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

    /// The reduction checked on the model at size n (once).
    fn verified_at(&self, n: usize) -> Result<(), String> {
        if let Some(r) = self.verified.borrow().get(&n) {
            return r.clone();
        }
        let r = crate::proof::reduced::verify(
            self.model,
            &self.r.plan,
            &self.r.asked,
            Some(&[n]),
            self.solver,
            &self.ctl.sat_stop(),
        )
        .map_err(|e| format!("the reduction does not hold on the model: {e}"));
        self.verified.borrow_mut().insert(n, r.clone());
        r
    }

    /// The certificate of the reduced model marked for the model (once).
    pub fn translate(&self, c: &Arc<Certificate>) -> Arc<Certificate> {
        let key = Arc::as_ptr(c) as usize;
        if let Some(t) = self.marked.borrow().get(&key) {
            return t.clone();
        }
        let t = Arc::new(self.r.mark(self.model, c));
        self.marked.borrow_mut().insert(key, t.clone());
        t
    }
}
