//! Dead cells (`model::dead`): the explicit search that stores states up to their
//! dead cells against the one that stores them as they are, on generated models built
//! around the shape the analysis looks for (a control array pinned by every guard, data
//! arrays read and written under the pins, sometimes read where they are dead, read by
//! a property, read at another process or revived without a write); and the ticket
//! lock's state counts, from closed forms derived by hand.

use crate::common;

use common::{Rng, json_run};
use nfold::explicit::ndfs::{self, NdfsOptions, NdfsSearch, NdfsVerdict};
use nfold::explicit::reach::{ReachOptions, check_size};
use nfold::ltl::LtlProperty;
use nfold::model::dead::{Dead, analyse};
use nfold::model::eval::{Fire, fire, transition_instances, violation};
use nfold::model::init::for_each_initial;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::Model;
use nfold::verdict::PropId;
use std::collections::{BTreeMap, HashSet, VecDeque};

const LOCS: [&str; 4] = ["L0", "L1", "L2", "L3"];
const VALS: [&str; 3] = ["A", "B", "C"];

/// A term of type `e` over process `p`: a constant, the global or a data cell.
fn term(rng: &mut Rng, p: &str, data: usize) -> String {
    match rng.below(4) {
        0 => rng.pick(&VALS).to_string(),
        1 => "G".into(),
        _ => format!("D{}[{p}]", rng.below(data)),
    }
}

fn generate(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let locs = 3 + rng.below(2);
    let data = 1 + rng.below(2);
    let mut s = format!(
        "type loc = {}\ntype e = A | B | C\narray Pc[proc] : loc\n",
        LOCS[..locs].join(" | ")
    );
    for d in 0..data {
        s.push_str(&format!("array D{d}[proc] : e\n"));
    }
    s.push_str("var G : e\n");
    let mut init = vec!["Pc[z] = L0".to_string(), "G = A".to_string()];
    for d in 0..data {
        if rng.chance(70) {
            init.push(format!("D{d}[z] = {}", rng.pick(&VALS)));
        }
    }
    s.push_str(&format!("init (z) {{ {} }}\n", init.join(" && ")));
    let mut bad = vec![
        format!("Pc[z1] = {}", LOCS[1 + rng.below(locs - 1)]),
        format!("Pc[z2] = {}", LOCS[1 + rng.below(locs - 1)]),
    ];
    match rng.below(6) {
        0 | 1 => bad.push(format!("D0[z1] = {}", rng.pick(&VALS))),
        2 => bad.push(format!("G = {}", rng.pick(&VALS))),
        _ => {}
    }
    s.push_str(&format!("unsafe bad (z1 z2) {{ {} }}\n", bad.join(" && ")));
    for t in 0..2 + rng.below(4) {
        let two = rng.chance(40);
        let params = if two { "i j" } else { "i" };
        let from = rng.below(locs);
        let mut guard = vec![format!("Pc[i] = {}", LOCS[from])];
        if rng.chance(50) {
            let extra = format!(
                "{} = {}",
                term(&mut rng, "i", data),
                term(&mut rng, "i", data)
            );
            // Mostly after the pin; sometimes before it (the read then happens in any
            // state).
            if rng.chance(15) {
                guard.insert(0, extra);
            } else {
                guard.push(extra);
            }
        }
        if two && rng.chance(50) {
            guard.push(if rng.chance(50) {
                format!("D0[j] = {}", rng.pick(&VALS))
            } else {
                format!("Pc[j] = {}", LOCS[rng.below(locs)])
            });
        }
        let mut upd = Vec::new();
        if rng.chance(85) {
            upd.push(format!("Pc[i] := {}", LOCS[rng.below(locs)]));
        }
        for d in 0..data {
            if rng.chance(45) {
                upd.push(format!("D{d}[i] := {}", term(&mut rng, "i", data)));
            }
        }
        if rng.chance(35) {
            upd.push(format!("G := {}", term(&mut rng, "i", data)));
        }
        if two && rng.chance(20) {
            upd.push(format!("Pc[j] := {}", LOCS[rng.below(locs)]));
        }
        s.push_str(&format!(
            "transition t{t} ({params})\nrequires {{ {} }}\n{{ {} }}\n",
            guard.join(" && "),
            upd.iter().map(|u| format!("{u};")).collect::<String>()
        ));
    }
    s
}

