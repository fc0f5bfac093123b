//! The step of the transition system: every transition instance evaluated on the
//! current state (`eval_instance`: enabled, its range errors, its writes), the step
//! inputs (selectors, nondeterministic choices), which instance fires, and the next
//! value of every cell (the written value of the selected writer, else the old one).

use super::{FIRE, STEP, Transys};
use crate::model::ir::*;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};
use crate::transys::frame::Cell;
use crate::transys::symbolic::Symbolic;
use crate::transys::term::Term;
use std::collections::HashMap;
use std::convert::Infallible;

/// A step input for a nondeterministic update: the variable and the update's rank
/// among the transition's nondeterministic updates of it (two `A[i] := .; A[j] := .`
/// choose independently; only one instance fires per step, so instances share them).
type ChoiceKey = (VarId, usize);

/// What a write stores.
#[derive(Clone, Debug)]
enum Value {
    Term(Term),
    /// The step's nondeterministic input for this update.
    Choice(ChoiceKey),
}

/// Writes in update order: possible target cells with conditions, and the value.
type Writes = Vec<(Vec<(usize, Lit)>, Value)>;

/// A transition instance evaluated on the current state.
#[derive(Clone, Debug)]
pub struct InstanceEval {
    /// In the aggregate: the instance's processes are present.
    pub present: Lit,
    /// Given `present`: guard true, no range error, and every `any` has a candidate.
    pub enabled: Lit,
    /// Evaluating the instance meets a range error (its processes present).
    pub err: Lit,
    /// Evaluating the instance first meets a store leaving the int window (its
    /// processes present): `int_bound`, not a range error.
    pub int_err: Lit,
    writes: Writes,
    /// For each `X := any j. f`: its choice and, per candidate j, whether f holds.
    anys: Vec<(ChoiceKey, Vec<(i64, Lit)>)>,
}

/// What the updates of an instance do so far, in update order.
struct Effects {
    /// The updates so far are reached: guard true, no error met.
    reached: Lit,
    /// Range errors met, each conditioned on reaching it (the guard's first).
    errs: Vec<Lit>,
    /// Stores leaving the int window met first.
    int_errs: Vec<Lit>,
    writes: Writes,
    anys: Vec<(ChoiceKey, Vec<(i64, Lit)>)>,
}

/// Per cell (slot), its writers: the condition of each write and the value.
type Writers = Vec<Vec<(Lit, Term)>>;

