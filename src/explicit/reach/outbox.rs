//! The messages of a block run by a team (`search`): each source's outbox of
//! successors, sorted by the owner of their partition; the insert phase, where each
//! owner stores what was sent to it, source by source, so in rank order, and checks
//! the properties on the new states; and the numbering of each source's new states in
//! the order it generated them, which is the sequential search's order. A thread alone
//! needs none of this (`search::Alone`).

use super::expand::{Block, Ctx, Dest, Finder, From, Meta, Msgs, Tally, eval_props};
use super::parts::{NewState, Part, PartFind};
use crate::explicit::par::parts::{PARTS, owner_of, part_of, place_of};
use crate::model::instance::State;
use std::sync::atomic::{AtomicU64, Ordering};

/// What one source (thread) produced this block.
pub(super) struct Outbox {
    /// Per owner of the insert phase: the successors for its partitions.
    to: Vec<Msgs>,
    /// Successors generated this block.
    pub total: usize,
    /// Per successor (by `seq`): 0, or `(partition + 1) << 32 | i` once the partition
    /// stored it as its i-th new state this block (written by the owners); then, once
    /// numbered (`number`), its number among the source's new states of the block.
    /// Cleared when the source expands its next block.
    pub new_at: Vec<AtomicU64>,
    /// The source's new states of the block, numbered by a helping thread, for the
    /// leader to append to its records.
    pub fresh: Fresh,
    pub tally: Tally,
    /// The owner of each partition this block (no division per successor).
    owner: [usize; PARTS],
}

impl Outbox {
    /// An empty outbox for `owners` owners at most.
    pub fn new(owners: usize, trans: usize) -> Outbox {
        Outbox {
            to: (0..owners).map(|_| Msgs::default()).collect(),
            total: 0,
            new_at: Vec::new(),
            fresh: Fresh::default(),
            tally: Tally::new(trans),
            owner: [0; PARTS],
        }
    }

    /// Bytes held by its buffers.
    pub fn memory_bytes(&self) -> usize {
        self.to
            .iter()
            .map(|m| m.meta.capacity() * size_of::<Meta>() + m.words.capacity() * 8)
            .sum::<usize>()
            + self.new_at.capacity() * 8
            + self.fresh.memory_bytes()
    }
}

impl Dest for Outbox {
    /// Clear what the previous block left, and share the partitions out among the
    /// block's sources.
    fn begin(&mut self, blk: &Block) {
        for x in &mut self.new_at[..self.total] {
            *x.get_mut() = 0;
        }
        for m in &mut self.to {
            m.meta.clear();
            m.words.clear();
        }
        self.total = 0;
        self.tally.clear();
        let owners = blk.sources();
        self.owner = std::array::from_fn(|p| owner_of(p, owners));
    }

    /// Send the successor to the owner of its partition.
    #[inline]
    fn send(
        &mut self,
        ctx: &Ctx,
        from: &From,
        words: &[u64],
        (key, hash, sig): (&[u64], u64, u64),
    ) {
        let m = &mut self.to[self.owner[part_of(hash)]];
        m.meta.push(Meta {
            hash,
            parent: from.node as u32,
            k: from.k,
            c: from.c,
            seq: self.total as u32,
        });
        // Word by word: for a few words a `memcpy` call costs more.
        for &x in words {
            m.words.push(x);
        }
        if ctx.sends_key() {
            for &x in key {
                m.words.push(x);
            }
        } else if !ctx.kind.exact() {
            m.words.push(sig);
        }
        self.total += 1;
    }

    fn tally(&mut self) -> &mut Tally {
        &mut self.tally
    }

    /// Count the block's transitions, and make a slot in `new_at` for every successor.
    fn end(&mut self, _: &Ctx) {
        self.tally.transitions = self.total as u64;
        if self.new_at.len() < self.total {
            self.new_at.resize_with(self.total, || AtomicU64::new(0));
        }
    }
}

/// How far ahead of an insert its table entry is fetched.
const PREFETCH: usize = 32;

