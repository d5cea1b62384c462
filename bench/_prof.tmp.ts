import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { loadCorpusSites } from './common.ts';
const sites = loadCorpusSites();
for (let r = 0; r < 3; r++) for (const s of sites) { const labels = new LabelTable(); for (const p of s.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml }); }
