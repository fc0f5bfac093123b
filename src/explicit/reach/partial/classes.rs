//! Which transitions and properties of a family that is not fully symmetric are
//! symmetric by their text: no construct breaking symmetry (`model::ir::SymmetryBreak`:
//! an order comparison, `#k`, arithmetic on ids, ...) lies inside them. For such a
//! transition t and every process permutation π, π(t_k(s)) = t_π(k)(π(s)) (ids are only
//! compared for equality, copied and used as indices), which is what lets the
//! partial-symmetry search fire it on a coarse node's state alone.
//!
//! Conservative by construction: a break located outside every transition, property
//! and `init` (in a predicate definition, `number_procs`, or with no source position)
//! makes every transition and property count as asymmetric; so does a transition or
//! property with no source position.

use crate::model::compiled::Compiled;
use crate::model::ir::Model;
use crate::source::Span;

/// The symmetric transitions and whether every checked property is symmetric.
#[derive(Clone, Debug)]
pub struct Classes {
    /// Per model transition.
    pub trans_symmetric: Vec<bool>,
    /// Every `unsafe` property is symmetric.
    pub props_symmetric: bool,
}

fn inside(b: Span, s: Span) -> bool {
    s.lo < s.hi && b.lo >= s.lo && b.hi <= s.hi
}

impl Classes {
    pub fn new(model: &Model, _compiled: &Compiled) -> Classes {
        let spans: Vec<Span> = model
            .transitions
            .iter()
            .map(|t| t.span)
            .chain(model.unsafes.iter().map(|u| u.span))
            .chain(model.inits.iter().map(|i| i.span))
            .collect();
        let located = model
            .symmetry_breaks
            .iter()
            .all(|b| spans.iter().any(|&s| inside(b.span, s)));
        let clean = |s: Span| {
            located && s.lo < s.hi && !model.symmetry_breaks.iter().any(|b| inside(b.span, s))
        };
        Classes {
            trans_symmetric: model.transitions.iter().map(|t| clean(t.span)).collect(),
            props_symmetric: model.unsafes.iter().all(|u| clean(u.span)),
        }
    }
}
