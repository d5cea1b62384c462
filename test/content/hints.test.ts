import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementHints, headingSlug, Hint, hintOf } from '../../src/content/hints.ts';
import { parseHtml } from '../../src/html/parse.ts';

test('boilerplate names, at the start of a word of the name, in any case style', () => {
  for (const n of ['sidebar left', 'related-stories', 'share-tools', 'site-footer']) assert.equal(hintOf(n), Hint.Boilerplate, n);
  for (const n of ['comments', 'comment-list', 'reader_comments', 'readerComments']) assert.equal(hintOf(n), Hint.Thread, n);
});

test('words inside other words do not count (prettyprinted is not print, tbody-like names are not body)', () => {
  assert.equal(hintOf('lisp prettyprinted'), Hint.None);
  assert.equal(hintOf('uncommented'), Hint.None);
  assert.equal(hintOf(''), Hint.None);
});

test('content names, and a name that says both is no hint', () => {
  assert.equal(hintOf('entry-content'), Hint.Content);
  assert.equal(hintOf('storyBody'), Hint.Content);
  // Both (measured: letting every boilerplate word win drops cleanportaleval from 0.952 to 0.545).
  assert.equal(hintOf('content-sidebar-wrap'), Hint.None);
  assert.equal(hintOf('post-share'), Hint.None);
});

test('reader-comment words win over content words: a comment thread is not the story', () => {
  assert.equal(hintOf('story-comments content-panel'), Hint.Thread);
  assert.equal(hintOf('article-comments'), Hint.Thread);
  assert.equal(hintOf('post_comments'), Hint.Thread);
  assert.equal(hintOf('comment-body entry-content'), Hint.Thread);
});

test('elementHints reads class and id of every element', () => {
  const tree = parseHtml('<html><body><div id="comments"><p class="x">a</p></div><article class="post">b</article><span>c</span></body></html>');
  const h = elementHints(tree);
  const byTag = (t: string): number => h[tree.find(t)]!;
  assert.equal(byTag('div'), Hint.Thread);
  assert.equal(byTag('article'), Hint.Content);
  assert.equal(byTag('span'), Hint.None);
  assert.equal(byTag('p'), Hint.None);
});

test('a blockquote named after a social network is a quoted post (an embedded tweet), not a share button; comment names still count', () => {
  assert.equal(hintOf('twitter-tweet'), Hint.Boilerplate);
  assert.equal(hintOf('twitter-tweet', true), Hint.None);
  assert.equal(hintOf('recent-comment', true), Hint.Thread);
  const tree = parseHtml('<html><body><blockquote class="twitter-tweet"><p>a</p></blockquote><div class="twitter-tweet">b</div></body></html>');
  const h = elementHints(tree);
  assert.equal(h[tree.find('blockquote')]!, Hint.None);
  assert.equal(h[tree.find('div')]!, Hint.Boilerplate);
});

test("an id made from the section's own heading is not a name: Sphinx's section#sharing-with-others", () => {
  const tree = parseHtml('<html><body><div class="section" id="sharing-with-others"><h2>Sharing with others</h2><p>x</p></div><div id="share-bar"><h2>Spread the word</h2></div><h2 id="related-work">Related work</h2></body></html>');
  const h = elementHints(tree);
  assert.equal(h[tree.find('div')], Hint.None);
  assert.equal(h[tree.elementChildren(tree.body())[1]!], Hint.Boilerplate);
  assert.equal(h[tree.elementChildren(tree.body())[2]!], Hint.None);
  assert.equal(headingSlug(tree, tree.find('div'), 'sharing-with-others'), true);
});
