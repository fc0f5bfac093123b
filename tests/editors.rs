//! The editor grammar (editors/vscode) must not fall behind the language: every
//! reserved word of the lexer's keyword table is highlighted as a keyword, and the
//! grammar lists no keyword the lexer does not have. The keyword table is read from
//! the lexer's source text (its `("word", Kw::...)` pairs), so a keyword added there
//! without updating the grammar fails this test.

use std::collections::BTreeSet;
use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"))
}

fn json(rel: &str) -> serde_json::Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel} is not valid JSON: {e}"))
}

/// The words of `const KEYWORDS: &[(&str, Kw)] = &[ ("type", Kw::Type), ... ];`.
fn lexer_keywords() -> BTreeSet<String> {
    let src = read("src/lang/lexer.rs");
    let start = src
        .find("const KEYWORDS")
        .expect("src/lang/lexer.rs has no `const KEYWORDS` table");
    let table = &src[start..];
    let table = &table[..table
        .find("];")
        .expect("the keyword table is not closed by `];`")];
    let mut words = BTreeSet::new();
    let mut rest = table;
    while let Some(at) = rest.find("(\"") {
        rest = &rest[at + 2..];
        let end = rest.find('"').expect("unterminated keyword string");
        let word = &rest[..end];
        let after = rest[end + 1..].trim_start();
        assert!(
            after.starts_with(',') && after[1..].trim_start().starts_with("Kw::"),
            "unexpected entry in the keyword table near {word:?}"
        );
        words.insert(word.to_string());
        rest = &rest[end + 1..];
    }
    words
}

/// Every word that appears in a `match` regex of the grammar's `keywords` patterns.
fn grammar_keywords(grammar: &serde_json::Value) -> BTreeSet<String> {
    let patterns = grammar["repository"]["keywords"]["patterns"]
        .as_array()
        .expect("the grammar has no repository.keywords.patterns array");
    let mut words = BTreeSet::new();
    for p in patterns {
        let re = p["match"]
            .as_str()
            .expect("every keywords pattern has a `match` string");
        let re = re.replace("\\b", " ");
        for w in re.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !w.is_empty() {
                words.insert(w.to_string());
            }
        }
    }
    words
}

#[test]
fn grammar_keywords_match_the_lexer() {
    let lexer = lexer_keywords();
    assert!(
        lexer.len() >= 20 && lexer.contains("transition") && lexer.contains("N"),
        "reading the lexer's keyword table went wrong: {lexer:?}"
    );
    let grammar = grammar_keywords(&json("editors/vscode/syntaxes/cub.tmLanguage.json"));
    let missing: Vec<_> = lexer.difference(&grammar).collect();
    assert!(
        missing.is_empty(),
        "keywords of src/lang/lexer.rs missing from the grammar's `keywords` patterns \
         (editors/vscode/syntaxes/cub.tmLanguage.json): {missing:?}"
    );
    let extra: Vec<_> = grammar.difference(&lexer).collect();
    assert!(
        extra.is_empty(),
        "the grammar's `keywords` patterns list words the lexer does not reserve: {extra:?}"
    );
}

#[test]
fn extension_files_parse_and_agree() {
    let grammar = json("editors/vscode/syntaxes/cub.tmLanguage.json");
    let package = json("editors/vscode/package.json");
    let config = json("editors/vscode/language-configuration.json");
    assert_eq!(grammar["scopeName"], "source.cub");
    let lang = &package["contributes"]["languages"][0];
    assert_eq!(lang["id"], "cub");
    assert_eq!(lang["extensions"][0], ".cub");
    let g = &package["contributes"]["grammars"][0];
    assert_eq!(g["language"], "cub");
    assert_eq!(g["scopeName"], grammar["scopeName"]);
    for rel in [g["path"].as_str(), lang["configuration"].as_str()] {
        let rel = rel.expect("package.json names its grammar and configuration files");
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("editors/vscode")
            .join(rel);
        assert!(
            path.is_file(),
            "package.json points at a missing file: {rel}"
        );
    }
    assert_eq!(config["comments"]["lineComment"], "//");
    assert_eq!(config["comments"]["blockComment"][0], "(*");
    assert_eq!(config["comments"]["blockComment"][1], "*)");
}
