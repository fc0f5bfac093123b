//! One worker of the distributed search: its partition of the visited set, and the
//! rounds it runs in lockstep with every other worker over one timely dataflow (an
//! input exchanged by destination, then a probe). Round d expands the worker's states
//! of BFS level d and sends every successor to the worker its key's hash selects; that
//! worker keeps the successors it has not stored, the smallest real state (then firing)
//! of each key as its representative, so the level it stores does not depend on timing.
//! A summary of each round goes to every worker, and every worker takes the same
//! decision from the same summaries: go on, or stop (complete, every property violated,
//! a limit). Then the parent records of the violations chosen are walked back, one hop
//! a round, across the workers that hold them. (The frontier exchange per level is the
//! scheme of Stern and Dill, "Parallelizing the Murphi verifier", CAV 1997; the
//! dataflow is McSherry et al.'s timely dataflow, "Naiad", SOSP 2013.) The owner of a
//! key and the profile of the levels are the parallel-search kit's (`par::parts::peer_of`,
//! `par::prof`).

use super::msg::{Edge, Find, FindKind, Finds, Item, Msg, NONE, Summary, Totals, keep, limit_code};
use crate::explicit::par::parts::peer_of;
use crate::explicit::par::prof::{self, Prof};
use crate::explicit::reach::ReachOptions;
use crate::explicit::reach::expand::{Ctx, Finder, Work, eval_props};
use crate::explicit::store::hash_words;
use crate::model::compiled::{Outcome, Scratch};
use crate::model::init::for_each_initial;
use crate::model::instance::State;
use crate::verdict::Limit;
use hashbrown::HashTable;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Instant;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// Firings (compiled transition instance, choice).
type Steps = Vec<(u32, u32)>;
/// A walk back ended: the find, its root's real packed state, the firings from it.
pub(super) type Walked = (u32, Vec<u64>, Steps);

/// The phases of a level (`par::prof`).
#[derive(Clone, Copy)]
pub(super) enum Phase {
    /// Expanding the worker's states of the level, storing what arrives meanwhile.
    Expand,
    /// Storing the successors that arrived by the end of the round.
    Store,
    /// Checking the properties on the level stored.
    Check,
}

impl prof::Phase for Phase {
    const NAMES: &'static [&'static str] = &["expand", "store", "check"];
    const SERIAL: Option<usize> = None;
    fn index(self) -> usize {
        self as usize
    }
}

/// Successors per message.
const CHUNK: usize = 4096;
/// The longest a waiting worker sleeps before looking again.
const PARK: std::time::Duration = std::time::Duration::from_millis(1);
/// States expanded between two steps of the dataflow.
const STEP_EVERY: usize = 1024;

/// The dataflow of a worker: where it sends, and what it has received.
pub(super) struct Chan {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Item>>>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<Item>>>,
    /// Received for a later round (a faster worker is already there).
    later: Vec<Item>,
    pub round: u64,
}

impl Chan {
    pub fn new(worker: &mut Worker) -> Chan {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Rc<RefCell<Vec<Item>>> = Rc::default();
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            let routed = scope.input_from(&mut input).exchange(|x: &Item| x.0);
            // The container named: with every impl of the crate graph in view (those of
            // `cranelift`'s `regalloc2` too), inferring it overflows.
            Inspect::<u64, Vec<Item>>::inspect(routed, move |x: &Item| {
                sink.borrow_mut().push(x.clone())
            })
            .probe_with(&probe);
        });
        Chan {
            input,
            probe,
            inbox,
            later: Vec::new(),
            round: 0,
        }
    }

    pub fn send(&mut self, to: usize, m: Msg) {
        self.input.send((to as u64, self.round, m));
    }

    /// What has arrived for this round so far.
    fn take(&mut self) -> Vec<Msg> {
        let mut got = Vec::new();
        let round = self.round;
        let mut all = std::mem::take(&mut self.later);
        all.append(&mut self.inbox.borrow_mut());
        for (_, r, m) in all {
            if r == round {
                got.push(m);
            } else {
                self.later.push((0, r, m));
            }
        }
        got
    }

    /// Close the round: step the dataflow until every worker's records of this round
    /// have arrived; what arrived, and the next round opened.
    pub fn finish(&mut self, worker: &mut Worker) -> Vec<Msg> {
        self.round += 1;
        self.input.advance_to(self.round);
        // Parking (woken by arriving data) leaves the core to the other workers while
        // this one waits for them: spinning costs more than it saves on a busy machine.
        while self.probe.less_than(&self.round) {
            worker.step_or_park(Some(PARK));
        }
        self.round -= 1;
        let got = self.take();
        self.round += 1;
        got
    }
}

