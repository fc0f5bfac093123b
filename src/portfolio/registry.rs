//! The engines `--engine` names, in one table (`ENGINES`): each entry's name, its line
//! of `--help`, how it is built from the flags, and whether the probe note may compare
//! it with the explicit search. Which flags belong to which engines, and which flags
//! choose an engine when `--engine` is not given, is a second table (`OWNED`). The
//! argument parser, the choice of engine and the probe note all read these, so the CLI
//! names no engine. A new engine is one row of `ENGINES`.

use super::auto::AutoEngine;
use super::budgets::{Budgets, SHIPPED};
use super::route;
use crate::bdd::{BddEngine, NODES};
use crate::bmc::driver::BmcOptions;
use crate::bmc::engine::BmcEngine;
use crate::engine::Engine;
use crate::explicit::engine::ExplicitEngine;
use crate::explicit::reach::StoreKind;
use crate::explicit::reach::dist::Cluster;
use crate::ic3::engine::{Ic3Engine, ToSafety};
use crate::kind::KindEngine;
use crate::rank::engine::RankEngine;
use crate::sat::SolverKind;
use crate::transys::Por;
use crate::transys::frame::Encoding;
use crate::transys::query::SymBreak;

/// What the flags ask of an engine, whichever it is.
#[derive(Clone, Debug)]
pub struct Flags {
    pub solver: SolverKind,
    /// `--solver` was given.
    pub solver_given: bool,
    pub symmetry: bool,
    pub dead_cells: bool,
    pub deadlock: bool,
    pub max_states: Option<usize>,
    pub store: StoreKind,
    pub shorten: bool,
    pub threads: Option<u32>,
    pub rank_ints: bool,
    pub partial_symmetry: bool,
    /// A distributed explicit search (`--distributed`).
    pub cluster: Option<Cluster>,
    pub depth: Option<usize>,
    pub encoding: Encoding,
    pub por: Por,
    pub whole_aggregate: bool,
    pub one_by_one: bool,
    pub symbreak: SymBreak,
    pub to_safety: Option<ToSafety>,
    /// `--certificate` was given.
    pub certificate: bool,
}

impl Flags {
    /// A flag that only the SAT engine reads was given.
    fn sat_only(&self) -> bool {
        self.one_by_one
            || self.whole_aggregate
            || self.encoding != Encoding::Binary
            || self.por != Por::Idle
    }
}

/// One engine `--engine` names.
#[derive(Debug)]
pub struct Entry {
    /// Its name on the command line (and in the probe note).
    pub name: &'static str,
    /// Its line of `--help`.
    pub help: fn() -> String,
    build: fn(&Flags) -> Box<dyn Engine>,
    /// Whether a quick explicit search may be run first, to tell the user when it
    /// would have answered (engines that search explicitly themselves: no).
    pub probed: bool,
}

impl Entry {
    /// The engine, set up from the flags.
    pub fn build(&self, f: &Flags) -> Box<dyn Engine> {
        (self.build)(f)
    }
}

/// Every engine, the default first.
pub const ENGINES: [Entry; 7] = [
    Entry {
        name: "auto",
        help: auto_help,
        build: |f| Box::new(auto(f)),
        probed: false,
    },
    Entry {
        name: "explicit",
        help: || {
            "Exhaustive breadth-first search with symmetry reduction, one size at a time".into()
        },
        build: |f| Box::new(explicit(f)),
        probed: false,
    },
    Entry {
        name: "sat",
        help: || "SAT-based bounded model checking up to --depth (no proofs)".into(),
        build: |f| Box::new(bmc(f)),
        probed: true,
    },
    Entry {
        name: "ic3",
        help: || "IC3 / property-directed reachability on the aggregate (proofs, checked)".into(),
        build: |f| {
            Box::new(Ic3Engine {
                to_safety: f.to_safety.unwrap_or(ToSafety::Both),
                ..Ic3Engine::new(f.solver, f.symmetry)
            })
        },
        probed: true,
    },
    Entry {
        name: "kind",
        help: || {
            "k-induction on the aggregate, strengthened by IC3's lemmas (proofs, checked)".into()
        },
        build: |f| {
            Box::new(KindEngine {
                solver: f.solver,
                symmetry: f.symmetry,
                max_depth: f.depth.unwrap_or(20),
                strengthen: true,
            })
        },
        probed: true,
    },
    Entry {
        name: "bdd",
        help: || {
            "`ltl` properties only: a BDD fixpoint on the aggregate (fair lassos replayed, proofs by checked certificates)".into()
        },
        build: |f| {
            Box::new(BddEngine {
                solver: f.solver,
                nodes: NODES,
            })
        },
        probed: true,
    },
    Entry {
        name: "rank",
        help: || {
            "`ltl` response properties only: ranking proofs per size (phases and weights over an invariant; proofs by checked certificates, never violations)".into()
        },
        build: |f| Box::new(RankEngine { solver: f.solver }),
        probed: true,
    },
];

