//! The text of a counting lemma (`proof::count` decides one): a cube whose atoms may
//! count processes,
//!
//! ```text
//! lemma not (#{x : Pc[x] = Reading} <> Cnt)
//! lemma sizes 4..4: not (#{x : Pc[x] = Writing} >= 1 && W = False)
//! ```
//!
//! split into its counting atoms `#{x : P} OP E` (P, E and the other conjuncts kept
//! as text, to be read back as formulas of the model). Part of the certificate's text,
//! so the engine that writes such lemmas (IC3's counter view) and the checker read
//! them with one parser (docs/internals.md, "The trust base").

use crate::model::ir::CmpOp;

/// One counting atom `#{var : pred} op rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountAtom {
    pub var: String,
    pub pred: String,
    pub op: CmpOp,
    pub rhs: String,
}

impl CountAtom {
    /// The right-hand side as an integer literal, when it is one.
    pub fn literal(&self) -> Option<i64> {
        self.rhs.trim().parse().ok()
    }
}

/// A counting lemma's body: its counting atoms and the other conjuncts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountCube {
    pub atoms: Vec<CountAtom>,
    pub rest: Vec<String>,
}

/// Split at `&&` outside parentheses and braces.
fn conjuncts(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && c == '&' && cs.get(i + 1) == Some(&'&') {
            out.push(cur.trim().to_string());
            cur.clear();
            i += 2;
            continue;
        }
        cur.push(c);
        i += 1;
    }
    out.push(cur.trim().to_string());
    out
}

/// Parse a lemma body: `None` when it counts nothing.
pub fn parse(body: &str) -> Result<Option<CountCube>, String> {
    if !body.contains("#{") {
        return Ok(None);
    }
    let mut cube = CountCube {
        atoms: Vec::new(),
        rest: Vec::new(),
    };
    for c in conjuncts(body) {
        let Some(inner) = c.strip_prefix("#{") else {
            if c.contains("#{") {
                return Err(format!(
                    "`{c}`: a count `#{{x : P}}` must stand alone on the left of a comparison"
                ));
            }
            cube.rest.push(c);
            continue;
        };
        let close = inner.find('}').ok_or("`#{` without its `}`")?;
        let (head, after) = (&inner[..close], inner[close + 1..].trim());
        let (var, pred) = head.split_once(':').ok_or("expected `#{x : P}`")?;
        let var = var.trim();
        if var.is_empty()
            || !var.starts_with(|ch: char| ch.is_ascii_lowercase())
            || !var
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            return Err(format!("`{var}` is not a process variable name"));
        }
        let ops = [
            (">=", CmpOp::Ge),
            ("<=", CmpOp::Le),
            ("<>", CmpOp::Ne),
            ("=", CmpOp::Eq),
            (">", CmpOp::Gt),
            ("<", CmpOp::Lt),
        ];
        let (op, rhs) = ops
            .iter()
            .find_map(|(t, op)| after.strip_prefix(t).map(|r| (*op, r.trim())))
            .ok_or_else(|| format!("expected a comparison after the count in `{c}`"))?;
        if rhs.is_empty() || rhs.contains("#{") || pred.contains("#{") || pred.contains('}') {
            return Err(format!(
                "`{c}`: expected `#{{x : P}} OP E`, E without counts"
            ));
        }
        cube.atoms.push(CountAtom {
            var: var.to_string(),
            pred: pred.trim().to_string(),
            op,
            rhs: rhs.to_string(),
        });
    }
    Ok(Some(cube))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_atoms_and_the_rest() {
        let c = parse("#{x : Pc[x] = A || Pc[x] = B} <> N - Cnt && W = False")
            .unwrap()
            .unwrap();
        assert_eq!(c.atoms.len(), 1);
        assert_eq!(c.atoms[0].pred, "Pc[x] = A || Pc[x] = B");
        assert_eq!(c.atoms[0].op, CmpOp::Ne);
        assert_eq!(c.atoms[0].rhs, "N - Cnt");
        assert_eq!(c.rest, vec!["W = False".to_string()]);
        assert!(parse("W = False").unwrap().is_none());
        assert!(parse("1 + #{x : P[x]} = 2").is_err());
        assert!(parse("#{X : P[X]} = 2").is_err());
    }
}
