//! The expansion of a block's states (`search`): each source fires every transition on
//! its share of the block, in BFS order, and hands each successor (its real packed
//! form, its key, where it came from, its rank) to a `Dest`: an outbox, for the owner
//! of the partition its hash selects (`outbox`, when a team runs the block), or
//! straight to the store of a thread alone (`search::Alone`, through the `Ahead`
//! ring), in the same order, so the same states are new and numbered alike. Also what
//! both share: the search's context, the property checks on a new state, the tally of
//! what firing met.

use super::ReachOptions;
use super::parts::StoreKind;
use crate::explicit::store::{copy_words, hash_words, sig_hash};
use crate::model::canon::{CanonBuf, Delta, DeltaBuf, Symmetry};
use crate::model::compiled::{Compiled, Fired, Outcome, Scratch};
use crate::model::dead::{Dead, DeadArray};
use crate::model::instance::{Instance, State};
use crate::model::ints::ranked::RankInst;
use crate::model::ir::Model;

/// What a search found: a violation, a deadlock, a range error or a store leaving the
/// int window.
#[derive(Clone, Debug)]
pub(in crate::explicit) enum Kind {
    Unsafe { prop: usize, tuple: usize },
    Deadlock,
    RangeTrans { ctrans: usize },
    RangeProp { prop: usize },
    RangeInit { state: State },
    IntBound { ctrans: usize },
}

#[derive(Clone, Debug)]
pub(super) struct Found {
    pub depth: usize,
    /// The number of the last state (none for an init error).
    pub node: usize,
    pub kind: Kind,
}

/// What every thread reads and no thread changes during a search.
pub(super) struct Ctx<'a> {
    pub inst: &'a Instance<'a>,
    pub compiled: &'a Compiled,
    pub sym: Option<Symmetry>,
    pub dead: Option<Dead>,
    pub kind: StoreKind,
    /// The `unsafe` properties checked (indices into `model.unsafes`).
    pub props: Vec<usize>,
    /// Deadlocks are looked for.
    pub deadlock: bool,
    /// Ints ranked (`model::ints::ranked`): every successor is renumbered before it is stored
    /// and expanded.
    pub rank: Option<RankInst>,
    /// Successors' keys from their parent's (`model::canon::delta`): under symmetry on
    /// its sorting path, without dead cells or ranks.
    pub delta: Option<Delta>,
}

impl<'a> Ctx<'a> {
    /// The context of a search of `inst`, compiled (an instance of `model`, or of its
    /// ints ranked by `rank`), under `opts`: process permutations for a fully symmetric
    /// family and permutations of the values of abstract types whose values are
    /// interchangeable, when symmetry is asked for; the dead cells of `dead_arrays`.
    pub fn new(
        model: &Model,
        (inst, compiled): (&'a Instance<'a>, &'a Compiled),
        opts: &ReachOptions,
        dead_arrays: &[DeadArray],
        rank: Option<RankInst>,
    ) -> Ctx<'a> {
        let sym = Symmetry::for_search(inst, opts.symmetry);
        let dead = Dead::for_instance(inst, dead_arrays);
        let delta = match (&sym, &dead, &rank) {
            (Some(s), None, None) => s.delta(inst),
            _ => None,
        };
        Ctx {
            inst,
            compiled,
            sym,
            dead,
            delta,
            kind: opts.store,
            props: opts.props_of(model),
            deadlock: opts.deadlock,
            rank,
        }
    }
}

