//! Which edges are tight, and each vertex's and blossom's least-slack edge, cached
//! between dual changes (`blossom.rs`): the search asks these for every edge it scans,
//! and recomputing them in wide arithmetic was most of a large round's time.

use super::MatchingComputer;
use crate::pairing::wide::Weight;

/// The slack of a vertex's or blossom's least-slack edge as last computed:
/// valid while its edge and every vertex dual are unchanged (`epoch`). The
/// search compares against these slacks for every edge it scans, and
/// recomputing them in wide arithmetic was two fifths of the pairing's time.
#[derive(Clone, Copy)]
pub(super) struct SlackCache<W> {
    pub(super) edge: usize,
    pub(super) epoch: u64,
    pub(super) slack: W,
}

impl<W: Weight> MatchingComputer<W> {
    /// Records that `v`'s dual changed, which voids the cached tightness of
    /// its edges.
    pub(super) fn dual_changed(&mut self, v: usize) {
        if self.clock >= u32::MAX >> 1 {
            self.tight.iter_mut().for_each(|t| *t = 0);
            self.dual_changed.iter_mut().for_each(|c| *c = 1);
            self.clock = 1;
        }
        self.clock += 1;
        self.dual_changed[v] = self.clock;
        let rw = self.row_words;
        if !self.batch_open {
            if self.changes.len() >= 4096 * rw {
                // Forget every row rather than keep a long history.
                self.changes.clear();
                self.loose_bits.iter_mut().for_each(|bits| *bits = 0);
                self.loose_seen.iter_mut().for_each(|seen| *seen = 0);
            }
            self.changes.resize(self.changes.len() + rw, 0);
            self.batch_open = true;
        }
        let at = self.changes.len() - rw + v / 64;
        self.changes[at] |= 1 << (v % 64);
    }

    /// Brings row `v` of `loose_bits` up to date with the dual changes since it
    /// was last: the bits of the vertices whose duals changed are dropped,
    /// and the whole row when `v`'s own did.
    pub(super) fn loose_row(&mut self, v: usize) {
        let rw = self.row_words;
        self.batch_open = false;
        let batches = self.changes.len() / rw;
        let seen = self.loose_seen[v];
        if seen == batches {
            return;
        }
        self.loose_seen[v] = batches;
        let row = &mut self.loose_bits[v * rw..(v + 1) * rw];
        if batches - seen > 32 {
            row.fill(0);
            return;
        }
        let mut changed = vec![0u64; rw];
        for batch in self.changes[seen * rw..].chunks_exact(rw) {
            for (c, &b) in changed.iter_mut().zip(batch) {
                *c |= b;
            }
        }
        if (changed[v / 64] >> (v % 64)) & 1 == 1 {
            row.fill(0);
        } else {
            for (bits, c) in row.iter_mut().zip(&changed) {
                *bits &= !c;
            }
        }
    }

    /// Whether `v`-`w` has no slack (from the cache when still valid).
    pub(super) fn is_tight(&mut self, v: usize, w: usize) -> bool {
        let cached = self.tight[v * self.n + w];
        let when = cached >> 1;
        if when >= self.dual_changed[v] && when >= self.dual_changed[w] {
            return cached & 1 == 1;
        }
        let slack = self.dualvar[v]
            .plus(self.dualvar[w])
            .minus(self.doubled_weight(v, w));
        let tight = slack <= W::zero();
        let entry = self.clock << 1 | u32::from(tight);
        self.tight[v * self.n + w] = entry;
        self.tight[w * self.n + v] = entry;
        tight
    }

    /// Whether the edge `v`-`w` was found tight in this stage. Both directions
    /// are stored, so that a vertex's scan reads one row instead of a column.
    pub(super) fn allowed(&self, v: usize, w: usize) -> bool {
        self.allowed[v * self.n + w] == self.stamp
    }

    pub(super) fn allow(&mut self, k: usize) {
        let (i, j) = self.edge(k);
        self.allow_pair(i, j);
    }

    /// `allow` by the two ends, which a scan has without dividing `k` by `n`.
    pub(super) fn allow_pair(&mut self, i: usize, j: usize) {
        self.allowed[i * self.n + j] = self.stamp;
        self.allowed[j * self.n + i] = self.stamp;
    }

    /// The slack of `x`'s least-slack edge (`bestedge[x]`, which is set).
    pub(super) fn best_slack(&mut self, x: usize) -> W {
        let k = self.bestedge[x];
        let cache = self.best_slack[x];
        if cache.edge == k && cache.epoch == self.epoch {
            return cache.slack;
        }
        let slack = self.slack(k);
        self.set_best(x, k, slack);
        slack
    }

    /// Makes `k`, of slack `slack`, the least-slack edge of `x`.
    pub(super) fn set_best(&mut self, x: usize, k: usize, slack: W) {
        self.bestedge[x] = k;
        self.best_slack[x] = SlackCache {
            edge: k,
            epoch: self.epoch,
            slack,
        };
    }
}
