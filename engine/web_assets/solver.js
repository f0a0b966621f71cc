/* wordtree web player: the searches `wordtree next` runs off a tree, in the page.
 *
 * exactBest(...) is the exact engine's best guess (engine/exact/solver.py best_guess, the kernel
 * _solve in kernels.py, normal mode): V(S, d), the least total of guesses over the candidates S
 * with d guesses left, and the guess the kernel returns for it. The kernel's choice among equal
 * guesses is kept exactly: the first answer of S that splits the others into singletons; else,
 * with 3 or more guesses left, the first answer of S that leaves exactly one pair; with 2 left,
 * the first guess (in the guess list's order) splitting S into singletons; else the first guess
 * splitting S into singletons from outside S, and failing that the least (score, list order)
 * among the guesses of least total, the score being 2 * (sum of squared class sizes) + |S| *
 * (the guess's class bound). The values below the top are found by the same bounded search
 * (class bounds, the same pruning), with a memo of the sets searched.
 *
 * heuristicGuess(...) is player.py's _heuristic_guess; treeOf(...) is Solver.tree (the optimal
 * tree, ties going to the smaller worst case), which Dordle's remainders are played with.
 *
 * Absurdle(...) plays the Absurdle adversary and searches off a proof's line as `wordtree next`
 * does; narrow(...) and MultiPlayer(...) are the multi-board games' candidates and heuristic
 * player. Every feedback comes from the caller's `code` (app.js's one feedback rule).
 */
"use strict";

