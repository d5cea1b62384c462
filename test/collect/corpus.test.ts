import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indesit } from '../../src/collect/indesit.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { classOf, getSite } from '../../src/eval/corpus.ts';
import { setScore } from '../../src/eval/metrics.ts';
import { DirSource } from '../../src/site/dir-source.ts';

test('INDESIT on django-rest-framework-docs: same api-guide pages from 3 samples, R and P >= 0.95', { skip: corpusSkip() }, async () => {
  const site = getSite('django-rest-framework-docs');
  const gold = site.files().filter((k) => classOf(site, k) === 'api-guide');
  const picks = [gold[0]!, gold[Math.floor(gold.length / 2)]!, gold[gold.length - 1]!];
  const sets: string[][] = [];
  for (const sample of picks) {
    const source = new DirSource(site.pagesDir);
    const r = await indesit(source, sample);
    const got = r.pages.map((p) => p.key).sort();
    const s = setScore(got, gold);
    assert.ok(s.recall >= 0.95 && s.precision >= 0.95, `from ${sample}: R ${s.recall} P ${s.precision}`);
    assert.equal(r.downloads, source.loaded);
    sets.push(got);
  }
  assert.deepEqual(sets[1], sets[0]);
  assert.deepEqual(sets[2], sets[0]);
});

