//! The partial-symmetry search against a brute-force oracle that shares none of its
//! code: the reachable states and their BFS distances by the reference interpreter
//! (`model::eval`), and orbits by applying all n! permutations. Exactness: the members
//! of the stored nodes are exactly the reachable states, a coarse node's members are
//! its whole orbit, and every member of a node of depth d is at distance at most d.

use super::{Search, orbit};
use crate::explicit::reach::ReachOptions;
use crate::lang::load_str;
use crate::model::canon::Symmetry;
use crate::model::compiled::Compiled;
use crate::model::eval::{self, Fire};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use itertools::Itertools;
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Instant;

/// Every reachable state and its distance from the initial states, by the interpreter.
fn reachable(inst: &Instance, compiled: &Compiled) -> HashMap<State, usize> {
    let mut dist: HashMap<State, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    for_each_initial(inst, &mut |st| {
        if dist.insert(st.to_vec(), 0).is_none() {
            queue.push_back(st.to_vec());
        }
        true
    })
    .unwrap();
    while let Some(st) = queue.pop_front() {
        let d = dist[&st];
        for ct in &compiled.trans {
            if let Fire::Enabled(v) = eval::fire(inst, &st, ct.trans, &ct.params) {
                for (_, s2) in v {
                    if !dist.contains_key(&s2) {
                        dist.insert(s2.clone(), d + 1);
                        queue.push_back(s2);
                    }
                }
            }
        }
    }
    dist
}

fn brute_orbit(sym: &Symmetry, n: usize, st: &[i64]) -> HashSet<State> {
    let mut buf = vec![0; st.len()];
    (1..=n as i64)
        .permutations(n)
        .map(|pi| {
            sym.apply(&pi, st, &mut buf);
            buf.clone()
        })
        .collect()
}

/// Run the search at size n and check it against the oracle; the numbers of nodes and
/// of reachable states.
fn exact_at(text: &str, n: usize) -> (usize, usize) {
    let m = load_str("t.cub", text).unwrap();
    assert!(!m.is_symmetric());
    let inst = Instance::new(&m, n);
    let compiled = Compiled::new(&inst);
    let opts = ReachOptions {
        symmetry: true,
        partial_symmetry: true,
        props: Some(Vec::new()),
        ..Default::default()
    };
    let mut s = Search::new(&inst, &compiled, Vec::new(), false);
    let e = s.explore(&opts, Instant::now()).ok().unwrap();
    assert!(e.complete);
    let dist = reachable(&inst, &compiled);
    let sym = Symmetry::new(&inst);
    let mut covered: HashSet<State> = HashSet::new();
    for i in 0..s.parent.len() {
        let mut depth = 0;
        let mut j = i;
        while s.parent[j] != u32::MAX {
            j = s.parent[j] as usize;
            depth += 1;
        }
        let real = s.real(i);
        let members: HashSet<State> = s.members(i).into_iter().collect();
        let want = if s.coarse[i] {
            brute_orbit(&sym, n, &real)
        } else {
            [real.clone()].into_iter().collect()
        };
        assert_eq!(members, want, "node {i} at n={n}");
        let brute = brute_orbit(&sym, n, &real).len();
        assert_eq!(orbit::size(&sym, n, &real), Some(brute));
        let c = sym.canonical_state(&real);
        if let Some(fixed) = sym.canonical_is_fixed(&c) {
            assert_eq!(fixed, brute == 1, "{c:?}");
        }
        for m in &members {
            let d = dist
                .get(m)
                .unwrap_or_else(|| panic!("n={n}: unreachable member {m:?}"));
            assert!(
                *d <= depth,
                "n={n}: member at distance {d} in a node of depth {depth}"
            );
        }
        covered.extend(members);
    }
    let all: HashSet<State> = dist.keys().cloned().collect();
    assert_eq!(covered, all, "n={n}: the members are the reachable states");
    (s.parent.len(), all.len())
}

const BURNS: &str = include_str!("../../../../families/burns.cub");
const SZYMANSKI: &str = include_str!("../../../../benches/models/szymanski.cub");

/// A bakery-like protocol where order decides who must give way: entering `Wait`
/// spoils the non-idle processes above, entering `Crit` those below.
const ORDERED: &str = "type t = Idle | Wait | Crit | Spoilt
array A[proc] : t
init (z) { A[z] = Idle }
unsafe (z1 z2) { A[z1] = Crit && A[z2] = Crit }
transition want (z) requires { A[z] = Idle }
{ A[j] := case | j = z : Wait | j < z : A[j] | A[j] = Idle : A[j] | _ : Spoilt }
transition enter (z) requires { A[z] = Wait }
{ A[j] := case | j = z : Crit | z < j : A[j] | A[j] = Idle : Idle | _ : Spoilt }
transition leave (z) requires { A[z] = Crit } { A[z] := Idle; }
";

/// Process 1 singled out by a constant: the others stay interchangeable.
const HOME: &str = "type t = I | T | C
array A[proc] : t
var Owner : proc
init (z) { A[z] = I && Owner = #1 }
unsafe (z1 z2) { A[z1] = C && A[z2] = C }
transition try (i) requires { A[i] = I } { A[i] := T; }
transition grant (i) requires { A[i] = T && Owner = #1 && forall_other j. A[j] <> C } { A[i] := C; Owner := i; }
transition release (i) requires { A[i] = C && Owner = i } { A[i] := I; Owner := #1; }
";

#[test]
fn members_are_exactly_the_reachable_states() {
    for (name, text, top) in [
        ("burns", BURNS, 4),
        ("szymanski", SZYMANSKI, 4),
        ("ordered", ORDERED, 4),
        ("home", HOME, 4),
    ] {
        for n in 2..=top {
            let (nodes, states) = exact_at(text, n);
            assert!(nodes > 0 && states > 0, "{name} n={n}");
        }
    }
}
