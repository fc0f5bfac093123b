//! The front end: source text to a checked, typed model (`model::ir::Model`).
//! `lexer` splits text into tokens, `parser` builds the syntax tree (`ast`), `check`
//! resolves names and types; errors are rendered by `source` as `file:line:col: error: ...`.

pub mod ast;
pub mod check;

pub mod lexer;
pub mod parser;

use crate::model::ir::Model;
use crate::source::{self, Diagnostic, Source, Span};

/// A front-end failure: the source it concerns and the diagnostic.
#[derive(Debug)]
pub struct LoadError {
    pub source: Source,
    pub diagnostic: Diagnostic,
    /// The file could not be read at all (the diagnostic has no place in a text).
    pub unreadable: bool,
}

impl LoadError {
    /// The rendered `file:line:col: error: ...` text with the source excerpt.
    pub fn render(&self) -> String {
        if self.unreadable {
            // No text to point into: a file error, not a source location.
            return format!(
                "nfold: error: {}: {}\n",
                self.source.name, self.diagnostic.message
            );
        }
        self.diagnostic.render(&self.source)
    }
}

/// Settings of the loader.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The number of values of every abstract type (`type data`); `None` chooses it
    /// from the text (`model::data`).
    pub data_values: Option<usize>,
    /// The window `lo..hi` over which `int` is checked (`--int-range`); `None` derives
    /// it from the model's literals (`model::ir::IntWindow::default_for`).
    pub int_range: Option<(i64, i64)>,
    /// Read `d1`, `d2`, ... as the values of the model's one abstract type (certificates
    /// name them so; a model's own text cannot).
    pub data_value_names: bool,
}

impl LoadOptions {
    /// The loader settings that give `model` again from its text (the int window and
    /// the number of values of abstract types as they are), e.g. to read the text with
    /// more blocks appended.
    pub fn of(model: &Model) -> LoadOptions {
        LoadOptions {
            // `--data-values` sets every abstract type alike.
            data_values: model
                .data_types
                .first()
                .map(|d| d.values)
                .filter(|&v| model.data_types.iter().all(|d| d.values == v)),
            int_range: model.int_window.as_ref().map(|w| (w.lo, w.hi)),
            data_value_names: false,
        }
    }
}

/// Parse and check a model given as text.
pub fn load_str(name: &str, text: &str) -> Result<Model, Box<LoadError>> {
    load_str_with(name, text, &LoadOptions::default())
}

/// `model` read again from its own text with the int window `window` (the other
/// loader settings as they are): the same model checked over another window.
pub fn with_int_window(model: &Model, window: (i64, i64)) -> Result<Model, Box<LoadError>> {
    let opts = LoadOptions {
        int_range: Some(window),
        ..LoadOptions::of(model)
    };
    load_str_with(&model.source.name, &model.source.text, &opts)
}

/// A model built from another (`model::assume`, `model::ints::abstracted`) printed and read
/// back: its source text is then its own, so that the independent checker, which reads
/// a certificate's lemmas beside the model's text (`proof::check::with_lemmas`), and
/// `nfold certify` check that model, not the one as written. Its spans point into the
/// new text; the marks of how it was built (`assumed`, `abs_ints`) are kept. `what`
/// names it in errors.
pub fn read_back(m: &Model, what: &str) -> Result<Model, String> {
    let text = print::model_text(m);
    let opts = LoadOptions {
        data_value_names: true,
        ..LoadOptions::of(m)
    };
    let mut back = load_str_with(&m.source.name, &text, &opts)
        .map_err(|e| format!("{what} does not read back: {}", e.render()))?;
    if back.transitions.len() != m.transitions.len() || back.inits.len() != m.inits.len() {
        return Err(format!("{what} lost items when read back"));
    }
    back.assumed = m.assumed.clone();
    back.abs_ints = m.abs_ints.clone();
    back.ord_ints = m.ord_ints.clone();
    Ok(back)
}

/// The model's text with `blocks` (whole `unsafe` blocks, one a line) on the lines
/// after it, read with the model's loader settings and the names `d1`, `d2`, ...
/// of abstract values: the blocks are its last properties. How the checker reads a
/// certificate's lemmas and a ranking's formulas, and the ranking search its
/// invariant, each from its own text (docs/internals.md, "The trust base"). An error
/// points into the whole text.
pub fn with_unsafes(model: &Model, blocks: &str) -> Result<Model, Box<LoadError>> {
    let mut text = model.source.text.clone();
    text.push('\n');
    text.push_str(blocks);
    let opts = LoadOptions {
        data_value_names: true,
        ..LoadOptions::of(model)
    };
    load_str_with(&model.source.name, &text, &opts)
}

