//! The SAT queries asked of an unrolling at depth k, with the symmetry breaking that
//! fully symmetric families allow, all constraining only the final frame:
//! - `LexLeader`: x ≤lex π(x) for every adjacent transposition π = (p p+1);
//! - `WitnessLex` (the default): an `unsafe (z1 .. zm)` property is asked for the
//!   witnesses z = 1..m only (the first tuple the interpreter tries; any violation can
//!   be permuted into one with these witnesses), plus x ≤lex π(x) for the adjacent
//!   transpositions that fix 1..m (p > m);
//! - `Off`.
//!
//! Range errors are symmetric: under `WitnessLex` only the transition instances with
//! parameters 1, 2, ... (and first property tuples) are asked, with lex-leader for the
//! transpositions that fix them; under `LexLeader` all, with full lex-leader; stores
//! leaving the int window (`int_bound`) alike. When several
//! properties are still open, one combined query per depth ("any of them") is asked
//! first, and they are split only when it is satisfiable.

use super::symbreak;
use super::unroll::Unroller;
use crate::hash::FastMap;
use crate::sat::Lit;
use crate::sat::circuit::FALSE;

/// Which symmetry-breaking constraints queries carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymBreak {
    Off,
    LexLeader,
    WitnessLex,
}

/// What a query asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `unsafe` property number u.
    Unsafe(usize),
    /// A range error (evaluating a transition instance, `init`, or these properties).
    Range(Vec<usize>),
    /// A store leaving the int window (`int_bound`).
    IntBound,
    /// Any of these.
    Any(Vec<Target>),
}

/// Builds query assumptions, remembering the lex-leader activation literals.
pub struct Queries {
    pub mode: SymBreak,
    acts: FastMap<(usize, i64), Lit>,
}

impl Queries {
    pub fn new(mode: SymBreak) -> Queries {
        Queries {
            mode,
            acts: FastMap::default(),
        }
    }

    fn lex(&mut self, u: &mut Unroller, k: usize, first: i64) -> Lit {
        *self
            .acts
            .entry((k, first))
            .or_insert_with(|| symbreak::lex_leader_from(u, k, first))
    }

    /// The query literal itself (without symmetry-breaking activations) and the first
    /// process the lex-leader constraints may move.
    fn main(&mut self, u: &mut Unroller, t: &Target, k: usize) -> (Lit, i64) {
        match t {
            // Fixing the witnesses is sound only for a fully symmetric family.
            Target::Unsafe(p) if self.mode == SymBreak::WitnessLex && u.inst.inst_symmetric() => {
                let m = u.inst.model.unsafes[*p].params as i64;
                if m as usize > u.inst.n {
                    return (FALSE, 1);
                }
                let tuple: Vec<i64> = (1..=m).collect();
                let (v, e) = u.bad_tuple(*p, k, &tuple);
                (u.c.and(&[u.init_ok, v, -e]), m + 1)
            }
            Target::Unsafe(p) => (u.unsafe_query(*p, k), 1),
            Target::Range(props)
                if self.mode == SymBreak::WitnessLex && u.inst.inst_symmetric() =>
            {
                let arity = transition_arity(u);
                let m = props
                    .iter()
                    .map(|&p| u.inst.model.unsafes[p].params)
                    .max()
                    .unwrap_or(0);
                (u.range_query_where(k, props, true), arity.max(m) as i64 + 1)
            }
            Target::Range(props) => (u.range_query(k, props), 1),
            // Like range errors: only the instances with parameters 1, 2, ... under
            // `WitnessLex`, with lex-leader for the transpositions that fix them.
            Target::IntBound if self.mode == SymBreak::WitnessLex && u.inst.inst_symmetric() => {
                (u.int_query(k, true), transition_arity(u) as i64 + 1)
            }
            Target::IntBound => (u.int_query(k, false), 1),
            Target::Any(ts) => {
                let mut lits = Vec::new();
                let mut first = 1;
                for t in ts {
                    let (l, f) = self.main(u, t, k);
                    lits.push(l);
                    first = first.max(f);
                }
                (u.c.or(&lits), first)
            }
        }
    }

    /// The literals to assume for the query; `None` when it is trivially unsatisfiable.
    pub fn assumptions(&mut self, u: &mut Unroller, t: &Target, k: usize) -> Option<Vec<Lit>> {
        let (q, first) = self.main(u, t, k);
        if q == FALSE {
            return None;
        }
        let mut a = vec![q];
        if self.mode != SymBreak::Off && u.inst.inst_symmetric() && (first as usize) < u.inst.n {
            a.push(self.lex(u, k, first));
        }
        Some(a)
    }
}

/// The most parameters of any transition: under `WitnessLex` the instances asked for
/// range errors and `int_bound` are those with parameters 1, 2, ..., up to this.
fn transition_arity(u: &Unroller) -> usize {
    u.inst
        .model
        .transitions
        .iter()
        .map(|t| t.params)
        .max()
        .unwrap_or(0)
}