/// The engine named `name`.
pub fn by_name(name: &str) -> Option<&'static Entry> {
    ENGINES.iter().find(|e| e.name == name)
}

/// A flag that belongs to some engines only.
struct Owned {
    given: fn(&Flags) -> bool,
    /// The engines that read it (none: a flag no engine may be given with).
    owners: &'static [&'static str],
    /// The engine it chooses when `--engine` is not given.
    chooses: Option<&'static str>,
    /// Why it does not fit another engine.
    why: &'static str,
}

/// The flags owned by some engines, in the order they choose one.
const OWNED: [Owned; 10] = [
    Owned {
        given: |f| f.deadlock,
        owners: &["explicit"],
        chooses: Some("explicit"),
        why: "--deadlock belongs to the explicit engine (--engine explicit)",
    },
    Owned {
        given: |f| f.max_states.is_some(),
        owners: &["explicit", "auto"],
        chooses: Some("explicit"),
        why: "--max-states belongs to the explicit searches (--engine explicit or auto)",
    },
    Owned {
        given: |f| f.store != StoreKind::Exact,
        owners: &["explicit"],
        chooses: Some("explicit"),
        why: "--store tree, hash-compact and bitstate belong to the explicit engine (--engine explicit)",
    },
    Owned {
        given: |f| f.cluster.is_some(),
        owners: &["explicit"],
        chooses: Some("explicit"),
        why: DISTRIBUTED,
    },
    Owned {
        given: |f| f.cluster.is_some() && f.threads.is_some(),
        owners: &[],
        chooses: None,
        why: DISTRIBUTED,
    },
    Owned {
        given: |f| f.depth.is_some(),
        owners: &["sat", "ic3", "kind", "auto", "bdd", "rank"],
        chooses: Some("sat"),
        why: "--depth bounds the SAT engines (sat, ic3, kind, auto); the explicit search has no depth bound, it explores every reachable state: bound it with --max-states or --timeout",
    },
    Owned {
        given: Flags::sat_only,
        owners: &["sat"],
        chooses: Some("sat"),
        why: "--encoding, --one-by-one, --whole-aggregate and --por belong to the SAT engine (--engine sat)",
    },
    Owned {
        given: |f| f.solver_given,
        owners: &["sat", "ic3", "kind", "auto", "bdd", "rank"],
        chooses: None,
        why: "--solver chooses the SAT solver of the SAT engines (sat, ic3, kind, auto); the explicit search uses none",
    },
    Owned {
        given: |f| f.to_safety.is_some(),
        owners: &["ic3"],
        chooses: None,
        why: "--reduction chooses how IC3 reduces `ltl` properties to safety (--engine ic3); auto runs k-liveness then liveness-to-safety",
    },
    Owned {
        given: |f| f.certificate,
        owners: &["ic3", "kind", "auto", "bdd", "rank"],
        chooses: None,
        why: "--certificate needs a proof engine (--engine ic3, kind or auto); an exhaustive search has no invariant to write",
    },
];

const DISTRIBUTED: &str = "--distributed is a mode of the explicit engine (--engine explicit), whose --workers replace --threads";