/// `base`, with `x`s before it until no property of the model starts with it: names
/// for the blocks of `with_unsafes` that no property of the model already has.
pub fn unused_prefix(model: &Model, base: &str) -> String {
    let mut p = base.to_string();
    while model.unsafes.iter().any(|u| u.name.starts_with(&p)) {
        p.insert(0, 'x');
    }
    p
}

/// Parse and check a model given as text, with loader settings.
pub fn load_str_with(name: &str, text: &str, opts: &LoadOptions) -> Result<Model, Box<LoadError>> {
    let source = Source::new(name, text);
    let fail = |d: Diagnostic, source: &Source| {
        Box::new(LoadError {
            source: source.clone(),
            diagnostic: d,
            unreadable: false,
        })
    };
    if let Some(d) = whyml(text) {
        return Err(fail(d, &source));
    }
    let mut toks = lexer::lex(text).map_err(|d| fail(d, &source))?;
    let shadow = shadow_size(&mut toks);
    let candidates = candidate_blocks(&mut toks, &source);
    let file = parser::parse_tokens(&toks, &source).map_err(|d| fail(d, &source))?;
    let mut model = check::check(&file, source.clone(), opts).map_err(|d| fail(d, &source))?;
    let mut front: Vec<Diagnostic> = shadow.into_iter().collect();
    front.extend(candidates);
    front.extend(old_syntax(&toks));
    model.warnings.splice(0..0, front);
    Ok(model)
}

/// A WhyML (Why3) file, which starts with `module` or `theory` (after comments): not a
/// model in Cubicle's language, whatever its extension.
fn whyml(text: &str) -> Option<Diagnostic> {
    let mut rest = text;
    let mut at = 0;
    loop {
        let t = rest.trim_start();
        at += rest.len() - t.len();
        rest = t;
        if let Some(after) = rest.strip_prefix("(*") {
            let end = after.find("*)")? + 4;
            at += end;
            rest = &rest[end..];
        } else {
            break;
        }
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if word != "module" && word != "theory" {
        return None;
    }
    Some(
        Diagnostic::error(
            Span::new(at, at + word.len()),
            format!("not a Cubicle model: `{word}` starts a WhyML (Why3) {word}"),
        )
        .with_note("help: nfold reads Cubicle's `.cub` language (`type`, `var`, `array`, `init`, `transition`, `unsafe`); write the protocol in it"),
    )
}

/// The positions where `word`, a lower-case name, starts a block `word (z1 ... zm) { ...`
/// or `word { ...` (nowhere else can such a name be followed by `{`).
fn word_blocks(toks: &[lexer::Token], word: &str) -> Vec<usize> {
    use lexer::{Kw, Sym, Tok};
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if !matches!(&t.tok, Tok::Lower(w) if w == word) {
            continue;
        }
        // The name of a predicate, transition or property is not a block.
        if k > 0
            && matches!(
                toks[k - 1].tok,
                Tok::Kw(Kw::Predicate | Kw::Transition | Kw::Unsafe | Kw::Ltl)
            )
        {
            continue;
        }
        let mut j = k + 1;
        if toks.get(j).map(|t| &t.tok) == Some(&Tok::Sym(Sym::LParen)) {
            j += 1;
            while let Some(Tok::Lower(_) | Tok::Sym(Sym::Comma)) = toks.get(j).map(|t| &t.tok) {
                j += 1;
            }
            if toks.get(j).map(|t| &t.tok) != Some(&Tok::Sym(Sym::RParen)) {
                continue;
            }
            j += 1;
        }
        if toks.get(j).map(|t| &t.tok) == Some(&Tok::Sym(Sym::LBrace)) {
            out.push(k);
        }
    }
    out
}

