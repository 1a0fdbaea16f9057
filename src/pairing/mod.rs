//! Swiss pairing (floor 4: a pure domain service, no I/O): the FIDE Dutch system
//! (Handbook C.04.3, 2025 rules, with C.04.1's basic rules), tournaments read
//! from and written to FIDE's Tournament Report File format.
//!
//! `trf` reads and writes TRF; `roster` derives what the rules look at (scores,
//! colour preferences, floats); `weights` turns the quality criteria into
//! matching weights; `brackets` pairs score bracket after score bracket with
//! `blossom` (maximum weight matching over `wide` integers); `dutch` is the
//! entry point and allocates colours; `generate` plays synthetic tournaments;
//! `tiebreak` ranks the players with FIDE's tie-breaks (C.07) after the rounds.
//!
//! The pairings are identical to those of bbpPairings 6 (a FIDE-endorsed
//! engine) on the 300 reference tournaments in tests/data/swiss.

pub mod arena;
pub mod blossom;
#[cfg(test)]
mod blossom_tests;
pub mod brackets;
pub mod dutch;
pub mod generate;
pub mod roster;
pub mod tiebreak;
pub mod trf;
pub mod weights;
pub mod wide;

pub use dutch::{pair, Pairing};
pub use roster::PairingError;
pub use tiebreak::{standings, Standing};
pub use trf::{parse, Tournament, TrfError};