impl Transys<'_> {
    /// The step: selectors, choices, which instance fires, and the next state; `None`
    /// when `stop` said so (looked at every 64 instances and every 64 cells).
    pub(super) fn build_step(&mut self, stop: &crate::sat::Stop) -> Option<()> {
        let n = self.instances.len();
        let mut evals = Vec::with_capacity(n);
        // The limit is read at every instance and cell: at wide aggregates one
        // instance takes milliseconds, and 64 of them ran seconds past the deadline
        // on a loaded machine (Peterson 1..20 under `--engine kind`).
        for (t, params) in self.instances.clone() {
            if stop.now() {
                return None;
            }
            let model = self.inst.model;
            evals.push(self.eval_instance(&model.transitions[t], &params));
        }
        self.c.route = Some(STEP);
        let sel: Vec<Lit> = (0..=n).map(|_| self.c.var()).collect();
        self.c.clause(&sel);
        self.c.at_most_one(&sel);
        let choices = self.choice_inputs(&evals);
        self.c.route = Some(FIRE);
        let fire = self.fire_lits(&evals, &sel, &choices);
        self.c.route = None;
        let (writers, roots, written) = self.writers(&evals, &fire, &choices);
        self.footprints = self.footprints_of(&roots, written);
        let mut next = Vec::with_capacity(writers.len());
        for (s, ws) in writers.into_iter().enumerate() {
            if stop.now() {
                return None;
            }
            next.push(self.next_cell(s, ws));
        }
        self.evals = evals;
        self.sel = sel;
        self.fire = fire;
        self.next = next;
        Some(())
    }

    /// Nondeterministic inputs: one per choice key that some instance uses.
    fn choice_inputs(&mut self, evals: &[InstanceEval]) -> HashMap<ChoiceKey, Term> {
        let mut choices: HashMap<ChoiceKey, Term> = HashMap::new();
        for ev in evals {
            for (_, v) in &ev.writes {
                if let Value::Choice(key) = v
                    && !choices.contains_key(key)
                {
                    let var = &key.0;
                    let l = &self.inst.vars[*var];
                    let size = (l.hi - l.lo + 1) as usize;
                    let cell = Cell::fresh(&mut self.c, self.enc, size);
                    let t = cell.decode(&mut self.c, l.lo, size);
                    choices.insert(*key, t);
                }
            }
        }
        choices
    }

    /// Per instance: selected and able to fire (present, enabled, choices of their type
    /// at the width, an `any` candidate chosen); a selected instance must be able to.
    fn fire_lits(
        &mut self,
        evals: &[InstanceEval],
        sel: &[Lit],
        choices: &HashMap<ChoiceKey, Term>,
    ) -> Vec<Lit> {
        let mut fire = Vec::with_capacity(evals.len());
        for (t, ev) in evals.iter().enumerate() {
            let mut ok = vec![ev.present, ev.enabled];
            // In the aggregate a chosen value must be of its type at the width.
            let floor = self.instances[t].1.iter().copied().max().unwrap_or(0) as usize;
            for (_, v) in &ev.writes {
                if let Value::Choice(key) = v {
                    let ty = self.inst.model.vars[key.0].ty;
                    if let Some(out) =
                        self.agg
                            .outside_at_width(&mut self.c, ty, &choices[key], floor)
                    {
                        ok.push(-out);
                    }
                }
            }
            for (key, options) in &ev.anys {
                let choice = &choices[key];
                let good: Vec<Lit> = options
                    .iter()
                    .map(|&(j, f)| {
                        let is_j = choice.cond(&mut self.c, j);
                        self.c.and2(is_j, f)
                    })
                    .collect();
                ok.push(self.c.or(&good));
            }
            let fireable = self.c.and(&ok);
            self.c.imply(sel[t], fireable);
            fire.push(self.c.and2(sel[t], fireable));
        }
        fire
    }

    /// Writers per cell, and what each instance reads (the roots of its cone: firing,
    /// write conditions, written values) and writes.
    fn writers(
        &mut self,
        evals: &[InstanceEval],
        fire: &[Lit],
        choices: &HashMap<ChoiceKey, Term>,
    ) -> (Writers, Vec<Vec<Lit>>, Vec<Vec<usize>>) {
        let n = evals.len();
        let mut writers: Writers = vec![Vec::new(); self.inst.slots.len()];
        let mut roots: Vec<Vec<Lit>> = vec![Vec::new(); n];
        let mut written: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (t, ev) in evals.iter().enumerate() {
            roots[t].push(fire[t]);
            for (targets, v) in &ev.writes {
                let value = match v {
                    Value::Term(x) => x.clone(),
                    Value::Choice(key) => choices[key].clone(),
                };
                for &(s, cond) in targets {
                    if cond == TRUE && value == self.cur.term(&mut self.c, &self.inst, s) {
                        continue; // writes the cell's own value
                    }
                    let w = self.c.and2(fire[t], cond);
                    if w != FALSE {
                        roots[t].push(w);
                        value.lits(&mut roots[t]);
                        written[t].push(s);
                        writers[s].push((w, value.clone()));
                    }
                }
            }
        }
        (writers, roots, written)
    }

    /// The next value of cell `s`: each literal is the written value's under its
    /// condition, else the old one's.
    fn next_cell(&mut self, s: usize, ws: Vec<(Lit, Term)>) -> Cell {
        let cur = self.cur.cells[s].clone();
        if ws.is_empty() {
            return cur;
        }
        let slot = &self.inst.slots[s];
        let (lo, size) = (slot.lo, (slot.hi - slot.lo + 1) as usize);
        let conds: Vec<Lit> = ws.iter().map(|w| w.0).collect();
        let keep = -self.c.or(&conds);
        match cur {
            Cell::Binary(cur_bits) => {
                let vals: Vec<Vec<Lit>> = ws
                    .iter()
                    .map(|(_, t)| t.to_bits(&mut self.c, lo, cur_bits.len()))
                    .collect();
                Cell::Binary(
                    (0..cur_bits.len())
                        .map(|b| {
                            let mut parts = vec![self.c.and2(keep, cur_bits[b])];
                            for ((w, _), v) in ws.iter().zip(&vals) {
                                parts.push(self.c.and2(*w, v[b]));
                            }
                            self.c.or(&parts)
                        })
                        .collect(),
                )
            }
            Cell::OneHot(cur_hots) => Cell::OneHot(
                (0..size)
                    .map(|k| {
                        let mut parts = vec![self.c.and2(keep, cur_hots[k])];
                        for (w, t) in &ws {
                            let is_v = t.cond(&mut self.c, lo + k as i64);
                            parts.push(self.c.and2(*w, is_v));
                        }
                        self.c.or(&parts)
                    })
                    .collect(),
            ),
        }
    }

    /// Transition `tr` with its parameters `params`, evaluated on x.
    fn eval_instance(&mut self, tr: &Transition, params: &[i64]) -> InstanceEval {
        let mut sym = self.sym();
        // In the aggregate, the instance exists when its parameters are present.
        let (pres, mut env) = sym.bind(tr.locals.len(), params);
        if pres == FALSE {
            return InstanceEval {
                present: FALSE,
                enabled: FALSE,
                err: FALSE,
                int_err: FALSE,
                writes: Vec::new(),
                anys: Vec::new(),
            };
        }
        // Evaluated as if present; `pres` conditions the result at the end.
        let (g, ge) = sym.formula(&mut env, &tr.guard);
        let mut fx = Effects {
            reached: sym.c.and2(g, -ge),
            errs: vec![ge],
            int_errs: Vec::new(),
            writes: Vec::new(),
            anys: Vec::new(),
        };
        let mut ranks: HashMap<VarId, usize> = HashMap::new();
        for u in &tr.updates {
            if fx.reached == FALSE {
                break;
            }
            let mut key = || {
                let r = ranks.entry(u.var).or_insert(0);
                *r += 1;
                (u.var, *r - 1)
            };
            match &u.value {
                UpdValue::Term(e) => store(&mut sym, &mut env, u, e, &mut fx),
                UpdValue::Nondet => {
                    // `X := .` or `A[i] := .`: the cell's index is evaluated first.
                    let idx: Vec<Expr> = u
                        .index
                        .iter()
                        .filter_map(|ix| match ix {
                            Index::Term(x) => Some(x.clone()),
                            Index::Bind(_) => None,
                        })
                        .collect();
                    let (targets, ie) = sym.cells(&mut env, u.var, &idx);
                    fx.errs.push(sym.c.and2(fx.reached, ie));
                    fx.reached = sym.c.and2(fx.reached, -ie);
                    fx.writes.push((targets, Value::Choice(key())));
                }
                UpdValue::Any { var, cond } => {
                    choose_any(&mut sym, &mut env, u, *var, cond, key(), &mut fx)
                }
            }
        }
        let err = sym.c.or(&fx.errs);
        let int_err = sym.c.or(&fx.int_errs);
        // `errs[0]` is the guard's error; later ones are already conditioned on reaching.
        InstanceEval {
            present: pres,
            enabled: fx.reached,
            err: sym.c.and2(pres, err),
            int_err: sym.c.and2(pres, int_err),
            writes: fx.writes,
            anys: fx.anys,
        }
    }
}

