//! Engines made of engines, above the single engines and below the command line:
//! `auto`, the default (explicit search while sizes are cheap, then BMC and IC3 on the
//! aggregate of the sizes left; for `ltl` properties `live`, under the same policy,
//! `growth`), and `every`, the proof for every n (IC3 at small sizes
//! and the cutoff argument of `proof::cutoff`); `probe`, the short explicit search that
//! says when an engine the user chose is far off auto's route.

pub mod auto;
mod beside;
pub mod budgets;
pub mod every;
pub mod every_live;
pub mod growth;
mod ledger;
mod ltl_route;
pub mod probe;
mod ranged;
pub mod reduced;
pub mod registry;
pub mod route;
mod safety_route;
mod walk;
