//! Successors in the product of an instance with the Büchi automaton of a negated `ltl`
//! property, shared by the nested search (`search`), the SCC search (`scc`) and the
//! unfolding of a found component into a lasso (`unfold_scc`): the compiled transitions
//! fired on a real state, the atoms evaluated on each successor, the automaton's moves
//! whose label the successor satisfies, the canonical key (and the permutation that
//! maps the successor to it) under symmetry, and a deadlock's stutter. Also the packing
//! of (key, automaton state) into table keys and the initial nodes.

use crate::explicit::store::copy_words;
use crate::lasso::Lasso;
use crate::ltl::LtlProperty;
use crate::ltl::buchi::Buchi;
use crate::model::canon::{CanonBuf, Symmetry};
use crate::model::compiled::{C, Compiled, Outcome, Scratch, compile};
use crate::model::dead::{self, Dead};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::trace::{RangeSite, Trace};
use crate::verdict::Limit;

/// How one search ended.
pub(super) enum Found {
    /// The search ran to its end without a counterexample.
    Nothing,
    /// `init` meets a range error in this state.
    Init(State),
    /// An atom of the property cannot be evaluated on this initial state.
    InitAtoms(State),
    /// A lasso (or why none could be built from what the search found).
    Lasso(Result<Lasso, String>),
    /// A trace to a range error met while searching.
    Range(Result<Trace, String>),
    Limit(Limit),
}

/// `via` of a root record (an initial node).
pub(super) const ROOT: u64 = u64::MAX;
/// `via` of a deadlock's stutter.
pub(super) const STUTTER: u64 = u64::MAX - 2;

/// One successor, as `Expander::expand` reports it.
pub(super) struct Succ<'b> {
    /// The real successor state, packed.
    pub(super) words: &'b [u64],
    /// Its canonical representative, packed (empty without symmetry).
    pub(super) key: &'b [u64],
    /// A permutation mapping `words` to `key` (`perm[p - 1]` is the new id of process
    /// p), when asked for and under symmetry; else empty.
    pub(super) perm: &'b [i64],
    /// The automaton state.
    pub(super) q: usize,
    /// Transition instance and choice (`k << 32 | choice`), or `STUTTER`.
    pub(super) via: u64,
    /// The executing process (the transition's first parameter), 0 for none.
    pub(super) process: u64,
}

/// Why an expansion stopped.
pub(super) enum Fault {
    /// An atom cannot be evaluated on a successor: its real state and via.
    Atom { next: Vec<u64>, via: u64 },
    /// Transition instance k raises a range error (or leaves the int window).
    Trans(usize),
}

/// The successor generator of one (property, size, process).
pub(super) struct Expander<'a> {
    pub(super) inst: &'a Instance<'a>,
    pub(super) compiled: &'a Compiled,
    pub(super) buchi: &'a Buchi,
    pub(super) sym: Option<Symmetry>,
    /// Dead cells set to one value after every step and in the initial states
    /// (`model::dead`): the search walks the normalized system.
    pub(super) dead: Option<Dead>,
    atoms: Vec<C>,
    /// Per slot: whether an atom may read it.
    atom_reads: Vec<bool>,
    pub(super) prop: usize,
    pub(super) process: Option<i64>,
    pub(super) n: usize,
    /// Words of a packed state (at least one).
    pub(super) w: usize,
    canon_buf: CanonBuf,
    canon: State,
    st: State,
    scratch: Scratch,
    candidates: Vec<u32>,
    next_words: Vec<u64>,
    next_key: Vec<u64>,
    perm: Vec<i64>,
    /// A normalized successor, when its dead cells had to change.
    norm: State,
}

/// The dead cells the `ltl` searches may normalize at instance `inst` (none unless `on`).
pub(super) fn dead_for(inst: &Instance, on: bool) -> Option<Dead> {
    if on {
        Dead::for_instance(inst, &dead::analyse_live(inst.model))
    } else {
        None
    }
}

