//! Warm starts of the matching (`blossom.rs`): after edge weights change, the
//! duals of the vertices whose edges changed are refitted, the blossoms holding a
//! changed edge are dissolved, and matched pairs no longer tight are unmatched,
//! so that the search starts from the previous optimum. Split from the search.

use super::{MatchingComputer, NONE};
use crate::pairing::wide::Weight;

impl<W: Weight> MatchingComputer<W> {
    /// Sets `v`'s dual to the least value that keeps its edges feasible, and
    /// unmatches it if its matched edge is no longer tight.
    pub(super) fn refit(&mut self, v: usize) {
        let mut best: Option<W> = None;
        for w in self.neighbours(v) {
            let need = self.doubled_weight(v, w).minus(self.dualvar[w]);
            if best.is_none_or(|b| need > b) {
                best = Some(need);
            }
        }
        if let Some(best) = best {
            self.dualvar[v] = best;
            self.dual_changed(v);
        }
        self.unmatch_if_loose(v);
    }

    pub(super) fn unmatch_if_loose(&mut self, v: usize) {
        if self.mate[v] == NONE {
            return;
        }
        let m = self.endpoint(self.mate[v]);
        let k = self.canonical(v, m);
        if !self.present(v, m) || self.slack(k) != W::zero() {
            self.mate[v] = NONE;
            self.mate[m] = NONE;
            self.loose.push((v, m));
        }
    }

    /// Matches again the pairs unmatched by the refits whose edge is tight
    /// once both ends have their least feasible duals. Refitting only the
    /// vertex whose edges changed left most such pairs loose, and after a
    /// bracket step that reweights many edges at once every loose pair cost
    /// one more stage of the search.
    pub(super) fn rematch_loose(&mut self) {
        for (a, b) in std::mem::take(&mut self.loose) {
            let trivial = |v: usize| self.inblossom[v] == v && self.mate[v] == NONE;
            if a >= self.size || b >= self.size || !trivial(a) || !trivial(b) {
                continue;
            }
            if !self.present(a, b) {
                continue;
            }
            self.refit(b);
            self.refit(a);
            if self.slack(self.canonical(a, b)) == W::zero() {
                self.mate[a] = a * self.n + b;
                self.mate[b] = b * self.n + a;
            }
        }
    }

    /// Turns the duals of every blossom holding a changed edge into its
    /// vertices' duals (which keeps every edge feasible) and forgets those
    /// blossoms; matched edges that stop being tight are unmatched.
    pub(super) fn dissolve_dirty_blossoms(&mut self) {
        let dirty = std::mem::take(&mut self.dirty);
        for b in dirty {
            if b < self.n || self.blossombase[b] == NONE || self.blossomparent[b] != NONE {
                continue;
            }
            let leaves = self.leaves_of(b);
            self.release(b);
            for &v in &leaves {
                self.inblossom[v] = v;
                self.blossomparent[v] = NONE;
            }
            for &v in &leaves {
                self.unmatch_if_loose(v);
            }
        }
    }

    /// Moves the duals of `b` and its sub-blossoms onto their vertices and
    /// frees their slots.
    pub(super) fn release(&mut self, b: usize) {
        let z = self.dualvar[b];
        if z != W::zero() {
            for v in self.leaves_of(b) {
                self.dualvar[v] = self.dualvar[v].plus(z);
                self.dual_changed(v);
            }
        }
        for child in std::mem::take(&mut self.blossomchilds[b]) {
            if child >= self.n {
                self.release(child);
            }
        }
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossomparent[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.labelend[b] = NONE;
        self.label[b] = 0;
        self.dualvar[b] = W::zero();
        self.unusedblossoms.push(b);
    }
}
