import { parseDocument, Parser } from 'htmlparser2';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { loadCorpusSites, median } from './common.ts';
const sites = loadCorpusSites();
const noop = () => {};
const variants: Record<string, () => void> = {
  fast: () => { for (const s of sites) { const labels = new LabelTable(); for (const p of s.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml }); } },
  dom: () => { for (const s of sites) for (const p of s.pages) parseDocument(p.html, { recognizeSelfClosing: p.xhtml }); },
  sax: () => { for (const s of sites) for (const p of s.pages) new Parser({ onopentag: noop, onclosetag: noop, ontext: noop, oncomment: noop, onattribute: noop }, { recognizeSelfClosing: p.xhtml }).end(p.html); },
  saxNoAttr: () => { for (const s of sites) for (const p of s.pages) new Parser({ onopentag: noop, onclosetag: noop, ontext: noop, oncomment: noop }, { recognizeSelfClosing: p.xhtml }).end(p.html); },
};
const times: Record<string, number[]> = {};
for (let r = 0; r < 10; r++) for (const [k, f] of Object.entries(variants)) { const t0 = performance.now(); f(); (times[k] ??= []).push(performance.now() - t0); }
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v.slice(2))]));
console.log(Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(0)}ms`).join('  '), ' share', (m.dom! / m.fast! * 100).toFixed(0) + '%');
