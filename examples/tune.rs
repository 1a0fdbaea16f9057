//! Fits the evaluation's weights (`toguz::engine::eval::Weights`) to the results of real games
//! ("Texel tuning"): every position of every finished game is played out to a quiet position
//! (captures and tuzdeks, as the search's quiescence stage does), and the weights are moved to
//! make `1 / (1 + 10^(-k * score / 400))` predict the game's result as well as possible (mean
//! squared error). The store difference stays at one ball per ball: it sets the scale.
//!
//! `cargo run --release --example tune [PGN ...]` (default: the records in tests/data) prints
//! the error before and after and the fitted weights as Rust, for `Weights::TUNED`.

use anyhow::Context;
use toguz::engine::eval::{evaluate_with_gains, term, terms, Blend, Terms, Weights};
use toguz::engine::{is_loss, is_win};
use toguz::rules::{parse_records, replay, Position, RecordResult, Side, Variant};

/// One position of a real game, played out to a quiet one.
struct Sample {
    /// The quiet position's terms, for its side to move.
    terms: Terms,
    /// What the weights do not touch, from White's side: the store difference and threats.
    fixed: f64,
    /// +1 when the quiet position's side to move is White, -1 otherwise.
    sign: f64,
    /// White's result: 1, 0.5 or 0.
    result: f64,
}

fn main() -> anyhow::Result<()> {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
        paths = vec![
            format!("{data}/championships-kz-2018.pgn"),
            format!("{data}/playok-2024-2025.pgn"),
        ];
    }
    let games = load_games(&paths)?;
    println!(
        "{} finished games, {} positions",
        games.len(),
        games.iter().map(|g| g.0.len()).sum::<usize>()
    );
    let mut weights = Weights::HAND_SET;
    let mut current = samples(&games, &weights);
    let mut k = fit_scale(&current, &weights);
    let hand_error = error(&current, &weights, k);
    println!("scale k = {k:.4}; hand-set error {hand_error:.6}");
    // The quiet positions and the best scale depend on the weights: fit, play out again, fit
    // the scale again, and so on (the first round's positions are the hand-set ones above).
    for round in 1..=4 {
        if round > 1 {
            current = samples(&games, &weights);
        }
        weights = fit(&current, weights, k);
        k = fit_scale(&current, &weights);
        println!(
            "round {round}: error {:.6}, scale k = {k:.4}",
            error(&current, &weights, k)
        );
    }
    println!(
        "tuned error {:.6} on its own quiet positions (hand-set {hand_error:.6} on its own)",
        error(&samples(&games, &weights), &weights, k)
    );
    println!("{}", as_rust(&weights));
    Ok(())
}

/// Every finished game: the positions before each move (game over excluded) and White's result.
fn load_games(paths: &[String]) -> anyhow::Result<Vec<(Vec<Position>, f64)>> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        for record in parse_records(&text).into_iter().flatten() {
            let result = match record.written_result() {
                Some(RecordResult::WhiteWins) => 1.0,
                Some(RecordResult::BlackWins) => 0.0,
                Some(RecordResult::Draw) => 0.5,
                _ => continue,
            };
            let Ok(start) = record.start_position() else {
                continue;
            };
            let Ok(plies) = replay(&record, start) else {
                continue;
            };
            let mut positions = vec![start];
            positions.extend(plies.iter().map(|p| p.position).filter(|p| !p.is_over()));
            games.push((positions, result));
        }
    }
    Ok(games)
}

fn samples(games: &[(Vec<Position>, f64)], weights: &Weights) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut blend = Blend::new(*weights, Variant::STANDARD.total() as i32);
    for (positions, result) in games {
        for pos in positions {
            let total = pos.variant().total() as i32;
            if blend.total() != total {
                blend = Blend::new(*weights, total);
            }
            let (score, leaf) = quiet(pos, &blend, -100_000, 100_000, 6);
            if leaf.is_over() || is_win(score) || is_loss(score) {
                continue; // decided: the weights do not matter
            }
            let sign = if leaf.to_move() == Side::White {
                1.0
            } else {
                -1.0
            };
            let terms = terms(&leaf);
            let full = evaluate_with_gains(&leaf, 0, &blend).0;
            out.push(Sample {
                terms,
                fixed: sign * (full - blend.apply(&terms)) as f64,
                sign,
                result: *result,
            });
        }
    }
    out
}

