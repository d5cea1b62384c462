import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { extractLinks, normalizeUrl, sameSite } from '../../src/site/links.ts';

test('normalizeUrl resolves, drops the fragment and default port, lowercases scheme and host, keeps the query', () => {
  assert.equal(normalizeUrl('HTTP://Example.ORG:80/a/../b/c.html?x=1&y=2#frag'), 'http://example.org/b/c.html?x=1&y=2');
  assert.equal(normalizeUrl('https://h.example:443/'), 'https://h.example/');
  assert.equal(normalizeUrl('https://h.example:8443/P?Q=1'), 'https://h.example:8443/P?Q=1', 'paths and queries keep their case');
  assert.equal(normalizeUrl('  ../x.html#top ', 'http://h.example/a/b/'), 'http://h.example/a/x.html');
  assert.equal(normalizeUrl('#only', 'http://h.example/a.html'), 'http://h.example/a.html');
  assert.equal(normalizeUrl('http://[::1'), undefined);
  assert.equal(normalizeUrl('relative.html'), undefined, 'a relative URL without a base is invalid');
  assert.equal(normalizeUrl('x.html', 'not a base'), undefined);
});

test('extractLinks: a[href] and area[href], <base href>, schemes dropped, self-links and duplicates removed', () => {
  const html = `<html><head><base href="http://h.example/docs/"></head><body>
    <a href="#top">top</a> <a href="/docs/page.html">self</a>
    <a href="a.html">A</a> <a>no href</a> <a href="a.html#part">A again</a>
    <map><area href="../b.html" alt="B"></map>
    <a href="mailto:x@h.example">m</a> <a href="javascript:void(0)">j</a> <a href="tel:+1">t</a> <a href="data:text/html,x">d</a>
    <a href="ftp://h.example/f">f</a> <a href="http://[::1">bad</a>
    <a href="HTTP://OTHER.example:80/c.html?q=1">C</a>
  </body></html>`;
  const tree = parseHtml(html);
  const links = extractLinks(tree, 'http://h.example/docs/page.html');
  // As in browsers, "#top" resolves against the base URL, not the page: it names the base's directory here.
  assert.deepEqual(links.map((l) => l.url), ['http://h.example/docs/', 'http://h.example/docs/a.html', 'http://h.example/b.html', 'http://other.example/c.html?q=1']);
  for (const l of links) assert.ok(['a', 'area'].includes(tree.tag(l.node)), 'node is the link element');
  assert.equal(tree.tag(links[2]!.node), 'area');
  const all = extractLinks(tree, 'http://h.example/docs/page.html', { duplicates: true });
  assert.deepEqual(all.map((l) => l.url), ['http://h.example/docs/', 'http://h.example/docs/a.html', 'http://h.example/docs/a.html', 'http://h.example/b.html', 'http://other.example/c.html?q=1']);
  assert.notEqual(all[1]!.node, all[2]!.node);
  // Without a base element, links resolve against the page.
  const t2 = parseHtml('<a href="x.html">x</a><a href="">self</a>');
  assert.deepEqual(extractLinks(t2, 'http://h.example/d/p.html').map((l) => l.url), ['http://h.example/d/x.html']);
});

test('sameSite: same scheme, host and port, under the root directory', () => {
  const root = 'http://h.example:8080/docs/';
  assert.equal(sameSite('http://h.example:8080/docs/a/b.html', root), true);
  assert.equal(sameSite('http://h.example:8080/docs/', root), true);
  assert.equal(sameSite('http://h.example:8080/blog/', root), false, 'outside the root path');
  assert.equal(sameSite('https://h.example:8080/docs/a.html', root), false, 'another scheme');
  assert.equal(sameSite('http://h.example/docs/a.html', root), false, 'another port');
  assert.equal(sameSite('http://other.example:8080/docs/a.html', root), false, 'another host');
  assert.equal(sameSite('http://h.example:8080/docs/x.html', 'http://h.example:8080/docs/index.html'), true, 'a root page stands for its directory');
  assert.equal(sameSite('not a url', root), false);
});
