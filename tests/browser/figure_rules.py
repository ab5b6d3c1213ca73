"""The book's figure rules (issue 24, "How it is checked"), measured in Chromium and judged here.

``MEASURE`` runs once per opened page (one ``page.evaluate``) and returns every number the rules
need: for each chart box its two drawings (viewBox, ``<title>``/``<desc>``, text sizes in SVG
units) and, for the drawing on screen, the boxes of its texts and marks in CSS px; for each
mermaid figure its node boxes, node text sizes and where each label's rendered lines break.

The checks are plain functions from that measurement to a list of faults (empty: the rule holds),
so the planted-overlap control page runs exactly the code the real pages run.

Geometry notes (why the numbers are what they are):

- A text's box is its em box: the advance width, and one em per line centred in the font's line
  box. ``getBoundingClientRect`` on ``<text>`` gives the font's whole ascent + descent (1.16 em
  for DejaVu Sans, 1.45 em for Noto Sans CJK), so two lines set 1.2 em apart would "touch".
- Two boxes overlap when they share more than ``TOLERANCE`` px in both directions.
- A text's own mark: one that holds the text whole (a value inside its bar, a legend's frame),
  one in the same named group, or one whose group name ends in the same series and position
  numbers (``value_0_2`` and ``bar_0_2``). Every other bar, point or line must keep clear.
- A line mark is sampled every 2 px along its path, so a diagonal line is not its bounding box.
- Breaks in labels: allowed at a space, after ``,``, ``/`` (and CJK ``、，；：``), on either
  side of ``_``, ``·`` and of the "…" of a shortened name, between two text nodes (items the
  diagram set apart), and between two Han ideographs (Chinese breaks between characters). A
  break between two Hangul syllables or two Latin letters or digits (``씌 / 우지``, ``L0 / 4``)
  is inside a word.
"""

from __future__ import annotations

import html as html_lib
import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

TOLERANCE = 1.0  # CSS px
WIDE_VIEWBOXES = ("0 0 760 430", "0 0 920 430")
NARROW_WIDTH = 360.0
WIDE_MIN_LABEL = 14.0  # SVG units
WIDE_MIN_TITLE = 18.0
NARROW_MIN_TEXT = 12.0
PHONE_MIN_PX = 11.0  # CSS px at 375
MERMAID_MIN_PX = {1280: 14.0, 375: 11.0}
MERMAID_MAX_SIDE_BY_SIDE = 3
MIN_FILL_CONTRAST = 3.0
TITLE_INSET = 18.0  # SVG units from the left edge

# ------------------------------------------------------------------------------------------------
# The measurement (one page.evaluate per page)

