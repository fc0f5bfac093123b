//! The liveness-to-safety product of a model with an `ltl` property, as a model of the
//! input language (Biere, Artho, Schuppan, "Liveness checking as safety checking",
//! FMICS 2002). Its one `unsafe` property, named after the `ltl` property, is reachable
//! exactly when the model has a (weakly fair, with `fair`) run violating the property
//! whose cycle closes: a lasso. It is built as IR, printed (`lang::print`) and read
//! back, so the text is the product: certificates are checked against it, and
//! `nfold certify` builds the same text again from the model and the property.
//!
//! What the product adds to the model (every name under a prefix no name of the model
//! starts with, `Nf`/`nf` unless taken):
//! - `NfQ`, the state of the Büchi automaton of ¬ψ (`ltl::buchi`) that reads the
//!   current state: initially any initial automaton state. A step of the model moves
//!   it: one product transition per (transition, automaton state q′) with guard
//!   "NfQ = q for a predecessor q of q′ whose label holds on the current state, and the
//!   transition's guard", and update `NfQ := q′`. So the label of every state of the
//!   run is checked by the step leaving it, the convention of the nested search
//!   (`explicit::ndfs`: a node (s, q) has s matching q) shifted by one step: the
//!   product's runs are the nested search's product runs, state for state.
//! - `NfProc`, a `proc` constant chosen freely at `init`, the process of a property
//!   `ltl name (i)`: every instantiation at once, and a permutation of the processes
//!   acts on it as on every other cell, so a symmetric model gives a symmetric product
//!   (IC3's lemma orbits, the SAT engine's symmetry breaking apply).
//! - A deadlocked state repeats forever: `nf_deadlock` moves the automaton without
//!   changing the model's state, enabled exactly when no transition instance is.
//! - The loop: `nf_save` (once, `NfSaved` false) copies every cell that can change
//!   (not the constants) and `NfQ` into shadow cells `NfS_X`, and clears `NfAcc` and
//!   `NfSeen`. Every later step sets `NfAcc` when it leaves an accepting automaton
//!   state and, under fairness, `NfSeen[j]` when process j executes it (its first
//!   parameter) or no transition instance of j is enabled in the state it leaves:
//!   weak fairness per process ("executes, or is disabled, infinitely often"). A slot
//!   that is absent in the aggregate is no process: quantifiers and fresh indices
//!   range over present processes only, so absent slots never constrain.
//! - The property: `NfSaved && NfAcc && (forall j. NfSeen[j]) && NfQ = NfQSaved` and
//!   every cell equal to its shadow: the run came back to the saved state, having
//!   passed an accepting automaton state and been fair to every process on the way.
//!
//! The plain product (`Variant::Justice`, for AIGER's justice properties) keeps
//! only `NfQ`, `NfProc` and the deadlock stutter; its property is "`NfQ` is an
//! accepting state", and the exporter adds the loop and fairness conditions as
//! justice literals (`bmc::aiger::justice`).
//!
//! The model's own `unsafe` and `ltl` blocks are left out. Range errors of the product
//! are range errors of the model met in states of the product (the same evaluation of
//! the same guards and updates, and every atom of the property evaluated by the step
//! leaving a state), as the nested search meets them.

use super::expr::*;
use crate::lang::{self, LoadOptions};
use crate::ltl::LtlProperty;
use crate::model::ir::*;

/// What a transition of the product does in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A step of the model's transition (index into `model.transitions`).
    Step(usize),
    /// The step that saves the state (no step of the model).
    Save,
    /// The stutter of a deadlocked state (no step of the model).
    Stutter,
    /// k-liveness: the step that counts a completed round (no step of the model).
    Count,
}

/// Which reduction of liveness to safety a product is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Liveness-to-safety (Biere, Artho, Schuppan 2002): a saved copy of the state, the
    /// property "the loop closed".
    LoopClosing,
    /// k-liveness (Claessen, Sörensson 2012): a counter of completed rounds (an
    /// accepting automaton state left and, under fairness, every process served since
    /// the last count), the property "the counter reaches k".
    Klive(usize),
    /// The plain product, for a justice property (AIGER 1.9, `bmc::aiger`): no loop
    /// bookkeeping and no fairness flags (the exporter reads fairness off the
    /// transition system); the property is "the automaton state is accepting", which
    /// the justice condition asks to hold, on a state a step leaves, infinitely often.
    Justice,
}

