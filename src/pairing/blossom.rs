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
use std::hash::{BuildHasherDefault, Hasher};

const NONE: usize = usize::MAX;

/// Edge weights of a complete graph (zero: no edge) and the last optimum.
pub struct MatchingComputer<W: Weight> {
    size: usize,
    n: usize,
    /// Each pair's weight as an index into `values`: a round has few distinct
    /// weights (all pairs of the lower score groups weigh alike), and a table
    /// of small indices stays in the cache where the wide weights did not.
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
}

/// The slack of a vertex's or blossom's least-slack edge as last computed:
/// valid while its edge and every vertex dual are unchanged (`epoch`). The
/// search compares against these slacks for every edge it scans, and
/// recomputing them in wide arithmetic was two fifths of the pairing's time.
#[derive(Clone, Copy)]
struct SlackCache<W> {
    edge: usize,
    epoch: u64,
    slack: W,
}

/// A multiply-rotate hash of whole words (FxHash's), for the table of a
/// round's distinct weights: SipHash over the limbs of every weight set was a
/// twentieth of a large round's time. The ids it hands out do not depend on it.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.word(u64::from(byte));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.word(word);
    }
    fn write_usize(&mut self, word: usize) {
        self.word(word as u64);
    }
}

/// The positions of the set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

fn tri(a: usize, b: usize) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

impl<W: Weight> MatchingComputer<W> {
    /// A graph of `size` vertices and no edges.
    pub fn new(size: usize) -> Self {
        let n = size + size % 2;
        let mut computer = MatchingComputer {
            size,
            n,
            weights: vec![0; size * size.saturating_sub(1) / 2],
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
        let id = self.value_id(weight);
        let old = self.values[std::mem::replace(&mut self.weights[tri(a, b)], id) as usize];
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
        if a >= self.size || b >= self.size || a == b {
            W::zero()
        } else {
            self.doubled[self.weights[tri(a, b)] as usize]
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edge(k);
        self.dualvar[i]
            .plus(self.dualvar[j])
            .minus(self.doubled_weight(i, j))
    }

    /// Records that `v`'s dual changed, which voids the cached tightness of
    /// its edges.
    fn dual_changed(&mut self, v: usize) {
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
    fn loose_row(&mut self, v: usize) {
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
    fn is_tight(&mut self, v: usize, w: usize) -> bool {
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
    fn allowed(&self, v: usize, w: usize) -> bool {
        self.allowed[v * self.n + w] == self.stamp
    }

    fn allow(&mut self, k: usize) {
        let (i, j) = self.edge(k);
        self.allowed[i * self.n + j] = self.stamp;
        self.allowed[j * self.n + i] = self.stamp;
    }

    /// The slack of `x`'s least-slack edge (`bestedge[x]`, which is set).
    fn best_slack(&mut self, x: usize) -> W {
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
    fn set_best(&mut self, x: usize, k: usize, slack: W) {
        self.bestedge[x] = k;
        self.best_slack[x] = SlackCache {
            edge: k,
            epoch: self.epoch,
            slack,
        };
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

    /// Sets `v`'s dual to the least value that keeps its edges feasible, and
    /// unmatches it if its matched edge is no longer tight.
    fn refit(&mut self, v: usize) {
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

    fn unmatch_if_loose(&mut self, v: usize) {
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
    fn rematch_loose(&mut self) {
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
    fn dissolve_dirty_blossoms(&mut self) {
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
    fn release(&mut self, b: usize) {
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

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
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

    fn add_blossom(&mut self, base: usize, k: usize) {
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
        for i in 0..self.blossomleaves[b].len() {
            let v = self.blossomleaves[b][i];
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        if self.lazy {
            self.lazy_blossoms.push(b);
            self.bestedge[b] = NONE;
            return;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        let mut bestslackto = vec![W::zero(); 2 * self.n];
        for &bv in &path {
            // Neighbours scanned in place rather than gathered into lists first:
            // that allocation was a tenth of the pairing's time.
            match self.blossombestedges[bv].take() {
                None => {
                    for v in self.leaves_of(bv) {
                        for w in self.neighbours(v) {
                            let k = self.canonical(v, w);
                            self.consider_best_edge(b, k, &mut bestedgeto, &mut bestslackto);
                        }
                    }
                }
                Some(list) => {
                    for k in list {
                        self.consider_best_edge(b, k, &mut bestedgeto, &mut bestslackto);
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let mut list = Vec::new();
        let mut best = NONE;
        let mut best_slack = W::zero();
        for (k, slack) in bestedgeto.into_iter().zip(bestslackto) {
            if k == NONE {
                continue;
            }
            list.push(k);
            if best == NONE || slack < best_slack {
                best = k;
                best_slack = slack;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = NONE;
        if best != NONE {
            self.set_best(b, best, best_slack);
        }
    }

    /// Keeps `k` as the least-slack edge from new blossom `b` to its S-blossom.
    fn consider_best_edge(
        &self,
        b: usize,
        k: usize,
        bestedgeto: &mut [usize],
        bestslackto: &mut [W],
    ) {
        let (i, mut j) = self.edge(k);
        if self.inblossom[j] == b {
            j = i;
        }
        let bj = self.inblossom[j];
        if bj == b || self.label[bj] != 1 {
            return;
        }
        let slack = self.slack(k);
        if bestedgeto[bj] == NONE || slack < bestslackto[bj] {
            bestedgeto[bj] = k;
            bestslackto[bj] = slack;
        }
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
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

    fn augment_blossom(&mut self, b: usize, v: usize) {
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
                        let mut kslack = W::zero();
                        if !self.allowed(v, w) {
                            if self.lazy {
                                if self.is_tight(v, w) {
                                    self.allow(k);
                                } else {
                                    self.loose_bits[v * self.row_words + word] |= 1 << (w % 64);
                                }
                            } else {
                                kslack = dual_v
                                    .plus(self.dualvar[w])
                                    .minus(self.doubled_weight(v, w));
                                if kslack <= W::zero() {
                                    self.allow(k);
                                }
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
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.best_slack(b) {
                                self.set_best(b, k, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.best_slack(w))
                        {
                            self.set_best(w, k, kslack);
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
