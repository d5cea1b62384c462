/**
 * `gabarit cluster <source> [--by auto|schema|shape|content] [--out DIR]`: groups the pages of a source by structure.
 *  - `--by auto` (default): by page schema, unless the page shapes show that its largest cluster holds
 *    several layouts, then by page shape (src/cluster/schema.ts `clusterSourceByStructure`); given
 *    `--similarity` or `--no-layout`, by page schema;
 *  - `--by schema`: paper 4's page schemas (the tag-lists of a page's link collections, and its
 *    layout unless `--no-layout`), pages joined when the similarity of their schemas reaches
 *    `--similarity` (src/cluster/schema.ts);
 *  - `--by shape`: the tag paths of all their elements, weighted, joined by average linkage
 *    (src/structure/page-shape.ts);
 *  - `--by content`: by the similarity of their content once the template is removed
 *    (src/cluster/content.ts).
 * Writes in `--out` (default out/cluster) `clusters.json` (each cluster: id and page keys) and
 * `summary.json` (command, method, source, pages done and failed with reasons, clusters, timings; with
 * `--gold FILE`, a JSON object page key → class, also the purity and adjusted Rand index).
 * Exit 1 when no page could be read.
 */
import { join } from 'node:path';
import { interruptionField, noteSummary } from './interrupt.ts';
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, openFromFlags, outDir, parsePositive, since, type SourceFlags } from './run.ts';
import { cutFields, networkLoads } from '../run/source.ts';

interface ClusterFlags extends SourceFlags {
  out: string;
  by: 'auto' | 'schema' | 'shape' | 'content';
  similarity: number;
  layout: boolean;
  k?: number;
  gold?: string;
}

function parseThreshold(raw: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError('expected a number in (0, 1].');
  return x;
}

