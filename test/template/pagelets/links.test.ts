import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHtml } from '../../../src/html/parse.ts';
import { canonicalUrl, pageLinks, urlId } from '../../../src/template/pagelets/links.ts';

const page = (body: string, head = ''): ReturnType<typeof parseHtml> => parseHtml(`<html><head>${head}</head><body>${body}</body></html>`);

test('links resolve against each page: the same relative href on pages in different directories, queries and fragments (any fragment is the page itself)', () => {
  const html = '<a href="x.html">1</a><a href="../y/">2</a><a href="/z">3</a><a href="?q=1">4</a><a href="#top">5</a><a href="mailto:a@b">6</a><a href="">7</a><a href="//o.test/w#f">8</a><a href="#other">9</a>';
  const cases: Array<[string, string[]]> = [
    ['http://s.test/a/b/p.html', ['http://s.test/a/b/x.html', 'http://s.test/a/y/index.html', 'http://s.test/z', 'http://s.test/a/b/p.html?q=1', 'http://s.test/a/b/p.html', 'http://o.test/w', 'http://s.test/a/b/p.html']],
    ['http://s.test/a/c/p.html?k=/v', ['http://s.test/a/c/x.html', 'http://s.test/a/y/index.html', 'http://s.test/z', 'http://s.test/a/c/p.html?q=1', 'http://s.test/a/c/p.html?k=/v', 'http://o.test/w', 'http://s.test/a/c/p.html?k=/v']],
    ['http://s.test/a/b/q.html', ['http://s.test/a/b/x.html', 'http://s.test/a/y/index.html', 'http://s.test/z', 'http://s.test/a/b/q.html?q=1', 'http://s.test/a/b/q.html', 'http://o.test/w', 'http://s.test/a/b/q.html']],
    ['http://s.test', ['http://s.test/x.html', 'http://s.test/y/index.html', 'http://s.test/z', 'http://s.test/index.html?q=1', 'http://s.test/index.html', 'http://o.test/w', 'http://s.test/index.html']],
  ];
  // twice: the second round is served from the cache kept across pages and must agree with the first
  for (let round = 0; round < 2; round++) {
    for (const [url, want] of cases) {
      const links = pageLinks(page(html), url);
      assert.deepEqual(links.url, want, `${url}, round ${round}`);
      assert.deepEqual(Array.from(links.dest), want.map((u) => urlId(u)));
      assert.equal(links.href[1], want[1]!.replace(/index\.html$/, ''));
    }
  }
});

test('a <base href> changes what links resolve against', () => {
  const links = pageLinks(page('<a href="x.html">1</a>', '<base href="http://s.test/other/">'), 'http://s.test/a/p.html');
  assert.deepEqual(links.url, ['http://s.test/other/x.html']);
  assert.equal(canonicalUrl('http://s.test/d/#x'), 'http://s.test/d/index.html');
});

test('page identity: an extensionless link meets the page served from name.html, a folder link its index.html', () => {
  const pages = ['http://s.test/docs/overview.html', 'http://s.test/docs/index.html', 'http://s.test/a/b.htm'];
  const links = pageLinks(page('<a href="/docs/overview">1</a><a href="/docs/">2</a><a href="/a/b">3</a><a href="/docs/overview/">4</a>'), 'http://s.test/x.html');
  assert.deepEqual(Array.from(links.dest).slice(0, 3), pages.map((u) => urlId(u)));
  // A folder of the same name is another page; queries still tell pages apart.
  assert.notEqual(links.dest[3], urlId('http://s.test/docs/overview.html'));
  assert.notEqual(urlId('http://s.test/p.html?x=1'), urlId('http://s.test/p.html'));
  assert.equal(urlId('http://s.test/p.html?x=1'), urlId('http://s.test/p?x=1'));
});