/// The product of a model with one `ltl` property, as a checked model.
#[derive(Clone, Debug)]
pub struct Product {
    pub model: Model,
    /// The `ltl` property (index into the original model's `ltls`).
    pub prop: usize,
    pub fair: bool,
    pub variant: Variant,
    /// Per transition of the product, what it does in the model.
    pub origin: Vec<Origin>,
    /// The variables of the original model keep their ids in the product.
    pub base_vars: usize,
    /// `NfProc`, for a property of a process.
    pub proc_var: Option<VarId>,
    /// `NfQ`, the automaton state.
    pub q_var: VarId,
    /// The number of states of the automaton of ¬ψ.
    pub automaton_states: usize,
}

/// The product's one `unsafe` property.
pub const LOOP_PROP: usize = 0;

/// The variables the product adds.
struct Vars {
    q: VarId,
    /// Liveness-to-safety: the saved automaton state and "the state was saved".
    q_saved: Option<VarId>,
    saved: Option<VarId>,
    /// "An accepting automaton state was left" (not in the plain product).
    acc: Option<VarId>,
    seen: Option<VarId>,
    proc: Option<VarId>,
    /// (variable of the model, its shadow) for every variable that can change
    /// (liveness-to-safety only).
    shadows: Vec<(VarId, VarId)>,
    /// k-liveness: the counter of rounds, its bound k and its type `0 .. k`.
    count: Option<(VarId, usize, Ty)>,
}

/// Builds the product's IR; `m` is the model with the product's declarations.
struct Builder<'a> {
    orig: &'a Model,
    prop: &'a LtlProperty,
    v: Vars,
    q_ty: Ty,
    prefix: String,
}