MEASURE = r"""
() => {
  const R = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
  const bgOf = (el) => {
    const out = [];
    for (let e = el; e; e = e.parentElement) out.push(getComputedStyle(e).backgroundColor);
    return out;
  };
  const column = document.querySelector("article.md-content__inner")
    || document.querySelector("article") || document.body;
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      o *= parseFloat(getComputedStyle(e).opacity);
    }
    return o;
  };
  // The name of the element's part: its own id or its nearest named ancestor's, inside the
  // drawing, without the drawing's prefix ("sa0d37…-value_0_1" -> "value_0_1").
  const groupId = (el) => {
    const g = el.closest("[id]");
    return g && g.ownerSVGElement ? g.id.replace(/^[^-]*-/, "") : "";
  };
  // A text's own words: not those of a <title> tooltip inside it.
  const ownText = (t) => {
    let out = "";
    const walker = document.createTreeWalker(t, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement.closest("title, desc")) out += n.textContent;
    }
    return out;
  };
  // The transform from an element to its <svg>'s user space, read from the markup (so it works
  // in a drawing that is display:none, which has no layout).
  const unitMatrix = (el, svg) => {
    let m = new DOMMatrix();
    for (let e = el; e && e !== svg; e = e.parentElement) {
      const list = e.transform && e.transform.baseVal;
      const t = list && list.numberOfItems ? list.consolidate() : null;
      if (t) m = DOMMatrix.fromMatrix(t.matrix).multiply(m);
    }
    return m;
  };
  const scaleOf = (m) => Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  const screenBox = (el, box) => {
    const m = el.getScreenCTM();
    const pts = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
                 [box.x + box.width, box.y + box.height]].map(([x, y]) => new DOMPoint(x, y)
                 .matrixTransform(m));
    const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
    return { l: Math.min(...xs), t: Math.min(...ys), r: Math.max(...xs), b: Math.max(...ys) };
  };
  const runs = (t) => [t, ...t.querySelectorAll("tspan")].filter(
    (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()));
  const scrollers = (el, stop) => {
    const found = [];
    for (let e = el; e && e !== stop.parentElement; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1
          && ["auto", "scroll"].includes(getComputedStyle(e).overflowX)) {
        const cls = typeof e.className === "string" ? e.className : "";
        found.push({ tag: e.tagName.toLowerCase(), cls, scroll: e.scrollWidth,
                     client: e.clientWidth });
      }
    }
    return found;
  };
  // A pattern fill (a hatched bar): its face, the rect that fills the tile, else its ink.
  const colorsOfPattern = (svg, fill) => {
    const m = /url\(["']?#([^"')]+)["']?\)/.exec(fill);
    if (!m) return null;
    const p = svg.querySelector("#" + CSS.escape(m[1]));
    if (!p) return [];
    const face = [...p.children].find((e) => e.tagName.toLowerCase() === "rect");
    if (face && getComputedStyle(face).fill !== "none") return [getComputedStyle(face).fill];
    const colors = [];
    for (const e of p.querySelectorAll("*")) {
      const cs = getComputedStyle(e);
      if (cs.fill !== "none" && !cs.fill.startsWith("url")) colors.push(cs.fill);
      if (cs.stroke !== "none" && !cs.stroke.startsWith("url")) colors.push(cs.stroke);
    }
    return colors;
  };

  const drawing = (svg, box) => {
    const vb = svg.getAttribute("viewBox") || "";
    const kids = [...svg.children];
    const title = kids.find((e) => e.tagName.toLowerCase() === "title");
    const desc = kids.find((e) => e.tagName.toLowerCase() === "desc");
    const cls = svg.classList.contains("selfattn-chart-wide") ? "wide"
      : svg.classList.contains("selfattn-chart-narrow") ? "narrow" : "unnamed";
    const texts = [...svg.querySelectorAll("text")].filter((t) => ownText(t).trim());
    const sizes = texts.map((t) => {
      const size = Math.min(...runs(t).map((e) => parseFloat(getComputedStyle(e).fontSize)
        * scaleOf(unitMatrix(e, svg))));
      const whole = ownText(t).trim();
      const g = t.parentElement && t.parentElement.closest("g[id]");
      const tipOf = (e) => e && [...e.children].find((c) => c.tagName.toLowerCase() === "title");
      const named = !!tipOf(g);
      const tip = tipOf(t) || tipOf(g);
      // Lines set as tspans: a tspan with its own y, or a dy, starts a line.
      const lines = [];
      for (const span of t.querySelectorAll("tspan")) {
        const starts = span.hasAttribute("y") || parseFloat(span.getAttribute("dy") || "0") !== 0;
        if (starts || !lines.length) lines.push("");
        lines[lines.length - 1] += [...span.childNodes].filter((c) => c.nodeType === 3)
          .map((c) => c.textContent).join("");
      }
      return { s: whole.slice(0, 60), full: whole, id: groupId(t), unit: size, first: whole[0],
               last: whole[whole.length - 1], named, anchor: getComputedStyle(t).textAnchor,
               lines: lines.map((l) => l.trim()).filter((l) => l),
               tip: tip ? tip.textContent.trim() : "" };
    });
    const shown = svg.checkVisibility() && svg.getBoundingClientRect().width > 0;
    const out = {
      cls, viewBox: vb, role: svg.getAttribute("role"), shown,
      title: title ? title.textContent.trim() : null,
      desc: desc ? desc.textContent.trim() : null,
      display: getComputedStyle(svg).display,
      sizes,
    };
    if (!shown) return out;
    const rect = svg.getBoundingClientRect();
    const vbw = svg.viewBox.baseVal && svg.viewBox.baseVal.width;
    out.rect = R(rect);
    out.scale = vbw ? rect.width / vbw : 1;
    out.texts = texts.map((t, i) => {
      const fs = parseFloat(getComputedStyle(t).fontSize);
      const bb = t.getBBox();
      const lines = new Set(runs(t).map((e) => e.getAttribute("y") || "")).size || 1;
      const inset = Math.max(0, (bb.height / lines - fs) / 2);
      const em = { x: bb.x, y: bb.y + inset, width: bb.width,
                   height: Math.max(0, bb.height - 2 * inset) };
      const px = Math.min(...runs(t).map((e) => parseFloat(getComputedStyle(e).fontSize)
        * scaleOf((e.closest("text") || e).getScreenCTM())));
      return {
        i, s: sizes[i].s, id: sizes[i].id, unit: sizes[i].unit, px,
        box: screenBox(t, em),
        ubox: screenBox({ getScreenCTM: () => unitMatrix(t, svg) }, em),
        legend: !!t.closest('g[id*="legend"]'),
      };
    });
    const shapes = [...svg.querySelectorAll(
      "path, rect, circle, ellipse, polygon, polyline, line, use")].filter(
      (e) => !e.closest("defs, clipPath, pattern, marker, mask, symbol, text, title"));
    // Whether a shape's fill paints anything: a <line>, or an open path of two points (a line
    // drawn without fill="none"), has no inside however its fill is set.
    const hasInside = (e) => {
      const tag = e.tagName.toLowerCase();
      if (tag === "line" || tag === "polyline") return false;
      if (!e.isPointInFill) return true;
      const b = e.getBBox();
      if (b.width <= 0 || b.height <= 0) return false;
      // Off-diagonal samples (a segment corner to corner has none inside), two hits needed.
      let hits = 0;
      for (let i = 0; i < 8; i++) {
        for (let j = 0; j < 8; j++) {
          const x = b.x + (b.width * (i + 0.37)) / 8, y = b.y + (b.height * (j + 0.61)) / 8;
          const p = new DOMPoint(x, y);
          if (e.isPointInFill(p) && ++hits >= 2) return true;
        }
      }
      return false;
    };
    out.marks = shapes.map((e, i) => {
      const cs = getComputedStyle(e);
      const r = e.getBoundingClientRect();
      const inside = hasInside(e);
      const mark = {
        i, tag: e.tagName.toLowerCase(), id: groupId(e),
        fill: inside ? cs.fill : "none", fillOpacity: parseFloat(cs.fillOpacity), stroke: cs.stroke,
        strokeOpacity: parseFloat(cs.strokeOpacity), strokeWidth: parseFloat(cs.strokeWidth),
        opacity: opacity(e), box: R(r),
        pattern: colorsOfPattern(svg, cs.fill),
        legend: !!e.closest('g[id*="legend"]'),
        axis: !!e.closest('g[id*="tick_"], g[id*="matplotlib.axis"], g[id*="grid"]'),
        visible: e.checkVisibility(),
      };
      if (mark.fill === "none" && cs.stroke !== "none" && e.getTotalLength) {
        const n = e.getTotalLength();
        const m = e.getScreenCTM();
        const step = Math.max(2 / (out.scale || 1), n / 400);
        const pts = [];
        for (let d = 0; d <= n; d += step) {
          const p = e.getPointAtLength(d).matrixTransform(m);
          pts.push([p.x, p.y]);
        }
        mark.points = pts;
      }
      return mark;
    });
    out.background = bgOf(box);
    return out;
  };

  const charts = [...document.querySelectorAll("div.selfattn-chart-box")].map((box, n) => {
    const svgs = [...box.querySelectorAll("svg.selfattn-chart")];
    const r = box.getBoundingClientRect();
    return {
      n: n + 1,
      box: R(r),
      boxScroll: box.scrollWidth, boxClient: box.clientWidth,
      scrollers: scrollers(box, column),
      inFigure: !!box.closest("figure.selfattn-figure"),
      drawings: svgs.map((svg) => drawing(svg, box)),
    };
  });

  const mermaids = [...document.querySelectorAll("article div.mermaid")].map((host, n) => {
    const svg = host.shadowRoot && host.shadowRoot.querySelector("svg");
    if (!svg) return { n: n + 1, rendered: false };
    const rect = svg.getBoundingClientRect();
    const nodes = [...svg.querySelectorAll("g.node")].map((node) => {
      const shape = node.querySelector("rect, polygon, circle, ellipse, path") || node;
      const labels = [...node.querySelectorAll(".nodeLabel, .nodeLabel *, text, tspan")].filter(
        (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()));
      const px = labels.map((e) => {
        const holder = e.closest("foreignObject") || e.closest("text") || e;
        return parseFloat(getComputedStyle(e).fontSize) * scaleOf(holder.getScreenCTM());
      });
      // Where the rendered lines of the label break: walk its characters in order.
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      const chars = [];
      let k = 0;
      for (let t = walker.nextNode(); t; t = walker.nextNode(), k++) {
        const text = t.textContent;
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          const b = range.getBoundingClientRect();
          chars.push({ c: text[i], node: k, top: b.top, h: b.height, w: b.width, left: b.left });
        }
      }
      const breaks = [];
      let last = null, gap = false, line = "", lines = [];
      for (const ch of chars) {
        if (!ch.c.trim() || (ch.w === 0 && ch.h === 0)) { gap = true; line += ch.c; continue; }
        if (last && ch.top > last.top + 0.5 * Math.max(last.h, ch.h)) {
          breaks.push({ prev: last.c, next: ch.c, space: gap, item: last.node !== ch.node });
          lines.push(line.trim());
          line = "";
        }
        line += ch.c;
        last = ch;
        gap = false;
      }
      lines.push(line.trim());
      return { text: (node.textContent || "").trim().slice(0, 120),
               box: R(shape.getBoundingClientRect()), px, breaks, lines };
    });
    return {
      n: n + 1, rendered: true, rect: R(rect), host: R(host.getBoundingClientRect()),
      scrollers: scrollers(host, column), nodes,
    };
  });

  return {
    scheme: document.body.getAttribute("data-md-color-scheme"),
    lang: document.documentElement.lang,
    innerWidth: window.innerWidth,
    docScroll: document.documentElement.scrollWidth,
    bodyScroll: document.body.scrollWidth,
    column: R(column.getBoundingClientRect()),
    charts, mermaids,
  };
}
"""