/// A worker's partition and its records.
pub(super) struct Part<'a> {
    pub ctx: Ctx<'a>,
    pub me: usize,
    pub peers: usize,
    /// The profile of this process's workers, and this worker's slot in it.
    prof: &'a Prof<Phase>,
    slot: usize,
    words: usize,
    keyed: bool,
    /// The stored keys, `words` each, by local number.
    keys: Vec<u64>,
    table: HashTable<u32>,
    /// Per local number: where the state came from.
    edges: Vec<Edge>,
    /// The real packed states of the roots (local numbers `0..roots`).
    roots: Vec<u64>,
    /// The first local number of the level being stored.
    level_start: usize,
    /// The real packed states of the level being stored (from `level_start`).
    next_real: Vec<u64>,
    /// The level being expanded: its first local number and real packed states.
    front_start: usize,
    front: Vec<u64>,
    pub transitions: u64,
    pub fired: Vec<bool>,
    /// Records of the round under way other than successors, taken in while expanding.
    held: Vec<Msg>,
    /// What this worker found in the round under way.
    pub finds: Finds,
    /// Every worker's findings so far (the same on every worker).
    pub global: Finds,
    pub init_count: usize,
    work: Work,
    scratch: Scratch,
    candidates: Vec<u32>,
    st: State,
    succ: Vec<u64>,
}

