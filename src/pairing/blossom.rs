//! Maximum weight perfect matching on a general graph (Edmonds' blossom
//! algorithm, primal-dual, after Galil's "Efficient algorithms for finding
//! maximum matching in graphs", 1986), kept warm between calls: the Dutch
//! pairing changes a few edges and matches again hundreds of times a round, so
//! each call starts from the previous optimum and its dual solution instead of
//! from nothing. An odd number of vertices gets one dummy vertex joined to all
//! by weight-zero edges; whoever it takes is left unmatched.
//!
//! Weights are exact integers (`Weight`), never floats: the Dutch pairing packs
//! all its criteria into one weight and one lost bit would change a pairing.

use super::wide::Weight;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

#[path = "blossom_slack.rs"]
mod slack;
#[path = "blossom_words.rs"]
mod words;
use slack::SlackCache;
use words::{BitIter, WordHasher};

#[path = "blossom_ops.rs"]
mod ops;
#[path = "blossom_warm.rs"]
mod warm;

const NONE: usize = usize::MAX;

/// Edge weights of a complete graph (zero: no edge) and the last optimum.
pub struct MatchingComputer<W: Weight> {
    size: usize,
    n: usize,
    /// Each pair's weight as an index into `values`: a round has few distinct
    /// weights (all pairs of the lower score groups weigh alike), and a table
    /// of small indices stays in the cache where the wide weights did not.
    /// A full `n` by `n` square, both directions stored: scans and refits
    /// read a vertex's row, and in a triangle half of every row was a column
    /// (a cache miss per edge). The dummy vertex's row and the diagonal stay
    /// at index 0, weight zero.
    weights: Vec<u32>,
    values: Vec<W>,
    /// Twice each of `values`: what a slack subtracts.
    doubled: Vec<W>,
    value_ids: HashMap<W, u32, BuildHasherDefault<WordHasher>>,
    /// Row `v` has bit `w` set when `v`-`w` is an edge (a positive weight, or
    /// the dummy vertex): searches walk these rows instead of loading the
    /// wide weight of every pair, most of which are absent late in a round.
    adjacent: Vec<u64>,
    row_words: usize,
    /// Row `b` has the bits of blossom `b`'s vertices (of vertex `b` alone
    /// below `n`), set when the blossom forms: a scan masks its own blossom
    /// out of its row, whose vertices it would skip one by one. Late in a
    /// round most vertices are in one blossom of the lower score groups.
    members: Vec<u64>,
    initialized: bool,
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    dirty: Vec<usize>,
    stamp: u32,
    allowed: Vec<u32>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    /// Each blossom's vertices in the order of its children (what `leaves`
    /// used to collect by recursion each time), kept when it forms and when
    /// an augmentation rotates its children.
    blossomleaves: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    best_slack: Vec<SlackCache<W>>,
    epoch: u64,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    queue: Vec<usize>,
    /// Pairs unmatched by `unmatch_if_loose` since the last search.
    loose: Vec<(usize, usize)>,
    /// Whether each edge was tight when last computed, row by row in both
    /// directions: `clock << 1 | tight`, valid while neither end's dual has
    /// changed since (`dual_changed`) and the weight is the same. Duals change
    /// seldom (a few hundred times a round) while stages scan the same rows
    /// again and again, and recomputing each slack in wide arithmetic was
    /// most of the search's time.
    tight: Vec<u32>,
    /// When each vertex's dual last changed, by `clock`.
    dual_changed: Vec<u32>,
    clock: u32,
    /// Row `v` has bit `w` set when `v`-`w` was found loose (not tight), with
    /// `v`'s dual as it is now: a lazy scan masks these out of its row and
    /// visits only the edges that may be tight. `w`'s dual may have changed
    /// since; `loose_row` drops those bits first.
    loose_bits: Vec<u64>,
    /// The vertices whose duals changed, batch by batch (`row_words` words
    /// each); a batch closes when a row is next brought up to date.
    changes: Vec<u64>,
    batch_open: bool,
    /// How many batches of `changes` each row of `loose_bits` has seen.
    loose_seen: Vec<usize>,
    /// Whether the stage runs without least-slack bookkeeping (see `solve`).
    lazy: bool,
    /// Blossoms formed by the current lazy stage, in order.
    lazy_blossoms: Vec<usize>,
    /// `labelend` as the current stage found it.
    saved_labelend: Vec<usize>,
    /// Scratch of `add_blossom`: the least-slack edge to each S-blossom
    /// (all `NONE` between calls), its slack, the S-blossoms reached.
    best_to: Vec<usize>,
    best_to_slack: Vec<W>,
    best_to_reached: Vec<usize>,
}