export async function register(program: Command): Promise<void> {
  const { COLLECT_DEFAULTS: D } = await import('../structure/defaults.ts');
  const cmd = program
    .command('cluster')
    .description('group the pages of a source by structure (page schemas, paper 4, or page shapes) or by content: clusters.json')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  cmd.addOption(new Option('--by <method>', 'what pages are compared by').choices(['auto', 'schema', 'shape', 'content']).default('auto'));
  cmd.addOption(new Option('--similarity <T>', '--by schema (and auto, which then groups by schema): threshold T of similar schemas (the lower Jaccard coefficient of links and of layouts)').default(D.clusterSimilarity).argParser(parseThreshold));
  cmd.addOption(new Option('--no-layout', "--by schema (and auto, which then groups by schema): compare pages by their links' tag-lists only, as the paper"));
  cmd.addOption(new Option('--k <n>', '--by content: number of clusters (default: chosen by silhouette)').argParser(parsePositive));
  cmd.addOption(new Option('--gold <file>', 'JSON object page key → class: also report purity and adjusted Rand index'));
  addSourceOptions(cmd);
  addOutOption(cmd, 'cluster');
  cmd.action(async (spec: string, opts: ClusterFlags, self: Command) => {
    const g = globalOptions(self);
    const reporter = createReporter(g);
    const start = performance.now();
    let gold: Map<string, string> | undefined;
    if (opts.gold !== undefined) {
      try {
        gold = new Map(Object.entries(JSON.parse(readFileSync(opts.gold, 'utf8')) as Record<string, string>));
      } catch (e) {
        throw new UsageError(`cannot read the gold classes ${opts.gold}: ${(e as Error).message}`);
      }
    }
    const { OutputWriter } = await import('../output.ts');
    const opened = await openFromFlags(spec, opts, reporter);
    const dir = outDir(opts.out);
    const writer = new OutputWriter(dir);
    let clusters: Array<{ id: string; keys: string[]; [extra: string]: unknown }>;
    let assignment: Map<string, string>;
    let extra: Record<string, unknown> = {};
    const doubts: string[] = [];
    try {
      // Given --similarity or --no-layout, the schema is what the user asked for: auto groups by it.
      const schemaAsked = self.getOptionValueSource('similarity') === 'cli' || self.getOptionValueSource('layout') === 'cli';
      if (opts.by === 'auto' && !schemaAsked) {
        const { clusterSourceByStructure } = await import('../cluster/schema.ts');
        const r = await clusterSourceByStructure(opened.source, { similarity: opts.similarity, layout: opts.layout, onPage: (n) => reporter.progress.update('structure', n) });
        for (const f of r.failures) writer.fail(f);
        clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, schemas: c.schemas, ...(r.method === 'shape' ? { why: c.why } : { schema: c.schema }) }));
        assignment = r.assignment;
        extra = { groupedBy: r.method, similarity: opts.similarity, layout: opts.layout, ...(r.cut === undefined ? {} : { cut: r.cut }) };
        doubts.push(...(r.doubts ?? []));
      } else if (opts.by === 'schema' || opts.by === 'auto') {
        const { clusterSourceBySchema } = await import('../cluster/schema.ts');
        const r = await clusterSourceBySchema(opened.source, { similarity: opts.similarity, layout: opts.layout, onPage: (n) => reporter.progress.update('schema', n) });
        for (const f of r.failures) writer.fail(f);
        clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, schemas: c.schemas, schema: c.schema }));
        assignment = r.assignment;
        extra = { ...(opts.by === 'auto' ? { groupedBy: 'schema' } : {}), similarity: opts.similarity, layout: opts.layout };
        doubts.push(...(r.doubts ?? []));
      } else if (opts.by === 'shape') {
        const { clusterSourceByShape } = await import('../cluster/schema.ts');
        const r = await clusterSourceByShape(opened.source, { onPage: (n) => reporter.progress.update('shape', n) });
        for (const f of r.failures) writer.fail(f);
        clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, ...(r.fallback ? { schemas: c.schemas, schema: c.schema } : { shapes: c.schemas, why: c.why }) }));
        assignment = r.assignment;
        extra = { cut: r.cut, grouped: r.grouped, fallback: r.fallback ? 'schema' : null };
        if (r.capped !== undefined) doubts.push(`${r.capped}: grouped by page schema instead`);
        else if (r.fallback) reporter.warn(`${spec}: page shapes left ${((1 - r.grouped) * 100).toFixed(0)}% of the pages in groups of 1 or 2: grouped by page schema instead`);
      } else {
        const { clusterByContent } = await import('../cluster/content.ts');
        const r = await clusterByContent(opened.source, {
          ...(opts.k !== undefined ? { k: opts.k } : {}),
          onFailure: (f) => writer.fail(f),
          onProgress: (phase, done, total) => reporter.progress.update(phase, done, total),
        });
        clusters = r.clusters.map((c) => ({ id: `c${c.id}`, keys: c.keys, terms: c.terms }));
        assignment = new Map([...r.assignment].map(([k, v]) => [k, `c${v}`]));
        extra = { k: r.k, silhouette: r.silhouette, templateRemoved: r.templateRemoved };
      }
    } finally {
      reporter.stop();
      await opened.close();
    }
    for (const f of writer.failed) reporter.failure(f);
    const { clusteringDoubts } = await import('../cluster/schema.ts');
    if (opts.by !== 'content') doubts.push(...clusteringDoubts(assignment.size, clusters.length));
    for (const d of doubts) reporter.warn(`${spec}: ${d}`);
    const scores: Record<string, number> = {};
    if (gold !== undefined) {
      const { purity, adjustedRandIndex } = await import('../eval/metrics.ts');
      scores['purity'] = purity(assignment, gold);
      scores['adjustedRandIndex'] = adjustedRandIndex(assignment, gold);
    }
    await writer.writeJson('clusters.json', clusters);
    const summary = {
      command: 'cluster',
      method: opts.by,
      source: spec,
      pagesLoaded: networkLoads(opened.source),
      ...cutFields(opened.source.cut),
      timings: { total: since(start) },
      pagesDone: assignment.size,
      pagesFailed: writer.failed.length,
      failures: writer.failed,
      clusters: clusters.length,
      doubts,
      sizes: clusters.map((c) => c.keys.length),
      ...extra,
      ...scores,
    };
    await writer.writeJson('summary.json', { ...summary, ...interruptionField() });
    noteSummary(join(writer.dir, 'summary.json'), summary.pagesDone);
    const lines = [`pages: ${assignment.size} in ${clusters.length} clusters (by ${opts.by})`];
    for (const c of clusters.slice(0, 20)) lines.push(`  ${c.id}: ${c.keys.length} pages, e.g. ${c.keys[0] ?? ''}`);
    if (clusters.length > 20) lines.push(`  … ${clusters.length - 20} more in clusters.json`);
    if (gold !== undefined) lines.push(`purity: ${scores['purity']!.toFixed(3)}  adjusted Rand index: ${scores['adjustedRandIndex']!.toFixed(3)}`);
    lines.push(`pages failed: ${writer.failed.length}`, `output: ${dir}`);
    emit(g, summary, lines);
    if (assignment.size === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}
