//! The product of an unreduced instance with the Büchi automaton of a negated `ltl`
//! property, as the lasso shorteners (`shorten`, `fair_cycle`) walk it: its nodes, the
//! letters (atom masks) of states by the interpreter, and the limits of a search.

use crate::ltl::LtlProperty;
use crate::model::eval;
use crate::model::instance::{Instance, State};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A node of the product: a system state and an automaton state.
pub(super) type Node = (State, usize);

/// Letters (atom bit masks) of states, evaluated by the interpreter.
pub(super) struct Letters<'a> {
    pub(super) inst: &'a Instance<'a>,
    pub(super) p: &'a LtlProperty,
    pub(super) env: Vec<i64>,
    pub(super) process: Option<i64>,
}

impl Letters<'_> {
    pub(super) fn of(&mut self, st: &[i64]) -> Option<u64> {
        let mut mask = 0u64;
        for (k, a) in self.p.atoms.iter().enumerate() {
            if let Some(pr) = self.process {
                self.env[0] = pr;
            }
            match eval::eval(self.inst, st, &mut self.env, a) {
                Ok(0) => {}
                Ok(_) => mask |= 1 << k,
                Err(_) => return None,
            }
        }
        Some(mask)
    }
}

/// When to give up looking for a shorter lasso.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Product nodes one breadth-first search may store (the search for a shortest fair
    /// cycle may do four times as much work in all, see `fair_lasso`).
    pub budget: usize,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
    /// Print a progress line on stderr about every second, headed by this label (e.g.
    /// `size 3`).
    pub progress: Option<String>,
    /// When the last progress line was printed (kept by the searches; start with the
    /// default).
    pub last_progress: Cell<Option<Instant>>,
}

impl Limits {
    /// Limits with a node budget, a deadline, an interrupt flag and progress lines.
    pub fn new(
        budget: usize,
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
        progress: Option<String>,
    ) -> Limits {
        Limits {
            budget,
            deadline,
            stop,
            progress,
            last_progress: Cell::new(None),
        }
    }

    /// Whether a search that has stored `nodes` nodes (doing `what`) must stop: over
    /// the budget, or `interrupted`.
    pub(super) fn exceeded(&self, what: &str, nodes: usize) -> bool {
        nodes > self.budget || self.interrupted(what, nodes)
    }

    /// Whether the deadline has passed or Ctrl-C was pressed; prints a progress line
    /// (`what`, `count` nodes so far) when one is due.
    pub(super) fn interrupted(&self, what: &str, count: usize) -> bool {
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return true;
        }
        if self.deadline.is_none() && self.progress.is_none() {
            return false;
        }
        let now = Instant::now();
        if let Some(label) = &self.progress {
            match self.last_progress.get() {
                None => self.last_progress.set(Some(now)),
                Some(t) if now.duration_since(t).as_secs_f64() >= 1.0 => {
                    self.last_progress.set(Some(now));
                    crate::progress::line(format!(
                        "{label}: shortening the lasso: {what}, {count} nodes"
                    ));
                }
                _ => {}
            }
        }
        self.deadline.is_some_and(|d| now > d)
    }
}
