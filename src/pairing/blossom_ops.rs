//! The blossoms of the matching (`blossom.rs`): finding one when two search trees meet
//! (`scan_blossom`), shrinking it (`add_blossom`), expanding it again (`expand_blossom`)
//! and carrying an augmenting path through it (`augment_blossom`). Split from the search
//! that drives them; the state is `MatchingComputer`'s.

use super::{MatchingComputer, NONE};

/// A new blossom's least-slack edge to each S-blossom (`NONE`: none yet)
/// with its slack, and the S-blossoms reached so far.
pub(super) struct BestTo<'a, W> {
    edge: &'a mut [usize],
    slack: &'a mut [W],
    reached: &'a mut Vec<usize>,
}
use crate::pairing::wide::Weight;

impl<W: Weight> MatchingComputer<W> {
    pub(super) fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b]);
                b = self.inblossom[v];
                v = self.endpoint(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.edge(k);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        let (ka, kb) = self.edge(k);
        endps.push(kb * self.n + ka);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.flip(self.labelend[bw]));
            w = self.endpoint(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        let rw = self.row_words;
        self.members[b * rw..(b + 1) * rw].fill(0);
        for &child in &path {
            for word in 0..rw {
                self.members[b * rw + word] |= self.members[child * rw + word];
            }
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.gather_leaves(b);
        // A T-child's vertices become S-vertices to scan; the label is the
        // child's, so it is read once per child rather than once per vertex.
        for &child in &path {
            if self.label[child] == 2 {
                if child < self.n {
                    self.queue.push(child);
                } else {
                    self.queue.extend_from_slice(&self.blossomleaves[child]);
                }
            }
        }
        for &v in &self.blossomleaves[b] {
            self.inblossom[v] = b;
        }
        if self.lazy {
            self.lazy_blossoms.push(b);
            self.bestedge[b] = NONE;
            return;
        }
        // Kept between calls (all `NONE` again on return): a fresh pair of
        // arrays of `2 n` wide slacks per blossom was mostly filling memory.
        let mut bestedgeto = std::mem::take(&mut self.best_to);
        let mut bestslackto = std::mem::take(&mut self.best_to_slack);
        let mut reached = std::mem::take(&mut self.best_to_reached);
        let mut scratch = BestTo {
            edge: &mut bestedgeto,
            slack: &mut bestslackto,
            reached: &mut reached,
        };
        for &bv in &path {
            // Neighbours scanned in place rather than gathered into lists first:
            // that allocation was a tenth of the pairing's time.
            match self.blossombestedges[bv].take() {
                None => {
                    // Edges inside `b` are masked out: `consider_best_edge`
                    // skips them, and late in a round they are most edges.
                    for v in self.leaves_of(bv) {
                        for word in 0..rw {
                            let own = self.members[b * rw + word];
                            let mut bits = self.adjacent[v * rw + word] & !own;
                            while bits != 0 {
                                let w = word * 64 + bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                let k = self.canonical(v, w);
                                self.consider_outside(b, v, w, k, &mut scratch);
                            }
                        }
                    }
                }
                Some(list) => {
                    for k in list {
                        self.consider_best_edge(b, k, &mut scratch);
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let mut list = Vec::new();
        let mut best = NONE;
        let mut best_slack = W::zero();
        // In the order of the blossoms reached, as a walk over all would be.
        reached.sort_unstable();
        for &bj in &reached {
            let (k, slack) = (bestedgeto[bj], bestslackto[bj]);
            bestedgeto[bj] = NONE;
            list.push(k);
            if best == NONE || slack < best_slack {
                best = k;
                best_slack = slack;
            }
        }
        reached.clear();
        self.best_to = bestedgeto;
        self.best_to_slack = bestslackto;
        self.best_to_reached = reached;
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = NONE;
        if best != NONE {
            self.set_best(b, best, best_slack);
        }
    }

    /// Keeps `k` as the least-slack edge from new blossom `b` to its S-blossom.
    pub(super) fn consider_best_edge(&self, b: usize, k: usize, to: &mut BestTo<'_, W>) {
        let (i, j) = self.edge(k);
        if self.inblossom[j] == b {
            self.consider_outside(b, j, i, k, to);
        } else {
            self.consider_outside(b, i, j, k, to);
        }
    }

    /// `consider_best_edge` for `k` = `inside`-`outside` with `outside` not
    /// known to be in `b`, by its ends.
    pub(super) fn consider_outside(
        &self,
        b: usize,
        inside: usize,
        outside: usize,
        k: usize,
        to: &mut BestTo<'_, W>,
    ) {
        let bj = self.inblossom[outside];
        if bj == b || self.label[bj] != 1 {
            return;
        }
        let slack = self.dualvar[inside]
            .plus(self.dualvar[outside])
            .minus(self.doubled_weight(inside, outside));
        if to.edge[bj] == NONE {
            to.reached.push(bj);
        } else if slack >= to.slack[bj] {
            return;
        }
        to.edge[bj] = k;
        to.slack[bj] = slack;
    }

    pub(super) fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint(self.flip(self.labelend[b]))];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, bool) = if j & 1 == 1 {
                j -= len;
                (1, false)
            } else {
                (-1, true)
            };
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let trick = |this: &Self, p: usize, flip: bool| if flip { this.flip(p) } else { p };
            let back = isize::from(endptrick);
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let pf = self.flip(p);
                let e = self.endpoint(pf);
                self.label[e] = 0;
                let q = endps[at(j - back)];
                let q_other = trick(self, q, !endptrick);
                let e = self.endpoint(q_other);
                self.label[e] = 0;
                self.assign_label(self.endpoint(pf), 2, p);
                let (qa, qb) = (q / self.n, q % self.n);
                let qk = self.canonical(qa, qb);
                self.allow(qk);
                j += jstep;
                p = trick(self, endps[at(j - back)], endptrick);
                let (pa, pb) = (p / self.n, p % self.n);
                let pk = self.canonical(pa, pb);
                self.allow(pk);
                j += jstep;
            }
            let bv = childs[at(j)];
            let pf = self.flip(p);
            let e = self.endpoint(pf);
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.endpoint(mb);
                    self.label[e] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = u8::MAX;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.dualvar[b] = W::zero();
        self.unusedblossoms.push(b);
    }

    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, bool) = if j & 1 == 1 {
            j -= len;
            (1, false)
        } else {
            (-1, true)
        };
        let back = isize::from(endptrick);
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let raw = self.blossomendps[b][at(j - back)];
            let p = if endptrick { self.flip(raw) } else { raw };
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let pf = self.flip(p);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(pf));
            }
            let (a, c) = (self.endpoint(p), self.endpoint(pf));
            self.mate[a] = pf;
            self.mate[c] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        self.gather_leaves(b);
    }
}
