import { DirSource } from '../src/site/dir-source.ts';
import { pageText } from '../src/site/page.ts';
import { groupSource, jaccard, templateEvidence } from '../src/run/sites.ts';
import { listSites, listSamesite } from '../src/eval/corpus.ts';
const dirs = [...listSites().map((s) => s.pagesDir), ...listSamesite().map((g) => g.dir)];
for (const d of dirs) {
  const src = new DirSource(d);
  const groups = (await groupSource(src, () => {}))!;
  if (groups.length === 1) continue;
  const ev = new Map<string, Int32Array>();
  for await (const r of src.pages()) if (r.ok) ev.set(r.page.key, templateEvidence(pageText(r.page).text));
  for (const g of groups.filter((x) => x.keys.length < 5)) {
    for (const k of g.keys) {
      let best = 0;
      for (const [k2, e] of ev) if (k2 !== k) best = Math.max(best, jaccard(ev.get(k)!, e));
      console.log(d.split('/').slice(-2).join('/'), k, 'features', ev.get(k)!.length, 'best', best.toFixed(3));
    }
  }
}