(function () {
  const INF = 1 << 24; // kernels.INF
  const NO_CAP = 32; // solver.NO_CAP

  // bounds[d][c]: a lower bound on the cost of c answers with d guesses left (kernels.class_bounds),
  // for c up to n; `branching` is the count of non-winning codes the game's matrix holds.
  function classBounds(cap, n, branching) {
    const cost = new Array(n + 1).fill(0);
    const bounds = [];
    for (let d = 0; d <= cap; d++) {
      const row = new Array(n + 1).fill(INF);
      row[0] = 0;
      bounds.push(row);
    }
    let filled = 0, width = 1;
    for (let level = 1; level <= cap; level++) {
      for (let c = 0; c <= n; c++) cost[c] += level * Math.min(Math.max(c - filled, 0), width);
      filled = Math.min(filled + width, n);
      width = Math.min(width * branching, n);
      for (let c = 0; c <= filled; c++) bounds[level][c] = cost[c];
    }
    return bounds;
  }

  // The search over the candidates `cands` (words, in the order of the game's answers, or of its
  // guesses once widened), guessing from `guesses` (the game's guess list). `code(g, a)` is the
  // feedback as a small whole number, `win` the winning one, `nCodes` how many there are;
  // `branching` the non-winning codes the game's matrix holds (classBounds).
  function Search(guesses, cands, code, win, nCodes, branching, cap) {
    const n = cands.length;
    const G = guesses.length;
    this.n = n;
    this.guesses = guesses;
    this.cands = cands;
    this.cap = cap === null || cap === undefined ? NO_CAP : cap;
    this.win = win;
    this.nCodes = nCodes;
    const gid = new Map(guesses.map((w, i) => [w, i]));
    this.answerGid = cands.map((w) => gid.get(w));
    const M = nCodes <= 256 ? new Uint8Array(G * n) : new Uint16Array(G * n);
    for (let g = 0; g < G; g++) {
      const word = guesses[g];
      for (let p = 0; p < n; p++) M[g * n + p] = code(word, cands[p]);
    }
    this.M = M;
    this.bounds = classBounds(this.cap, n, Math.max(branching, 1));
    this.memo = new Map();
    this.stamp = new Int32Array(nCodes);
    this.cnt = new Int32Array(nCodes);
    this.label = new Int32Array(nCodes);
    this.epoch = 0;
    this.allRows = Int32Array.from({ length: G }, (_, i) => i);
  }

  Search.prototype.collisions = function (g, S, limit) {
    // answers sharing their code with an earlier one, counted until past `limit` (_shared_codes)
    const e = ++this.epoch, stamp = this.stamp, M = this.M, base = g * this.n;
    let shared = 0;
    for (let i = 0; i < S.length; i++) {
      const c = M[base + S[i]];
      if (stamp[c] === e) {
        if (++shared > limit) return shared;
      }
      stamp[c] = e;
    }
    return shared;
  };

  Search.prototype.classes = function (g, S) {
    // the non-winning classes of S under guess g, ordered by (size, code), each in S's order
    const M = this.M, base = g * this.n, groups = new Map();
    for (const p of S) {
      const c = M[base + p];
      if (c === this.win) continue;
      let list = groups.get(c);
      if (!list) groups.set(c, (list = []));
      list.push(p);
    }
    return [...groups.entries()].sort((a, b) => a[1].length - b[1].length || a[0] - b[0]);
  };

  // (V(S, d) if below beta, else a bound >= beta; the best guess, -1 when none proven below beta)
  Search.prototype.solve = function (S, d, beta, rows) {
    const k = S.length, bounds = this.bounds, M = this.M, n = this.n, win = this.win;
    if (k === 1 && d >= 1) return [1, this.answerGid[S[0]]];
    if (d <= 1) return [INF, -1];
    if (k === 2) return [3, this.answerGid[S[0]]];
    if (beta <= bounds[d][k]) return [bounds[d][k], -1];
    const key = d + "|" + S.join(",");
    const seen = this.memo.get(key);
    let knownLb = 0;
    if (seen) {
      if (seen.exact) return [seen.value, seen.guess];
      if (seen.value >= beta) return [seen.value, -1];
      knownLb = seen.value;
    }
    const store = (value, exact, guess) => {
      this.memo.set(key, { value, exact, guess });
      return [value, exact ? guess : -1];
    };
    // a candidate splitting the others into singletons costs 2k - 1, the bound of every set;
    // failing that a candidate leaving one pair costs 2k, with 3 guesses left
    let pair = -1;
    for (let i = 0; i < k; i++) {
      const g = this.answerGid[S[i]];
      const shared = this.collisions(g, S, 1);
      if (shared === 0) return store(2 * k - 1, true, g);
      if (shared === 1 && pair < 0) pair = g;
    }
    if (d >= 3) {
      if (pair >= 0) return store(2 * k, true, pair);
      if (beta <= 2 * k) return [2 * k, -1];
    }
    if (d === 2) {
      for (const g of rows) if (this.collisions(g, S, 0) === 0) return store(2 * k, true, g);
      return store(INF, true, -1);
    }
    // one pass over the guesses: classes, bound, score; useless guesses and repeated partitions dropped
    const child = bounds[d - 1];
    const kept = [], lbs = [], scores = [];
    const partitions = new Set();
    const stamp = this.stamp, cnt = this.cnt, label = this.label;
    let minLb = INF;
    for (const g of rows) {
      const e = ++this.epoch, base = g * n;
      let classes = 0, sq = 0, inS = 0, others = 0, boundSum = 0;
      const sig = new Array(k);
      for (let i = 0; i < k; i++) {
        const c = M[base + S[i]];
        if (stamp[c] !== e) {
          stamp[c] = e;
          cnt[c] = 1;
          label[c] = c === win ? -1 : others++;
          classes++;
        } else cnt[c]++;
        sq += 2 * cnt[c] - 1;
        if (c === win) inS = 1;
        else boundSum += child[cnt[c]] - child[cnt[c] - 1];
        sig[i] = label[c];
      }
      if (classes === 1 && !inS) continue;
      const signature = sig.join(",");
      if (partitions.has(signature)) continue;
      partitions.add(signature);
      if (classes === k) return store(2 * k, true, g); // singletons from outside S (inside was ruled out)
      const lb = Math.min(k + boundSum, INF);
      kept.push(g);
      lbs.push(lb);
      scores.push(2 * sq + k * lb);
      if (lb < minLb) minLb = lb;
    }
    const nodeLb = Math.max(minLb, knownLb);
    if (nodeLb >= beta) return store(nodeLb, false, -1);
    let fail = INF;
    const order = [];
    for (let i = 0; i < kept.length; i++) {
      if (lbs[i] >= beta) { if (lbs[i] < fail) fail = lbs[i]; continue; }
      order.push(i);
    }
    order.sort((a, b) => scores[a] - scores[b] || a - b);
    const keptRows = Int32Array.from(kept);
    let best = beta, bestG = -1;
    for (const r of order) {
      if (lbs[r] >= best) { if (lbs[r] < fail) fail = lbs[r]; continue; }
      const g = kept[r];
      const parts = this.classes(g, S);
      let running = k;
      for (const [, part] of parts) running += child[part.length];
      for (let j = 0; j < parts.length; j++) {
        const part = parts[d === 3 ? parts.length - 1 - j : j][1];
        const c = part.length;
        if (c === 1 || (c === 2 && d >= 3)) continue;
        if (running >= best) break;
        const lbc = child[c];
        const [v] = this.solve(part, d - 1, best - (running - lbc), keptRows);
        running += v - lbc;
      }
      if (running < best) { best = running; bestG = g; }
      else if (running < fail) fail = running;
    }
    if (best < beta) return store(best, true, bestG);
    return store(fail, false, -1);
  };

  Search.prototype.all = function () {
    return Int32Array.from({ length: this.n }, (_, i) => i);
  };

  // Solver.tree: the optimal tree below (S, d) as {guess, next}; ties to the smaller worst case
  Search.prototype.tree = function (S, d, guess) {
    if (guess === undefined) {
      const [value, g] = this.solve(S, d, INF, this.allRows);
      if (value >= INF) return null;
      let node = this.treeWith(S, d, g);
      let depth = treeDepth(node);
      while (depth > 1 && this.bounds[depth - 1][S.length] <= value) {
        const [lower, h] = this.solve(S, depth - 1, value + 1, this.allRows);
        if (lower !== value) break;
        node = this.treeWith(S, depth - 1, h);
        depth = treeDepth(node);
      }
      return node;
    }
    return this.treeWith(S, d, guess);
  };
  Search.prototype.treeWith = function (S, d, g) {
    const node = { guess: this.guesses[g] };
    const parts = this.classes(g, S).sort((a, b) => a[0] - b[0]);
    if (parts.length) {
      node.next = {};
      for (const [c, part] of parts) node.next[c] = this.tree(part, d - 1);
    }
    return node;
  };
  function treeDepth(node) {
    let most = 0;
    for (const k in node.next || {}) most = Math.max(most, treeDepth(node.next[k]));
    return 1 + most;
  }

  // The non-winning codes the matrix of `guesses` by `answers` holds, counted up to `enough`
  // (the bounds of sets of fewer than enough + 2 answers do not depend on more).
  function branching(guesses, answers, code, win, enough) {
    const seen = new Set();
    for (const g of guesses) {
      for (const a of answers) {
        const c = code(g, a);
        if (c !== win && !seen.has(c)) {
          seen.add(c);
          if (seen.size >= enough) return seen.size;
        }
      }
    }
    return seen.size;
  }

  // best_guess: {guess, total} or null when no tree finishes within the guesses left (Infeasible)
  function exactBest(opts) {
    const { guesses, cands, code, win, nCodes, cap, matrixAnswers, possibleCodes } = opts;
    // (every non-winning code the game can give found: no need to read further)
    const b = branching(guesses, matrixAnswers, code, win, Math.min(Math.max(64, cands.length + 2), possibleCodes || Infinity));
    const search = new Search(guesses, cands, code, win, nCodes, b, cap);
    const [value, g] = search.solve(search.all(), search.cap, INF, search.allRows);
    if (value >= INF) return null;
    return { guess: guesses[g], total: value, search };
  }

  // player.py _heuristic_guess
  const HEURISTIC_OPTIONS = 150, HEURISTIC_SAMPLE = 150;
  function heuristicGuess(guesses, cands, code, mode, guessesLeft) {
    const sample = [];
    const step = Math.max(1, Math.floor(cands.length / HEURISTIC_SAMPLE));
    for (let i = 0; i < cands.length; i += step) sample.push(cands[i]);
    let options;
    if (mode === "normal" && guessesLeft !== 1) {
      const freq = new Map();
      for (const w of cands) for (const ch of new Set(w)) freq.set(ch, (freq.get(ch) || 0) + 1);
      const cover = (w) => { let s = 0; for (const ch of new Set(w)) s += freq.get(ch) || 0; return s; };
      const scored = guesses.map((w, i) => [w, -cover(w), i]);
      scored.sort((a, b) => a[1] - b[1] || a[2] - b[2]); // stable, as Python's sorted
      options = scored.slice(0, HEURISTIC_OPTIONS).map((x) => x[0]).concat(cands.slice(0, Math.floor(HEURISTIC_OPTIONS / 3)));
    } else {
      options = [];
      const s = Math.max(1, Math.floor(cands.length / HEURISTIC_OPTIONS));
      for (let i = 0; i < cands.length; i += s) options.push(cands[i]);
    }
    const inPlay = new Set(cands);
    let best = null, bestKey = null;
    for (const w of options) {
      const buckets = new Map();
      for (const a of sample) { const c = code(w, a); buckets.set(c, (buckets.get(c) || 0) + 1); }
      let sq = 0;
      for (const v of buckets.values()) sq += v * v;
      const key = [sq, inPlay.has(w) ? 0 : 1, w];
      if (best === null || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1]
          || (key[1] === bestKey[1] && key[2] < bestKey[2])))) { best = w; bestKey = key; }
    }
    return best;
  }

  // ---------------------------------------------------------------------------------------------
  // Absurdle (engine/absurdle): the adversary keeps the largest bucket of answers after each
  // guess (rule.py replies), and the next guess off a proof's line as position.py's advice finds
  // it: a guess separating the answers left (the first in the guess list), else one after which
  // every bucket the adversary may keep is separated by one more guess (kernels._second_guess,
  // the first in the guess list), else the heuristic: the guess whose largest bucket is smallest.
  // `code(g, a)` is the game's feedback as a whole number, base 3 with the first letter most
  // significant (grey 0, yellow 1, green 2); so the adversary's order among buckets of equal size
  // (fewest greens, then fewest yellows, then the colours from the first letter, grey < yellow <
  // green) is (greens, yellows, code), and the win, all green, is last.
  // ---------------------------------------------------------------------------------------------
  function Absurdle(guesses, answers, code, length, fixed) {
    this.guesses = guesses;
    this.answers = answers;
    this.code = code;
    this.fixed = fixed; // the qntm rule (one bucket by the order), else any largest bucket
    this.nCodes = 3 ** length;
    this.win = this.nCodes - 1;
    const key = new Float64Array(this.nCodes); // the order as one number
    for (let c = 0; c < this.nCodes; c++) {
      let greens = 0, yellows = 0;
      for (let x = c, i = 0; i < length; i++, x = Math.floor(x / 3)) { if (x % 3 === 2) greens++; else if (x % 3 === 1) yellows++; }
      key[c] = (greens * (length + 1) + yellows) * this.nCodes + c;
    }
    this.key = key;
    this.cnt = new Int32Array(this.nCodes);
    this.stamp = new Int32Array(this.nCodes);
    this.epoch = 0;
  }

  // Every bucket of the answers S (indices, in order) under guess word `g`: [{code, bucket}], the
  // largest first, equal sizes in the adversary's order.
  Absurdle.prototype.groups = function (g, S) {
    const by = new Map();
    for (const a of S) {
      const c = this.code(g, this.answers[a]);
      let list = by.get(c);
      if (!list) by.set(c, (list = []));
      list.push(a);
    }
    return [...by.entries()].map(([code, bucket]) => ({ code, bucket }))
      .sort((x, y) => y.bucket.length - x.bucket.length || this.key[x.code] - this.key[y.code]);
  };

  // rule.replies: what the adversary may answer guess word `g` with on S (one under qntm, every
  // largest bucket but the win under any).
  Absurdle.prototype.replies = function (g, S) {
    const all = this.groups(g, S), size = all[0].bucket.length;
    let largest = all.filter((x) => x.bucket.length === size);
    if (!this.fixed && largest.length > 1) largest = largest.filter((x) => x.code !== this.win);
    return this.fixed ? largest.slice(0, 1) : largest;
  };

  // The codes of every guess on S: M[g * n + i] (search state for the advice below)
  Absurdle.prototype.columns = function (S) {
    const n = S.length, G = this.guesses.length, M = new Uint8Array(G * n);
    const words = S.map((a) => this.answers[a]);
    for (let g = 0; g < G; g++) {
      const w = this.guesses[g], base = g * n;
      for (let i = 0; i < n; i++) M[base + i] = this.code(w, words[i]);
    }
    return M;
  };

  // Does guess g give the positions `idx` of the columns codes of their own?
  Absurdle.prototype.separates = function (M, n, g, idx) {
    const e = ++this.epoch, stamp = this.stamp, base = g * n;
    for (const i of idx) {
      const c = M[base + i];
      if (stamp[c] === e) return false;
      stamp[c] = e;
    }
    return true;
  };

  // {guess, winsIn, source} off a line (position.py advice, from its search step on), S of 2 or more
  Absurdle.prototype.advise = function (S) {
    const n = S.length, G = this.guesses.length, M = this.columns(S);
    const whole = Int32Array.from({ length: n }, (_, i) => i);
    for (let g = 0; g < G; g++) if (this.separates(M, n, g, whole)) return { guess: this.guesses[g], winsIn: 2, source: "search" };
    // how many codes each guess gives on S: no guess tells more answers apart in a bucket of S
    const bound = new Int32Array(G);
    for (let g = 0; g < G; g++) {
      const e = ++this.epoch, base = g * n;
      let k = 0;
      for (let i = 0; i < n; i++) { const c = M[base + i]; if (this.stamp[c] !== e) { this.stamp[c] = e; k++; } }
      bound[g] = k;
    }
    const order = Array.from({ length: G }, (_, g) => g).sort((x, y) => bound[y] - bound[x] || x - y);
    const most = bound[order[0]];
    const cnt = this.cnt, sizes = new Int32Array(G);
    let corner = -1;
    for (let g = 0; g < G; g++) {
      const base = g * n;
      let size = 0;
      for (let i = 0; i < n; i++) { const k = ++cnt[M[base + i]]; if (k > size) size = k; }
      sizes[g] = size;
      if (corner < 0 && size < n && size <= most) {
        // the buckets the adversary may keep: the first by the order, or every largest but the win
        let kept = [];
        for (let i = 0; i < n; i++) {
          const c = M[base + i];
          if (cnt[c] === size && !kept.includes(c)) kept.push(c);
        }
        if (this.fixed) kept = [kept.reduce((x, y) => (this.key[y] < this.key[x] ? y : x))];
        else if (kept.length > 1) kept = kept.filter((c) => c !== this.win);
        let ok = true;
        for (const c of kept) {
          const idx = [];
          for (let i = 0; i < n; i++) if (M[base + i] === c) idx.push(i);
          let found = false;
          for (const h of order) {
            if (bound[h] < idx.length) break;
            if (this.separates(M, n, h, idx)) { found = true; break; }
          }
          if (!found) { ok = false; break; }
        }
        if (ok) corner = g;
      }
      for (let i = 0; i < n; i++) cnt[M[base + i]] = 0;
      if (corner >= 0) return { guess: this.guesses[corner], winsIn: 3, source: "search" };
    }
    let best = 0;
    for (let g = 1; g < G; g++) if (sizes[g] < sizes[best]) best = g;
    return { guess: this.guesses[best], winsIn: null, source: "heuristic" };
  };

  // ---------------------------------------------------------------------------------------------
  // Multi-board games (engine/multiboard/player.py): each board's answers left, narrowed by the
  // rule that the boards' answers differ, and the heuristic player's guess.
  // ---------------------------------------------------------------------------------------------

  // narrow: each board's answers (indices, in order) that some tuple of different answers, one a
  // board, uses; null when no such tuple exists. Board i can take w when w is free in a matching
  // of the boards to different answers, or is i's own, or is board j's and j can move to another
  // answer along an augmenting path (not through i, which frees its own answer).
  function narrow(sets) {
    const k = sets.length;
    if (Math.min(...sets.map((s) => s.length)) >= k) return sets;
    const owner = new Map(), wordOf = new Array(k).fill(-1);
    const augment = (b, seen) => {
      for (const w of sets[b]) {
        if (seen.has(w)) continue;
        seen.add(w);
        if (!owner.has(w) || augment(owner.get(w), seen)) { owner.set(w, b); wordOf[b] = w; return true; }
      }
      return false;
    };
    const byLength = Array.from({ length: k }, (_, b) => b).sort((x, y) => sets[x].length - sets[y].length || x - y);
    for (const b of byLength) if (!augment(b, new Set())) return null;
    const moves = (j, banned, i) => { // can j give up its word for another, word `banned` out, board i gone?
      const seen = new Set([banned]);
      const go = (b) => {
        for (const x of sets[b]) {
          if (seen.has(x)) continue;
          seen.add(x);
          const o = owner.get(x);
          if (o === undefined || o === i || go(o)) return true;
        }
        return false;
      };
      return go(j);
    };
    return sets.map((s, i) => s.filter((w) => {
      const j = owner.get(w);
      return j === undefined || j === i || moves(j, w, i);
    }));
  }

  // The player of one game's lists: its shortlist is every answer (in the answers' order) and the
  // given allowed guesses (`extra`, in the guess list's order), as Player builds it.
  function MultiPlayer(answers, extra, code) {
    this.words = answers.concat(extra);
    this.answers = answers;
    this.nAnswers = answers.length;
    this.code = code;
    this.cache = new Map();
  }

  // board_score: the answers expected left on a board of answers S after each shortlist guess
  MultiPlayer.prototype.boardScore = function (S) {
    const key = S.join(",");
    const hit = this.cache.get(key);
    if (hit) return hit;
    const n = S.length, words = S.map((a) => this.answers[a]), inS = new Set(S);
    const score = new Float64Array(this.words.length), cnt = new Map();
    for (let j = 0; j < this.words.length; j++) {
      cnt.clear();
      let sumsq = 0;
      for (const w of words) {
        const c = this.code(this.words[j], w);
        const m = (cnt.get(c) || 0) + 1;
        cnt.set(c, m);
        sumsq += 2 * m - 1;
      }
      score[j] = (sumsq - (j < this.nAnswers && inS.has(j) ? 1 : 0)) / n;
    }
    if (this.cache.size > 256) this.cache.clear();
    this.cache.set(key, score);
    return score;
  };

  // choose: the word to play on the narrowed `sets`, `open` being the unsolved boards
  MultiPlayer.prototype.choose = function (sets, open, guessesLeft) {
    const single = open.find((b) => sets[b].length === 1);
    if (single !== undefined) return this.answers[sets[single][0]];
    const total = new Float64Array(this.words.length);
    for (const b of open) {
      const s = this.boardScore(sets[b]);
      for (let j = 0; j < total.length; j++) total[j] += s[j];
    }
    if (guessesLeft - open.length <= 1) { // tight: only a guess that may solve a board
      const may = new Set();
      for (const b of open) for (const a of sets[b]) may.add(a);
      for (let j = 0; j < total.length; j++) if (!(j < this.nAnswers && may.has(j))) total[j] = Infinity;
    }
    let best = 0;
    for (let j = 1; j < total.length; j++) if (total[j] < total[best]) best = j;
    return this.words[best];
  };

  window.wordtreeSolver = { INF, classBounds, Search, exactBest, heuristicGuess, branching, treeDepth,
                            Absurdle, narrow, MultiPlayer };
})();
