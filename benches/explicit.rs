//! Benchmarks of the explicit engine: whole breadth-first searches on shipped families
//! (with and without symmetry) and canonicalisation alone, each timed over several runs
//! (min and median printed). Run with `cargo bench --bench explicit [FILTER]`; the
//! side-by-side comparison with SPIN is `benches/compare.sh`. A plain timing loop rather
//! than a benchmark framework keeps the test build free of bench-only dependencies.

use nfold::explicit::reach::{ReachOptions, check_size};
use nfold::model::canon::Symmetry;
use nfold::model::init::initial_states;
use nfold::model::instance::Instance;
use std::hint::black_box;
use std::time::Instant;

/// Times `f` over `runs` runs (after one warm-up) and prints min and median, when
/// `label` contains the command line's filter (if any).
fn bench(label: &str, runs: usize, mut f: impl FnMut()) {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter.is_some_and(|w| !label.contains(&w)) {
        return;
    }
    f();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{label:<32} min {:>10.3} ms   median {:>10.3} ms   ({runs} runs)",
        times[0] * 1e3,
        times[runs / 2] * 1e3
    );
}

fn load(name: &str) -> nfold::model::ir::Model {
    nfold::lang::load_file(&format!(
        "{}/families/{name}.cub",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn reach() {
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
        let label = format!("reach/{fam}/n={n}/{}", if sym { "sym" } else { "plain" });
        bench(&label, 10, || {
            black_box(check_size(&m, n, &opts).stats.states);
        });
    }
}

fn canonical() {
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
        bench(&format!("canonical/{fam}/n={n}"), 100, || {
            for s in &states {
                black_box(sym.canonical_state(s));
            }
        });
    }
}

fn main() {
    reach();
    canonical();
}