impl Ctx<'_> {
    /// Whether states are stored under a key other than their packed form.
    fn keyed(&self) -> bool {
        self.sym.is_some() || self.dead.is_some()
    }

    /// Whether a message carries the key after the real state (an exact store with
    /// keys; the other stores need only the key's hashes).
    pub(super) fn sends_key(&self) -> bool {
        self.kind.exact() && self.keyed()
    }

    /// How a message lays out a successor (`Msgs`, `Ahead`).
    pub(super) fn layout(&self) -> Layout {
        Layout {
            words: self.inst.words,
            key: self.sends_key(),
            sig: !self.kind.exact(),
        }
    }

    /// The stored key of `st`: its dead cells normalized, then its canonical
    /// representative under symmetry.
    fn key_of(&self, st: &[i64], k: &mut KeyBufs) {
        let src: &[i64] = match &self.dead {
            Some(d) => {
                k.tmp.clear();
                k.tmp.extend_from_slice(st);
                d.normalize(&mut k.tmp);
                // Ranked again without the dead values: states whose live values are
                // in the same order then share their key (`model::ints::ranked`).
                if let Some(r) = &self.rank {
                    r.normalize(&mut k.tmp, &mut k.rank_buf);
                }
                &k.tmp
            }
            None => st,
        };
        match &self.sym {
            Some(sym) => {
                sym.canonical_into(src, &mut k.canon, &mut k.canon_buf);
                self.inst.pack(&k.canon, &mut k.key);
            }
            None => self.inst.pack(src, &mut k.key),
        }
    }

    /// The key of `st` (packed as `words`), its hash and its signature (0 for the exact
    /// store, which needs none).
    #[inline]
    pub fn hashes<'k>(
        &self,
        st: &[i64],
        words: &'k [u64],
        k: &'k mut KeyBufs,
    ) -> (&'k [u64], u64, u64) {
        let key: &[u64] = if self.keyed() {
            self.key_of(st, k);
            &k.key
        } else {
            words
        };
        let sig = if self.kind.exact() { 0 } else { sig_hash(key) };
        (key, hash_words(key), sig)
    }

    /// `hashes` of a successor `next` that differs from the parent last given to
    /// `parent_keys` in the cells of `writes`.
    #[inline]
    fn successor_hashes<'k>(
        &self,
        (next, writes): (&[i64], &[(usize, i64)]),
        words: &'k [u64],
        k: &'k mut KeyBufs,
    ) -> (&'k [u64], u64, u64) {
        if let (Some(d), Some(sym)) = (&self.delta, &self.sym)
            && sym.successor_key(d, (next, writes), &mut k.delta, &mut k.key)
        {
            let key: &[u64] = &k.key;
            let sig = if self.kind.exact() { 0 } else { sig_hash(key) };
            return (key, hash_words(key), sig);
        }
        self.hashes(next, words, k)
    }

    /// Remember the parent's sort keys, when successors' keys are computed from them.
    #[inline]
    fn parent_keys(&self, st: &[i64], k: &mut KeyBufs) {
        if let (Some(d), Some(sym)) = (&self.delta, &self.sym) {
            sym.parent_keys(d, st, self.inst.words, &mut k.delta);
        }
    }
}

/// Buffers for computing keys.
pub(super) struct KeyBufs {
    key: Vec<u64>,
    canon: State,
    canon_buf: CanonBuf,
    tmp: State,
    rank_buf: Vec<i64>,
    delta: DeltaBuf,
}

/// One thread's buffers, reused from state to state.
pub(super) struct Work {
    scratch: Scratch,
    candidates: Vec<u32>,
    st: State,
    words: Vec<u64>,
    pub keys: KeyBufs,
    /// The ranked successor, the successor, and the ranks' buffer.
    ranked: State,
    next: State,
    rank_buf: Vec<i64>,
}

impl Work {
    pub fn new(inst: &Instance) -> Work {
        Work {
            scratch: Scratch::default(),
            candidates: Vec::new(),
            st: vec![0; inst.slots.len()],
            words: vec![0; inst.words],
            keys: KeyBufs {
                key: vec![0; inst.words],
                canon: vec![0; inst.slots.len()],
                canon_buf: CanonBuf::default(),
                tmp: Vec::new(),
                rank_buf: Vec::new(),
                delta: DeltaBuf::default(),
            },
            ranked: vec![0; inst.slots.len()],
            next: vec![0; inst.slots.len()],
            rank_buf: Vec::new(),
        }
    }
}

/// A successor on its way to its partition.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meta {
    /// `hash_words` of the key.
    pub hash: u64,
    pub parent: u32,
    pub k: u32,
    pub c: u32,
    /// Its number among the successors generated by its source this block.
    pub seq: u32,
}

/// The state being expanded, the transition instance fired and the choice.
pub(super) struct From {
    pub node: usize,
    pub k: u32,
    pub c: u32,
}

