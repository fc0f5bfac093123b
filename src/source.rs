//! Source text bookkeeping and diagnostics: byte spans, line/column lookup, and the
//! `file:line:col: error: ...` rendering with the offending line and a caret.

use std::fmt;

/// A half-open byte range `[lo, hi)` into a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub lo: usize,
    pub hi: usize,
}

impl Span {
    pub fn new(lo: usize, hi: usize) -> Span {
        Span { lo, hi }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.lo.min(other.lo), self.hi.max(other.hi))
    }
}

/// A named source text with a line index.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, off: usize) -> (usize, usize) {
        let off = off.min(self.text.len());
        let line = match self.line_starts.binary_search(&off) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line];
        let col = self.text[start..floor_char(&self.text, off)]
            .chars()
            .count()
            + 1;
        (line + 1, col)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches('\r')
    }

    /// `file:line:col` of a byte offset.
    pub fn position(&self, off: usize) -> String {
        let (l, c) = self.line_col(off);
        format!("{}:{}:{}", self.name, l, c)
    }

    /// `file:line` of a byte offset.
    pub fn file_line(&self, off: usize) -> String {
        let (l, _) = self.line_col(off);
        format!("{}:{}", self.name, l)
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let lo = floor_char(&self.text, span.lo.min(self.text.len()));
        let hi = floor_char(&self.text, span.hi.min(self.text.len())).max(lo);
        &self.text[lo..hi]
    }
}

/// Characters of an excerpt shown for a line that is not plain text.
pub const EXCERPT_CHARS: usize = 40;

/// First code point of the range that stands for the bytes of a file that are not
/// UTF-8 (`decode_bytes`): byte b is `BYTE_BASE + b`, in a private-use plane.
const BYTE_BASE: u32 = 0x10_FF00;

/// Decode a file's bytes as text, keeping every byte: valid UTF-8 as is, each byte of an
/// invalid sequence as a private-use character that `escape_char` shows as `\xNN`.
/// Returns the text and the byte offset (in the text) of the first invalid byte.
pub fn decode_bytes(bytes: &[u8]) -> (String, Option<usize>) {
    let mut out = String::with_capacity(bytes.len());
    let mut first = None;
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return (out, first);
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                first.get_or_insert(out.len());
                let bad = e.error_len().unwrap_or(rest.len() - good);
                for &b in &rest[good..good + bad] {
                    out.push(char::from_u32(BYTE_BASE + b as u32).unwrap_or('?'));
                }
                rest = &rest[good + bad..];
            }
        }
    }
}

/// A character as shown in an excerpt: control characters and undecodable bytes as
/// `\xNN` (`\u{..}` above 0xFF), everything else as itself.
pub fn escape_char(c: char) -> String {
    let u = c as u32;
    if (BYTE_BASE..BYTE_BASE + 0x100).contains(&u) {
        format!("\\x{:02X}", u - BYTE_BASE)
    } else if c == '\t' {
        " ".to_string()
    } else if c.is_control() || c == '\u{FFFD}' || c == '\u{FEFF}' {
        if u <= 0xFF {
            format!("\\x{u:02X}")
        } else {
            format!("\\u{{{u:X}}}")
        }
    } else {
        c.to_string()
    }
}

/// Whether a line can be shown as it is: no control characters (but tabs), no
/// undecodable bytes, and not absurdly long.
fn is_plain(line: &str) -> bool {
    line.chars().count() <= 400
        && line
            .chars()
            .all(|c| c == '\t' || escape_char(c).chars().count() == 1)
}