impl Builder<'_> {
    fn q_is(&self, q: usize) -> Expr {
        eq(read(self.v.q), Expr::Const(q as i64, self.q_ty))
    }

    /// The label of automaton state q, on the current state.
    fn label(&self, q: usize, scope: &mut Scope) -> Expr {
        let l = &self.orig.ltls[self.prop.prop];
        let fixed: Vec<Expr> = self.v.proc.map(read).into_iter().collect();
        let s = &self.prop.buchi.states[q];
        let mut parts = Vec::new();
        for (k, a) in self.prop.atoms.iter().enumerate() {
            let (pos, neg) = (s.pos >> k & 1 == 1, s.neg >> k & 1 == 1);
            if pos || neg {
                let map = scope.import(&l.locals, &fixed);
                let atom = subst(a, &map);
                parts.push(if pos { atom } else { not(atom) });
            }
        }
        and(parts)
    }

    /// Every atom of the property evaluated (`a <=> a` evaluates both sides): true,
    /// unless evaluating an atom meets a range error, which is then met by the step
    /// leaving the state, as the nested search meets it on every state it reaches
    /// whichever atoms the automaton's labels name.
    fn atoms_evaluated(&self, scope: &mut Scope) -> Expr {
        let l = &self.orig.ltls[self.prop.prop];
        let fixed: Vec<Expr> = self.v.proc.map(read).into_iter().collect();
        and(self
            .prop
            .atoms
            .iter()
            .map(|a| {
                let map = scope.import(&l.locals, &fixed);
                let atom = subst(a, &map);
                Expr::Iff(Box::new(atom.clone()), Box::new(atom))
            })
            .collect())
    }

    /// "The automaton moves to q2": the current automaton state is a predecessor of
    /// q2 whose label holds.
    fn moves_to(&self, q2: usize, scope: &mut Scope) -> Expr {
        let preds: Vec<usize> = (0..self.prop.buchi.states.len())
            .filter(|&q| self.prop.buchi.states[q].succ.contains(&q2))
            .collect();
        or(preds
            .into_iter()
            .map(|q| and(vec![self.q_is(q), self.label(q, scope)]))
            .collect())
    }

    /// Whether some instance of transition `t` is enabled: with `first`, among those
    /// whose first parameter is that process; otherwise among all of them.
    fn enabled(&self, t: &Transition, first: Option<Expr>, scope: &mut Scope) -> Expr {
        let fixed: Vec<Expr> = first.iter().cloned().collect();
        let map = scope.import(&t.locals, &fixed);
        let mut body = vec![subst(&t.guard, &map)];
        for u in &t.updates {
            if let UpdValue::Any { var, cond } = &u.value {
                let Expr::Local(v) = map[*var] else {
                    unreachable!()
                };
                body.push(exists_proc(v, subst(cond, &map)));
            }
        }
        let mut e = and(body);
        // The parameters not fixed, innermost last: each distinct from the earlier ones.
        for k in (fixed.len()..t.params).rev() {
            let Expr::Local(v) = map[k] else {
                unreachable!()
            };
            let except: Vec<Expr> = map[..k].to_vec();
            e = Expr::quant(false, v, Domain::Procs { except }, e);
        }
        e
    }

    /// "Process `j` has no enabled transition instance."
    fn disabled(&self, j: Expr, scope: &mut Scope) -> Expr {
        and(self
            .orig
            .transitions
            .iter()
            .filter(|t| t.params > 0)
            .map(|t| not(self.enabled(t, Some(j.clone()), scope)))
            .collect())
    }

    /// "No transition instance is enabled."
    fn dead(&self, scope: &mut Scope) -> Expr {
        and(self
            .orig
            .transitions
            .iter()
            .map(|t| not(self.enabled(t, None, scope)))
            .collect())
    }

    fn set(&self, var: VarId, value: Expr) -> Update {
        Update {
            var,
            index: Vec::new(),
            value: UpdValue::Term(value),
            span: span(),
        }
    }

    /// `NfSeen[j] := f(j)` for every process j.
    fn set_seen(
        &self,
        scope: &mut Scope,
        f: impl Fn(&Self, LocalId, &mut Scope) -> Expr,
    ) -> Update {
        let seen = self.v.seen.expect("fairness");
        let j = scope.fresh(Ty::Proc);
        let value = f(self, j, scope);
        Update {
            var: seen,
            index: vec![Index::Bind(j)],
            value: UpdValue::Term(value),
            span: span(),
        }
    }

    /// "The automaton state is accepting", one disjunct per accepting state.
    fn accepting(&self) -> Vec<Expr> {
        (0..self.prop.buchi.states.len())
            .filter(|&q| self.prop.buchi.states[q].accepting)
            .map(|q| self.q_is(q))
            .collect()
    }

    /// The bookkeeping of a step leaving the current state: the automaton moves to q2,
    /// acceptance and fairness are recorded (`executing`: the step's process, or none;
    /// `stutter`: every process is disabled).
    fn bookkeeping(
        &self,
        q2: usize,
        executing: Option<LocalId>,
        stutter: bool,
        scope: &mut Scope,
    ) -> Vec<Update> {
        let mut ups = vec![self.set(self.v.q, Expr::Const(q2 as i64, self.q_ty))];
        if let Some(acc_var) = self.v.acc {
            let mut acc = vec![read(acc_var)];
            acc.extend(self.accepting());
            ups.push(self.set(acc_var, or(acc)));
        }
        if let Some(seen) = self.v.seen {
            ups.push(self.set_seen(scope, |b, j, scope| {
                if stutter {
                    return Expr::tt();
                }
                let mut parts = Vec::new();
                if let Some(i) = executing {
                    parts.push(eq(Expr::Local(j), Expr::Local(i)));
                }
                parts.push(Expr::Read(seen, vec![Expr::Local(j)]));
                parts.push(b.disabled(Expr::Local(j), scope));
                or(parts)
            }));
        }
        ups
    }

    /// The product transitions of model transition `t` (one per automaton target).
    fn steps(&self, t: &Transition, targets: &[usize]) -> Vec<Transition> {
        let base = t.name.split('#').next().unwrap_or(&t.name);
        targets
            .iter()
            .map(|&q2| {
                let mut scope = Scope {
                    locals: t.locals.clone(),
                    prefix: &self.prefix,
                };
                let guard = and(vec![
                    self.atoms_evaluated(&mut scope),
                    self.moves_to(q2, &mut scope),
                    t.guard.clone(),
                ]);
                let executing = (t.params > 0).then_some(0);
                let mut updates = t.updates.clone();
                updates.extend(self.bookkeeping(q2, executing, false, &mut scope));
                Transition {
                    name: format!("{base}_{}q{q2}", self.prefix),
                    params: t.params,
                    locals: scope.locals,
                    guard,
                    updates,
                    span: t.span,
                }
            })
            .collect()
    }

    fn stutters(&self, targets: &[usize]) -> Vec<Transition> {
        targets
            .iter()
            .map(|&q2| {
                let mut scope = Scope {
                    locals: Vec::new(),
                    prefix: &self.prefix,
                };
                let guard = and(vec![
                    self.atoms_evaluated(&mut scope),
                    self.moves_to(q2, &mut scope),
                    self.dead(&mut scope),
                ]);
                let updates = self.bookkeeping(q2, None, true, &mut scope);
                Transition {
                    name: format!("{}_deadlock_q{q2}", self.prefix),
                    params: 0,
                    locals: scope.locals,
                    guard,
                    updates,
                    span: span(),
                }
            })
            .collect()
    }

    /// The binders of a whole-array update or quantifier over variable `v`'s cells.
    fn binders(&self, m: &Model, v: VarId, scope: &mut Scope) -> Vec<(LocalId, Ty)> {
        m.vars[v]
            .dims
            .iter()
            .map(|&d| (scope.fresh(d), d))
            .collect()
    }

    fn save(&self, m: &Model) -> Transition {
        let (saved, q_saved) = self
            .v
            .saved
            .zip(self.v.q_saved)
            .expect("the loop-closing product saves a state");
        let mut scope = Scope {
            locals: Vec::new(),
            prefix: &self.prefix,
        };
        let mut updates = Vec::new();
        for &(v, s) in &self.v.shadows {
            let bs = self.binders(m, v, &mut scope);
            let idx: Vec<Expr> = bs.iter().map(|b| Expr::Local(b.0)).collect();
            updates.push(Update {
                var: s,
                index: bs.iter().map(|b| Index::Bind(b.0)).collect(),
                value: UpdValue::Term(Expr::Read(v, idx)),
                span: span(),
            });
        }
        updates.push(self.set(q_saved, read(self.v.q)));
        updates.push(self.set(saved, Expr::tt()));
        updates.extend(self.clear_round(&mut scope));
        Transition {
            name: format!("{}_save", self.prefix),
            params: 0,
            locals: scope.locals,
            guard: not(read(saved)),
            updates,
            span: span(),
        }
    }

    /// The round's flags cleared: no accepting state left, no process served yet.
    fn clear_round(&self, scope: &mut Scope) -> Vec<Update> {
        let acc = self.v.acc.expect("a round needs the acceptance flag");
        let mut ups = vec![self.set(acc, Expr::Const(0, Ty::Bool))];
        if self.v.seen.is_some() {
            ups.push(self.set_seen(scope, |_, _, _| Expr::Const(0, Ty::Bool)));
        }
        ups
    }

    /// A round is complete: an accepting automaton state was left and, under
    /// fairness, every process was served since the round began.
    fn round_done(&self, scope: &mut Scope) -> Vec<Expr> {
        let mut parts = vec![read(self.v.acc.expect("a round needs the acceptance flag"))];
        if let Some(seen) = self.v.seen {
            let j = scope.fresh(Ty::Proc);
            parts.push(forall_proc(j, Expr::Read(seen, vec![Expr::Local(j)])));
        }
        parts
    }

    /// k-liveness: count a completed round (and begin the next) while below k.
    fn count(&self) -> Transition {
        let (k_var, k, k_ty) = self.v.count.expect("the k-liveness product counts rounds");
        let mut scope = Scope {
            locals: Vec::new(),
            prefix: &self.prefix,
        };
        let mut guard = self.round_done(&mut scope);
        guard.push(Expr::Cmp(
            CmpOp::Lt,
            Box::new(read(k_var)),
            Box::new(Expr::Const(k as i64, k_ty)),
        ));
        let mut updates = vec![self.set(
            k_var,
            Expr::Arith(
                ArithOp::Add,
                Box::new(read(k_var)),
                Box::new(Expr::Const(1, k_ty)),
            ),
        )];
        updates.extend(self.clear_round(&mut scope));
        Transition {
            name: format!("{}_count", self.prefix),
            params: 0,
            locals: scope.locals,
            guard: and(guard),
            updates,
            span: span(),
        }
    }

    /// The product's one property: the loop closed (saved, a round complete, back at
    /// the saved state), or k rounds counted, or (the plain product) the automaton
    /// state is accepting.
    fn property(&self, m: &Model) -> Unsafe {
        let mut scope = Scope {
            locals: Vec::new(),
            prefix: &self.prefix,
        };
        let parts = match (self.v.saved, self.v.count) {
            (Some(saved), _) => self.closed(m, saved, &mut scope),
            (None, Some((k_var, k, k_ty))) => vec![eq(read(k_var), Expr::Const(k as i64, k_ty))],
            (None, None) => vec![or(self.accepting())],
        };
        let body = and(parts);
        Unsafe {
            name: self.orig.ltls[self.prop.prop].name.clone(),
            kind: PropKind::Unsafe,
            params: 0,
            locals: scope.locals,
            conjuncts: vec![Conjunct {
                expr: body.clone(),
                span: span(),
            }],
            body,
            span: span(),
        }
    }

    /// The loop closed: saved, a round complete, back at the saved state.
    fn closed(&self, m: &Model, saved: VarId, scope: &mut Scope) -> Vec<Expr> {
        let mut parts = vec![read(saved)];
        parts.extend(self.round_done(scope));
        parts.push(eq(
            read(self.v.q),
            read(self.v.q_saved.expect("q_saved is made with saved")),
        ));
        for &(v, s) in &self.v.shadows {
            let bs = self.binders(m, v, scope);
            let idx: Vec<Expr> = bs.iter().map(|b| Expr::Local(b.0)).collect();
            let mut e = eq(Expr::Read(v, idx.clone()), Expr::Read(s, idx));
            for &(b, d) in bs.iter().rev() {
                let dom = if d == Ty::Proc {
                    Domain::all_procs()
                } else {
                    Domain::Type(d)
                };
                e = Expr::quant(true, b, dom, e);
            }
            parts.push(e);
        }
        parts
    }

    fn init(&self) -> Init {
        let mut scope = Scope {
            locals: Vec::new(),
            prefix: &self.prefix,
        };
        let initial: Vec<Expr> = self
            .prop
            .buchi
            .initial
            .iter()
            .map(|&q| self.q_is(q))
            .collect();
        let mut parts = vec![or(initial)];
        if let Some(saved) = self.v.saved {
            parts.push(not(read(saved)));
        }
        if let Some((k_var, _, k_ty)) = self.v.count {
            // The first round begins at the start.
            parts.push(eq(read(k_var), Expr::Const(0, k_ty)));
            parts.push(not(read(self.v.acc.expect("counting keeps the flag"))));
            if let Some(seen) = self.v.seen {
                let j = scope.fresh(Ty::Proc);
                parts.push(forall_proc(j, not(Expr::Read(seen, vec![Expr::Local(j)]))));
            }
        }
        if let (Some(p), Some(_)) = (self.v.proc, &self.orig.extra_proc) {
            // The extra id 0 is no process.
            let j = scope.fresh(Ty::Proc);
            parts.push(exists_proc(j, eq(read(p), Expr::Local(j))));
        }
        Init {
            params: 0,
            locals: scope.locals,
            body: and(parts),
            span: span(),
        }
    }
}

