import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementHints, Hint, hintOf } from '../../src/content/hints.ts';
import { parseHtml } from '../../src/html/parse.ts';

test('boilerplate names, at the start of a word of the name, in any case style', () => {
  for (const n of ['comments', 'comment-list', 'reader_comments', 'readerComments', 'sidebar left', 'related-stories', 'share-tools', 'site-footer']) {
    assert.equal(hintOf(n), Hint.Boilerplate, n);
  }
});

test('words inside other words do not count (prettyprinted is not print, tbody-like names are not body)', () => {
  assert.equal(hintOf('lisp prettyprinted'), Hint.None);
  assert.equal(hintOf('uncommented'), Hint.None);
  assert.equal(hintOf(''), Hint.None);
});

test('content names, and a name that says both is no hint', () => {
  assert.equal(hintOf('entry-content'), Hint.Content);
  assert.equal(hintOf('storyBody'), Hint.Content);
  // Both (measured: letting boilerplate win drops cleanportaleval from 0.952 to 0.545).
  assert.equal(hintOf('article-comments'), Hint.None);
  assert.equal(hintOf('post_comments'), Hint.None);
});

test('elementHints reads class and id of every element', () => {
  const tree = parseHtml('<html><body><div id="comments"><p class="x">a</p></div><article class="post">b</article><span>c</span></body></html>');
  const h = elementHints(tree);
  const byTag = (t: string): number => h[tree.find(t)]!;
  assert.equal(byTag('div'), Hint.Boilerplate);
  assert.equal(byTag('article'), Hint.Content);
  assert.equal(byTag('span'), Hint.None);
  assert.equal(byTag('p'), Hint.None);
});
