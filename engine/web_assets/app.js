/* wordtree web player: walks a wordtree/1 decision tree, one feedback at a time.
 *
 * A tree node is {guess, next: {PATTERN: node}}; the win pattern is never in `next`.
 * Which answers are still possible at a node: an answer is the guess of the one node where it
 * wins. A node's guess wins there exactly when it is one of the game's answers (the site ships the
 * list beside the tree) and it fits every (guess, pattern) on the path from the root, which the
 * page checks with the game's own feedback rule, once, when the tree loads. A node with no `next`
 * always wins: its guess is the last answer left. (Without the list, every guess that fits counts
 * as an answer, which overcounts where a probe word happens to fit; the check below shows it.) The answers
 * possible at a node are then the winning guesses in its subtree: mark() stores their count (`n`),
 * the most guesses still needed (`d`) and the win flag (`w`) on each node, and answersBelow()
 * lists them. As a check, the root's count must equal the game's answer count and the guesses
 * summed over the answers must equal stats.total; the explorer reports any difference.
 */
"use strict";

(function () {
  const LIST_LIMIT = 30; // list the possible answers when at most this many remain
  const BRANCH_ROWS = 24; // branches shown before "show all" (a long table is slow to lay out)
  const INDEX = window.WORDTREE_INDEX || [];
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

  // ---------------------------------------------------------------------------------------------
  // games: how feedback is computed, read, written and entered
  // ---------------------------------------------------------------------------------------------
  const COLOURS = "BYG";
  const COLOUR_NAMES = { B: "grey", Y: "yellow", G: "green" };
  const COLOUR_KEYS = { b: "B", y: "Y", g: "G", 0: "B", 1: "Y", 2: "G" };

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
    parse(text, length) {
      if (text.length === length && /^[BYG]+$/.test(text)) return { key: text }; // the tree's own keys
      const chars = [...text.replace(/[\s\uFE0F]/g, "")];
      const out = [];
      for (const ch of chars) {
        const c = COLOUR_KEYS[ch.toLowerCase()] || { "\u2B1B": "B", "\u2B1C": "B", "\u{1F7E8}": "Y", "\u{1F7E6}": "Y", "\u{1F7E9}": "G", "\u{1F7E7}": "G" }[ch];
        if (!c) return { error: `"${ch}" is not a colour: use B (grey), Y (yellow) or G (green)` };
        out.push(c);
      }
      if (out.length !== length) return { error: `the pattern needs ${length} colours, one per letter; got ${out.length}` };
      return { key: out.join("") };
    },
    win: (length) => "G".repeat(length),
  };

  function countsGame(kind, a, b, aName, bName, label, scoreOf) {
    // Mastermind (2B1W) and Bulls and Cows (1A2B): a pair of counts.
    const re = new RegExp(`^(?:(\\d+)\\s*${a})?\\s*(?:(\\d+)\\s*${b})?$`, "i");
    return {
      kind, label, aName, bName, a, b,
      feedback(guess, answer) {
        const [x, y] = scoreOf(guess, answer);
        return `${x}${a}${y}${b}`;
      },
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
  const MASTERMIND = countsGame("mastermind", "B", "W", "black", "white", "Pegs (like 2B1W)", exactAndCommon);
  const BULLS = countsGame("bulls-cows", "A", "B", "bulls (A)", "cows (B)", "Counts (like 1A2B)", exactAndCommon);

  // The feedback rules, for the tests and the browser console.
  window.wordtreeGames = { wordle: WORDLE, mastermind: MASTERMIND, "bulls-cows": BULLS };

  function gameOf(entry) {
    const name = String(entry.game.name || "").toLowerCase();
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
    // here), n (answers possible here), d (most guesses still needed, this one included) and
    // keys (canonical pattern -> key in next); returns totals for the check and any problems.
    // A node with no `next` wins without a check: its guess is the last answer left (checking
    // every answer's path is `wordtree verify`'s job; the totals below catch a miscount).
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
      node.n = node.d = wins ? 1 : 0;
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

  // ---------------------------------------------------------------------------------------------
  // state
  // ---------------------------------------------------------------------------------------------
  const loaded = {}; // name -> {entry, root, game, check}
  const waiting = {}; // name -> resolve
  let cur = null; // the loaded tree in use
  let steps = []; // [{node, key}] the path so far
  let node = null; // the current node
  let solved = false;
  let tiles = []; // wordle: the colour of each tile
  let showAllBranches = false;

  window.wordtreeLoaded = function (name, data, answers) {
    if (waiting[name]) waiting[name](data, answers);
  };

  function loadTree(entry) {
    if (loaded[entry.name]) return Promise.resolve(loaded[entry.name]);
    return new Promise((resolve, reject) => {
      waiting[entry.name] = (data, answers) => {
        delete waiting[entry.name];
        const game = gameOf(entry);
        const check = mark(data.root, game, answers ? new Set(answers) : null);
        loaded[entry.name] = { entry, data, root: data.root, game, check };
        resolve(loaded[entry.name]);
      };
      const s = el("script", { src: `trees/${encodeURIComponent(entry.name)}.js` });
      s.onerror = () => reject(new Error(`cannot load trees/${entry.name}.js`));
      document.body.append(s);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // rendering
  // ---------------------------------------------------------------------------------------------
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

  function renderGuess() {
    const box = $("guess");
    box.replaceChildren();
    box.dataset.word = node ? node.guess : "";
    if (!node) return;
    const word = node.guess;
    if (cur.game.kind === "wordle") {
      tiles = Array(word.length).fill("B");
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
    $("guess").querySelectorAll(".tile").forEach((b, i) => {
      b.className = `tile ${tiles[i]}`;
      b.setAttribute("aria-label", `${node.guess[i].toUpperCase()}: ${COLOUR_NAMES[tiles[i]]} (B, Y, G or click to change)`);
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
    if (game.kind === "wordle") {
      $("pattern").placeholder = "BYGBB".padEnd(node ? node.guess.length : 5, "B").slice(0, node ? node.guess.length : 5);
      $("hint").textContent = "Click a tile (or focus it and press B, Y or G) to set its colour, or type the pattern; then Enter.";
      return;
    }
    const length = node ? node.guess.length : 4;
    $("pattern").placeholder = `1${game.a}2${game.b}`;
    for (const [id, name] of [["count-a", game.aName], ["count-b", game.bName]]) {
      const input = el("input", { id, type: "number", min: "0", max: String(length), value: "0", inputmode: "numeric" });
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
    if (!node) return;
    if (cur.game.kind === "wordle") {
      const chars = [...text.replace(/[\s\uFE0F]/g, "")];
      chars.slice(0, tiles.length).forEach((ch, i) => {
        const c = COLOUR_KEYS[ch.toLowerCase()];
        if (c) tiles[i] = c;
      });
      paintTiles();
    } else {
      const parsed = cur.game.parse(text, node.guess.length);
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
    if (!node) return;
    const n = node.n;
    box.append(el("p", { id: "count", "data-n": n, text: `${n} answer${n === 1 ? "" : "s"} still possible` }));
    const here = node;
    const list = () => el("p", { id: "answers", class: "words", text: answersBelow(here, []).sort().join(" ") });
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
    steps.forEach((s) => {
      ol.append(pathItem(s.node.guess, s.key, ""));
    });
    if (solved) ol.append(pathItem(node.guess, cur.game.win(node.guess.length), "won"));
    $("undo").disabled = !steps.length && !solved;
  }

  function renderStep() {
    const form = $("feedback");
    const n = steps.length + 1;
    if (solved) {
      $("step").textContent = "";
      form.hidden = true;
      say(`Solved in ${n}: the answer is ${node.guess}.`, "solved");
    } else {
      form.hidden = false;
      $("step").textContent = `Guess ${n}: play ${node.guess}, then enter the feedback.`;
    }
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
    if (!node || solved) { $("branches-title").textContent = "Branches here"; return; }
    const rows = [];
    for (const [key, k] of node.keys) rows.push({ key, child: node.next[k] });
    rows.sort((a, b) => b.child.n - a.child.n || (a.key < b.key ? -1 : 1));
    if (node.w) rows.unshift({ key: cur.game.win(node.guess.length), child: null });
    $("branches-title").textContent = `Branches after ${node.guess} (${rows.length})`;
    const frag = document.createDocumentFragment();
    const shown = showAllBranches ? rows : rows.slice(0, BRANCH_ROWS);
    for (const r of shown) {
      const go = el("button", { type: "button", class: "go", title: `enter ${r.key}` }, patternView(r.key, node.guess));
      go.addEventListener("click", () => enter(r.key));
      frag.append(el("tr", { "data-key": r.key },
        el("td", {}, go),
        el("td", { class: "num", text: String(r.child ? r.child.n : 1) }),
        el("td", { class: "word", text: r.child ? r.child.guess : "solved" }),
        el("td", { class: "num", text: r.child ? String(steps.length + 1 + r.child.d) : String(steps.length + 1) })));
    }
    if (shown.length < rows.length) {
      const more = el("button", { type: "button", id: "more-branches", text: `Show all ${rows.length} branches` });
      more.addEventListener("click", () => { showAllBranches = true; renderBranches(); });
      frag.append(el("tr", {}, el("td", { colspan: "4" }, more)));
    }
    body.append(frag);
  }

  function render() {
    showAllBranches = false;
    renderGuess();
    renderControls();
    renderStep();
    renderCandidates();
    renderPath();
    renderBranches();
    saveHash();
  }

  // ---------------------------------------------------------------------------------------------
  // actions
  // ---------------------------------------------------------------------------------------------
  function enter(text) {
    // Apply one feedback; returns false (with a message) when the tree cannot meet it.
    if (!node || solved) return false;
    const game = cur.game;
    const parsed = game.parse(text, node.guess.length);
    if (parsed.error) { say(`Not a pattern: ${parsed.error}.`, "error"); return false; }
    if (parsed.key === game.win(node.guess.length)) {
      if (!node.w) { say(`${node.guess} cannot be the answer here: no answer left fits the feedback so far.`, "error"); return false; }
      solved = true;
    } else if (node.keys.has(parsed.key)) {
      steps.push({ node, key: parsed.key });
      node = node.next[node.keys.get(parsed.key)];
    } else {
      const none = node.n === 1 && node.w ? ` Only ${node.guess} is left, so it can only be all correct.` : "";
      say(`No answer still possible gives ${parsed.key} to ${node.guess}: check the feedback.${none}`, "error");
      return false;
    }
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
      if (solved) $("undo").focus();
      else if (fromTile) { const t = $("guess").querySelector(".tile"); if (t) t.focus(); }
      else $("pattern").focus();
    }
  }

  function undo() {
    if (solved) solved = false;
    else if (steps.length) node = steps.pop().node;
    else return;
    say("");
    render();
    $("pattern").focus();
  }

  function restart() {
    steps = [];
    solved = false;
    node = cur ? cur.root : null;
    say("");
    render();
    $("pattern").focus();
  }

  // The position is kept in the address (#tree=NAME&p=PATTERN.PATTERN) so it can be shared or reloaded.
  function saveHash() {
    if (!cur) return;
    const ps = steps.map((s) => s.key).concat(solved ? [cur.game.win(node.guess.length)] : []);
    const h = `#tree=${encodeURIComponent(cur.entry.name)}` + (ps.length ? `&p=${ps.map(encodeURIComponent).join(".")}` : "");
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  function readHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    return { tree: q.get("tree"), patterns: q.get("p") ? q.get("p").split(".").filter(Boolean) : [] };
  }

  async function choose(name, patterns) {
    const entry = INDEX.find((e) => e.name === name) || INDEX[0];
    $("tree").value = entry.name;
    say(`Loading ${entry.name}…`);
    try {
      cur = await loadTree(entry);
    } catch (err) {
      say(String(err.message || err), "error");
      return;
    }
    steps = [];
    solved = false;
    node = cur.root;
    say("");
    renderSummary();
    render();
    for (const p of patterns || []) if (!enter(p)) break;
  }

  function start() {
    if (!INDEX.length) { say("This site has no trees.", "error"); return; }
    const sel = $("tree");
    for (const e of INDEX) {
      const g = e.game || {};
      const label = [g.name, g.mode, e.first].filter(Boolean).join(" · ") + (g.answers_count ? ` (${g.answers_count} answers)` : "");
      sel.append(el("option", { value: e.name, text: `${e.name}: ${label}` }));
    }
    sel.addEventListener("change", () => choose(sel.value, []).then(() => $("pattern").focus()));
    $("feedback").addEventListener("submit", (ev) => { ev.preventDefault(); submit(); });
    $("pattern").addEventListener("input", onPatternInput);
    $("undo").addEventListener("click", undo);
    $("restart").addEventListener("click", restart);
    const h = readHash();
    choose(h.tree, h.patterns).then(() => {
      if (!solved) $("pattern").focus();
      document.body.dataset.ready = "1";
      document.body.dataset.readyMs = String(Math.round(performance.now()));
    });
  }

  start();
})();
