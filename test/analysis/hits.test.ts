import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hits, pageletGraph, top } from '../../src/analysis/hits.ts';
import { loadSitePagelets } from '../../src/analysis/site-pagelets.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { getSite } from '../../src/eval/corpus.ts';
import { DirSource } from '../../src/site/dir-source.ts';
import { memorySource, syntheticSite } from '../template/pagelets/fixtures.ts';

test('HITS on a small bipartite graph: the hub citing both authorities wins', () => {
  const g = {
    hubs: ['h0', 'h1', 'h2'],
    hubTemplate: new Uint8Array(3),
    authorities: ['a0', 'a1'],
    start: Int32Array.from([0, 2, 3, 4]),
    target: Int32Array.from([0, 1, 0, 1]),
  };
  const s = hits(g);
  assert.equal(top(s.hub, 1)[0]![0], 0);
  assert.ok(Math.abs(s.authority[0]! - s.authority[1]!) < 1e-9);
  assert.ok(Math.abs(Math.hypot(...s.hub) - 1) < 1e-9);
});

test('pagelet HITS on a synthetic site: template pagelets dominate the hubs until their edges are dropped', async () => {
  const site = await loadSitePagelets(memorySource(syntheticSite(20)), { minSupport: 0 });
  const withT = pageletGraph(site, { dropTemplates: false });
  const s1 = hits(withT);
  assert.ok(top(s1.hub, 5).every(([h]) => withT.hubTemplate[h] === 1));
  const without = pageletGraph(site);
  assert.ok(without.hubs.length < withT.hubs.length);
  assert.ok(Array.from(without.hubTemplate).every((x) => x === 0));
  // the query filter (FNM) keeps only matching pagelets
  const q = pageletGraph(site, { query: 'Section' , dropTemplates: false});
  assert.ok(q.hubs.length > 0 && q.hubs.length < withT.hubs.length);
});

test('pagelet HITS on a corpus site: navigation hubs stop dominating when template edges are dropped', { skip: corpusSkip() }, async () => {
  const site = getSite('httpx-docs');
  const sp = await loadSitePagelets(new DirSource(site.pagesDir, { entry: site.entry }));
  const withT = pageletGraph(sp, { dropTemplates: false, external: false });
  const s1 = hits(withT);
  const navTop = top(s1.hub, 10).filter(([h]) => withT.hubTemplate[h] === 1).length;
  assert.equal(navTop, 10, 'with template edges, the top-10 hubs are all template (navigation) pagelets');
  // with template edges the navigation targets get nearly equal authority (a flat, uninformative ranking)
  const a1 = top(s1.authority, 8).map(([, v]) => v);
  assert.ok(a1[0]! / a1[7]! < 1.1, `flat authorities ${a1}`);
  const without = pageletGraph(sp, { dropTemplates: true, external: false });
  const s2 = hits(without);
  assert.equal(top(s2.hub, 10).filter(([h]) => without.hubTemplate[h] === 1).length, 0);
  const a2 = top(s2.authority, 8).map(([, v]) => v);
  assert.ok(a2[0]! / a2[7]! > 1.3, `authorities now discriminate: ${a2}`);
});