/// Where the successors of a source go, in the order generated: an outbox (sent to the
/// owners of their partitions), or straight into the store (`search::Alone`).
pub(super) trait Dest {
    /// Before the source's share of `blk` is expanded.
    fn begin(&mut self, blk: &Block);
    /// The successor `from` gave, packed as `words`, with its key, the key's hash and
    /// its signature (`Ctx::hashes`).
    fn send(&mut self, ctx: &Ctx, from: &From, words: &[u64], hashed: (&[u64], u64, u64));
    /// What the expansion met besides successors.
    fn tally(&mut self) -> &mut Tally;
    /// Once the source's share is expanded.
    fn end(&mut self, ctx: &Ctx);
}

/// What a source met expanding its states, besides successors.
pub(super) struct Tally {
    /// Per compiled transition instance: fired (or met a range error).
    pub fired: Vec<bool>,
    pub transitions: u64,
    /// The first range error, store leaving the int window and deadlock met, in BFS
    /// order.
    pub range: Option<Found>,
    pub int: Option<Found>,
    pub deadlock: Option<Found>,
    /// An increment that ranking cannot follow exactly (`model::ints::ranked`).
    pub rank: Option<String>,
}

/// The successors sent to one owner: metadata, and per successor `Ctx::stride` words
/// (the real packed state, then the key or the signature).
#[derive(Default)]
pub(super) struct Msgs {
    pub meta: Vec<Meta>,
    pub words: Vec<u64>,
}

impl Msgs {
    /// The words of the i-th message, `stride` words each.
    #[inline]
    pub fn msg(&self, i: usize, stride: usize) -> &[u64] {
        &self.words[i * stride..(i + 1) * stride]
    }
}

/// A message: the successor's real packed state (`words` words), then its key
/// (`key`: an exact store with keys) or its signature (`sig`: the stores other than
/// exact; they need only the key's hashes).
#[derive(Clone, Copy)]
pub(super) struct Layout {
    words: usize,
    key: bool,
    sig: bool,
}

impl Layout {
    /// Words per message.
    pub fn stride(self) -> usize {
        self.words
            + if self.key {
                self.words
            } else {
                self.sig as usize
            }
    }

    /// The parts of message `m`: the real packed state, the key (the real state when
    /// none is sent) and the signature (0 for the exact store).
    #[inline]
    pub fn read(self, m: &[u64]) -> (&[u64], &[u64], u64) {
        let real = &m[..self.words];
        let key = if self.key { &m[self.words..] } else { real };
        let sig = if self.sig { m[self.words] } else { 0 };
        (real, key, sig)
    }
}

/// Successors on their way to the store of a thread alone (`search::Alone`): a ring of
/// `AHEAD` messages laid out as in `Msgs`, each one's table entry fetched as it comes
/// in and inserted `AHEAD` successors later, once the entry has arrived (inserting at
/// once waits for it: fewer instructions, more time).
pub(super) struct Ahead {
    meta: Vec<Meta>,
    words: Vec<u64>,
    layout: Layout,
    /// `layout.stride()`, kept: computed per successor it cost 1.3 % more
    /// instructions (Peterson n = 5, one thread).
    stride: usize,
    /// Successors put in and taken out so far.
    put: usize,
    taken: usize,
}

/// The successors in an `Ahead` ring at most (a power of two).
const AHEAD: usize = 32;

impl Ahead {
    pub fn new(ctx: &Ctx) -> Ahead {
        let layout = ctx.layout();
        let stride = layout.stride();
        let meta = Meta {
            hash: 0,
            parent: 0,
            k: 0,
            c: 0,
            seq: 0,
        };
        Ahead {
            meta: vec![meta; AHEAD],
            words: vec![0; AHEAD * stride],
            layout,
            stride,
            put: 0,
            taken: 0,
        }
    }

    pub fn full(&self) -> bool {
        self.put - self.taken == AHEAD
    }

    /// Put in choice `from.c` of `from`'s firing, packed as `words`, with its key, its
    /// hash and its signature; the ring must not be full.
    #[inline]
    pub fn put(&mut self, from: &From, words: &[u64], (key, hash, sig): (&[u64], u64, u64)) {
        let i = self.put % AHEAD;
        self.put += 1;
        self.meta[i] = Meta {
            hash,
            parent: from.node as u32,
            k: from.k,
            c: from.c,
            seq: 0,
        };
        let w = words.len();
        let m = &mut self.words[i * self.stride..(i + 1) * self.stride];
        copy_words(&mut m[..w], words);
        if self.layout.key {
            copy_words(&mut m[w..], key);
        } else if self.layout.sig {
            m[w] = sig;
        }
    }