WAIT_FOR_MERMAID = """
(expected) => {
  const hosts = [...document.querySelectorAll("article div.mermaid")];
  return document.querySelectorAll("article pre.mermaid").length === 0
    && hosts.length === expected
    && hosts.every((h) => h.shadowRoot && h.shadowRoot.querySelector("svg g.node, svg text"));
}
"""
"""True once Material has rendered every mermaid figure of the page (``expected`` of them)."""


def mermaid_count(html: str) -> int:
    """How many mermaid figures a built page asks for (before Material renders them)."""
    return html.count('<pre class="mermaid"')


_MERMAID_CODE = re.compile(r'<pre class="mermaid"><code>(.*?)</code></pre>', re.S)
_MERMAID_FENCE = re.compile(r"^([ \t]*)```mermaid[ \t]*\n(.*?)^\1```", re.S | re.M)


def authored_mermaid(html: str, markdown: str) -> list[bool]:
    """For each mermaid figure of a built page: whether the page's author wrote it (its code is
    a ```` ```mermaid ```` fence of the markdown) rather than the plugin."""
    fences = {" ".join(m[2].split()) for m in _MERMAID_FENCE.finditer(markdown)}
    return [
        " ".join(html_lib.unescape(code).split()) in fences for code in _MERMAID_CODE.findall(html)
    ]