fn add_var(m: &mut Model, name: String, kind: VarKind, dims: Vec<Ty>, ty: Ty) -> VarId {
    m.vars.push(Var {
        name,
        kind,
        dims,
        ty,
        span: span(),
    });
    m.vars.len() - 1
}

impl Product {
    /// The liveness-to-safety product of `model` with its `ltl` property `prop` (weakly
    /// fair runs only when `fair`), checked by the front end.
    pub fn new(model: &Model, prop: usize, fair: bool) -> Result<Product, String> {
        Product::build(model, prop, fair, Variant::LoopClosing)
    }

    /// The product of the given variant, checked by the front end.
    pub fn build(
        model: &Model,
        prop: usize,
        fair: bool,
        variant: Variant,
    ) -> Result<Product, String> {
        let lp = LtlProperty::new(model, prop)?;
        let prefix = fresh_prefix(model);
        let cap = {
            let mut c = prefix.clone();
            c[..1].make_ascii_uppercase();
            c
        };
        let mut m = model.clone();
        m.unsafes.clear();
        m.ltls.clear();
        let nq = lp.buchi.states.len();
        m.enums.push(EnumType {
            name: format!("{prefix}_q"),
            ctors: (0..nq.max(1)).map(|k| format!("{cap}Q{k}")).collect(),
        });
        let q_ty = Ty::Enum(m.enums.len() - 1);
        let base_vars = model.vars.len();
        let v = product_vars(&mut m, model, prop, fair, variant, (&prefix, &cap), q_ty);
        let b = Builder {
            orig: model,
            prop: &lp,
            v,
            q_ty,
            prefix: prefix.clone(),
        };
        let (transitions, origin) = b.transitions(&m, variant, nq);
        m.transitions = transitions;
        m.inits.push(b.init());
        m.unsafes = vec![b.property(&m)];
        let (q_var, proc_var) = (b.v.q, b.v.proc);
        let checked = read_back(model, prop, &m)?;
        if checked.transitions.len() != origin.len() {
            return Err("the liveness product lost transitions when read back".into());
        }
        Ok(Product {
            model: checked,
            prop,
            fair,
            variant,
            origin,
            base_vars,
            proc_var,
            q_var,
            automaton_states: nq,
        })
    }

