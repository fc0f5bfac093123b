//! An instance of a family at size n: every variable laid out as cells ("slots"),
//! each with a finite domain, and the packing of a state into 64-bit words.
//! A state in unpacked form is one `i64` per slot (the value itself, not an offset).

use super::ir::*;

/// A state, unpacked: one value per slot.
pub type State = Vec<i64>;

/// The state a run ends in: every run holds at least its initial state.
pub fn last_state(run: &[State]) -> &State {
    run.last().expect("a run holds at least its initial state")
}

/// Where a variable's cells start and how its indices map to slots.
#[derive(Clone, Debug)]
pub struct VarLayout {
    pub base: usize,
    /// Per index position: lowest index value and number of values.
    pub dims: Vec<(i64, usize)>,
    pub strides: Vec<usize>,
    /// Number of cells.
    pub cells: usize,
    /// The value domain, `lo..=hi` (empty when hi < lo).
    pub lo: i64,
    pub hi: i64,
}

/// One cell of the state.
#[derive(Clone, Debug)]
pub struct Slot {
    pub var: VarId,
    /// The index tuple of the cell (empty for globals).
    pub index: Vec<i64>,
    pub lo: i64,
    pub hi: i64,
    pub word: usize,
    pub shift: u32,
    pub bits: u32,
}

/// A family at one size.
#[derive(Clone, Debug)]
pub struct Instance<'m> {
    pub model: &'m Model,
    pub n: usize,
    /// `(lo, hi)` of every range type at this size.
    pub ranges: Vec<(i64, i64)>,
    pub vars: Vec<VarLayout>,
    pub slots: Vec<Slot>,
    /// Number of 64-bit words of a packed state.
    pub words: usize,
    /// Bits of state actually used.
    pub bits: usize,
    /// Per slot, where its bits sit in the packed words (`slots` says the same, in a
    /// form too wide for the inner loops of packing and unpacking).
    fields: Vec<Field>,
}

/// Where a slot's value sits in the packed words: `lo + (words[word] >> shift) & mask`
/// (mask 0 for a cell of one value).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    lo: i64,
    mask: u64,
    word: u32,
    shift: u32,
}

impl Field {
    pub fn mask(&self) -> u64 {
        self.mask
    }

    pub fn word(&self) -> u32 {
        self.word
    }

    pub fn shift(&self) -> u32 {
        self.shift
    }

    /// Write the value into packed words where its bits are still zero.
    #[inline]
    pub fn put(&self, words: &mut [u64], v: i64) {
        words[self.word as usize] |= ((v - self.lo) as u64 & self.mask) << self.shift;
    }

    fn of(s: &Slot) -> Field {
        let mask = match s.bits {
            0 => 0,
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        };
        Field {
            lo: s.lo,
            mask,
            word: if s.bits == 0 { 0 } else { s.word as u32 },
            shift: if s.bits == 0 { 0 } else { s.shift },
        }
    }
}