impl<'a> Expander<'a> {
    /// The generator for property `p` instantiated with `process`, reducing by `sym`.
    pub(super) fn new(
        inst: &'a Instance<'a>,
        compiled: &'a Compiled,
        p: &'a LtlProperty,
        process: Option<i64>,
        sym: Option<Symmetry>,
        dead: Option<Dead>,
    ) -> Self {
        let l = &inst.model.ltls[p.prop];
        let atoms = p
            .atoms
            .iter()
            .map(|a| {
                let mut env = vec![0i64; l.locals.len().max(1)];
                if let Some(pr) = process {
                    env[0] = pr;
                }
                compile(inst, &mut env, a)
            })
            .collect::<Vec<C>>();
        let mut atom_reads = vec![false; inst.slots.len()];
        for a in &atoms {
            a.mark_reads(&mut atom_reads);
        }
        Expander {
            inst,
            compiled,
            buchi: &p.buchi,
            sym,
            dead,
            atoms,
            atom_reads,
            prop: p.prop,
            process,
            n: inst.n,
            w: inst.words.max(1),
            canon_buf: CanonBuf::default(),
            canon: vec![0; inst.slots.len()],
            st: vec![0; inst.slots.len()],
            scratch: Scratch::default(),
            candidates: Vec::new(),
            next_words: Vec::new(),
            next_key: Vec::new(),
            perm: Vec::new(),
            norm: Vec::new(),
        }
    }

    /// Set the dead cells of `st` to their filler values (nothing without dead cells).
    pub(super) fn settle(&self, st: &mut [i64]) {
        if let Some(d) = &self.dead {
            d.normalize(st);
        }
    }

    /// The atoms that hold in a state, as a bit mask (`Err` on a range error).
    pub(super) fn atom_mask(&self, st: &[i64]) -> Result<u64, ()> {
        mask_of(&self.atoms, st)
    }

    /// Whether a state with atoms `mask` satisfies the label of automaton state `q`.
    pub(super) fn label_ok(&self, q: usize, mask: u64) -> bool {
        label_ok(self.buchi, q, mask)
    }

    pub(super) fn accepting(&self, q: usize) -> bool {
        self.buchi.states[q].accepting
    }

    /// The canonical packed form of `st` into `out`, and (when `perm` is given) a
    /// permutation mapping `st` to it; nothing without symmetry.
    pub(super) fn canonical(
        &mut self,
        st: &[i64],
        out: &mut Vec<u64>,
        perm: Option<&mut Vec<i64>>,
    ) {
        let Some(sym) = &self.sym else {
            return;
        };
        match perm {
            Some(pi) => sym.canonical_perm_into(st, &mut self.canon, pi, &mut self.canon_buf),
            None => sym.canonical_into(st, &mut self.canon, &mut self.canon_buf),
        }
        out.resize(self.w, 0);
        self.inst.pack(&self.canon, out);
    }

    /// Where a fault happened: the successor's real state and via (for an atom that
    /// cannot be evaluated on it; none when the transition itself fails), and the site.
    pub(super) fn fault_site(&self, f: Fault) -> (Option<Vec<u64>>, RangeSite) {
        match f {
            Fault::Atom { mut next, via } => {
                next.push(via);
                let site = RangeSite::Ltl {
                    prop: self.prop,
                    process: self.process,
                };
                (Some(next), site)
            }
            Fault::Trans(k) => {
                let ct = &self.compiled.trans[k];
                let site = RangeSite::Transition {
                    trans: ct.trans,
                    params: ct.params.clone(),
                };
                (None, site)
            }
        }
    }

    /// The executing process of transition instance k (0 for a transition without
    /// parameters).
    pub(super) fn process_of(&self, k: usize) -> u64 {
        process_of(self.compiled, k)
    }

    /// Call `emit` on every successor of the product node (real state `words` with
    /// canonical key `key`, automaton state `q`): every step of the system whose
    /// successor satisfies the label of an automaton successor of `q`, in the compiled
    /// order, and for a deadlock the stutter to each automaton successor whose label
    /// the state satisfies. Returns the processes enabled in the state (bit p - 1).
    /// With `want_perm`, each successor carries the permutation to its representative.
    pub(super) fn expand<F: FnMut(&Succ)>(
        &mut self,
        words: &[u64],
        key: &[u64],
        q: usize,
        want_perm: bool,
        emit: &mut F,
    ) -> Result<u64, Fault> {
        let mut st = std::mem::take(&mut self.st);
        self.inst.unpack(words, &mut st);
        let r = self.fire_all(&mut st, words, q, want_perm, emit);
        if let Ok((_, false)) = r {
            self.stutter(&st, words, key, q, want_perm, emit);
        }
        self.st = st;
        r.map(|(enabled, _)| enabled)
    }