    /// The product's text (what its certificates are checked against).
    pub fn text(&self) -> &str {
        &self.model.source.text
    }
}

/// The variables the product adds to `m` (a copy of `model`), in the order the printed
/// product declares them: the shadows, the automaton state, the saved state, then what
/// the variant and fairness need. `names` are the fresh prefix and its capitalised form.
fn product_vars(
    m: &mut Model,
    model: &Model,
    prop: usize,
    fair: bool,
    variant: Variant,
    (prefix, cap): (&str, &str),
    q_ty: Ty,
) -> Vars {
    let mut shadows = Vec::new();
    let closing = variant == Variant::LoopClosing;
    for (v, var) in model.vars.iter().enumerate() {
        if closing && var.kind != VarKind::Const {
            let s = add_var(
                m,
                format!("{cap}S_{}", var.name),
                var.kind,
                var.dims.clone(),
                var.ty,
            );
            shadows.push((v, s));
        }
    }
    let global = VarKind::Global;
    let q = add_var(m, format!("{cap}Q"), global, vec![], q_ty);
    let (q_saved, saved) = if closing {
        (
            Some(add_var(m, format!("{cap}QSaved"), global, vec![], q_ty)),
            Some(add_var(m, format!("{cap}Saved"), global, vec![], Ty::Bool)),
        )
    } else {
        (None, None)
    };
    Vars {
        q,
        q_saved,
        saved,
        acc: (variant != Variant::Justice)
            .then(|| add_var(m, format!("{cap}Acc"), global, vec![], Ty::Bool)),
        seen: (fair && variant != Variant::Justice).then(|| {
            add_var(
                m,
                format!("{cap}Seen"),
                VarKind::Array,
                vec![Ty::Proc],
                Ty::Bool,
            )
        }),
        proc: (model.ltls[prop].params > 0)
            .then(|| add_var(m, format!("{cap}Proc"), VarKind::Const, vec![], Ty::Proc)),
        shadows,
        count: match variant {
            Variant::LoopClosing | Variant::Justice => None,
            Variant::Klive(k) => {
                m.ranges.push(RangeType {
                    name: format!("{prefix}_rounds"),
                    lo: SizeExpr::Lit(0),
                    hi: SizeExpr::Lit(k as i64),
                    span: span(),
                });
                let ty = Ty::Range(m.ranges.len() - 1);
                let var = add_var(m, format!("{cap}Rounds"), global, vec![], ty);
                Some((var, k, ty))
            }
        },
    }
}

