//! Criterion benchmarks of the explicit engine: whole breadth-first searches on
//! shipped families (with and without symmetry) and canonicalisation alone.
//! Run with `cargo bench --bench explicit`; the side-by-side comparison with SPIN is
//! `benches/compare.sh`.

use criterion::{Criterion, criterion_group, criterion_main};
use nfold::explicit::reach::{ReachOptions, check_size};
use nfold::model::canon::Symmetry;
use nfold::model::init::initial_states;
use nfold::model::instance::Instance;
use std::hint::black_box;

fn load(name: &str) -> nfold::model::ir::Model {
    nfold::lang::load_file(&format!(
        "{}/families/{name}.cub",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn reach(c: &mut Criterion) {
    let mut g = c.benchmark_group("reach");
    g.sample_size(10);
    for (fam, n, sym) in [
        ("peterson", 4, false),
        ("peterson", 5, true),
        ("german", 3, false),
        ("german", 4, true),
        ("grant_mutex", 4, false),
    ] {
        let m = load(fam);
        let opts = ReachOptions {
            symmetry: sym,
            ..Default::default()
        };
        let label = format!("{fam}/n={n}/{}", if sym { "sym" } else { "plain" });
        g.bench_function(label, |b| {
            b.iter(|| black_box(check_size(&m, n, &opts).stats.states))
        });
    }
    g.finish();
}

fn canonical(c: &mut Criterion) {
    let mut g = c.benchmark_group("canonical");
    for (fam, n) in [
        ("peterson", 6),
        ("german", 6),
        ("grant_mutex", 6),
        ("mesi", 8),
    ] {
        let m = load(fam);
        let inst = Instance::new(&m, n);
        let sym = Symmetry::new(&inst);
        // A spread of states: the initial ones and their first successors.
        let mut states = initial_states(&inst).unwrap();
        states.truncate(16);
        let more: Vec<_> = states
            .iter()
            .flat_map(|s| {
                nfold::model::eval::successors(&inst, s)
                    .0
                    .into_iter()
                    .map(|x| x.1)
            })
            .collect();
        states.extend(more);
        g.bench_function(format!("{fam}/n={n}"), |b| {
            b.iter(|| {
                for s in &states {
                    black_box(sym.canonical_state(s));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, reach, canonical);
criterion_main!(benches);
