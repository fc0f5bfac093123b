//! A small reader of binary AIGER 1.9 (the format of Biere, Heljanko and Wieringa),
//! written for the tests independently of nfold's writer (src/bmc/aiger.rs): it parses
//! the header, latch lines with reset values, the output sections, the delta-encoded
//! AND gates and the symbol table, checking every count and literal as it goes, and
//! gives the combinational logic as a simulator and as CNF.

use nfold::sat::{Cnf, Lit};
use std::collections::HashMap;

/// A parsed AIGER file.
#[derive(Debug, Default)]
pub struct Aig {
    pub max_var: u32,
    pub num_inputs: u32,
    /// (next, reset) per latch.
    pub latches: Vec<(u32, u32)>,
    pub outputs: Vec<u32>,
    pub bad: Vec<u32>,
    pub constraints: Vec<u32>,
    pub justice: usize,
    pub fairness: usize,
    /// The literals of each justice property.
    pub justice_lits: Vec<Vec<u32>>,
    /// The fairness literals.
    pub fairness_lits: Vec<u32>,
    /// (rhs0, rhs1) per AND gate, gate k defining variable I + L + 1 + k.
    pub ands: Vec<(u32, u32)>,
    pub input_names: HashMap<usize, String>,
    pub latch_names: HashMap<usize, String>,
    pub bad_names: HashMap<usize, String>,
    pub output_names: HashMap<usize, String>,
    pub justice_names: HashMap<usize, String>,
}

fn read_line<'a>(data: &'a [u8], pos: &mut usize) -> Result<&'a str, String> {
    let start = *pos;
    let end = data[start..]
        .iter()
        .position(|&c| c == b'\n')
        .ok_or("unterminated line")?;
    *pos = start + end + 1;
    std::str::from_utf8(&data[start..start + end]).map_err(|e| e.to_string())
}

fn numbers(line: &str) -> Result<Vec<u32>, String> {
    line.split(' ')
        .map(|x| x.parse::<u32>().map_err(|e| format!("`{x}`: {e}")))
        .collect()
}

fn read_delta(data: &[u8], pos: &mut usize) -> Result<u32, String> {
    let mut x: u64 = 0;
    let mut shift = 0;
    loop {
        let &b = data.get(*pos).ok_or("truncated AND section")?;
        *pos += 1;
        x |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
        if shift > 35 {
            return Err("delta too long".into());
        }
    }
    u32::try_from(x).map_err(|_| "delta overflows".to_string())
}