    /// Fire every candidate transition instance on `st` (packed: `words`), emitting the
    /// product successors; returns the processes enabled and whether any step is.
    fn fire_all<F: FnMut(&Succ)>(
        &mut self,
        st: &mut [i64],
        words: &[u64],
        q: usize,
        want_perm: bool,
        emit: &mut F,
    ) -> Result<(u64, bool), Fault> {
        let mut candidates = std::mem::take(&mut self.candidates);
        self.compiled.candidates(st, &mut candidates);
        let r = if self.sym.is_none() && self.dead.is_none() {
            self.fire_plain(&candidates, st, words, q, emit)
        } else {
            self.fire_general(&candidates, st, words, q, want_perm, emit)
        };
        self.candidates = candidates;
        r
    }

    /// `fire_general` without symmetry and dead cells, where a successor is its writes
    /// patched into `words` and needs no cells of its own: none are built unless a
    /// write reaches a cell the atoms read (else the successor's atoms are `st`'s).
    fn fire_plain<F: FnMut(&Succ)>(
        &mut self,
        candidates: &[u32],
        st: &[i64],
        words: &[u64],
        q: usize,
        emit: &mut F,
    ) -> Result<(u64, bool), Fault> {
        // The fields apart, as the loop borrows them (no buffers taken and put back).
        let Expander {
            inst,
            compiled,
            buchi,
            atoms,
            atom_reads,
            scratch,
            next_words,
            norm: next,
            w,
            ..
        } = self;
        let (inst, compiled, buchi) = (*inst, *compiled, *buchi);
        // `st` was reached, so its atoms evaluated then; `None` would only re-evaluate
        // them on every successor.
        let here = mask_of(atoms, st).ok();
        next_words.resize(*w, 0);
        let succ = &buchi.states[q].succ;
        let mut tally = Tally::default();
        let mut fault: Option<Fault> = None;
        for &k in candidates {
            let k = k as usize;
            let p = process_of(compiled, k);
            let out = compiled.fire_writes(k, st, scratch, &mut |choice, writes| {
                if fault.is_some() {
                    return;
                }
                copy_words(next_words, words);
                let mut touched = false;
                for &(slot, v) in writes {
                    inst.patch(next_words, slot, v);
                    touched |= atom_reads[slot];
                }
                let via = (k as u64) << 32 | choice as u64;
                let mask = match here {
                    Some(m) if !touched => m,
                    _ => {
                        next.clear();
                        next.extend_from_slice(st);
                        for &(slot, v) in writes {
                            next[slot] = v;
                        }
                        let Ok(m) = mask_of(atoms, next) else {
                            fault = Some(Fault::Atom {
                                next: next_words.clone(),
                                via,
                            });
                            return;
                        };
                        m
                    }
                };
                for &q2 in succ {
                    if label_ok(buchi, q2, mask) {
                        emit(&Succ {
                            words: next_words,
                            key: &[],
                            perm: &[],
                            q: q2,
                            via,
                            process: p,
                        });
                    }
                }
            });
            if tally.note(out, k, p, &mut fault) {
                break;
            }
        }
        tally.result(fault)
    }