# ------------------------------------------------------------------------------------------------
# Colours

_COLOR = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)")
RGB = tuple[float, float, float]


def parse_color(text: str) -> tuple[float, float, float, float]:
    match = _COLOR.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"unexpected computed colour {text!r}")
    r, g, b = (float(match[i]) for i in (1, 2, 3))
    alpha = match[4]
    a = 1.0 if alpha is None else float(alpha.rstrip("%")) / (100 if alpha.endswith("%") else 1)
    return r, g, b, a


def over(top: tuple[float, float, float, float], below: RGB) -> RGB:
    r, g, b, a = top
    return (r * a + below[0] * (1 - a), g * a + below[1] * (1 - a), b * a + below[2] * (1 - a))


def page_background(backgrounds: list[str]) -> RGB:
    """The ancestors' background colours composited, root first, over a white canvas."""
    color = (255.0, 255.0, 255.0)
    for text in reversed(backgrounds):
        color = over(parse_color(text), color)
    return color


def _luminance(rgb: RGB) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ------------------------------------------------------------------------------------------------
# Geometry

Box = Mapping[str, float]


def _overlap(a: Box, b: Box, tol: float = TOLERANCE) -> bool:
    return (
        min(a["r"], b["r"]) - max(a["l"], b["l"]) > tol
        and min(a["b"], b["b"]) - max(a["t"], b["t"]) > tol
    )


def _inside(inner: Box, outer: Box, tol: float = TOLERANCE) -> bool:
    return (
        inner["l"] >= outer["l"] - tol
        and inner["r"] <= outer["r"] + tol
        and inner["t"] >= outer["t"] - tol
        and inner["b"] <= outer["b"] + tol
    )


def _intersect(a: Box, b: Box) -> dict[str, float]:
    return {
        "l": max(a["l"], b["l"]),
        "t": max(a["t"], b["t"]),
        "r": min(a["r"], b["r"]),
        "b": min(a["b"], b["b"]),
    }


def _fmt(box: Box) -> str:
    return f"[{box['l']:.0f},{box['t']:.0f}–{box['r']:.0f},{box['b']:.0f}]"


def _area(box: Box) -> float:
    return max(0.0, box["r"] - box["l"]) * max(0.0, box["b"] - box["t"])


_KEY = re.compile(r"^(?P<kind>[a-z_]+?)_(?P<key>\d+(?:_\d+)+)$")


def _same_key(a: str, b: str) -> bool:
    """``value_0_2`` and ``bar_0_2``: two named parts of one series and position."""
    ma, mb = _KEY.match(a), _KEY.match(b)
    return bool(ma and mb and ma["key"] == mb["key"])


# ------------------------------------------------------------------------------------------------
# A chart's marks, sorted


def _painted(color: str, alpha: float) -> bool:
    return color not in ("none", "") and not color.startswith("rgba(0, 0, 0, 0)") and alpha > 0.01


