//! The same protocol written another way at the same cost (issue 43): every family (and
//! the models given on the command line) and its variants 1-5 of
//! tests/common/variants.rs (an unread counter, an unread scratch memory, a constant
//! row in every guard, a stored id, a duplicated cell), each through the default
//! command (`nfold check FILE`, and `nfold live FILE` for a model with `ltl`
//! properties), timed in one run, the median of RUNS runs (default 3). Prints, per
//! family and variant, the original's time, the variant's, their ratio, whether the
//! answers agree, and whether the variant stays within 1.5x the original's time + 1 s;
//! then the largest ratio. Run with `benches/variants.sh` (a release build first).
//! A plain timing loop rather than a benchmark framework, as benches/explicit.rs.

#[path = "../tests/common/variants.rs"]
#[allow(dead_code)]
mod variants;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn nfold() -> PathBuf {
    std::env::var_os("NFOLD")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/nfold"))
}

/// The median wall time of `runs` runs of `nfold ARGS`, and the answers of the last
/// (each row's size, verdict and depth, and the answer for every n).
fn time(args: &[&str], runs: usize) -> (f64, String) {
    let mut times = Vec::new();
    let mut answers = String::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(nfold())
            .args(args)
            .arg("--json")
            .output()
            .expect("run nfold");
        times.push(t.elapsed().as_secs_f64());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        answers = v["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                let ltl = r["kind"] == "ltl";
                format!(
                    "{}:{}:{} ",
                    r["size"],
                    r["verdict"],
                    if ltl {
                        String::new()
                    } else {
                        r["depth"].to_string()
                    }
                )
            })
            .collect::<String>()
            + &v["every_n"]["verdict"].to_string();
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], answers)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("families"))
        .expect("families/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cub"))
        .collect();
    files.sort();
    files.extend(args.iter().map(PathBuf::from));
    let dir = std::env::temp_dir().join(format!("nfold-variants-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    println!(
        "{:<28} {:<6} {:<10} {:>9} {:>9} {:>7}  {:<5} within 1.5x+1s",
        "model", "cmd", "variant", "orig s", "var s", "ratio", "same"
    );
    let mut worst: (f64, String) = (0.0, String::new());
    let mut all_within = true;
    for f in &files {
        let Ok(m) = nfold::lang::load_file(f.to_str().unwrap_or_default()) else {
            continue;
        };
        let stem = f
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let path = f.to_string_lossy().into_owned();
        let mut cmds = vec!["check"];
        if !m.ltls.is_empty() {
            cmds.push("live");
        }
        for cmd in cmds {
            let (t0, a0) = time(&[cmd, &path], runs);
            for k in 1..=5 {
                let Some(text) = variants::variant(&m, k) else {
                    continue;
                };
                let vf = dir.join(format!("{stem}_v{k}.cub"));
                std::fs::write(&vf, text).expect("write variant");
                let (t, a) = time(&[cmd, vf.to_str().unwrap_or_default()], runs);
                let ratio = t / t0.max(1e-3);
                let within = t <= 1.5 * t0 + 1.0;
                all_within &= within && a == a0;
                if ratio > worst.0 {
                    worst = (ratio, format!("{stem} {cmd} variant {k}"));
                }
                println!(
                    "{:<28} {:<6} {:<10} {:>9.3} {:>9.3} {:>7.2}  {:<5} {}",
                    stem,
                    cmd,
                    variants::NAMES[k - 1],
                    t0,
                    t,
                    ratio,
                    if a == a0 { "yes" } else { "NO" },
                    if within { "yes" } else { "NO" }
                );
            }
        }
    }
    println!("largest ratio: {:.2} ({})", worst.0, worst.1);
    println!(
        "every variant gives the same answers within 1.5x + 1 s: {}",
        if all_within { "yes" } else { "NO" }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
