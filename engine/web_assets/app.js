/* wordtree web player: plays a shipped tree of any family, one feedback at a time, and reviews
 * a finished game from the tree.
 *
 * Wordle family (Wordle, Mastermind, Bulls and Cows): a tree node is {guess, next: {PATTERN:
 * node}}; the win pattern is never in `next`. An answer is the guess of the one node where it
 * wins: a node's guess wins there exactly when it is one of the game's answers (the site ships
 * the list beside the tree) and it fits every (guess, pattern) on the path from the root, which
 * the page checks with the game's own feedback rule, once, when the tree loads. mark() stores on
 * each node the answers possible there (`n`), the guesses they take from there (`t`), the most
 * guesses still needed (`d`) and the win flag (`w`); the root's count must equal the game's
 * answer count and its guesses stats.total, and the explorer reports any difference.
 *
 * A position follows `wordtree next` (engine/wordle/player.py): while the guesses are the
 * tree's, the next guess is the node's; a guess of one's own leaves the tree, and the candidates
 * are the answers that fit. When the feedback rules out every answer of the list (the real game
 * added answers), the allowed guesses that fit become the candidates, once, as `next` does. Off
 * the tree the next guess is the exact engine's for up to 60 candidates (solver.js, the
 * kernel's own choice among equal guesses), else the same heuristic as `next`.
 *
 * Hangman: the tree is walked by the set of letters guessed (engine/hangman/lookup.py); Dordle:
 * by both boards' patterns, a board solved earlier shown as =====, a remainder played with the
 * single-board engine's optimal tree (engine/dordle/player.py). Absurdle: the user's guesses in,
 * the adversary's replies (solver.js Absurdle, the proof's rule) and engine/absurdle/position.py's
 * advice out; multi-board games: every board's colours in, each board's answers left and the
 * heuristic player's guess out (engine/multiboard/position.py, solver.js MultiPlayer). Every
 * feedback is WORDLE's below (no other copy).
 */
"use strict";

