//! The certificate of the widths proved, for an independent check by `proof::check`
//! (SAT on each width's own instance, one if-then-else gate per diagram node) and by
//! `nfold certify`: an inductive invariant of the k-liveness product with bound K
//! (`live::Variant::Klive(K)`, whose property is "the round counter reaches K").
//!
//! Width w was proved with K_w (no run from its initial states completes K_w rounds:
//! Init_w ∩ L_{K_w} = ∅, `rounds`). Its lemma says that no reachable state of that
//! width has counter value c < K_w and lies in L_{K_w - c}, nor a counter value of K_w
//! or more. That is inductive: a step that is not a count stays at c and L_j is closed
//! under predecessors by such steps; a count from c to c + 1 leaves a state of
//! L_{K_w - c} only if it enters L_{K_w - c - 1} (then the state left completes one
//! round more); and the initial states (c = 0) avoid L_{K_w}. With K the largest K_w,
//! "c ≥ K_w is unreachable" makes the widths with a smaller bound part of one
//! certificate about one product. Each width's diagram is the aggregate's sets with
//! the presence bits fixed to that width and the cells that do not exist there at
//! their lowest value, under a decision on the counter's bits.

use super::sys::{F, R, Stop, Sys};
use crate::cert::{BddNode, BddRef};
use crate::transys::StateVar;
use oxidd::{BooleanFunction, Function, Manager, VarNo};
use std::collections::HashMap;

/// The nodes written so far, shared by every width's diagram.
pub struct Exporter {
    pub nodes: Vec<BddNode>,
    /// Per BDD node (regular edge), its number.
    memo: HashMap<oxidd::NodeID, usize>,
    /// Per current-state BDD variable: (cell name, bit, lowest value of the code,
    /// whether the variable is the bit negated).
    names: HashMap<VarNo, (String, u32, i64, bool)>,
    /// Nodes of the counter's decision, by (bits left, leaves).
    trees: HashMap<Vec<BddRef>, BddRef>,
}

impl Exporter {
    pub fn new(sys: &Sys) -> Exporter {
        let mut names = HashMap::new();
        for b in &sys.bits {
            if let StateVar::Cell(s) = b.of {
                names.insert(
                    b.cur,
                    (
                        sys.ts.inst.cell_name(s),
                        b.bit,
                        sys.ts.inst.slots[s].lo,
                        b.lit < 0,
                    ),
                );
            }
        }
        Exporter {
            nodes: Vec::new(),
            memo: HashMap::new(),
            names,
            trees: HashMap::new(),
        }
    }

    /// `f` as a reference to written nodes (every variable it reads must be a cell's
    /// bit, read as a positive literal).
    pub fn export(&mut self, f: &F) -> R<BddRef> {
        if f.valid() {
            return Ok(BddRef::Const(true));
        }
        if !f.satisfiable() {
            return Ok(BddRef::Const(false));
        }
        let (id, neg, var) = f.with_manager_shared(|m, e| {
            let node = m.get_node(e);
            (
                e.node_id(),
                e.tag() != Default::default(),
                m.level_to_var(node.level()),
            )
        });
        if let Some(&k) = self.memo.get(&id) {
            return Ok(BddRef::Node { id: k, neg });
        }
        let regular = if neg { f.not()? } else { f.clone() };
        let (hi, lo) = regular.cofactors().ok_or(Stop::Limit)?;
        let (cell, bit, lo_v, flip) = self.names.get(&var).cloned().ok_or(Stop::Limit)?;
        let (hi, lo) = if flip { (lo, hi) } else { (hi, lo) };
        let then = self.export(&hi)?;
        let else_ = self.export(&lo)?;
        self.nodes.push(BddNode {
            cell,
            bit,
            lo: lo_v,
            then,
            else_,
        });
        let k = self.nodes.len();
        self.memo.insert(id, k);
        Ok(BddRef::Node { id: k, neg })
    }

    /// A decision on the bits `bit..` of cell `cell` (code from 0) choosing
    /// `leaves[v]` for value v (a power of two of them).
    pub fn decide(&mut self, cell: &str, bit: u32, leaves: &[BddRef]) -> BddRef {
        if leaves.len() == 1 {
            return leaves[0];
        }
        if leaves.iter().all(|&l| l == leaves[0]) {
            return leaves[0];
        }
        if let Some(&r) = self.trees.get(leaves) {
            return r;
        }
        // The lowest bit decides between even and odd values.
        let evens: Vec<BddRef> = leaves.iter().step_by(2).copied().collect();
        let odds: Vec<BddRef> = leaves.iter().skip(1).step_by(2).copied().collect();
        let else_ = self.decide(cell, bit + 1, &evens);
        let then = self.decide(cell, bit + 1, &odds);
        self.nodes.push(BddNode {
            cell: cell.to_string(),
            bit,
            lo: 0,
            then,
            else_,
        });
        let r = BddRef::Node {
            id: self.nodes.len(),
            neg: false,
        };
        self.trees.insert(leaves.to_vec(), r);
        r
    }
}

/// `f` at width w: the presence bits fixed, the cells that do not exist at w at their
/// lowest value (`exists[s]`: whether cell s exists at w).
pub fn at_width(sys: &Sys, f: &F, w: usize, exists: &[bool]) -> R<F> {
    let mut cube = sys.tt();
    for b in &sys.bits {
        let value = match b.of {
            StateVar::Absent(p) => p + 1 > w,
            StateVar::Cell(s) if !exists[s] => false,
            StateVar::Cell(_) => continue,
        };
        // The BDD variable is the template variable; its literal's value is `value`.
        let var_value = value ^ (b.lit < 0);
        let x = sys.var(b.cur);
        cube = cube.and(&if var_value { x.clone() } else { x.not()? })?;
    }
    Ok(f.restrict(&cube)?)
}
