/**
 * Class and id names are one signal of the main block, never a veto on their own: page builders and blog
 * platforms wrap the whole article in elements named like boilerplate (widget, sidebar, advert). Each
 * fixture is a small page written here in the markup such a platform produces.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMainContent } from '../../src/content/extract.ts';
import { parseHtml } from '../../src/html/parse.ts';

const P = [
  'The council voted on Tuesday to keep the old library open for another five years, after a petition gathered eleven thousand names.',
  'Opening hours will be longer on weekdays, and the reading room on the first floor will be repaired before the winter comes.',
  'Volunteers who ran the summer book sale said the money raised would pay for new shelves in the children\'s corner of the library.',
  'The next review of the building is planned for the spring, when the engineers will report on the state of the roof and the windows.',
];
const paragraphs = (): string => P.map((p) => `<p>${p}</p>`).join('\n');
const MENU = '<nav class="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/events">Events</a> <a href="/about">About us</a></nav>';

/** Asserts the article is the main content and the side material is not. */
function assertArticle(html: string, side: RegExp): void {
  const mc = extractMainContent(parseHtml(html));
  for (const p of P) assert.ok(mc.text.includes(p), `kept: ${p.slice(0, 40)}…\n--- got:\n${mc.text}`);
  assert.doesNotMatch(mc.text, side);
  assert.doesNotMatch(mc.text, /About us/);
  assert.equal(mc.headline, 'Library stays open');
}

test('Elementor: the article in an elementor-widget-container, like the sidebar widgets', () => {
  assertArticle(`<html><head><title>Library stays open – Town Herald</title></head><body>${MENU}
<div class="elementor elementor-location-single"><section class="elementor-section"><div class="elementor-container">
<div class="elementor-column elementor-col-66"><div class="elementor-widget-wrap">
<div class="elementor-element elementor-widget elementor-widget-theme-post-title"><div class="elementor-widget-container"><h1 class="elementor-heading-title">Library stays open</h1></div></div>
<div class="elementor-element elementor-widget elementor-widget-theme-post-content"><div class="elementor-widget-container">
${paragraphs()}
</div></div></div></div>
<div class="elementor-column elementor-col-33"><div class="elementor-widget-wrap">
<div class="elementor-element elementor-widget elementor-widget-posts"><div class="elementor-widget-container"><h5>Recent posts</h5>
<ul><li><a href="/p1">Bridge works start in March</a></li><li><a href="/p2">New bus timetable from Monday</a></li><li><a href="/p3">Market moves to the square</a></li></ul></div></div>
</div></div></div></section></div>
<footer>© Town Herald</footer></body></html>`, /Recent posts|Bridge works|bus timetable/);
});

test("Blogger: the post inside #Blog1.widget, the archive in another widget", () => {
  assertArticle(`<html><head><title>Town Herald: Library stays open</title></head><body>${MENU}
<div class="content"><div class="main-inner"><div class="columns">
<div class="column-center-inner"><div class="main section" id="main"><div class="widget Blog" id="Blog1"><div class="blog-posts hfeed">
<div class="date-outer"><h2 class="date-header"><span>Tuesday, 4 March</span></h2>
<div class="post-outer"><div class="post hentry"><h3 class="post-title entry-title">Library stays open</h3>
<div class="post-body entry-content" id="post-body-1">${paragraphs()}</div>
<div class="post-footer">Posted by <a href="/profile">Ann</a> at 10:02</div></div></div></div></div></div></div></div>
<div class="column-right-inner"><div class="sidebar section" id="sidebar-right-1"><div class="widget BlogArchive" id="BlogArchive1"><h2>Blog Archive</h2>
<ul><li><a href="/2024/03">March (4)</a></li><li><a href="/2024/02">February (7)</a></li><li><a href="/2024/01">January (9)</a></li></ul></div></div></div>
</div></div></div></body></html>`, /Blog Archive|February/);
});

test('a sticky-sidebar wrapper around the main column', () => {
  assertArticle(`<html><head><title>Library stays open | Town Herald</title></head><body>${MENU}
<div class="container"><div class="main-col"><div class="theiaStickySidebar sticky-sidebar-wrapper">
<article><h1>Library stays open</h1>${paragraphs()}</article></div></div>
<aside class="side-col"><div class="theiaStickySidebar"><div class="widget"><h4>Most read</h4><a href="/m1">Bridge works start in March</a> <a href="/m2">Market moves to the square</a></div></div></aside>
</div></body></html>`, /Most read|Bridge works/);
});

test('an advert "pusher" wrapped around the whole page', () => {
  assertArticle(`<html><head><title>Library stays open - Town Herald</title></head><body>
<div id="ad-pusher" class="advert-pusher">${MENU}<div class="advert advert-leaderboard"><a href="/ads">Advertisement: cheap flights</a></div>
<main><h1>Library stays open</h1>${paragraphs()}</main>
<div class="related"><h3>Related</h3><a href="/r1">Bridge works start in March</a> <a href="/r2">Market moves to the square</a></div>
</div></body></html>`, /Advertisement|Related|Bridge works/);
});

test('an article whose name says it has comments is the article; a comment thread holding most of the text is not', () => {
  const commented = extractMainContent(parseHtml(`<html><head><title>Library stays open</title></head><body>${MENU}
<article class="post hentry commented"><h1>Library stays open</h1><div class="entry-content">${paragraphs()}</div>
<div class="js-comments-load"><a href="#c">Load 12 replies</a></div></article></body></html>`));
  for (const p of P) assert.ok(commented.text.includes(p));
  const thread = Array.from({ length: 8 }, (_, k) => `<div class="item"><p>Reader ${k} says: I have used that library for thirty years and I am glad the council finally listened to all of us who wrote.</p></div>`).join('');
  const mc = extractMainContent(parseHtml(`<html><head><title>Library stays open</title></head><body>${MENU}
<article><h1>Library stays open</h1>${paragraphs()}</article><div id="comments"><h3>Comments</h3>${thread}</div></body></html>`));
  for (const p of P) assert.ok(mc.text.includes(p));
  assert.doesNotMatch(mc.text, /Reader \d says/);
});

test('a long reader comment whose text is in a content-named element is still a comment', () => {
  const long = 'I have a different reading of the vote. '.repeat(20);
  const mc = extractMainContent(parseHtml(`<html><head><title>Library stays open</title></head><body>${MENU}
<div class="post"><h1>Library stays open</h1>${paragraphs()}</div>
<div id="comments"><dl class="comment_list"><dd class="comment alt"><div class="format_text"><p>${long}</p></div></dd></dl></div></body></html>`));
  for (const p of P) assert.ok(mc.text.includes(p));
  assert.doesNotMatch(mc.text, /different reading/);
});