/// An escaped excerpt of at most `EXCERPT_CHARS` characters of `line` around character
/// `col` (0-based), with `...` where it is cut: the text, the display column of `col`
/// and the display width of `width` characters from there.
pub fn excerpt(line: &str, col: usize, width: usize) -> (String, usize, usize) {
    let chars: Vec<char> = line.chars().collect();
    let start = col
        .saturating_sub(EXCERPT_CHARS / 4)
        .min(chars.len().saturating_sub(EXCERPT_CHARS));
    let end = (start + EXCERPT_CHARS).min(chars.len());
    let mut out = String::new();
    if start > 0 {
        out.push_str("...");
    }
    let mut at = out.chars().count();
    let mut w = 0;
    for (k, &c) in chars[start..end].iter().enumerate() {
        let e = escape_char(c);
        let len = e.chars().count();
        if start + k < col {
            at += len;
        } else if start + k < col + width {
            w += len;
        }
        out.push_str(&e);
    }
    if end < chars.len() {
        out.push_str("...");
    }
    (out, at, w)
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about a place in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// Extra lines printed after the source excerpt (`help: ...`, `note: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            notes: Vec::new(),
        }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Render as `file:line:col: error: message`, the source line and a caret.
    pub fn render(&self, src: &Source) -> String {
        let (line, col) = src.line_col(self.span.lo);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!(
            "{}:{}:{}: {}: {}\n",
            src.name, line, col, kind, self.message
        );
        let text = src.line_text(line);
        let gutter = line.to_string().len().max(3);
        let (end_line, end_col) = src.line_col(self.span.hi);
        let width = if end_line == line && end_col > col {
            end_col - col
        } else {
            1
        };
        if is_plain(text) {
            out.push_str(&format!("{:>gutter$} | {}\n", line, text));
            // Underline the span up to the end of its first line, at least one caret.
            let prefix: String = text
                .chars()
                .take(col - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                "{:>gutter$} | {}{}\n",
                "",
                prefix,
                "^".repeat(width)
            ));
        } else {
            // Binary or garbled text: a short escaped excerpt around the column.
            let (shown, at, w) = excerpt(text, col - 1, width);
            out.push_str(&format!("{:>gutter$} | {}\n", line, shown));
            out.push_str(&format!(
                "{:>gutter$} | {}{}\n",
                "",
                " ".repeat(at),
                "^".repeat(w.max(1))
            ));
        }
        for n in &self.notes {
            out.push_str(&format!("{:>gutter$} = {}\n", "", n));
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_render() {
        let src = Source::new("m.cub", "type t = A\nvar X : int\n");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(11), (2, 1));
        assert_eq!(src.line_col(19), (2, 9));
        let d = Diagnostic::error(Span::new(19, 22), "unsupported type `int`");
        let r = d.render(&src);
        assert!(r.starts_with("m.cub:2:9: error: unsupported type `int`\n"));
        assert!(r.contains("  2 | var X : int\n"));
        assert!(r.contains("    |         ^^^\n"));
    }

    #[test]
    fn undecodable_bytes_are_kept_and_shown_escaped() {
        let (text, bad) = decode_bytes(b"ab\xffc\xe2\x82");
        assert_eq!(bad, Some(2));
        let shown: String = text.chars().map(escape_char).collect();
        assert_eq!(shown, "ab\\xFFc\\xE2\\x82");
        assert_eq!(decode_bytes("é ok".as_bytes()), ("é ok".to_string(), None));
        assert_eq!(escape_char('\0'), "\\x00");
        assert_eq!(escape_char('\u{7f}'), "\\x7F");
        assert_eq!(escape_char('\u{FFFD}'), "\\u{FFFD}");
        assert_eq!(escape_char('é'), "é");
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        // Short lines are shown whole.
        assert_eq!(excerpt("a\0b", 1, 1), ("a\\x00b".to_string(), 1, 4));
        // Long lines: a window of 40 characters around the column, cut with `...`.
        let line: String = "x".repeat(100) + "\u{1}" + &"y".repeat(100);
        let (shown, at, w) = excerpt(&line, 100, 1);
        assert_eq!(
            shown,
            format!("...{}\\x01{}...", "x".repeat(10), "y".repeat(29))
        );
        assert_eq!((at, w), (13, 4));
        // A rendered diagnostic on such a line shows the excerpt and a caret under it.
        let src = Source::new("b.bin", line.clone());
        let r = Diagnostic::error(Span::new(100, 101), "unexpected character").render(&src);
        assert!(
            r.contains(&format!("  1 | ...{}\\x01", "x".repeat(10))),
            "{r}"
        );
        assert!(
            r.contains(&format!("    | {}^^^^\n", " ".repeat(13))),
            "{r}"
        );
        assert!(!r.contains('\u{1}'));
    }

    #[test]
    fn offsets_past_end_are_clamped() {
        let src = Source::new("m.cub", "ab");
        assert_eq!(src.line_col(10), (1, 3));
        let d = Diagnostic::error(Span::new(2, 2), "unexpected end of file");
        assert!(d.render(&src).contains("m.cub:1:3"));
    }
}

/// The candidate closest to `name` by edit distance, when it is close enough to be a
/// likely typo (at most one edit per three characters, and at least one), for a "did
/// you mean" hint.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod closest_tests {
    use super::closest;

    #[test]
    fn typos_are_matched_and_strangers_are_not() {
        let names = ["Serving", "Next", "Idle", "Want"];
        assert_eq!(closest("Servng", names), Some("Serving"));
        assert_eq!(closest("Nxt", names), Some("Next"));
        assert_eq!(closest("Wnt", names), Some("Want"));
        assert_eq!(closest("Crit", names), None);
        assert_eq!(closest("Serving", names), None);
    }
}
