//! Cubicle's `int`, made finite, in one room. A model's ints are read in one of these
//! ways: `literal` and `window` are decided when it is loaded (`lang::check::ints`
//! rewrites literal ints, the loader sets `Model::int_window`); `ranked` and
//! `abstracted` are decided on the model an engine is handed, which after the
//! reduction to what was asked (`model::reduce`) has other cells than the one loaded:
//! - `literal`: ints that only ever hold literals (and are compared with literals and
//!   copied) become a finite enumeration of their values, read exactly at every size;
//! - `window`: otherwise every int ranges over a window `lo..hi`, leaving it is the
//!   pseudo-property `int_bound`;
//! - `abstracted`: ints that also step (`X + k`) read over the classes of their
//!   literals, an over-approximation that proves and never refutes (built from a model
//!   for the proof for every n);
//! - `ranked`: ints only compared, copied and incremented from the largest (tickets,
//!   Lamport's bakery) replaced by their rank by the explicit search.
//!
//! `classes` is the union-find over variables that the analyses share.

pub mod abstracted;
pub mod classes;
pub mod literal;
pub mod order;
pub mod ranked;
pub mod window;

pub use window::{INT_MARGIN, IntWindow, MAX_INT_VALUES};