impl Builder<'_> {
    /// The product's transitions, with what each comes from: every step per target
    /// automaton state, the variant's own, then the stutters.
    fn transitions(
        &self,
        m: &Model,
        variant: Variant,
        nq: usize,
    ) -> (Vec<Transition>, Vec<Origin>) {
        let (b, model, lp) = (self, self.orig, self.prop);
        let targets: Vec<usize> = (0..nq)
            .filter(|&q2| lp.buchi.states.iter().any(|s| s.succ.contains(&q2)))
            .collect();
        let mut transitions = Vec::new();
        let mut origin = Vec::new();
        for (t, tr) in model.transitions.iter().enumerate() {
            for x in b.steps(tr, &targets) {
                transitions.push(x);
                origin.push(Origin::Step(t));
            }
        }
        match variant {
            Variant::LoopClosing => {
                transitions.push(b.save(m));
                origin.push(Origin::Save);
            }
            Variant::Klive(_) => {
                transitions.push(b.count());
                origin.push(Origin::Count);
            }
            Variant::Justice => {}
        }
        for x in b.stutters(&targets) {
            transitions.push(x);
            origin.push(Origin::Stutter);
        }
        (transitions, origin)
    }
}

/// The product printed and read back by the front end, so that it is checked as any
/// model is (and its text is what its certificates are checked against).
fn read_back(model: &Model, prop: usize, m: &Model) -> Result<Model, String> {
    let text = lang::print::model_text(m);
    let opts = LoadOptions {
        data_value_names: true,
        ..LoadOptions::of(model)
    };
    lang::load_str_with(&model.source.name, &text, &opts).map_err(|e| {
        format!(
            "the liveness product of `{}` does not read back: {}",
            model.ltls[prop].name,
            e.render()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MUTEX: &str = "type state = Idle | Want | Crit\n\
        var Sem : bool\n\
        array A[proc] : state\n\
        init (z) { A[z] = Idle && Sem = False }\n\
        transition req (i) requires { A[i] = Idle } { A[i] := Want; }\n\
        transition enter (i) requires { A[i] = Want && Sem = False } { A[i] := Crit; Sem := True; }\n\
        transition exit (i) requires { A[i] = Crit } { A[i] := Idle; Sem := False; }\n\
        ltl starvation_free (i) { G (A[i] = Want => F A[i] = Crit) }\n";

    #[test]
    fn the_product_reads_back_and_stays_symmetric() {
        let m = lang::load_str("mutex.cub", MUTEX).unwrap();
        for fair in [false, true] {
            let p = Product::new(&m, 0, fair).unwrap();
            assert!(p.model.is_symmetric(), "{}", p.text());
            assert_eq!(p.model.unsafes.len(), 1);
            assert_eq!(p.model.unsafes[0].name, "starvation_free");
            assert_eq!(
                p.origin.iter().filter(|o| **o == Origin::Save).count(),
                1,
                "{}",
                p.text()
            );
            assert_eq!(p.model.vars.iter().any(|v| v.name == "NfSeen"), fair);
            // Every transition of the model has a product transition per target.
            for t in 0..m.transitions.len() {
                assert!(p.origin.contains(&Origin::Step(t)));
            }
            // The text is a function of the model and the property.
            assert_eq!(Product::new(&m, 0, fair).unwrap().text(), p.text());
        }
    }
}
