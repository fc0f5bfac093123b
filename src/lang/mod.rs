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

/// Parse and check a model given as text.
pub fn load_str(name: &str, text: &str) -> Result<Model, Box<LoadError>> {
    let source = Source::new(name, text);
    let fail = |d: Diagnostic, source: &Source| {
        Box::new(LoadError {
            source: source.clone(),
            diagnostic: d,
        })
    };
    let toks = lexer::lex(text).map_err(|d| fail(d, &source))?;
    let file = parser::parse_tokens(&toks).map_err(|d| fail(d, &source))?;
    check::check(&file, source.clone()).map_err(|d| fail(d, &source))
}

/// Read, parse and check a model file. Non-UTF-8 input is an error at its first bad byte.
pub fn load_file(path: &str) -> Result<Model, Box<LoadError>> {
    let bytes = std::fs::read(path).map_err(|e| {
        Box::new(LoadError {
            source: Source::new(path, ""),
            diagnostic: Diagnostic::error(Span::new(0, 0), format!("cannot read file: {e}")),
        })
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => load_str(path, &text),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            Err(Box::new(LoadError {
                source: Source::new(path, text),
                diagnostic: Diagnostic::error(
                    Span::new(good, good + 1),
                    "the file is not valid UTF-8 text",
                ),
            }))
        }
    }
}
pub mod print;
