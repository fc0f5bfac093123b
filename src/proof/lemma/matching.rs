//! Lazy orbits: the search for a member of a lemma's orbit that a state satisfies,
//! assignment by assignment, checking each atom as soon as its last variable is
//! assigned, and polling the caller's limit as it goes.

use super::{Atom, Cube, Lemma, PVal, cell_exists, satisfies};
use crate::model::ir::Ty;
use crate::sat::Stop;
use crate::transys::{StateVar, Transys};

/// `Lemma::matching` gave up: the caller's limit (`sat::Stop`) was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// How many assignments `Lemma::matching` tries between two polls of its limit (one
/// clock read per thousand assignments costs nothing measurable; a search of millions
/// of assignments stops within a millisecond of the deadline).
const POLL: u64 = 1024;

/// The state of one `Lemma::matching` search.
struct Match<'a> {
    ts: &'a Transys<'a>,
    width: usize,
    value: &'a dyn Fn(StateVar) -> i64,
    stop: &'a Stop,
    cur: Vec<i64>,
    found: Option<Cube>,
    nodes: u64,
    stopped: bool,
}

impl Lemma {
    /// An instance of the lemma that a state satisfies, if any. `value` gives the
    /// value of a state variable, `width` the state's width. The search tries up to
    /// width!/(width - procs)! assignments, so it polls `stop` as it goes (every
    /// `POLL` assignments) and gives up with `Interrupted` once the limit is reached.
    pub fn matching(
        &self,
        ts: &Transys,
        width: usize,
        value: &dyn Fn(StateVar) -> i64,
        stop: &Stop,
    ) -> Result<Option<Cube>, Interrupted> {
        if width < self.lo || width > self.hi {
            return Ok(None);
        }
        let mut m = Match {
            ts,
            width,
            value,
            stop,
            cur: Vec::with_capacity(self.procs),
            found: None,
            nodes: 0,
            stopped: false,
        };
        self.search(&mut m);
        if m.stopped {
            return Err(Interrupted);
        }
        Ok(m.found)
    }

    fn search(&self, m: &mut Match) {
        m.nodes += 1;
        if m.nodes.is_multiple_of(POLL) && m.stop.now() {
            m.stopped = true;
            return;
        }
        // The atoms whose last variable was just assigned (or that have none, at the
        // start) must hold; the others were checked at a shallower level or wait.
        let k = m.cur.len();
        let last = |a: &Atom| {
            a.index
                .iter()
                .chain([&a.value])
                .filter_map(|p| match p {
                    PVal::Proc(i) => Some(i + 1),
                    PVal::Const(_) => None,
                })
                .max()
                .unwrap_or(0)
        };
        let ts = m.ts;
        let mut index = [0i64; 8];
        for a in self.atoms.iter().filter(|a| last(a) == k) {
            let v = |p: PVal| match p {
                PVal::Const(c) => c,
                PVal::Proc(i) => m.cur[i],
            };
            {
                let n = a.index.len();
                let mut heap = Vec::new();
                let ix: &mut [i64] = if n <= index.len() {
                    &mut index[..n]
                } else {
                    heap.resize(n, 0);
                    &mut heap
                };
                for (d, &p) in ix.iter_mut().zip(&a.index) {
                    *d = v(p);
                }
                let Some(s) = ts.inst.slot_of(a.var, ix) else {
                    return;
                };
                // Process indices are at most the width here; ranges may not exist.
                let ranged = ts.inst.model.vars[a.var]
                    .dims
                    .iter()
                    .any(|d| matches!(d, Ty::Range(_)));
                if (ranged && !cell_exists(ts, s, m.width))
                    || !satisfies((m.value)(StateVar::Cell(s)), v(a.value))
                {
                    return;
                }
            }
        }
        if k == self.procs {
            m.found = self.instance(ts, &m.cur);
            return;
        }
        for p in 1..=m.width as i64 {
            if m.found.is_some() || m.stopped {
                return;
            }
            if self.next_ok(&m.cur, p) {
                m.cur.push(p);
                self.search(m);
                m.cur.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lemma::tests::atom;

    #[test]
    fn matching_stops_at_the_limit() {
        use crate::transys::frame::Encoding;
        let text = "type loc = Idle | Crit\narray Pc[proc] : loc\n\
                    init (z) { Pc[z] = Idle }\n\
                    unsafe (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }\n\
                    transition go (i) { Pc[i] := Crit; }\n";
        let m = crate::lang::load_str("t.cub", text).unwrap();
        let ts = Transys::new(&m, 10, 10, Encoding::Binary);
        // Six processes, the last of them in Crit: in a state where none is, every
        // assignment of the first five is tried (10·9·8·7·6 of them) before the last
        // atom rules it out.
        let l = Lemma {
            lo: 10,
            hi: 10,
            procs: 6,
            atoms: (0..6).map(|i| atom(0, i, (i == 5) as i64)).collect(),
            ordered: false,
        };
        let idle = |_: StateVar| 0;
        let free = Stop::default();
        assert_eq!(l.matching(&ts, 10, &idle, &free), Ok(None));
        let past = Stop {
            deadline: Some(std::time::Instant::now()),
            ..Stop::default()
        };
        assert_eq!(l.matching(&ts, 10, &idle, &past), Err(Interrupted));
        // A state that matches at once is found before the first poll.
        let all = |_: StateVar| 1;
        let ones = Lemma {
            atoms: (0..6).map(|i| atom(0, i, 1)).collect(),
            ..l
        };
        assert!(ones.matching(&ts, 10, &all, &past).unwrap().is_some());
    }
}
