/* mkdocs-selfattn: the in-page "try" view. Plain JavaScript, no dependencies, no network.
 *
 * Recomputes an example in float64 with the Python core's order of operations: subtract the
 * row maximum, divide by the temperature (only when it is not 1), exp (the core's own, ported
 * from fdlibm below, not Math.exp), sum left to right,
 * divide; weighted sums left to right from 0. Numbers are formatted as Python prints them:
 * repr(round(x, 3)), or format(x, ".Nf") / format(x, ".N%").
 */
(function () {
  "use strict";
  if (window.selfattnTry) {
    window.selfattnTry.scan();
    return;
  }
  var SVG = "http://www.w3.org/2000/svg";
  var counter = 0;

  /* -- number formatting, as Python does it --------------------------------------------- */

  // Decimal digits of ax >= 0 rounded half-even to nd places (toFixed rounds ties up).
  function fixedHalfEven(ax, nd) {
    // toFixed writes 1e21 and above in exponent form; such doubles are whole numbers.
    if (ax >= 1e21) return BigInt(ax).toString() + (nd ? "." + "0".repeat(nd) : "");
    var up = ax.toFixed(nd);
    var full = ax.toFixed(100); // exact for every double that can tie at nd <= 20 places
    var dot = full.indexOf(".");
    var rest = full.slice(dot + 1 + nd);
    if (!/^50*$/.test(rest)) return up;
    var trunc = nd ? full.slice(0, dot + 1 + nd) : full.slice(0, dot);
    var last = trunc.charCodeAt(trunc.length - 1) - 48;
    return last % 2 === 0 ? trunc : up;
  }

  function pyRound(x, nd) {
    if (!isFinite(x) || Math.abs(x) >= 9007199254740992) return x;
    var s = fixedHalfEven(Math.abs(x), nd);
    return Number((x < 0 || Object.is(x, -0) ? "-" : "") + s);
  }

  function pyRepr(v) {
    if (v !== v) return "nan";
    if (v === Infinity) return "inf";
    if (v === -Infinity) return "-inf";
    if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
    var sign = v < 0 ? "-" : "";
    var parts = Math.abs(v).toExponential().split("e");
    var digits = parts[0].replace(".", "");
    var exp = Number(parts[1]);
    if (exp >= -4 && exp < 16) {
      if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
      var whole = digits.slice(0, exp + 1);
      while (whole.length < exp + 1) whole += "0";
      return sign + whole + "." + (digits.slice(exp + 1) || "0");
    }
    var mant = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "");
    var e = String(Math.abs(exp));
    return sign + mant + "e" + (exp < 0 ? "-" : "+") + (e.length < 2 ? "0" + e : e);
  }

  function pyFixed(x, nd) {
    if (!isFinite(x)) return pyRepr(x);
    var neg = x < 0 || Object.is(x, -0);
    return (neg ? "-" : "") + fixedHalfEven(Math.abs(x), nd);
  }

  function formatRound(x) {
    return pyRepr(pyRound(x, 3));
  }

  function formatValue(x, spec) {
    if (!spec) return formatRound(x);
    var m = /^\.(\d{1,2})([f%])$/.exec(spec);
    if (!m) return formatRound(x);
    if (m[2] === "%") return pyFixed(x * 100, Number(m[1])) + "%";
    return pyFixed(x, Number(m[1]));
  }

  /* -- exp: fdlibm's e_exp.c, the same bits as mkdocs_selfattn/portable_exp.py ----------- */

  // Math.exp is whatever the browser ships; this is the core's exp, built from + - * / and
  // exact powers of two only, so the page gives the build's bits. Constants as in fdlibm.
  var EXP_OVERFLOW = 709.782712893384;
  var EXP_UNDERFLOW = -745.1332191019411;
  var LN2_HI = 0.6931471803691238;
  var LN2_LO = 1.9082149292705877e-10;
  var INV_LN2 = 1.4426950408889634;
  var P1 = 0.16666666666666602;
  var P2 = -0.0027777777777015593;
  var P3 = 6.613756321437934e-5;
  var P4 = -1.6533902205465252e-6;
  var P5 = 4.1381367970572385e-8;
  var TWO_M1000 = 9.332636185032189e-302;
  // fdlibm tests the high word of |x|; these doubles are those tests' bounds.
  var EXP_CHECK_RANGE = 709.7822265625;
  var EXP_REDUCE = 0.3465735912322998;
  var EXP_ONE_STEP = 1.0397205352783203;
  var EXP_TINY = 3.725290298461914e-9;
  var bitsView = new DataView(new ArrayBuffer(8));

  function powerOfTwo(n) {
    // 2**n exactly for integers -1022 <= n <= 1023, from the bits.
    bitsView.setUint32(0, (n + 1023) << 20);
    bitsView.setUint32(4, 0);
    return bitsView.getFloat64(0);
  }

  function portableExp(x) {
    if (x !== x) return x + x;
    var size = Math.abs(x);
    if (size >= EXP_CHECK_RANGE) {
      if (size === Infinity) return x > 0 ? x : 0;
      if (x > EXP_OVERFLOW) return Infinity;
      if (x < EXP_UNDERFLOW) return 0;
    }
    var hi, lo, k, r;
    if (size > EXP_REDUCE) {
      if (size < EXP_ONE_STEP) {
        if (x === 1) return Math.E; // as V8's port: fdlibm's steps give the next double up
        if (x > 0) { hi = x - LN2_HI; lo = LN2_LO; k = 1; }
        else { hi = x + LN2_HI; lo = -LN2_LO; k = -1; }
      } else {
        k = (INV_LN2 * x + (x > 0 ? 0.5 : -0.5)) | 0; // truncates, as C's (int) cast
        hi = x - k * LN2_HI;
        lo = k * LN2_LO;
      }
      r = hi - lo;
    } else if (size < EXP_TINY) {
      return 1 + x;
    } else {
      k = 0;
      r = x;
    }
    var t = r * r;
    var c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k === 0) return 1 - ((r * c) / (c - 2) - r);
    var y = 1 - ((lo - (r * c) / (2 - c)) - hi);
    if (k >= -1021) {
      var half = k >> 1;
      return y * powerOfTwo(half) * powerOfTwo(k - half);
    }
    return y * powerOfTwo(k + 1000) * TWO_M1000;
  }

  /* -- the engine ------------------------------------------------------------------------ */

  function softmax(values, temperature) {
    var n = values.length;
    var max = -Infinity;
    for (var i = 0; i < n; i++) if (values[i] > max) max = values[i];
    var exps = new Array(n);
    for (i = 0; i < n; i++) {
      var d = values[i] - max;
      if (temperature !== 1) d /= temperature;
      // float_range.redo_overflowed_differences: s - max beyond the float range, redone halved
      // (exact for such numbers), so a large temperature still gives the true small quotient.
      if (d === -Infinity) d = ((values[i] * 0.5 - max * 0.5) / temperature) * 2;
      exps[i] = portableExp(d);
    }
    var total = 0;
    for (i = 0; i < n; i++) total += exps[i];
    for (i = 0; i < n; i++) exps[i] /= total;
    return exps;
  }

  // Each row's vector in the output space: the columns themselves, or named axes (sums).
  function project(data, group) {
    return group.rows.map(function (row) {
      if (!data.axes) return row.vector;
      return data.axes.map(function (axis) {
        var s = 0;
        for (var k = 0; k < axis.columns.length; k++) s += row.vector[axis.columns[k]];
        return s;
      });
    });
  }

  function topRows(weights, k) {
    var idx = weights.map(function (_, i) { return i; });
    idx.sort(function (a, b) { return weights[b] - weights[a] || a - b; });
    return idx.slice(0, k);
  }

  // Given weights as the core takes them (issue 13): each finite and >= 0, summed left to
  // right; within the tolerance of 1 they are used as written, else divided by the sum when the
  // block says normalise, else the build refuses the file (and so does the page).
  function givenWeights(values, data) {
    var total = 0;
    for (var i = 0; i < values.length; i++) {
      if (!isFinite(values[i]) || values[i] < 0) return { error: "value" };
      total += values[i];
    }
    if (Math.abs(total - 1) <= data.tolerance) return { weights: values.slice(), total: total };
    if (data.normalise && total > 0) {
      return { weights: values.map(function (v) { return v / total; }), total: total };
    }
    return { error: "sum", total: total };
  }

  function computeHead(data, group, projected, head, values, temperature) {
    var w, total;
    if (head.mode === "softmax") w = softmax(values, temperature);
    else {
      var given = givenWeights(values, data);
      if (given.error) return given;
      w = given.weights;
      total = given.total;
    }
    var context = weightedSums(w, projected, group.baseline.length);
    var named = data.named.map(function (item) {
      var s = 0;
      for (var i = 0; i < w.length; i++) {
        if (item.members.indexOf(group.rows[i].token) >= 0) s += w[i];
      }
      return s;
    });
    var shift = context.map(function (v, a) { return v - group.baseline[a]; });
    var out = {
      weights: w,
      total: total,
      context: context,
      shift: shift,
      top: topRows(w, data.top || 1),
      named: named,
    };
    var a = firstNonFinite(shift);
    if (a >= 0) {
      out.error = "range";
      out.message = data.layout
        ? beyondRange("shift", head, group)
        : "the shift of target " + pyStr(group.token) + " in document " + pyStr(data.document) +
          " (vector column " + pyStr(data.columns[a]) + ": " + pyRepr(context[a]) +
          " minus the baseline " + pyRepr(group.baseline[a]) + ") is beyond the largest float " +
          "(about 1.8e308); scale that column down";
    }
    return out;
  }

  // float_range.weighted_sums_in_range: sums left to right from 0; where one overflowed on the
  // way (vectors near ±1.8e308), every column of the group is redone with halved vectors and
  // held to the group's range, where the true weighted mean lies.
  function weightedSums(w, projected, dims) {
    var sums = function (scale) {
      var out = new Array(dims);
      for (var a = 0; a < dims; a++) {
        var acc = 0;
        for (var i = 0; i < w.length; i++) acc += w[i] * (projected[i][a] * scale);
        out[a] = acc;
      }
      return out;
    };
    var context = sums(1);
    if (firstNonFinite(context) >= 0) {
      context = sums(0.5).map(function (v, a) {
        var low = Infinity, high = -Infinity;
        for (var i = 0; i < projected.length; i++) {
          low = Math.min(low, projected[i][a]);
          high = Math.max(high, projected[i][a]);
        }
        return Math.min(Math.max(v * 2, low), high);
      });
    }
    return context.map(function (v) { return v + 0; });
  }

  function firstNonFinite(values) {
    for (var a = 0; a < values.length; a++) if (!isFinite(values[a])) return a;
    return -1;
  }

  // reading_results: a shift, difference or distance beyond the float range is refused.
  function beyondRange(what, head, group) {
    return "the " + what + " of " + pyStr(head.raw) + " in group " + pyStr(group.group || "the whole file") +
      " is beyond the largest float (about 1.8e308); scale the vector columns down";
  }

  function tooFar(group) {
    return "the distance between two heads' contexts in group " + pyStr(group.group || "the whole file") +
      " is beyond the largest float (about 1.8e308); scale the vector columns down";
  }

  // reading_engine.separations: the root of the squares added left to right; past the float
  // range, scaled by the largest difference as hypot does (inf stays inf: beyond range).
  function separation(ca, cb) {
    var d = ca.map(function (v, a) { return v - cb[a]; });
    var root = function (x) {
      var s = 0;
      for (var a = 0; a < x.length; a++) s += x[a] * x[a];
      return Math.sqrt(s);
    };
    var plain = root(d);
    if (isFinite(plain)) return plain;
    var scale = 0;
    d.forEach(function (v) { scale = Math.max(scale, Math.abs(v)); });
    return root(d.map(function (v) { return v / scale; })) * scale;
  }

  // Python's repr() of a str, as the build's messages quote names.
  function pyStr(text) {
    var quote = text.indexOf("'") >= 0 && text.indexOf('"') < 0 ? '"' : "'";
    var out = "";
    for (var k = 0; k < text.length; k++) {
      var ch = text[k];
      var code = ch.charCodeAt(0);
      if (ch === "\\" || ch === quote) out += "\\" + ch;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (code < 0x20 || code === 0x7f) out += "\\x" + (code < 16 ? "0" : "") + code.toString(16);
      else out += ch;
    }
    return quote + out + quote;
  }

  // Every head of a group, then each head's difference from the reference head and the
  // Euclidean distance between every two heads' contexts (a left-to-right sum of squares).
  function computeGroup(data, group, projected, values, temperature, initial) {
    var heads = group.heads.map(function (head, h) {
      return initial ? head.initial : computeHead(data, group, projected, head, values[h], temperature);
    });
    var ref = group.reference;
    var differences = [];
    var separations = [];
    // The build's order: given weights first, then every distance, then per head its shift
    // and its difference from the reference head.
    var given = heads.some(function (r) { return r.error && r.error !== "range"; });
    var message = null;
    if (ref !== null && ref !== undefined && !given) {
      var start = initial && group.initial;
      for (var x = 0; x < heads.length; x++) {
        for (var y = x + 1; y < heads.length; y++) {
          var value = start ? start.separations[x][y] : separation(heads[x].context, heads[y].context);
          if (!isFinite(value)) message = message || tooFar(group);
          separations.push({ a: x, b: y, value: value });
        }
      }
      heads.forEach(function (r, h) {
        if (r.error && !message) message = r.message;
        if (h === ref) return;
        var diff = start ? start.differences[differences.length] : r.context.map(function (v, a) { return v - heads[ref].context[a]; });
        if (!message && firstNonFinite(diff) >= 0) message = beyondRange("difference", group.heads[h], group);
        differences.push({ head: h, values: diff });
      });
    } else if (!given) {
      heads.forEach(function (r) { if (r.error && !message) message = r.message; });
    }
    return { heads: heads, differences: differences, separations: separations, failed: given || message !== null, message: message };
  }

  // Questions over the same lines: the build measures the distance between every two of their
  // contexts (reading_engine.separations) before anything else, and refuses one beyond range.
  function questionDistances(data, outs) {
    var byLines = {};
    data.groups.forEach(function (section, g) {
      (byLines[section.lines] = byLines[section.lines] || []).push(g);
    });
    Object.keys(byLines).forEach(function (key) {
      var members = byLines[key];
      var far = false;
      for (var x = 0; x < members.length; x++) {
        for (var y = x + 1; y < members.length; y++) {
          var a = outs[members[x]].heads[0].context;
          var b = outs[members[y]].heads[0].context;
          if (!isFinite(separation(a, b))) far = true;
        }
      }
      if (!far) return;
      members.forEach(function (g) {
        outs[g] = Object.assign({}, outs[g], { failed: true, message: tooFar(data.groups[g]) });
      });
    });
  }

  /* -- the page -------------------------------------------------------------------------- */

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A table wider than its column becomes one block per row, each cell named by its column
  // (the header's words, set as an attribute that CSS shows): neither the page nor the view
  // scrolls sideways on a phone (issue 24). Explicit roles keep it a table to assistive
  // technology whatever its display.
  function labelCells(table) {
    var head = table.tHead && table.tHead.rows[0];
    var names = head ? Array.prototype.map.call(head.cells, function (c) { return c.textContent; }) : [];
    table.setAttribute("role", "table");
    Array.prototype.forEach.call(table.rows, function (tr) {
      if (tr.hasAttribute("role")) return;
      tr.setAttribute("role", "row");
      Array.prototype.forEach.call(tr.cells, function (cell, k) {
        var scope = cell.getAttribute("scope");
        cell.setAttribute("role", scope === "col" ? "columnheader" : scope === "row" ? "rowheader" : "cell");
        // A zero-width space after each "_": a long column name breaks there, never mid-word.
        if (cell.tagName === "TD" && names[k] && !cell.hasAttribute("colspan")) cell.setAttribute("data-col", names[k].replace(/_/g, "_\u200b"));
      });
    });
  }

  function fitTables(root) {
    var tables = root.querySelectorAll(".selfattn-try-table");
    Array.prototype.forEach.call(tables, function (table) { table.classList.remove("selfattn-try-stacked"); });
    Array.prototype.forEach.call(tables, function (table) {
      var room = table.parentNode.clientWidth;
      if (room && table.offsetWidth > room + 0.5) {
        labelCells(table);
        table.classList.add("selfattn-try-stacked");
      }
    });
  }

  // text as text nodes with a <wbr> after each "_": a long id breaks there, not mid-word,
  // and its textContent is unchanged.
  function breakable(tag, attrs, text) {
    var node = el(tag, attrs);
    text.split(/(?<=_)/).forEach(function (part, k) {
      if (k) node.appendChild(document.createElement("wbr"));
      node.appendChild(document.createTextNode(part));
    });
    return node;
  }

  function init(root) {
    var source = root.getAttribute("data-selfattn-data");
    if (!source || root.getAttribute("data-selfattn-ready")) return;
    root.setAttribute("data-selfattn-ready", "1");
    var data = JSON.parse(source);
    // Questions over the same lines share one list of them (data.lines), by index.
    data.groups.forEach(function (g) {
      if (typeof g.rows === "number") {
        g.lines = g.rows;
        g.rows = data.lines[g.rows];
      }
    });
    var W = data.words; // the page language's, chosen at build time
    var id = "selfattn-try-" + ++counter + "-";
    var ui = el("div", { class: "selfattn-try-ui" });
    var state = {
      refusal: null,
      temperature: data.temperature,
      values: data.groups.map(function (g) { return g.heads.map(function (h) { return h.values.slice(); }); }),
    };
    var projected = data.groups.map(function (g) { return project(data, g); });
    var views = [];

    var bar = el("div", { class: "selfattn-try-bar" });
    var tId = id + "t";
    // No softmax (given weights only): no temperature to edit.
    var tInput = el("input", { type: "number", id: tId, step: "any", min: "0", inputmode: "decimal", "aria-describedby": tId + "-hint" });
    if (data.temperature !== null) {
      bar.appendChild(el("label", { for: tId }, W.temperature));
      tInput.value = String(data.temperature);
      bar.appendChild(tInput);
      bar.appendChild(el("small", { id: tId + "-hint", class: "selfattn-try-hint" }, W.temperature_hint));
    } else if (data.normalise) {
      bar.appendChild(el("small", { class: "selfattn-try-hint" }, W.normalised));
    }
    var reset = el("button", { type: "button", class: "selfattn-try-reset" }, W.reset);
    var download = el("button", { type: "button", class: "selfattn-try-download" }, W.download);
    bar.appendChild(reset);
    bar.appendChild(download);
    ui.appendChild(bar);

    var overview = data.layout === "questions" && data.groups.length > 1 ? overviewTable(data, W, id) : null;
    if (overview) ui.appendChild(overview.box);
    data.groups.forEach(function (group, g) {
      views.push(buildGroup(data, W, group, g, id + "g" + g + "-", state, update));
      ui.appendChild(views[g].section);
    });

    var link = root.querySelector("a.selfattn-try-json");
    var links = root.querySelector(".selfattn-try-links");
    if (link && links) {
      if (link.getAttribute("href")) links.insertBefore(document.createTextNode(W.data + " "), link);
      else links.hidden = true;
      ui.appendChild(links);
    }
    root.appendChild(ui);

    // The build refuses the whole file for one refused group (given weights that do not sum
    // to 1, a shift beyond the float range, ...), so while any group is refused none shows
    // numbers: each says why, in the build's own words. Given weights recompute every group.
    var outs = [];
    var wasBlocked = false;
    function update(groups, initial) {
      if (data.layout === "heads") groups = all;
      groups.forEach(function (g) {
        outs[g] = computeGroup(data, data.groups[g], projected[g], state.values[g], state.temperature, initial);
      });
      if (data.layout === "questions") questionDistances(data, outs);
      var blocked = state.refusal !== null || outs.some(function (out) { return out.failed; });
      var shown = blocked || wasBlocked ? all : groups;
      wasBlocked = blocked;
      shown.forEach(function (g) {
        views[g].show(outs[g], blocked, state.refusal);
        if (overview) overview.show(g, blocked ? null : outs[g].heads[0]);
      });
    }
    var all = data.groups.map(function (_, g) { return g; });
    update(all, true);
    fitTables(root);
    if (typeof ResizeObserver === "function") {
      var fitWidth = root.clientWidth;
      new ResizeObserver(function () {
        if (root.clientWidth === fitWidth) return;
        fitWidth = root.clientWidth;
        fitTables(root);
      }).observe(root);
    }

    tInput.addEventListener("input", function () {
      var empty = tInput.value.trim() === "";
      var t = empty ? NaN : Number(tInput.value);
      var ok = isFinite(t) && t > 0;
      tInput.setAttribute("aria-invalid", ok ? "false" : "true");
      tInput.title = ok ? "" : W.invalid_temperature;
      // attention._check_temperature's words; an empty box is not yet a number to refuse.
      state.refusal = ok ? null : empty ? W.invalid_temperature : "temperature must be a number greater than 0, not " + pyRepr(t);
      if (ok) state.temperature = t;
      update(all, false);
    });
    reset.addEventListener("click", function () {
      state.temperature = data.temperature;
      state.refusal = null;
      if (data.temperature !== null) tInput.value = String(data.temperature);
      tInput.setAttribute("aria-invalid", "false");
      data.groups.forEach(function (group, g) {
        group.heads.forEach(function (head, h) {
          state.values[g][h] = head.values.slice();
        });
        views[g].reset();
      });
      update(all, true);
    });
    download.addEventListener("click", function () {
      editedCsv(data, state).then(function (text) {
        var blob = new Blob([text], { type: "text/csv;charset=utf-8" });
        var a = el("a", { href: URL.createObjectURL(blob), download: "edited-" + data.csv.name });
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
      });
    });
  }

  function buildGroup(data, W, group, g, id, state, update) {
    var given = data.layout === "heads";
    var hasRef = group.reference !== null && group.reference !== undefined;
    var section = el("section", { class: "selfattn-try-group", "aria-labelledby": id + "cap" });
    var cap = el("p", { class: "selfattn-try-caption", id: id + "cap" });
    cap.appendChild(breakable("strong", {}, W[group.kind || "target"] + " " + group.label));
    var summary = el("span", { class: "selfattn-try-summary", "aria-live": "polite", "data-q": "summary", "data-g": g });
    cap.appendChild(summary);
    section.appendChild(cap);
    var axisNames = data.axes ? data.axes.map(function (a) { return a.name; }) : data.columns;

    // Many lines scroll inside the view, so the outputs below them stay in reach.
    var box = el("div", { class: "selfattn-try-scroll" + (group.rows.length > 15 ? " selfattn-try-long" : "") });
    var table = el("table", { class: "selfattn-try-table" });
    var head = el("tr");
    // Weights come before the inputs and the role, so a phone shows them without scrolling.
    head.appendChild(el("th", { scope: "col" }, W.candidate));
    group.heads.forEach(function (h) {
      var suffix = h.name ? " (" + h.name + ")" : "";
      if (h.mode === "softmax") head.appendChild(el("th", { scope: "col" }, W.weight + suffix));
      head.appendChild(el("th", { scope: "col" }, (h.mode === "softmax" ? W.score : W.weight) + suffix));
    });
    if (given) axisNames.forEach(function (n) { head.appendChild(el("th", { scope: "col" }, W.vector + " " + n)); });
    var roles = group.rows.some(function (row) { return row.role !== ""; }); // a role column?
    if (roles) head.appendChild(el("th", { scope: "col" }, W.role));
    table.appendChild(el("thead")).appendChild(head);
    var body = el("tbody");
    var rowInputs = [];
    var weightCells = [];
    var rows = [];
    var n = group.rows.length;
    // Thousands of lines: the table shows them a page at a time (every number is still
    // recomputed; only the page's rows are drawn), so an edit redraws a page, not the file.
    var paged = n > PAGED_ABOVE;
    var first = 0;
    var lastOut = null;

    function makeRow(i) {
      var row = group.rows[i];
      var tr = el("tr");
      var th = breakable("th", { scope: "row" }, row.label);
      var raw = row.raw === undefined ? row.token : row.raw;
      if (row.label !== raw) th.appendChild(el("small", {}, " (" + raw + ")"));
      tr.appendChild(th);
      rowInputs[i] = [];
      weightCells[i] = [];
      group.heads.forEach(function (h, hi) {
        var td = el("td", { class: "selfattn-try-input" });
        var nid = id + "h" + hi + "r" + i;
        var what = (h.mode === "softmax" ? W.score : W.weight) + (h.name ? " (" + h.name + ")" : "");
        td.appendChild(el("label", { for: nid, class: "selfattn-try-sr" }, what + ": " + row.label + " → " + group.label));
        var num = el("input", { type: "number", id: nid, step: "any", inputmode: "decimal", "data-q": "input", "data-g": g, "data-h": hi, "data-i": i });
        num.value = String(state.values[g][hi][i]);
        var range = rangeFor(h, i);
        range.value = num.value;
        range.setAttribute("aria-label", what + ": " + row.label + " → " + group.label + " (" + W.slider + ")");
        range.setAttribute("data-q", "slider");
        range.setAttribute("data-g", g);
        range.setAttribute("data-h", hi);
        range.setAttribute("data-i", i);
        td.appendChild(num);
        td.appendChild(range);
        rowInputs[i].push({ num: num, range: range, h: hi });
        num.addEventListener("input", function () {
          var v = num.value.trim() === "" ? NaN : Number(num.value);
          var ok = isFinite(v);
          num.setAttribute("aria-invalid", ok ? "false" : "true");
          num.title = ok ? "" : W.invalid;
          if (!ok) return;
          range.value = String(v);
          edit(hi, i, v);
        });
        range.addEventListener("input", function () {
          num.value = range.value;
          num.setAttribute("aria-invalid", "false");
          edit(hi, i, Number(range.value));
        });
        if (h.mode === "softmax") {
          var wc = el("td", { class: "selfattn-try-num", "data-q": "weight", "data-g": g, "data-h": hi, "data-i": i });
          weightCells[i][hi] = wc;
          tr.appendChild(wc);
        }
        tr.appendChild(td);
      });
      if (given) {
        row.vector.forEach(function (v, a) {
          var vc = el("td", { class: "selfattn-try-num", "data-q": "vector", "data-g": g, "data-h": 0, "data-i": i + "/" + a });
          setNum(vc, formatRound(v), v);
          tr.appendChild(vc);
        });
      }
      if (roles) tr.appendChild(el("td", {}, row.role));
      rows[i] = tr;
      markEdited(i);
      return tr;
    }

    function last() { return paged ? Math.min(n, first + PAGE_ROWS) : n; }

    function showRows() {
      body.textContent = "";
      for (var i = first; i < last(); i++) body.appendChild(rows[i] || makeRow(i));
      if (table.classList.contains("selfattn-try-stacked")) labelCells(table);
      if (lastOut) showWeights(lastOut);
      if (paged) {
        pageText.textContent = (first + 1) + "–" + last() + " / " + n;
        prev.disabled = first === 0;
        next.disabled = last() === n;
      }
    }

    if (paged) {
      var pager = el("div", { class: "selfattn-try-pager" });
      var prev = el("button", { type: "button", "aria-label": W.previous_rows || "previous lines" }, "‹");
      var pageText = el("span", { "aria-live": "polite" });
      var next = el("button", { type: "button", "aria-label": W.next_rows || "next lines" }, "›");
      pager.appendChild(prev);
      pager.appendChild(pageText);
      pager.appendChild(next);
      section.appendChild(pager);
      prev.addEventListener("click", function () { first = Math.max(0, first - PAGE_ROWS); showRows(); });
      next.addEventListener("click", function () { first = Math.min(n - 1, first + PAGE_ROWS); showRows(); });
    }
    showRows();
    table.appendChild(body);
    // Given weights: each head's sum, the number the build checks.
    var sumCells = [];
    if (given) {
      var foot = el("tr");
      foot.appendChild(el("th", { scope: "row" }, W.sum));
      group.heads.forEach(function (h, hi) {
        var sc = el("td", { class: "selfattn-try-num", "data-q": "sum", "data-g": g, "data-h": hi, "data-i": 0 });
        sumCells.push(sc);
        foot.appendChild(sc);
      });
      foot.appendChild(el("td", { colspan: axisNames.length + (roles ? 1 : 0) }));
      table.appendChild(el("tfoot")).appendChild(foot);
    }
    box.appendChild(table);
    section.appendChild(box);

    var refusal = el("p", { class: "selfattn-try-refused", role: "alert", "data-q": "refused", "data-g": g });
    var refusalText = el("span");
    var rescale = el("button", { type: "button", class: "selfattn-try-rescale" }, W.rescale);
    refusal.appendChild(refusalText);
    refusal.appendChild(document.createTextNode(" "));
    refusal.appendChild(rescale);
    refusal.hidden = true;
    // Given weights can be refused at any edit; other layouts only near the float range, so
    // their sections get the paragraph the first time the build would refuse.
    if (given) section.appendChild(refusal);

    var chart = barChart(W, group, section);
    if (chart) section.appendChild(chart.svg);

    var vbox = el("div", { class: "selfattn-try-scroll" });
    var vtable = el("table", { class: "selfattn-try-table selfattn-try-vectors" });
    var vhead = el("tr");
    vhead.appendChild(el("td"));
    axisNames.forEach(function (n) { vhead.appendChild(el("th", { scope: "col" }, n)); });
    vtable.appendChild(el("thead")).appendChild(vhead);
    var vbody = el("tbody");
    var vecCells = {};
    var outCells = [];
    function vecRow(key, label, h) {
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, label));
      vecCells[key + h] = axisNames.map(function (_, a) {
        var td = el("td", { class: "selfattn-try-num", "data-q": key, "data-g": g, "data-h": h, "data-a": a });
        tr.appendChild(td);
        if (key !== "baseline") outCells.push(td);
        return td;
      });
      vbody.appendChild(tr);
    }
    var contextWord = data.layout ? W.context : W.representation;
    group.heads.forEach(function (h, hi) {
      vecRow("context", contextWord + (h.name ? " (" + h.name + ")" : ""), hi);
      if (given) return;
      if (hi === 0) vecRow("baseline", W.baseline, 0);
      vecRow("shift", W.shift + (h.name ? " (" + h.name + ")" : ""), hi);
    });
    if (hasRef) {
      group.heads.forEach(function (h, hi) {
        if (hi !== group.reference) vecRow("difference", (data.layout ? W.difference + " " : "") + h.name + " − " + group.heads[group.reference].name, hi);
      });
    }
    vtable.appendChild(vbody);
    vbox.appendChild(vtable);
    section.appendChild(vbox);
    if (vecCells.baseline0) group.baseline.forEach(function (v, a) { vecCells.baseline0[a].textContent = formatRound(v); });
    var sepLine = el("p", { class: "selfattn-try-separation", "aria-live": "polite" });
    var sepCells = [];
    if (hasRef) {
      group.heads.forEach(function (_, x) {
        for (var y = x + 1; y < group.heads.length; y++) {
          var part = el("span", {}, (sepCells.length ? " · " : "") + W.separation + " " + group.heads[x].name + " ↔ " + group.heads[y].name + " = ");
          var num = el("span", { class: "selfattn-try-num", "data-q": "separation", "data-g": g, "data-h": x, "data-i": y });
          part.appendChild(num);
          sepLine.appendChild(part);
          sepCells.push(num);
        }
      });
      section.appendChild(sepLine);
    }

    function isEdited(i) {
      return state.values[g].some(function (vals, hh) { return !Object.is(vals[i], group.heads[hh].values[i]); });
    }

    function markEdited(i) {
      rows[i].classList.toggle("selfattn-try-edited", isEdited(i));
    }

    function edit(h, i, v) {
      state.values[g][h][i] = v;
      markEdited(i);
      update([g], false);
    }

    rescale.addEventListener("click", function () {
      state.values[g].forEach(function (vals, h) {
        var got = givenWeights(vals, data);
        if (got.error !== "sum" || !(got.total > 0)) return;
        vals.forEach(function (v, i) { setInput(h, i, v / got.total); });
      });
      update([g], false);
    });

    function setInput(h, i, v) {
      state.values[g][h][i] = v;
      if (!rows[i]) return;
      var it = rowInputs[i][h];
      it.num.value = String(v);
      it.range.value = String(v);
      it.num.setAttribute("aria-invalid", "false");
      markEdited(i);
    }

    function showSums(values) {
      sumCells.forEach(function (cell, h) {
        var total = 0;
        values[h].forEach(function (v) { total += v; });
        setNum(cell, formatRound(total), total);
      });
    }

    function show(out, blocked, refused) {
      if (given) showSums(state.values[g]);
      refusal.hidden = !blocked;
      if (blocked && !refusal.parentNode) section.insertBefore(refusal, box.nextSibling);
      if (chart) chart.svg.style.display = blocked ? "none" : "";
      if (blocked) {
        // The build would stop: no numbers, the reason instead.
        var why = [];
        var canRescale = false;
        if (refused) why.push(W.refused_build + " " + refused);
        else if (!out.failed) why.push(W.refused_other);
        else if (out.message) why.push(W.refused_build + " " + out.message);
        else {
          out.heads.forEach(function (r, hi) {
            if (!r.error) return;
            var name = group.heads[hi].name;
            if (r.error === "sum") {
              why.push(W.refused_sum.replace("{head}", name).replace("{sum}", pyRepr(r.total)));
              canRescale = canRescale || r.total > 0;
            } else why.push(W.refused_value.replace("{head}", name));
          });
        }
        say(refusalText, why.join(" "));
        rescale.hidden = !canRescale;
        lastOut = null;
        var weights = [];
        weightCells.forEach(function (cells) { weights = weights.concat(cells.filter(Boolean)); });
        outCells.concat(sepCells, weights).forEach(function (cell) {
          cell.textContent = "—";
          cell.removeAttribute("data-v");
        });
        say(summary, " · —");
        return;
      }
      lastOut = out;
      showWeights(out);
      if (chart) {
        chart.show(out.heads.map(function (r, hi) {
          return { name: group.heads[hi].name, weights: r.weights, top: r.top[0] };
        }), data.format, group.rows.map(function (_, i) { return isEdited(i); }));
      }
      out.heads.forEach(function (r, hi) {
        r.context.forEach(function (v, a) { setNum(vecCells["context" + hi][a], formatRound(v), v); });
        if (!given) r.shift.forEach(function (v, a) { setNum(vecCells["shift" + hi][a], formatRound(v), v); });
      });
      out.differences.forEach(function (d) {
        d.values.forEach(function (v, a) { setNum(vecCells["difference" + d.head][a], formatRound(v), v); });
      });
      out.separations.forEach(function (s, n) { setNum(sepCells[n], formatRound(s.value), s.value); });
      var parts = out.heads.map(function (r, hi) {
        var who = out.heads.length > 1 ? " (" + group.heads[hi].name + ")" : "";
        return W.top + who + ": " + r.top.map(function (i) { return group.rows[i].label; }).join(", ");
      });
      out.heads.forEach(function (r, hi) {
        var who = out.heads.length > 1 ? " (" + group.heads[hi].name + ")" : "";
        data.named.forEach(function (item, n) { parts.push(item.name + who + ": " + formatValue(r.named[n], data.format)); });
      });
      say(summary, " · " + parts.join(" · "));
    }

    function showWeights(out) {
      for (var i = first; i < last(); i++) {
        group.heads.forEach(function (h, hi) {
          if (h.mode !== "softmax") return;
          var w = out.heads[hi].weights[i];
          var cell = weightCells[i][hi];
          cell.textContent = formatValue(w, data.format);
          cell.setAttribute("data-v", String(w));
          cell.classList.toggle("selfattn-try-top", out.heads[hi].top[0] === i);
        });
      }
    }

    function reset() {
      rowInputs.forEach(function (its, i) {
        its.forEach(function (it) { setInput(it.h, i, group.heads[it.h].values[i]); });
      });
    }

    return { section: section, show: show, reset: reset };
  }

  // Every question's context and shift in one table, each linked to its section: the
  // questions can be compared without scrolling through their lines.
  function overviewTable(data, W, id) {
    var box = el("div", { class: "selfattn-try-scroll" });
    var table = el("table", { class: "selfattn-try-table selfattn-try-overview" });
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, W.question));
    data.columns.forEach(function (n) { head.appendChild(el("th", { scope: "col" }, W.context + " " + n)); });
    data.columns.forEach(function (n) { head.appendChild(el("th", { scope: "col" }, W.shift + " " + n)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = el("tbody");
    var cells = data.groups.map(function (group, g) {
      var tr = el("tr");
      var th = el("th", { scope: "row" });
      th.appendChild(breakable("a", { href: "#" + id + "g" + g + "-cap" }, group.label));
      tr.appendChild(th);
      var row = { context: [], shift: [] };
      ["context", "shift"].forEach(function (key) {
        data.columns.forEach(function (_, a) {
          var td = el("td", { class: "selfattn-try-num", "data-q": "o" + key, "data-g": g, "data-h": 0, "data-a": a });
          row[key].push(td);
          tr.appendChild(td);
        });
      });
      body.appendChild(tr);
      return row;
    });
    table.appendChild(body);
    box.appendChild(table);
    return {
      box: box,
      show: function (g, r) {
        ["context", "shift"].forEach(function (key) {
          cells[g][key].forEach(function (cell, a) {
            if (r) setNum(cell, formatRound(r[key][a]), r[key][a]);
            else {
              cell.textContent = "—";
              cell.removeAttribute("data-v");
            }
          });
        });
      },
    };
  }

  // Live regions speak when their text is set, even to the same text: set only changes, so
  // a screen reader hears the groups an edit moved, not every group of the example.
  function say(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function setNum(cell, text, v) {
    cell.textContent = text;
    cell.setAttribute("data-v", String(v));
  }

  function rangeFor(head, i) {
    var lo, hi, step;
    // Once per head, not per row: a question may read thousands of lines.
    if (!head.span) {
      head.span = [Infinity, -Infinity];
      head.values.forEach(function (v) { head.span = [Math.min(head.span[0], v), Math.max(head.span[1], v)]; });
    }
    var min = head.span[0];
    var max = head.span[1];
    if (head.mode === "softmax") {
      step = Math.pow(10, Math.round(Math.log10(Math.max(max - min, 1) / 50)));
      lo = Math.floor((min - 2 * Math.max(1, step * 20)) / step) * step;
      hi = Math.ceil((max + 2 * Math.max(1, step * 20)) / step) * step;
    } else {
      // Given weights: 0 to 1, or to a power of ten above them (weights to be normalised
      // may be written as percentages or counts).
      lo = 0;
      hi = max > 1 ? Math.pow(10, Math.ceil(Math.log10(max))) : 1;
      step = hi / 100;
    }
    var range = el("input", { type: "range", min: pyRepr(pyRound(lo, 6)), max: pyRepr(pyRound(hi, 6)), step: String(step) });
    range.value = String(head.values[i]);
    return range;
  }

  // One bar per candidate, the largest weights first when there are more than MAX_BARS (the
  // table lists them all); the rest are summed on one line, so the chart stays readable.
  var MAX_BARS = 30;
  var PAGED_ABOVE = 200;
  var PAGE_ROWS = 100;

  // The live chart follows the built figures' rules (issue 24): drawn at the width it is shown
  // (one SVG unit is one CSS pixel, redrawn when the column changes), labels and values 14 units,
  // a left-aligned title, colour roles with a second carrier (the top bar says so in words, an
  // edited row's label carries " *" as in the table), labels shortened at a space or "_" with the
  // full text in a <title>. Narrow columns put each label above its bar.
  var TEXT = 14, TITLE = 18, INSET = 8, NARROW_BELOW = 480;
  var measurer = null;

  function textWidth(text, size, weight, family) {
    if (!measurer) measurer = document.createElement("canvas").getContext("2d");
    if (!measurer) return text.length * size * 0.62;
    measurer.font = (weight || "400") + " " + size + "px " + family;
    return measurer.measureText(text).width;
  }

  // text, shortened to width: at the last space, "_", "·" or "/" that fits, else by characters.
  function fitText(text, width, measure) {
    if (measure(text) <= width) return text;
    var chars = Array.from(text);
    var best = "";
    for (var k = chars.length - 1; k > 0; k--) {
      var head = chars.slice(0, k).join("");
      if (measure(head + "…") > width) continue;
      if (!best) best = head;
      if (/[\s_·/]$/.test(head) || /^[\s_·/]/.test(chars[k])) return head.replace(/[\s_·/]+$/, "") + "…";
    }
    return (best || chars[0]) + "…";
  }

  // text in at most maxLines lines of width, broken at spaces only; a word or a last line that
  // does not fit is shortened (fitText). Returns the lines.
  function wrapText(text, width, maxLines, measure) {
    var words = text.split(" ");
    var lines = [];
    var line = "";
    for (var k = 0; k < words.length; k++) {
      var next = line ? line + " " + words[k] : words[k];
      if (!line || measure(next) <= width) {
        line = next;
        continue;
      }
      lines.push(line);
      line = words[k];
    }
    lines.push(line);
    if (lines.length > maxLines) lines = lines.slice(0, maxLines - 1).concat([lines.slice(maxLines - 1).join(" ")]);
    return lines.map(function (l) { return fitText(l, width, measure); });
  }

  function svgEl(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A text that may have been shortened: the full text rides in a <title> beside it, in a <g>.
  function labelText(parent, full, shown, attrs) {
    var text = svgEl("text", attrs, shown);
    if (shown === full) {
      parent.appendChild(text);
      return text;
    }
    var g = svgEl("g", { class: "selfattn-try-shortened" });
    g.appendChild(svgEl("title", {}, full));
    g.appendChild(text);
    parent.appendChild(g);
    return text;
  }

  function barChart(W, group, host) {
    var n = group.rows.length;
    var shown = Math.min(n, MAX_BARS);
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "selfattn-try-chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", W.chart + " — " + group.label);
    var last = null;
    var drawnWidth = 0;
    var hostWidth = 0;
    var family = null;
    var widths = {};

    // series: one per head, {name, weights, top}; several heads give each candidate one bar per
    // head, each bar named in words (the name is the series' carrier, not its colour).
    function draw(series, spec, edited) {
      // The column's width and font, read once (reading them after an edit's DOM writes would
      // force a layout of the page on every keystroke); the observer below keeps the width.
      if (!hostWidth) hostWidth = Math.round(host.clientWidth);
      var width = hostWidth || 340;
      drawnWidth = width;
      if (!family) family = getComputedStyle(host).fontFamily || "sans-serif";
      var measure = function (t, w, size) {
        var key = (w || "400") + "/" + (size || TEXT) + "/" + t;
        if (!(key in widths)) widths[key] = textWidth(t, size || TEXT, w, family);
        return widths[key];
      };
      var first = series[0].weights;
      var order = n > shown ? topRows(first, shown) : first.map(function (_, i) { return i; });
      var labels = order.map(function (i) { return group.rows[i].label + (edited[i] ? " *" : ""); });
      // An edited row's label is bold (the stylesheet's input-change role).
      var labelWeight = function (k) { return edited[order[k]] ? "700" : "400"; };
      var longest = 0;
      labels.forEach(function (t, k) { longest = Math.max(longest, measure(t, labelWeight(k))); });
      var many = series.length > 1;
      var valueOf = function (s, i) {
        return (many ? s.name + " " : "") + formatValue(s.weights[i], spec) + (i === s.top ? " · " + W.top : "");
      };
      var valueW = 0;
      var scale = 0;
      series.forEach(function (s) {
        order.forEach(function (i) {
          valueW = Math.max(valueW, measure(valueOf(s, i), i === s.top ? "700" : "400"));
          scale = Math.max(scale, s.weights[i]);
        });
      });
      // The longest bar spans the room (weights are written beside the bars).
      if (!(scale > 0) || !isFinite(scale)) scale = 1;
      // A narrow column puts labels above their bars, unless they are short (line ids); so do
      // several heads, whose bars a label beside them would not name.
      var narrow = many || (width < NARROW_BELOW && longest > width * 0.3);
      var titleSize = width < NARROW_BELOW ? 16 : TITLE;
      var titleFull = W.chart + " — " + group.label;
      var right = width - INSET;
      var labelW = 0, barH = 16, step = many ? 22 : 0, rowH, barX, labelY, barY;
      if (narrow) {
        barX = INSET; labelY = 15; barY = 20;
        rowH = barY + barH + (series.length - 1) * step + 4;
      } else {
        labelW = Math.min(Math.ceil(longest), Math.round(width * 0.35));
        barH = 18; rowH = 28; barX = INSET + labelW + 10; labelY = 19; barY = 5;
      }
      var barW = Math.max(20, right - barX - 6 - valueW);
      var titleLines = wrapText(titleFull, right - INSET, 2, function (t) { return measure(t, "700", titleSize); });
      var lineH = Math.round(titleSize * 1.3);
      var top0 = 12 + titleLines.length * lineH;
      var height = top0 + order.length * rowH + (n > shown ? rowH : 0) + 6;
      svg.setAttribute("viewBox", "0 0 " + width + " " + height);
      svg.textContent = "";
      // The title, left-aligned, on one or two lines (tspans); its full text in a <title> when shortened.
      var title = svgEl("text", {
        x: INSET, y: 4 + lineH - Math.round(titleSize * 0.3), "font-size": titleSize, "font-weight": 700, class: "selfattn-try-charttitle",
      });
      titleLines.forEach(function (l, k) {
        title.appendChild(svgEl("tspan", { x: INSET, dy: k ? lineH : 0 }, l));
      });
      if (titleLines.join(" ") === titleFull) svg.appendChild(title);
      else {
        var wrap = svg.appendChild(svgEl("g", { class: "selfattn-try-shortened" }));
        wrap.appendChild(svgEl("title", {}, titleFull));
        wrap.appendChild(title);
      }
      // The zero line of the bars: an axis, grey.
      svg.appendChild(svgEl("line", {
        x1: barX, x2: barX, y1: top0, y2: top0 + order.length * rowH, class: "selfattn-try-axis",
      }));
      order.forEach(function (i, k) {
        var y = top0 + k * rowH;
        var labelRoom = narrow ? right - INSET : labelW;
        labelText(svg, group.rows[i].label, fitText(labels[k], labelRoom, function (t) { return measure(t, labelWeight(k)); }), {
          x: INSET, y: y + labelY, "font-size": TEXT, class: "selfattn-try-barlabel" + (edited[i] ? " selfattn-try-baredited" : ""),
        });
        series.forEach(function (s, h) {
          var by = y + barY + h * step;
          var len = Math.max(0, Math.min(1, s.weights[i] / scale)) * barW;
          svg.appendChild(svgEl("rect", {
            x: barX, y: by, width: len.toFixed(2), height: barH,
            class: "selfattn-try-barfill" + (i === s.top ? " selfattn-try-bartop" : ""),
          }));
          svg.appendChild(svgEl("text", {
            x: (barX + len + 6).toFixed(2), y: by + barH - 3, "font-size": TEXT,
            "font-weight": i === s.top ? 700 : 400, class: "selfattn-try-barvalue",
          }, valueOf(s, i)));
        });
      });
      if (n > shown) {
        var inChart = {};
        order.forEach(function (i) { inChart[i] = true; });
        var others = 0;
        for (var i = 0; i < n; i++) if (!inChart[i]) others += first[i];
        var restFull = "+ " + (n - shown) + " · " + W.weight + " " + formatValue(others, spec);
        svg.appendChild(svgEl("text", { x: INSET, y: top0 + order.length * rowH + 20, "font-size": TEXT }, restFull));
      }
    }

    // A web font that arrives after the first drawing changes every text's width.
    if (document.fonts && document.fonts.ready) {
      document.fonts.ready.then(function () {
        widths = {};
        family = null;
        if (last) draw.apply(null, last);
      });
    }
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(function (entries) {
        hostWidth = Math.round(entries[entries.length - 1].contentRect.width);
        if (last && hostWidth && hostWidth !== drawnWidth) draw.apply(null, last);
      }).observe(host);
    }
    return {
      svg: svg,
      show: function (series, spec, edited) {
        last = [series, spec, edited || []];
        draw.apply(null, last);
      },
    };
  }

  function editedCsv(data, state) {
    var edits = [];
    data.groups.forEach(function (group, g) {
      group.heads.forEach(function (head, h) {
        head.values.forEach(function (orig, i) {
          var v = state.values[g][h][i];
          if (!Object.is(v, orig) && head.cells[i]) edits.push([head.cells[i][0], head.cells[i][1], String(v)]);
        });
      });
    });
    edits.sort(function (a, b) { return b[0] - a[0]; });
    var text = data.csv.text !== null
      ? Promise.resolve(data.csv.text)
      : fetch(data.csv.href).then(function (r) { return r.text(); });
    // The cells' offsets are in the text without its first BOM, as the build decoded it and as
    // fetch's text() gives it; a second BOM is text (stripping it would shift every cell).
    return text.then(function (t) {
      edits.forEach(function (e) { t = t.slice(0, e[0]) + e[2] + t.slice(e[1]); });
      return (data.csv.bom ? "\ufeff" : "") + t;
    });
  }

  function scan() {
    var roots = document.querySelectorAll("[data-selfattn-try]");
    for (var i = 0; i < roots.length; i++) init(roots[i]);
  }

  window.selfattnTry = {
    scan: scan,
    softmax: softmax,
    exp: portableExp,
    project: project,
    computeGroup: computeGroup,
    formatRound: formatRound,
    formatValue: formatValue,
  };
  // Material for MkDocs (navigation.instant) announces each swapped-in page on document$;
  // init is idempotent per view, so a page announced twice is fine.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(scan);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