/// The engine `--engine` named (`named`), or else the one the flags choose (auto when
/// none does), once every flag given fits it.
pub fn choose(named: Option<&'static Entry>, f: &Flags) -> Result<&'static Entry, String> {
    let chosen = named.unwrap_or_else(|| {
        OWNED
            .iter()
            .filter(|o| (o.given)(f))
            .find_map(|o| o.chooses)
            .and_then(by_name)
            .unwrap_or(&ENGINES[0])
    });
    match OWNED
        .iter()
        .find(|o| (o.given)(f) && !o.owners.contains(&chosen.name))
    {
        Some(o) => Err(o.why.to_string()),
        None => Ok(chosen),
    }
}

/// auto's line of `--help`: made from its phases and the shipped budgets
/// (`portfolio::route`), as the header's engine line is.
fn auto_help() -> String {
    format!(
        "The default: {}; `ltl` properties: {}. Every size proved or refuted",
        route::text(&route::safety(&SHIPPED, false)),
        route::text(&route::ltl(&SHIPPED, "the explicit search", true))
    )
}

fn explicit(f: &Flags) -> ExplicitEngine {
    ExplicitEngine {
        symmetry: f.symmetry,
        dead_cells: f.dead_cells,
        deadlock: f.deadlock,
        max_states: f.max_states,
        store: f.store,
        shorten: f.shorten,
        live_threads: f.threads.map_or(1, |t| t as usize),
        rank_ints: f.rank_ints,
        partial_symmetry: f.partial_symmetry,
        distributed: f.cluster.clone(),
    }
}

fn bmc(f: &Flags) -> BmcEngine {
    BmcEngine {
        opts: BmcOptions {
            depth: f.depth.unwrap_or(20),
            symbreak: if f.symmetry {
                f.symbreak
            } else {
                SymBreak::Off
            },
            solver: f.solver,
            encoding: f.encoding,
            por: f.por,
            whole_aggregate: f.whole_aggregate,
            ..BmcOptions::default()
        },
        one_by_one: f.one_by_one,
    }
}

/// The auto engine: the shipped phases and budgets, as the flags adjust them.
fn auto(f: &Flags) -> AutoEngine {
    let shipped = AutoEngine::shipped(f.solver, f.symmetry);
    // A certificate asks for invariants: no explicit phase first, and IC3 keeps
    // its budget (no race).
    let proofs = f.certificate;
    let searched = |seconds: f64| if proofs { 0.0 } else { seconds };
    let budgets = Budgets {
        explicit: searched(shipped.budgets.explicit),
        live_explicit: searched(shipped.budgets.live_explicit),
        bmc_depth: f.depth.unwrap_or(shipped.budgets.bmc_depth),
        ..shipped.budgets
    };
    AutoEngine {
        dead_cells: f.dead_cells,
        shorten: f.shorten,
        budgets,
        max_states: f.max_states,
        rank_ints: f.rank_ints,
        race: !proofs,
        ..shipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of a command line that gives none.
    fn flags() -> Flags {
        Flags {
            solver: SolverKind::default_kind(),
            solver_given: false,
            symmetry: true,
            dead_cells: true,
            deadlock: false,
            max_states: None,
            store: StoreKind::Exact,
            shorten: true,
            threads: None,
            rank_ints: true,
            partial_symmetry: false,
            cluster: None,
            depth: None,
            encoding: Encoding::Binary,
            por: Por::Idle,
            whole_aggregate: false,
            one_by_one: false,
            symbreak: SymBreak::WitnessLex,
            to_safety: None,
            certificate: false,
        }
    }

    #[test]
    fn flags_choose_their_engine() {
        let pick = |f: &Flags| choose(None, f).map(|e| e.name);
        assert_eq!(pick(&flags()), Ok("auto"));
        let deadlock = Flags {
            deadlock: true,
            ..flags()
        };
        assert_eq!(pick(&deadlock), Ok("explicit"));
        let depth = Flags {
            depth: Some(3),
            ..flags()
        };
        assert_eq!(pick(&depth), Ok("sat"));
        // The explicit choice comes first, then the depth does not fit it.
        let both = Flags {
            max_states: Some(9),
            ..depth
        };
        assert!(pick(&both).unwrap_err().starts_with("--depth bounds"));
    }

    #[test]
    fn a_flag_of_another_engine_is_refused() {
        let ic3 = by_name("ic3");
        let f = Flags {
            deadlock: true,
            ..flags()
        };
        assert!(choose(ic3, &f).unwrap_err().starts_with("--deadlock"));
        let f = Flags {
            to_safety: Some(ToSafety::L2s),
            ..flags()
        };
        assert!(choose(ic3, &f).is_ok());
        assert!(choose(by_name("auto"), &f).is_err());
    }

    #[test]
    fn every_engine_has_one_name() {
        for e in &ENGINES {
            assert!(std::ptr::eq(by_name(e.name).unwrap(), e));
            assert_eq!(e.build(&flags()).name(), e.name);
            assert!(!(e.help)().is_empty());
        }
    }
}
