//! The one account of a run of `auto` (`portfolio::walk`): the (property, size) pairs
//! still open, each with the depth up to which a bounded search found no violation;
//! the rows that answered the others, handed on in the table's order as soon as the
//! rows before them are (a size's rows as each is kept, the next size's once this one
//! has no open pair left); and what the run gathers on its way (notes, checked
//! certificates, the user's limit, the growth of the explicit searches). Every phase
//! of the route reads the open pairs from here and writes its answers here, so that no
//! pair is ever answered twice or dropped: `close` gives every pair still open its
//! `unknown` row.
//!
//! The account itself (`Book`) holds no callback, so that the aggregate phases can keep
//! one of their own on a thread of their own (`Book::detached`), its entries logged and
//! replayed into the run's ledger when they end (`Ledger::replay`), while the run's
//! thread hands the search beside them on size by size as it answers.

use super::growth::Growth;
use crate::cert::Certificate;
use crate::engine::Problem;
use crate::verdict::{Kind, Limit, PropId, PropResult, SizeReport, Verdict};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// One open pair's property, with the depth a bounded search reached without a
/// violation of it (`None`: none ran).
pub(super) type Pair = (PropId, Option<usize>);

/// Whether a verdict answers its (property, size).
pub(super) fn answers(v: &Verdict) -> bool {
    matches!(v.kind(), Kind::Holds | Kind::Violated | Kind::Vacuous)
}

/// An open pair's depth, raised to the one a bounded verdict `v` reached.
fn deepen(pair: &mut Pair, v: &Verdict) {
    if let Kind::NoViolationUpTo(d) = v.kind() {
        pair.1 = pair.1.max(Some(d));
    }
}

/// One entry of a detached book, replayed into the run's ledger.
pub(super) enum Entry {
    Answer(SizeReport),
    Bound(SizeReport),
    Settle(SizeReport),
}

/// The account of one run of the route, its reports handed on through `report`.
pub(super) struct Ledger<'r> {
    book: Book,
    report: &'r mut dyn FnMut(SizeReport),
}

impl Deref for Ledger<'_> {
    type Target = Book;
    fn deref(&self) -> &Book {
        &self.book
    }
}

impl DerefMut for Ledger<'_> {
    fn deref_mut(&mut self) -> &mut Book {
        &mut self.book
    }
}

impl<'r> Ledger<'r> {
    /// Every property `props` open at every size of `p` (`Book::new`).
    pub fn new(p: &Problem, props: &[PropId], report: &'r mut dyn FnMut(SizeReport)) -> Self {
        Ledger {
            book: Book::new(p, props),
            report,
        }
    }

    /// Hands on the reports the book let go.
    fn drain(&mut self) {
        for r in std::mem::take(&mut self.book.out) {
            (self.report)(r);
        }
    }

    /// `Book::answer`, its reports handed on at once.
    pub fn answer(&mut self, r: SizeReport) {
        self.book.answer(r);
        self.drain();
    }

    /// `Book::take_search`, its reports handed on at once.
    pub fn take_search(&mut self, r: SizeReport) {
        self.book.take_search(r);
        self.drain();
    }

    /// `Book::settle`, its reports handed on at once.
    pub fn settle(&mut self, r: SizeReport) {
        self.book.settle(r);
        self.drain();
    }

    /// The entries of a detached book (`Book::detached`) applied here in their order,
    /// with its notes and certificates.
    pub fn replay(&mut self, b: Book) {
        for e in b.log.unwrap_or_default() {
            match e {
                Entry::Answer(r) => self.book.answer(r),
                Entry::Bound(r) => self.book.bound(&r),
                Entry::Settle(r) => self.book.settle(r),
            }
        }
        self.book.notes.extend(b.notes);
        self.book.certificates.extend(b.certificates);
        self.drain();
    }

    /// `Book::close`, its reports handed on.
    pub fn close(mut self, p: &Problem) -> Closed {
        let closed = self.book.close(p);
        self.drain();
        closed
    }
}

/// The account itself: the open pairs, the rows held until their size is whole, and
/// what the run gathers.
pub(super) struct Book {
    /// Per size of the run, the properties still open there.
    open: BTreeMap<usize, Vec<Pair>>,
    /// Answered rows not handed on yet, per size.
    held: BTreeMap<usize, Vec<SizeReport>>,
    /// The sizes some phase ran on.
    touched: BTreeSet<usize>,
    /// Every size of the run, in order; `next` indexes the first not handed on.
    sizes: Vec<usize>,
    next: usize,
    /// Reports let go, in order, for the ledger to hand on.
    out: Vec<SizeReport>,
    /// A detached book's entries, in order (`None`: not detached).
    log: Option<Vec<Entry>>,
    pub notes: Vec<String>,
    pub certificates: Vec<Arc<Certificate>>,
    /// The user's limit, once one stopped a phase: no phase starts after it.
    pub limit: Option<Limit>,
    pub growth: Growth,
    /// Some kept row says a property is violated.
    violated: bool,
    /// The rows no pair stands for (range errors) kept so far, by size.
    extra: HashSet<(usize, PropId)>,
    /// The sizes where some phase met a range error (or a store leaving the int
    /// window), kept as a row or not.
    ranged: BTreeSet<usize>,
}

