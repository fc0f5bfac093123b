//! The front end: source text to a checked, typed model (`model::ir::Model`).
//! `lexer` splits text into tokens, `parser` builds the syntax tree (`ast`), `check`
//! resolves names and types; `diag` renders errors as `file:line:col: error: ...`.

pub mod ast;
pub mod check;
pub mod diag;
pub mod lexer;
pub mod parser;

use crate::model::ir::Model;
use diag::{Diagnostic, Source, Span};

/// A front-end failure: the source it concerns and the diagnostic.
#[derive(Debug)]
pub struct LoadError {
    pub source: Source,
    pub diagnostic: Diagnostic,
}

impl LoadError {
    /// The rendered `file:line:col: error: ...` text with the source excerpt.
    pub fn render(&self) -> String {
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
}

/// Parse and check a model given as text.
pub fn load_str(name: &str, text: &str) -> Result<Model, Box<LoadError>> {
    load_str_with(name, text, &LoadOptions::default())
}

/// Parse and check a model given as text, with loader settings.
pub fn load_str_with(name: &str, text: &str, opts: &LoadOptions) -> Result<Model, Box<LoadError>> {
    let source = Source::new(name, text);
    let fail = |d: Diagnostic, source: &Source| {
        Box::new(LoadError {
            source: source.clone(),
            diagnostic: d,
        })
    };
    let mut toks = lexer::lex(text).map_err(|d| fail(d, &source))?;
    let shadow = shadow_size(&mut toks);
    let file = parser::parse_tokens(&toks).map_err(|d| fail(d, &source))?;
    let mut model = check::check(&file, source.clone(), opts).map_err(|d| fail(d, &source))?;
    if let Some(w) = shadow {
        model.warnings.insert(0, w);
    }
    Ok(model)
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
        })
    })?;
    match diag::decode_bytes(&bytes) {
        (text, None) => load_str_with(path, &text, opts),
        (text, Some(bad)) => {
            // The undecodable bytes are kept as characters that print as `\xNN`, so the
            // excerpt shows them escaped and never echoes raw bytes.
            let len = text[bad..].chars().next().map_or(1, char::len_utf8);
            Err(Box::new(LoadError {
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
