//! One liveness search chosen by hand, for measuring the searches side by side (the
//! CLI picks one by itself): `cargo bench --bench live_search -- FILE N [fair]
//! [nosym] [ndfs|scc] [timeout=S] [process=P]`. Prints the verdict, the search that answered, the
//! product states stored, the seconds and the bytes the search held at its largest.
//! `benches/live_fair_compare.sh` runs it.

use nfold::explicit::ndfs::{self, NdfsOptions, NdfsSearch};
use nfold::ltl::LtlProperty;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [file, n, rest @ ..] = &args[..] else {
        eprintln!("usage: live_search FILE N [fair] [nosym] [ndfs|scc] [timeout=S] [process=P]");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("a size");
    let has = |w: &str| rest.iter().any(|a| a == w);
    let timeout = rest
        .iter()
        .find_map(|a| a.strip_prefix("timeout="))
        .map(|s| s.parse::<u64>().expect("seconds"));
    let model = nfold::lang::load_file(file).expect("a model");
    let start = Instant::now();
    let opts = NdfsOptions {
        symmetry: !has("nosym"),
        fair: has("fair"),
        search: if has("scc") {
            NdfsSearch::Scc
        } else if has("ndfs") {
            NdfsSearch::Ndfs
        } else {
            NdfsSearch::Auto
        },
        deadline: timeout.map(|t| start + Duration::from_secs(t)),
        shorten: true,
        ..Default::default()
    };
    for prop in 0..model.ltls.len() {
        let p = LtlProperty::new(&model, prop).expect("an ltl property");
        let only = rest
            .iter()
            .find_map(|a| a.strip_prefix("process="))
            .map(|s| s.parse::<i64>().expect("a process"));
        let processes = match only {
            Some(p) if model.ltls[prop].params > 0 => vec![Some(p)],
            _ => nfold::ltl::processes_to_check(&model, prop, n),
        };
        for process in processes {
            let r = ndfs::check(&model, n, &p, process, &opts);
            println!(
                "{} n={n} {} {:?} states={} transitions={} seconds={:.2} bytes={} limit={:?} errors={:?}",
                model.ltls[prop].name,
                r.algorithm.name(),
                r.verdict,
                r.stats.states,
                r.stats.transitions,
                r.stats.seconds,
                r.stats.bytes,
                r.limit,
                r.internal_errors
            );
        }
    }
}