def marks_of(drawing: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The displayed drawing's marks by kind: ``bar`` (filled shapes), ``point`` (small ones;
    a rect only when named a point),
    ``line`` (stroked, unfilled: sampled points), ``frame`` (a filled shape holding two texts or
    more, or a legend's shape holding one: a legend's frame) and ``background`` (40 % of the
    drawing or more)."""
    rect = drawing["rect"]
    whole = _area(rect) or 1.0
    texts = drawing["texts"]
    found: dict[str, list[dict[str, Any]]] = {
        k: [] for k in ("bar", "point", "line", "frame", "background")
    }
    for mark in drawing["marks"]:
        if not mark["visible"] or mark["opacity"] <= 0.01 or mark["axis"]:
            continue
        box = mark["box"]
        filled = _painted(mark["fill"], mark["fillOpacity"] * mark["opacity"])
        stroked = _painted(mark["stroke"], mark["strokeOpacity"] * mark["opacity"])
        if not filled and not stroked:
            continue
        w, h = box["r"] - box["l"], box["b"] - box["t"]
        if _area(box) >= 0.4 * whole:
            found["background"].append(mark)
        elif filled and sum(_inside(t["box"], box) for t in texts) >= 2 - mark["legend"]:
            found["frame"].append(mark)
        elif (
            w <= 24
            and h <= 24
            and (filled or mark["tag"] == "use")
            and (mark["tag"] != "rect" or "point" in mark["id"])
        ):
            found["point"].append(mark)
        elif filled:
            found["bar"].append(mark)
        elif mark.get("points"):
            found["line"].append(mark)
    return found


def _own(text: Mapping[str, Any], mark: Mapping[str, Any], kind: str) -> bool:
    """Whether ``mark`` is ``text``'s own: same group, same series and position, or a filled
    shape the text sits inside whole (a value inside its bar)."""
    return (
        (text["id"] != "" and text["id"] == mark["id"] and not text["id"].startswith("axes"))
        or _same_key(text["id"], mark["id"])
        or (kind != "line" and _inside(text["box"], mark["box"]))
    )


def _shown(chart: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [d for d in chart["drawings"] if d["shown"]]


def _name(chart: Mapping[str, Any]) -> str:
    title = next((d["title"] for d in chart["drawings"] if d["title"]), "")
    return f"chart {chart['n']} ({title[:40]!r})"


# ------------------------------------------------------------------------------------------------
# The chart checks: measurement of one page -> faults


def check_chart_pair(page: Mapping[str, Any], width: int) -> list[str]:
    """Exactly one wide and one narrow drawing per box, exactly one of them displayed."""
    faults = []
    for chart in page["charts"]:
        classes = sorted(d["cls"] for d in chart["drawings"])
        shown = [d["cls"] for d in _shown(chart)]
        if classes != ["narrow", "wide"]:
            faults.append(f"{_name(chart)}: drawings {classes}, want one wide and one narrow")
        if len(shown) != 1:
            faults.append(f"{_name(chart)}: {len(shown)} drawings displayed ({shown}), want 1")
        elif classes == ["narrow", "wide"] and shown[0] != ("narrow" if width < 720 else "wide"):
            faults.append(f"{_name(chart)}: the {shown[0]} drawing is displayed at {width} px")
        for d in chart["drawings"]:
            if not d["shown"] and d["display"] != "none":
                faults.append(f"{_name(chart)}: hidden {d['cls']} drawing is not display:none")
    return faults


def check_title_desc(page: Mapping[str, Any], width: int) -> list[str]:
    """Every drawing has role=img, a <title> and a <desc>."""
    faults = []
    for chart in page["charts"]:
        for d in chart["drawings"]:
            missing = [k for k in ("title", "desc") if not d[k]]
            if missing or d["role"] != "img":
                faults.append(f"{_name(chart)} {d['cls']}: missing {missing}, role={d['role']!r}")
    return faults


_SCRIPT = {"ko": re.compile(r"[\uac00-\ud7a3]"), "zh": re.compile(r"[\u4e00-\u9fff]")}
_LATIN = re.compile(r"[A-Za-z]")


def check_title_desc_language(page: Mapping[str, Any], width: int) -> list[str]:
    """``<title>`` reads in the page's language (Hangul on a ko page, Han on a zh page, Latin
    letters on an en page), whatever the language of the words drawn in the figure. (``<desc>``
    is not judged: it may hold nothing but the data's own labels and numbers.)"""
    script = _SCRIPT.get(page["lang"][:2], _LATIN)
    faults = []
    for chart in page["charts"]:
        for d in chart["drawings"]:
            title = d["title"] or ""
            if title and not script.search(title):
                faults.append(
                    f"{_name(chart)} {d['cls']}: <title> {title[:60]!r} is not in the page's "
                    f"language ({page['lang']})"
                )
    return faults


def check_viewbox(page: Mapping[str, Any], width: int) -> list[str]:
    """Wide: ``0 0 760 430`` or ``0 0 920 430``; narrow: 360 units wide."""
    faults = []
    for chart in page["charts"]:
        for d in chart["drawings"]:
            parts = d["viewBox"].split()
            if d["cls"] == "narrow":
                if len(parts) != 4 or float(parts[2]) != NARROW_WIDTH:
                    faults.append(
                        f"{_name(chart)} narrow: viewBox {d['viewBox']!r}, want width 360"
                    )
            elif " ".join(f"{float(p):g}" for p in parts) not in WIDE_VIEWBOXES:
                faults.append(
                    f"{_name(chart)} {d['cls']}: viewBox {d['viewBox']!r}, want 760×430 or 920×430"
                )
    return faults


_TITLE_ID = re.compile(r"(?:chart_|figure_)?title(?:_\d+)?")


def _title_index(drawing: Mapping[str, Any]) -> int | None:
    """The drawn title: a text named ``title`` (its id or its group's), else the text that
    repeats the ``<title>``, else a text larger than every other one. None: no drawn title."""
    sizes = drawing["sizes"]
    named = [i for i, s in enumerate(sizes) if _TITLE_ID.fullmatch(s["id"])]
    if named:
        return named[0]
    title = (drawing["title"] or "").strip()
    same = [i for i, s in enumerate(sizes) if title and s["s"] == title[:60]]
    if same:
        return same[0]
    if len(sizes) < 2:
        return None
    ranked = sorted(range(len(sizes)), key=lambda i: -sizes[i]["unit"])
    if sizes[ranked[0]]["unit"] > sizes[ranked[1]]["unit"]:
        return ranked[0]
    return None


def check_unit_sizes(page: Mapping[str, Any], width: int) -> list[str]:
    """SVG units: wide labels/values/legend ≥ 14 and title ≥ 18; narrow every text ≥ 12."""
    faults = []
    for chart in page["charts"]:
        for d in chart["drawings"]:
            sizes = d["sizes"]
            if d["cls"] == "narrow":
                small = [
                    (s["s"], round(s["unit"], 1)) for s in sizes if s["unit"] < NARROW_MIN_TEXT
                ]
                if small:
                    faults.append(
                        f"{_name(chart)} narrow: {len(small)} texts < 12 units: {small[:4]}"
                    )
                continue
            title = _title_index(d)
            if title is not None and sizes[title]["unit"] < WIDE_MIN_TITLE:
                faults.append(
                    f"{_name(chart)} {d['cls']}: title {sizes[title]['s']!r} "
                    f"{sizes[title]['unit']:.1f} units < 18"
                )
            small = [
                (s["s"], round(s["unit"], 1))
                for i, s in enumerate(sizes)
                if i != title and s["unit"] < WIDE_MIN_LABEL
            ]
            if small:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(small)} texts < 14 units: {small[:4]}"
                )
    return faults


