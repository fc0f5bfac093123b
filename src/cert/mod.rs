//! Certificates: an invariant as formulas over the model's own variables, the sizes
//! it is claimed at, and which properties it proves there. The text form is what
//! `--certificate FILE` writes and `nfold certify` reads:
//!
//! ```text
//! # nfold certificate: an inductive invariant (check it with `nfold certify`)
//! model german.cub 9f3c0a7d12e4b655
//! sizes 1..12
//! engine ic3
//! induction 1
//! proves coherence at 1..12
//! proves range_error at 1..12
//! lemma forall distinct i j. not (Cache[i] = E && Cache[j] <> I)
//! lemma sizes 2..12: not (ExGntd = True && CurCmd = Empty)
//! ```
//!
//! A lemma `sizes a..b: forall distinct x1 .. xk. not (f)` says that at every size in
//! a..b no reachable state has pairwise distinct processes x1..xk satisfying f (the
//! meaning of an `unsafe (x1 .. xk) { f }` block); `forall x1 < x2 < .. < xk. not (f)`
//! (an *ordered* lemma, for families that compare process ids by order) says it of
//! the processes in increasing order only (the block `unsafe (x1 .. xk) { x1 < x2 &&
//! .. && (f) }`); without `sizes` it is claimed at every
//! size of the certificate; `no range error` says that no transition instance or
//! property meets a range error, and `no int_bound` that no transition instance stores
//! a value outside the int window. `ints LO..HI` (a model with ints) names the int
//! window the invariant speaks of. `induction k` > 1 states that the conjunction is
//! k-inductive rather than inductive, over runs whose every step fires a transition
//! instance (no idle step; they reach the same states) (`induction k simple-path`: and
//! of k+1 pairwise distinct states). `proves P at S` claims that the invariant excludes every
//! state violating property P (`range_error`: every range error; `int_bound`: every
//! store leaving the int window) at the sizes S.
//!
//! `liveness NAME [fair]` says that the certificate is about the liveness-to-safety
//! product of the model with its `ltl` property NAME (weakly fair runs only with
//! `fair`; `live::Product`): the product is built again from the model and the
//! property, and the lemmas and claims are about it (the hash is of its text).
//! `liveness NAME [fair] counting K` names the k-liveness product instead (a counter
//! of completed rounds; the claim is that it never reaches K; `live::Variant`).
//!
//! `liveness NAME [fair] ranks` names no product: the certificate is a ranking proof
//! of the response property NAME (`G (A => F B)` of process `i`) on the model itself.
//! Its lemmas are an inductive invariant of the model (range errors excluded); the
//! `ranking i j` line names the property's process and another process, and the
//! `phase` lines (nearest the goal first) cover the states where A held and B has not
//! held since: `phase K helpful: F` (under `fair`: process i is enabled there and every
//! step either leaves for a lower phase or B, or is not i's), `phase K ranked: F`, with
//! `weight K W: G` lines (a process j other than i weighs W where G is the first of
//! phase K's weight formulas to hold, 0 where none holds: every step staying in the
//! phase lowers the weight of some process and raises none). `proof::check::rank`
//! checks it; no weakly fair run stays in the phases forever.
//!
//! `assume inv1, inv2` says that the certificate is about the model restricted to the
//! states satisfying those `invariant`s, as Cubicle reads them (`model::assume`).
//! `reduced sizes A..B for P, Q[; fair][; deadlock]` says that it is about the model
//! reduced to what was asked (`model::reduce`: the properties P, Q at sizes A..B,
//! under weak fairness, with deadlocks): `certify` builds the reduction again, checks
//! it on the model (`proof::reduced`: nothing that stays reads a cell sliced away,
//! whose updates cannot fail; the constants and equivalent cells hold in every
//! reachable state) and checks the lemmas and claims on the reduced model.
//! `abstraction ints` says that it is about the model's over-approximation over the
//! classes of its ints (`model::ints::abstracted`, after `assume`), built again from the model;
//! `abstraction order` that it is about the over-approximation over the order of the ints
//! (`model::ints::order`), whose `order_lost_*` properties it must prove;
//! `abstraction order diff K` the same with the differences of two cells kept up to K.
//!
//! A lemma may also be a binary decision diagram (the BDD engine's invariants, whose
//! sets have no short formula): `lemma sizes 3..3: bdd R` says that no reachable state
//! of size 3 satisfies the diagram R. The diagram's nodes are lines
//! `node ID CELL B L THEN ELSE`, numbered 1, 2, ... in order: the node is THEN where
//! bit B (0: the least significant) of the value of cell CELL (as traces name it,
//! `E[2,3]`) minus L is 1, and ELSE otherwise. A reference (R, THEN, ELSE) is `T`
//! (true), `F` (false), a node's number (smaller than the referring node's), or a
//! number with `-` (the node negated).