impl<W: Weight> MatchingComputer<W> {
    /// A graph of `size` vertices and no edges.
    pub fn new(size: usize) -> Self {
        let n = size + size % 2;
        let mut computer = MatchingComputer {
            size,
            n,
            weights: vec![0; n * n],
            values: vec![W::zero()],
            doubled: vec![W::zero()],
            value_ids: [(W::zero(), 0)].into_iter().collect(),
            adjacent: vec![0; n * n.div_ceil(64)],
            row_words: n.div_ceil(64),
            members: vec![0; 2 * n * n.div_ceil(64)],
            initialized: false,
            touched: Vec::new(),
            is_touched: vec![false; n],
            dirty: Vec::new(),
            stamp: 0,
            allowed: vec![0; n * n],
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            blossomleaves: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            best_slack: vec![
                SlackCache {
                    edge: NONE,
                    epoch: 0,
                    slack: W::zero()
                };
                2 * n
            ],
            epoch: 1,
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar: vec![W::zero(); 2 * n],
            queue: Vec::new(),
            loose: Vec::new(),
            tight: vec![0; n * n],
            dual_changed: vec![1; n],
            clock: 1,
            loose_bits: vec![0; n * n.div_ceil(64)],
            changes: Vec::new(),
            batch_open: false,
            loose_seen: vec![0; n],
            lazy: false,
            lazy_blossoms: Vec::new(),
            saved_labelend: Vec::new(),
            best_to: vec![NONE; 2 * n],
            best_to_slack: vec![W::zero(); 2 * n],
            best_to_reached: Vec::new(),
        };
        computer.reset_blossoms();
        for v in 0..n {
            computer.members[v * computer.row_words + v / 64] |= 1 << (v % 64);
        }
        // The dummy vertex of an odd graph is joined to every other.
        for v in size..n {
            for w in 0..v {
                computer.set_adjacent(v, w, true);
            }
        }
        computer
    }

    /// The number of vertices.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Sets the weight of the edge between `a` and `b` (zero removes it).
    pub fn set_edge_weight(&mut self, a: usize, b: usize, weight: W) {
        // Stored doubled, so that every dual variable stays an integer.
        let weight = weight.plus(weight);
        let id = if weight == W::zero() {
            0
        } else {
            self.value_id(weight)
        };
        if id == self.weights[a * self.n + b] {
            // Nothing changes (what a cleared cache entry would find again):
            // most calls clear edges long gone, two thousand per pair fixed.
            return;
        }
        let old = self.values[std::mem::replace(&mut self.weights[a * self.n + b], id) as usize];
        self.weights[b * self.n + a] = id;
        self.set_adjacent(a, b, weight > W::zero());
        self.tight[a * self.n + b] = 0;
        self.tight[b * self.n + a] = 0;
        self.loose_bits[a * self.row_words + b / 64] &= !(1 << (b % 64));
        self.loose_bits[b * self.row_words + a / 64] &= !(1 << (a % 64));
        if !self.initialized {
            return;
        }
        if weight == old {
            return;
        }
        let (ta, tb) = (self.inblossom[a], self.inblossom[b]);
        if ta == tb && ta >= self.n {
            self.dirty.push(ta);
        }
        let matched = self.mate[a] != NONE && self.endpoint(self.mate[a]) == b;
        // Refitting `a` alone makes its edges feasible again.
        if weight > old || matched {
            self.touch(a);
            if ta >= self.n {
                self.dirty.push(ta);
            }
        }
    }

