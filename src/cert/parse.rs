//! Certificates read back from text (`Certificate::parse`, `parse_all`): one line per
//! fact, as `Certificate::to_text` writes them; errors name the line.

use super::*;

impl Certificate {
    /// Parse a file of one or more certificates (each opening with the
    /// `# nfold certificate` header line that `to_text` writes, as `check --certificate`
    /// writes one per property proved: the `unsafe` properties' and one per `ltl`
    /// property's liveness product). Errors name the line in the whole text.
    pub fn parse_all(text: &str) -> Result<Vec<Certificate>, (Span, String)> {
        let mut starts: Vec<usize> = text
            .match_indices("# nfold certificate")
            .map(|(i, _)| i)
            .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
            .collect();
        if starts.first() != Some(&0) {
            starts.insert(0, 0);
        }
        let mut out = Vec::new();
        for (k, &a) in starts.iter().enumerate() {
            let b = starts.get(k + 1).copied().unwrap_or(text.len());
            let part = &text[a..b];
            if k == 0 && part.trim().is_empty() && starts.len() > 1 {
                continue;
            }
            let c =
                Certificate::parse(part).map_err(|(sp, m)| (Span::new(sp.lo + a, sp.hi + a), m))?;
            out.push(c);
        }
        Ok(out)
    }

    /// Parse the text form; errors name the line.
    pub fn parse(text: &str) -> Result<Certificate, (Span, String)> {
        let mut c = Certificate {
            model: String::new(),
            hash: 0,
            sizes: (1, 1),
            engine: String::new(),
            ..Certificate::default()
        };
        let mut ranks = false;
        let mut off = 0;
        let mut seen_sizes = false;
        for line in text.split_inclusive('\n') {
            let start = off;
            off += line.len();
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let span = Span::new(start, start + line.trim_end().len());
            let (word, rest) = l.split_once(' ').unwrap_or((l, ""));
            let rest = rest.trim();
            parse_line(&mut c, word, rest, &mut ranks, &mut seen_sizes).map_err(|e| (span, e))?;
        }
        if ranks != c.ranking().is_some() {
            return Err((
                Span::new(0, 0),
                "a ranking proof needs both `liveness NAME [fair] ranks` and `ranking VAR OTHER`"
                    .into(),
            ));
        }
        if !seen_sizes {
            return Err((
                Span::new(0, 0),
                "the certificate has no `sizes` line".into(),
            ));
        }
        if let Some(id) = c
            .lemmas
            .iter()
            .filter_map(|l| l.bdd.and_then(BddRef::node))
            .find(|&id| id > c.nodes().len())
        {
            return Err((
                Span::new(0, 0),
                format!("a lemma names node {id}, which the certificate lacks"),
            ));
        }
        Ok(c)
    }
}

/// Reads one line, `word rest`, into `c` (`ranks`: the `liveness` line ends in `ranks`;
/// `seen_sizes`: a `sizes` line was read).
fn parse_line(
    c: &mut Certificate,
    word: &str,
    rest: &str,
    ranks: &mut bool,
    seen_sizes: &mut bool,
) -> Result<(), String> {
    match word {
        "model" => {
            let (name, hash) = rest.rsplit_once(' ').ok_or("expected `model NAME HASH`")?;
            c.model = name.to_string();
            c.hash = u64::from_str_radix(hash, 16)
                .map_err(|_| format!("`{hash}` is not a hexadecimal hash"))?;
        }
        "sizes" => {
            c.sizes = parse_range(rest)?;
            *seen_sizes = true;
        }
        "engine" => c.engine = rest.to_string(),
        "ints" => {
            let w = rest.split_once("..").and_then(|(a, b)| {
                Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?))
            });
            c.ints = Some(w.ok_or("expected `ints LO..HI`")?);
        }
        "induction" => set_induction(c, rest)?,
        "proves" => {
            let (p, s) = rest
                .split_once(" at ")
                .ok_or("expected `proves PROPERTY at SIZES`")?;
            c.proves.push((p.trim().to_string(), parse_sizes_list(s)?));
        }
        "lemma" => c.lemmas.push(CertLemma::parse(rest)?),
        "node" => {
            let n = BddNode::parse(rest, c.nodes().len() + 1)?;
            if !matches!(c.evidence, Evidence::Diagrams(_)) {
                become_(c, Evidence::Diagrams(Vec::new()), word)?;
            }
            if let Evidence::Diagrams(nodes) = &mut c.evidence {
                nodes.push(n);
            }
        }
        "liveness" => parse_liveness(c, rest, ranks)?,
        "ranking" => become_(c, Evidence::Ranking(parse_ranking(rest)?), word)?,
        "phase" => parse_phase(c, rest)?,
        "weight" => parse_weight(c, rest)?,
        "assume" => {
            c.assume = rest
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect();
            if c.assume.is_empty() {
                return Err("expected `assume INVARIANT, ...`".into());
            }
        }
        "reduced" => c.reduced = Some(Reduced::parse(rest)?),
        "abstraction" => {
            if rest != "ints" {
                return Err("expected `abstraction ints`".into());
            }
            c.abstraction = true;
        }
        "every" => c.every = Some(parse_cutoff(rest)?),
        _ => {
            return Err(format!(
                "unknown line `{word}` (expected model, sizes, engine, ints, induction, every, assume, abstraction, liveness, ranking, phase, weight, proves, node or lemma)"
            ));
        }
    }
    Ok(())
}

