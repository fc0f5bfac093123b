//! The words of the cutoff's fragment (`proof::cutoff`) that its checks share: why a
//! model is outside it, and the polarity of a subformula (the stand-in arrays,
//! `proof::standin`, and liveness, `proof::live_cutoff`, read formulas the same way).

use crate::model::ir::Model;
use crate::source::Span;

/// Why a model is outside the fragment: the construct and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outside {
    pub what: String,
    pub span: Span,
}

impl Outside {
    /// `what at file:line:col`.
    pub fn text(&self, m: &Model) -> String {
        let (l, c) = m.source.line_col(self.span.lo);
        format!("{} at {}:{l}:{c}", self.what, m.source.name)
    }
}

/// The polarity of a subformula: under an even or odd number of negations, or both
/// (inside `<->` or a `case` condition).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pol {
    Pos,
    Neg,
    Both,
}

impl Pol {
    pub(crate) fn flip(self) -> Pol {
        match self {
            Pol::Pos => Pol::Neg,
            Pol::Neg => Pol::Pos,
            Pol::Both => Pol::Both,
        }
    }
}