/// `X[..] := e`, for every cell a bound index reaches: the index is evaluated first,
/// then the value, then the store (a store leaving the int window is `int_bound`).
fn store(sym: &mut Symbolic, env: &mut [i64], u: &Update, e: &Expr, fx: &mut Effects) {
    let layout = &sym.inst.vars[u.var];
    let (lo, hi) = (layout.lo, layout.hi);
    let inst = sym.inst;
    let Ok(()) = inst.for_each_binding(u, env, |env, binders, cur| {
        // A bound index ranges over the cells existing at the width.
        let bind_ok = {
            let a = sym.agg.expect("Transys::sym always sets the aggregate");
            let ok: Vec<Lit> = binders
                .iter()
                .zip(cur)
                .map(|(b, &v)| a.index_exists(sym.c, b.1, v, sym.floor))
                .collect();
            sym.c.and(&ok)
        };
        if bind_ok == FALSE {
            return Ok::<(), Infallible>(());
        }
        let idx: Vec<Expr> = u
            .index
            .iter()
            .map(|ix| match ix {
                Index::Term(x) => x.clone(),
                Index::Bind(id) => Expr::Const(env[*id], Ty::Int),
            })
            .collect();
        let (targets, ie) = sym.cells(env, u.var, &idx);
        let (val, ve) = sym.term(env, e);
        let ty = sym.inst.model.vars[u.var].ty;
        let oob = sym.outside_type(ty, &val, lo, hi);
        let e_here = sym.c.or(&[ie, ve, oob]);
        let e_here = sym.c.and2(bind_ok, e_here);
        reached_err(
            sym.c,
            &mut fx.errs,
            &mut fx.int_errs,
            fx.reached,
            bind_ok,
            [ie, ve, oob],
            sym.inst.model.is_int_ty(ty),
        );
        fx.reached = sym.c.and2(fx.reached, -e_here);
        // Writing a cell that does not exist at the width is harmless: it is never
        // read without a range error.
        fx.writes.push((targets, Value::Term(val)));
        Ok(())
    });
}