use crate::source::Span;

pub mod count;
mod evidence;

pub use evidence::{BddNode, BddRef, Evidence, RankPhase, Ranking};

/// A certificate, see the module comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Certificate {
    /// The model file's name and a hash of its text.
    pub model: String,
    pub hash: u64,
    pub sizes: (usize, usize),
    /// How the invariant was found (`ic3`, `k-induction`).
    pub engine: String,
    /// Properties (by name; `range_error` for range errors) and the sizes they are
    /// claimed at.
    pub proves: Vec<(String, Vec<usize>)>,
    pub lemmas: Vec<CertLemma>,
    /// The int window the invariant is about (`ints LO..HI`), for a model with ints.
    pub ints: Option<(i64, i64)>,
    /// `every n cutoff c`: the lemmas and claims extend to every size, by the cutoff
    /// argument (`cutoff`), checked at sizes 1..c.
    pub every: Option<usize>,
    /// `liveness NAME [fair]`: the invariant is of the liveness product of the model
    /// with its `ltl` property NAME (under weak fairness when the flag is set).
    pub liveness: Option<(String, bool)>,
    /// `counting K` on the `liveness` line: the product is the k-liveness one with
    /// bound K (otherwise liveness-to-safety).
    pub klive: Option<usize>,
    /// `assume NAME, NAME`: the invariant is of the model restricted to the states
    /// satisfying those `invariant`s (`model::assume`), built again by `certify`.
    pub assume: Vec<String>,
    /// `reduced ...`: the invariant is of the model reduced to what was asked
    /// (`model::reduce`), built again and checked by `certify` (`proof::reduced`).
    pub reduced: Option<Reduced>,
    /// `abstraction ints`: the invariant is of the model's over-approximation over the
    /// classes of its ints (`model::ints::abstracted`), built again by `certify`.
    pub abstraction: bool,
    /// `abstraction order` (with `abstraction`): the over-approximation is the one over
    /// the order of the ints (`model::ints::order`).
    pub order: bool,
    /// `abstraction order diff K`: the relations keep the differences of two cells up to
    /// K (`model::ints::order::ordered_diff`); 0 with plain `abstraction order`.
    pub order_diff: i64,
    /// What the lemmas are evidence of: each kind has its own checker.
    pub evidence: Evidence,
}

/// What a reduced model was reduced for (the `reduced` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    pub sizes: (usize, usize),
    /// The properties asked (`unsafe`, `invariant` or `ltl`), by name.
    pub asked: Vec<String>,
    pub fair: bool,
    pub deadlock: bool,
}

impl Reduced {
    /// The line's text after `reduced `.
    pub fn text(&self) -> String {
        format!(
            "sizes {}..{} for {}{}{}",
            self.sizes.0,
            self.sizes.1,
            self.asked.join(", "),
            if self.fair { "; fair" } else { "" },
            if self.deadlock { "; deadlock" } else { "" }
        )
    }

    /// Parse the text of `text()`.
    pub fn parse(rest: &str) -> Result<Reduced, String> {
        let expected = "expected `reduced sizes A..B for P, Q[; fair][; deadlock]`";
        let r = rest.strip_prefix("sizes ").ok_or(expected)?;
        let (range, names) = r.split_once(" for ").ok_or(expected)?;
        let mut parts = names.split(';').map(str::trim);
        let asked: Vec<String> = parts
            .next()
            .unwrap_or_default()
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        let mut out = Reduced {
            sizes: parse_range(range.trim())?,
            asked,
            fair: false,
            deadlock: false,
        };
        for p in parts {
            match p {
                "fair" => out.fair = true,
                "deadlock" => out.deadlock = true,
                _ => return Err(expected.into()),
            }
        }
        Ok(out)
    }
}

/// One lemma: the sizes it is claimed at, its process variables and its formula
/// (the text after `not`), or (`no_range`) the absence of range errors, or
/// (`no_int_bound`) the absence of stores leaving the int window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertLemma {
    pub sizes: Option<(usize, usize)>,
    pub vars: Vec<String>,
    pub body: String,
    pub no_range: bool,
    pub no_int_bound: bool,
    /// `forall x1 < .. < xk.`: the variables in increasing order (two or more).
    pub ordered: bool,
    /// `bdd R`: the lemma is the diagram R (no reachable state satisfies it).
    pub bdd: Option<BddRef>,
}

