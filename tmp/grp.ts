import { listSites } from '../src/eval/corpus.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { groupSource } from '../src/run/sites.ts';
import { parsePage } from '../src/site/page.ts';
import { LabelTable } from '../src/html/labels.ts';
let g = 0, p = 0, rd = 0;
for (let rep = 0; rep < 3; rep++) for (const s of listSites()) {
  const src = new DirSource(s.pagesDir);
  let c0 = process.cpuUsage(); await groupSource(src, () => {}); let c = process.cpuUsage(c0); if (rep) g += c.user + c.system;
  c0 = process.cpuUsage(); const pages = []; for await (const r of src.pages()) if (r.ok) pages.push(r.page); c = process.cpuUsage(c0); if (rep) rd += c.user + c.system;
  c0 = process.cpuUsage(); const l = new LabelTable(); for (const pg of pages) parsePage(pg, l); c = process.cpuUsage(c0); if (rep) p += c.user + c.system;
}
console.log('group', (g/1000).toFixed(0), 'ms; read', (rd/1000).toFixed(0), 'ms; parse', (p/1000).toFixed(0), 'ms; group/parse', (g/p).toFixed(2));
