/**
 * The options of `gabarit cluster` through the command line, on the demo site: --gold adds the purity and
 * adjusted Rand index of the clusters written, --similarity and --no-layout join more pages, --out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gabarit, ROOT, type Ran } from './gabarit-process.ts';

const SITE = join(ROOT, 'examples', 'site');

/** The demo site's pages (keys), recursively. */
async function keys(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) out.push(...(await keys(join(dir, e.name))));
    else if (e.name.endsWith('.html')) out.push(relative(SITE, join(dir, e.name)).split('\\').join('/'));
  }
  return out;
}

interface Run {
  summary: Record<string, number | boolean | string>;
  clusters: { keys: string[] }[];
}

/** What a `gabarit cluster … --out <out>` run wrote. */
async function written(r: Ran, out: string): Promise<Run> {
  assert.equal(r.code, 0, r.stderr);
  return {
    summary: JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Run['summary'],
    clusters: JSON.parse(await readFile(join(out, 'clusters.json'), 'utf8')) as Run['clusters'],
  };
}

/** Purity: the share of pages in their cluster's most common gold class. */
function purity(clusters: Run['clusters'], gold: Record<string, string>): number {
  let agree = 0;
  let n = 0;
  for (const c of clusters) {
    const counts = new Map<string, number>();
    for (const k of c.keys) counts.set(gold[k]!, (counts.get(gold[k]!) ?? 0) + 1);
    agree += Math.max(...counts.values());
    n += c.keys.length;
  }
  return agree / n;
}

test('cluster: --gold scores the clusters written; a lower --similarity, --no-layout and --no-sections join more pages', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-cluster-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // The gold class of a page: its folder (pages at the top are one class).
  const gold = Object.fromEntries((await keys(SITE)).map((k) => [k, k.includes('/') ? k.split('/')[0]! : 'top']));
  const goldFile = join(dir, 'gold.json');
  await writeFile(goldFile, JSON.stringify(gold));

  const [a, b] = [join(dir, 'default'), join(dir, 'loose')];
  const strict = await written(await gabarit(['cluster', SITE, '--gold', goldFile, '-q', '--out', a]), a);
  const loose = await written(await gabarit(['cluster', SITE, '--similarity', '0.4', '--no-layout', '--no-sections', '--gold', goldFile, '-q', '--out', b]), b);
  for (const run of [strict, loose]) {
    assert.equal(run.summary['pagesDone'], Object.keys(gold).length);
    assert.ok(Math.abs((run.summary['purity'] as number) - purity(run.clusters, gold)) < 1e-9, 'the purity reported is that of clusters.json against --gold');
    assert.equal(typeof run.summary['adjustedRandIndex'], 'number');
  }
  assert.equal(loose.summary['similarity'], 0.4);
  assert.equal(loose.summary['layout'], false);
  assert.ok(loose.clusters.length < strict.clusters.length, `fewer clusters (${loose.clusters.length} vs ${strict.clusters.length})`);
  assert.ok((loose.summary['adjustedRandIndex'] as number) < (strict.summary['adjustedRandIndex'] as number), 'pages of different folders joined');
});