    /// The successors of `st` as cells, normalized by the dead cells and mapped to
    /// their representatives under symmetry.
    fn fire_general<F: FnMut(&Succ)>(
        &mut self,
        candidates: &[u32],
        st: &mut [i64],
        words: &[u64],
        q: usize,
        want_perm: bool,
        emit: &mut F,
    ) -> Result<(u64, bool), Fault> {
        let mut tally = Tally::default();
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut next_words = std::mem::take(&mut self.next_words);
        next_words.resize(self.w, 0);
        let mut next_key = std::mem::take(&mut self.next_key);
        let mut perm = std::mem::take(&mut self.perm);
        let mut norm = std::mem::take(&mut self.norm);
        let dead = self.dead.take();
        let with_perm = want_perm && self.sym.is_some();
        let mut fault: Option<Fault> = None;
        let compiled = self.compiled;
        for &k in candidates {
            let k = k as usize;
            let p = self.process_of(k);
            let out = compiled.fire(k, st, &mut scratch, &mut |choice, next, writes| {
                if fault.is_some() {
                    return;
                }
                next_words.copy_from_slice(words);
                for &(slot, v) in writes {
                    self.inst.patch(&mut next_words, slot, v);
                }
                // The successor with its dead cells at their fillers, as the search walks it.
                let mut settled = false;
                if let Some(d) = &dead {
                    d.each_fix(next, |slot, v| {
                        if !settled {
                            norm.clear();
                            norm.extend_from_slice(next);
                            settled = true;
                        }
                        norm[slot] = v;
                        self.inst.patch(&mut next_words, slot, v);
                    });
                }
                let next: &[i64] = if settled { &norm } else { next };
                let via = (k as u64) << 32 | choice as u64;
                let Ok(mask) = self.atom_mask(next) else {
                    fault = Some(Fault::Atom {
                        next: next_words.clone(),
                        via,
                    });
                    return;
                };
                self.canonical(next, &mut next_key, with_perm.then_some(&mut perm));
                for &q2 in &self.buchi.states[q].succ {
                    if self.label_ok(q2, mask) {
                        emit(&Succ {
                            words: &next_words,
                            key: &next_key,
                            perm: if with_perm { &perm } else { &[] },
                            q: q2,
                            via,
                            process: p,
                        });
                    }
                }
            });
            if tally.note(out, k, p, &mut fault) {
                break;
            }
        }
        self.scratch = scratch;
        self.next_words = next_words;
        self.next_key = next_key;
        self.perm = perm;
        self.norm = norm;
        self.dead = dead;
        tally.result(fault)
    }

    /// A deadlock repeats forever: the stutter step (of no process) from `st` (packed:
    /// `words`, canonical: `key`) to every automaton successor of `q` it satisfies.
    fn stutter<F: FnMut(&Succ)>(
        &mut self,
        st: &[i64],
        words: &[u64],
        key: &[u64],
        q: usize,
        want_perm: bool,
        emit: &mut F,
    ) {
        let mask = self
            .atom_mask(st)
            .expect("atoms were evaluated on this state when it was reached");
        let with_perm = want_perm && self.sym.is_some();
        let mut perm = std::mem::take(&mut self.perm);
        if with_perm {
            let mut k2 = Vec::new();
            self.canonical(st, &mut k2, Some(&mut perm));
        }
        for &q2 in &self.buchi.states[q].succ {
            if self.label_ok(q2, mask) {
                emit(&Succ {
                    words,
                    key,
                    perm: if with_perm { &perm } else { &[] },
                    q: q2,
                    via: STUTTER,
                    process: 0,
                });
            }
        }
        self.perm = perm;
    }
}

/// The atoms that hold in a state, as a bit mask (`Err` on a range error).
fn mask_of(atoms: &[C], st: &[i64]) -> Result<u64, ()> {
    let mut m = 0u64;
    for (k, a) in atoms.iter().enumerate() {
        match a.eval(st) {
            Ok(0) => {}
            Ok(_) => m |= 1 << k,
            Err(_) => return Err(()),
        }
    }
    Ok(m)
}

/// Whether a state with atoms `mask` satisfies the label of automaton state `q`.
#[inline]
fn label_ok(buchi: &Buchi, q: usize, mask: u64) -> bool {
    let s = &buchi.states[q];
    mask & s.pos == s.pos && mask & s.neg == 0
}

/// The executing process of transition instance k (0 for a transition without
/// parameters).
#[inline]
fn process_of(compiled: &Compiled, k: usize) -> u64 {
    compiled.trans[k].params.first().copied().unwrap_or(0) as u64
}

/// What firing a node's transition instances showed: the processes enabled (bit
/// p - 1) and whether any step is.
#[derive(Default)]
struct Tally {
    enabled: u64,
    any: bool,
}

impl Tally {
    /// Take in what firing instance k (of process p, 0 for none) did; a fault (the
    /// first one stays) goes to `fault`. Returns whether to stop.
    fn note(&mut self, out: Outcome, k: usize, p: u64, fault: &mut Option<Fault>) -> bool {
        match out {
            Outcome::Disabled | Outcome::Enabled(0) => {}
            Outcome::Enabled(_) => {
                self.any = true;
                if p > 0 {
                    self.enabled |= 1 << (p - 1);
                }
            }
            // A store leaving the int window stops the search like a range error.
            Outcome::Fault | Outcome::IntBound => {
                fault.get_or_insert(Fault::Trans(k));
            }
        }
        fault.is_some()
    }

