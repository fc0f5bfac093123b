//! What the workers of a distributed search send each other, and the findings every
//! worker merges alike so that all of them take the same decisions.

use crate::explicit::reach::expand::Kind;
use crate::explicit::reach::{all_done, deepest};
use serde::{Deserialize, Serialize};

/// A record on the dataflow's one stream: the worker it goes to, the round (BFS level,
/// then trace hop) it belongs to, and what it says.
pub(super) type Item = (u64, u64, Msg);

/// The parent of a root.
pub(super) const NONE: u64 = u64::MAX;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) enum Msg {
    /// Successors for their owner: per successor its real packed state, then (when
    /// states are stored under a key) its key, each `Instance::words` words.
    States { words: Vec<u64>, edges: Vec<Edge> },
    /// What a worker did in a round (sent to every worker).
    Summary(Summary),
    /// Walking a found state's parent records back: `gid` is next, `steps` are the
    /// firings from it to the found state, last first.
    Lookup {
        find: u32,
        gid: u64,
        steps: Vec<(u32, u32)>,
    },
    /// The walk reached a root: its real packed state, and the firings from it.
    Root {
        find: u32,
        words: Vec<u64>,
        steps: Vec<(u32, u32)>,
    },
    /// A worker's totals at the end (sent to worker 0).
    Totals(Totals),
}

/// Where a state came from: its parent's global id (`NONE` for a root) and the
/// compiled transition instance and choice that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(super) struct Edge {
    pub k: u32,
    pub c: u32,
    pub parent: u64,
}

/// One worker's round.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Summary {
    pub worker: u32,
    /// States of this level the worker expanded.
    pub frontier: u64,
    /// States it stores.
    pub stored: u64,
    pub finds: Finds,
    /// A limit it met (`Limit` as `limit_code`).
    pub limit: Option<u8>,
}

/// A worker's totals.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Totals {
    pub stored: u64,
    pub transitions: u64,
    pub bytes: u64,
    /// Per compiled transition instance: fired (or met an error) in an expanded state.
    pub fired: Vec<bool>,
}

/// A violation found: its depth, the stored key of its state (the tie-break that makes
/// the choice independent of the number of workers), the state's global id.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Find {
    pub depth: u32,
    pub key: Vec<u64>,
    pub gid: u64,
    pub kind: FindKind,
}

/// `search::Kind`, sent.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) enum FindKind {
    Unsafe { prop: u32, tuple: u32 },
    Deadlock,
    RangeTrans { ctrans: u32 },
    RangeProp { prop: u32 },
    RangeInit { state: Vec<i64> },
    IntBound { ctrans: u32 },
}

impl FindKind {
    pub fn kind(&self) -> Kind {
        match self {
            FindKind::Unsafe { prop, tuple } => Kind::Unsafe {
                prop: *prop as usize,
                tuple: *tuple as usize,
            },
            FindKind::Deadlock => Kind::Deadlock,
            FindKind::RangeTrans { ctrans } => Kind::RangeTrans {
                ctrans: *ctrans as usize,
            },
            FindKind::RangeProp { prop } => Kind::RangeProp {
                prop: *prop as usize,
            },
            FindKind::RangeInit { state } => Kind::RangeInit {
                state: state.clone(),
            },
            FindKind::IntBound { ctrans } => Kind::IntBound {
                ctrans: *ctrans as usize,
            },
        }
    }
}

/// The shallowest violation of each sort, ties broken by the smallest key.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Finds {
    /// Per checked property (index into the checked list).
    pub unsafes: Vec<Option<Find>>,
    pub deadlock: Option<Find>,
    pub range: Option<Find>,
    pub int: Option<Find>,
}

/// Keep `f` in `slot` when it is shallower, or as deep with a smaller key.
pub(super) fn keep(slot: &mut Option<Find>, f: &Find) {
    if slot
        .as_ref()
        .is_none_or(|g| (f.depth, &f.key) < (g.depth, &g.key))
    {
        *slot = Some(f.clone());
    }
}

impl Finds {
    pub fn new(props: usize) -> Finds {
        Finds {
            unsafes: vec![None; props],
            ..Finds::default()
        }
    }

    pub fn merge(&mut self, o: &Finds) {
        for (a, b) in self.unsafes.iter_mut().zip(&o.unsafes) {
            if let Some(b) = b {
                keep(a, b);
            }
        }
        for (a, b) in [
            (&mut self.deadlock, &o.deadlock),
            (&mut self.range, &o.range),
            (&mut self.int, &o.int),
        ] {
            if let Some(b) = b {
                keep(a, b);
            }
        }
    }

    /// When every tracked property is violated: the depth of the deepest of them (range
    /// errors and int bounds are decided up to it; `reach::deepest`).
    pub fn decided_to(&self, deadlock: bool) -> Option<u32> {
        let unsafes = self.unsafes.iter().map(depth_of);
        let last = deepest(unsafes, deadlock.then(|| depth_of(&self.deadlock)));
        last.map(|d| d as u32)
    }

    /// `search::Records::all_done` after every state of depth <= `depth` was expanded
    /// (`reach::all_done`).
    pub fn all_done(&self, deadlock: bool, ints: bool, depth: u32) -> bool {
        let last = self.decided_to(deadlock).map(|d| d as usize);
        let int = ints.then(|| depth_of(&self.int));
        all_done(last, depth as usize, depth_of(&self.range), int)
    }
}

/// The depth of a find, if any.
fn depth_of(f: &Option<Find>) -> Option<usize> {
    f.as_ref().map(|f| f.depth as usize)
}

/// `Limit` on the wire.
pub(super) fn limit_code(l: crate::verdict::Limit) -> u8 {
    use crate::verdict::Limit::*;
    match l {
        MaxStates => 0,
        Timeout => 1,
        Memory => 2,
        Interrupted => 3,
    }
}

pub(super) fn limit_of(c: u8) -> crate::verdict::Limit {
    use crate::verdict::Limit::*;
    [MaxStates, Timeout, Memory, Interrupted][c as usize % 4]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(depth: u32, key: u64) -> Find {
        Find {
            depth,
            key: vec![key],
            gid: key,
            kind: FindKind::Deadlock,
        }
    }

    #[test]
    fn the_shallowest_then_smallest_key_is_kept_in_any_order() {
        let fs = [find(3, 9), find(2, 7), find(2, 5), find(4, 1)];
        let mut a = None;
        let mut b = None;
        for f in &fs {
            keep(&mut a, f);
        }
        for f in fs.iter().rev() {
            keep(&mut b, f);
        }
        assert_eq!(a.as_ref().map(|f| (f.depth, f.gid)), Some((2, 5)));
        assert_eq!(b.as_ref().map(|f| (f.depth, f.gid)), Some((2, 5)));
    }

    #[test]
    fn all_done_waits_for_every_property_and_the_range_errors_below() {
        let mut g = Finds::new(2);
        g.unsafes[0] = Some(find(3, 1));
        assert!(!g.all_done(false, false, 5));
        g.unsafes[1] = Some(find(4, 1));
        assert_eq!(g.decided_to(false), Some(4));
        // Range errors are decided up to depth 4 only once level 4 is expanded.
        assert!(!g.all_done(false, false, 4));
        assert!(g.all_done(false, false, 5));
        g.range = Some(find(4, 2));
        assert!(g.all_done(false, false, 4));
        assert!(!g.all_done(true, false, 9), "a deadlock is asked for");
    }
}
