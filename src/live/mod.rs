//! Liveness by the safety engines: an `ltl` property (under weak fairness or not)
//! becomes an `unsafe` property of a new model, the *product* (`product`), so that
//! BMC on the aggregate finds fair lassos at every size at once and IC3 proves their
//! absence with certified invariants; a counterexample of the product becomes a lasso
//! of the original model (`decode`), replayed on its interpreter before it is reported.
//!
//! The reduction is liveness-to-safety (A. Biere, C. Artho, V. Schuppan, "Liveness
//! checking as safety checking", FMICS 2002) on the product of the model with the Büchi
//! automaton of the negated property (`ltl::LtlProperty`), written as a model in the
//! input language, so that every engine, the certificate check and `nfold certify`
//! read one text (the aggregate's `$` slots, T. Wahl's thesis ch. 11, need nothing of
//! their own: the product is a family like any other).

pub mod decode;
mod expr;
pub mod product;
pub mod report;
pub mod response;

pub use decode::{Decoded, decode_lasso, decode_trace, lasso_in_rounds, picture};
pub use product::{LOOP_PROP, Origin, Product, Variant};
pub use report::{certified_model, fill_unknown, mark_certificate, merge, translate};