def check_fits_column(page: Mapping[str, Any], width: int) -> list[str]:
    """No sideways scroll of the page or of a chart's box, the drawing inside the content column."""
    faults = []
    if max(page["docScroll"], page["bodyScroll"]) > page["innerWidth"] + TOLERANCE:
        faults.append(
            f"page scrolls sideways: {max(page['docScroll'], page['bodyScroll'])} px > "
            f"{page['innerWidth']} px"
        )
    column = page["column"]
    for chart in page["charts"]:
        if chart["boxScroll"] > chart["boxClient"] + TOLERANCE or chart["scrollers"]:
            faults.append(
                f"{_name(chart)}: its box scrolls sideways ({chart['boxScroll']} > "
                f"{chart['boxClient']} px; {chart['scrollers']})"
            )
        for d in _shown(chart):
            if not (
                d["rect"]["l"] >= column["l"] - TOLERANCE
                and d["rect"]["r"] <= column["r"] + TOLERANCE
            ):
                faults.append(
                    f"{_name(chart)} {d['cls']}: drawn at x "
                    f"{d['rect']['l']:.0f}–{d['rect']['r']:.0f} outside the column "
                    f"{column['l']:.0f}–{column['r']:.0f}"
                )
    return faults


def check_phone_px(page: Mapping[str, Any], width: int) -> list[str]:
    """At 375 px every displayed chart text is ≥ 11 CSS px (no rule at 1280: wide drawings)."""
    if width > 500:
        return []
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            small = [(t["s"], round(t["px"], 1)) for t in d["texts"] if t["px"] < PHONE_MIN_PX]
            if small:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(small)}/{len(d['texts'])} texts < 11 px,"
                    f" smallest {min(p for _, p in small)} px: {small[:4]}"
                )
    return faults


def _visible_rect(page: Mapping[str, Any], chart: Mapping[str, Any], d: Mapping[str, Any]) -> Box:
    box = chart["box"]
    clip = {"l": max(box["l"], 0.0), "t": -1e9, "r": min(box["r"], page["innerWidth"]), "b": 1e9}
    return _intersect(d["rect"], clip)


def check_in_view(page: Mapping[str, Any], width: int) -> list[str]:
    """Every text, legend entry and title inside the visible part of the displayed drawing."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            view = _visible_rect(page, chart, d)
            out = [(t["s"], _fmt(t["box"])) for t in d["texts"] if not _inside(t["box"], view)]
            marks = marks_of(d)
            out += [
                (f"legend mark {m['id']}", _fmt(m["box"]))
                for kind in ("point", "bar", "line")
                for m in marks[kind]
                if m["legend"] and not _inside(m["box"], view)
            ]
            if out:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(out)} texts/legend entries outside the "
                    f"visible chart {_fmt(view)}: {out[:4]}"
                )
    return faults


def check_title_left(page: Mapping[str, Any], width: int) -> list[str]:
    """The displayed drawing's title is set left-aligned (text-anchor start) and starts in the
    left quarter, ≥ 18 units from the left edge."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            title = _title_index(d)
            if title is None:
                continue  # no drawn title (the <title> is checked on its own)
            parts = [float(p) for p in d["viewBox"].split()] or [0, 0, 1, 1]
            x = d["texts"][title]["ubox"]["l"] - parts[0]
            anchor = d["sizes"][title]["anchor"]
            if anchor != "start":
                faults.append(
                    f"{_name(chart)} {d['cls']}: title {d['texts'][title]['s']!r} is set with "
                    f"text-anchor {anchor!r} (starts at x={x:.1f} units), not left-aligned"
                )
            elif not (TITLE_INSET <= x <= parts[2] / 4):
                faults.append(
                    f"{_name(chart)} {d['cls']}: title {d['texts'][title]['s']!r} starts at "
                    f"x={x:.1f} units (want 18 ≤ x ≤ {parts[2] / 4:.0f})"
                )
    return faults


