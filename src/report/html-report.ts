/**
 * The HTML report of a content run: one self-contained file to open in a browser, offline (no
 * script, no CDN, no external resource): for each page, the page's own HTML in a sandboxed iframe
 * (`srcdoc`) with an overlay made by injected CSS on the `data-gabarit` marks (template parts greyed, main
 * content outlined), the fraction of the page that is template, the template found (template.json of the
 * chosen engine), figures per engine, and an inline SVG chart of the template fraction of each page.
 */
import { serialize } from '../html/serialize.ts';
import { contentRoots } from '../content/format.ts';
import type { PageMarks } from '../template/result.ts';
import { OVERLAY_STYLE } from '../output.ts';

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
  /** The page with marks and the overlay, for the iframe (undefined beyond the pages shown). */
  srcdoc?: string;
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
}

/** The overlay (the output contract's, output.ts), injected into each page's head. No network: a CSP forbids every fetch. */
const OVERLAY_HEAD = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">${OVERLAY_STYLE}`;

/**
 * A page's HTML with its marks for the overlay: template elements `data-gabarit="template"`, the outermost
 * main-content elements `data-gabarit="content"`, and the overlay style injected in its head.
 */
export function overlayHtml(m: PageMarks): string {
  const roots = new Set(contentRoots(m));
  const tpl = m.template;
  return serialize(m.tree, {
    mark: (i) => (tpl[i] === 1 ? { 'data-gabarit': 'template' } : roots.has(i) ? { 'data-gabarit': 'content' } : undefined),
    inject: OVERLAY_HEAD,
  });
}

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

/** The report as one HTML document. */
export function renderReport(d: ReportData): string {
  const mean = d.pages.length > 0 ? d.pages.reduce((a, p) => a + p.templateFraction, 0) / d.pages.length : NaN;
  const engines = d.engines
    .map((e) => `<tr><td>${esc(e.engine)}${e.engine === d.method ? ' (chosen)' : ''}</td><td>${e.pages}</td><td>${e.failed}</td><td>${pct(e.meanTemplateFraction)}</td><td>${(e.ms / 1000).toFixed(2)} s</td><td>${esc(e.error ?? '')}</td></tr>`)
    .join('\n');
  const rows = d.pages
    .map((p, i) => `<tr><td><a href="#p${i}">${esc(p.key)}</a></td><td>${pct(p.templateFraction)}</td><td>${pct(p.contentFraction)}</td><td>${p.contentWords}</td></tr>`)
    .join('\n');
  const frames = d.pages
    .map((p, i) =>
      p.srcdoc === undefined
        ? ''
        : `<section class="page" id="p${i}"><h3>${esc(p.key)} <small>${pct(p.templateFraction)} template · ${p.contentWords} words of main content</small></h3>
<iframe sandbox="" loading="lazy" title="${esc(p.key)}" srcdoc="${esc(p.srcdoc)}"></iframe>
<details class="text"><summary>main content as text</summary><pre>${esc(p.contentText ?? '')}</pre></details></section>`,
    )
    .join('\n');
  const failures = d.failures.length === 0 ? '' : `<h2>Pages that failed</h2><ul>${d.failures.map((f) => `<li>${esc(f.key)}: ${esc(f.message)}</li>`).join('')}</ul>`;
  let template = JSON.stringify(d.template, null, 1) ?? 'null';
  if (template.length > 200_000) template = template.slice(0, 200_000) + '\n… (truncated; see template.json)';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gabarit report: ${esc(d.source)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self' about: data:">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:left}
iframe{width:100%;height:520px;border:1px solid #999;background:#fff}
.legend span{display:inline-block;padding:0 .5em;margin-right:1em}
.t{background:#d8d8d8;color:#555}.c{outline:3px solid #e4572e}
pre{max-height:300px;overflow:auto;background:#f6f6f6;padding:.5em}
details.text pre{white-space:pre-wrap}
small{color:#666;font-weight:normal}
</style></head><body>
<h1>gabarit report</h1>
<p>Source: <code>${esc(d.source)}</code> · ${d.pages.length} pages · template engine: <b>${esc(d.method)}</b> (${esc(d.reason)}) · mean template fraction ${pct(mean)} · generated ${esc(d.generated)}</p>
<p class="legend"><span class="t">template (greyed)</span><span class="c">main content (outlined)</span></p>
<h2>Figures per engine</h2>
<table><tr><th>engine</th><th>pages</th><th>failed</th><th>mean template fraction</th><th>time</th><th>error</th></tr>
${engines}</table>
<h2>Template and main content per page</h2>
${fractionChart(d.pages)}
<h2>Pages</h2>
<table><tr><th>page</th><th>template</th><th>main content</th><th>main content words</th></tr>
${rows}</table>
${failures}
<h2>Template found (${esc(d.method)})</h2>
<details><summary>template.json</summary><pre>${esc(template)}</pre></details>
<h2>Pages with the overlay</h2>
${frames}
</body></html>
`;
}
