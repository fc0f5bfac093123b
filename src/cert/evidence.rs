//! The evidence a certificate carries (`Certificate::evidence`), one kind each: an
//! invariant by k-induction, diagrams (an inductive invariant some of whose lemmas are
//! binary decision diagrams), or a ranking proof. Each kind's data, its lines of the
//! text form and their reading live here, and each kind has its own checker in
//! `proof::check`; so a new kind of evidence is a variant here and a checker there.

use super::Certificate;

/// The kinds of evidence a certificate carries, each checked by its own checker
/// (`proof::check`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The lemmas are a `k`-inductive invariant (`induction k`; with `simple_path`,
    /// over runs of pairwise distinct states only).
    Induction { k: usize, simple_path: bool },
    /// The lemmas are an inductive invariant, some of them binary decision diagrams
    /// over these nodes (node k is `nodes[k - 1]`; the `node` lines).
    Diagrams(Vec<BddNode>),
    /// A ranking proof of the `liveness` property on the model itself, over the
    /// lemmas as an inductive invariant (the `ranking`, `phase` and `weight` lines).
    Ranking(Ranking),
}

impl Default for Evidence {
    fn default() -> Evidence {
        Evidence::Induction {
            k: 1,
            simple_path: false,
        }
    }
}

impl Certificate {
    /// The invariant is `induction()`-inductive (1: inductive).
    pub fn induction(&self) -> usize {
        self.evidence.induction().0
    }

    /// Induction over runs of pairwise distinct states only.
    pub fn simple_path(&self) -> bool {
        self.evidence.induction().1
    }

    /// The nodes of the diagrams the `bdd` lemmas name (none but for diagrams).
    pub fn nodes(&self) -> &[BddNode] {
        match &self.evidence {
            Evidence::Diagrams(nodes) => nodes,
            _ => &[],
        }
    }

    /// The ranking of a ranking proof.
    pub fn ranking(&self) -> Option<&Ranking> {
        match &self.evidence {
            Evidence::Ranking(r) => Some(r),
            _ => None,
        }
    }
}

impl Evidence {
    /// The evidence of an inductive invariant whose `bdd` lemmas name `nodes`: without
    /// nodes, a plain inductive invariant (as its text reads back).
    pub fn of_diagrams(nodes: Vec<BddNode>) -> Evidence {
        if nodes.is_empty() {
            Evidence::default()
        } else {
            Evidence::Diagrams(nodes)
        }
    }

    /// The depth of induction and whether it is over simple paths (diagrams and
    /// rankings are of inductive invariants: 1, no).
    fn induction(&self) -> (usize, bool) {
        match *self {
            Evidence::Induction { k, simple_path } => (k, simple_path),
            Evidence::Diagrams(_) | Evidence::Ranking(_) => (1, false),
        }
    }

    /// The `induction K [simple-path]` line (diagrams and rankings: `induction 1`).
    pub(super) fn induction_line(&self) -> String {
        let (k, simple_path) = self.induction();
        let sp = if simple_path { " simple-path" } else { "" };
        format!("induction {k}{sp}\n")
    }

    /// The kind's own lines written after the `liveness` line: a ranking proof's
    /// `ranking`, `phase` and `weight` lines.
    pub(super) fn head_lines(&self) -> String {
        let Evidence::Ranking(r) = self else {
            return String::new();
        };
        let mut out = format!("ranking {} {}\n", r.var, r.other);
        for (k, ph) in r.phases.iter().enumerate() {
            let kind = if ph.helpful { "helpful" } else { "ranked" };
            out.push_str(&format!("phase {} {kind}: {}\n", k + 1, ph.formula));
            for (w, f) in &ph.weights {
                out.push_str(&format!("weight {} {w}: {f}\n", k + 1));
            }
        }
        out
    }

    /// The kind's own lines written after the claims: the `node` lines of diagrams.
    pub(super) fn tail_lines(&self) -> String {
        let Evidence::Diagrams(nodes) = self else {
            return String::new();
        };
        let lines = nodes.iter().enumerate();
        lines
            .map(|(k, n)| format!("node {} {}\n", k + 1, n.text()))
            .collect()
    }

    /// Reads the line `word rest` when it is one of the evidence's; `None` for the
    /// certificate's other lines.
    pub(super) fn read_line(&mut self, word: &str, rest: &str) -> Option<Result<(), String>> {
        Some(match word {
            "induction" => set_induction(self, rest),
            "node" => self.push_node(rest),
            "ranking" => {
                parse_ranking(rest).and_then(|r| become_(self, Evidence::Ranking(r), word))
            }
            "phase" => parse_phase(self, rest),
            "weight" => parse_weight(self, rest),
            _ => return None,
        })
    }