/// Cubicle's `candidate (z1 ... zm) { f }` blocks: conjectured invariants, hints for its
/// proof search. They are not part of the transition system, and, unlike `invariant`
/// blocks (claims nfold checks), they are conjectures the file does not make, so nfold
/// drops their tokens before parsing, with one warning.
fn candidate_blocks(toks: &mut Vec<lexer::Token>, source: &Source) -> Option<Diagnostic> {
    let at = word_blocks(toks, "candidate");
    let first = *at.first()?;
    let mut lines: Vec<String> = at
        .iter()
        .take(5)
        .map(|&k| source.line_col(toks[k].span.lo).0.to_string())
        .collect();
    if at.len() > 5 {
        lines.push("...".to_string());
    }
    let span = toks[first].span;
    for &k in at.iter().rev() {
        // The block ends at the brace matching its first `{` (word_blocks found one).
        let mut depth = 0usize;
        // Unclosed: left for the parser to report.
        let mut end = k;
        for (j, t) in toks.iter().enumerate().skip(k) {
            match t.tok {
                lexer::Tok::Sym(lexer::Sym::LBrace) => depth += 1,
                lexer::Tok::Sym(lexer::Sym::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        toks.drain(k..end);
    }
    Some(
        Diagnostic::warning(
            span,
            format!(
                "{} `candidate` block{} ignored (line{} {})",
                at.len(),
                if at.len() == 1 { "" } else { "s" },
                if at.len() == 1 { "" } else { "s" },
                lines.join(", ")
            ),
        )
        .with_note("note: candidates are conjectured invariants, hints for Cubicle's proof search; they are not part of the transition system, so ignoring them changes no state and no verdict"),
    )
}

/// A warning when the file uses Cubicle's old transition syntax (`require`, `uguard`,
/// `assign`, `A[j] := {| ... }`), which the parser read as the current one.
fn old_syntax(toks: &[lexer::Token]) -> Option<Diagnostic> {
    let k = *word_blocks(toks, "require").first()?;
    let count = word_blocks(toks, "require").len();
    Some(
        Diagnostic::warning(
            toks[k].span,
            format!(
                "Cubicle's old transition syntax ({count} transition{}), read as the current one",
                if count == 1 { "" } else { "s" }
            ),
        )
        .with_note("note: `require { f }` is read as `requires { f }`, `uguard (j) { g }` as `&& forall_other j. g`, `assign { ... }` and `A[j] := {| c : t | _ : u }` as one update block with `A[j] := case | c : t | _ : u` (current Cubicle no longer reads this syntax)"),
    )
}

/// A model that declares a variable, constant or array named `N` (Cubicle has no size
/// keyword) means that variable by every `N` of the file: the size keyword is turned
/// into an ordinary name, with a warning at the declaration.
fn shadow_size(toks: &mut [lexer::Token]) -> Option<Diagnostic> {
    use lexer::{Kw, Tok};
    let decl = toks.windows(2).position(|w| {
        matches!(w[0].tok, Tok::Kw(Kw::Var | Kw::Const | Kw::Array))
            && w[1].tok == Tok::Kw(Kw::Size)
    })?;
    let at = toks[decl + 1].span;
    for t in toks.iter_mut() {
        if t.tok == Tok::Kw(Kw::Size) {
            t.tok = Tok::Upper("N".to_string());
        }
    }
    Some(
        Diagnostic::warning(
            at,
            "`N` is declared here, so in this file `N` names this declaration, not the number of processes",
        )
        .with_note("note: the size of an instance is then not available as `N` in this file"),
    )
}

/// Read, parse and check a model file. Non-UTF-8 input is an error at its first bad byte.
pub fn load_file(path: &str) -> Result<Model, Box<LoadError>> {
    load_file_with(path, &LoadOptions::default())
}

/// Read, parse and check a model file, with loader settings.
pub fn load_file_with(path: &str, opts: &LoadOptions) -> Result<Model, Box<LoadError>> {
    let bytes = std::fs::read(path).map_err(|e| {
        Box::new(LoadError {
            source: Source::new(path, ""),
            diagnostic: Diagnostic::error(Span::new(0, 0), format!("cannot read file: {e}")),
            unreadable: true,
        })
    })?;
    match source::decode_bytes(&bytes) {
        (text, None) => load_str_with(path, &text, opts),
        (text, Some(bad)) => {
            // The undecodable bytes are kept as characters that print as `\xNN`, so the
            // excerpt shows them escaped and never echoes raw bytes.
            let len = text[bad..].chars().next().map_or(1, char::len_utf8);
            Err(Box::new(LoadError {
                unreadable: false,
                source: Source::new(path, text),
                diagnostic: Diagnostic::error(
                    Span::new(bad, bad + len),
                    "the file is not valid UTF-8 text",
                )
                .with_note("note: a model is a UTF-8 text file; is this a binary file?"),
            }))
        }
    }
}
pub mod print;
