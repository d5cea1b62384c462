/**
 * The HTML report of a content run: `index.html` to open in a browser, offline (no CDN, no external
 * resource; one small inline script, allowed by its hash, sorts the page table and opens previews): the
 * table of pages (template fraction, main content) sorted by a click on a column; a click on a page opens
 * its preview beside the table, in a sandboxed iframe created then (preview.ts: the page's own HTML with
 * its stylesheets and images, and an overlay made by injected CSS on the `data-gabarit` marks: template
 * parts greyed, main content outlined); the template found (template.json of the chosen engine), figures
 * per engine, and an inline SVG chart of the template fraction of each page.
 */
import { createHash } from 'node:crypto';
import { contentRoots } from '../content/format.ts';
import type { PageMarks } from '../template/result.ts';
import type { PreviewAsset } from './preview.ts';

/** One page as the report shows it. */
export interface ReportPage {
  key: string;
  url: string;
  /** Fraction of the body's words that are template and not main content (build.ts, `textShares`). */
  templateFraction: number;
  /** Words of main content. */
  contentWords: number;
  /** Fraction of the body's words that are main content (0 when the page has no text); with templateFraction, at most 1. */
  contentFraction: number;
  /** Its preview file, a path under the report folder (undefined beyond the pages shown). */
  preview?: string;
  /** The main content as text (its start, for the pages shown). */
  contentText?: string;
}

/** Figures of one engine on the source. */
export interface EngineFigures {
  engine: string;
  pages: number;
  failed: number;
  meanTemplateFraction: number;
  ms: number;
  error?: string;
}

/** Everything the report shows. */
export interface ReportData {
  source: string;
  method: string;
  reason: string;
  pages: ReportPage[];
  engines: EngineFigures[];
  /** What the chosen engine learned (template.json). */
  template: unknown;
  failures: Array<{ key: string; message: string }>;
  generated: string;
  /** The preview files (`preview` of the pages), written beside index.html. */
  previews: Array<{ file: string; html: string }>;
  /** Files of the source the previews use (copied beside them). */
  assets: PreviewAsset[];
  /** Stylesheets and images the shown pages name that are not in the source: their previews show without them. */
  missingResources: number;
}

/**
 * The marks of a page for the overlay: template elements `data-gabarit="template"`, the outermost
 * main-content elements `data-gabarit="content"`.
 */
export function overlayMarks(m: PageMarks): (i: number) => Readonly<Record<string, string>> | undefined {
  const roots = new Set(contentRoots(m));
  const tpl = m.template;
  return (i) => (tpl[i] === 1 ? TEMPLATE : roots.has(i) ? CONTENT : undefined);
}
const TEMPLATE = { 'data-gabarit': 'template' } as const;
const CONTENT = { 'data-gabarit': 'content' } as const;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—';
}

/**
 * Inline SVG bar chart, one bar per page: the fraction of its text that is template (grey, bottom), main
 * content (orange) and neither (pale: text the template engine left that the main block did not take).
 */
export function fractionChart(pages: readonly ReportPage[]): string {
  const barW = Math.max(4, Math.min(24, Math.floor(800 / Math.max(1, pages.length))));
  const h = 160;
  const w = Math.max(420, pages.length * barW + 40);
  const bars = pages
    .map((p, i) => {
      const th = Math.round(Math.min(1, p.templateFraction) * h);
      const ch = Math.min(h - th, Math.round(Math.max(0, p.contentFraction) * h));
      const x = 30 + i * barW;
      return `<g><title>${esc(p.key)}: ${pct(p.templateFraction)} template, ${pct(p.contentFraction)} main content</title>` +
        `<rect x="${x}" y="${10 + h - th}" width="${barW - 1}" height="${th}" fill="#9e9e9e"/>` +
        `<rect x="${x}" y="${10 + h - th - ch}" width="${barW - 1}" height="${ch}" fill="#e4572e"/>` +
        `<rect x="${x}" y="10" width="${barW - 1}" height="${h - th - ch}" fill="#f3d9b1"/></g>`;
    })
    .join('');
  return `<svg class="chart" role="img" aria-label="template and main content fraction per page" width="${w}" height="${h + 30}" viewBox="0 0 ${w} ${h + 30}" xmlns="http://www.w3.org/2000/svg">
<text x="0" y="18" font-size="10">100%</text><text x="0" y="${h + 10}" font-size="10">0%</text>${bars}
<text x="30" y="${h + 26}" font-size="11">each bar a page: grey template, orange main content, pale the rest</text></svg>`;
}