impl<'m> Instance<'m> {
    /// Lay out the family at size `n` (n ≥ 1).
    pub fn new(model: &'m Model, n: usize) -> Instance<'m> {
        let ranges: Vec<(i64, i64)> = model
            .ranges
            .iter()
            .map(|r| (r.lo.eval(n as i64), r.hi.eval(n as i64)))
            .collect();
        Instance::with_ranges(model, n, ranges)
    }

    /// The layout of the aggregate of sizes `min..=max`: `max` process slots, and every
    /// range type with the union of its values over those sizes.
    pub fn aggregate(model: &'m Model, min: usize, max: usize) -> Instance<'m> {
        let ranges = model
            .ranges
            .iter()
            .map(|r| {
                let mut lo = i64::MAX;
                let mut hi = i64::MIN;
                for w in min..=max {
                    let (a, b) = (r.lo.eval(w as i64), r.hi.eval(w as i64));
                    if a <= b {
                        lo = lo.min(a);
                        hi = hi.max(b);
                    }
                }
                if lo > hi { (0, -1) } else { (lo, hi) }
            })
            .collect();
        Instance::with_ranges(model, max, ranges)
    }

    fn with_ranges(model: &'m Model, n: usize, ranges: Vec<(i64, i64)>) -> Instance<'m> {
        let mut inst = Instance {
            model,
            n,
            ranges,
            vars: Vec::new(),
            slots: Vec::new(),
            words: 0,
            bits: 0,
            fields: Vec::new(),
        };
        let (mut word, mut shift) = (0usize, 0u32);
        for (vid, v) in model.vars.iter().enumerate() {
            let dims: Vec<(i64, usize)> = v
                .dims
                .iter()
                .map(|&t| {
                    let (lo, hi) = inst.domain(t);
                    (lo, (hi - lo + 1).max(0) as usize)
                })
                .collect();
            let mut strides = vec![0; dims.len()];
            let mut cells = 1usize;
            for k in (0..dims.len()).rev() {
                strides[k] = cells;
                cells = cells.saturating_mul(dims[k].1);
            }
            let (lo, hi) = inst.value_domain(v.ty);
            let size = (hi - lo + 1).max(1) as u64;
            let bits = 64 - (size - 1).leading_zeros();
            let base = inst.slots.len();
            for c in 0..cells {
                let mut index = Vec::with_capacity(dims.len());
                let mut rem = c;
                for k in 0..dims.len() {
                    index.push(dims[k].0 + (rem / strides[k]) as i64);
                    rem %= strides[k];
                }
                if shift + bits > 64 {
                    word += 1;
                    shift = 0;
                }
                inst.slots.push(Slot {
                    var: vid,
                    index,
                    lo,
                    hi,
                    word,
                    shift,
                    bits,
                });
                shift += bits;
                inst.bits += bits as usize;
            }
            inst.vars.push(VarLayout {
                base,
                dims,
                strides,
                cells,
                lo,
                hi,
            });
        }
        inst.words = inst
            .slots
            .iter()
            .filter(|s| s.bits > 0)
            .map(|s| s.word + 1)
            .max()
            .unwrap_or(1);
        inst.fields = inst.slots.iter().map(Field::of).collect();
        inst
    }

    /// Whether the family is fully symmetric and has more than one process here.
    pub fn inst_symmetric(&self) -> bool {
        self.n > 1 && self.model.is_symmetric()
    }

    /// The values of a type at this size, `lo..=hi` (empty when hi < lo).
    pub fn domain(&self, t: Ty) -> (i64, i64) {
        match t {
            Ty::Bool => (0, 1),
            Ty::Enum(e) => (0, self.model.enums[e].ctors.len() as i64 - 1),
            Ty::Proc => (1, self.n as i64),
            Ty::Range(r) => self.ranges[r],
            Ty::Int => (i64::MIN, i64::MAX),
        }
    }

    /// Run `body` once for every combination of values of the update's bound index
    /// positions (`A[j] := ...` with `j` free binds it to every index), last position
    /// fastest, each time with the values stored into `env` and given as `values`
    /// (beside `binders`, the bound locals and their types); not at all when a bound
    /// position has no value. Stops at the first error `body` returns. The reference
    /// interpreter, the compiled evaluator and the SAT encoding all walk the cells so.
    pub fn for_each_binding<E>(
        &self,
        u: &Update,
        env: &mut [i64],
        mut body: impl FnMut(&mut [i64], &[(LocalId, Ty)], &[i64]) -> Result<(), E>,
    ) -> Result<(), E> {
        let binders = u.binders(self.model);
        let ranges: Vec<(i64, i64)> = binders.iter().map(|b| self.domain(b.1)).collect();
        if ranges.iter().any(|(lo, hi)| hi < lo) {
            return Ok(());
        }
        let mut cur: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        loop {
            for (b, v) in binders.iter().zip(&cur) {
                env[b.0] = *v;
            }
            body(env, &binders, &cur)?;
            if !odometer(&mut cur, &ranges) {
                return Ok(());
            }
        }
    }

    /// The values a cell of type `t` can hold: `domain(t)`, except that `proc` cells
    /// may also hold the extra process id when the model has one (`model::extra`).
    pub fn value_domain(&self, t: Ty) -> (i64, i64) {
        match t {
            Ty::Proc => (self.model.proc_value_lo(), self.n as i64),
            _ => self.domain(t),
        }
    }

    /// The slot of a cell, or `None` when an index is out of range.
    pub fn slot_of(&self, var: VarId, index: &[i64]) -> Option<usize> {
        let l = &self.vars[var];
        let mut s = l.base;
        for (k, &i) in index.iter().enumerate() {
            let (lo, size) = l.dims[k];
            let off = i.checked_sub(lo)?;
            if off < 0 || off as usize >= size {
                return None;
            }
            s += off as usize * l.strides[k];
        }
        Some(s)
    }

    /// Whether every slot has a non-empty domain (otherwise there are no states).
    pub fn has_states(&self) -> bool {
        self.slots.iter().all(|s| s.lo <= s.hi)
    }

    /// The first variable with a cell whose type has no value at this size (such as
    /// `1 .. N - 1` at size 1): the instance then has no state at all.
    pub fn empty_typed_var(&self) -> Option<VarId> {
        self.slots.iter().find(|s| s.lo > s.hi).map(|s| s.var)
    }

    /// Pack an unpacked state into words (`out.len() == self.words`).
    pub fn pack(&self, st: &[i64], out: &mut [u64]) {
        out.iter_mut().for_each(|w| *w = 0);
        for (f, v) in self.fields.iter().zip(st) {
            out[f.word as usize] |= ((v - f.lo) as u64 & f.mask) << f.shift;
        }
    }

    /// Where a slot's value sits in the packed words.
    pub fn field(&self, slot: usize) -> Field {
        self.fields[slot]
    }

    /// Overwrite one cell of a packed state.
    #[inline]
    pub fn patch(&self, words: &mut [u64], slot: usize, v: i64) {
        let f = &self.fields[slot];
        let w = &mut words[f.word as usize];
        *w = (*w & !(f.mask << f.shift)) | (((v - f.lo) as u64 & f.mask) << f.shift);
    }

    /// Unpack words into a state (`out.len() == self.slots.len()`).
    #[inline]
    pub fn unpack(&self, words: &[u64], out: &mut [i64]) {
        for (f, o) in self.fields.iter().zip(out.iter_mut()) {
            *o = f.lo + ((words[f.word as usize] >> f.shift) & f.mask) as i64;
        }
    }

    /// `A[1,2]`, `X`: how a cell is named in traces.
    pub fn cell_name(&self, slot: usize) -> String {
        let s = &self.slots[slot];
        let name = &self.model.vars[s.var].name;
        if s.index.is_empty() {
            name.clone()
        } else {
            let dims = &self.model.vars[s.var].dims;
            let ix: Vec<String> = s
                .index
                .iter()
                .zip(dims)
                .map(|(&i, &t)| self.value_name(t, i))
                .collect();
            format!("{}[{}]", name, ix.join(","))
        }
    }

    /// How a value of a type is printed: constructor names, `True`/`False`, numbers.
    pub fn value_name(&self, t: Ty, v: i64) -> String {
        match t {
            Ty::Bool => if v != 0 { "True" } else { "False" }.to_string(),
            Ty::Enum(e) => self.model.enums[e]
                .ctors
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| format!("<{v}>")),
            _ => v.to_string(),
        }
    }

    /// The value of a slot, printed.
    pub fn slot_value_name(&self, slot: usize, v: i64) -> String {
        self.value_name(self.model.vars[self.slots[slot].var].ty, v)
    }

    /// All tuples of `k` pairwise distinct process ids, in lexicographic order.
    pub fn distinct_tuples(&self, k: usize) -> Vec<Vec<i64>> {
        tuples(self.n, k, true)
    }

    /// All tuples of `k` process ids (repetitions allowed), in lexicographic order.
    pub fn all_tuples(&self, k: usize) -> Vec<Vec<i64>> {
        tuples(self.n, k, false)
    }
}

fn tuples(n: usize, k: usize, distinct: bool) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn rec(n: usize, k: usize, distinct: bool, cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for p in 1..=n as i64 {
            if distinct && cur.contains(&p) {
                continue;
            }
            cur.push(p);
            rec(n, k, distinct, cur, out);
            cur.pop();
        }
    }
    rec(n, k, distinct, &mut cur, &mut out);
    out
}

/// Advance `cur` to the next combination of values, last position fastest, each
/// position within its `(lo, hi)`; false (and `cur` unchanged) after the last one.
pub(crate) fn odometer(cur: &mut [i64], ranges: &[(i64, i64)]) -> bool {
    for k in (0..cur.len()).rev() {
        if cur[k] < ranges[k].1 {
            cur[k] += 1;
            for j in k + 1..cur.len() {
                cur[j] = ranges[j].0;
            }
            return true;
        }
    }
    false
}
