//! Pairings of synthetic Swiss fields written to files, to check that a change to the
//! Dutch pairing's search changes no pairing (docs/tournaments.md, "Speed").
//!
//! `cargo run --release --example swiss_fields -- write DIR` writes, for each field, its
//! history as TRF (`NAME.trf`, every round of the synthetic fields paired by the code being
//! run) and the next round's pairing (`NAME.pairing`, JaVaFo text). `... -- check DIR`
//! generates the fields again and pairs the stored TRF files, and reports every file that
//! differs; it exits with failure if any does.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use toguz::pairing::{generate, pair, parse, trf, PairingError, Tournament};

/// (players, rounds played, total rounds, seed, quick history).
const FIELDS: &[(usize, usize, usize, u64, bool)] = &[
    (100, 10, 11, 1, false),
    (300, 10, 11, 1, false),
    (1000, 10, 11, 1, true),
    (51, 5, 9, 2, false),
    (64, 2, 7, 3, false),
    (77, 6, 9, 4, false),
    (150, 8, 9, 5, false),
    (201, 3, 9, 6, false),
    (256, 9, 11, 7, false),
    (499, 9, 11, 8, true),
    (600, 4, 9, 9, true),
    (777, 7, 11, 10, true),
    (999, 10, 11, 11, true),
    (1000, 2, 11, 12, true),
];

fn name(&(players, rounds, total, seed, quick): &(usize, usize, usize, u64, bool)) -> String {
    let kind = if quick { "quick" } else { "dutch" };
    format!("{kind}-{players}p-{rounds}of{total}-s{seed}")
}

fn field(&(players, rounds, total, seed, quick): &(usize, usize, usize, u64, bool)) -> Tournament {
    let made = if quick {
        generate::synthetic_quick(players, rounds, total, seed)
    } else {
        generate::synthetic(players, rounds, total, seed)
    };
    made.unwrap_or_else(|e| panic!("field {players}/{rounds}: {e:?}"))
}

fn pairing_text(tournament: &Tournament) -> Result<String, PairingError> {
    pair(tournament).map(|p| p.to_javafo())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, dir) = match args.as_slice() {
        [mode, dir] if mode == "write" || mode == "check" => (mode.as_str(), Path::new(dir)),
        _ => {
            eprintln!("usage: swiss_fields write|check DIR");
            return ExitCode::FAILURE;
        }
    };
    let mut differences = 0;
    for spec in FIELDS {
        let base = dir.join(name(spec));
        let started = Instant::now();
        let text = trf::write(&field(spec));
        let (trf_path, pairing_path) = (base.with_extension("trf"), base.with_extension("pairing"));
        if mode == "write" {
            let paired = pairing_text(&parse(&text).expect("own TRF")).expect("a pairing");
            std::fs::create_dir_all(dir).expect("the directory");
            std::fs::write(&trf_path, &text).expect("the TRF file");
            std::fs::write(&pairing_path, paired).expect("the pairing file");
        } else {
            let stored = std::fs::read_to_string(&trf_path).unwrap_or_default();
            if stored != text {
                println!("DIFFERENT history: {}", trf_path.display());
                differences += 1;
            }
            let expected = std::fs::read_to_string(&pairing_path).unwrap_or_default();
            let paired = parse(&stored).ok().map(|t| pairing_text(&t));
            if paired != Some(Ok(expected)) {
                println!("DIFFERENT pairing: {}", pairing_path.display());
                differences += 1;
            }
        }
        println!("{} {:.2} s", name(spec), started.elapsed().as_secs_f64());
    }
    if differences == 0 {
        println!("all identical");
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