def check_text_overlap(page: Mapping[str, Any], width: int) -> list[str]:
    """No two texts of the displayed drawing overlap (em boxes, 1 px tolerance)."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            pairs = [
                (a["s"], b["s"], _fmt(_intersect(a["box"], b["box"])))
                for a, b in itertools.combinations(d["texts"], 2)
                if _overlap(a["box"], b["box"])
            ]
            if pairs:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(pairs)} text pairs overlap: {pairs[:4]}"
                )
    return faults


def _line_hits(box: Box, points: Iterable[list[float]], tol: float = TOLERANCE) -> bool:
    return any(
        box["l"] + tol < x < box["r"] - tol and box["t"] + tol < y < box["b"] - tol
        for x, y in points
    )


def check_text_mark_overlap(page: Mapping[str, Any], width: int) -> list[str]:
    """No text overlaps a bar, point or line that is not its own."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            marks = marks_of(d)
            hits = []
            for t in d["texts"]:
                for kind in ("bar", "point"):
                    hits += [
                        (
                            t["s"],
                            f"{kind} {m['id'] or m['tag']}",
                            _fmt(_intersect(t["box"], m["box"])),
                        )
                        for m in marks[kind]
                        if _overlap(t["box"], m["box"]) and not _own(t, m, kind)
                    ]
                hits += [
                    (t["s"], f"line {m['id']}", _fmt(t["box"]))
                    for m in marks["line"]
                    if not _own(t, m, "line") and _line_hits(t["box"], m["points"])
                ]
            if hits:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(hits)} text/mark overlaps: {hits[:4]}"
                )
    return faults


def check_fill_contrast(page: Mapping[str, Any], width: int) -> list[str]:
    """Every filled mark ≥ 3:1 against the page (a hatched fill: its face colour, the rect under
    the hatching; a pattern without one: its most contrasting colour)."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            background = page_background(d["background"])
            marks = marks_of(d)
            low = []
            for m in marks["bar"] + marks["point"]:
                if m["pattern"] is not None:
                    colors, alpha = m["pattern"], m["opacity"]
                elif _painted(m["fill"], m["fillOpacity"]):
                    colors, alpha = [m["fill"]], m["fillOpacity"] * m["opacity"]
                else:  # a hollow marker: its outline carries it
                    colors, alpha = [m["stroke"]], m["strokeOpacity"] * m["opacity"]
                ratios = []
                for c in colors:
                    r, g, b, a = parse_color(c)
                    ratios.append(contrast(over((r, g, b, a * alpha), background), background))
                best = max(ratios, default=0.0)
                if best < MIN_FILL_CONTRAST:
                    low.append((m["id"] or m["tag"], colors[0] if colors else "?", round(best, 2)))
            if low:
                unique = sorted(set(low), key=lambda x: x[2])
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(low)} fills < 3:1 on "
                    "rgb({:.0f},{:.0f},{:.0f}): ".format(*background)
                    + f"{unique[:4]}"
                )
    return faults


def check_points_visible(page: Mapping[str, Any], width: int) -> list[str]:
    """No point hidden under a later-drawn point of opaque (not hatched) fill that covers it
    whole."""
    faults = []
    for chart in page["charts"]:
        for d in _shown(chart):
            points = [m for m in marks_of(d)["point"] if not m["legend"]]
            hidden = []
            for n, p in enumerate(points):
                for q in points[n + 1 :]:
                    opaque = (
                        _painted(q["fill"], q["fillOpacity"])
                        and q["pattern"] is None
                        and q["fillOpacity"] * q["opacity"] >= 0.6
                    )
                    if opaque and _inside(p["box"], q["box"], tol=0.5):
                        hidden.append((p["id"] or p["tag"], q["id"] or q["tag"]))
                        break
            if hidden:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(hidden)}/{len(points)} points hidden under "
                    f"another: {hidden[:4]}"
                )
    return faults


def check_chart_breaks(page: Mapping[str, Any], width: int) -> list[str]:
    """A chart label set on several lines (tspans, each line with its own ``y`` or a ``dy``; or
    texts of one group that carries the full name as its ``<title>``) breaks only where a mermaid
    label may: never inside a word. Lines lose the space they broke at, so a break is at a space
    when the two lines joined by one are in the label's tooltip, the ``<title>`` or ``<desc>``, or
    a text of the chart's other drawing."""
    faults = []
    for chart in page["charts"]:
        for d in chart["drawings"]:
            pairs = [
                (a["s"], b["s"], a["tip"])
                for a, b in itertools.pairwise(d["sizes"])
                if a["named"] and a["id"] == b["id"]
            ]
            pairs += [
                (*pair, size["tip"])
                for size in d["sizes"]
                for pair in itertools.pairwise(size["lines"])
            ]
            # The chart's other drawing shows the same words on one line (its <title> and <desc>
            # may be in the page's language, the drawn words in the figure's).
            known = [d["title"] or "", d["desc"] or ""] + [
                size["full"] for other in chart["drawings"] for size in other["sizes"]
            ]
            bad = [
                f"{a!r}/{b!r}"
                for a, b, tip in pairs
                if not any(f"{a} {b}" in full for full in [tip, *known])
                and not break_ok({"prev": a[-1:], "next": b[:1], "space": False, "item": False})
            ]
            if bad:
                faults.append(
                    f"{_name(chart)} {d['cls']}: {len(bad)} labels broken inside a word: {bad[:4]}"
                )
    return faults