    /// Take out the oldest successor: where it came from, its real packed form, its
    /// key and its signature.
    #[inline]
    pub fn take(&mut self) -> Option<(Meta, &[u64], &[u64], u64)> {
        if self.taken == self.put {
            return None;
        }
        let i = self.taken % AHEAD;
        self.taken += 1;
        let (real, key, sig) = self
            .layout
            .read(&self.words[i * self.stride..(i + 1) * self.stride]);
        Some((self.meta[i], real, key, sig))
    }
}

impl Tally {
    pub fn new(trans: usize) -> Tally {
        Tally {
            fired: vec![false; trans],
            transitions: 0,
            range: None,
            int: None,
            deadlock: None,
            rank: None,
        }
    }

    pub fn clear(&mut self) {
        self.fired.iter_mut().for_each(|f| *f = false);
        self.transitions = 0;
        self.range = None;
        self.int = None;
        self.deadlock = None;
        self.rank = None;
    }

    /// Record what firing compiled transition `k` from state `node` (at `depth`) gave;
    /// returns the number of successors it had.
    #[inline]
    pub fn outcome(&mut self, out_k: Outcome, k: usize, depth: usize, node: usize) -> usize {
        let found = |kind| Some(Found { depth, node, kind });
        match out_k {
            Outcome::Disabled => 0,
            Outcome::Enabled(c) => {
                self.fired[k] |= c > 0;
                c
            }
            Outcome::Fault => {
                // Not reported as dead: the range error is reported instead.
                self.fired[k] = true;
                if self.range.is_none() {
                    self.range = found(Kind::RangeTrans { ctrans: k });
                }
                0
            }
            Outcome::IntBound => {
                // Not reported as dead: leaving the window is reported instead.
                self.fired[k] = true;
                if self.int.is_none() {
                    self.int = found(Kind::IntBound { ctrans: k });
                }
                0
            }
        }
    }

    /// A deadlock at state `node` (at `depth`) when none of its instances was enabled,
    /// if deadlocks are looked for and none is known.
    #[inline]
    pub fn deadlock_at(&mut self, ctx: &Ctx, enabled: usize, depth: usize, node: usize) {
        if enabled == 0 && ctx.deadlock && self.deadlock.is_none() {
            self.deadlock = Some(Found {
                depth,
                node,
                kind: Kind::Deadlock,
            });
        }
    }
}

/// The states of a block, as every thread sees them.
#[derive(Default)]
pub(super) struct Block {
    /// The number of the first state.
    pub base: usize,
    /// Their BFS depth.
    pub depth: usize,
    /// Their real packed forms.
    pub words: Vec<u64>,
    /// Source t expands states `cuts[t]..cuts[t + 1]` of the block.
    pub cuts: Vec<usize>,
    /// Per property: a violation is known from earlier blocks.
    pub unsafe_known: Vec<bool>,
    /// A range error is known from earlier blocks.
    pub range_known: bool,
}

impl Block {
    /// The number of sources (threads expanding it).
    pub fn sources(&self) -> usize {
        self.cuts.len().saturating_sub(1)
    }
}

/// Expand the block's states of source `t` into `out`. An outbox's table entries are
/// not fetched here: a block's successors are too many for the cache to keep them
/// until their insert, and fetching them twice costs more than it saves (the insert
/// fetches each entry a few successors ahead instead, as a thread alone does, `Ahead`).
pub(super) fn expand(ctx: &Ctx, blk: &Block, t: usize, out: &mut impl Dest, work: &mut Work) {
    out.begin(blk);
    let w = ctx.inst.words;
    let direct = ctx.rank.is_none() && !ctx.keyed();
    for j in blk.cuts[t]..blk.cuts[t + 1] {
        let cur = &blk.words[j * w..(j + 1) * w];
        let node = blk.base + j;
        ctx.inst.unpack(cur, &mut work.st);
        let enabled = if direct {
            expand_direct(ctx, (cur, node), blk.depth, out, work)
        } else {
            expand_keyed(ctx, (cur, node), blk.depth, out, work)
        };
        out.tally().deadlock_at(ctx, enabled, blk.depth, node);
    }
    out.end(ctx);
}