impl Book {
    /// Every property `props` open at every size of `p`; with none, the range errors
    /// (`PropId::Range`) stand for the size.
    pub fn new(p: &Problem, props: &[PropId]) -> Self {
        let props = if props.is_empty() {
            &[PropId::Range][..]
        } else {
            props
        };
        let sizes = p.sizes();
        let open = sizes
            .iter()
            .map(|&n| (n, props.iter().map(|&k| (k, None)).collect()))
            .collect();
        Book {
            open,
            held: BTreeMap::new(),
            touched: BTreeSet::new(),
            sizes,
            next: 0,
            out: Vec::new(),
            log: None,
            extra: HashSet::new(),
            ranged: BTreeSet::new(),
            notes: Vec::new(),
            certificates: Vec::new(),
            limit: None,
            growth: Growth::default(),
            violated: false,
        }
    }

    /// A book of the pairs open here, for phases run apart (on a thread of their own):
    /// what they enter is logged, for `Ledger::replay`; it hands nothing on.
    pub fn detached(&self) -> Book {
        Book {
            open: self.open.clone(),
            held: BTreeMap::new(),
            touched: BTreeSet::new(),
            sizes: self.sizes.clone(),
            next: self.next,
            out: Vec::new(),
            log: Some(Vec::new()),
            extra: self.extra.clone(),
            ranged: self.ranged.clone(),
            notes: Vec::new(),
            certificates: Vec::new(),
            limit: self.limit,
            growth: self.growth.clone(),
            violated: self.violated,
        }
    }

    fn enter(&mut self, e: impl FnOnce() -> Entry) {
        if let Some(log) = &mut self.log {
            log.push(e());
        }
    }

    /// Notes the range errors (and stores leaving the int window) report `r` met.
    pub fn meets(&mut self, r: &SizeReport) {
        let ranged = |x: &PropResult| {
            matches!(x.prop, PropId::Range | PropId::IntBound) && x.verdict.trace().is_some()
        };
        if r.results.iter().any(ranged) {
            self.ranged.insert(r.size);
        }
    }

    /// Whether some phase met a range error at size `n` (`meets`).
    pub fn ranged(&self, n: usize) -> bool {
        self.ranged.contains(&n)
    }

    /// The sizes with an open pair, in order.
    pub fn open_sizes(&self) -> Vec<usize> {
        self.open.keys().copied().collect()
    }

    /// The sizes where `k` is open, in order.
    pub fn open_sizes_of(&self, k: PropId) -> Vec<usize> {
        let at = |v: &Vec<Pair>| v.iter().any(|x| x.0 == k);
        self.open
            .iter()
            .filter(|(_, v)| at(v))
            .map(|(&n, _)| n)
            .collect()
    }

    /// The open pairs of size `n`.
    pub fn open_at(&self, n: usize) -> &[Pair] {
        self.open.get(&n).map_or(&[], |v| v.as_slice())
    }