/**
 * The report's script: sorts a table with class `sortable` by the column whose header button is clicked
 * (numbers by each cell's `data-v`, text by its text; a second click reverses), and opens a page's
 * preview (a link `#p<n>` in the table or the address) in the iframe of `#preview`, created on the first
 * opening and reused.
 */
const SCRIPT = `for (const t of document.querySelectorAll('table.sortable')) {
  const heads = [...t.tHead.rows[0].cells];
  heads.forEach((th, col) => th.querySelector('button').addEventListener('click', () => {
    const down = th.getAttribute('aria-sort') === 'ascending';
    for (const h of heads) h.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
    const num = th.dataset.type === 'num';
    const val = (r) => { const c = r.cells[col]; if (!num) return c.textContent.trim(); const v = Number(c.dataset.v); return Number.isNaN(v) ? -Infinity : v; };
    const rows = [...t.tBodies[0].rows].sort((a, b) => { const x = val(a), y = val(b); const d = num ? x - y : x.localeCompare(y); return down ? -d : d; });
    t.tBodies[0].append(...rows);
  }));
}
const panel = document.getElementById('preview');
function open(hash) {
  const a = /^#p[0-9]+$/.test(hash) ? document.querySelector('a.open[href="' + hash + '"]') : null;
  if (!a) return;
  for (const r of document.querySelectorAll('tr.current')) r.classList.remove('current');
  a.closest('tr').classList.add('current');
  let f = panel.querySelector('iframe');
  if (!f) { f = document.createElement('iframe'); f.setAttribute('sandbox', 'allow-same-origin'); panel.querySelector('.frame').append(f); }
  f.title = a.dataset.key;
  f.src = a.dataset.preview;
  panel.querySelector('h3').textContent = a.dataset.key;
  panel.querySelector('.figures').textContent = a.dataset.figures;
  panel.querySelector('pre').textContent = document.getElementById('t' + hash.slice(2)).content.textContent;
  panel.hidden = false;
}
addEventListener('hashchange', () => open(location.hash));
open(location.hash);`;
const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

function sortHead(label: string, type: 'num' | 'text'): string {
  return `<th data-type="${type}"><button type="button">${esc(label)}</button></th>`;
}

function numCell(v: number, text: string): string {
  return `<td data-v="${Number.isFinite(v) ? v : 'NaN'}">${text}</td>`;
}

