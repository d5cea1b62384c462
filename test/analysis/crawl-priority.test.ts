import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkPriorities, TemplateAwarePriority } from '../../src/analysis/crawl-priority.ts';
import { parseHtml } from '../../src/html/parse.ts';

test('links found only in template pagelets get the lower priority', () => {
  const p = linkPriorities(Int32Array.from([0, 0, 1, -1]), ['a', 'b', 'a', 'c'], Uint8Array.from([1, 0]));
  const by = new Map(p.map((l) => [l.url, l]));
  assert.equal(by.get('a')!.priority, 1, 'a is also in a content pagelet');
  assert.equal(by.get('b')!.templateOnly, true);
  assert.equal(by.get('b')!.priority, 0.25);
  assert.equal(by.get('c')!.priority, 1);
});

test('TemplateAwarePriority learns the menu while crawling and lowers its links', () => {
  const menu = '<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li><li><a href="/c">C</a></li></ul>';
  const page = (i: number): string =>
    `<html><body><nav>${menu}</nav><article><p>Story ${'abcdefgh'[i]} text</p><p>Read <a href="/story-${i + 1}">the next ${'abcdefgh'[i]}</a> and <a href="/b">b</a></p></article></body></html>`;
  const prio = new TemplateAwarePriority({ minPages: 3 });
  const first = prio.observe(parseHtml(page(0)), 'http://s.test/story-0');
  assert.ok(first.every((l) => l.priority === 1), 'nothing is known to be template on the first page');
  prio.observe(parseHtml(page(1)), 'http://s.test/story-1');
  const third = new Map(prio.observe(parseHtml(page(2)), 'http://s.test/story-2').map((l) => [l.url, l.priority]));
  assert.equal(third.get('http://s.test/a'), 0.25);
  assert.equal(third.get('http://s.test/b'), 1, 'also linked from the article');
  assert.equal(third.get('http://s.test/story-3'), 1);
});