    /// The problem `p` over the sizes still open, from the smallest to the largest.
    pub fn open_range<'m>(&self, p: &Problem<'m>) -> Problem<'m> {
        let open = self.open_sizes();
        Problem {
            min: open.first().copied().unwrap_or(p.min),
            max: open.last().copied().unwrap_or(p.max),
            ..p.clone()
        }
    }

    /// Whether every pair is answered.
    pub fn done(&self) -> bool {
        self.open.is_empty()
    }

    /// Whether an answered row says a property is violated.
    pub fn any_violated(&self) -> bool {
        self.violated
    }

    /// A phase's report of one size: its rows that answer an open pair close that pair
    /// and are kept, with the rows no pair stands for (range errors); a bounded search's
    /// depth is noted on the pairs it leaves open. The report is dropped when it keeps no
    /// row and no internal error.
    pub fn answer(&mut self, mut r: SizeReport) {
        self.enter(|| Entry::Answer(r.clone()));
        self.meets(&r);
        let n = r.size;
        self.touched.insert(n);
        let Some(open) = self.open.get_mut(&n) else {
            return;
        };
        // A report answering every row it has closes a size that only its range
        // errors stand for.
        let whole = r.results.iter().all(|x| answers(&x.verdict))
            && !r.results.iter().any(|x| x.prop == PropId::Range);
        if whole && open.as_slice() == [(PropId::Range, None)] {
            open.clear();
        }
        r.results.retain(|x| {
            let Some(i) = open.iter().position(|o| o.0 == x.prop) else {
                return !matches!(x.prop, PropId::Unsafe(_) | PropId::Ltl(_));
            };
            if answers(&x.verdict) {
                open.remove(i);
                return true;
            }
            deepen(&mut open[i], &x.verdict);
            false
        });
        if open.is_empty() {
            self.open.remove(&n);
        }
        if !r.results.is_empty() || !r.internal_errors.is_empty() {
            self.hold(r);
        }
        self.flush();
    }

    /// A report of an explicit search (`AutoEngine::explicit` hands on those that
    /// answer, those stopped at a range error, and those the user's limit stopped):
    /// answered (pairs it leaves open stay open), or, stopped by a limit, kept as it
    /// stands.
    pub fn take_search(&mut self, r: SizeReport) {
        // Rows `unknown` (a search stopped at a range error) leave their pairs open; any
        // other row short of an answer (`incomplete`: stopped where a run leaves the int
        // window) is the size's final word, as a limit's report is.
        let final_or_open =
            |x: &PropResult| answers(&x.verdict) || x.verdict.kind() == Kind::Unknown;
        if r.limit.is_none() && r.results.iter().all(final_or_open) {
            self.answer(r)
        } else {
            self.settle(r)
        }
    }

    /// The depths a bounded search reached without a violation, from a report whose
    /// answers are left to a later phase: noted on the open pairs, nothing closed.
    pub fn bound(&mut self, r: &SizeReport) {
        self.enter(|| Entry::Bound(r.clone()));
        self.touched.insert(r.size);
        let Some(open) = self.open.get_mut(&r.size) else {
            return;
        };
        for x in &r.results {
            if let Some(o) = open.iter_mut().find(|o| o.0 == x.prop) {
                deepen(o, &x.verdict);
            }
        }
    }

    /// Size `n`'s report as it stands (a search the user's limit stopped): every pair of
    /// the size still open is closed by it, answered or not; its rows of pairs answered
    /// before are dropped (a size answered whole drops the report).
    pub fn settle(&mut self, mut r: SizeReport) {
        self.enter(|| Entry::Settle(r.clone()));
        self.touched.insert(r.size);
        let Some(open) = self.open.remove(&r.size) else {
            return;
        };
        r.results.retain(|x| {
            !matches!(x.prop, PropId::Unsafe(_) | PropId::Ltl(_))
                || open.iter().any(|o| o.0 == x.prop)
        });
        self.hold(r);
        self.flush();
    }

    /// Keeps `r` until the rows before it are handed on; a row no pair stands for (a range error)
    /// is kept once per size: several phases meet the same error (the bounded lasso
    /// search, the BDD fixpoint and IC3 of each `ltl` property), and each size gets one
    /// row of it.
    fn hold(&mut self, mut r: SizeReport) {
        let n = r.size;
        let extra = &mut self.extra;
        let rows = r.results.len();
        r.results.retain(|x| {
            matches!(x.prop, PropId::Unsafe(_) | PropId::Ltl(_)) || extra.insert((n, x.prop))
        });
        if rows > 0 && r.results.is_empty() && r.internal_errors.is_empty() {
            return;
        }
        self.violated |= r.results.iter().any(|x| x.verdict.kind() == Kind::Violated);
        self.held.entry(n).or_default().push(r);
    }

    /// Hands on, in order, the reports of the sizes with no open pair left, and those
    /// kept so far of the first size still open: the rows come out in the order they
    /// would all together, each as soon as the rows before it have (a range error met
    /// at once is not held back while IC3 proves the size's other property).
    fn flush(&mut self) {
        while let Some(&n) = self.sizes.get(self.next) {
            let held = self.held.remove(&n).unwrap_or_default();
            if self.log.is_none() {
                self.out.extend(held);
            }
            if self.open.contains_key(&n) {
                return;
            }
            self.next += 1;
        }
    }

    /// The end of the run: every pair still open gets its `unknown` row at a size some
    /// phase ran on, with the limit that stopped the run (sizes no phase ran on are left
    /// to `engine::run`, which marks them not run).
    fn close(&mut self, p: &Problem) -> Closed {
        let open = std::mem::take(&mut self.open);
        for (&n, pairs) in &open {
            if !self.touched.contains(&n) {
                continue;
            }
            let asked = pairs.iter().filter(|x| x.0 != PropId::Range);
            let results: Vec<PropResult> = asked.map(|&(k, d)| unanswered(p, n, k, d)).collect();
            if results.is_empty() {
                continue;
            }
            self.hold(SizeReport {
                size: n,
                engine: "auto",
                results,
                limit: self.limit,
                ..SizeReport::default()
            });
        }
        self.flush();
        Closed {
            notes: merge_size_notes(std::mem::take(&mut self.notes)),
            certificates: std::mem::take(&mut self.certificates),
            limit: self.limit,
        }
    }
}