/// `X := any j. f`: the condition evaluated for every present process in order, as
/// the interpreter does; disabled when no process satisfies it.
fn choose_any(
    sym: &mut Symbolic,
    env: &mut [i64],
    u: &Update,
    var: LocalId,
    cond: &Expr,
    key: ChoiceKey,
    fx: &mut Effects,
) {
    let mut options = Vec::new();
    let mut pending = TRUE;
    let mut any_errs = Vec::new();
    for j in 1..=sym.inst.n as i64 {
        let present = sym
            .agg
            .expect("Transys::sym always sets the aggregate")
            .present_above(j, sym.floor);
        env[var] = j;
        let saved = sym.floor;
        sym.floor = sym.floor.max(j as usize);
        let (v, e) = sym.formula(env, cond);
        sym.floor = saved;
        any_errs.push(sym.c.and(&[pending, present, e]));
        let go_on = sym.c.or2(-present, -e);
        pending = sym.c.and2(pending, go_on);
        options.push((j, sym.c.and2(present, v)));
    }
    let any_err = sym.c.or(&any_errs);
    let opts: Vec<Lit> = options.iter().map(|o| o.1).collect();
    let exists = sym.c.or(&opts);
    fx.errs.push(sym.c.and2(fx.reached, any_err));
    fx.reached = sym.c.and(&[fx.reached, -any_err, exists]);
    let base = sym.inst.vars[u.var].base;
    fx.writes.push((vec![(base, TRUE)], Value::Choice(key)));
    fx.anys.push((key, options));
}

/// Record the error of one store reached under `reached` (with its bound index cell
/// existing, `bind_ok`): the index's error `ie`, the value's `ve`, then the store out
/// of the type `oob`, first one met counting. For an `int` target (`int`) the store's
/// error is `int_bound` (into `int_errs`), otherwise every one is a range error.
fn reached_err(
    c: &mut Circuit,
    errs: &mut Vec<Lit>,
    int_errs: &mut Vec<Lit>,
    reached: Lit,
    bind_ok: Lit,
    [ie, ve, oob]: [Lit; 3],
    int: bool,
) {
    if int {
        let at = c.and2(reached, bind_ok);
        let range = c.or2(ie, ve);
        errs.push(c.and2(at, range));
        let store = c.and(&[-ie, -ve, oob]);
        int_errs.push(c.and2(at, store));
    } else {
        let any = c.or(&[ie, ve, oob]);
        let here = c.and2(bind_ok, any);
        errs.push(c.and2(reached, here));
    }
}