    /// The index of `weight` in `values`, added if new.
    fn value_id(&mut self, weight: W) -> u32 {
        if let Some(&id) = self.value_ids.get(&weight) {
            return id;
        }
        let id = self.values.len() as u32;
        self.values.push(weight);
        self.doubled.push(weight.plus(weight));
        self.value_ids.insert(weight, id);
        id
    }

    fn touch(&mut self, v: usize) {
        if !self.is_touched[v] {
            self.is_touched[v] = true;
            self.touched.push(v);
        }
    }

    fn set_adjacent(&mut self, a: usize, b: usize, edge: bool) {
        for (v, w) in [(a, b), (b, a)] {
            let word = &mut self.adjacent[v * self.row_words + w / 64];
            let bit = 1u64 << (w % 64);
            if edge {
                *word |= bit;
            } else {
                *word &= !bit;
            }
        }
    }

    /// Whether `a`-`b` is an edge (negative weights count as none).
    fn present(&self, a: usize, b: usize) -> bool {
        (self.adjacent[a * self.row_words + b / 64] >> (b % 64)) & 1 == 1
    }

    /// `v`'s neighbours in increasing order.
    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbour_words(v)
            .flat_map(|(first, bits)| BitIter(bits).map(move |i| first + i))
    }

    /// The words of `v`'s row of `adjacent`, as (first vertex, bits).
    fn neighbour_words(&self, v: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
        let row = &self.adjacent[v * self.row_words..(v + 1) * self.row_words];
        row.iter().enumerate().map(|(i, &bits)| (i * 64, bits))
    }

    fn endpoint(&self, p: usize) -> usize {
        p % self.n
    }

    fn flip(&self, p: usize) -> usize {
        (p % self.n) * self.n + p / self.n
    }

    fn edge(&self, k: usize) -> (usize, usize) {
        (k / self.n, k % self.n)
    }

    fn canonical(&self, a: usize, b: usize) -> usize {
        if a < b {
            a * self.n + b
        } else {
            b * self.n + a
        }
    }

    /// Four times the weight of `a`-`b` (twice the stored weight, zero: no
    /// edge), what a slack subtracts.
    fn doubled_weight(&self, a: usize, b: usize) -> W {
        self.doubled[self.weights[a * self.n + b] as usize]
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edge(k);
        self.dualvar[i]
            .plus(self.dualvar[j])
            .minus(self.doubled_weight(i, j))
    }

    /// A maximum weight matching among those leaving at most one vertex
    /// unmatched: `mate[v]` is v's partner, or `v` itself. `None` when no such
    /// matching exists.
    pub fn compute_matching(&mut self) -> Option<Vec<usize>> {
        if !self.initialized {
            let mut max = W::zero();
            for &id in &self.weights {
                let w = self.values[id as usize];
                if w > max {
                    max = w;
                }
            }
            for v in 0..self.n {
                self.dualvar[v] = max;
                self.dual_changed(v);
            }
            self.initialized = true;
            self.touched.clear();
            self.is_touched.iter_mut().for_each(|t| *t = false);
        } else {
            self.dissolve_dirty_blossoms();
            let touched = std::mem::take(&mut self.touched);
            for &v in &touched {
                self.is_touched[v] = false;
                self.refit(v);
            }
            self.rematch_loose();
        }
        self.solve()?;
        Some(
            (0..self.size)
                .map(|v| {
                    let m = self.endpoint(self.mate[v]);
                    if m >= self.size {
                        v
                    } else {
                        m
                    }
                })
                .collect(),
        )
    }

    fn reset_blossoms(&mut self) {
        let n = self.n;
        for v in 0..n {
            self.inblossom[v] = v;
            self.blossombase[v] = v;
        }
        for b in 0..2 * n {
            self.blossomparent[b] = NONE;
            self.blossomchilds[b].clear();
            self.blossomendps[b].clear();
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.labelend[b] = NONE;
            self.label[b] = 0;
        }
        for b in n..2 * n {
            self.blossombase[b] = NONE;
            self.dualvar[b] = W::zero();
        }
        self.unusedblossoms = (n..2 * n).rev().collect();
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            out.extend_from_slice(&self.blossomleaves[b]);
        }
    }

    /// Collects `b`'s vertices again from its children's.
    fn gather_leaves(&mut self, b: usize) {
        let mut list = std::mem::take(&mut self.blossomleaves[b]);
        list.clear();
        for &t in &self.blossomchilds[b] {
            self.leaves(t, &mut list);
        }
        self.blossomleaves[b] = list;
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            if b < self.n {
                self.queue.push(b);
            } else {
                self.queue.extend_from_slice(&self.blossomleaves[b]);
            }
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            let flipped = self.flip(mb);
            self.assign_label(self.endpoint(mb), 1, flipped);
        }
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edge(k);
        for (mut s, mut p) in [(v, v * self.n + w), (w, w * self.n + v)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.labelend[bs]);
                let bt = self.inblossom[t];
                s = self.endpoint(self.labelend[bt]);
                let j = self.endpoint(self.flip(self.labelend[bt]));
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.flip(self.labelend[bt]);
            }
        }
    }

    /// Stages until every vertex is matched; `None` when that is impossible.
    ///
    /// Each stage is first run lazily: without the least-slack edges of the
    /// vertices and blossoms, which only a dual change reads. Most stages find
    /// their augmenting path over tight edges before any dual changes, and
    /// then the lazy stage did exactly what the full one would have done. A
    /// stage that needs a dual change is undone (the blossoms it formed,
    /// labels, label ends) and run again in full from the same start, so the
    /// search is the same either way.
    fn solve(&mut self) -> Option<()> {
        let n = self.n;
        // Duals were refitted or moved out of dissolved blossoms.
        self.epoch += 1;
        while (0..n).any(|v| self.mate[v] == NONE) {
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.allowed.iter_mut().for_each(|a| *a = u32::MAX);
                self.stamp = 1;
            }
            self.saved_labelend.clear();
            self.saved_labelend.extend_from_slice(&self.labelend);
            self.lazy = true;
            self.lazy_blossoms.clear();
            self.start_stage();
            if !self.stage()? {
                self.undo_lazy_stage();
                self.lazy = false;
                self.start_stage();
                if !self.stage()? {
                    return None;
                }
            }
            self.lazy = false;
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        Some(())
    }

    /// Labels every exposed vertex as the root of an alternating tree.
    fn start_stage(&mut self) {
        let n = self.n;
        for b in 0..2 * n {
            self.label[b] = 0;
            self.bestedge[b] = NONE;
        }
        for b in n..2 * n {
            self.blossombestedges[b] = None;
        }
        self.queue.clear();
        for v in 0..n {
            if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                self.assign_label(v, 1, NONE);
            }
        }
    }

    /// Takes apart the blossoms a lazy stage formed, newest first, and puts
    /// back the label ends it changed. Nothing else changed before its first
    /// dual change: no dual, no mate, no expansion.
    fn undo_lazy_stage(&mut self) {
        for b in std::mem::take(&mut self.lazy_blossoms).into_iter().rev() {
            for child in std::mem::take(&mut self.blossomchilds[b]) {
                self.blossomparent[child] = NONE;
                for v in self.leaves_of(child) {
                    self.inblossom[v] = child;
                }
            }
            self.blossomendps[b].clear();
            self.blossombase[b] = NONE;
            self.blossomparent[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            self.unusedblossoms.push(b);
        }
        self.labelend.copy_from_slice(&self.saved_labelend);
    }

    /// One stage: grow alternating trees and adjust duals until an augmenting
    /// path is found (`Some(true)`); `None` when no perfect matching exists.
    /// A lazy stage stops with `Some(false)` where it would change duals.
    fn stage(&mut self) -> Option<bool> {
        let n = self.n;
        loop {
            while let Some(v) = self.queue.pop() {
                let dual_v = self.dualvar[v];
                if self.lazy {
                    self.loose_row(v);
                }
                // The row is copied word by word: nothing in the loop changes edges.
                for word in 0..self.row_words {
                    // Vertices of `v`'s blossom are skipped (below), and the
                    // blossom only grows during the scan.
                    let mut own = self.members[self.inblossom[v] * self.row_words + word];
                    if self.lazy {
                        // Loose edges do nothing in a lazy scan.
                        own |= self.loose_bits[v * self.row_words + word];
                    }
                    let mut bits = self.adjacent[v * self.row_words + word] & !own;
                    while bits != 0 {
                        let w = word * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        // Not hoisted: a blossom formed in this loop changes `inblossom[v]`.
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let p = v * n + w;
                        let k = self.canonical(v, w);
                        if !self.allowed(v, w) {
                            if self.is_tight(v, w) {
                                self.allow_pair(v, w);
                            } else if self.lazy {
                                self.loose_bits[v * self.row_words + word] |= 1 << (w % 64);
                            }
                        }
                        if self.allowed(v, w) {
                            if self.label[self.inblossom[w]] == 0 {
                                let pf = self.flip(p);
                                self.assign_label(w, 2, pf);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    return Some(true);
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = self.flip(p);
                            }
                        } else if self.lazy {
                            // Least-slack edges are only read by a dual change.
                        } else if self.label[self.inblossom[w]] == 1 {
                            // The slack only where a least-slack edge may change:
                            // an edge to a labelled T-vertex changes nothing.
                            let kslack = dual_v
                                .plus(self.dualvar[w])
                                .minus(self.doubled_weight(v, w));
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.best_slack(b) {
                                self.set_best(b, k, kslack);
                            }
                        } else if self.label[w] == 0 {
                            let kslack = dual_v
                                .plus(self.dualvar[w])
                                .minus(self.doubled_weight(v, w));
                            if self.bestedge[w] == NONE || kslack < self.best_slack(w) {
                                self.set_best(w, k, kslack);
                            }
                        }
                    }
                }
            }
            if self.lazy {
                return Some(false);
            }
            let mut deltatype = 0;
            let mut delta = W::zero();
            let mut deltaedge = NONE;
            let mut deltablossom = NONE;
            for v in 0..n {
                if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                    let d = self.best_slack(v);
                    if deltatype == 0 || d < delta {
                        delta = d;
                        deltatype = 2;
                        deltaedge = self.bestedge[v];
                    }
                }
            }
            for b in 0..2 * n {
                if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                    let d = self.best_slack(b).half();
                    if deltatype == 0 || d < delta {
                        delta = d;
                        deltatype = 3;
                        deltaedge = self.bestedge[b];
                    }
                }
            }
            for b in n..2 * n {
                if self.blossombase[b] != NONE
                    && self.blossomparent[b] == NONE
                    && self.label[b] == 2
                    && (deltatype == 0 || self.dualvar[b] < delta)
                {
                    delta = self.dualvar[b];
                    deltatype = 4;
                    deltablossom = b;
                }
            }
            if deltatype == 0 {
                return None;
            }
            for v in 0..n {
                match self.label[self.inblossom[v]] {
                    1 => self.dualvar[v] = self.dualvar[v].minus(delta),
                    2 => self.dualvar[v] = self.dualvar[v].plus(delta),
                    _ => continue,
                }
                self.dual_changed(v);
            }
            for b in n..2 * n {
                if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                    match self.label[b] {
                        1 => self.dualvar[b] = self.dualvar[b].plus(delta),
                        2 => self.dualvar[b] = self.dualvar[b].minus(delta),
                        _ => {}
                    }
                }
            }
            // Every vertex dual may have changed: no cached slack holds.
            self.epoch += 1;
            match deltatype {
                2 => {
                    self.allow(deltaedge);
                    let (mut i, j) = self.edge(deltaedge);
                    if self.label[self.inblossom[i]] == 0 {
                        i = j;
                    }
                    self.queue.push(i);
                }
                3 => {
                    self.allow(deltaedge);
                    let (i, _) = self.edge(deltaedge);
                    self.queue.push(i);
                }
                _ => self.expand_blossom(deltablossom, false),
            }
        }
    }
}
