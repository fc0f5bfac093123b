//! Every integration test in one binary (`autotests = false` in Cargo.toml): one link
//! instead of one per file, and the tests of all files share the threads of one run.
//! Each file of `tests/` is one module here; `every_test_file_is_a_module` fails when a
//! new file is not listed, so no test file is silently left out.

#[path = "common/aig_reader.rs"]
mod aig_reader;
mod common;

#[path = "absint.rs"]
mod absint;
#[path = "aggregate.rs"]
mod aggregate;
#[path = "aiger.rs"]
mod aiger;
#[path = "aiger_live.rs"]
mod aiger_live;
#[path = "assume.rs"]
mod assume;
#[path = "cli.rs"]
mod cli;
#[path = "commands.rs"]
mod commands;
#[path = "counting.rs"]
mod counting;
#[path = "coverage.rs"]
mod coverage;
#[path = "cyclic.rs"]
mod cyclic;
#[path = "data.rs"]
mod data;
#[path = "dead_cells.rs"]
mod dead_cells;
#[path = "distributed.rs"]
#[cfg(feature = "distributed")]
mod distributed;
#[path = "docs.rs"]
mod docs;
#[path = "docs_examples.rs"]
mod docs_examples;
#[path = "editors.rs"]
mod editors;
#[path = "every.rs"]
mod every;
#[path = "extra_proc.rs"]
mod extra_proc;
#[path = "families_new.rs"]
mod families_new;
#[path = "fixed_size.rs"]
mod fixed_size;
#[path = "flash_ptr.rs"]
mod flash_ptr;
#[path = "fuzz.rs"]
mod fuzz;
#[path = "generated.rs"]
mod generated;
#[path = "handoff.rs"]
mod handoff;
#[path = "ints.rs"]
mod ints;
#[path = "lang.rs"]
mod lang;
#[path = "layers.rs"]
mod layers;
#[path = "litints.rs"]
mod litints;
#[path = "live.rs"]
mod live;
#[path = "live_auto.rs"]
mod live_auto;
#[path = "live_bdd.rs"]
mod live_bdd;
#[path = "live_every.rs"]
mod live_every;
#[path = "live_fair.rs"]
mod live_fair;
#[path = "live_parallel.rs"]
mod live_parallel;
#[path = "live_rank.rs"]
mod live_rank;
#[path = "live_sat.rs"]
mod live_sat;
#[path = "model.rs"]
mod model;
#[path = "native.rs"]
mod native;
#[path = "order.rs"]
mod order;
#[path = "parallel_search.rs"]
mod parallel_search;
#[path = "partial_symmetry.rs"]
mod partial_symmetry;
#[path = "portfolio.rs"]
mod portfolio;
#[path = "proofs.rs"]
mod proofs;
#[path = "rank.rs"]
mod rank;
#[path = "report.rs"]
mod report;
#[path = "row_times.rs"]
mod row_times;
#[path = "sat.rs"]
mod sat;
#[path = "schema.rs"]
mod schema;
#[path = "timeouts.rs"]
mod timeouts;
#[path = "tree_store.rs"]
mod tree_store;
#[path = "variants.rs"]
mod variants;
#[path = "window_ints.rs"]
mod window_ints;

/// Every `.rs` file directly in `tests/` (but this one) is a module of this binary.
#[test]
fn every_test_file_is_a_module() {
    let here = include_str!("all.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".rs") && name != "all.rs" {
            let line = format!("#[path = \"{name}\"]");
            assert!(
                here.contains(&line),
                "tests/{name} is not a module of tests/all.rs"
            );
        }
    }
}
