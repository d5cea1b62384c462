import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crossValidate, foldTable, generatorOf, type SiteFigures, TIE } from '../../eval/cross-validation.ts';

const fig = (f1: number, recall = f1): SiteFigures => ({ f1, precision: f1, recall });

test('cross-validation: each generator is held out, the options chosen on the others, the in-sample choice beside', async () => {
  // Point "b" is best on the MkDocs sites only; "a" everywhere else. Holding out MkDocs (both its sites at
  // once) chooses "a" for them; holding out another generator chooses "a" too, since MkDocs alone
  // cannot outweigh the others; on all sites "a" wins.
  const table: Record<string, Record<string, number>> = {
    a: { 'httpx-docs': 0.9, 'django-rest-framework-docs': 0.9, peps: 0.99, sicp: 0.99 },
    b: { 'httpx-docs': 1.0, 'django-rest-framework-docs': 1.0, peps: 0.8, sicp: 0.8 },
  };
  const r = await crossValidate({
    engine: 'test',
    grid: [{ name: 'a', options: {} }, { name: 'b', options: { x: 1 } }],
    sites: ['httpx-docs', 'django-rest-framework-docs', 'peps', 'sicp'],
    measure: async (p) => new Map(Object.entries(table[p.name]!).map(([s, v]) => [s, fig(v)])),
    objective: (f) => f.f1,
    progress: false,
  });
  assert.equal(generatorOf('httpx-docs'), generatorOf('django-rest-framework-docs'));
  assert.equal(r.chosenOnAll, 'a');
  const byName = new Map(r.folds.map((f) => [f.site, f]));
  assert.equal(byName.get('httpx-docs')!.heldOutChoice, 'a', 'the MkDocs fold never sees the MkDocs sites');
  assert.equal(byName.get('httpx-docs')!.heldOut.f1, 0.9);
  assert.equal(byName.get('peps')!.heldOutChoice, 'b', 'without peps, b is as good as a on sicp and better on MkDocs');
  assert.equal(byName.get('peps')!.heldOut.f1, 0.8);
  assert.equal(byName.get('peps')!.inSample.f1, 0.99);
  assert.ok(Math.abs(r.meanHeldOut.f1 - (0.9 + 0.9 + 0.8 + 0.8) / 4) < 1e-9);
  assert.match(foldTable(r, [], (f) => f.f1 >= 0.95), /NOT MET/);
  await assert.rejects(crossValidate({ engine: 't', grid: [{ name: 'a', options: {} }, { name: 'a', options: {} }], sites: ['peps'], measure: async () => new Map(), objective: (f) => f.f1, progress: false }), /two grid points/);
});

test('cross-validation: a variation gaining less than TIE of mean objective does not replace the defaults', async () => {
  const sites = ['peps', 'sicp', 'jekyll-blog'];
  const run = (b: Record<string, number>) =>
    crossValidate({
      engine: 'test',
      grid: [{ name: 'default', options: {} }, { name: 'b', options: { x: 1 } }],
      sites,
      measure: async (p) => new Map(sites.map((s) => [s, fig(p.name === 'default' ? 0.95 : b[s]!)])),
      objective: (f) => f.f1,
      progress: false,
    });
  // b gains 0.0015 on one site: 0.0005 of mean objective over three sites, a tie
  const small = await run({ peps: 0.9515, sicp: 0.95, 'jekyll-blog': 0.95 });
  assert.equal(small.chosenOnAll, 'default');
  assert.ok(small.folds.every((f) => f.heldOutChoice === 'default'));
  // b gains 0.006 on every site: chosen everywhere
  const large = await run({ peps: 0.956, sicp: 0.956, 'jekyll-blog': 0.956 });
  assert.equal(large.chosenOnAll, 'b');
  assert.ok(large.folds.every((f) => f.heldOutChoice === 'b'));
  assert.ok(TIE > 0.0005 && TIE < 0.006);
});