    /// Reads a `node` line: the next node of the diagrams.
    fn push_node(&mut self, rest: &str) -> Result<(), String> {
        if !matches!(self, Evidence::Diagrams(_)) {
            become_(self, Evidence::Diagrams(Vec::new()), "node")?;
        }
        if let Evidence::Diagrams(nodes) = self {
            nodes.push(BddNode::parse(rest, nodes.len() + 1)?);
        }
        Ok(())
    }
}

/// A ranking proof of a response property (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    /// The name of the property's process in the formulas.
    pub var: String,
    /// The name of another process in the weight formulas.
    pub other: String,
    /// Nearest the goal first.
    pub phases: Vec<RankPhase>,
}

/// One phase of a ranking proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankPhase {
    /// The property's process is enabled throughout and must leave (weak fairness);
    /// otherwise the weights must fall.
    pub helpful: bool,
    pub formula: String,
    /// Weight formulas over `var` and `other`, the first that holds counts.
    pub weights: Vec<(u64, String)>,
}

/// A reference to a diagram: a constant, or a node (1-based), perhaps negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BddRef {
    Const(bool),
    Node { id: usize, neg: bool },
}

impl BddRef {
    pub fn text(self) -> String {
        match self {
            BddRef::Const(true) => "T".into(),
            BddRef::Const(false) => "F".into(),
            BddRef::Node { id, neg } => format!("{}{id}", if neg { "-" } else { "" }),
        }
    }

    pub(super) fn parse(t: &str) -> Result<BddRef, String> {
        match t {
            "T" => Ok(BddRef::Const(true)),
            "F" => Ok(BddRef::Const(false)),
            _ => {
                let (neg, n) = match t.strip_prefix('-') {
                    Some(n) => (true, n),
                    None => (false, t),
                };
                let id = n
                    .parse::<usize>()
                    .ok()
                    .filter(|&id| id >= 1)
                    .ok_or_else(|| format!("`{t}` is not a node reference (T, F, N or -N)"))?;
                Ok(BddRef::Node { id, neg })
            }
        }
    }

    /// The node it names, if any.
    pub fn node(self) -> Option<usize> {
        match self {
            BddRef::Node { id, .. } => Some(id),
            BddRef::Const(_) => None,
        }
    }
}

/// A node of a binary decision diagram: `then` where bit `bit` of (the value of
/// `cell` minus `lo`) is 1, `else_` otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BddNode {
    pub cell: String,
    pub bit: u32,
    pub lo: i64,
    pub then: BddRef,
    pub else_: BddRef,
}

impl BddNode {
    /// The line after `node ID`.
    fn text(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.cell,
            self.bit,
            self.lo,
            self.then.text(),
            self.else_.text()
        )
    }

    /// Parse `ID CELL B L THEN ELSE` for node `expect`.
    pub(super) fn parse(line: &str, expect: usize) -> Result<BddNode, String> {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 6 {
            return Err("expected `node ID CELL BIT LO THEN ELSE`".into());
        }
        let id: usize = t[0]
            .parse()
            .map_err(|_| format!("`{}` is not a node number", t[0]))?;
        if id != expect {
            return Err(format!(
                "expected node {expect} here (nodes are numbered in order)"
            ));
        }
        let k = t.len();
        let bit: u32 = t[k - 4]
            .parse()
            .ok()
            .filter(|&b| b < 63)
            .ok_or_else(|| format!("`{}` is not a bit position", t[k - 4]))?;
        let lo: i64 = t[k - 3]
            .parse()
            .map_err(|_| format!("`{}` is not a number", t[k - 3]))?;
        let then = BddRef::parse(t[k - 2])?;
        let else_ = BddRef::parse(t[k - 1])?;
        for r in [then, else_] {
            if let Some(c) = r.node().filter(|&c| c >= id) {
                return Err(format!(
                    "node {id} refers to node {c}, which is not before it"
                ));
            }
        }
        Ok(BddNode {
            cell: t[1..k - 4].join(" "),
            bit,
            lo,
            then,
            else_,
        })
    }
}

