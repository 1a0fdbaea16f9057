//! The matching against brute force on small random graphs, cold and warm.

use super::blossom::MatchingComputer;

/// The best weight over matchings that leave at most one vertex unmatched.
fn brute_force(n: usize, weight: &dyn Fn(usize, usize) -> i64) -> Option<i64> {
    fn go(free: &mut Vec<usize>, weight: &dyn Fn(usize, usize) -> i64, spare: bool) -> Option<i64> {
        let Some(&first) = free.first() else {
            return Some(0);
        };
        let mut best: Option<i64> = None;
        if spare {
            let rest = free.remove(0);
            if let Some(w) = go(free, weight, false) {
                best = Some(w);
            }
            free.insert(0, rest);
        }
        for i in 1..free.len() {
            let other = free[i];
            let w = weight(first, other);
            if w == 0 {
                continue;
            }
            let mut rest: Vec<usize> = free
                .iter()
                .copied()
                .filter(|&v| v != first && v != other)
                .collect();
            if let Some(sub) = go(&mut rest, weight, spare) {
                best = Some(best.map_or(sub + w, |b| b.max(sub + w)));
            }
        }
        best
    }
    go(&mut (0..n).collect(), weight, n % 2 == 1)
}

fn total(mate: &[usize], weight: &dyn Fn(usize, usize) -> i64) -> i64 {
    (0..mate.len())
        .filter(|&v| mate[v] > v)
        .map(|v| weight(v, mate[v]))
        .sum()
}

fn set(weights: &mut [Vec<i64>], a: usize, b: usize, w: i64) {
    weights[a][b] = w;
    weights[b][a] = w;
}

#[test]
fn matches_brute_force_cold_and_after_changes() {
    let mut seed = 12345u64;
    let mut random = move |bound: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % bound
    };
    for round in 0..3000 {
        let n = 2 + (round % 7) as usize;
        let mut weights = vec![vec![0i64; n]; n];
        let mut mc = MatchingComputer::<i64>::new(n);
        for a in 0..n {
            for b in 0..a {
                let w = if random(4) == 0 { 0 } else { random(20) as i64 };
                set(&mut weights, a, b, w);
                mc.set_edge_weight(a, b, w);
            }
        }
        for change in 0..4 {
            let lookup = |a: usize, b: usize| weights[a][b];
            let want = brute_force(n, &lookup);
            let got = mc.compute_matching();
            match (want, got) {
                (None, None) => {}
                (Some(best), Some(mate)) => {
                    assert_eq!(
                        total(&mate, &lookup),
                        best,
                        "round {round} change {change}: {weights:?}"
                    );
                    assert!((0..n).filter(|&v| mate[v] == v).count() <= 1);
                }
                (want, got) => panic!("round {round} change {change}: want {want:?}, got {got:?}"),
            }
            let (a, b) = (random(n as u64) as usize, random(n as u64) as usize);
            if a != b {
                let w = random(30) as i64;
                set(&mut weights, a, b, w);
                mc.set_edge_weight(a, b, w);
            }
        }
    }
}
