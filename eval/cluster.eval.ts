/**
 * Structural clustering on clusters/ (run: `npx tsx eval/cluster.eval.ts`): every page set with known
 * classes (today clusters/stackoverflow: jobs, newest, question, tags, users) is clustered by page schema
 * (src/cluster/schema.ts, paper 4's schema and Jaccard threshold T) and scored with purity and the
 * adjusted Rand index (src/eval/metrics.ts). Target: purity >= 0.95 on stackoverflow. Beside it, the content
 * method (src/cluster/content.ts, paper 1's application, template removed) with k chosen by silhouette and
 * with k = the number of classes. Writes eval/results/cluster.json.
 */
import { clusterByContent } from '../src/cluster/content.ts';
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
    // Content (paper 1's application, template removed): k chosen by silhouette (the CLI's default) and
    // k = the number of classes (the paper's setting).
    const classes = new Set(set.gold.values()).size;
    for (const k of [undefined, classes]) {
      const src = await openSource(set.dir);
      const t1 = performance.now();
      try {
        const r = await clusterByContent(src, k !== undefined ? { k } : {});
        const ms = Math.round(performance.now() - t1);
        const assignment = new Map([...r.assignment].map(([key, v]) => [key, String(v)]));
        const p = purity(assignment, set.gold);
        const ari = adjustedRandIndex(assignment, set.gold);
        const method = k === undefined ? 'content, k by silhouette' : 'content, k = classes';
        rows.push([set.name, method, String(set.pages.length), String(classes), String(r.clusters.length), fmt(p), fmt(ari), String(ms)]);
        results.push({ set: set.name, method, purity: p, ari, k: r.k, silhouette: r.silhouette, ms });
      } finally {
        await src.close();
      }
    }
  }
  process.stdout.write(formatTable(['set', 'method', 'pages', 'classes', 'clusters', 'purity', 'ARI', 'ms'], rows) + '\n');
  const so = results.find((r) => r['set'] === 'stackoverflow' && r['method'] === 'schema');
  const auto = results.find((r) => r['set'] === 'stackoverflow' && r['method'] === 'content, k by silhouette');
  const fixed = results.find((r) => r['set'] === 'stackoverflow' && r['method'] === 'content, k = classes');
  const headline = {
    'stackoverflow schema purity': (so?.['purity'] as number) ?? null,
    'stackoverflow schema ARI': (so?.['ari'] as number) ?? null,
    'stackoverflow content purity, k = classes': (fixed?.['purity'] as number) ?? null,
    'stackoverflow content purity, k by silhouette': (auto?.['purity'] as number) ?? null,
  };
  for (const [k, v] of Object.entries(headline)) process.stdout.write(`${k}: ${typeof v === 'number' ? fmt(v) : v}\n`);
  process.stdout.write(`wrote ${writeResults('cluster', headline, { results })}\n`);
});

function count(xs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
