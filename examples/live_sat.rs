//! Measurement tool (until `nfold live --engine sat|ic3` is wired by the CLI): runs the
//! SAT route for `ltl` properties and prints one row per (size, property).
//!
//! cargo run --release --example live_sat -- FILE A..B sat|ic3 [fair] [DEPTH]
use nfold::bmc::driver::BmcOptions;
use nfold::bmc::engine::BmcEngine;
use nfold::engine::{Control, Engine, Problem, run};
use nfold::ic3::engine::Ic3Engine;
use nfold::sat::SolverKind;
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = nfold::lang::load_file(&a[1]).unwrap();
    let (lo, hi) = a[2].split_once("..").unwrap();
    let (lo, hi): (usize, usize) = (lo.parse().unwrap(), hi.parse().unwrap());
    let fair = a.iter().any(|x| x == "fair");
    let depth = a.last().and_then(|x| x.parse().ok()).unwrap_or(20);
    let mut p = Problem::new(&m, lo, hi, vec![]);
    p.ltls = (0..m.ltls.len()).collect();
    p.fair = fair;
    let engine: Box<dyn Engine> = if a[3] == "ic3" {
        Box::new(Ic3Engine {
            solver: SolverKind::default_kind(),
            symmetry: true,
        })
    } else {
        Box::new(BmcEngine {
            opts: BmcOptions {
                depth,
                ..BmcOptions::default()
            },
            one_by_one: false,
        })
    };
    let ctl = Control {
        progress: std::env::var("PROGRESS").is_ok(),
        ..Control::default()
    };
    let t = Instant::now();
    let out = run(engine.as_ref(), &p, &ctl, &mut |r| {
        for x in &r.results {
            let extra = match x.verdict.lasso() {
                Some(l) => format!(
                    "lasso {} steps, cycle from {}, process {:?}  row {}",
                    l.steps.len(),
                    l.loop_start,
                    l.process,
                    nfold::live::picture(&m, l, hi).join(" ")
                ),
                None => String::new(),
            };
            println!(
                "{:>3} {:<20} {:<16} {:.2}s {}",
                r.size,
                x.name,
                x.verdict.text(),
                r.seconds,
                extra
            );
        }
        for e in &r.internal_errors {
            println!("    internal error: {e}");
        }
    })
    .unwrap();
    if let (Some(c), Ok(path)) = (&out.certificate, std::env::var("CERT")) {
        std::fs::write(path, c.to_text()).unwrap();
    }
    println!(
        "total {:.2}s limit {:?}",
        t.elapsed().as_secs_f64(),
        out.limit
    );
}