/// Reads the `induction K [simple-path]` line into `e`: the depth of an invariant by
/// induction; diagrams and rankings are of inductive invariants (`induction 1`).
fn set_induction(e: &mut Evidence, rest: &str) -> Result<(), String> {
    let (k, simple_path) = parse_induction(rest)?;
    match e {
        Evidence::Induction { .. } => *e = Evidence::Induction { k, simple_path },
        _ if k == 1 && !simple_path => {}
        _ => return become_(e, Evidence::Induction { k, simple_path }, "induction"),
    }
    Ok(())
}

/// Makes `e` the evidence `kind` (read from a `line` line) while it is still the
/// default, an inductive invariant: a certificate carries one kind of evidence.
fn become_(e: &mut Evidence, kind: Evidence, line: &str) -> Result<(), String> {
    if *e != Evidence::default() {
        let has = match e {
            Evidence::Induction { .. } => "an invariant by k-induction",
            Evidence::Diagrams(_) => "diagrams",
            Evidence::Ranking(_) => "a ranking",
        };
        return Err(format!(
            "a `{line}` line in a certificate that already has {has}: a certificate carries one kind of evidence"
        ));
    }
    *e = kind;
    Ok(())
}

/// The `induction K [simple-path]` line's depth and whether it says `simple-path`.
fn parse_induction(rest: &str) -> Result<(usize, bool), String> {
    let (k, sp) = match rest.strip_suffix(" simple-path") {
        Some(k) => (k, true),
        None => (rest, false),
    };
    let k = k
        .trim()
        .parse()
        .ok()
        .filter(|&k: &usize| k >= 1)
        .ok_or("expected a depth of at least 1")?;
    Ok((k, sp))
}

/// The `ranking VAR OTHER` line, before its phases.
fn parse_ranking(rest: &str) -> Result<Ranking, String> {
    let names: Vec<&str> = rest.split_whitespace().collect();
    let ok = |n: &str| {
        n.starts_with(|c: char| c.is_ascii_lowercase())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if names.len() != 2 || !names.iter().all(|n| ok(n)) || names[0] == names[1] {
        return Err("expected `ranking VAR OTHER` (two process names)".into());
    }
    Ok(Ranking {
        var: names[0].to_string(),
        other: names[1].to_string(),
        phases: Vec::new(),
    })
}

/// The ranking a `word` line of a ranking adds to, and the line's `K X: FORMULA` after
/// the word as (K, X, FORMULA); `form` is the whole line's form, for the error.
fn ranking_line<'e, 'r>(
    e: &'e mut Evidence,
    word: &str,
    form: &str,
    rest: &'r str,
) -> Result<(&'e mut Ranking, &'r str, &'r str, &'r str), String> {
    let Evidence::Ranking(r) = e else {
        return Err(format!("a `{word}` line before the `ranking` line"));
    };
    let expected = || format!("expected `{form}`");
    let (head, f) = rest.split_once(':').ok_or_else(expected)?;
    let (k, x) = head.trim().split_once(' ').ok_or_else(expected)?;
    Ok((r, k, x, f))
}

/// Adds the `phase K helpful|ranked: FORMULA` line to the ranking.
fn parse_phase(e: &mut Evidence, rest: &str) -> Result<(), String> {
    let (r, k, kind, f) = ranking_line(e, "phase", "phase K helpful|ranked: FORMULA", rest)?;
    if k.trim().parse::<usize>().ok() != Some(r.phases.len() + 1) {
        return Err(format!(
            "expected phase {} here (phases are numbered in order)",
            r.phases.len() + 1
        ));
    }
    let helpful = match kind.trim() {
        "helpful" => true,
        "ranked" => false,
        other => return Err(format!("`{other}` is not helpful or ranked")),
    };
    r.phases.push(RankPhase {
        helpful,
        formula: f.trim().to_string(),
        weights: Vec::new(),
    });
    Ok(())
}

/// Adds the `weight K W: FORMULA` line to phase K of the ranking.
fn parse_weight(e: &mut Evidence, rest: &str) -> Result<(), String> {
    let (r, k, w, f) = ranking_line(e, "weight", "weight K W: FORMULA", rest)?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{k}` is not a phase"))?;
    let w: u64 = w
        .trim()
        .parse()
        .map_err(|_| format!("`{w}` is not a weight"))?;
    let ph = k
        .checked_sub(1)
        .and_then(|k| r.phases.get_mut(k))
        .ok_or(format!(
            "weight of phase {k}, which is not declared before it"
        ))?;
    if ph.helpful {
        return Err(format!("phase {k} is helpful: it has no weights"));
    }
    ph.weights.push((w, f.trim().to_string()));
    Ok(())
}