impl<'a> Part<'a> {
    pub fn new(ctx: Ctx<'a>, me: usize, peers: usize, prof: (&'a Prof<Phase>, usize)) -> Part<'a> {
        let inst = ctx.inst;
        let keyed = ctx.sym.is_some() || ctx.dead.is_some();
        let props = ctx.props.len();
        let trans = ctx.compiled.trans.len();
        Part {
            me,
            peers,
            prof: prof.0,
            slot: prof.1,
            words: inst.words,
            keyed,
            keys: Vec::new(),
            table: HashTable::new(),
            edges: Vec::new(),
            roots: Vec::new(),
            level_start: 0,
            next_real: Vec::new(),
            front_start: 0,
            front: Vec::new(),
            transitions: 0,
            fired: vec![false; trans],
            held: Vec::new(),
            finds: Finds::new(props),
            global: Finds::new(props),
            init_count: 0,
            work: Work::new(inst),
            scratch: Scratch::default(),
            candidates: Vec::new(),
            st: vec![0; inst.slots.len()],
            succ: vec![0; inst.words],
            ctx,
        }
    }

    pub fn stored(&self) -> usize {
        self.edges.len()
    }

    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.table.capacity() * 5
            + self.edges.capacity() * size_of::<Edge>()
            + (self.roots.capacity() + self.next_real.capacity() + self.front.capacity()) * 8
    }

    fn gid(&self, local: usize) -> u64 {
        (local * self.peers + self.me) as u64
    }

    fn key(&self, local: usize) -> &[u64] {
        &self.keys[local * self.words..(local + 1) * self.words]
    }

    /// Store a state unless its key is stored; a copy of a state of the level being
    /// stored replaces its representative when it is smaller (real state, then edge).
    fn offer(&mut self, real: &[u64], key: &[u64], e: Edge) {
        let w = self.words;
        let h = hash_words(key);
        let keys = &self.keys;
        let found = self
            .table
            .find(h, |&i| &keys[i as usize * w..(i as usize + 1) * w] == key);
        if let Some(&i) = found {
            let i = i as usize;
            if i >= self.level_start {
                let j = i - self.level_start;
                let old = &mut self.next_real[j * w..(j + 1) * w];
                if (real, e) < (&*old, self.edges[i]) {
                    old.copy_from_slice(real);
                    self.edges[i] = e;
                }
            }
            return;
        }
        let i = self.edges.len() as u32;
        self.keys.extend_from_slice(key);
        let keys = &self.keys;
        self.table.insert_unique(h, i, |&j| {
            hash_words(&keys[j as usize * w..(j as usize + 1) * w])
        });
        self.edges.push(e);
        self.next_real.extend_from_slice(real);
    }

    /// Store the initial states this worker owns (every worker enumerates them all);
    /// a range error met evaluating `init` is worker 0's find.
    pub fn initial_states(&mut self) {
        let inst = self.ctx.inst;
        let mut words = vec![0u64; inst.words];
        let mut mine: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        let mut count = 0usize;
        let res = for_each_initial(inst, &mut |st| {
            count += 1;
            inst.pack(st, &mut words);
            let (key, h, _) = self.ctx.hashes(st, &words, &mut self.work.keys);
            if peer_of(h, self.peers) == self.me {
                mine.push((words.clone(), key.to_vec()));
            }
            true
        });
        self.init_count = count;
        for (real, key) in mine {
            self.offer(
                &real,
                &key,
                Edge {
                    k: 0,
                    c: 0,
                    parent: NONE,
                },
            );
        }
        if let Err(e) = res
            && self.me == 0
        {
            keep(
                &mut self.finds.range,
                &Find {
                    depth: 0,
                    key: Vec::new(),
                    gid: NONE,
                    kind: FindKind::RangeInit { state: e.state },
                },
            );
        }
        self.roots = self.next_real.clone();
        self.close_level(0);
    }

    /// The level being stored is complete: check the properties on its states (at
    /// `depth`), and make it the next level to expand.
    fn close_level(&mut self, depth: u32) {
        let w = self.words;
        let inst = self.ctx.inst;
        for i in self.level_start..self.edges.len() {
            let j = i - self.level_start;
            inst.unpack(&self.next_real[j * w..(j + 1) * w], &mut self.st);
            let mut f = AtLevel {
                finds: &mut self.finds,
                global: &self.global,
                props: &self.ctx.props,
                key: &self.keys[i * w..(i + 1) * w],
                gid: (i * self.peers + self.me) as u64,
                depth,
            };
            eval_props(&self.ctx, &self.st, &mut f);
        }
        self.front_start = self.level_start;
        self.front = std::mem::take(&mut self.next_real);
        self.level_start = self.edges.len();
    }

    fn find_at(&self, local: usize, depth: u32, kind: FindKind) -> Find {
        Find {
            depth,
            key: self.key(local).to_vec(),
            gid: self.gid(local),
            kind,
        }
    }

    /// Expand this worker's states of level `depth`, sending each successor to its
    /// owner and taking in what arrives meanwhile.
    pub fn expand(&mut self, depth: u32, chan: &mut Chan, worker: &mut Worker) {
        let (prof, t) = (self.prof, self.slot);
        prof.time(t, Phase::Expand, || self.expand_level(depth, chan, worker));
    }

    fn expand_level(&mut self, depth: u32, chan: &mut Chan, worker: &mut Worker) {
        let (inst, compiled) = (self.ctx.inst, self.ctx.compiled);
        let w = self.words;
        let n = self.front.len() / w.max(1);
        let mut out: Vec<(Vec<u64>, Vec<Edge>)> =
            (0..self.peers).map(|_| (Vec::new(), Vec::new())).collect();
        let front = std::mem::take(&mut self.front);
        for j in 0..n {
            let cur = &front[j * w..(j + 1) * w];
            let local = self.front_start + j;
            let gid = self.gid(local);
            inst.unpack(cur, &mut self.st);
            compiled.candidates(&self.st, &mut self.candidates);
            let mut enabled = 0usize;
            let mut events = Vec::new();
            for ci in 0..self.candidates.len() {
                let k = self.candidates[ci];
                let Part {
                    ctx,
                    work,
                    scratch,
                    st,
                    succ,
                    peers,
                    keyed,
                    ..
                } = self;
                let peers = *peers;
                let outcome = compiled.fire(k as usize, st, scratch, &mut |c, next, writes| {
                    succ.copy_from_slice(cur);
                    for &(slot, v) in writes {
                        inst.patch(succ, slot, v);
                    }
                    let (key, h, _) = ctx.hashes(next, succ, &mut work.keys);
                    let to = peer_of(h, peers);
                    let (words, edges) = &mut out[to];
                    words.extend_from_slice(succ);
                    if *keyed {
                        words.extend_from_slice(key);
                    }
                    edges.push(Edge {
                        k,
                        c: c as u32,
                        parent: gid,
                    });
                });
                match outcome {
                    Outcome::Disabled => {}
                    Outcome::Enabled(c) => {
                        enabled += c;
                        self.fired[k as usize] |= c > 0;
                    }
                    Outcome::Fault => {
                        self.fired[k as usize] = true;
                        events.push(FindKind::RangeTrans { ctrans: k });
                    }
                    Outcome::IntBound => {
                        self.fired[k as usize] = true;
                        events.push(FindKind::IntBound { ctrans: k });
                    }
                }
            }
            if enabled == 0 && self.ctx.deadlock {
                events.push(FindKind::Deadlock);
            }
            for kind in events {
                let f = self.find_at(local, depth, kind);
                match f.kind {
                    FindKind::Deadlock => keep(&mut self.finds.deadlock, &f),
                    FindKind::IntBound { .. } => keep(&mut self.finds.int, &f),
                    _ => keep(&mut self.finds.range, &f),
                }
            }
            for (to, o) in out.iter_mut().enumerate() {
                if o.1.len() >= CHUNK {
                    let (words, edges) = std::mem::take(o);
                    self.transitions += edges.len() as u64;
                    chan.send(to, Msg::States { words, edges });
                }
            }
            if (j + 1) % STEP_EVERY == 0 {
                worker.step();
                let got = chan.take();
                // A faster worker's summary of this round may come meanwhile.
                let rest = self.absorb(got);
                self.held.extend(rest);
            }
        }
        for (to, (words, edges)) in out.into_iter().enumerate() {
            if !edges.is_empty() {
                self.transitions += edges.len() as u64;
                chan.send(to, Msg::States { words, edges });
            }
        }
    }

    /// Store the successors among `msgs`; the rest is returned.
    pub fn absorb(&mut self, msgs: Vec<Msg>) -> Vec<Msg> {
        let w = self.words;
        let stride = if self.keyed { 2 * w } else { w };
        let mut rest = Vec::new();
        for m in msgs {
            match m {
                Msg::States { words, edges } => {
                    for (i, e) in edges.into_iter().enumerate() {
                        let rec = &words[i * stride..(i + 1) * stride];
                        let (real, key) = if self.keyed {
                            rec.split_at(w)
                        } else {
                            (rec, rec)
                        };
                        self.offer(real, key, e);
                    }
                }
                other => rest.push(other),
            }
        }
        rest
    }

    /// Close the round of level `depth`: the summary sent, the next level stored and
    /// checked; every worker's summaries returned.
    pub fn finish_level(
        &mut self,
        depth: u32,
        limit: Option<Limit>,
        chan: &mut Chan,
        worker: &mut Worker,
    ) -> Vec<Summary> {
        let frontier = (self.level_start - self.front_start) as u64;
        let s = Summary {
            worker: self.me as u32,
            frontier,
            stored: self.stored() as u64,
            finds: std::mem::replace(&mut self.finds, Finds::new(self.ctx.props.len())),
            limit: limit.map(limit_code),
        };
        for to in 0..self.peers {
            chan.send(to, Msg::Summary(s.clone()));
        }
        let (prof, t) = (self.prof, self.slot);
        let mut got = std::mem::take(&mut self.held);
        got.extend(prof.waiting(t, || chan.finish(worker)));
        let mut sums = Vec::new();
        for m in prof.time(t, Phase::Store, || self.absorb(got)) {
            if let Msg::Summary(s) = m {
                sums.push(s);
            }
        }
        sums.sort_by_key(|s| s.worker);
        // Every worker decides from every summary, or the workers part ways.
        debug_assert_eq!(
            sums.len(),
            self.peers,
            "a summary of round {depth} is missing"
        );
        prof.time(t, Phase::Check, || self.close_level(depth + 1));
        sums
    }

    /// The limit this worker meets now, if any.
    pub fn limit(&self, opts: &ReachOptions) -> Option<Limit> {
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Timeout)
        } else if opts
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            Some(Limit::Interrupted)
        } else if opts
            .max_memory
            .is_some_and(|m| self.bytes() * self.peers > m)
        {
            Some(Limit::Memory)
        } else {
            None
        }
    }

    /// Walk the parent records of `finds` back to their roots, one hop a round
    /// (`hops` rounds: the deepest find's depth plus one); the first worker of each
    /// process (`leaders`) receives, per find, its root and the firings from it,
    /// first first, and every worker's totals.
    pub fn walk_back(
        &mut self,
        finds: &[(u32, u64)],
        hops: u32,
        leaders: &[usize],
        chan: &mut Chan,
        worker: &mut Worker,
    ) -> (Vec<Walked>, Vec<Totals>) {
        let w = self.words;
        // (find, the state's global id, the firings from it to the found state)
        let mut pending: Vec<(u32, u64, Steps)> = finds
            .iter()
            .filter(|&&(_, gid)| gid != NONE && (gid % self.peers as u64) as usize == self.me)
            .map(|&(f, gid)| (f, gid, Vec::new()))
            .collect();
        let totals = Totals {
            stored: self.stored() as u64,
            transitions: self.transitions,
            bytes: self.bytes() as u64,
            fired: self.fired.clone(),
        };
        for &l in leaders {
            chan.send(l, Msg::Totals(totals.clone()));
        }
        let (mut roots, mut all) = (Vec::new(), Vec::new());
        for _ in 0..hops.max(1) {
            for (find, gid, mut steps) in pending.drain(..) {
                let local = (gid / self.peers as u64) as usize;
                let e = self.edges[local];
                if e.parent == NONE {
                    steps.reverse();
                    let words = self.roots[local * w..(local + 1) * w].to_vec();
                    for &l in leaders {
                        let (words, steps) = (words.clone(), steps.clone());
                        chan.send(l, Msg::Root { find, words, steps });
                    }
                } else {
                    steps.push((e.k, e.c));
                    let to = (e.parent % self.peers as u64) as usize;
                    chan.send(
                        to,
                        Msg::Lookup {
                            find,
                            gid: e.parent,
                            steps,
                        },
                    );
                }
            }
            for m in chan.finish(worker) {
                match m {
                    Msg::Lookup { find, gid, steps } => pending.push((find, gid, steps)),
                    Msg::Root { find, words, steps } => roots.push((find, words, steps)),
                    Msg::Totals(t) => all.push(t),
                    _ => {}
                }
            }
        }
        (roots, all)
    }
}

/// Property checks on a new state of a level.
struct AtLevel<'p> {
    finds: &'p mut Finds,
    global: &'p Finds,
    props: &'p [usize],
    key: &'p [u64],
    gid: u64,
    depth: u32,
}

impl AtLevel<'_> {
    fn find(&self, kind: FindKind) -> Find {
        Find {
            depth: self.depth,
            key: self.key.to_vec(),
            gid: self.gid,
            kind,
        }
    }
}

impl Finder for AtLevel<'_> {
    fn unsafe_known(&self, k: usize) -> bool {
        self.global.unsafes[k].is_some()
    }

    fn range_known(&self) -> bool {
        self.global.range.is_some()
    }

    fn unsafe_hit(&mut self, k: usize, tuple: usize) {
        let prop = self.props[k] as u32;
        let f = self.find(FindKind::Unsafe {
            prop,
            tuple: tuple as u32,
        });
        keep(&mut self.finds.unsafes[k], &f);
    }

    fn range_hit(&mut self, prop: usize) {
        let f = self.find(FindKind::RangeProp { prop: prop as u32 });
        keep(&mut self.finds.range, &f);
    }
}
