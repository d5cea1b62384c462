import { LabelTable } from './src/html/labels.ts';
import { getSite } from './src/eval/corpus.ts';
import { DirSource } from './src/site/dir-source.ts';
import { runPagelets } from './src/template/pagelets/engine.ts';
import { textOf } from './src/html/text.ts';
const site = getSite(process.argv[2]!);
const want = process.argv[3]!;
await runPagelets({
  source: new DirSource(site.pagesDir, { entry: site.entry }), labels: new LabelTable(), options: { global: true, workers: 0, backend: 'memory' },
  onPage: async (m, extra) => {
    if (m.key !== want) return;
    console.log(extra);
    const t = m.tree;
    for (let i = 0; i < t.size; i++) if (m.template[i] && (i === 0 || !m.template[t.parent[i]!])) console.log(i, t.tag(i), t.attr(i, 'class'), JSON.stringify(textOf(t, i).slice(0, 100)));
  },
  onFailure: (f) => console.log('fail', f),
});