/// Insert what the sources sent to owner `t` of `owners` (the partitions `p` with
/// `p % owners == t`, given in that order in `parts`), in rank order, and check the
/// properties on each new state.
pub(super) fn insert(
    ctx: &Ctx,
    blk: &Block,
    t: usize,
    owners: usize,
    parts: &mut [&mut Part],
    outs: &[&Outbox],
) {
    for part in parts.iter_mut() {
        part.begin_block();
    }
    let layout = ctx.layout();
    let stride = layout.stride();
    let mut st: State = vec![0; ctx.inst.slots.len()];
    // The position in `parts` of each partition of this owner.
    let slot: [usize; PARTS] = std::array::from_fn(|p| place_of(p, owners));
    for (s, o) in outs.iter().enumerate() {
        let m = &o.to[t];
        let n = m.meta.len();
        for i in 0..n {
            if i + PREFETCH < n {
                let a = &m.meta[i + PREFETCH];
                parts[slot[part_of(a.hash)]]
                    .store
                    .prefetch(a.hash, layout.read(m.msg(i + PREFETCH, stride)).2);
            }
            let q = &m.meta[i];
            let p = part_of(q.hash);
            let part = &mut *parts[slot[p]];
            let (real, key, sig) = layout.read(m.msg(i, stride));
            if !part.store.insert(key, q.hash, sig) {
                continue;
            }
            let ni = part.new.len();
            part.new.push(NewState {
                parent: q.parent,
                k: q.k,
                c: q.c,
            });
            for &x in real {
                part.new_words.push(x);
            }
            o.new_at[q.seq as usize].store(((p as u64 + 1) << 32) | ni as u64, Ordering::Relaxed);
            ctx.inst.unpack(real, &mut st);
            let at = (s, q.seq as usize);
            eval_props(
                ctx,
                &st,
                &mut InPart {
                    part,
                    blk,
                    i: ni,
                    at,
                },
            );
        }
    }
}

/// The findings of a partition for its i-th new state this block.
struct InPart<'b> {
    part: &'b mut Part,
    blk: &'b Block,
    i: usize,
    /// Its source and its number among the source's successors.
    at: (usize, usize),
}

impl Finder for InPart<'_> {
    fn unsafe_known(&self, k: usize) -> bool {
        self.blk.unsafe_known[k] || self.part.unsafe_first[k].is_some()
    }

    fn range_known(&self) -> bool {
        self.blk.range_known || self.part.range_first
    }

    fn unsafe_hit(&mut self, k: usize, tuple: usize) {
        self.part.unsafe_first[k] = Some(self.i);
        self.part.finds.push(PartFind::Unsafe {
            k,
            at: self.at,
            tuple,
        });
    }

    fn range_hit(&mut self, prop: usize) {
        if !self.part.range_first {
            self.part.range_first = true;
            self.part.finds.push(PartFind::Range { at: self.at, prop });
        }
    }
}

/// Where the new states of a block go when numbered: the leader's records, or a
/// helping thread's `Fresh`.
pub(super) trait Sink {
    /// Record a new state (`words` its real packed form) and return its number among
    /// the new states this sink took in this block.
    fn push(&mut self, parent: u32, k: u32, c: u32, words: &[u64]) -> usize;
}

/// Choice indices from this value on are kept aside (`Fresh::big`, the records'
/// `big_choice`): the `via` of a state keeps 8 bits of its choice.
pub(super) const BIG_CHOICE: u32 = 255;

/// New states numbered by a helping thread: the records the leader appends.
#[derive(Default)]
pub(super) struct Fresh {
    pub parent: Vec<u32>,
    /// `k << 8 | min(c, BIG_CHOICE)`, as the records keep it.
    pub via: Vec<u32>,
    /// The choices from `BIG_CHOICE` on, by number in this block.
    pub big: Vec<(u32, u32)>,
    pub words: Vec<u64>,
}

impl Fresh {
    fn memory_bytes(&self) -> usize {
        self.parent.capacity() * 4
            + self.via.capacity() * 4
            + self.big.capacity() * 8
            + self.words.capacity() * 8
    }

    pub fn clear(&mut self) {
        self.parent.clear();
        self.via.clear();
        self.big.clear();
        self.words.clear();
    }
}

impl Sink for Fresh {
    #[inline]
    fn push(&mut self, parent: u32, k: u32, c: u32, words: &[u64]) -> usize {
        let j = self.parent.len();
        self.parent.push(parent);
        if c >= BIG_CHOICE {
            self.big.push((j as u32, c));
        }
        self.via.push((k << 8) | c.min(BIG_CHOICE));
        self.words.extend_from_slice(words);
        j
    }
}

/// Number the new states among the successors of source `out` in the order it
/// generated them (so the sources in order number them in the sequential order), into
/// `sink`; leave in `new_at` each one's number in the sink.
pub(super) fn number(out: &Outbox, parts: &[&Part], words: usize, sink: &mut impl Sink) {
    let w = words;
    for at in &out.new_at[..out.total] {
        let v = at.load(Ordering::Relaxed);
        if v == 0 {
            continue;
        }
        let (p, i) = ((v >> 32) as usize - 1, (v & 0xFFFF_FFFF) as usize);
        let part = parts[p];
        let ns = part.new[i];
        let j = sink.push(ns.parent, ns.k, ns.c, &part.new_words[i * w..(i + 1) * w]);
        at.store(j as u64, Ordering::Relaxed);
    }
}
