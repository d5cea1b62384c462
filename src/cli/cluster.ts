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
import type { Command } from 'commander';
import { CLUSTER_OPTIONS, type ClusterFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, NothingDone, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('cluster')
    .description('group the pages of a source by structure (page schemas, paper 4, or page shapes) or by content: clusters.json')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  addDeclaredOptions(cmd, CLUSTER_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'cluster');
  cmd.action(async (spec: string, opts: ClusterFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const { clusterCommand } = await import('../run/cluster.ts');
    // Given --similarity or --no-layout, the schema is what the user asked for: auto groups by it.
    const { similarity, layout, ...flags } = opts;
    const given = (name: 'similarity' | 'layout'): boolean => self.getOptionValueSource(name) === 'cli';
    const r = await clusterCommand(spec, { ...flags, ...(given('similarity') ? { similarity } : {}), ...(given('layout') ? { layout } : {}) }, commandHooks(createReporter(g)));
    const { clusters, assignment, summary, scores, dir } = r;
    const lines = [`pages: ${assignment.size} in ${clusters.length} clusters (by ${opts.by})`];
    if (summary['sites'] !== undefined) lines.push(`sites, each grouped alone: ${(summary['sites'] as Array<{ site: string; pages: number; clusters: number }>).map((s) => `${s.site === '' ? '(outside any)' : `${s.site}/`} (${s.pages} pages, ${s.clusters} clusters)`).join(', ')}`);
    if (summary['sections'] !== undefined) lines.push(`sections: ${(summary['sections'] as Array<{ section: string; pages: number }>).map((s) => `${s.section}/ (${s.pages})`).join(', ')}; clusters split by section: ${String(summary['splitBySection'])}`);
    for (const c of clusters.slice(0, 20)) lines.push(`  ${c.id}: ${c.keys.length} pages${typeof c['section'] === 'string' && c['section'] !== '' ? ` in ${c['section']}` : ''}, e.g. ${c.keys[0] ?? ''}`);
    if (clusters.length > 20) lines.push(`  … ${clusters.length - 20} more in clusters.json`);
    if (opts.gold !== undefined) lines.push(`purity: ${scores.purity!.toFixed(3)}  adjusted Rand index: ${scores.adjustedRandIndex!.toFixed(3)}`);
    lines.push(`pages failed: ${r.failures.length}`, `output: ${dir}`);
    emit(g, summary, lines);
    if (assignment.size === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}