CHART_CHECKS: dict[str, Callable[[Mapping[str, Any], int], list[str]]] = {
    "one_drawing_shown": check_chart_pair,
    "title_and_desc": check_title_desc,
    "title_desc_language": check_title_desc_language,
    "viewbox": check_viewbox,
    "text_units": check_unit_sizes,
    "fits_column": check_fits_column,
    "phone_text_px": check_phone_px,
    "text_in_view": check_in_view,
    "title_left": check_title_left,
    "text_text_overlap": check_text_overlap,
    "text_mark_overlap": check_text_mark_overlap,
    "fill_contrast": check_fill_contrast,
    "points_visible": check_points_visible,
    "chart_word_breaks": check_chart_breaks,
}

# ------------------------------------------------------------------------------------------------
# Mermaid


def _mermaid_name(figure: Mapping[str, Any]) -> str:
    first = figure["nodes"][0]["text"][:30] if figure.get("nodes") else ""
    whose = ", the page author's own" if figure.get("author") else ""
    return f"mermaid {figure['n']} ({first!r}…{whose})"


def side_by_side(boxes: list[Box]) -> int:
    """The most boxes whose vertical extents all overlap (boxes in one row)."""
    events = sorted(
        [(b["t"] + TOLERANCE, 1) for b in boxes] + [(b["b"] - TOLERANCE, -1) for b in boxes]
    )
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def check_mermaid_rendered(page: Mapping[str, Any], width: int) -> list[str]:
    return [f"mermaid {f['n']}: not rendered" for f in page["mermaids"] if not f["rendered"]]


def check_mermaid_side_by_side(page: Mapping[str, Any], width: int) -> list[str]:
    """No more than three node boxes side by side."""
    faults = []
    for f in page["mermaids"]:
        if not f["rendered"]:
            continue
        most = side_by_side([n["box"] for n in f["nodes"]])
        if most > MERMAID_MAX_SIDE_BY_SIDE:
            faults.append(f"{_mermaid_name(f)}: {most} boxes side by side (of {len(f['nodes'])})")
    return faults


def check_mermaid_text_px(page: Mapping[str, Any], width: int) -> list[str]:
    """Node text ≥ 14 CSS px at 1280, ≥ 11 at 375."""
    need = MERMAID_MIN_PX.get(width, MERMAID_MIN_PX[375] if width < 720 else MERMAID_MIN_PX[1280])
    faults = []
    for f in page["mermaids"]:
        sizes = [px for n in f.get("nodes", []) for px in n["px"]]
        if sizes and min(sizes) < need - 0.05:
            faults.append(
                f"{_mermaid_name(f)}: node text {min(sizes):.1f}–{max(sizes):.1f} px, "
                f"want ≥ {need:g}"
            )
    return faults


def check_mermaid_fits(page: Mapping[str, Any], width: int) -> list[str]:
    """The diagram inside the content column, nothing around it scrolling sideways."""
    column = page["column"]
    faults = []
    for f in page["mermaids"]:
        if not f["rendered"]:
            continue
        r = f["rect"]
        if r["l"] < column["l"] - TOLERANCE or r["r"] > column["r"] + TOLERANCE or f["scrollers"]:
            faults.append(
                f"{_mermaid_name(f)}: drawn at x {r['l']:.0f}–{r['r']:.0f} "
                f"({r['r'] - r['l']:.0f} px) in the column {column['l']:.0f}–{column['r']:.0f}"
                + (f", scrolls: {f['scrollers']}" if f["scrollers"] else "")
            )
    return faults


_BREAK_AFTER = set(" _·,、，；;：:…/")
_BREAK_BEFORE = set(" _·…")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def break_ok(brk: Mapping[str, Any]) -> bool:
    """A line break at a space, ``_``, ``·``, ``,``, ``/`` (either side of ``_``, ``·``), at a "…"
    that already marks a shortened name, at an item boundary, or between two Han ideographs."""
    return bool(
        brk["space"]
        or brk["item"]
        or brk["prev"] in _BREAK_AFTER
        or brk["next"] in _BREAK_BEFORE
        or (_HAN.match(brk["prev"]) and _HAN.match(brk["next"]))
    )


def check_mermaid_breaks(page: Mapping[str, Any], width: int) -> list[str]:
    """No node label broken inside a word."""
    faults = []
    for f in page["mermaids"]:
        for node in f.get("nodes", []):
            bad = [b for b in node["breaks"] if not break_ok(b)]
            if bad:
                faults.append(
                    f"{_mermaid_name(f)}: node {node['text'][:40]!r} breaks inside a word: "
                    + ", ".join(f"{b['prev']!r}/{b['next']!r}" for b in bad[:3])
                    + f" (lines {node['lines'][:4]})"
                )
    return faults


MERMAID_CHECKS: dict[str, Callable[[Mapping[str, Any], int], list[str]]] = {
    "mermaid_rendered": check_mermaid_rendered,
    "mermaid_side_by_side": check_mermaid_side_by_side,
    "mermaid_text_px": check_mermaid_text_px,
    "mermaid_fits_column": check_mermaid_fits,
    "mermaid_word_breaks": check_mermaid_breaks,
}

CHECKS = {**CHART_CHECKS, **MERMAID_CHECKS}
