import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../../src/html/parse.ts';
import { analyseTree } from '../../../src/template/pagelets/page-analysis.ts';
import { NO_SHINGLE } from '../../../src/template/pagelets/shingle.ts';
import { prose } from './fixtures.ts';

const shingleOf = (body: string, options = {}): number => {
  const t = parseHtml(`<html><body><div>${body}</div></body></html>`);
  const r = analyseTree(t, 'k', 'http://x.test/a/b.html', options);
  assert.equal(r.shingles.length, 1);
  return r.shingles[0]!;
};

test('equal pagelets get equal shingles; case, spacing, classes and numbers do not matter', () => {
  const a = shingleOf('<p class="x">Hello   World of pagelets, page 12</p>');
  const b = shingleOf('<p class="active">hello world OF pagelets, page 13</p>');
  assert.equal(a, b);
  assert.ok(Number.isSafeInteger(a) && a >= 0);
  // with digits kept, numbers count
  assert.notEqual(shingleOf('<p>page 12</p>', { foldDigits: false }), shingleOf('<p>page 13</p>', { foldDigits: false }));
});

test('different pagelets get different shingles; one changed word in a long pagelet usually does not', () => {
  const long = prose(7, 200);
  const a = shingleOf(`<p>${long}</p>`);
  assert.notEqual(a, shingleOf('<p>something else entirely</p>'));
  // change the 100th word: 4 of ~200 shingles change; with 4 min-hashes the fingerprint survives w.p. ≈ 0.92
  const words = long.split(' ');
  let same = 0;
  for (let k = 0; k < 20; k++) {
    const w = words.slice();
    w[10 * k] = 'perturbed';
    if (shingleOf(`<p>${w.join(' ')}</p>`) === a) same++;
  }
  assert.ok(same >= 12, `fingerprint survived ${same}/20 one-word edits`);
});

test('link targets are tokens only when asked; pagelets without words or links have no shingle', () => {
  const a = '<a href="/x">go</a>';
  const b = '<a href="/y">go</a>';
  assert.equal(shingleOf(a), shingleOf(b));
  assert.notEqual(shingleOf(a, { linkTargets: true }), shingleOf(b, { linkTargets: true }));
  assert.equal(shingleOf('<hr><img src="x.png">'), NO_SHINGLE);
});
