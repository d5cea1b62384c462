import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterByContent, clusterDocuments } from '../../src/cluster/content.ts';
import { MemorySource } from '../../src/site/memory-source.ts';

const FISH = ['salmon trout river fishing rod', 'trout river bait fishing hook', 'salmon river fishing net boat', 'fishing boat salmon hook bait'];
const ROCKETS = ['rocket orbit launch engine fuel', 'orbit satellite launch rocket pad', 'engine fuel rocket thrust orbit', 'launch pad satellite thrust engine'];

test('documents of two topics fall into two clusters, whatever their order', () => {
  const docs = [...FISH.map((text, i) => ({ key: `f${i}`, text })), ...ROCKETS.map((text, i) => ({ key: `r${i}`, text }))];
  const r = clusterDocuments(docs, { k: 2 });
  const fish = new Set(FISH.map((_, i) => r.assignment.get(`f${i}`)));
  const rockets = new Set(ROCKETS.map((_, i) => r.assignment.get(`r${i}`)));
  assert.equal(fish.size, 1);
  assert.equal(rockets.size, 1);
  assert.notEqual([...fish][0], [...rockets][0]);
  const again = clusterDocuments([...docs].reverse(), { k: 2 });
  assert.deepEqual([...again.assignment].sort(), [...r.assignment].sort());
  // k chosen by silhouette finds the two topics too.
  assert.equal(clusterDocuments(docs).k, 2);
});

test('clusterByContent: the shared template does not decide the clusters once removed', async () => {
  // Every page carries a long menu; half of the pages talk of fish, half of rockets.
  const menu = '<nav><a href="/">home</a> ' + Array.from({ length: 30 }, (_, i) => `<a href="/m${i}">menu item ${i} catalogue</a>`).join(' ') + '</nav>';
  const page = (text: string): string => `<html><body>${menu}<main><p>${text}</p></main><footer>footer text everywhere</footer></body></html>`;
  const pages = [...FISH.map((t, i) => ({ key: `fish/${i}.html`, body: page(t) })), ...ROCKETS.map((t, i) => ({ key: `rocket/${i}.html`, body: page(t) }))];
  const r = await clusterByContent(new MemorySource(pages), { k: 2 });
  assert.equal(r.templateRemoved, true);
  assert.equal(r.failures.length, 0);
  const byTopic = (p: string): Set<number | undefined> => new Set(pages.filter((x) => x.key.startsWith(p)).map((x) => r.assignment.get(x.key)));
  assert.equal(byTopic('fish').size, 1);
  assert.equal(byTopic('rocket').size, 1);
  assert.notEqual([...byTopic('fish')][0], [...byTopic('rocket')][0]);
  // The menu words are gone from the cluster terms.
  for (const c of r.clusters) assert.ok(!c.terms.includes('catalogue'), c.terms.join(' '));
  const whole = await clusterByContent(new MemorySource(pages), { k: 2, removeTemplate: false });
  assert.equal(whole.templateRemoved, false);
  assert.equal(whole.assignment.size, pages.length);
});