/// Reads the `induction K [simple-path]` line into `c`: the depth of an invariant by
/// induction; diagrams and rankings are of inductive invariants (`induction 1`).
fn set_induction(c: &mut Certificate, rest: &str) -> Result<(), String> {
    let (k, simple_path) = parse_induction(rest)?;
    match c.evidence {
        Evidence::Induction { .. } => c.evidence = Evidence::Induction { k, simple_path },
        _ if k == 1 && !simple_path => {}
        _ => return become_(c, Evidence::Induction { k, simple_path }, "induction"),
    }
    Ok(())
}

/// Gives `c` the evidence `kind` (read from a `line` line) while it still has the
/// default, an inductive invariant: a certificate carries one kind of evidence.
fn become_(c: &mut Certificate, kind: Evidence, line: &str) -> Result<(), String> {
    if c.evidence != Evidence::default() {
        let has = match c.evidence {
            Evidence::Induction { .. } => "an invariant by k-induction",
            Evidence::Diagrams(_) => "diagrams",
            Evidence::Ranking(_) => "a ranking",
        };
        return Err(format!(
            "a `{line}` line in a certificate that already has {has}: a certificate carries one kind of evidence"
        ));
    }
    c.evidence = kind;
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

/// The cutoff of the `every n cutoff C` line.
fn parse_cutoff(rest: &str) -> Result<usize, String> {
    let k = rest
        .strip_prefix("n cutoff ")
        .ok_or("expected `every n cutoff C`")?;
    k.trim()
        .parse()
        .ok()
        .filter(|&k: &usize| k >= 1)
        .ok_or_else(|| "expected a cutoff of at least 1".into())
}

/// Reads the `liveness NAME [fair] [counting K | ranks]` line into `c`.
fn parse_liveness(c: &mut Certificate, rest: &str, ranks: &mut bool) -> Result<(), String> {
    let (rest, counting) = match rest.rsplit_once(" counting ") {
        Some((r, k)) => (
            r.trim(),
            Some(
                k.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or("expected a bound of at least 1 after `counting`")?,
            ),
        ),
        None => (rest, None),
    };
    c.klive = counting;
    let rest = match rest.strip_suffix(" ranks") {
        Some(r) => {
            *ranks = true;
            r.trim()
        }
        None => rest,
    };
    let (name, fair) = match rest.strip_suffix(" fair") {
        Some(n) => (n.trim(), true),
        None => (rest, false),
    };
    if name.is_empty() || name.contains(' ') {
        return Err("expected `liveness PROPERTY [fair] [counting K | ranks]`".into());
    }
    c.liveness = Some((name.to_string(), fair));
    Ok(())
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

/// Adds the `phase K helpful|ranked: FORMULA` line to `c`'s ranking.
fn parse_phase(c: &mut Certificate, rest: &str) -> Result<(), String> {
    let Evidence::Ranking(r) = &mut c.evidence else {
        return Err("a `phase` line before the `ranking` line".into());
    };
    let (head, f) = rest
        .split_once(':')
        .ok_or("expected `phase K helpful|ranked: FORMULA`")?;
    let (k, kind) = head
        .trim()
        .split_once(' ')
        .ok_or("expected `phase K helpful|ranked: FORMULA`")?;
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

/// Adds the `weight K W: FORMULA` line to phase K of `c`'s ranking.
fn parse_weight(c: &mut Certificate, rest: &str) -> Result<(), String> {
    let Evidence::Ranking(r) = &mut c.evidence else {
        return Err("a `weight` line before the `ranking` line".into());
    };
    let (head, f) = rest
        .split_once(':')
        .ok_or("expected `weight K W: FORMULA`")?;
    let (k, w) = head
        .trim()
        .split_once(' ')
        .ok_or("expected `weight K W: FORMULA`")?;
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
