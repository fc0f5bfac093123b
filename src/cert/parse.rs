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
    if let Some(read) = c.evidence.read_line(word, rest) {
        return read;
    }
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
        "proves" => {
            let (p, s) = rest
                .split_once(" at ")
                .ok_or("expected `proves PROPERTY at SIZES`")?;
            c.proves.push((p.trim().to_string(), parse_sizes_list(s)?));
        }
        "lemma" => c.lemmas.push(CertLemma::parse(rest)?),
        "liveness" => parse_liveness(c, rest, ranks)?,
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
            let diff = rest
                .strip_prefix("order diff ")
                .map(|k| k.trim().parse::<i64>().ok().filter(|&k| k >= 1));
            if rest != "ints" && rest != "order" && !matches!(diff, Some(Some(_))) {
                return Err(
                    "expected `abstraction ints`, `abstraction order` or `abstraction order diff K` (K ≥ 1)"
                        .into(),
                );
            }
            c.abstraction = true;
            c.order = rest != "ints";
            c.order_diff = diff.flatten().unwrap_or(0);
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
