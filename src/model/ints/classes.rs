//! Classes of variables joined by the values that flow between them (union-find),
//! for the analyses of `int` cells (`rank`, `litint`).

use crate::model::ir::VarId;

/// A partition of the variables `0..n`; each class is named by its least member.
#[derive(Clone, Debug)]
pub struct VarClasses {
    parent: Vec<VarId>,
}

impl VarClasses {
    /// Every variable of `0..n` in a class of its own.
    pub fn new(n: usize) -> VarClasses {
        VarClasses {
            parent: (0..n).collect(),
        }
    }

    /// The least member of `v`'s class.
    pub fn find(&mut self, v: VarId) -> VarId {
        let mut r = v;
        while self.parent[r] != r {
            r = self.parent[r];
        }
        self.parent[v] = r;
        r
    }

    /// Join the classes of `a` and `b`.
    pub fn union(&mut self, a: VarId, b: VarId) {
        let (a, b) = (self.find(a), self.find(b));
        self.parent[a.max(b)] = a.min(b);
    }
}
