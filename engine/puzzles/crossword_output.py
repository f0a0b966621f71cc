"""Crossword outputs: the quality figures, the text rendering, the JSON document and the PNG
picture (written atomically, see files.atomic_file)."""

from __future__ import annotations

import os

import orjson

from .. import ENGINE
from ..errors import UserError
from ..files import atomic_file
from ..numba_cache import compile_note
from ..text import percent
from .crossword_fill import FillResult
from .crossword_grid import BLOCK, EMPTY, Slot, filled_rows
from .crossword_index import COMMON_TOP, WordIndex


def quality(slots: list[Slot], words: dict[int, str], index: WordIndex) -> dict:
    """Share of the filled entries among the common words, and their mean score."""
    rank = _word_ranks(index, {w for w in words.values()})
    filled = [w for k, w in words.items() if k < len(slots)]
    common = sum(1 for w in filled if w in rank and rank[w][0] < index.n_common[len(w)])
    total = sum(rank[w][1] if w in rank else 0.0 for w in filled)
    return {
        "entries": len(slots),
        "filled_entries": len(filled),
        "common_entries": common,
        "common_share": round(common / len(filled), 4) if filled else 0.0,
        "mean_score": round(total / len(filled), 2) if filled else 0.0,
        "common_means": f"among the {COMMON_TOP:,} best-scored words of {index.scores_info['file']}",
    }


def _word_ranks(index: WordIndex, words: set[str]) -> dict[str, tuple[int, float]]:
    """word -> (position in its length's list, score), for the given words that are listed."""
    ranks = {w: index.rank(w) for w in words}
    return {w: (i, float(index.scores[len(w)][i])) for w, i in ranks.items() if i is not None}



def entries(slots: list[Slot], words: dict[int, str], direction: str) -> list[dict]:
    return [{"number": s.number, "row": s.row + 1, "col": s.col + 1, "length": s.length, "word": words.get(k)}
            for k, s in enumerate(slots) if s.direction == direction]


SUMMARY = {
    "filled": "filled",
    "impossible": "proven impossible",
    "timeout": "gave up at the timeout (best partial fill shown)",
}


def to_json(rows, slots, result: FillResult, index: WordIndex, seed: int, timeout: float) -> dict:
    ranks = _word_ranks(index, set(result.words.values()))
    listed = {}
    for direction in ("across", "down"):
        listed[direction] = entries(slots, result.words, direction)
        for e in listed[direction]:
            if e["word"]:
                rank = ranks.get(e["word"])
                e["common"] = rank is not None and rank[0] < index.n_common[len(e["word"])]
                e["score"] = round(rank[1], 2) if rank else 0.0
    return {
        "status": result.status,
        "reason": result.reason or None,
        "grid": filled_rows(rows, slots, result.words),
        "across": listed["across"],
        "down": listed["down"],
        "quality": {**quality(slots, result.words, index), "fewest_rare_proven": result.optimal},
        "seconds": round(result.seconds, 4),
        "first_fill_seconds": None if result.first_fill_seconds is None else round(result.first_fill_seconds, 4),
        "improvements": [{"seconds": round(t, 3), "common_entries": n, "by": how} for t, n, how in result.history],
        "seed": seed,
        "timeout": timeout,
        "nodes": result.nodes,
        "restarts": result.restarts,
        "words": {k: v for k, v in index.words_info.items() if k != "path"},
        "scores": {k: v for k, v in index.scores_info.items() if k != "path"},
        "sources": index.sources(),
        "engine": ENGINE,
    }


def render_text(rows, slots, result: FillResult, index: WordIndex) -> str:
    q = quality(slots, result.words, index)
    lines = [f"{SUMMARY[result.status]} in {result.seconds:.2f} s{compile_note(result.compile_seconds)}"
             + (f": {result.reason}" if result.reason else "")]
    if q["filled_entries"]:
        common = percent(q['common_entries'], q['filled_entries'], 1)
        lines.append(f"{q['common_entries']} of {q['filled_entries']} entries common ({common}, "
                     f"{q['common_means']}), mean score {q['mean_score']:.1f}"
                     + (", fewest rare entries proven" if result.optimal and result.status == "filled" else ""))
    lines.append("")
    for row in filled_rows(rows, slots, result.words):
        lines.append(" ".join("█" if ch == BLOCK else "·" if ch == EMPTY else ch.upper() for ch in row))
    for direction in ("across", "down"):
        lines.append("")
        lines.append(direction.capitalize())
        for e in entries(slots, result.words, direction):
            lines.append(f"{e['number']:>4} {(e['word'] or '·' * e['length']).upper()}")
    if index.sources():
        lines.append("")
        lines.extend(index.sources())
    return "\n".join(lines)


def write_png(path: str | os.PathLike, rows, slots, words: dict[int, str], cell: int = 40) -> None:
    """A printed-crossword picture: black blocks, small numbers, capital letters."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UserError("writing a PNG needs Pillow, which wordtree depends on but is missing here: "
                        "pip install pillow") from None
    grid = filled_rows(rows, slots, words)
    margin = cell // 2
    height, width = len(grid), len(grid[0])
    image = Image.new("RGB", (width * cell + 2 * margin, height * cell + 2 * margin), "white")
    draw = ImageDraw.Draw(image)
    number_font = _font(ImageFont, cell // 4)
    letter_font = _font(ImageFont, cell * 3 // 5)
    numbers = {(s.row, s.col): s.number for s in slots}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            x, y = margin + c * cell, margin + r * cell
            box = (x, y, x + cell, y + cell)
            draw.rectangle(box, fill="black" if ch == BLOCK else "white", outline="black", width=1)
            if (r, c) in numbers:
                draw.text((x + 2, y + 1), str(numbers[(r, c)]), fill="black", font=number_font)
            if ch not in (BLOCK, EMPTY):
                draw.text((x + cell / 2, y + cell * 0.58), ch.upper(), fill="black", font=letter_font, anchor="mm")
    draw.rectangle((margin, margin, margin + width * cell, margin + height * cell), outline="black", width=2)
    _write(path, lambda f: image.save(f, format="PNG"))


def _font(ImageFont, size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1 has one bitmap size
        return ImageFont.load_default()


def write_json(path: str | os.PathLike, document: dict) -> None:
    _write(path, lambda f: f.write(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"))


def _write(path, write) -> None:
    """`write(f)` to `path` atomically (files.atomic_file); an unwritable place is a UserError."""
    try:
        with atomic_file(path) as f:
            write(f)
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror or exc})") from None