/// What `CertLemma::key` compares: sizes, the flags (no range error, no int_bound,
/// ordered), the number of variables, the tokens.
type LemmaKey = (Option<(usize, usize)>, [bool; 3], usize, Vec<String>);

impl CertLemma {
    /// The lemma up to the names of its variables and to white space: the body's tokens
    /// (names, numbers, single other characters) with every variable replaced by its
    /// position, with the sizes. Two lemmas with one key say the same thing.
    fn key(&self) -> LemmaKey {
        let mut tokens = Vec::new();
        let mut word = String::new();
        let flush = |word: &mut String, tokens: &mut Vec<String>| {
            if !word.is_empty() {
                let w = std::mem::take(word);
                tokens.push(match self.vars.iter().position(|v| *v == w) {
                    Some(k) => format!("#{k}"),
                    None => w,
                });
            }
        };
        for ch in self.body.chars() {
            if ch.is_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                flush(&mut word, &mut tokens);
                if !ch.is_whitespace() {
                    tokens.push(ch.to_string());
                }
            }
        }
        flush(&mut word, &mut tokens);
        (
            self.sizes,
            [self.no_range, self.no_int_bound, self.ordered],
            self.vars.len(),
            match self.bdd {
                Some(r) => vec![format!("bdd {}", r.text())],
                None => tokens,
            },
        )
    }

    /// Drop every lemma that repeats an earlier one under other variable names (a
    /// strengthening lemma found equal to a property, say); the first is kept.
    pub fn dedup(lemmas: &mut Vec<CertLemma>) {
        let mut seen = std::collections::HashSet::new();
        lemmas.retain(|l| seen.insert(l.key()));
    }

    /// Whether the lemma is claimed at size n of a certificate for `all`.
    pub fn at(&self, n: usize) -> bool {
        let (a, b) = self.sizes.unwrap_or((1, usize::MAX));
        a <= n && n <= b
    }

    /// The readable line (without the `lemma` keyword).
    pub fn text(&self) -> String {
        let sizes = self
            .sizes
            .map(|(a, b)| format!("sizes {a}..{b}: "))
            .unwrap_or_default();
        if self.no_range {
            return format!("{sizes}no range error");
        }
        if self.no_int_bound {
            return format!("{sizes}no int_bound");
        }
        if let Some(r) = self.bdd {
            return format!("{sizes}bdd {}", r.text());
        }
        let quant = if self.vars.is_empty() {
            String::new()
        } else if self.ordered {
            format!("forall {}. ", self.vars.join(" < "))
        } else {
            format!("forall distinct {}. ", self.vars.join(" "))
        };
        format!("{sizes}{quant}not ({})", self.body)
    }

    /// Parse the text of `text()`.
    pub fn parse(line: &str) -> Result<CertLemma, String> {
        let mut rest = line.trim();
        let mut sizes = None;
        if let Some(r) = rest.strip_prefix("sizes ") {
            let (range, after) = r
                .split_once(':')
                .ok_or("expected `sizes A..B:` before the lemma")?;
            sizes = Some(parse_range(range.trim())?);
            rest = after.trim();
        }
        if rest == "no range error" || rest == "no int_bound" {
            return Ok(CertLemma {
                sizes,
                vars: Vec::new(),
                body: String::new(),
                no_range: rest == "no range error",
                no_int_bound: rest == "no int_bound",
                ordered: false,
                bdd: None,
            });
        }
        if let Some(r) = rest.strip_prefix("bdd ") {
            return Ok(CertLemma {
                sizes,
                vars: Vec::new(),
                body: String::new(),
                no_range: false,
                no_int_bound: false,
                ordered: false,
                bdd: Some(BddRef::parse(r.trim())?),
            });
        }
        let mut vars = Vec::new();
        let mut ordered = false;
        let (names, after) = if let Some(r) = rest.strip_prefix("forall distinct ") {
            let (names, after) = r
                .split_once('.')
                .ok_or("expected `.` after the names of `forall distinct`")?;
            (names.split_whitespace().collect::<Vec<_>>(), after)
        } else if let Some(r) = rest.strip_prefix("forall ") {
            let (names, after) = r
                .split_once('.')
                .ok_or("expected `.` after the names of `forall x1 < x2 < ..`")?;
            let names: Vec<&str> = names.split('<').map(str::trim).collect();
            if names.len() < 2 {
                return Err(
                    "expected `forall distinct x1 .. xk.` or `forall x1 < .. < xk.`".into(),
                );
            }
            ordered = true;
            (names, after)
        } else {
            (Vec::new(), rest)
        };
        for n in names {
            if n.is_empty()
                || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                || !n.starts_with(|c: char| c.is_ascii_lowercase())
            {
                return Err(format!("`{n}` is not a process variable name"));
            }
            if vars.iter().any(|v| v == n) {
                return Err(format!("process variable `{n}` is named twice"));
            }
            vars.push(n.to_string());
        }
        rest = after.trim();
        let body = rest
            .strip_prefix("not")
            .map(str::trim)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
            .ok_or("expected `not (...)`")?;
        Ok(CertLemma {
            sizes,
            vars,
            body: body.trim().to_string(),
            no_range: false,
            no_int_bound: false,
            ordered,
            bdd: None,
        })
    }
}

