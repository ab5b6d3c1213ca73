/* What tests/browser/test_browser_try_phone.py measures of every try view on a page: sideways
   overflow, touch targets, the live chart's sizes, title, contrast, overlaps and shortened
   labels. Evaluated by Playwright as one arrow function. */
() => {
  const out = {overflow: [], small: [], chart: [], contrast: [], overlap: [], shortened: []};
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const rgb = s => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) return c;
    }
    return [255, 255, 255, 1];
  };
  const visible = el => {
    if (el.closest('.selfattn-try-sr, [hidden], thead')) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  out.page = [document.documentElement.scrollWidth, window.innerWidth];
  out.scheme = document.body.getAttribute('data-md-color-scheme');
  for (const root of document.querySelectorAll('.selfattn-try')) {
    const box = root.getBoundingClientRect();
    for (const el of root.querySelectorAll('*')) {
      if (!visible(el) || el.closest('svg') && el.tagName !== 'svg') continue;
      const r = el.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) {
        out.overflow.push([el.tagName, el.className.baseVal ?? el.className, Math.round(r.left), Math.round(r.right)]);
      }
      // (a text box scrolling its own long number is not the page scrolling)
      if (el.tagName !== 'INPUT' && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
        out.overflow.push(['scroll', el.className, el.scrollWidth, el.clientWidth]);
      }
      if (el.matches('input[type=range]')) {
        const c = rgb(getComputedStyle(el).accentColor);
        out.contrast.push(['slider', el.getAttribute('aria-label'), Math.round(ratio(c, background(el)) * 100) / 100]);
      }
      if (el.matches('input, button, select, a, textarea')) {
        if (r.width < 44 || r.height < 44) out.small.push([el.tagName, el.type || el.textContent.slice(0, 20), r.width, r.height]);
      }
    }
    for (const svg of root.querySelectorAll('svg.selfattn-try-chart')) {
      if (!visible(svg)) continue;
      const vb = svg.viewBox.baseVal;
      const shown = svg.getBoundingClientRect();
      const px = shown.width / vb.width;
      const page = background(svg.parentElement);
      const texts = Array.from(svg.querySelectorAll('text'));
      const title = svg.querySelector('.selfattn-try-charttitle');
      const tb = title.getBBox();
      out.chart.push({
        px: px,
        width: vb.width,
        title: [parseFloat(getComputedStyle(title).fontSize), getComputedStyle(title).textAnchor, tb.x, title.textContent],
        sizes: texts.map(t => parseFloat(getComputedStyle(t).fontSize)),
        displayed: Math.min(...texts.map(t => parseFloat(getComputedStyle(t).fontSize) * px)),
        outside: texts.filter(t => { const b = t.getBBox(); return b.x < 4 || b.y < 0 || b.x + b.width > vb.width - 4 || b.y + b.height > vb.height; }).map(t => t.textContent),
        tops: Array.from(svg.querySelectorAll('rect.selfattn-try-bartop')).map(r => r.nextElementSibling.textContent),
        fills: Array.from(new Set(Array.from(svg.querySelectorAll('rect')).map(r => getComputedStyle(r).fill))),
        bars: svg.querySelectorAll('rect').length,
      });
      for (const r of svg.querySelectorAll('rect, line')) {
        const c = rgb(r.tagName === 'line' ? getComputedStyle(r).stroke : getComputedStyle(r).fill);
        out.contrast.push([r.tagName, r.getAttribute('class'), Math.round(ratio(c, page) * 100) / 100]);
      }
      for (const t of texts) {
        const c = rgb(getComputedStyle(t).fill);
        out.contrast.push(['text', t.textContent.slice(0, 20), Math.round(ratio(c, page) * 100) / 100]);
      }
      const boxes = texts.map(t => [t.getBBox(), t.textContent]);
      const marks = Array.from(svg.querySelectorAll('rect')).map(r => [r.getBBox(), 'bar']);
      const hit = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
      boxes.forEach(([a, at], k) => {
        boxes.slice(k + 1).forEach(([b, bt]) => { if (hit(a, b)) out.overlap.push([at, bt]); });
        marks.forEach(([b]) => { if (b.width > 0 && hit(a, b)) out.overlap.push([at, 'bar']); });
      });
      for (const t of texts) {
        if (!t.textContent.endsWith('…')) continue;
        const full = t.parentElement.tagName === 'g' ? t.parentElement.querySelector('title') : null;
        out.shortened.push([t.textContent, full ? full.textContent : null]);
      }
    }
  }
  return out;
}
