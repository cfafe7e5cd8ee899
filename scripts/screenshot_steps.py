#!/usr/bin/env python3
"""Screenshots of ``satdoku explain --format html``'s page in a real browser (headless
Chromium), to see that the page steps through the path as a person sees it.

    python scripts/screenshot_steps.py PUZZLE [--steps 1,last] [--out DIR]

PUZZLE is anything ``satdoku explain`` reads (a puzzle line, a file of one puzzle, a variant
JSON). The page is written by the command itself (``DIR/page.html``); each step K is opened as
``page.html#step=K`` (the page honours the fragment) and screenshotted to ``DIR/step-K.png``
(``last`` is the path's last step, read from the page's JSON). The same browser run dumps
the page as its script left it, which is checked against the page's JSON for that step: the
counter, each cell's colour (placed, struck, rests on), which digits and pencil marks show.
Each PNG is read back (a small PNG decoder below: no PIL needed). One JSON line a screenshot
says its size, how many colours it holds and what the check of the page found.

Chromium is Debian's (``apt install chromium``; ``--chromium PATH`` for another). Exit 1 when
a screenshot is missing or blank (a single colour) or the page does not show its step.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path



def find_chromium(path: str | None = None) -> str | None:
    """The Chromium binary: ``path``, else the first of Debian's names on PATH."""
    if path:
        return path
    for name in ("chromium", "chromium-browser", "google-chrome", "headless_shell"):
        found = shutil.which(name)
        if found:
            return found
    return None


def page_data(page: Path) -> dict:
    """The path data the page embeds (:func:`satdoku.output.html.page_data`)."""
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="path-data">(.*?)</script>',
                      text, re.S)
    if not found:
        raise SystemExit(f"{page}: no path data (not a page of explain --format html?)")
    return json.loads(found.group(1))


def screenshot(chromium: str, page: Path, step: int, png: Path, size: str) -> str:
    """Open ``page#step=STEP`` in headless Chromium, save a PNG of the window, and return
    the page as its script left it (the DOM)."""
    width, height = size.split("x")
    args = [chromium, "--headless", "--disable-gpu", "--hide-scrollbars",
            "--force-color-profile=srgb", "--no-first-run", f"--window-size={width},{height}",
            f"--screenshot={png}", "--dump-dom", f"{page.resolve().as_uri()}#step={step}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.insert(1, "--no-sandbox")  # Chromium refuses root without it
    if png.exists():
        png.unlink()
    return subprocess.run(args, check=False, capture_output=True, text=True,
                          timeout=120).stdout


class _Elements(HTMLParser):
    """The attributes of every element with an id, and the text of a few."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[str, dict[str, str]] = {}
        self.text: dict[str, str] = {}
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if "id" in named:
            self.attrs[named["id"]] = {k: v or "" for k, v in named.items()}
            self._in = named["id"]

    def handle_data(self, data):
        if self._in is not None:
            self.text[self._in] = self.text.get(self._in, "") + data

    def handle_endtag(self, tag):
        self._in = None


def check_dom(dom: str, data: dict, step: int) -> list[str]:
    """What the page as the browser shows it gets wrong about step ``step`` of ``data``."""
    seen = _Elements()
    seen.feed(dom)
    count = len(data["steps"])
    entry = data["steps"][step - 1] if step <= count else None
    problems = []
    counter = seen.text.get("counter", "").strip()
    expected = f"step {step} of {count}" if entry else "the end"
    if counter != expected:
        problems.append(f"the counter says {counter!r}, not {expected!r}")
    fills = {}
    if entry:
        fills.update({c: "cited" for c in entry["cited"]})
        fills.update({c: "striking" for c, _ in entry["struck"]})
        fills.update({c: "placing" for c, _ in entry["placed"]})
    board = entry["cells"] if entry else data["end"]

    def shown(key: str) -> bool:
        return "display: none" not in seen.attrs.get(key, {}).get("style", "")
    for c, value in enumerate(board):
        colour = seen.attrs.get(f"f{c}", {}).get("class", "").split()[1:]
        if colour != ([fills[c]] if c in fills else []):
            problems.append(f"cell {c} is coloured {colour}, not {fills.get(c)}")
        digit = seen.attrs.get(f"d{c}", {})
        if "solved" in digit.get("class", "") and shown(f"d{c}") != isinstance(value, int):
            problems.append(f"cell {c}: its digit {'shows' if shown(f'd{c}') else 'hides'}")
        for d in range(1, data["size"] + 1):
            key = f"m{c}-{d}"
            if key in seen.attrs and shown(key) != (isinstance(value, list) and d in value):
                problems.append(f"cell {c}: the pencil mark {d} "
                                f"{'shows' if shown(key) else 'hides'}")
    return problems[:10]


def png_pixels(path: Path) -> tuple[int, int, list[tuple[int, ...]]]:
    """(width, height, pixels) of an 8-bit RGB or RGBA PNG (what Chromium writes), pixels as
    (r, g, b) row by row."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, head = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB(A), non-interlaced PNGs are read here")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    pixels = []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels.extend(tuple(line[x * bpp:x * bpp + 3]) for x in range(width))
        prev = line
    return width, height, pixels


def describe(png: Path) -> dict:
    """A screenshot's size, how many colours it holds (one: blank) and a digest of its
    pixels (two steps that look alike have one)."""
    import hashlib
    width, height, pixels = png_pixels(png)
    digest = hashlib.sha256(bytes(v for pixel in pixels for v in pixel)).hexdigest()[:16]
    return {"png": str(png), "width": width, "height": height, "bytes": png.stat().st_size,
            "colours": len(set(pixels)), "pixels": digest}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle", help="a puzzle line or file, as satdoku explain reads it")
    parser.add_argument("--steps", default="1,last",
                        help="steps to screenshot, comma-separated ('last': the last step)")
    parser.add_argument("--out", default="screenshots", help="folder for page.html and PNGs")
    parser.add_argument("--size", default="1100x620", help="window WIDTHxHEIGHT in pixels")
    parser.add_argument("--chromium", help="the Chromium binary (default: found on PATH)")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("no chromium on PATH (apt install chromium)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "page.html"
    made = subprocess.run([sys.executable, "-m", "satdoku", "explain", "--format", "html",
                           args.puzzle, "-o", str(page), "--force"], capture_output=True,
                          text=True)
    if made.returncode != 0 or not page.exists():
        print(f"satdoku explain failed: {made.stderr.strip()}", file=sys.stderr)
        return 1
    data = page_data(page)
    failed = False
    for word in args.steps.split(","):
        step = len(data["steps"]) if word.strip() == "last" else int(word)
        png = out / f"step-{step}.png"
        dom = screenshot(chromium, page, step, png, args.size)
        if not png.exists():
            print(f"step {step}: no screenshot", file=sys.stderr)
            failed = True
            continue
        info = {"step": step, **describe(png), "problems": check_dom(dom, data, step)}
        failed |= info["colours"] < 2 or bool(info["problems"])
        print(json.dumps(info))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
