//! The bracket-by-bracket search of the Dutch pairing over weighted matchings.

use super::blossom::MatchingComputer;
use super::roster::{Entrant, PairingError};
use super::weights::Layout;
use super::wide::Wide;
use std::collections::HashMap;

type W<const L: usize> = Wide<L>;

/// Every player's opponent by index (`None`: the bye), or an error when the
/// absolute criteria leave no pairing.
pub fn run<const L: usize>(
    layout: &mut Layout,
    sorted: &[usize],
) -> Result<Vec<Option<usize>>, PairingError> {
    let roster = layout.roster;
    let n = sorted.len();
    let player = |v: usize| -> &Entrant { &roster.players[sorted[v]] };
    let score = |v: usize| player(v).score;
    let max_weight = W::<L>::ones(layout.total_bits() + 2);
    let mut mc = MatchingComputer::<W<L>>::new(n);
    let top = score(0);
    let odd = n % 2 == 1;

    // Completability: can everybody but one be paired, and who gets the bye?
    for p in 0..n {
        for o in 0..p {
            let w = if odd {
                if layout.compatible(player(p), player(o)) {
                    let elig = |v: usize| u64::from(!layout.eligible_for_bye(player(v)));
                    let shift = |v: usize| u64::from(layout.group_shift[&score(v)]);
                    W::<L>::from_u64(1 + elig(p) + elig(o))
                        .shifted(layout.groups_shift)
                        .add_u64(shift(p) + shift(o))
                        .shifted(layout.group_bits)
                        .add_u64(u64::from(score(p) >= top))
                } else {
                    W::ZERO
                }
            } else {
                layout.edge(player(o), player(p), false, false)
            };
            mc.set_edge_weight(p, o, w);
        }
    }
    let matching = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
    if (0..n).filter(|&v| matching[v] == v).count() > 1 {
        return Err(PairingError::NoValidPairing);
    }
    if odd {
        let bye = (0..n).find(|&v| matching[v] == v).unwrap_or(n - 1);
        layout.bye_score = score(bye);
        for p in 0..n {
            for o in 0..p {
                mc.set_edge_weight(p, o, layout.edge(player(o), player(p), false, false));
            }
        }
        layout.single_downfloater_is_bye = layout.bye_score >= top
            && (0..n)
                .take_while(|&v| score(v) >= top)
                .all(|v| score(matching[v]) >= top);
        let mut counts: Vec<usize> = (0..n)
            .filter(|&v| score(v) == layout.bye_score)
            .map(|v| layout.unplayed_games(player(v)))
            .collect();
        counts.sort_unstable();
        let mut ranks = HashMap::new();
        for (rank, count) in counts.into_iter().enumerate() {
            ranks.insert(count, rank as u64);
        }
        layout.unplayed_rank = ranks;
    }

    let mut mates: Vec<Option<usize>> = vec![None; roster.players.len()];
    let mut matched = vec![false; n];
    // The bracket: moved-down players first, then the score group's residents.
    let mut bracket: Vec<usize> = (0..n).take_while(|&v| score(v) >= top).collect();
    let mut next_group = bracket.len();
    let mut moved_down = 0usize;
    let mut group_begin_vertex = 0usize;
    let mut stable;

    while bracket.len() > 1 || next_group != n {
        let residents_end = bracket.len();
        let next_begin_vertex = group_begin_vertex + (residents_end - moved_down);
        let group_start = next_group;
        if next_group < n {
            let s = score(next_group);
            while next_group < n && score(next_group) >= s {
                bracket.push(next_group);
                next_group += 1;
            }
        }
        let in_range = |m: usize| m >= group_begin_vertex && m < next_begin_vertex;

        // Base weights: [larger][smaller] bracket indices.
        let mut base: Vec<Vec<W<L>>> = vec![Vec::new(); bracket.len()];
        for larger in moved_down..bracket.len() {
            for smaller in 0..larger {
                let w = layout.edge(
                    player(bracket[smaller]),
                    player(bracket[larger]),
                    larger < residents_end,
                    larger >= residents_end,
                );
                base[larger].push(w);
                mc.set_edge_weight(bracket[larger], bracket[smaller], w);
            }
        }
        let remainder_weight =
            |base: &Vec<Vec<W<L>>>, smaller: usize, larger: usize, index: usize, pairs: usize| {
                let mut result = base[larger][smaller];
                if !result.is_zero() {
                    let addend = W::<L>::from_u64(u64::from(index < pairs))
                        .shifted(2 * layout.group_bits)
                        .sub_u64(index as u64)
                        .shifted(1);
                    result = result.plus(addend);
                }
                result
            };

        stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;

        // Which moved-down players get paired in this bracket.
        let mut group_score = 0;
        let mut remaining = 0usize;
        let mut remaining_matched = 0usize;
        for pi in 0..moved_down {
            if pi == 0 || score(bracket[pi]) < group_score {
                group_score = score(bracket[pi]);
                remaining = 0;
                remaining_matched = 0;
                let mut j = pi;
                while j < bracket.len() && score(bracket[j]) >= group_score {
                    remaining += 1;
                    if in_range(stable[bracket[j]]) {
                        remaining_matched += 1;
                    }
                    j += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            let v = bracket[pi];
            if remaining <= remaining_matched {
                matched[v] = true;
                continue;
            }
            remaining -= 1;
            if !in_range(stable[v]) {
                for oi in moved_down..residents_end {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        mc.set_edge_weight(v, bracket[oi], w.add_u64(1));
                    }
                }
                stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
            }
            if in_range(stable[v]) {
                matched[v] = true;
                remaining_matched -= 1;
                for oi in moved_down..residents_end {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        let w = w.add_u64((residents_end - moved_down) as u64).add_u64(1);
                        mc.set_edge_weight(v, bracket[oi], w);
                    }
                }
            }
        }

        // Opponents of the moved-down players, best first.
        for pi in 0..moved_down {
            let v = bracket[pi];
            if !matched[v] {
                continue;
            }
            let mut addend = bracket.len() as u64;
            for oi in (moved_down..residents_end).rev() {
                let ov = bracket[oi];
                if matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    mc.set_edge_weight(v, ov, w.add_u64(addend));
                    addend += 1;
                }
            }
            stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
            let m = stable[v];
            matched[m] = true;
            finalize_pair(&mut mc, v, m, max_weight);
        }

        // The remainder: residents not paired with moved-down players.
        let mut remainder = Vec::new();
        let mut pairs = 0usize;
        for (ri, &v) in bracket
            .iter()
            .enumerate()
            .take(residents_end)
            .skip(moved_down)
        {
            if stable[v] < group_begin_vertex {
                continue;
            }
            remainder.push(ri);
            if stable[v] < v {
                pairs += 1;
            }
        }
        let set_remainder = |mc: &mut MatchingComputer<W<L>>, base: &Vec<Vec<W<L>>>| {
            for (oi_pos, &oi) in remainder.iter().enumerate() {
                for (pi_pos, &pi) in remainder.iter().enumerate().take(oi_pos) {
                    let _ = pi_pos;
                    mc.set_edge_weight(
                        bracket[pi],
                        bracket[oi],
                        remainder_weight(base, pi, oi, pi_pos, pairs),
                    );
                }
            }
        };
        set_remainder(&mut mc, &base);
        stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
        let forward =
            |stable: &Vec<usize>, v: usize| stable[v] > v && stable[v] < next_begin_vertex;

        let exchanges = remainder
            .iter()
            .take(pairs)
            .filter(|&&pi| !forward(&stable, bracket[pi]))
            .count();

        // Exchange the lowest possible players of S1.
        let mut left = exchanges;
        let mut pos = pairs;
        while pos > 0 && left > 0 {
            pos -= 1;
            let pi = remainder[pos];
            let v = bracket[pi];
            if forward(&stable, v) {
                for &oi in &remainder[pos + 1..] {
                    let w = remainder_weight(&base, pi, oi, pos, pairs);
                    if !w.is_zero() {
                        mc.set_edge_weight(v, bracket[oi], w.sub_u64(1));
                    }
                }
                stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
            }
            let exchange = !forward(&stable, v);
            left -= usize::from(exchange);
            for &oi in &remainder[pos + 1..] {
                if exchange {
                    base[oi][pi] = W::ZERO;
                }
                mc.set_edge_weight(v, bracket[oi], remainder_weight(&base, pi, oi, pos, pairs));
            }
        }

        // Exchange the highest possible players of S2.
        let mut left = exchanges;
        let mut pos = pairs;
        while pos < remainder.len() && left > 1 {
            let pi = remainder[pos];
            let v = bracket[pi];
            let already = forward(&stable, v);
            if !already {
                for &oi in &remainder[pos + 1..] {
                    let w = remainder_weight(&base, pi, oi, pos, pairs);
                    if !w.is_zero() {
                        mc.set_edge_weight(v, bracket[oi], w.add_u64(1));
                    }
                }
                stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
            }
            if forward(&stable, v) {
                left -= 1;
                for &oi in &remainder[..pos] {
                    base[pi][oi] = W::ZERO;
                    mc.set_edge_weight(v, bracket[oi], W::ZERO);
                }
                for oi in residents_end..bracket.len() {
                    base[oi][pi] = W::ZERO;
                    mc.set_edge_weight(v, bracket[oi], W::ZERO);
                }
            }
            if !already {
                for &oi in &remainder[pos + 1..] {
                    mc.set_edge_weight(v, bracket[oi], remainder_weight(&base, pi, oi, pos, pairs));
                }
            }
            pos += 1;
        }

        // Fix who is in S1 and who in S2, and drop the exchange bonuses.
        for (pos, &pi) in remainder.iter().enumerate() {
            let v = bracket[pi];
            for &oi in &remainder[pos + 1..] {
                let ov = bracket[oi];
                if !forward(&stable, v) || forward(&stable, ov) {
                    base[oi][pi] = W::ZERO;
                }
                mc.set_edge_weight(v, ov, base[oi][pi]);
            }
        }

        // Each S1 player in order takes the best opponent left.
        for &pi in &remainder {
            let v = bracket[pi];
            if !forward(&stable, v) {
                continue;
            }
            let mut addend = 0u64;
            for &oi in remainder.iter().rev() {
                let ov = bracket[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    mc.set_edge_weight(v, ov, w.add_u64(addend));
                }
                addend += 1;
            }
            stable = mc.compute_matching().ok_or(PairingError::NoValidPairing)?;
            let m = stable[v];
            matched[v] = true;
            matched[m] = true;
            finalize_pair(&mut mc, v, m, max_weight);
        }

        // Carry the unpaired players down.
        let mut carried = Vec::new();
        moved_down = 0;
        layout.single_downfloater_is_bye =
            odd && group_start != n && layout.bye_score == score(group_start);
        for (bi, &v) in bracket.iter().enumerate() {
            if bi < residents_end && matched[v] {
                mates[sorted[v]] = Some(sorted[stable[v]]);
                mates[sorted[stable[v]]] = Some(sorted[v]);
            } else {
                carried.push(v);
                if bi < residents_end {
                    moved_down += 1;
                }
                if score(stable[v]) < layout.bye_score {
                    layout.single_downfloater_is_bye = false;
                }
            }
        }
        bracket = carried;
        group_begin_vertex = next_begin_vertex;
    }
    Ok(mates)
}

/// Keeps `a`-`b` and removes every other edge of both.
fn finalize_pair<const L: usize>(
    mc: &mut MatchingComputer<W<L>>,
    a: usize,
    b: usize,
    weight: W<L>,
) {
    for u in 0..mc.size() {
        if u != a {
            mc.set_edge_weight(a, u, if u == b { weight } else { W::ZERO });
        }
        if u != b {
            mc.set_edge_weight(b, u, if u == a { weight } else { W::ZERO });
        }
    }
}
