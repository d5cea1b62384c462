import { LabelTable } from './src/html/labels.ts';
import { getSite, goldContentText } from './src/eval/corpus.ts';
import { contentScore, words } from './src/eval/metrics.ts';
import { DirSource } from './src/site/dir-source.ts';
import { runPagelets } from './src/template/pagelets/engine.ts';
import { keptText } from './src/template/result.ts';
const site = getSite(process.argv[2]!);
const show = Number(process.argv[3] ?? 3);
const rows: Array<{ key: string; p: number; r: number; extra: string; lost: string }> = [];
const r = await runPagelets({
  source: new DirSource(site.pagesDir, { entry: site.entry }), labels: new LabelTable(process.env.NONE ? { attributes: 'none' } : {}), options: { global: true, workers: 0, backend: 'memory', ...JSON.parse(process.env.OPTS ?? '{}') },
  onPage: async (m) => {
    const gold = goldContentText(site, m.tree); if (gold === null) return;
    const kept = keptText(m);
    const s = contentScore(kept, gold);
    const g = new Map<string, number>(); for (const w of words(gold)) g.set(w, (g.get(w) ?? 0) + 1);
    const k = new Map<string, number>(); for (const w of words(kept)) k.set(w, (k.get(w) ?? 0) + 1);
    const extra: string[] = []; for (const [w, c] of k) if (c > (g.get(w) ?? 0)) extra.push(`${w}×${c - (g.get(w) ?? 0)}`);
    const lost: string[] = []; for (const [w, c] of g) if (c > (k.get(w) ?? 0)) lost.push(`${w}×${c - (k.get(w) ?? 0)}`);
    rows.push({ key: m.key, p: s.precision, r: s.recall, extra: extra.slice(0, 40).join(' '), lost: lost.slice(0, 40).join(' ') });
  },
  onFailure: (f) => console.log('fail', f),
});
rows.sort((a, b) => a.p - b.p);
for (const x of rows.slice(0, show)) console.log(`P ${x.p.toFixed(3)} R ${x.r.toFixed(3)} ${x.key}\n  extra: ${x.extra}\n  lost: ${x.lost}`);
rows.sort((a, b) => a.r - b.r);
for (const x of rows.slice(0, show)) console.log(`R ${x.r.toFixed(3)} P ${x.p.toFixed(3)} ${x.key}\n  lost: ${x.lost}`);
console.log(JSON.stringify((r.template as any).templates.slice(0, 5)));