    fn result(self, fault: Option<Fault>) -> Result<(u64, bool), Fault> {
        match fault {
            Some(f) => Err(f),
            None => Ok((self.enabled, self.any)),
        }
    }
}

/// How a product node becomes a table key: its canonical state (or its real state
/// without symmetry) and its automaton state, packed into the last word when the state
/// leaves room for it there.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyLayout {
    /// Words of a packed state.
    pub(super) w: usize,
    /// Where the automaton state goes in the last word (`None`: a word of its own).
    pub(super) q_shift: Option<u32>,
}

impl KeyLayout {
    pub(super) fn new(inst: &Instance, automaton_states: usize) -> KeyLayout {
        let w = inst.words.max(1);
        let q_bits =
            (usize::BITS - automaton_states.max(2).saturating_sub(1).leading_zeros()) as usize;
        let used_top = inst
            .slots
            .iter()
            .filter(|sl| sl.bits > 0 && sl.word + 1 == w)
            .map(|sl| (sl.shift + sl.bits) as usize)
            .max()
            .unwrap_or(0);
        let q_shift = (inst.words > 0 && used_top + q_bits <= 64).then_some((64 - q_bits) as u32);
        KeyLayout { w, q_shift }
    }

    /// Words of a key.
    pub(super) fn len(&self) -> usize {
        if self.q_shift.is_some() {
            self.w
        } else {
            self.w + 1
        }
    }

    /// The packed state and the automaton state of a key (the inverse of `fill`).
    pub(super) fn split(&self, key: &[u64]) -> (Vec<u64>, u64) {
        let w = self.w;
        let mut state = key[..w].to_vec();
        match self.q_shift {
            Some(sh) => {
                state[w - 1] &= (1u64 << sh) - 1;
                (state, key[w - 1] >> sh)
            }
            None => (state, key[w]),
        }
    }

    /// `split` into a buffer: the packed state into `state` (cleared first), the
    /// automaton state returned.
    pub(super) fn split_into(&self, key: &[u64], state: &mut Vec<u64>) -> u64 {
        let w = self.w;
        state.clear();
        state.extend_from_slice(&key[..w]);
        match self.q_shift {
            Some(sh) => {
                state[w - 1] &= (1u64 << sh) - 1;
                key[w - 1] >> sh
            }
            None => key[w],
        }
    }

    /// The key of (packed state `state`, automaton state `q`) into `key`.
    #[inline]
    pub(super) fn fill(&self, state: &[u64], q: u64, key: &mut [u64]) {
        let w = self.w;
        copy_words(&mut key[..w], &state[..w]);
        match self.q_shift {
            Some(sh) => key[w - 1] |= q << sh,
            None => key[w] = q,
        }
    }
}

/// Receives an initial state, packed and as cells.
pub(super) type InitialFn<'f> = dyn FnMut(&[u64], &[i64]) -> Result<(), Found> + 'f;

/// Call `f` on every initial state of an instance (packed, and as cells; with its dead
/// cells normalized by `dead`) as the enumeration meets it, until `f` returns what it
/// found; then that, or the state where `init` meets a range error, or
/// `Found::Nothing`. The initial states are not collected first: an instance with many
/// of them costs no memory for them, and a search may stop at its first lasso.
pub(super) fn each_initial(inst: &Instance, dead: Option<&Dead>, f: &mut InitialFn) -> Found {
    let mut words = vec![0u64; inst.words.max(1)];
    let mut found = None;
    let mut settled: State = Vec::new();
    let res = for_each_initial(inst, &mut |st| {
        let st = match dead {
            Some(d) => {
                settled.clear();
                settled.extend_from_slice(st);
                d.normalize(&mut settled);
                &settled[..]
            }
            None => st,
        };
        inst.pack(st, &mut words);
        match f(&words, st) {
            Ok(()) => true,
            Err(e) => {
                found = Some(e);
                false
            }
        }
    });
    match (found, res) {
        (Some(f), _) => f,
        (None, Err(e)) => Found::Init(e.state),
        (None, Ok(())) => Found::Nothing,
    }
}