/// What a closed ledger hands back.
pub(super) struct Closed {
    pub notes: Vec<String>,
    pub certificates: Vec<Arc<Certificate>>,
    pub limit: Option<Limit>,
}

/// The notes, with the notes `size N: TEXT` of one TEXT made one, `sizes ...: TEXT`,
/// where the first of them stood.
fn merge_size_notes(notes: Vec<String>) -> Vec<String> {
    let split = |s: &str| -> Option<(usize, String)> {
        let (n, text) = s.strip_prefix("size ")?.split_once(": ")?;
        Some((n.parse().ok()?, text.to_string()))
    };
    let mut sizes: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (n, text) in notes.iter().filter_map(|s| split(s)) {
        sizes.entry(text).or_default().insert(n);
    }
    let mut out = Vec::new();
    for s in notes {
        let Some((_, text)) = split(&s) else {
            out.push(s);
            continue;
        };
        if let Some(v) = sizes.remove(&text) {
            let v: Vec<usize> = v.into_iter().collect();
            out.push(format!("{}: {text}", crate::cert::sizes_phrase(&v)));
        }
    }
    out
}

/// The row of property `k` left open at size `n`: `unknown`, or the depth a bounded
/// search reached without a violation (`depth`).
fn unanswered(p: &Problem, n: usize, k: PropId, depth: Option<usize>) -> PropResult {
    let name = match k {
        PropId::Unsafe(u) => p.model.unsafes[u].name.clone(),
        PropId::Ltl(l) => p.model.ltls[l].name.clone(),
        _ => String::new(),
    };
    PropResult {
        size: n,
        prop: k,
        name,
        verdict: depth.map_or(Verdict::Unknown, Verdict::NoViolationUpTo),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Proof;

    fn report(n: usize, rows: &[(usize, Verdict)]) -> SizeReport {
        SizeReport {
            size: n,
            results: rows
                .iter()
                .map(|(u, v)| PropResult {
                    size: n,
                    prop: PropId::Unsafe(*u),
                    name: format!("p{u}"),
                    verdict: v.clone(),
                })
                .collect(),
            ..SizeReport::default()
        }
    }

    /// The (size, property) rows handed on so far, in order.
    fn rows(out: &[SizeReport]) -> Vec<(usize, PropId)> {
        out.iter()
            .flat_map(|r| r.results.iter().map(|x| (x.size, x.prop)))
            .collect()
    }

    #[test]
    fn rows_come_out_in_the_tables_order_as_soon_as_the_rows_before_them_are_decided() {
        let m = crate::lang::load_str(
            "m.cub",
            "type s = I | C\narray A[proc] : s\ninit (z) { A[z] = I }\n\
             unsafe p0 (z1 z2) { A[z1] = C && A[z2] = C }\n\
             unsafe p1 (z) { A[z] = C }\n\
             transition go (i) requires { A[i] = I } { A[i] := C; }\n",
        )
        .unwrap();
        let p = Problem::new(&m, 1, 2, vec![0, 1]);
        let holds = Verdict::Holds(Proof::Exhaustive);
        let out = std::cell::RefCell::new(Vec::new());
        let mut keep = |r: SizeReport| out.borrow_mut().push(r);
        let mut l = Ledger::new(&p, &[PropId::Unsafe(0), PropId::Unsafe(1)], &mut keep);
        let u = PropId::Unsafe;
        // Size 1 half answered: its row is handed on at once, the open pair is not.
        l.answer(report(1, &[(0, holds.clone()), (1, Verdict::Unknown)]));
        assert_eq!(rows(&out.borrow()), vec![(1, u(0))]);
        // Size 2 whole, but size 1 still open: held back, so the table keeps its order.
        l.answer(report(2, &[(0, holds.clone()), (1, holds.clone())]));
        assert_eq!(rows(&out.borrow()), vec![(1, u(0))]);
        // A detached book (phases on a thread of their own) hands nothing on.
        let mut detached = l.detached();
        detached.answer(report(1, &[(1, holds.clone())]));
        assert!(detached.out.is_empty());
        l.answer(report(1, &[(1, holds.clone())]));
        assert!(l.close(&p).limit.is_none());
        let all = vec![(1, u(0)), (1, u(1)), (2, u(0)), (2, u(1))];
        assert_eq!(rows(&out.borrow()), all);
    }
}