pub fn parse(data: &[u8]) -> Result<Aig, String> {
    let mut pos = 0;
    let header = read_line(data, &mut pos)?;
    let h = header
        .strip_prefix("aig ")
        .ok_or("not a binary AIGER file")?;
    let n = numbers(h)?;
    if n.len() < 5 || n.len() > 9 {
        return Err(format!("header `{header}`"));
    }
    let get = |k: usize| n.get(k).copied().unwrap_or(0);
    let (m, i, l, o, a) = (n[0], n[1], n[2], n[3], n[4]);
    let (b, c, j, f) = (get(5), get(6), get(7), get(8));
    if m != i + l + a {
        return Err(format!("M = {m} is not I + L + A = {}", i + l + a));
    }
    let mut aig = Aig {
        max_var: m,
        num_inputs: i,
        ..Default::default()
    };
    let lit_ok = |x: u32| x <= 2 * m + 1;
    for k in 0..l {
        let v = numbers(read_line(data, &mut pos)?)?;
        let cur = 2 * (i + k + 1);
        let (next, reset) = match v[..] {
            [nx] => (nx, 0),
            [nx, r] if r == 0 || r == 1 || r == cur => (nx, r),
            _ => return Err(format!("latch line {k}: {v:?}")),
        };
        if !lit_ok(next) {
            return Err(format!("latch {k}: literal {next} out of range"));
        }
        aig.latches.push((next, reset));
    }
    for (count, dst) in [(o, 0), (b, 1), (c, 2)] {
        for _ in 0..count {
            let v = numbers(read_line(data, &mut pos)?)?;
            if v.len() != 1 || !lit_ok(v[0]) {
                return Err(format!("output line {v:?}"));
            }
            [&mut aig.outputs, &mut aig.bad, &mut aig.constraints][dst].push(v[0]);
        }
    }
    // Justice: sizes, then literals; fairness: literals.
    let mut sizes = Vec::new();
    for _ in 0..j {
        sizes.push(numbers(read_line(data, &mut pos)?)?[0]);
    }
    let one_lit = |line: &str| -> Result<u32, String> {
        match numbers(line)?[..] {
            [x] if lit_ok(x) => Ok(x),
            _ => Err(format!("literal line `{line}`")),
        }
    };
    for s in sizes {
        let mut lits = Vec::new();
        for _ in 0..s {
            lits.push(one_lit(read_line(data, &mut pos)?)?);
        }
        aig.justice_lits.push(lits);
    }
    for _ in 0..f {
        let l = one_lit(read_line(data, &mut pos)?)?;
        aig.fairness_lits.push(l);
    }
    aig.justice = j as usize;
    aig.fairness = f as usize;
    for k in 0..a {
        let lhs = 2 * (i + l + k + 1);
        let d0 = read_delta(data, &mut pos)?;
        let d1 = read_delta(data, &mut pos)?;
        let r0 = lhs
            .checked_sub(d0)
            .filter(|_| d0 > 0)
            .ok_or("bad delta 0")?;
        let r1 = r0.checked_sub(d1).ok_or("bad delta 1")?;
        aig.ands.push((r0, r1));
    }
    // Symbol table, then an optional comment section.
    while pos < data.len() {
        let line = read_line(data, &mut pos)?;
        if line == "c" {
            break;
        }
        let (tag, rest) = line.split_at(1);
        let (idx, name) = rest.split_once(' ').ok_or("symbol without a name")?;
        let idx: usize = idx.parse().map_err(|_| format!("symbol `{line}`"))?;
        let (table, count) = match tag {
            "i" => (&mut aig.input_names, i),
            "l" => (&mut aig.latch_names, l),
            "b" => (&mut aig.bad_names, b),
            "o" => (&mut aig.output_names, o),
            "j" => (&mut aig.justice_names, j),
            "c" | "f" => continue,
            _ => return Err(format!("symbol `{line}`")),
        };
        if idx >= count as usize || table.insert(idx, name.to_string()).is_some() {
            return Err(format!("symbol `{line}`: index out of range or repeated"));
        }
    }
    Ok(aig)
}

impl Aig {
    pub fn num_latches(&self) -> u32 {
        self.latches.len() as u32
    }

    pub fn latch_var(&self, k: usize) -> u32 {
        self.num_inputs + 1 + k as u32
    }

    pub fn input_by_name(&self) -> HashMap<String, usize> {
        self.input_names
            .iter()
            .map(|(k, n)| (n.clone(), *k))
            .collect()
    }

    /// Simulate one time step: the value of every variable.
    pub fn eval(&self, inputs: &[bool], latches: &[bool]) -> Vec<bool> {
        let mut v = vec![false; self.max_var as usize + 1];
        v[1..=self.num_inputs as usize].copy_from_slice(inputs);
        let base = self.num_inputs as usize + 1;
        v[base..base + latches.len()].copy_from_slice(latches);
        let first = (self.num_inputs + self.num_latches() + 1) as usize;
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            let val = |x: u32| v[(x / 2) as usize] ^ (x & 1 == 1);
            v[first + k] = val(a) && val(b);
        }
        v
    }

    pub fn value(vals: &[bool], lit: u32) -> bool {
        vals[(lit / 2) as usize] ^ (lit & 1 == 1)
    }

    /// The combinational logic as CNF: SAT variable per AIG variable (the constant as a
    /// unit-false variable).
    pub fn to_cnf(&self, cnf: &mut Cnf) -> Vec<Lit> {
        let vars: Vec<Lit> = (0..=self.max_var).map(|_| cnf.new_var()).collect();
        cnf.add_clause(&[-vars[0]]);
        let first = (self.num_inputs + self.num_latches() + 1) as usize;
        let lit = |x: u32| {
            let v = vars[(x / 2) as usize];
            if x & 1 == 1 { -v } else { v }
        };
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            let g = vars[first + k];
            cnf.add_clause(&[-g, lit(a)]);
            cnf.add_clause(&[-g, lit(b)]);
            cnf.add_clause(&[g, -lit(a), -lit(b)]);
        }
        vars
    }
}

pub fn sat_lit(vars: &[Lit], x: u32) -> Lit {
    let v = vars[(x / 2) as usize];
    if x & 1 == 1 { -v } else { v }
}
