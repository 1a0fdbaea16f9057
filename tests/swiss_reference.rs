//! The Dutch pairing against the reference: 300 tournaments in mid-run (tests/data/swiss,
//! see its README) with the next round as bbpPairings 6 (FIDE Dutch 2025 rules) pairs it.
//! Every board, colour and board order must be identical.

use std::path::Path;
use toguz::pairing::{pair, parse, trf};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/swiss");

fn seeds() -> Vec<String> {
    let mut seeds: Vec<String> = std::fs::read_dir(DATA)
        .expect("tests/data/swiss")
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".trf").map(str::to_string)
        })
        .collect();
    seeds.sort();
    seeds
}

fn read(seed: &str, extension: &str) -> String {
    let path = Path::new(DATA).join(format!("{seed}.{extension}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A line-by-line comparison, marking the lines that differ.
fn diff(want: &str, got: &str) -> String {
    let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    (0..want.len().max(got.len()))
        .map(|i| {
            let (w, g) = (
                want.get(i).copied().unwrap_or(""),
                got.get(i).copied().unwrap_or(""),
            );
            format!("{} {w:<10} {g}", if w == g { " " } else { "!" })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_reference_pairing_is_reproduced_exactly() {
    let seeds = seeds();
    assert_eq!(seeds.len(), 300, "the reference set has 300 tournaments");
    let mut failures = Vec::new();
    for seed in &seeds {
        let want = read(seed, "pairs");
        let got = match parse(&read(seed, "trf")) {
            Err(e) => format!("cannot read: {e}"),
            Ok(tournament) => match pair(&tournament) {
                Ok(pairing) => pairing.to_javafo(),
                Err(e) => format!("cannot pair: {e}"),
            },
        };
        if got.trim_end() != want.trim_end() {
            failures.push(format!("seed {seed} (want | got):\n{}", diff(&want, &got)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} pairings differ from the reference:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_reference_file_survives_a_round_trip_through_the_writer() {
    for seed in seeds() {
        let tournament = parse(&read(&seed, "trf")).expect("a reference file");
        let again = parse(&trf::write(&tournament)).expect("the writer's output");
        assert_eq!(tournament, again, "seed {seed}");
    }
}
