//! The `bdd` lemmas of a certificate as circuits of the SAT check: one if-then-else
//! per diagram node over the literals "bit b of (cell - lo) is 1" of a frame, each
//! read from the cell's own (one-hot) encoding.

use crate::cert::BddNode;
use crate::sat::Lit;
use crate::sat::circuit::TRUE;
use crate::transys::unroll::Unroller;
use std::collections::{HashMap, HashSet};

/// The nodes of `nodes` reachable from `root` (itself included) that are not `built`
/// yet, in increasing order: a node's children are numbered before it, so each is
/// built after them.
pub(super) fn unbuilt_below(
    nodes: &[BddNode],
    root: usize,
    built: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut need = vec![root];
    let mut todo = Vec::new();
    let mut seen = HashSet::new();
    while let Some(id) = need.pop() {
        if built(id) || !seen.insert(id) {
            continue;
        }
        todo.push(id);
        let n = &nodes[id - 1];
        need.extend(n.then.node());
        need.extend(n.else_.node());
    }
    todo.sort_unstable();
    todo
}

/// The `bdd` lemmas at one frame as circuits: one if-then-else per node, over the
/// literals "bit b of (cell - lo) is 1" of the frame (from the cell's own encoding:
/// the disjunction of the values with that bit).
pub(super) struct Diagram<'c> {
    nodes: &'c [BddNode],
    /// Cell name -> slot of the instance.
    slots: HashMap<String, usize>,
    lits: HashMap<usize, Lit>,
    atoms: HashMap<(usize, u32, i64), Lit>,
}

impl<'c> Diagram<'c> {
    pub(super) fn new(u: &Unroller, nodes: &'c [BddNode]) -> Diagram<'c> {
        let slots = if nodes.is_empty() {
            HashMap::new()
        } else {
            (0..u.inst.slots.len())
                .map(|s| (u.inst.cell_name(s), s))
                .collect()
        };
        Diagram {
            nodes,
            slots,
            lits: HashMap::new(),
            atoms: HashMap::new(),
        }
    }

    /// "Bit b of (cell s - lo) is 1" at frame j.
    fn atom(&mut self, u: &mut Unroller, j: usize, s: usize, b: u32, lo: i64) -> Lit {
        if let Some(&l) = self.atoms.get(&(s, b, lo)) {
            return l;
        }
        let sl = &u.inst.slots[s];
        let (vlo, vhi) = (sl.lo, sl.hi);
        let size = (vhi - vlo + 1).max(0) as usize;
        let cell = u.frames[j].cells[s].clone();
        let t = cell.decode(&mut u.c, vlo, size);
        let ones: Vec<Lit> = (vlo..=vhi)
            .filter(|&v| (v - lo) >> b & 1 == 1)
            .map(|v| t.cond(&mut u.c, v))
            .collect();
        let l = u.c.or(&ones);
        self.atoms.insert((s, b, lo), l);
        l
    }

    /// The diagram `r` at frame j (its nodes built once, children first).
    pub(super) fn lit(
        &mut self,
        u: &mut Unroller,
        j: usize,
        r: crate::cert::BddRef,
    ) -> Result<Lit, String> {
        use crate::cert::BddRef;
        let node_lit = |lits: &HashMap<usize, Lit>, r: BddRef| match r {
            BddRef::Const(true) => TRUE,
            BddRef::Const(false) => -TRUE,
            BddRef::Node { id, neg } => {
                let l = lits[&id];
                if neg { -l } else { l }
            }
        };
        let Some(root) = r.node() else {
            return Ok(node_lit(&self.lits, r));
        };
        for id in unbuilt_below(self.nodes, root, |id| self.lits.contains_key(&id)) {
            let n = &self.nodes[id - 1];
            let s = *self.slots.get(&n.cell).ok_or_else(|| {
                format!(
                    "node {id} reads cell `{}`, which the instance of size {} lacks",
                    n.cell, u.inst.n
                )
            })?;
            let a = self.atom(u, j, s, n.bit, n.lo);
            let (t, e) = (node_lit(&self.lits, n.then), node_lit(&self.lits, n.else_));
            let l = u.c.ite(a, t, e);
            // The two clauses a multiplexer's Tseitin form leaves out ("both
            // branches agree, so does the node"): with them unit propagation decides
            // a node from its children alone, which the SAT check of a diagram's
            // closure needs (without: 18 s for odd-even sort at n = 6, hours beyond).
            if l.abs() != TRUE.abs() {
                u.c.clause(&[-t, -e, l]);
                u.c.clause(&[t, e, -l]);
            }
            self.lits.insert(id, l);
        }
        Ok(node_lit(&self.lits, r))
    }
}