/// (size, property) -> (verdict, depth), and the states stored at each size.
type Answers = BTreeMap<(usize, String), (String, Option<usize>)>;

fn answers(m: &Model, symmetry: bool, dead_cells: bool) -> (Answers, Vec<usize>) {
    let mut out = BTreeMap::new();
    let mut states = Vec::new();
    for n in 1..=3 {
        let r = check_size(
            m,
            n,
            &ReachOptions {
                symmetry,
                dead_cells,
                ..Default::default()
            },
        );
        assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
        for p in &r.results {
            let key = match p.prop {
                PropId::Unsafe(u) => m.unsafes[u].name.clone(),
                _ => p.name.clone(),
            };
            out.insert((n, key), (format!("{:?}", p.verdict.kind()), p.depth()));
        }
        states.push(r.stats.states);
    }
    (out, states)
}

/// Every reachable state at size n, by a breadth-first search of its own on the
/// reference interpreter (no range errors in these models).
fn reachable(m: &Model, n: usize) -> HashSet<State> {
    let inst = Instance::new(m, n);
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for_each_initial(&inst, &mut |st| {
        if seen.insert(st.to_vec()) {
            queue.push_back(st.to_vec());
        }
        true
    })
    .unwrap();
    let instances = transition_instances(&inst);
    while let Some(st) = queue.pop_front() {
        for (t, ps) in &instances {
            if let Fire::Enabled(v) = fire(&inst, &st, *t, ps) {
                for (_, next) in v {
                    if seen.insert(next.clone()) {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    seen
}

/// Reachable states that agree outside their dead cells are bisimilar, checked one
/// step deep on every pair: the same properties are violated, and the same
/// transition instances lead to the same normalized successors.
fn classes_are_bisimilar(m: &Model, seed: u64, text: &str) {
    for n in 1..=3 {
        let inst = Instance::new(m, n);
        let dead = Dead::for_instance(&inst, &analyse(m)).unwrap();
        let instances = transition_instances(&inst);
        let mut first: BTreeMap<State, State> = BTreeMap::new();
        let look = |st: &State| {
            let bad: Vec<bool> = m
                .unsafes
                .iter()
                .map(|u| violation(&inst, st, u).unwrap().is_some())
                .collect();
            let next: Vec<Vec<State>> = instances
                .iter()
                .map(|(t, ps)| match fire(&inst, st, *t, ps) {
                    Fire::Enabled(v) => {
                        let mut out: Vec<State> = v
                            .into_iter()
                            .map(|(_, mut s)| {
                                dead.normalize(&mut s);
                                s
                            })
                            .collect();
                        out.sort();
                        out.dedup();
                        out
                    }
                    _ => Vec::new(),
                })
                .collect();
            (bad, next)
        };
        for st in reachable(m, n) {
            let mut key = st.clone();
            dead.normalize(&mut key);
            match first.get(&key) {
                None => {
                    first.insert(key, st);
                }
                Some(rep) => assert!(
                    look(rep) == look(&st),
                    "seed {seed}, n={n}: {rep:?} and {st:?} differ only in dead cells, but not in behaviour\n{text}"
                ),
            }
        }
    }
}

/// The search with dead cells stores one state per class of reachable states that
/// agree outside their dead cells: exactly as many as the normalized reachable set.
fn stores_the_normalized_reachable_set(m: &Model, seed: u64, text: &str) {
    for n in 1..=3 {
        let inst = Instance::new(m, n);
        let dead = Dead::for_instance(&inst, &analyse(m)).unwrap();
        let classes: HashSet<State> = reachable(m, n)
            .into_iter()
            .map(|mut s| {
                dead.normalize(&mut s);
                s
            })
            .collect();
        let r = check_size(
            m,
            n,
            &ReachOptions {
                dead_cells: true,
                props: Some(Vec::new()),
                ..Default::default()
            },
        );
        assert!(r.complete);
        assert_eq!(r.stats.states, classes.len(), "seed {seed}, n={n}:\n{text}");
    }
}

#[test]
fn dead_cells_keep_every_verdict_and_shortest_depth() {
    let count: u64 = if cfg!(debug_assertions) { 40 } else { 400 };
    let mut with_dead = 0;
    let mut smaller = 0;
    for seed in 0..count {
        let text = generate(seed);
        let m = nfold::lang::load_str("dead.cub", &text)
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{text}", e.render()));
        if nfold::model::dead::analyse(&m).is_empty() {
            continue;
        }
        with_dead += 1;
        stores_the_normalized_reachable_set(&m, seed, &text);
        classes_are_bisimilar(&m, seed, &text);
        for symmetry in [false, true] {
            let (plain, plain_states) = answers(&m, symmetry, false);
            let (dead, dead_states) = answers(&m, symmetry, true);
            assert_eq!(plain, dead, "seed {seed}, symmetry {symmetry}:\n{text}");
            for (a, b) in plain_states.iter().zip(&dead_states) {
                assert!(b <= a, "seed {seed}: more states with dead cells\n{text}");
            }
            smaller += (dead_states != plain_states) as usize;
        }
    }
    eprintln!("{count} models, {with_dead} with dead cells, {smaller} runs with fewer states");
    // The generator is aimed at the analysis: most models must have dead cells, and
    // the reduction must bite in many runs.
    assert!(with_dead * 3 >= count as usize, "{with_dead} of {count}");
    assert!(smaller * 2 >= with_dead, "{smaller} of {with_dead}");
}

/// The ticket lock (`families/ticket_lock.cub`) at size n (N = n): the reachable
/// states are given by Serving s (N + 1 values), the number k of ticket holders (the
/// tickets s, s+1, ..., s+k-1, counting modulo N + 1, one each) and whether the holder
/// of s is in the critical section. A ticket is dead while its process is idle or
/// critical. Up to symmetry, (s, k, critical) is the state: (N+1)(1 + 2n). Without
/// symmetry the holders are also placed: (N+1)(1 + 2 sum_{k=1..n} n!/(n-k)!).
#[test]
fn ticket_lock_states_with_dead_cells_match_the_closed_forms() {
    let placed = |n: u64| -> u64 { (1..=n).map(|k| (n - k + 1..=n).product::<u64>()).sum() };
    for (n, sym) in [(4u64, false), (5, false), (4, true), (10, true)] {
        let expected = if sym {
            (n + 1) * (1 + 2 * n)
        } else {
            (n + 1) * (1 + 2 * placed(n))
        };
        let size = n.to_string();
        let mut args = vec![
            "check",
            "families/ticket_lock.cub",
            "--engine",
            "explicit",
            "--size",
            &size,
        ];
        if !sym {
            args.push("--no-symmetry");
        }
        let (code, v) = json_run(&args);
        assert_eq!(code, 0);
        let row = &v["results"][0];
        assert_eq!(row["verdict"], "holds");
        assert_eq!(
            row["states"].as_u64(),
            Some(expected),
            "n={n} symmetry {sym}"
        );
        assert_eq!(
            v["dead_cells"][0].as_str(),
            Some("`Ticket` while `Pc` is Idle or Crit")
        );
    }
    // Off: the stale tickets are stored too.
    let (_, v) = json_run(&[
        "check",
        "families/ticket_lock.cub",
        "--engine",
        "explicit",
        "--size",
        "4",
        "--no-dead-cells",
    ]);
    assert!(v["results"][0]["states"].as_u64().unwrap() > 4 * 9 * 5);
    assert_eq!(v["dead_cells"].as_array().map(|a| a.len()), Some(0));
}

/// A property that reads a cell where the transitions would let it be dead keeps the
/// whole array live: the violation, reachable only through a value the transitions
/// never read again, is found.
#[test]
fn a_property_reading_a_cell_keeps_it_live() {
    let dir = common::scratch_dir("dead");
    let f = dir.join("prop_reads.cub");
    std::fs::write(
        &f,
        "type loc = L0 | L1
type e = A | B
array Pc[proc] : loc
array D0[proc] : e
init (z) { Pc[z] = L0 && D0[z] = A }
unsafe bad (z1 z2) { Pc[z1] = L0 && Pc[z2] = L0 && D0[z1] = B }
transition t0 (i) requires { Pc[i] = L0 } { Pc[i] := L1; D0[i] := A; }
transition t1 (i) requires { Pc[i] = L1 && D0[i] = A } { D0[i] := B; Pc[i] := L0; }
",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let (code, v) = json_run(&["check", path, "--engine", "explicit", "--size", "2"]);
    assert_eq!(code, 1);
    assert_eq!(v["results"][0]["verdict"], "violated");
    assert_eq!(v["results"][0]["depth"], 2);
    assert_eq!(v["dead_cells"].as_array().map(|a| a.len()), Some(0));
}

/// One `ltl` property at size n with and without dead cells, under every search: the
/// same verdict, no more product states where it holds, and every lasso a replayed
/// run. Returns the
/// runs with fewer states and the violated ones.
fn same_liveness(m: &Model, n: usize, prop: usize, what: &str) -> (usize, usize) {
    let p = LtlProperty::new(m, prop).unwrap();
    let process = (m.ltls[prop].params > 0).then_some(1);
    let (mut smaller, mut violated) = (0, 0);
    for fair in [false, true] {
        for symmetry in [false, true] {
            for (search, threads) in [
                (NdfsSearch::Ndfs, 0),
                (NdfsSearch::Scc, 0),
                (NdfsSearch::Auto, 2),
            ] {
                if fair && search == NdfsSearch::Ndfs {
                    continue;
                }
                let run = |dead_cells: bool| {
                    let opts = NdfsOptions {
                        symmetry,
                        fair,
                        search,
                        threads,
                        dead_cells,
                        ..Default::default()
                    };
                    let r = ndfs::check(m, n, &p, process, &opts);
                    let what = format!(
                        "{what} n={n} fair={fair} sym={symmetry} {search:?}/{threads} \
                         dead={dead_cells}"
                    );
                    assert!(
                        r.internal_errors.is_empty(),
                        "{what}: {:?}",
                        r.internal_errors
                    );
                    if let Some(l) = &r.lasso {
                        l.replay(m).unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                    (r.verdict, r.stats.states, what)
                };
                let (plain, plain_states, _) = run(false);
                let (dead, dead_states, what) = run(true);
                assert_eq!(plain, dead, "{what}");
                // A search that holds stored the whole product; one that found a lasso
                // stopped where its order took it.
                if dead == NdfsVerdict::Holds {
                    assert!(dead_states <= plain_states, "{what}");
                }
                smaller += (dead_states < plain_states) as usize;
                violated += (dead == NdfsVerdict::Violated) as usize;
            }
        }
    }
    (smaller, violated)
}

/// The shipped families with `ltl` properties and dead cells (the ticket lock's
/// tickets, the MCS lock's process-valued pointers, whose one value a permutation
/// moves) at sizes 1..3: `same_liveness`.
#[test]
fn families_keep_their_liveness_verdicts_with_dead_cells() {
    let mut seen = Vec::new();
    for (name, m) in common::families() {
        if m.ltls.is_empty() || nfold::model::dead::analyse_live(&m).is_empty() {
            continue;
        }
        seen.push(name.clone());
        for prop in 0..m.ltls.len() {
            for n in 1..=3 {
                same_liveness(&m, n, prop, &name);
            }
        }
    }
    assert!(seen.contains(&"mcs_lock".to_string()), "{seen:?}");
    assert!(seen.contains(&"ticket_lock".to_string()), "{seen:?}");
}

/// `generate`'s models with an `ltl` property over the control cells: the `ltl`
/// searches walking states up to their dead cells (`NdfsOptions::dead_cells`: the
/// nested search, the fair SCC search and the parallel one, with and without symmetry
/// and weak fairness) give the verdicts of the same searches on the states as they are,
/// store no more product states, and every lasso they print is a run of the instance
/// (its cycle closes on the real states, which may take one more turn than in the
/// normalized system; `Lasso::replay` checks it, fairness included).
#[test]
fn dead_cells_keep_every_liveness_verdict() {
    let count: u64 = if cfg!(debug_assertions) { 20 } else { 120 };
    let props = [
        "ltl p (i) { G (Pc[i] = L1 => F Pc[i] = L2) }",
        "ltl p (i) { G F Pc[i] = L0 }",
        "ltl p (i) { F G Pc[i] <> L2 }",
    ];
    let (mut with_dead, mut smaller, mut violated) = (0, 0, 0);
    for seed in 0..count {
        let text = format!("{}{}\n", generate(seed), props[(seed % 3) as usize]);
        let m = nfold::lang::load_str("dead.cub", &text)
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{text}", e.render()));
        if nfold::model::dead::analyse_live(&m).is_empty() {
            continue;
        }
        with_dead += 1;
        for n in 1..=3 {
            let (s, v) = same_liveness(&m, n, 0, &format!("seed {seed}:\n{text}\n"));
            smaller += s;
            violated += v;
        }
    }
    eprintln!(
        "{count} models, {with_dead} with dead cells, {smaller} smaller, {violated} violated"
    );
    // The generator is aimed at the analysis, and the properties are often violated.
    assert!(with_dead * 3 >= count as usize, "{with_dead} of {count}");
    assert!(smaller >= with_dead, "{smaller} of {with_dead}");
    assert!(violated >= with_dead, "{violated} of {with_dead}");
}

/// A cycle that closes in the normalized system but not on the real states: the
/// process starts with `X = 5` (dead while idle), and each turn through `Busy` leaves
/// `X = 1` behind. At size 1 the only run is go, back, go, back, ...; `F Flag = True`
/// is violated (no transition sets `Flag`; every product state is accepting). The
/// nested search walks r = (Idle, X settled to 0), b = (Busy, 1), then back to r, which
/// is on its stack and accepting: the cycle closes at the initial node, loop go, back.
/// On the real states that turn ends at (Idle, 1), not (Idle, 5), so the printed lasso
/// (`--no-shorten`) takes the first turn as its stem and loops on the second: 4 steps,
/// the cycle from state 2. With shortening every search prints a shortest lasso: the
/// initial state is never revisited, so at least one step leads off it and a cycle
/// takes at least two: 3 steps.
#[test]
fn a_lasso_through_dead_cells_closes_on_the_real_states() {
    let path = common::write_file(
        &common::scratch_dir("dead"),
        "turn.cub",
        "type loc = Idle | Busy
array C[proc] : loc
array X[proc] : 0 .. 5
var Flag : bool
init (z) { C[z] = Idle && X[z] = 5 && Flag = False }
transition go (i) requires { C[i] = Idle } { C[i] := Busy; X[i] := 1; }
transition back (i) requires { C[i] = Busy && X[i] = 1 } { C[i] := Idle; }
ltl p () { F Flag = True }
",
    );
    let path = path.as_str();
    let m = common::load(path);
    assert_eq!(nfold::model::dead::analyse_live(&m).len(), 1);
    for shorten in [false, true] {
        for extra in [&[][..], &["--fair"][..], &["--no-dead-cells"][..]] {
            let mut args = vec!["live", path, "--engine", "explicit", "--size", "1"];
            if !shorten {
                args.push("--no-shorten");
            }
            args.extend_from_slice(extra);
            let (code, v) = json_run(&args);
            assert_eq!(code, 1, "{args:?}: {v}");
            let t = &v["results"][0]["trace"];
            let l = common::lasso_from_json(&m, 1, t);
            l.replay(&m).unwrap();
            assert_eq!(l.init[1], 5, "{args:?}: {t}");
            if shorten {
                assert_eq!(l.steps.len(), 3, "{args:?}: {t}");
            } else if extra.is_empty() {
                assert_eq!((l.loop_start, l.steps.len()), (2, 4), "{args:?}: {t}");
            }
        }
    }
}
