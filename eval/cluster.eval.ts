/**
 * Structural clustering on clusters/ (run: `npx tsx eval/cluster.eval.ts`): every page set with known
 * classes (today clusters/stackoverflow: jobs, newest, question, tags, users) is clustered by page schema
 * (src/cluster/schema.ts, paper 4's schema and Jaccard threshold T) and scored with purity and the
 * adjusted Rand index (src/eval/metrics.ts). Target: purity >= 0.95 on stackoverflow. The content method
 * (src/cluster/content.ts, the alignment helper's) is scored beside it when present. Writes eval/results/cluster.json.
 */
import { existsSync } from 'node:fs';
import { clusterSourceBySchema } from '../src/cluster/schema.ts';
import { loadClusters } from '../src/eval/corpus.ts';
import { adjustedRandIndex, purity } from '../src/eval/metrics.ts';
import { openSource } from '../src/site/source.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

await runEval('cluster', async () => {
  const rows: string[][] = [];
  const results: Record<string, unknown>[] = [];
  for (const set of loadClusters()) {
    const source = await openSource(set.dir);
    const t0 = performance.now();
    try {
      const r = await clusterSourceBySchema(source);
      const ms = Math.round(performance.now() - t0);
      const p = purity(r.assignment, set.gold);
      const ari = adjustedRandIndex(r.assignment, set.gold);
      rows.push([set.name, 'schema', String(set.pages.length), String(new Set(set.gold.values()).size), String(r.clusters.length), fmt(p), fmt(ari), String(ms)]);
      results.push({
        set: set.name,
        method: 'schema',
        purity: p,
        ari,
        clusters: r.clusters.map((c) => ({ id: c.id, size: c.keys.length, schemas: c.schemas, classes: count(c.keys.map((k) => set.gold.get(k) ?? '-')) })),
        failures: r.failures,
        ms,
      });
    } finally {
      await source.close();
    }
    if (existsSync(new URL('../src/cluster/content.ts', import.meta.url))) {
      const { clusterByContent } = await import('../src/cluster/content.ts');
      const src = await openSource(set.dir);
      const t1 = performance.now();
      try {
        const r = await clusterByContent(src);
        const ms = Math.round(performance.now() - t1);
        const assignment = new Map([...r.assignment].map(([k, v]) => [k, String(v)]));
        const p = purity(assignment, set.gold);
        const ari = adjustedRandIndex(assignment, set.gold);
        rows.push([set.name, 'content', String(set.pages.length), String(new Set(set.gold.values()).size), String(r.clusters.length), fmt(p), fmt(ari), String(ms)]);
        results.push({ set: set.name, method: 'content', purity: p, ari, k: r.k, ms });
      } finally {
        await src.close();
      }
    }
  }
  process.stdout.write(formatTable(['set', 'method', 'pages', 'classes', 'clusters', 'purity', 'ARI', 'ms'], rows) + '\n');
  const so = results.find((r) => r['set'] === 'stackoverflow' && r['method'] === 'schema');
  const headline = { 'stackoverflow schema purity': (so?.['purity'] as number) ?? null, 'stackoverflow schema ARI': (so?.['ari'] as number) ?? null, 'content method': existsSync(new URL('../src/cluster/content.ts', import.meta.url)) ? 'present' : 'absent' };
  for (const [k, v] of Object.entries(headline)) process.stdout.write(`${k}: ${typeof v === 'number' ? fmt(v) : v}\n`);
  process.stdout.write(`wrote ${writeResults('cluster', headline, { results })}\n`);
});

function count(xs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
