import { getSite } from './src/eval/corpus.ts';
import { DirSource } from './src/site/dir-source.ts';
import { loadSitePagelets } from './src/analysis/site-pagelets.ts';
import { hits, pageletGraph, top } from './src/analysis/hits.ts';
import { cocited } from './src/analysis/cocitation.ts';
const site = getSite(process.argv[2] ?? 'httpx-docs');
const sp = await loadSitePagelets(new DirSource(site.pagesDir, { entry: site.entry }));
for (const drop of [false, true]) {
  const g = pageletGraph(sp, { dropTemplates: drop, external: false });
  const s = hits(g);
  const th = top(s.hub, 10);
  console.log('drop', drop, 'hubs', g.hubs.length, 'auth', g.authorities.length, 'template among top-10 hubs', th.filter(([h]) => g.hubTemplate[h]).length);
  console.log(' hubs', th.slice(0, 5).map(([h, v]) => `${g.hubs[h]} ${v.toFixed(3)} ${sp.pages[sp.pages.findIndex(p => g.hubs[h]!.startsWith(p.key + '#'))]!.text[Number(g.hubs[h]!.split('#')[1])]!.slice(0, 40).replace(/\n/g, ' ')}`));
  console.log(' auth', top(s.authority, 8).map(([a, v]) => `${g.authorities[a]!.replace('http://local.invalid/', '')} ${v.toFixed(3)}`).join(' | '));
}
console.log(cocited(sp, 'http://local.invalid/advanced/clients/index.html').slice(0, 5));
console.log(cocited(sp, 'http://local.invalid/advanced/clients/index.html', { ignoreTemplates: false, pageWeight: 1 }).slice(0, 5));