/// Fire every transition on state `node` (packed as `cur`, unpacked in `work.st`) when
/// states are stored as they are: the writes patched into a copy of the packed state
/// are the whole successor. Returns the number of successors.
#[inline]
fn expand_direct(
    ctx: &Ctx,
    (cur, node): (&[u64], usize),
    depth: usize,
    out: &mut impl Dest,
    work: &mut Work,
) -> usize {
    let inst = ctx.inst;
    let Work {
        scratch,
        candidates,
        st,
        words,
        ..
    } = work;
    let mut enabled = 0usize;
    ctx.compiled
        .fire_candidates(st, scratch, candidates, &mut |k, fired| match fired {
            Fired::Successor(c, writes) => {
                copy_words(words, cur);
                for &(slot, v) in writes {
                    inst.patch(words, slot, v);
                }
                let sig = if ctx.kind.exact() { 0 } else { sig_hash(words) };
                let hashed = (&words[..], hash_words(words), sig);
                let from = From {
                    node,
                    k,
                    c: c as u32,
                };
                out.send(ctx, &from, words, hashed);
            }
            Fired::Done(out_k) => {
                enabled += out.tally().outcome(out_k, k as usize, depth, node);
            }
        });
    enabled
}

/// `expand_direct` when states are stored under a key (symmetry, dead cells) or
/// renumbered (ranks): each successor made in `work.next` from the writes, which are
/// undone after it.
fn expand_keyed(
    ctx: &Ctx,
    (cur, node): (&[u64], usize),
    depth: usize,
    out: &mut impl Dest,
    work: &mut Work,
) -> usize {
    let (inst, compiled) = (ctx.inst, ctx.compiled);
    let Work {
        scratch,
        candidates,
        st,
        words,
        keys,
        ranked,
        next,
        rank_buf,
    } = work;
    let mut enabled = 0usize;
    next.copy_from_slice(st);
    ctx.parent_keys(st, keys);
    compiled.fire_candidates(st, scratch, candidates, &mut |k, fired| {
        let (c, writes) = match fired {
            Fired::Successor(c, writes) => (c, writes),
            Fired::Done(out_k) => {
                enabled += out.tally().outcome(out_k, k as usize, depth, node);
                return;
            }
        };
        for &(slot, v) in writes {
            next[slot] = v;
        }
        let succ: &[i64] = match &ctx.rank {
            Some(r) => {
                let ct = &compiled.trans[k as usize];
                let tally = out.tally();
                if c == 0
                    && r.checks(ct.trans)
                    && tally.rank.is_none()
                    && let Err(e) = r.check(inst, st, ct.trans, &ct.params)
                {
                    tally.rank = Some(e);
                }
                ranked.copy_from_slice(next);
                r.normalize(ranked, rank_buf);
                inst.pack(ranked, words);
                ranked
            }
            None => {
                words.copy_from_slice(cur);
                for &(slot, v) in writes {
                    inst.patch(words, slot, v);
                }
                next
            }
        };
        let hashed = ctx.successor_hashes((succ, writes), words, keys);
        let from = From {
            node,
            k,
            c: c as u32,
        };
        out.send(ctx, &from, words, hashed);
        for &(slot, _) in writes {
            next[slot] = st[slot];
        }
    });
    enabled
}

/// Where property checks put what they meet, and what they already know.
pub(super) trait Finder {
    /// A violation of property k (index into `Ctx::props`) is known.
    fn unsafe_known(&self, k: usize) -> bool;
    /// A range error is known.
    fn range_known(&self) -> bool;
    fn unsafe_hit(&mut self, k: usize, tuple: usize);
    fn range_hit(&mut self, prop: usize);
}

/// Check the properties on a new state. A violated property is still evaluated while
/// no range error is known: evaluating it may meet one in another state.
pub(super) fn eval_props(ctx: &Ctx, st: &[i64], f: &mut impl Finder) {
    for (k, &u) in ctx.props.iter().enumerate() {
        if f.unsafe_known(k) && f.range_known() {
            continue;
        }
        match ctx.compiled.check_prop(u, st) {
            Ok(None) => {}
            Ok(Some(_)) if f.unsafe_known(k) => {}
            Ok(Some(t)) => f.unsafe_hit(k, t),
            Err(_) => f.range_hit(u),
        }
    }
}