/** The report's index.html. */
export function renderReport(d: ReportData): string {
  const mean = d.pages.length > 0 ? d.pages.reduce((a, p) => a + p.templateFraction, 0) / d.pages.length : NaN;
  const engines = d.engines
    .map((e) => `<tr><td>${esc(e.engine)}${e.engine === d.method ? ' (chosen)' : ''}</td>${numCell(e.pages, String(e.pages))}${numCell(e.failed, String(e.failed))}${numCell(e.meanTemplateFraction, pct(e.meanTemplateFraction))}${numCell(e.ms, `${(e.ms / 1000).toFixed(2)} s`)}<td>${esc(e.error ?? '')}</td></tr>`)
    .join('\n');
  const rows = d.pages
    .map((p, i) => {
      const figures = `${pct(p.templateFraction)} template · ${pct(p.contentFraction)} main content · ${p.contentWords} words of main content`;
      const name = p.preview === undefined
        ? esc(p.key)
        : `<a class="open" href="#p${i}" data-preview="${esc(p.preview.split('/').map(encodeURIComponent).join('/'))}" data-key="${esc(p.key)}" data-figures="${esc(figures)}">${esc(p.key)}</a><template id="t${i}">${esc(p.contentText ?? '')}</template>`;
      return `<tr><td>${name}</td>${numCell(p.templateFraction, pct(p.templateFraction))}${numCell(p.contentFraction, pct(p.contentFraction))}${numCell(p.contentWords, String(p.contentWords))}</tr>`;
    })
    .join('\n');
  const shown = d.pages.filter((p) => p.preview !== undefined).length;
  const missing = d.missingResources === 0
    ? ''
    : `<p class="note">${d.missingResources} stylesheets or images that the shown pages name are not in the source (another site, or a WARC or a crawl, whose copies are not kept): their previews show without them.</p>`;
  const failures = d.failures.length === 0 ? '' : `<h2>Pages that failed</h2><ul>${d.failures.map((f) => `<li>${esc(f.key)}: ${esc(f.message)}</li>`).join('')}</ul>`;
  let template = JSON.stringify(d.template, null, 1) ?? 'null';
  if (template.length > 200_000) template = template.slice(0, 200_000) + '\n… (truncated; see template.json)';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gabarit report: ${esc(d.source)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${SCRIPT_HASH}'; frame-src 'self' file:">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:left}
th button{font:inherit;font-weight:bold;border:0;background:none;padding:0;cursor:pointer}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
tr.current{background:#fdebd3}
.split{display:grid;grid-template-columns:minmax(18em,max-content) 1fr;gap:1.5em;align-items:start}
#preview{position:sticky;top:0}
#preview iframe{width:100%;height:80vh;border:1px solid #999;background:#fff}
.legend span{display:inline-block;padding:0 .5em;margin-right:1em}
.t{background:#d8d8d8;color:#555}.c{outline:3px solid #e4572e}
pre{max-height:300px;overflow:auto;background:#f6f6f6;padding:.5em}
details.text pre{white-space:pre-wrap}
.note{color:#8a4b00}
small,.figures{color:#666;font-weight:normal}
</style></head><body>
<h1>gabarit report</h1>
<p>Source: <code>${esc(d.source)}</code> · ${d.pages.length} pages · template engine: <b>${esc(d.method)}</b> (${esc(d.reason)}) · mean template fraction ${pct(mean)} · generated ${esc(d.generated)}</p>
<h2>Figures per engine</h2>
<table class="sortable" id="engines"><thead><tr>${sortHead('engine', 'text')}${sortHead('pages', 'num')}${sortHead('failed', 'num')}${sortHead('mean template fraction', 'num')}${sortHead('time', 'num')}${sortHead('error', 'text')}</tr></thead><tbody>
${engines}</tbody></table>
<h2>Template and main content per page</h2>
${fractionChart(d.pages)}
<h2>Pages</h2>
<p>Click a column to sort by it; click a page (${shown} of the ${d.pages.length} have a preview: <code>--max-shown</code>) to see it with the overlay:</p>
<p class="legend"><span class="t">template (greyed)</span><span class="c">main content (outlined)</span></p>
${missing}
<div class="split">
<table class="sortable" id="pages"><thead><tr>${sortHead('page', 'text')}${sortHead('template', 'num')}${sortHead('main content', 'num')}${sortHead('main content words', 'num')}</tr></thead><tbody>
${rows}</tbody></table>
<section id="preview" hidden><h3></h3><p class="figures"></p><div class="frame"></div>
<details class="text"><summary>main content as text</summary><pre></pre></details></section>
</div>
${failures}
<h2>Template found (${esc(d.method)})</h2>
<details><summary>template.json</summary><pre>${esc(template)}</pre></details>
<script>${SCRIPT}</script>
</body></html>
`;
}