/// `a..b` or `n`.
pub fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{t}` is not a size"))
    };
    match s.split_once("..") {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => {
            let n = num(s)?;
            Ok((n, n))
        }
    }
}

/// Sizes as `1..3, 5, 7..9`.
pub fn sizes_text(sizes: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sizes.len() {
        let mut j = i;
        while j + 1 < sizes.len() && sizes[j + 1] == sizes[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            sizes[i].to_string()
        } else {
            format!("{}..{}", sizes[i], sizes[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// `size 3` or `sizes 1..3, 5`.
pub fn sizes_phrase(sizes: &[usize]) -> String {
    if sizes.len() == 1 {
        format!("size {}", sizes[0])
    } else {
        format!("sizes {}", sizes_text(sizes))
    }
}

fn parse_sizes_list(s: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let (a, b) = parse_range(part)?;
        out.extend(a..=b);
    }
    Ok(out)
}

/// A 64-bit FNV-1a hash of a model's text (to tell which model a certificate is for).
pub fn text_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Certificate {
    /// What the `liveness` line says after its word (`NAME [fair] [counting K]
    /// [ranks]`), for a certificate about an `ltl` property.
    pub fn liveness_text(&self) -> Option<String> {
        let (name, fair) = self.liveness.as_ref()?;
        let fair = if *fair { " fair" } else { "" };
        let counting = self
            .klive
            .map(|k| format!(" counting {k}"))
            .unwrap_or_default();
        let ranks = if self.ranking().is_some() {
            " ranks"
        } else {
            ""
        };
        Some(format!("{name}{fair}{counting}{ranks}"))
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# nfold certificate: an inductive invariant (check it with `nfold certify`)\n",
        );
        out.push_str(&format!("model {} {:016x}\n", self.model, self.hash));
        out.push_str(&format!("sizes {}..{}\n", self.sizes.0, self.sizes.1));
        out.push_str(&format!("engine {}\n", self.engine));
        if let Some((lo, hi)) = self.ints {
            out.push_str(&format!("ints {lo}..{hi}\n"));
        }
        out.push_str(&self.evidence.induction_line());
        if let Some(c) = self.every {
            out.push_str(&format!("every n cutoff {c}\n"));
        }
        if !self.assume.is_empty() {
            out.push_str(&format!("assume {}\n", self.assume.join(", ")));
        }
        if let Some(r) = &self.reduced {
            out.push_str(&format!("reduced {}\n", r.text()));
        }
        if self.abstraction && self.order && self.order_diff > 0 {
            out.push_str(&format!("abstraction order diff {}\n", self.order_diff));
        } else if self.abstraction && self.order {
            out.push_str("abstraction order\n");
        } else if self.abstraction {
            out.push_str("abstraction ints\n");
        }
        if let Some(l) = self.liveness_text() {
            out.push_str(&format!("liveness {l}\n"));
        }
        out.push_str(&self.evidence.head_lines());
        // A claim at no size says nothing (and `proves P at` would not read back).
        for (p, s) in self.proves.iter().filter(|(_, s)| !s.is_empty()) {
            out.push_str(&format!("proves {p} at {}\n", sizes_text(s)));
        }
        out.push_str(&self.evidence.tail_lines());
        for l in &self.lemmas {
            out.push_str(&format!("lemma {}\n", l.text()));
        }
        out
    }
}

mod parse;

#[cfg(test)]
mod tests;
