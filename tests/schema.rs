//! The JSON documents' schema: `docs/schema.json` is what `nfold schema` prints (the
//! JSON Schema generated from `src/schema.rs`, the types that write and read every
//! document), and real documents of every command read back through those types.

use crate::common;
use common::nfold;
use nfold::schema::{CertifyDoc, CheckDoc, ErrorDoc, ReplayDoc, SCHEMA_VERSION, SimulateDoc};

#[test]
fn docs_schema_is_the_generated_one() {
    let (code, out, _) = nfold(&["schema"]);
    assert_eq!(code, 0);
    let docs = std::fs::read_to_string(format!("{}/docs/schema.json", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let want: serde_json::Value = serde_json::from_str(&docs).unwrap();
    assert!(
        got == want,
        "docs/schema.json is out of date: run `nfold schema > docs/schema.json`"
    );
}

#[test]
fn every_document_reads_back_through_its_type() {
    let dir = common::scratch_dir("schema");
    let trail = dir.join("t.json");
    let cert = dir.join("c.cert");
    let (code, out, _) = nfold(&[
        "check",
        "families/mutex_bug.cub",
        "--sizes",
        "1..3",
        "--json",
        "--trace-out",
        trail.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let doc: CheckDoc = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.schema, SCHEMA_VERSION);
    assert_eq!(doc.tool.name, "nfold");
    assert_eq!(
        doc.results
            .iter()
            .filter(|r| r.verdict == "violated")
            .count(),
        2
    );
    let (code, out, _) = nfold(&[
        "live",
        "families/mutex.cub",
        "--sizes",
        "1..3",
        "--fair",
        "--json",
    ]);
    assert_eq!(code, 1);
    let doc: CheckDoc = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.fair, Some(true));
    let lassos = doc.results.iter().filter_map(|r| r.trace.as_ref());
    assert!(
        lassos.clone().count() == 2 && lassos.clone().all(|t| t.kind.as_deref() == Some("lasso"))
    );
    let (code, out, _) = nfold(&[
        "replay",
        "families/mutex_bug.cub",
        trail.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let doc: ReplayDoc = serde_json::from_str(&out).unwrap();
    assert!(doc.matches);
    let (_, out, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--seed",
        "1",
        "--json",
    ]);
    let doc: SimulateDoc = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.seed, 1);
    let (code, _, _) = nfold(&[
        "check",
        "families/mutex.cub",
        "--sizes",
        "1..3",
        "--engine",
        "ic3",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let (code, out, _) = nfold(&[
        "certify",
        "families/mutex.cub",
        cert.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0);
    let doc: CertifyDoc = serde_json::from_str(&out).unwrap();
    assert!(doc.accepted && doc.results.len() == 3);
    // Errors under --json are JSON too.
    let (code, out, _) = nfold(&["check", "no/such/file.cub", "--json"]);
    assert_eq!(code, 2);
    let doc: ErrorDoc = serde_json::from_str(&out).unwrap();
    assert!(doc.error.contains("cannot read"), "{}", doc.error);
    std::fs::remove_dir_all(&dir).ok();
}
