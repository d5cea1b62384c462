import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterSourceBySchema } from '../../src/cluster/schema.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { loadClusters } from '../../src/eval/corpus.ts';
import { purity } from '../../src/eval/metrics.ts';
import { DirSource } from '../../src/site/dir-source.ts';

test('schema clustering of clusters/stackoverflow is pure (>= 0.95)', { skip: corpusSkip() }, async () => {
  const set = loadClusters().find((s) => s.name === 'stackoverflow')!;
  const r = await clusterSourceBySchema(new DirSource(set.dir));
  assert.equal(r.assignment.size, set.pages.length);
  assert.ok(purity(r.assignment, set.gold) >= 0.95);
  assert.ok(r.clusters.length < set.pages.length / 2, 'pages are grouped, not left alone');
});