/// The quiescence search, returning the position its best line ends in.
fn quiet(pos: &Position, blend: &Blend, mut alpha: i32, beta: i32, plies: u32) -> (i32, Position) {
    let (stand, gains) = evaluate_with_gains(pos, 0, blend);
    let mut best = (stand, *pos);
    if plies == 0 || stand >= beta || is_win(stand) {
        return best;
    }
    alpha = alpha.max(stand);
    for mv in pos.legal_moves().iter() {
        if gains[mv as usize - 1] <= 0 {
            continue;
        }
        let mut child = *pos;
        if child.play(mv).is_err() {
            continue;
        }
        let (score, leaf) = if child.is_over() {
            (0, child) // skipped by the caller
        } else {
            let (s, leaf) = quiet(&child, blend, -beta, -alpha, plies - 1);
            (-s, leaf)
        };
        if score > best.0 {
            best = (score, leaf);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

fn predicted(sample: &Sample, weights: &Weights) -> f64 {
    sample.fixed + sample.sign * weights.apply(&sample.terms) as f64
}

/// `predicted` with unrounded weights: opening ones first, then endgame ones.
fn predicted_exact(sample: &Sample, w: &[f64]) -> f64 {
    let open = sample.terms.on_board as f64 / sample.terms.total as f64;
    let mut sum = 0.0;
    for (i, &value) in sample.terms.values.iter().enumerate() {
        if value != 0 {
            sum += value as f64 * (w[i] * open + w[term::COUNT + i] * (1.0 - open));
        }
    }
    sample.fixed + sample.sign * sum
}

fn sigmoid(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(predicted(s, weights), k)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The scale that makes the hand-set weights predict best (a coarse then a fine scan).
fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let mut best = (f64::MAX, 1.0);
    let mut step = 0.05;
    let mut centre = 0.5;
    for _ in 0..3 {
        for i in -10..=10 {
            let k = centre + i as f64 * step;
            if k > 0.0 {
                let e = error(samples, weights, k);
                if e < best.0 {
                    best = (e, k);
                }
            }
        }
        centre = best.1;
        step /= 10.0;
    }
    best.1
}

/// Adam over the weights (as floats), full batch; the weights of pit 9's tuzdek (never seen in
/// the standard game) follow pit 8's.
fn fit(samples: &[Sample], start: Weights, k: f64) -> Weights {
    const N: usize = 2 * term::COUNT;
    let mut w = [0f64; N];
    for i in 0..term::COUNT {
        w[i] = start.opening[i] as f64;
        w[term::COUNT + i] = start.endgame[i] as f64;
    }
    let (mut m, mut v) = ([0f64; N], [0f64; N]);
    let (beta1, beta2, rate) = (0.9, 0.999, 2.0);
    let ln10 = std::f64::consts::LN_10;
    for step in 1..=600 {
        let mut grad = [0f64; N];
        for s in samples {
            let p = sigmoid(predicted_exact(s, &w), k);
            // d(err)/d(score) for this sample.
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k * ln10 / 400.0 * s.sign;
            let total = s.terms.total as f64;
            let open = s.terms.on_board as f64 / total;
            for (i, &value) in s.terms.values.iter().enumerate() {
                if value != 0 {
                    grad[i] += d * value as f64 * open;
                    grad[term::COUNT + i] += d * value as f64 * (1.0 - open);
                }
            }
        }
        for i in 0..N {
            let g = grad[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step));
            let v_hat = v[i] / (1.0 - beta2.powi(step));
            w[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        w[term::TUZDEK + 8] = w[term::TUZDEK + 7];
        w[term::COUNT + term::TUZDEK + 8] = w[term::COUNT + term::TUZDEK + 7];
        if step % 100 == 0 {
            println!(
                "  step {step}: error {:.6}",
                error(samples, &to_weights(&w), k)
            );
        }
    }
    to_weights(&w)
}

fn to_weights(w: &[f64]) -> Weights {
    let mut out = Weights {
        opening: [0; term::COUNT],
        endgame: [0; term::COUNT],
    };
    for i in 0..term::COUNT {
        out.opening[i] = w[i].round() as i32;
        out.endgame[i] = w[term::COUNT + i].round() as i32;
    }
    out
}

fn as_rust(w: &Weights) -> String {
    format!(
        "pub const TUNED: Weights = Weights {{\n    opening: {:?},\n    endgame: {:?},\n}};",
        w.opening, w.endgame
    )
}
