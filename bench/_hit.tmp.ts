import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { loadCorpusSites } from './common.ts';
const sites = loadCorpusSites();
const orig = LabelTable.prototype.element;
let misses = 0, calls = 0;
LabelTable.prototype.element = function (t, n, v) { misses++; return orig.call(this, t, n, v); };
const o2 = LabelTable.prototype.elementFromSource;
LabelTable.prototype.elementFromSource = function (s, t, n, v) { calls++; return o2.call(this, s, t, n, v); };
for (const s of sites) { const labels = new LabelTable(); misses = calls = 0; for (const p of s.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml }); console.log(s.name, calls, misses, (misses/calls*100).toFixed(1)+'%', 'labels', labels.size); }