(function () {
  const LIST_LIMIT = 30; // list the possible answers when at most this many remain
  const BRANCH_ROWS = 24; // branches shown before "show all" (a long table is slow to lay out)
  const EXACT_LIMIT = 60; // player.py: candidates the exact engine solves off the tree
  const WIDENED_NOTE = "no answer of the list fits: treating the allowed guesses as possible answers";
  const INDEX = window.WORDTREE_INDEX || [];
  const SOLVER = window.wordtreeSolver;
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const kid of kids) e.append(kid);
    return e;
  };
  // Python's round(x, places): the double x itself rounded, an exact half to even (the command
  // line's figures are Python's; 73/32 = 2.28125 is 2.2812 there, not 2.2813)
  const F64 = new DataView(new ArrayBuffer(8));
  function round(x, places) {
    if (!Number.isFinite(x)) return x;
    F64.setFloat64(0, x);
    const hi = F64.getUint32(0), lo = F64.getUint32(4);
    const exp = (hi >>> 20) & 0x7ff;
    let M = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    let E = -1074;
    if (exp) { M |= 1n << 52n; E = exp - 1075; }
    if (hi >>> 31) M = -M;
    const cmp = (num, den) => { // the sign of x - num / den, exactly
      const left = E >= 0 ? (M * den) << BigInt(E) : M * den;
      const right = E >= 0 ? num : num << BigInt(-E);
      return left > right ? 1 : left < right ? -1 : 0;
    };
    const scale = 10 ** places, S = BigInt(scale);
    let f = Math.floor(x * scale);
    while (cmp(BigInt(f), S) < 0) f--;
    while (cmp(BigInt(f + 1), S) >= 0) f++;
    const half = cmp(BigInt(2 * f + 1), 2n * S);
    const n = half > 0 ? f + 1 : half < 0 ? f : Math.abs(f % 2) === 0 ? f : f + 1;
    return n / scale;
  }
  window.wordtreeRound = round; // (tested against Python's)
  const fixed = (x) => (x === null || x === undefined ? "–" : x.toFixed(4));

  // ---------------------------------------------------------------------------------------------
  // games: how feedback is computed, read, written and entered
  // ---------------------------------------------------------------------------------------------
  const COLOURS = "BYG";
  const COLOUR_NAMES = { B: "grey", Y: "yellow", G: "green" };
  const COLOUR_KEYS = { b: "B", y: "Y", g: "G", 0: "B", 1: "Y", 2: "G" };
  const SQUARES = { "\u2B1B": "B", "\u2B1C": "B", "\u{1F7E8}": "Y", "\u{1F7E9}": "G", "\u{1F7E6}": "Y", "\u{1F7E7}": "G" };

  const WORDLE = {
    kind: "wordle",
    label: "Pattern (B grey, Y yellow, G green)",
    feedback(guess, answer) {
      const out = Array(guess.length).fill("B");
      const left = {};
      for (let i = 0; i < guess.length; i++) {
        if (guess[i] === answer[i]) out[i] = "G";
        else left[answer[i]] = (left[answer[i]] || 0) + 1;
      }
      for (let i = 0; i < guess.length; i++) {
        if (out[i] === "B" && left[guess[i]] > 0) {
          out[i] = "Y";
          left[guess[i]]--;
        }
      }
      return out.join("");
    },
    code(guess, answer) {
      // the pattern as a whole number (base 3, G = 2): the searches' form
      const n = guess.length;
      const out = new Array(n).fill(0);
      const left = new Int8Array(128);
      for (let i = 0; i < n; i++) {
        if (guess.charCodeAt(i) === answer.charCodeAt(i)) out[i] = 2;
        else left[answer.charCodeAt(i)]++;
      }
      let c = 0;
      for (let i = 0; i < n; i++) {
        let v = out[i];
        if (v === 0 && left[guess.charCodeAt(i)] > 0) { v = 1; left[guess.charCodeAt(i)]--; }
        c = c * 3 + v;
      }
      return c;
    },
    nCodes: (length) => 3 ** length,
    winCode: (length) => 3 ** length - 1,
    possibleCodes: (length) => 3 ** length - 1 - length, // not the win, nor all green but one yellow
    parse(text, length) {
      if (text.length === length && /^[BYG]+$/.test(text)) return { key: text }; // the tree's own keys
      const chars = [...text.replace(/[\s\uFE0F]/g, "")];
      const out = [];
      for (const ch of chars) {
        const c = COLOUR_KEYS[ch.toLowerCase()] || SQUARES[ch];
        if (!c) return { error: `"${ch}" is not a colour: use B (grey), Y (yellow) or G (green)` };
        out.push(c);
      }
      if (out.length !== length) return { error: `the pattern needs ${length} colours, one per letter; got ${out.length}` };
      return { key: out.join("") };
    },
    win: (length) => "G".repeat(length),
  };

  function exactAndCommon(guess, answer) {
    let exact = 0;
    const g = {}, s = {};
    for (let i = 0; i < guess.length; i++) {
      if (guess[i] === answer[i]) exact++;
      g[guess[i]] = (g[guess[i]] || 0) + 1;
      s[answer[i]] = (s[answer[i]] || 0) + 1;
    }
    let common = 0;
    for (const k in g) common += Math.min(g[k], s[k] || 0);
    return [exact, common - exact];
  }

  function countsGame(kind, a, b, aName, bName, label) {
    // Mastermind (2B1W) and Bulls and Cows (1A2B): a pair of counts.
    const re = new RegExp(`^(?:(\\d+)\\s*${a})?\\s*(?:(\\d+)\\s*${b})?$`, "i");
    return {
      kind, label, aName, bName, a, b,
      feedback(guess, answer) {
        const [x, y] = exactAndCommon(guess, answer);
        return `${x}${a}${y}${b}`;
      },
      code(guess, answer) {
        const [x, y] = exactAndCommon(guess, answer);
        return x * (guess.length + 1) + y;
      },
      nCodes: (length) => (length + 1) ** 2,
      winCode: (length) => length * (length + 1),
      possibleCodes: (length) => ((length + 1) * (length + 2)) / 2 - 2, // not the win, nor all right but one
      parse(text, length) {
        const t = text.trim();
        let m = t.match(re);
        let x, y;
        if (t && m && (m[1] !== undefined || m[2] !== undefined)) {
          x = +(m[1] || 0);
          y = +(m[2] || 0);
        } else if ((m = t.match(/^(\d+)[\s,/]*(\d+)$/))) {
          x = +m[1];
          y = +m[2];
        } else {
          return { error: `write the feedback as counts, like 1${a}2${b} (${aName} then ${bName})` };
        }
        if (x + y > length) return { error: `${x} ${aName} and ${y} ${bName} is more than ${length} in all` };
        return { key: `${x}${a}${y}${b}` };
      },
      win: (length) => `${length}${a}0${b}`,
    };
  }
  const MASTERMIND = countsGame("mastermind", "B", "W", "black", "white", "Pegs (like 2B1W)");
  const BULLS = countsGame("bulls-cows", "A", "B", "bulls (A)", "cows (B)", "Counts (like 1A2B)");

  // WORDLE.code's whole number as its pattern (the first letter the most significant digit)
  function codeText(code, length) {
    let x = code, out = "";
    for (let i = 0; i < length; i++) { out = "BYG"[x % 3] + out; x = Math.floor(x / 3); }
    return out;
  }

  // The feedback rules, for the tests and the browser console.
  window.wordtreeGames = { wordle: WORDLE, mastermind: MASTERMIND, "bulls-cows": BULLS };

  function gameOf(entry) {
    const name = String((entry.game || {}).name || "").toLowerCase();
    if (name.startsWith("mastermind")) return MASTERMIND;
    if (name.startsWith("bulls")) return BULLS;
    return WORDLE;
  }

  // ---------------------------------------------------------------------------------------------
  // the tree: marking wins, counting answers, finding a branch by pattern
  // ---------------------------------------------------------------------------------------------
  const NO_KEYS = new Map();

  function mark(root, game, answers) {
    // Recursive (a tree is only as deep as its worst game). Each node gets w (its guess wins
    // here), n (answers possible here), t (their guesses from here), d (most guesses still
    // needed, this one included) and keys (canonical pattern -> key in next); returns totals for
    // the check and any problems. A node with no `next` wins without a check: its guess is the
    // last answer left (checking every answer's path is `wordtree verify`'s job, which `web` ran
    // before it published the tree; the totals below catch a miscount).
    const problems = [];
    const path = []; // [guess, canonical pattern] from the root
    let winsTotal = 0, guessesTotal = 0;
    const isAnswer = answers ? (w) => answers.has(w) : () => true;
    const visit = (node, depth) => {
      const next = node.next;
      const keys = next ? Object.keys(next) : [];
      let wins = true;
      if (keys.length) {
        wins = isAnswer(node.guess);
        if (wins) for (const [g, p] of path) if (game.feedback(g, node.guess) !== p) { wins = false; break; }
      } else if (!isAnswer(node.guess)) problems.push(`${node.guess} is a last guess but not an answer`);
      node.w = wins;
      node.n = node.d = node.t = wins ? 1 : 0;
      node.keys = keys.length ? new Map() : NO_KEYS;
      if (wins) { winsTotal++; guessesTotal += depth; }
      for (const k of keys) {
        const parsed = game.parse(k, node.guess.length);
        if (parsed.error) { problems.push(`pattern "${k}" after ${node.guess}: ${parsed.error}`); continue; }
        node.keys.set(parsed.key, k);
        path.push([node.guess, parsed.key]);
        const child = visit(next[k], depth + 1);
        path.pop();
        node.n += child.n;
        node.t += child.t + child.n;
        if (child.d + 1 > node.d) node.d = child.d + 1;
      }
      return node;
    };
    visit(root, 1);
    return { problems, winsTotal, guessesTotal };
  }

  function answersBelow(node, out) {
    if (node.w) out.push(node.guess);
    const next = node.next || {};
    for (const k in next) answersBelow(next[k], out);
    return out;
  }

  function childOf(node, key) {
    const k = node && node.keys && node.keys.get(key);
    return k === undefined ? null : node.next[k];
  }

  // the guesses `replay` counts from `node` to each answer of `answers` (grade.py subtree_total)
  function subtreeTotal(game, node, answers) {
    let total = 0;
    for (const a of answers) {
      let at = node, n = 1;
      while (at && at.guess !== a) {
        at = childOf(at, game.feedback(at.guess, a));
        n++;
      }
      if (!at) return null; // (a verified tree holds every answer)
      total += n;
    }
    return total;
  }

  // ---------------------------------------------------------------------------------------------
  // loading: one tree at a time, as a script (a file:// page may not fetch files)
  // ---------------------------------------------------------------------------------------------
  const loaded = {}; // name -> the loaded tree
  const waiting = {}; // name -> resolve
  let cur = null; // the loaded tree in use

  window.wordtreeLoaded = function (name, data, extra) {
    if (waiting[name]) waiting[name](data, extra);
  };

  function prepare(entry, data, extra) {
    const family = entry.family || "wordle";
    const out = { entry, data, family, extra: extra || {} };
    if (family === "wordle") {
      const game = gameOf(entry);
      const answers = out.extra.answers || null;
      out.game = game;
      out.root = data.root;
      out.length = data.root.guess.length;
      out.answers = answers;
      out.answerIndex = answers ? new Map(answers.map((w, i) => [w, i])) : null;
      out.guesses = out.extra.guesses || answers;
      out.guessSet = out.guesses ? new Set(out.guesses) : null;
      out.check = mark(data.root, game, answers ? new Set(answers) : null);
      out.mode = data.game.mode || "normal";
      out.cap = data.game.max_guesses === undefined ? 6 : data.game.max_guesses;
    } else if (family === "hangman") {
      out.words = hangmanWords(data.tree, []).sort();
    } else if (family === "absurdle") {
      out.game = WORDLE;
      out.answers = out.extra.answers;
      out.guesses = out.extra.guesses;
      out.guessSet = new Set(out.guesses);
      out.length = data.game.word_length;
      out.board = new SOLVER.Absurdle(out.guesses, out.answers, WORDLE.code, out.length, data.rule === "qntm");
    } else if (family === "multiboard") {
      out.game = WORDLE;
      out.answers = out.extra.answers;
      out.guesses = out.extra.guesses;
      out.guessSet = new Set(out.guesses);
      out.length = data.game.word_length;
      out.boards = data.game.boards;
      out.cap = data.game.max_guesses;
      out.player = new SOLVER.MultiPlayer(out.answers, out.extra.shortlist, WORDLE.code);
    } else if (family === "dordle") {
      out.answers = out.extra.answers;
      out.guesses = out.extra.guesses || out.answers;
      out.cap = data.max_guesses;
      out.length = data.game.word_length || 5;
    }
    return out;
  }

  function loadTree(entry) {
    if (loaded[entry.name]) return Promise.resolve(loaded[entry.name]);
    return new Promise((resolve, reject) => {
      waiting[entry.name] = (data, extra) => {
        delete waiting[entry.name];
        loaded[entry.name] = prepare(entry, data, extra);
        resolve(loaded[entry.name]);
      };
      const s = el("script", { src: `trees/${encodeURIComponent(entry.name)}.js` });
      s.onerror = () => reject(new Error(`cannot load trees/${entry.name}.js`));
      document.body.append(s);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // a Wordle-family position, as `wordtree next` keeps it (player.py Position)
  // ---------------------------------------------------------------------------------------------
  function newPosition(t) {
    return { t, steps: [], node: t.root, cands: t.answers ? t.answers.slice() : answersBelow(t.root, []),
             widened: false, solved: false };
  }

  function allowedLeft(pos, guess, key) {
    const t = pos.t, game = t.game;
    let left = t.guesses.slice();
    for (const [g, p] of pos.steps.map((s) => [s.guess, s.key]).concat([[guess, key]]))
      left = left.filter((w) => game.feedback(g, w) === p);
    return left;
  }

  // Apply one step (`guess` got the pattern `text`); returns an error message, or null.
  function playStep(pos, guess, text) {
    const t = pos.t, game = t.game;
    const n = pos.steps.length + 1;
    guess = String(guess || "").trim().toLowerCase();
    const where = `step ${n} (${guess}:${text})`;
    if (pos.solved) return `${where}: the game is already solved`;
    if (t.cap !== null && n > t.cap) return `${where}: the game allows only ${t.cap} guesses`;
    const parsed = game.parse(text, t.length);
    if (parsed.error) return `Not a pattern: ${parsed.error}.`;
    const onTree = pos.node !== null && guess === pos.node.guess;
    if (!onTree && !(t.guessSet ? t.guessSet.has(guess) : guess.length === t.length))
      return `${where}: "${guess}" is not an allowed guess in ${t.data.game.name}`;
    const key = parsed.key, win = game.win(t.length);
    let left = pos.cands.filter((a) => game.feedback(guess, a) === key);
    let node = null;
    if (onTree && key !== win) node = childOf(pos.node, key);
    if (!left.length && !pos.widened) { // beyond the list: off the tree too
      left = allowedLeft(pos, guess, key);
      node = null;
      pos.widened = left.length > 0;
    }
    if (!left.length) {
      const only = pos.node && pos.node.n === 1 && pos.node.w && onTree
        ? ` Only ${pos.node.guess} is left of the list, so it can only be all correct.` : "";
      return `No answer still possible gives ${key} to ${guess}, nor any allowed guess: check the feedback.${only}`;
    }
    pos.steps.push({ guess, key });
    pos.cands = left;
    pos.node = node;
    pos.solved = key === win;
    return null;
  }

  // The next guess (player.py Position.suggest): {guess, source, candidates, expected, note} or {error}.
  function suggest(pos) {
    const t = pos.t, n = pos.steps.length, note = pos.widened ? WIDENED_NOTE : null;
    const cands = pos.cands;
    const out = (guess, source, expected) => ({ guess, source, candidates: cands, expected, note, step: n });
    if (pos.solved) return out(null, "solved", 0);
    if (pos.node !== null) {
      const node = pos.node;
      return out(node.guess, "tree", n === 0 ? t.data.stats.mean : round(node.t / node.n, 4));
    }
    const left = t.cap === null ? null : t.cap - n;
    if (left !== null && left < 1) return { error: `no guesses left after ${n} steps: the game allows ${t.cap}` };
    if (cands.length === 1) return out(cands[0], "exact", 1);
    if (cands.length <= EXACT_LIMIT && (!pos.widened || t.game.kind === "wordle")) {
      const candidatesOnly = t.mode === "ultra" && t.game.kind !== "wordle";
      if (t.mode === "normal") {
        const found = SOLVER.exactBest({
          guesses: t.guesses, cands, code: t.game.code, win: t.game.winCode(t.length),
          nCodes: t.game.nCodes(t.length), cap: left, matrixAnswers: pos.widened ? cands : t.answers,
          possibleCodes: t.game.possibleCodes(t.length),
        });
        if (!found) return { error: `impossible: no tree solves every answer within ${left} guesses (proven)` };
        return out(found.guess, "exact", round(found.total / cands.length, 4));
      }
      if (candidatesOnly)
        return { ...out(null, "exact", null), error: `the exact search of ${t.mode} mode off the tree is not in this page: ` +
                 `wordtree next gives it` };
    }
    return out(SOLVER.heuristicGuess(t.guesses, cands, t.game.code, t.mode, left), "heuristic", null);
  }

  // For the tests and the console: the position and advice after GUESS:PATTERN steps on a tree.
  window.wordtreeAdvice = function (name, steps) {
    const t = loaded[name];
    if (!t) return { error: `tree ${name} is not loaded` };
    if (t.family === "hangman") return hangmanAdvice(t, steps[0], steps[1] || "");
    if (t.family === "dordle") {
      const pos = dordlePosition(t);
      for (const s of steps) {
        const i = s.indexOf(":");
        const err = dordleStep(pos, s.slice(0, i), s.slice(i + 1));
        if (err) return { error: err };
      }
      return dordleSuggest(pos);
    }
    if (t.family === "absurdle") {
      const pos = absurdlePosition(t);
      for (const s of steps) {
        const err = absurdleStep(pos, s);
        if (err) return { error: typeof err === "string" ? err : err.error };
      }
      const a = absurdleAdvice(pos, true);
      return { steps: pos.history.map((h) => `${h.guess}:${h.reply}`), guess: a.guess, wins_in: a.winsIn, source: a.source,
               candidates: a.source === "won" ? 0 : pos.left.length, // (position.py: a won game has none left to find)
               candidate_words: a.source === "won" ? [] : pos.left.slice(0, 50).map((i) => t.answers[i]) };
    }
    if (t.family === "multiboard") {
      const pos = multiPosition(t);
      for (const s of steps) {
        const i = s.indexOf(":");
        const err = multiStep(pos, s.slice(0, i), s.slice(i + 1));
        if (err) return { error: err };
      }
      return multiSuggest(pos);
    }
    const pos = newPosition(t);
    for (const s of steps) {
      const i = s.indexOf(":");
      const err = playStep(pos, s.slice(0, i), s.slice(i + 1));
      if (err) return { error: err };
    }
    return suggest(pos);
  };

  // ---------------------------------------------------------------------------------------------
  // the Wordle-family player: rendering
  // ---------------------------------------------------------------------------------------------
  let pos = null; // the position played
  let advice = null; // suggest(pos)
  let tiles = []; // wordle: the colour of each tile
  let showAllBranches = false;

  function say(text, kind) {
    const m = $("message");
    m.textContent = text;
    m.dataset.kind = kind || "";
  }

  function patternView(key, guess) {
    // A pattern drawn small: coloured squares for Wordle, the counts otherwise.
    if (cur.game.kind !== "wordle") return el("span", { class: "counts", text: key });
    const span = el("span", { class: "mini", role: "img", "aria-label": guess ? `${guess} ${key}` : key });
    [...key].forEach((c, i) => span.append(el("span", { class: `t ${c}`, text: guess ? guess[i] : "" })));
    return span;
  }

  function playedWord() {
    // the word played now: one's own (typed in "Played instead"), else the suggestion
    const own = $("own").value.trim().toLowerCase();
    return own || (advice && advice.guess) || "";
  }

  function renderGuess() {
    const box = $("guess");
    box.replaceChildren();
    const word = playedWord();
    box.dataset.word = advice && advice.guess ? advice.guess : "";
    if (!word || pos.solved) return;
    if (cur.game.kind === "wordle") {
      if (tiles.length !== word.length) tiles = Array(word.length).fill("B");
      [...word].forEach((ch, i) => {
        const b = el("button", { type: "button", class: "tile B", "data-i": i, text: ch.toUpperCase() });
        b.addEventListener("click", () => { setTile(i, COLOURS[(COLOURS.indexOf(tiles[i]) + 1) % 3]); syncText(); });
        b.addEventListener("keydown", (ev) => tileKey(ev, i));
        box.append(b);
      });
      paintTiles();
    } else {
      [...word].forEach((ch) => box.append(el("span", { class: `peg p${ch}`, text: ch })));
    }
  }

  function setTile(i, c) {
    tiles[i] = c;
    paintTiles();
  }
  function paintTiles() {
    const word = playedWord();
    $("guess").querySelectorAll(".tile").forEach((b, i) => {
      b.className = `tile ${tiles[i]}`;
      b.setAttribute("aria-label", `${(word[i] || "").toUpperCase()}: ${COLOUR_NAMES[tiles[i]]} (B, Y, G or click to change)`);
    });
  }
  function syncText() {
    $("pattern").value = tiles.join("");
    say("");
  }
  function tileKey(ev, i) {
    const all = $("guess").querySelectorAll(".tile");
    const c = COLOUR_KEYS[ev.key.toLowerCase()];
    if (c) {
      setTile(i, c);
      syncText();
      if (i + 1 < all.length) all[i + 1].focus();
    } else if (ev.key === "ArrowRight" && i + 1 < all.length) all[i + 1].focus();
    else if ((ev.key === "ArrowLeft" || ev.key === "Backspace") && i > 0) all[i - 1].focus();
    else if (ev.key === "Enter") submit();
    else return;
    ev.preventDefault();
  }

  function renderControls() {
    const box = $("controls");
    box.replaceChildren();
    const game = cur.game;
    $("pattern-label").textContent = game.label;
    $("pattern").value = "";
    tiles = Array(cur.length).fill("B");
    if (game.kind === "wordle") {
      $("pattern").placeholder = "BYGBB".padEnd(cur.length, "B").slice(0, cur.length);
      $("hint").textContent = "Click a tile (or focus it and press B, Y or G) to set its colour, or type the pattern; then Enter.";
      return;
    }
    $("pattern").placeholder = `1${game.a}2${game.b}`;
    for (const [id, name] of [["count-a", game.aName], ["count-b", game.bName]]) {
      const input = el("input", { id, type: "number", min: "0", max: String(cur.length), value: "0", inputmode: "numeric" });
      input.addEventListener("input", () => {
        $("pattern").value = `${+$("count-a").value || 0}${game.a}${+$("count-b").value || 0}${game.b}`;
        say("");
      });
      box.append(el("label", { class: "count" }, name + " ", input));
    }
    $("hint").textContent = `Set the ${game.aName} and ${game.bName} (or type them), then Enter.`;
  }

  function onPatternInput() {
    // Typing in the text box updates the tiles/counts where it can; Enter checks it in full.
    const text = $("pattern").value;
    if (!advice || !advice.guess) return;
    if (cur.game.kind === "wordle") {
      const chars = [...text.replace(/[\s\uFE0F]/g, "")];
      chars.slice(0, tiles.length).forEach((ch, i) => {
        const c = COLOUR_KEYS[ch.toLowerCase()] || SQUARES[ch];
        if (c) tiles[i] = c;
      });
      paintTiles();
    } else {
      const parsed = cur.game.parse(text, cur.length);
      if (!parsed.error) {
        const m = parsed.key.match(/^(\d+)\D(\d+)\D$/);
        $("count-a").value = m[1];
        $("count-b").value = m[2];
      }
    }
    say("");
  }

  function renderCandidates() {
    const box = $("candidates");
    box.replaceChildren();
    const cands = pos.cands;
    const n = cands.length;
    if (advice && advice.note) box.append(el("p", { id: "note", class: "note", text: advice.note }));
    if (pos.solved) return;
    box.append(el("p", { id: "count", "data-n": n, text: `${n} ${pos.widened ? "allowed guess" : "answer"}${n === 1 ? "" : "s"} still possible` }));
    const list = () => el("p", { id: "answers", class: "words", text: cands.slice().sort().join(" ") });
    if (n <= LIST_LIMIT) box.append(list());
    else {
      const d = el("details", {}, el("summary", { text: "show them" }));
      d.addEventListener("toggle", () => d.append(list()), { once: true });
      box.append(d);
    }
  }

  function pathItem(guess, key, cls) {
    // Wordle's small tiles carry the letters; the other games show the code, then the counts.
    if (cur.game.kind === "wordle") return el("li", { class: cls }, patternView(key, guess));
    return el("li", { class: cls }, el("span", { class: "word", text: guess }), " ", patternView(key, guess));
  }

  function renderPath() {
    const ol = $("path");
    ol.replaceChildren();
    pos.steps.forEach((s, i) => ol.append(pathItem(s.guess, s.key, pos.solved && i === pos.steps.length - 1 ? "won" : "")));
    $("undo").disabled = !pos.steps.length;
  }

  const SOURCES = {
    tree: "from the tree", exact: "exact search, off the tree", heuristic: "heuristic, off the tree (not proven best)",
  };

  function renderStep() {
    const form = $("feedback");
    const n = pos.steps.length;
    $("source").textContent = "";
    $("source").dataset.source = advice.source || "";
    if (pos.solved) {
      $("step").textContent = "";
      form.hidden = true;
      say(`Solved in ${n}: the answer is ${pos.steps[n - 1].guess}.`, "solved");
      return;
    }
    if (advice.source === "searching") {
      form.hidden = true;
      $("step").textContent = `Guess ${n + 1}: searching the ${advice.candidates.length} candidates exactly…`;
      say("");
      return;
    }
    if (advice.error) {
      form.hidden = false;
      $("step").textContent = `Guess ${n + 1}: no advice here.`;
      say(advice.error, "error");
      return;
    }
    form.hidden = false;
    $("step").textContent = `Guess ${n + 1}: play ${advice.guess}, then enter the feedback.`;
    const expected = advice.expected === null ? "" : `; ${advice.expected} guesses expected from here`;
    $("source").textContent = `${advice.guess}: ${SOURCES[advice.source]}${expected}`;
  }

  function renderSummary() {
    const { entry, data, check } = cur;
    const stats = data.stats || {};
    const game = data.game || {};
    const dl = $("summary");
    dl.replaceChildren();
    const rows = [
      ["game", [game.name, game.mode].filter(Boolean).join(", ")],
      ["answers", game.answers_count ?? check.winsTotal],
      ["first guess", data.root.guess],
      ["total guesses", stats.total],
      ["mean", typeof stats.mean === "number" ? stats.mean.toFixed(4) : stats.mean],
      ["worst case", stats.worst],
      ["objective", stats.objective],
      ["optimal", stats.optimal === undefined ? undefined : stats.optimal ? "yes" : "no"],
      ["proof", stats.proof],
      ["engine", stats.engine],
    ];
    for (const [k, v] of rows) {
      if (v === undefined || v === null || v === "") continue;
      dl.append(el("dt", { text: k }), el("dd", { "data-key": k, text: String(v) }));
    }
    $("histogram").replaceChildren(el("p", { class: "caption", text: "Answers by number of guesses" }), histogramSvg(stats.histogram || {}));
    const problems = [...check.problems];
    if (game.answers_count !== undefined && game.answers_count !== check.winsTotal)
      problems.push(`the tree reaches ${check.winsTotal} answers, the game has ${game.answers_count}`);
    if (stats.total !== undefined && stats.total !== check.guessesTotal)
      problems.push(`the tree adds up to ${check.guessesTotal} guesses, its stats say ${stats.total}`);
    $("check").textContent = problems.length ? `Tree check: ${problems.slice(0, 3).join("; ")}` : "";
    $("check").dataset.ok = problems.length ? "no" : "yes";
    document.title = `wordtree: ${entry.name}`;
  }

  function histogramSvg(hist) {
    const NS = "http://www.w3.org/2000/svg";
    const svgEl = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const ks = Object.keys(hist).map(Number).filter((k) => hist[k] > 0).sort((a, b) => a - b);
    const W = 320, H = 150, top = 18, bottom = 22;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "hist" });
    svg.append(svgEl("title", {}, `Answers by number of guesses: ${ks.map((k) => `${k}: ${hist[k]}`).join(", ")}`));
    if (!ks.length) return svg;
    const lo = Math.min(1, ks[0]), hi = ks[ks.length - 1];
    const slots = hi - lo + 1, slot = W / slots, max = Math.max(...ks.map((k) => hist[k]));
    for (let k = lo; k <= hi; k++) {
      const v = hist[k] || 0, h = ((H - top - bottom) * v) / max, x = (k - lo) * slot;
      if (v) svg.append(svgEl("rect", { x: x + slot * 0.15, y: H - bottom - h, width: slot * 0.7, height: h, class: "bar", "data-guesses": k, "data-count": v }));
      svg.append(svgEl("text", { x: x + slot / 2, y: H - bottom - h - 4, class: "val" }, v ? String(v) : ""));
      svg.append(svgEl("text", { x: x + slot / 2, y: H - 6, class: "lab" }, String(k)));
    }
    return svg;
  }


  function renderBranches() {
    const body = $("branches").tBodies[0];
    body.replaceChildren();
    const node = pos.node;
    if (!node || pos.solved) {
      $("branches-title").textContent = pos.solved ? "Branches here" : "Off the tree: no branches here";
      return;
    }
    const rows = [];
    for (const [key, k] of node.keys) rows.push({ key, child: node.next[k] });
    rows.sort((a, b) => b.child.n - a.child.n || (a.key < b.key ? -1 : 1));
    if (node.w) rows.unshift({ key: cur.game.win(node.guess.length), child: null });
    $("branches-title").textContent = `Branches after ${node.guess} (${rows.length})`;
    const frag = document.createDocumentFragment();
    const shown = showAllBranches ? rows : rows.slice(0, BRANCH_ROWS);
    const steps = pos.steps.length;
    for (const r of shown) {
      const go = el("button", { type: "button", class: "go", title: `enter ${r.key}` }, patternView(r.key, node.guess));
      go.addEventListener("click", () => enter(r.key, node.guess));
      frag.append(el("tr", { "data-key": r.key },
        el("td", {}, go),
        el("td", { class: "num", text: String(r.child ? r.child.n : 1) }),
        el("td", { class: "word", text: r.child ? r.child.guess : "solved" }),
        el("td", { class: "num", text: r.child ? String(steps + 1 + r.child.d) : String(steps + 1) })));
    }
    if (shown.length < rows.length) {
      const more = el("button", { type: "button", id: "more-branches", text: `Show all ${rows.length} branches` });
      more.addEventListener("click", () => { showAllBranches = true; renderBranches(); });
      frag.append(el("tr", {}, el("td", { colspan: "4" }, more)));
    }
    body.append(frag);
  }

  let searching = 0; // the render a search in progress belongs to

  function render() {
    showAllBranches = false;
    $("own").value = "";
    const n = pos.cands.length;
    const long = pos.node === null && !pos.solved && cur.mode === "normal" && n > 8 && n <= EXACT_LIMIT
      && (!pos.widened || cur.game.kind === "wordle");
    const token = ++searching;
    if (!long) {
      advice = suggest(pos);
      draw();
      return;
    }
    // an exact search of more than a few candidates takes a moment: say so first, then search
    advice = { guess: null, source: "searching", candidates: pos.cands, expected: null,
               note: pos.widened ? WIDENED_NOTE : null, step: pos.steps.length };
    draw();
    document.body.dataset.busy = "1";
    setTimeout(() => {
      if (token !== searching) return; // the position changed meanwhile
      advice = suggest(pos);
      delete document.body.dataset.busy;
      draw();
    }, 30);
  }

  function draw() {
    renderControls();
    renderGuess();
    renderStep();
    renderCandidates();
    renderPath();
    renderBranches();
    saveHash();
  }

  // ---------------------------------------------------------------------------------------------
  // actions
  // ---------------------------------------------------------------------------------------------
  function enter(text, word) {
    // Apply one feedback to the word played; returns false (with a message) when it cannot be.
    if (pos.solved) return false;
    const guess = word || playedWord();
    if (!guess) { say("Type the word you played.", "error"); return false; }
    const error = playStep(pos, guess, text);
    if (error) { say(error, "error"); return false; }
    pos.steps[pos.steps.length - 1].advised = !!advice && guess === advice.guess;
    say("");
    render();
    return true;
  }

  function submit() {
    const typed = $("pattern").value.trim();
    let text = typed;
    if (!typed) text = cur.game.kind === "wordle" ? tiles.join("") : `${+$("count-a").value || 0}${cur.game.a}${+$("count-b").value || 0}${cur.game.b}`;
    const fromTile = document.activeElement && document.activeElement.classList.contains("tile");
    if (enter(text)) {
      if (pos.solved) $("undo").focus();
      else if (fromTile) { const t = $("guess").querySelector(".tile"); if (t) t.focus(); }
      else $("pattern").focus();
    }
  }

  function replayTo(steps) {
    pos = newPosition(cur);
    for (const s of steps) {
      playStep(pos, s.guess, s.key);
      pos.steps[pos.steps.length - 1].advised = s.advised;
    }
  }

  function undo() {
    if (!pos.steps.length) return;
    replayTo(pos.steps.slice(0, -1));
    say("");
    render();
    $("pattern").focus();
  }

  function restart() {
    pos = newPosition(cur);
    say("");
    render();
    $("pattern").focus();
  }

  // ---------------------------------------------------------------------------------------------
  // the review of a finished game: each move valued from the tree, as `wordtree grade` does
  // (engine/wordle/grade.py): with S the answers left before the move, a move on the tree is
  // worth the subtree's guesses over S, and so is the best move there (the tree's, optimal); the
  // only answer left is worth 1. Any other move needs the exact engine: the page says so.
  // ---------------------------------------------------------------------------------------------
  function treeValuesApply(data) {
    const g = data.game, s = data.stats;
    return s.optimal === true && s.proof === "exhaustive" && (s.objective || "total") === "total";
  }

  function parseReview(t, text) {
    // GUESS:PATTERN steps; or a shared grid's rows with the guesses (words, in order) or the
    // answer (`answer WORD`); or the guesses and the answer. Returns {steps} or {error}.
    const game = t.game, steps = [], grid = [], words = [];
    let answer = null;
    for (const raw of text.split(/\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const a = line.match(/^answer\s*[:=]?\s*(\S+)$/i);
      if (a) { answer = a[1].toLowerCase(); continue; }
      const squares = [...line.replace(/[\s\uFE0F]/g, "")];
      if (squares.length && squares.every((ch) => SQUARES[ch])) { grid.push(squares.map((ch) => SQUARES[ch]).join("")); continue; }
      if (/^wordle\b/i.test(line)) continue; // the shared grid's header (Wordle 1,234 3/6)
      for (const token of line.split(/[\s,]+/).filter(Boolean)) {
        const i = token.indexOf(":");
        if (i > 0) steps.push([token.slice(0, i).toLowerCase(), token.slice(i + 1)]);
        else words.push(token.toLowerCase());
      }
    }
    if (steps.length) return { steps };
    if (grid.length && words.length) {
      if (grid.length !== words.length) return { error: `the grid has ${grid.length} rows and ${words.length} guesses are given: give one guess per row` };
      return { steps: words.map((w, i) => [w, grid[i]]) };
    }
    if (words.length && answer) return { steps: words.map((w) => [w, game.feedback(w, answer)]) };
    if (grid.length && answer) {
      // the grid alone does not say which words were played: the tree's own game against the
      // answer is taken where its colours are the grid's, row by row
      const played = [];
      let node = t.root;
      for (const row of grid) {
        if (!node) break;
        const key = game.feedback(node.guess, answer);
        if (key !== row) break;
        played.push([node.guess, key]);
        node = childOf(node, key);
      }
      if (played.length === grid.length) return { steps: played, assumed: true };
      return { error: "the grid does not say which words were played, and its colours are not the tree's game against " +
               `${answer}: give the guesses too (one per row)` };
    }
    return { error: "give the moves as GUESS:PATTERN (crane:GYYBB sonic:BBBYY cigar:GGGGG), or the shared grid with the guesses or the answer" };
  }

  function reviewGame(t, steps) {
    // {moves: [...], total} or {error}; the numbers as `wordtree grade --json` gives them
    const game = t.game, data = t.data, cap = t.cap;
    const useTree = treeValuesApply(data);
    const rootOk = useTree && data.stats.first_guess !== "given";
    const win = game.win(t.length);
    let S = t.answers.slice();
    let node = useTree ? t.root : null;
    let won = false;
    const positions = [];
    for (let i = 0; i < steps.length; i++) {
      const [word, typed] = steps[i];
      const where = `move ${i + 1} (${word}:${typed})`;
      if (won) return { error: `${where}: the game was already solved` };
      if (cap !== null && i >= cap) return { error: `${where}: the game allows only ${cap} guesses` };
      const parsed = game.parse(typed, t.length);
      if (parsed.error) return { error: `${where}: ${parsed.error}` };
      const guess = word.trim().toLowerCase();
      if (!t.guessSet.has(guess)) return { error: `${where}: "${word}" is not an allowed guess in ${data.game.name}` };
      const key = parsed.key;
      const onTree = node !== null && guess === node.guess;
      const left = S.filter((a) => game.feedback(guess, a) === key);
      if (!left.length) return { error: `${where}: ${key} cannot occur here: no answer left would give it` };
      const known = i > 0 || rootOk;
      positions.push({ guess, key, S, node: known ? node : null, own: known ? null : node });
      won = key === win;
      node = onTree && !won ? childOf(node, key) : null;
      S = left;
    }
    if (!positions.length) return { error: "no moves to grade: give GUESS:PATTERN steps" };
    const moves = positions.map((p, i) => {
      const n = p.S.length, dLeft = cap === null ? null : cap - i;
      const m = { move: i + 1, guess: p.guess, pattern: p.key, candidates: n, best: null, total: null, best_total: null, source: "tree" };
      if (p.node !== null) {
        m.best = p.node.guess;
        m.best_total = subtreeTotal(game, p.node, p.S);
        if (p.guess === m.best) m.total = m.best_total;
      } else if (p.own !== null && p.guess === p.own.guess) {
        m.total = subtreeTotal(game, p.own, p.S); // the opener's own optimal tree
      } else if (n === 1 && (dLeft === null || dLeft >= 1)) {
        m.best = p.S[0]; m.best_total = 1; m.source = "engine";
        if (p.guess === m.best) m.total = 1;
      }
      m.expected = m.total === null ? null : round(m.total / n, 4);
      m.best_expected = m.best_total === null ? null : round(m.best_total / n, 4);
      m.loss = m.total === null || m.best_total === null ? null : round((m.total - m.best_total) / n, 4);
      m.valued = m.loss !== null;
      return m;
    });
    const all = moves.every((m) => m.valued);
    const last = moves[moves.length - 1], first = moves[0];
    const total = {
      moves: moves.length, solved: won,
      loss: all ? round(positions.reduce((s, p, i) => s + (moves[i].total - moves[i].best_total) / p.S.length, 0), 4) : null,
      expected: last.total === null ? null : round(moves.length - 1 + last.total / last.candidates, 4),
      best_expected: first.best_total === null ? null : round(first.best_total / first.candidates, 4),
    };
    return { moves, total, tree: useTree };
  }

  function renderReview() {
    const out = $("review-out");
    out.replaceChildren();
    $("review-message").textContent = "";
    const parsed = parseReview(cur, $("review-input").value);
    if (parsed.error) { $("review-message").textContent = parsed.error; $("review-message").dataset.kind = "error"; return; }
    const result = reviewGame(cur, parsed.steps);
    if (result.error) { $("review-message").textContent = result.error; $("review-message").dataset.kind = "error"; return; }
    $("review-message").dataset.kind = "";
    if (parsed.assumed) $("review-message").textContent = "The grid is the tree's own game against that answer: its guesses are taken.";
    if (!result.tree) $("review-message").textContent = "This tree's totals are not proven optimal: no move can be valued from it here.";
    const table = el("table", { id: "review-table", class: "branches" });
    table.append(el("thead", {}, el("tr", {}, ...["Move", "Guess", "Left", "Expected", "Best", "Best exp.", "Loss"].map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    for (const m of result.moves) {
      const offTree = !m.valued;
      body.append(el("tr", { "data-move": m.move, "data-expected": m.expected ?? "", "data-best": m.best ?? "",
                              "data-best-expected": m.best_expected ?? "", "data-loss": m.loss ?? "", "data-left": m.candidates },
        el("td", { class: "num", text: String(m.move) }),
        el("td", {}, cur.game.kind === "wordle" ? patternView(m.pattern, m.guess) : el("span", { class: "word", text: `${m.guess} ${m.pattern}` })),
        el("td", { class: "num", text: String(m.candidates) }),
        el("td", { class: "num", text: fixed(m.expected) }),
        el("td", { class: "word", text: m.best || "?" }),
        el("td", { class: "num", text: fixed(m.best_expected) }),
        el("td", { class: "num", text: offTree ? "off the tree" : fixed(m.loss) })));
    }
    table.append(body);
    out.append(table);
    const t = result.total;
    const offs = result.moves.filter((m) => !m.valued).map((m) => m.move);
    const lines = [];
    if (t.loss !== null) lines.push(`Total loss ${t.loss.toFixed(4)} over ${t.moves} move${t.moves === 1 ? "" : "s"} (${t.solved ? "solved" : "not solved"}); ` +
      `expected ${fixed(t.expected)} guesses as played vs ${fixed(t.best_expected)} optimal from the start.`);
    if (offs.length) lines.push(`Move${offs.length === 1 ? "" : "s"} ${offs.join(", ")}: off the tree. The tree values only its own moves ` +
      `(and the last answer left); wordtree grade values the others with the exact search.`);
    out.append(el("p", { id: "review-total", "data-loss": t.loss ?? "", "data-expected": t.expected ?? "",
                         "data-best-expected": t.best_expected ?? "", text: lines.join(" ") }));
  }

  // ---------------------------------------------------------------------------------------------
  // Hangman (engine/hangman/lookup.py): the word as revealed and the letters missed in; the
  // best letter, the words left and the expected score out, while the position is on the tree
  // ---------------------------------------------------------------------------------------------
  const WIN_POINTS = 20;
  const HIDDEN = "_.-";

  function hangmanWords(node, out) {
    if (typeof node === "string") out.push(node);
    else if (node && Array.isArray(node.lost)) out.push(...node.lost);
    else if (node && node.next) for (const k in node.next) hangmanWords(node.next[k], out);
    return out;
  }

  function only(word, letter) {
    // the word as the feedback of one letter: that letter where it stands, - elsewhere
    let s = "";
    for (const ch of word) s += ch === letter ? letter : "-";
    return s;
  }

  function hangmanAdvice(t, patternText, missedText) {
    const game = t.data.game, length = game.word_length, lives = game.lives;
    const text = String(patternText || "").trim().toLowerCase();
    const bad = [...text].find((ch) => !/[a-z]/.test(ch) && !HIDDEN.includes(ch));
    if (bad !== undefined) return { error: `pattern "${patternText}": "${bad}" is neither a letter a-z nor _ for a hidden one` };
    if (text.length !== length) return { error: `pattern "${patternText}" has ${text.length} letters; the tree is of ${length}-letter words` };
    const pattern = [...text].map((ch) => (HIDDEN.includes(ch) ? "_" : ch)).join("");
    const letters = [...String(missedText || "").toLowerCase()].filter((ch) => ch !== " " && ch !== ",");
    const badMiss = letters.find((ch) => !/[a-z]/.test(ch));
    if (badMiss !== undefined) return { error: `missed letters "${missedText}": "${badMiss}" is not a letter a-z` };
    const both = [...new Set(letters)].filter((ch) => pattern.includes(ch)).sort();
    if (both.length) return { error: `"${both[0]}" is both missed and revealed in ${pattern}` };
    const missed = [...new Set(letters)].sort().join("");
    const outSet = new Set([...missed, ...pattern.replace(/_/g, "")]);
    const words = t.words.filter((w) => [...pattern].every((p, i) => p === w[i] || (p === "_" && !outSet.has(w[i]))));
    const advice = { letter: null, source: "", pattern, missed, words, lives, expected_score: null, word: null, to_guess: "" };
    const misses = missed.length;
    if (!pattern.includes("_")) {
      if (misses > lives) return { error: `${pattern} is revealed, but ${misses} wrong guesses lose with ${lives} lives` };
      return { ...advice, source: "won", word: pattern, expected_score: WIN_POINTS - misses };
    }
    if (misses > lives) return { ...advice, source: "lost", expected_score: -misses };
    if (!words.length) return { error: `no word of the tree's list fits ${pattern}` + (missed ? ` with ${[...missed].join(" ")} missed` : "") };
    const found = hangmanOnTree(t, pattern, missed, words);
    if (found) { advice.letter = found.letter; advice.expected_score = found.score; advice.source = "tree"; }
    else if (words.length === 1) { advice.source = "exact"; advice.expected_score = WIN_POINTS - misses; }
    else advice.source = "off the tree";
    if (words.length === 1) {
      advice.word = words[0];
      advice.to_guess = [...new Set([...pattern].map((p, i) => (p === "_" ? words[0][i] : "")).join(""))].join("");
      advice.letter = advice.to_guess[0];
    }
    return advice;
  }

  function hangmanOnTree(t, pattern, missed, words) {
    const guessed = new Set([...missed, ...pattern.replace(/_/g, "")]);
    let node = t.data.tree, misses = 0;
    while (node && typeof node === "object" && !("lost" in node)) {
      const letter = node.guess;
      if (!guessed.has(letter)) break;
      const key = only(pattern, letter);
      if (!(key in node.next)) return null;
      if (missed.includes(letter)) misses++;
      node = node.next[key];
    }
    if (misses !== missed.length) return null;
    const found = [];
    const walk = (at, m) => {
      if (typeof at === "string") found.push([at, m, false]);
      else if (Array.isArray(at.lost)) for (const w of at.lost) found.push([w, m, true]);
      else for (const k in at.next) walk(at.next[k], m + (k.includes(at.guess) ? 0 : 1));
    };
    walk(node, misses);
    const held = found.map((f) => f[0]).sort();
    if (held.length !== words.length || held.some((w, i) => w !== words[i])) return null;
    const score = found.reduce((s, [, m, lost]) => s + (lost ? -m : WIN_POINTS - m), 0);
    const letter = node && typeof node === "object" && !("lost" in node) ? node.guess : null;
    // (a tree of weighted words scores by weights the site does not carry: no score then)
    return { letter, score: t.data.game.weights ? null : round(score / found.length, 6) };
  }

  function renderHangman() {
    const a = hangmanAdvice(cur, $("hm-pattern").value, $("hm-missed").value);
    const m = $("hm-message");
    m.textContent = "";
    m.dataset.kind = "";
    $("hm-out").hidden = !!a.error;
    if (a.error) { m.textContent = a.error; m.dataset.kind = "error"; return; }
    $("hm-letter").textContent = a.letter ? a.letter.toUpperCase() : a.source === "won" ? "won" : a.source === "lost" ? "lost" : "?";
    $("hm-letter").dataset.letter = a.letter || "";
    $("hm-source").dataset.source = a.source;
    const sources = { tree: "from the tree", exact: "the one word left", won: "the word is revealed", lost: "no lives left",
                      "off the tree": "off the tree: the letters guessed are not the tree's, so it gives no advice here; " +
                      "wordtree next searches the words left exactly" };
    const score = a.expected_score === null ? "" : `; expected score ${a.expected_score} (20 a word solved, less 1 a wrong guess)`;
    $("hm-source").textContent = `${sources[a.source]}${score}; ${Math.max(0, a.lives - a.missed.length)} wrong guesses left`;
    $("hm-count").textContent = `${a.words.length} word${a.words.length === 1 ? "" : "s"} left`;
    $("hm-count").dataset.n = a.words.length;
    $("hm-words").textContent = a.words.slice(0, 200).join(" ") + (a.words.length > 200 ? " …" : "");
  }

  // ---------------------------------------------------------------------------------------------
  // Dordle (engine/dordle/player.py): both boards' patterns in, the next guess out
  // ---------------------------------------------------------------------------------------------
  function dordlePosition(t) {
    return { t, steps: [], sets: [t.answers.slice(), t.answers.slice()], solvedAt: [0, 0], node: t.data.tree, single: null };
  }

  function dordleStep(pos, guess, feedback) {
    const t = pos.t, n = pos.steps.length + 1, length = t.length, mark = "=".repeat(length);
    guess = String(guess || "").trim().toLowerCase();
    const where = `step ${n} (${guess}:${feedback})`;
    if (pos.solvedAt[0] && pos.solvedAt[1]) return `${where}: the game is already won`;
    if (n > t.cap) return `${where}: the game allows only ${t.cap} guesses`;
    const texts = String(feedback).split("/");
    if (texts.length !== 2) return `${where}: expected two patterns, board 1's and board 2's, as P1/P2`;
    if (!t.guesses.includes(guess)) return `${where}: "${guess}" is not an allowed guess`;
    const keys = [];
    for (let b = 0; b < 2; b++) {
      const text = texts[b].trim();
      const isMark = text.length > 0 && /^=+$/.test(text);
      if (pos.solvedAt[b]) {
        if (text !== mark) return `${where}: board ${b + 1} was solved at guess ${pos.solvedAt[b]}: show it as ${mark}`;
        keys.push(null);
      } else if (isMark) return `${where}: board ${b + 1} is not solved: give its colours (${mark} is for a solved board)`;
      else {
        const parsed = WORDLE.parse(text, length);
        if (parsed.error) return `${where}: board ${b + 1}: ${parsed.error}`;
        keys.push(parsed.key);
      }
    }
    const win = WORDLE.win(length);
    if (keys[0] === win && keys[1] === win) return `${where}: one guess cannot solve both boards: their answers differ`;
    const sets = pos.sets.map((S, b) => (keys[b] === null ? S : S.filter((a) => WORDLE.feedback(guess, a) === keys[b])));
    for (let b = 0; b < 2; b++) if (keys[b] !== null && !sets[b].length) return `${where}: board ${b + 1}: ${keys[b]} cannot occur here: no answer left would give it`;
    const pairs = sets[0].length * sets[1].length - sets[0].filter((a) => sets[1].includes(a)).length;
    if (!pairs) return `${where}: no pair of different answers gives that feedback`;
    const key = keys.map((k) => (k === null ? mark : k)).join("/");
    pos.sets = sets;
    keys.forEach((k, b) => { if (k === win) pos.solvedAt[b] = n; });
    pos.steps.push({ guess, key });
    if (!(pos.solvedAt[0] && pos.solvedAt[1])) dordleFollow(pos, guess, keys, key, t.cap - n);
    return null;
  }

  function dordleFollow(pos, guess, keys, key, d) {
    const t = pos.t, win = WORDLE.win(t.length);
    const node = pos.node;
    if (node === null) return;
    if ("board" in node) { // a remainder: along its single-board tree
      if (pos.single === null || guess !== pos.single.guess) { pos.node = pos.single = null; return; }
      const k = keys[node.board - 1];
      pos.single = k === win ? null : (pos.single.next || {})[k] || null;
      return;
    }
    if (guess !== node.guess) { pos.node = null; return; }
    const child = (node.next || {})[key];
    if (!keys.includes(win)) { pos.node = child || null; return; }
    const open = keys[0] === win ? 1 : 0;
    pos.node = child || null;
    if (!child) return;
    const S = pos.sets[open];
    pos.single = S.length > 1 ? remainderTree(t, S, d) : { guess: S[0] };
  }

  function remainderTree(t, S, d) {
    // the single-board engine's optimal tree of the remainder (Solver.tree), keys as patterns
    const length = t.length;
    const search = new SOLVER.Search(t.guesses, S, WORDLE.code, WORDLE.winCode(length), WORDLE.nCodes(length),
      SOLVER.branching(t.guesses, t.answers, WORDLE.code, WORDLE.winCode(length), Math.max(64, S.length + 2)), t.cap);
    const tree = search.tree(search.all(), d);
    const relabel = (node) => {
      if (!node) return null;
      const out = { guess: node.guess };
      if (node.next) {
        out.next = {};
        for (const c in node.next) out.next[codeText(+c, length)] = relabel(node.next[c]);
      }
      return out;
    };
    return relabel(tree);
  }

  function dordleSuggest(pos) {
    const t = pos.t, n = pos.steps.length;
    const words = pos.sets.map((S, b) => (pos.solvedAt[b] ? [] : S));
    const out = (guess, source) => ({ guess, source, candidates: words, step: n });
    if (pos.solvedAt[0] && pos.solvedAt[1]) return out(null, "solved");
    if (pos.solvedAt[0] || pos.solvedAt[1]) {
      const b = pos.solvedAt[0] ? 1 : 0;
      if (pos.single !== null) return out(pos.single.guess, "tree");
      if (pos.sets[b].length === 1) return out(pos.sets[b][0], "exact");
      return { ...out(null, "off the tree"), error: "off the tree: the page follows the tree's own guesses only; wordtree next searches this exactly" };
    }
    if (pos.node !== null) return out(pos.node.guess, "tree");
    return { ...out(null, "off the tree"), error: "off the tree: the page follows the tree's own guesses only; wordtree next searches this exactly" };
  }

  let dpos = null;
  function renderDordle() {
    const a = dordleSuggest(dpos);
    $("dd-guess").textContent = a.guess ? a.guess.toUpperCase() : a.source === "solved" ? "solved" : "?";
    $("dd-guess").dataset.word = a.guess || "";
    $("dd-step").textContent = a.source === "solved" ? `Both boards solved in ${dpos.steps.length}.`
      : a.guess ? `Guess ${dpos.steps.length + 1}: play ${a.guess} (${a.source === "tree" ? "from the tree" : "the one answer left"}), then enter both boards' colours.` : a.error;
    $("dd-step").dataset.source = a.source;
    for (let b = 0; b < 2; b++) {
      const S = a.candidates[b];
      $(`dd-words${b + 1}`).textContent = dpos.solvedAt[b] ? `solved at guess ${dpos.solvedAt[b]}` : `${S.length} left: ${S.join(" ")}`;
      $(`dd-p${b + 1}`).value = dpos.solvedAt[b] ? "=".repeat(cur.length) : "";
      $(`dd-p${b + 1}`).disabled = !!dpos.solvedAt[b];
    }
    $("dd-form").hidden = a.source === "solved" || !a.guess;
    const ol = $("dd-path");
    ol.replaceChildren(...dpos.steps.map((s) => el("li", {}, el("span", { class: "word", text: s.guess }), " ", el("span", { class: "counts", text: s.key }))));
    saveHash();
  }

  function dordleEnter() {
    const a = dordleSuggest(dpos);
    if (!a.guess) return;
    const err = dordleStep(dpos, a.guess, `${$("dd-p1").value}/${$("dd-p2").value}`);
    $("dd-message").textContent = err || "";
    $("dd-message").dataset.kind = err ? "error" : "";
    if (!err) renderDordle();
  }

  // ---------------------------------------------------------------------------------------------
  // Absurdle (engine/absurdle/position.py): the user's guesses in, the adversary's replies out
  // (solver.js Absurdle, the rule the proof records), and the next guess: the proof's line while
  // the game follows one, else the search `wordtree next` runs (or its heuristic, labelled)
  // ---------------------------------------------------------------------------------------------
  function absurdlePosition(t) {
    return { t, history: [], left: t.answers.map((_, i) => i), search: null };
  }
  const absurdleWon = (pos) => pos.history.length > 0 && pos.history[pos.history.length - 1].reply === WORDLE.win(pos.t.length);

  // Play one guess (GUESS or GUESS:PATTERN); returns null, an error message, or {choices} when the
  // adversary may answer in more than one way and the reply was not given.
  function absurdleStep(pos, text) {
    const t = pos.t, n = pos.history.length + 1;
    const [word, typed] = String(text || "").split(":");
    const guess = word.trim().toLowerCase();
    const where = `guess ${n} (${guess})`;
    if (absurdleWon(pos)) return "the game is won already";
    if (!t.guessSet.has(guess)) return `${where}: "${guess}" is not an allowed guess`;
    const win = WORDLE.winCode(t.length);
    const options = pos.left.length === 1 && t.answers[pos.left[0]] === guess
      ? [{ code: win, bucket: pos.left }] : t.board.replies(guess, pos.left);
    const texts = options.map((o) => codeText(o.code, t.length));
    let chosen;
    if (typed === undefined || !typed.trim()) {
      if (options.length > 1) return { choices: texts, guess, error: `the adversary may answer ${guess} with ${texts.join(" or ")}: choose the one it gave` };
      chosen = 0;
    } else {
      const parsed = WORDLE.parse(typed.trim(), t.length);
      if (parsed.error) return `${where}: ${parsed.error}`;
      chosen = texts.indexOf(parsed.key);
      if (chosen < 0) return `Absurdle (${t.data.rule} rule) answers ${guess} with ${texts.join(" or ")}, not ${parsed.key}`;
    }
    const groups = t.board.groups(guess, pos.left);
    pos.history.push({ guess, reply: texts[chosen], groups: groups.map((g) => [codeText(g.code, t.length), g.bucket.length]),
                       before: pos.left.length });
    pos.left = options[chosen].bucket;
    pos.search = null;
    return null;
  }

  function lineDepth(node) {
    let most = 0;
    for (const k in node.next || {}) most = Math.max(most, lineDepth(node.next[k]));
    return 1 + most;
  }

  // the proof's node the game is at, or null (position.py _line_node)
  function absurdleLine(pos) {
    const lines = pos.t.data.lines;
    if (!pos.history.length) return null;
    let node = lines[pos.history[0].guess] || null;
    for (const h of pos.history) {
      if (node === null || node.guess !== h.guess) return null;
      node = (node.next || {})[h.reply] || null;
    }
    return node;
  }

  // position.py advice: {guess, winsIn, source}; source "searching" when the search is still to
  // run and `search` is false
  function absurdleAdvice(pos, search) {
    const t = pos.t, data = t.data;
    if (absurdleWon(pos)) return { guess: pos.history[pos.history.length - 1].guess, winsIn: 0, source: "won" };
    if (pos.left.length === 1) return { guess: t.answers[pos.left[0]], winsIn: 1, source: "search" };
    const openers = Object.keys(data.lines);
    if (!pos.history.length && openers.length) return { guess: openers[0], winsIn: data.fewest, source: "line" };
    const node = absurdleLine(pos);
    if (node !== null) return { guess: node.guess, winsIn: lineDepth(node), source: "line" };
    if (pos.search === null) {
      if (!search) return { guess: null, winsIn: null, source: "searching" };
      pos.search = t.board.advise(pos.left);
    }
    return pos.search;
  }

  let apos = null, achoices = null;
  function renderAbsurdle() {
    const t = cur, a = absurdleAdvice(apos, false), n = apos.history.length, left = apos.left.length;
    if (a.source === "searching") {
      $("ab-guess").textContent = "…";
      $("ab-guess").dataset.word = "";
      $("ab-source").dataset.source = "searching";
      $("ab-source").textContent = `Off the proof's lines: no stored winning line continues from here; searching the ${left} answers left exactly, as wordtree next does…`;
      setTimeout(() => { absurdleAdvice(apos, true); renderAbsurdle(); }, 20);
    } else {
      $("ab-guess").textContent = a.source === "won" ? "won" : a.guess.toUpperCase();
      $("ab-guess").dataset.word = a.source === "won" ? "" : a.guess;
      $("ab-source").dataset.source = a.source;
      $("ab-source").dataset.winsIn = a.winsIn === null ? "" : String(a.winsIn);
      const offLine = n > 0 && absurdleLine(apos) === null && a.source !== "won" && left > 1
        ? "Off the proof's lines: no stored winning line continues from here. " : "";
      const more = (k) => `${k} more guess${k === 1 ? "" : "es"}`;
      $("ab-source").textContent = a.source === "won" ? `Won in ${n} guesses (the fewest that always win: ${t.data.fewest}).`
        : a.source === "heuristic" ? `${offLine}Guess ${n + 1}: ${a.guess}, a heuristic's guess (the smallest largest group), ` +
          "as the exact search found no win within 3 more guesses; not proven best."
        : `${offLine}Guess ${n + 1}: ${a.guess} always wins in ${more(a.winsIn)}, the fewest ` +
          `(${a.source === "line" ? "from the proof's line" : "exact search"}).`;
    }
    $("ab-form").hidden = absurdleWon(apos);
    $("ab-choices").replaceChildren(...(achoices ? achoices.choices.map((c) => el("button", { type: "button", "data-reply": c,
      onclick: () => absurdleEnter(`${achoices.guess}:${c}`) }, patternView(c, achoices.guess))) : []));
    $("ab-count").textContent = `${left} answer${left === 1 ? "" : "s"} left`;
    $("ab-count").dataset.n = left;
    $("ab-words").textContent = apos.left.slice(0, 300).map((i) => t.answers[i]).join(" ") + (left > 300 ? " …" : "");
    const body = $("ab-groups").tBodies[0];
    const last = apos.history[n - 1];
    $("ab-groups-title").textContent = last ? `Groups of ${last.guess} (${last.groups.length} of the ${last.before} answers; the adversary kept ${last.reply})` : "Groups of the last guess";
    body.replaceChildren(...(last ? last.groups.slice(0, 12).map(([p, size]) => el("tr", { "data-pattern": p, class: p === last.reply ? "kept" : "" },
      el("td", {}, patternView(p, last.guess)), el("td", { class: "num", text: String(size) }), el("td", { text: p === last.reply ? "kept" : "" }))) : []));
    $("ab-path").replaceChildren(...apos.history.map((h) => el("li", {}, patternView(h.reply, h.guess), " ", el("span", { class: "counts", text: h.reply }))));
    $("ab-undo").disabled = !n;
    saveHash();
  }

  function absurdleEnter(text) {
    const typed = text !== undefined ? text : $("ab-input").value.trim() || ($("ab-guess").dataset.word || "");
    if (!typed) return;
    const err = absurdleStep(apos, typed);
    achoices = err && typeof err === "object" ? err : null;
    $("ab-message").textContent = err ? (typeof err === "string" ? err : err.error) : "";
    $("ab-message").dataset.kind = err ? "error" : "";
    if (!err) $("ab-input").value = "";
    renderAbsurdle();
  }

  function absurdleReplay(steps) {
    apos = absurdlePosition(cur);
    achoices = null;
    for (const s of steps) if (absurdleStep(apos, s)) break;
  }

  // ---------------------------------------------------------------------------------------------
  // Multi-board games (engine/multiboard/position.py): every board's colours in, each board's
  // answers left out, and the next guess: the file's opener, then the heuristic player's guess
  // (solver.js MultiPlayer, the same rules); where wordtree next searches the last boards exactly
  // the page says so and gives no guess
  // ---------------------------------------------------------------------------------------------
  function multiPosition(t) {
    const all = t.answers.map((_, i) => i);
    return { t, steps: [], sets: Array.from({ length: t.boards }, () => all), solvedAt: new Array(t.boards).fill(0) };
  }
  const multiWon = (pos) => pos.solvedAt.every((x) => x > 0);

  function multiStep(pos, guess, feedback) {
    const t = pos.t, n = pos.steps.length + 1, k = t.boards, mark = "=".repeat(t.length);
    guess = String(guess || "").trim().toLowerCase();
    const where = `step ${n} (${guess}:${String(feedback).slice(0, 200)})`;
    if (multiWon(pos)) return `${where}: the game is already won`;
    if (n > t.cap) return `${where}: the game allows only ${t.cap} guesses`;
    const texts = String(feedback).split("/");
    if (texts.length !== k) return `${where}: expected ${k} patterns, one a board, as P1/P2/.../P${k}; got ${texts.length}`;
    if (!t.guessSet.has(guess)) return `${where}: "${guess}" is not an allowed guess`;
    const keys = [];
    for (let b = 0; b < k; b++) {
      const text = texts[b].trim();
      if (pos.solvedAt[b]) {
        if (text !== mark) return `${where}: board ${b + 1} was solved at guess ${pos.solvedAt[b]}: show it as ${mark}`;
        keys.push(null);
      } else if (text.length > 0 && /^=+$/.test(text)) return `${where}: board ${b + 1} is not solved: give its colours (${mark} is for a solved board)`;
      else {
        const parsed = WORDLE.parse(text, t.length);
        if (parsed.error) return `${where}: board ${b + 1}: ${parsed.error}`;
        keys.push(parsed.key);
      }
    }
    const win = WORDLE.win(t.length);
    if (keys.filter((x) => x === win).length > 1) return `${where}: one guess cannot solve two boards: their answers differ`;
    const sets = pos.sets.map((S, b) => (keys[b] === null ? S : S.filter((a) => WORDLE.feedback(guess, t.answers[a]) === keys[b])));
    for (let b = 0; b < k; b++) if (!sets[b].length) return `${where}: board ${b + 1}: ${keys[b]} cannot occur here: no answer left on it gives it`;
    const narrowed = SOLVER.narrow(sets);
    if (narrowed === null) return `${where}: no ${k} different answers, one a board, give that feedback`;
    pos.sets = narrowed;
    keys.forEach((x, b) => { if (x === win) pos.solvedAt[b] = n; });
    pos.steps.push({ guess, key: keys.map((x) => (x === null ? mark : x)).join("/") });
    return null;
  }

  // position.py suggest: {guess, source, candidates (words a board, [] once solved), solved_at,
  // step, guesses_left, note} or {error}
  function multiSuggest(pos) {
    const t = pos.t, n = pos.steps.length, left = t.cap - n;
    const candidates = pos.sets.map((S, b) => (pos.solvedAt[b] ? [] : S.map((a) => t.answers[a])));
    const out = (guess, source, note) => ({ guess, source, candidates, solved_at: pos.solvedAt.slice(), step: n, guesses_left: left, note,
                                           heuristic: source === "heuristic" || source === "forced" || source === "table" });
    if (multiWon(pos)) return out(null, "solved", null);
    if (left < 1) return { ...out(null, "none", null), error: `no guesses left after ${n} steps: the game allows ${t.cap}` };
    const open = pos.sets.map((_, b) => b).filter((b) => !pos.solvedAt[b]);
    const sizes = open.map((b) => pos.sets[b].length), x = t.extra.exact;
    const exact = open.length <= 2 && left >= 2 && left <= x.max_cap && Math.max(...sizes) <= x.pair_limit
      && !(open.length === 1 && (sizes[0] > x.single_limit || sizes[0] === 1));
    if (exact) return { ...out(null, "exact", null), error: `${open.length} board${open.length === 1 ? "" : "s"} left: here wordtree next ` +
      "searches the boards left exactly (the Dordle engine), which this page does not; it gives no guess" };
    const slack = t.extra.guard_slack;
    if (slack !== null && slack !== undefined && (open.length <= 2 || left - open.length <= slack) && n > 0)
      return { ...out(null, "guard", null), error: `${left} guesses left for ${open.length} open board${open.length === 1 ? "" : "s"}: here ` +
        "wordtree next's player checks its guess against proofs that the game can still be finished (its endgame and guard), " +
        "which this page does not; it gives no guess" };
    const forced = open.some((b) => pos.sets[b].length === 1);
    let note = null;
    if (open.length > left) note = `${open.length} boards open and ${left} guesses left: the game cannot be won within the cap`;
    else if (!forced) note = "a heuristic's guess (fewest answers expected left over the open boards), not proven optimal";
    if (n === 0 && t.data.opener) return out(t.data.opener, "table", note); // the file's opener: the player's first guess, verified
    return out(t.player.choose(pos.sets, open, left), forced ? "forced" : "heuristic", note);
  }

  let mpos = null;
  function renderMulti() {
    const t = cur, a = multiSuggest(mpos), k = t.boards, mark = "=".repeat(t.length);
    $("mb-guess").textContent = a.guess ? a.guess.toUpperCase() : a.source === "solved" ? "solved" : "?";
    $("mb-guess").dataset.word = a.guess || "";
    $("mb-step").dataset.source = a.source;
    const why = { table: "the heuristic player's opener, stored in the file", heuristic: "the heuristic player's move",
                  forced: "a board with one answer left: the heuristic player's rule 1" };
    $("mb-step").textContent = a.source === "solved" ? `All ${k} boards solved in ${mpos.steps.length}.`
      : a.guess ? `Guess ${mpos.steps.length + 1} of ${t.cap}: ${a.guess} (${why[a.source]}), then enter every board's colours.` : a.error;
    $("mb-note").textContent = a.guess && a.note ? a.note : "";
    $("mb-form").hidden = a.source === "solved" || a.source === "none";
    $("mb-go").textContent = a.guess ? "Enter" : "Enter (type the word you played above)";
    const inputs = $("mb-inputs");
    if (inputs.children.length !== k) {
      inputs.replaceChildren(...Array.from({ length: k }, (_, b) => el("div", { class: "entry" },
        el("label", { for: `mb-p${b + 1}`, text: `Board ${b + 1}` }),
        el("input", { id: `mb-p${b + 1}`, spellcheck: "false", autocapitalize: "characters", autocomplete: "off" }))));
    }
    for (let b = 0; b < k; b++) {
      const input = $(`mb-p${b + 1}`);
      input.value = mpos.solvedAt[b] ? mark : "";
      input.disabled = !!mpos.solvedAt[b];
    }
    $("mb-boards").replaceChildren(...a.candidates.map((words, b) => el("div", { class: "board", "data-board": b + 1, "data-n": words.length },
      el("h3", { text: mpos.solvedAt[b] ? `Board ${b + 1}: solved at guess ${mpos.solvedAt[b]}` : `Board ${b + 1}: ${words.length} left` }),
      el("p", { class: "words", text: words.slice(0, 60).join(" ") + (words.length > 60 ? " …" : "") }))));
    $("mb-path").replaceChildren(...mpos.steps.map((s) => el("li", {}, el("span", { class: "word", text: s.guess }), " ", el("span", { class: "counts", text: s.key }))));
    $("mb-undo").disabled = !mpos.steps.length;
    saveHash();
  }

  function multiEnter() {
    const word = $("mb-own").value.trim().toLowerCase() || $("mb-guess").dataset.word;
    if (!word) { $("mb-message").textContent = "Type the word you played."; $("mb-message").dataset.kind = "error"; return; }
    const feedback = Array.from({ length: cur.boards }, (_, b) => $(`mb-p${b + 1}`).value).join("/");
    const err = multiStep(mpos, word, feedback);
    $("mb-message").textContent = err || "";
    $("mb-message").dataset.kind = err ? "error" : "";
    if (!err) { $("mb-own").value = ""; renderMulti(); }
  }

  function multiReplay(steps) {
    mpos = multiPosition(cur);
    for (const s of steps) if (multiStep(mpos, s.guess, s.key)) break;
  }

  // ---------------------------------------------------------------------------------------------
  // the address: #tree=NAME (or ?tree=NAME) and the position, so it can be shared or reloaded
  // ---------------------------------------------------------------------------------------------
  function saveHash() {
    if (!cur) return;
    let h = `#tree=${encodeURIComponent(cur.entry.name)}`;
    if (cur.family === "wordle" && pos) {
      // a step is its pattern where the word was the advice, else WORD:PATTERN
      const parts = pos.steps.map((st) => (st.advised ? st.key : `${st.guess}:${st.key}`));
      if (parts.length) h += `&p=${parts.map(encodeURIComponent).join(".")}`;
    } else if (cur.family === "dordle" && dpos && dpos.steps.length) {
      h += `&p=${dpos.steps.map((s) => encodeURIComponent(`${s.guess}:${s.key}`)).join(".")}`;
    } else if (cur.family === "absurdle" && apos && apos.history.length) {
      h += `&p=${apos.history.map((x) => encodeURIComponent(`${x.guess}:${x.reply}`)).join(".")}`;
    } else if (cur.family === "multiboard" && mpos && mpos.steps.length) {
      h += `&p=${mpos.steps.map((x) => encodeURIComponent(`${x.guess}:${x.key}`)).join(".")}`;
    } else if (cur.family === "hangman") {
      const p = $("hm-pattern").value, m = $("hm-missed").value;
      if (p) h += `&pattern=${encodeURIComponent(p)}`;
      if (m) h += `&missed=${encodeURIComponent(m)}`;
    }
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  function readHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    const search = new URLSearchParams(location.search.slice(1));
    return { tree: q.get("tree") || search.get("tree"), steps: q.get("p") ? q.get("p").split(".").filter(Boolean) : [],
             pattern: q.get("pattern") || "", missed: q.get("missed") || "" };
  }

  function show(family) {
    for (const id of ["play", "explore", "review"]) $(id).hidden = family !== "wordle";
    $("hangman").hidden = family !== "hangman";
    $("dordle").hidden = family !== "dordle";
    $("absurdle").hidden = family !== "absurdle";
    $("multiboard").hidden = family !== "multiboard";
  }

  async function choose(name, h) {
    const entry = INDEX.find((e) => e.name === name) || INDEX.find((e) => e.opening) || INDEX[0];
    $("tree").value = entry.name;
    say(`Loading ${entry.name}…`);
    try {
      cur = await loadTree(entry);
    } catch (err) {
      say(String(err.message || err), "error");
      return;
    }
    say("");
    show(cur.family);
    document.title = `wordtree: ${entry.name}`;
    const steps = (h && h.steps) || [];
    if (cur.family === "wordle") {
      pos = newPosition(cur);
      renderSummary();
      $("review-out").replaceChildren();
      $("review-message").textContent = "";
      for (const s of steps) {
        const i = s.indexOf(":");
        const a = suggest(pos);
        const err = i > 0 ? playStep(pos, s.slice(0, i), s.slice(i + 1)) : playStep(pos, a.guess, s);
        if (err) { render(); say(err, "error"); return; }
        pos.steps[pos.steps.length - 1].advised = i <= 0 || s.slice(0, i).toLowerCase() === a.guess;
      }
      render();
    } else if (cur.family === "hangman") {
      const g = cur.data.game;
      $("hm-title").textContent = `Hangman: ${g.word_length}-letter words, ${g.lives} lives`;
      $("hm-pattern").value = (h && h.pattern) || "_".repeat(g.word_length);
      $("hm-missed").value = (h && h.missed) || "";
      renderHangman();
    } else if (cur.family === "absurdle") {
      const g = cur.data.game, o = cur.data.openers;
      $("ab-title").textContent = `Absurdle: ${g.answers_count} answers (${g.name} lists)`;
      $("ab-rule").textContent = (cur.data.rule === "qntm"
        ? "The adversary keeps the largest group of answers after each guess; of groups as large, the one with fewest greens, then fewest yellows, then the first by its colours read left to right (grey, yellow, green): the qntm rule."
        : "The adversary keeps the largest group of answers after each guess, any of them where several are as large (the proof holds for every tie-break): you give the reply it chose.")
        + ` The fewest guesses that always win: ${cur.data.fewest} (proven); ${o.winning} opener${o.winning === 1 ? "" : "s"} of the ` +
        `${o.complete ? o.of : `${o.searched} searched of ${o.of}`} win${o.winning === 1 ? "s" : ""} in ${cur.data.fewest}, each with its line in the proof.`;
      $("ab-message").textContent = "";
      absurdleReplay(steps);
      renderAbsurdle();
    } else if (cur.family === "multiboard") {
      const g = cur.data.game, r = cur.data.results;
      $("mb-title").textContent = `${g.preset[0].toUpperCase()}${g.preset.slice(1)}: ${g.boards} boards, at most ${g.max_guesses} guesses`;
      $("mb-figures").textContent = `${cur.data.label}: mean ${r.mean} guesses` + (r.ci95 ? ` (95 % interval ${r.ci95[0]} to ${r.ci95[1]})` : "") +
        `, ${r.won} of ${r.games} games won within the cap; any strategy needs at least ${cur.data.lower_bound.mean} on average (proven bound).`;
      $("mb-inputs").replaceChildren();
      $("mb-message").textContent = "";
      mpos = multiPosition(cur);
      for (const s of steps) {
        const i = s.indexOf(":");
        const err = multiStep(mpos, s.slice(0, i), s.slice(i + 1));
        if (err) { $("mb-message").textContent = err; break; }
      }
      renderMulti();
    } else {
      dpos = dordlePosition(cur);
      $("dd-title").textContent = `Dordle: ${cur.data.game.answers_count} answers, at most ${cur.cap} guesses`;
      for (const s of steps) {
        const i = s.indexOf(":");
        const err = dordleStep(dpos, s.slice(0, i), s.slice(i + 1));
        if (err) { $("dd-message").textContent = err; break; }
      }
      renderDordle();
    }
  }

  const FAMILY_NAMES = { wordle: "Wordle, Mastermind, Bulls and Cows", hangman: "Hangman", dordle: "Dordle",
                        absurdle: "Absurdle", multiboard: "Quordle, Octordle and more (heuristic player)" };

  function start() {
    if (!INDEX.length) { say("This site has no trees.", "error"); return; }
    const sel = $("tree");
    const groups = {};
    for (const e of INDEX) {
      const family = e.family || "wordle";
      if (!groups[family]) sel.append((groups[family] = el("optgroup", { label: FAMILY_NAMES[family] || family })));
      const g = e.game || {};
      const what = family === "hangman" ? [`${g.word_length} letters`, `${g.lives} lives`]
        : family === "dordle" ? ["dordle", e.first]
        : family === "absurdle" ? ["absurdle", `${e.rule} rule`, `wins in ${e.stats.fewest}`, e.first]
        : family === "multiboard" ? [g.preset, `${e.boards} boards`, "heuristic", e.first] : [g.name, g.mode, e.first];
      const count = family === "hangman" ? g.words_count : g.answers_count;
      const label = what.filter(Boolean).join(" · ") + (count ? ` (${count} ${family === "hangman" ? "words" : "answers"})` : "");
      groups[family].append(el("option", { value: e.name, text: `${e.name}: ${label}${e.opening ? " — today's Wordle" : ""}` }));
    }
    sel.addEventListener("change", () => choose(sel.value, null).then(() => { if (cur.family === "wordle") $("pattern").focus(); }));
    $("feedback").addEventListener("submit", (ev) => { ev.preventDefault(); submit(); });
    $("pattern").addEventListener("input", onPatternInput);
    $("own").addEventListener("input", () => { tiles = Array(cur.length).fill("B"); renderGuess(); });
    $("undo").addEventListener("click", undo);
    $("restart").addEventListener("click", restart);
    $("review-form").addEventListener("submit", (ev) => { ev.preventDefault(); renderReview(); });
    $("hm-form").addEventListener("submit", (ev) => { ev.preventDefault(); renderHangman(); saveHash(); });
    $("dd-form").addEventListener("submit", (ev) => { ev.preventDefault(); dordleEnter(); });
    $("dd-restart").addEventListener("click", () => { dpos = dordlePosition(cur); $("dd-message").textContent = ""; renderDordle(); });
    $("ab-form").addEventListener("submit", (ev) => { ev.preventDefault(); absurdleEnter(); });
    $("ab-restart").addEventListener("click", () => { absurdleReplay([]); $("ab-message").textContent = ""; renderAbsurdle(); });
    $("ab-undo").addEventListener("click", () => {
      absurdleReplay(apos.history.slice(0, -1).map((x) => `${x.guess}:${x.reply}`));
      $("ab-message").textContent = "";
      renderAbsurdle();
    });
    $("mb-form").addEventListener("submit", (ev) => { ev.preventDefault(); multiEnter(); });
    $("mb-restart").addEventListener("click", () => { multiReplay([]); $("mb-message").textContent = ""; renderMulti(); });
    $("mb-undo").addEventListener("click", () => { multiReplay(mpos.steps.slice(0, -1)); $("mb-message").textContent = ""; renderMulti(); });
    $("dd-undo").addEventListener("click", () => {
      const steps = dpos.steps.slice(0, -1);
      dpos = dordlePosition(cur);
      for (const s of steps) dordleStep(dpos, s.guess, s.key);
      $("dd-message").textContent = "";
      renderDordle();
    });
    const h = readHash();
    choose(h.tree, h).then(() => {
      if (cur && cur.family === "wordle" && !pos.solved) $("pattern").focus();
      document.body.dataset.ready = "1";
      document.body.dataset.readyMs = String(Math.round(performance.now()));
    });
  }

  start();
})();
