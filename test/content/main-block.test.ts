import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseMainBlock } from '../../src/content/main-block.ts';
import { contentHtml, contentMarkdown, formatContent, titleRepeats } from '../../src/content/format.ts';
import { parseHtml } from '../../src/html/parse.ts';
import { textOf } from '../../src/html/text.ts';
import type { PageMarks } from '../../src/template/result.ts';

const ARTICLE = `<html><head><title>Big news</title></head><body>
<div id="top"><ul><li><a href="/a">Home</a></li><li><a href="/b">World</a></li><li><a href="/c">Sport</a></li></ul></div>
<h1>Big news today</h1>
<div id="main"><p>The first paragraph of the story is long enough to count as real content here.</p>
<p>A second paragraph continues the story with more words and <a href="/x">one link</a> inside it.</p>
<p>A third paragraph tells the rest of the story, so that the page holds more running text than a short note would.</p>
<ul class="related"><li><a href="/r1">Related story number one</a></li><li><a href="/r2">Related story number two</a></li></ul></div>
<div id="side"><p><a href="/s1">Most read: an unrelated headline</a></p><p><a href="/s2">Another unrelated headline here</a></p></div>
</body></html>`;

function kept(html: string, template?: (tree: ReturnType<typeof parseHtml>) => Uint8Array): { text: string; listing: boolean } {
  const tree = parseHtml(html);
  const t = template ? template(tree) : new Uint8Array(tree.size);
  const mb = chooseMainBlock(tree, t);
  return { text: textOf(tree, tree.body(), (i) => mb.content[i] === 1), listing: mb.listing };
}

test('the main block holds the story, not menus, related links or the sidebar; the heading is added', () => {
  const { text, listing } = kept(ARTICLE);
  assert.equal(listing, false);
  assert.match(text, /^Big news today/);
  assert.match(text, /first paragraph/);
  assert.match(text, /one link inside it/);
  assert.doesNotMatch(text, /Home|World|Sport/);
  assert.doesNotMatch(text, /Related story/);
  assert.doesNotMatch(text, /unrelated headline/);
});

test('template marks are never content', () => {
  const { text } = kept(ARTICLE, (tree) => {
    const m = new Uint8Array(tree.size);
    for (let i = 0; i < tree.size; i++) if (tree.kind[i] === 2 && tree.nodeText(i).includes('second paragraph')) m[i] = 1;
    return m;
  });
  assert.doesNotMatch(text, /second paragraph/);
  assert.match(text, /first paragraph/);
});

test('a listing page (mostly links) keeps all its non-template text', () => {
  const html = `<html><body><h1>Tag: web</h1><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/p${i}">Post number ${i} about the web</a></li>`).join('')}</ul></body></html>`;
  const { text, listing } = kept(html);
  assert.equal(listing, true);
  assert.match(text, /Post number 0/);
  assert.match(text, /Post number 7/);
});

test('a page without text gives no main block', () => {
  const tree = parseHtml('<html><body><div></div></body></html>');
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  assert.equal(mb.root, -1);
  assert.equal(mb.content.indexOf(1), -1);
});

test('formats carry the title and the main content only', () => {
  const tree = parseHtml(ARTICLE);
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  const m: PageMarks = { key: 'a.html', url: 'file:///a.html', tree, template: new Uint8Array(tree.size), content: mb.content };
  const md = contentMarkdown(m);
  assert.match(md, /^# Big news\n/);
  assert.match(md, /## Big news today/);
  assert.match(md, /\[one link\]\(\/x\)/);
  assert.doesNotMatch(md, /Sport/);
  const html = contentHtml(m);
  assert.match(html, /<title>Big news<\/title>/);
  assert.match(html, /first paragraph/);
  assert.doesNotMatch(html, /Most read/);
  const json = JSON.parse(formatContent(m, 'json')) as { title: string; text: string };
  assert.equal(json.title, 'Big news');
  assert.match(json.text, /story/);
  assert.match(formatContent(m, 'text'), /^Big news\n\nBig news today/);
});

const STORY = `<p>The first paragraph of the story is long enough to count as real content for this test.</p>
<p>The second paragraph of the story goes on with more running text, and then it ends here.</p>`;

test('a comment thread (named so by the page) is not content, even when it holds more text than the story', () => {
  const comments = Array.from({ length: 6 }, (_, i) => `<div class="comment"><p>Reader ${i} wrote a long comment that has many more words than a byline and goes on and on.</p></div>`).join('');
  const { text } = kept(`<html><body><div id="post"><h1>Title of the post</h1>${STORY}</div><div id="comments">${comments}</div></body></html>`);
  assert.match(text, /first paragraph/);
  assert.match(text, /second paragraph/);
  assert.doesNotMatch(text, /Reader \d wrote/);
});

test('a story under a large menu is not a listing: the menu stays out', () => {
  const menu = `<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/s${i}">Section number ${i} of the site</a></li>`).join('')}</ul>`;
  const { text, listing } = kept(`<html><body>${menu}<div class="story">${STORY}</div></body></html>`);
  assert.equal(listing, false);
  assert.match(text, /first paragraph/);
  assert.doesNotMatch(text, /Section number/);
});

test('teasers next to the story (link headline, short description in list items) are left out: list items count half, and a sibling joins the story only above a fifth of its value', () => {
  const teasers = `<dl>${Array.from({ length: 5 }, (_, i) => `<dt><a href="/t${i}">Another headline number ${i}</a></dt><dd>A one-sentence summary of another story, number ${i}, to tempt the reader.</dd>`).join('')}</dl>`;
  const { text } = kept(`<html><body><div id="main"><div class="body">${STORY}${STORY}${STORY}</div><div>${teasers}</div></div></body></html>`);
  assert.match(text, /first paragraph/);
  assert.doesNotMatch(text, /summary of another story/);
});

test('markdown says the title once when the page heading repeats it', () => {
  const tree = parseHtml(`<html><head><title>Same words</title></head><body><h1>Same words</h1>${STORY}</body></html>`);
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  const md = contentMarkdown({ key: 'a.html', url: 'file:///a.html', tree, template: new Uint8Array(tree.size), content: mb.content });
  assert.match(md, /^# Same words\n\nThe first paragraph/);
  assert.doesNotMatch(md, /## Same words/);
});

test('a comment thread announced by its heading ("12 comments") ends the main content, even unnamed', () => {
  const thread = Array.from({ length: 6 }, (_, i) => `<p>Reader ${i} wrote a long comment that has many more words than a byline and goes on and on.</p><p>Posted by reader${i} on January ${i + 1}, 2008</p>`).join('');
  const { text } = kept(`<html><body><div class="main">${STORY}<h3>12 comments</h3>${thread}</div></body></html>`);
  assert.match(text, /second paragraph/);
  assert.doesNotMatch(text, /Reader \d wrote/);
});

test('a heading "Discussion" in a document is a section, not a comment thread', () => {
  const { text } = kept(`<html><body><div class="main">${STORY}<h2>Discussion</h2>${STORY}</div></body></html>`);
  assert.equal(text.match(/first paragraph/g)?.length, 2);
});

test('a page with little non-template text keeps all of it (a tag page listing one post)', () => {
  const { text } = kept('<html><body><h1>Posts tagged BSD</h1><ul><li>February 09, 2019: <a href="/p">Hack The Box - Ypuffy</a></li></ul></body></html>');
  assert.match(text, /Posts tagged BSD/);
  assert.match(text, /Ypuffy/);
});

test('a paragraph whose links are most of its text is still prose when enough text lies outside them', () => {
  const html = `<html><body><div id="menu"><a href="/1">Home</a> <a href="/2">News</a></div><div id="story">
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>Back then the country had just become independent and its economy was in disarray. <a href="/p">Heydar Aliyev, a former Soviet politburo member who became president of the country</a> signed <a href="/q">the deal on the Azeri Chirag Guneshli fields offshore</a> with the oil majors that year.</p>
<p>A third paragraph tells the rest of the story, so that the page holds more running text than a note.</p></div></body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  assert.match(text({}), /former Soviet politburo member/);
  assert.match(text({}), /with the oil majors/);
  assert.doesNotMatch(text({ proseChars: 0 }), /former Soviet politburo member/);
  assert.doesNotMatch(text({}), /Home|News/);
});

test('head zone: the headline (matching the title, a link to the page itself) and the standfirst between it and the story are content; a short byline and a link list are not', () => {
  const html = `<html><head><title>Sunrise scoops Nine with Kylie - The Daily Telegraph</title></head><body>
<div class="tools"><a href="/a">Home</a> <a href="/b">Sport</a> <a href="/c">Weather</a></div>
<div class="head"><div class="title"><a href="/kylie">Sunrise scoops Nine with Kylie</a></div>
<div class="when">January 8, 2008</div>
<div class="links"><a href="/x">Print this story</a> <a href="/y">Email this story</a></div>
<p class="standfirst">SUNRISE has got an early jump on its breakfast show rival Today in 2008, scoring an exclusive interview.</p></div>
<div id="body"><p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph tells the rest of the story, so that the page holds more running text than a note.</p>
<p>A third paragraph closes the story, so that the body is clearly the region with the running text.</p></div>
</body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  const t = text({});
  assert.match(t, /^Sunrise scoops Nine with Kylie\n/);
  assert.match(t, /SUNRISE has got an early jump/);
  assert.doesNotMatch(t, /January 8|Print this story|Home/);
  assert.match(text({ headZoneMin: 0 }), /January 8, 2008/);
  // Without the head zone the headline is still found and kept (it is the content's title), the standfirst not.
  assert.match(text({ headZone: 0 }), /^Sunrise scoops Nine with Kylie\n/);
  assert.doesNotMatch(text({ headZone: 0 }), /SUNRISE has got/);
});

test('head zone: an h2 byline between the headline and the story does not hide the h1 headline', () => {
  const html = `<html><head><title>Murray crashes out - Mirror</title></head><body>
<div class="art"><h1>Murray crashes out</h1><h2>By Chris Wilson 14/01/2008</h2><p class="im"><small>Andy Murray</small></p>
<div class="rc"><h2>Related Articles</h2><ul><li><a href="/1">An older story about tennis</a></li><li><a href="/2">Another story about tennis</a></li></ul></div>
<p>Andy Murray's Grand Slam season got off to a terrible start last night when he lost in the opening round.</p>
<p>The British number one, who was seeded ninth, was defeated by the unseeded Frenchman in four sets.</p>
<p>Murray, who is still yet to progress past the fourth round of a major, is confident he will learn.</p></div></body></html>`;
  const tree = parseHtml(html);
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  const text = textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  assert.match(text, /^Murray crashes out\n/);
  assert.match(text, /Grand Slam season/);
  assert.doesNotMatch(text, /older story/);
});

test('the title is said once when the heading is the title less the site name', () => {
  assert.equal(titleRepeats('Big news today | Example Times', 'Big news today'), true);
  assert.equal(titleRepeats('Example Times: Big news today', 'Big news today'), true);
  assert.equal(titleRepeats('Big news today', 'Big news today'), true);
  assert.equal(titleRepeats('Big news today | Example Times', 'Big'), false);
  assert.equal(titleRepeats('Big news today | Example Times', 'Other story'), false);
});

test('teasers after the story (a link headline, then a line of blurb) do not extend it', () => {
  const teaser = (k: number): string => `<div class="t"><a href="/t${k}">A linked headline of another story number ${k}</a></div><div class="b">Our pick of the week, with a longer blurb that tells what story ${k} is about.</div>`;
  const html = `<html><body><div id="page"><h1>The story</h1>
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph tells the rest of the story, so that the page holds more running text than a note.</p>
<p>A third paragraph closes the story, so that the body is clearly the region with the running text.</p>
${[1, 2, 3, 4].map(teaser).join('\n')}</div></body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  assert.match(text({}), /third paragraph closes the story/);
  assert.doesNotMatch(text({}), /Our pick of the week/);
  assert.match(text({ gapPenalty: 1 }), /Our pick of the week/);
});

test('text hidden by the page itself (hidden, display: none) is not content', () => {
  const html = `<html><body><div id="story">
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph tells the rest of the story, so that the page holds more running text than a note.</p>
<div style="color: red; display:none">470 292 http://example.com/images/photo_wideweb__470x292.jpg image metadata</div>
<p hidden>A hidden paragraph that a script may show, with enough words to count as a paragraph here.</p>
<p>A third paragraph closes the story, so that the body is clearly the region with the running text.</p></div></body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  assert.match(text({}), /third paragraph/);
  assert.doesNotMatch(text({}), /image metadata|hidden paragraph/);
  assert.match(text({ hidden: false }), /hidden paragraph/);
});

test('an e-mail address or phone number written as a link is text, not a link; a mailto button is a link', () => {
  const dept = (d: string): string => `<p>${d}: <a href="mailto:${d.toLowerCase()}-desk@example.com">${d.toLowerCase()}-desk@example.com</a> or 202.555.0100</p>`;
  const html = `<html><body><div id="story">
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph tells the rest of the story, so that the page holds more running text than a note.</p>
${['Local', 'National', 'Business', 'Sports', 'Foreign'].map(dept).join('\n')}
<p><a href="mailto:feedback@example.com?subject=complaint">Report this story</a></p></div></body></html>`;
  const tree = parseHtml(html);
  const run = (o: Parameters<typeof chooseMainBlock>[2]): { text: string; linkChars: number } => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return { text: textOf(tree, tree.body(), (i) => mb.content[i] === 1), linkChars: mb.linkChars };
  };
  assert.match(run({}).text, /Foreign: foreign-desk@example\.com or 202\.555\.0100/);
  assert.equal(run({}).linkChars, 'Report this story'.replace(/ /g, '').length);
  assert.doesNotMatch(run({ contactLinks: false }).text, /Foreign: foreign-desk/);
});

test('a section heading whose following text was left out heads nothing and is left out; the headline stays', () => {
  const html = `<html><head><title>The story</title></head><body><div id="hd"><h2>The story</h2><p class="by"><a href="/people/x">By X</a></p></div>
<div id="story">
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph tells the rest of the story, so that the page holds more running text than a note.</p>
<div class="box"><h3>Elsewhere on the site, for the readers of this story</h3><ul><li><a href="/r1">One related headline</a></li></ul></div>
<h3>What comes next</h3>
<h4><a href="/more">Read more</a></h4>
<p>A third paragraph goes on with the story, so that the body is clearly the region with the running text.</p>
<p>A fourth paragraph closes the story, with enough words to outweigh the link above it several times over.</p></div></body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  assert.match(text({}), /^The story/);
  assert.match(text({}), /What comes next/);
  assert.doesNotMatch(text({}), /Elsewhere on the site|related headline/);
  assert.match(text({ orphanHeadings: false }), /Elsewhere on the site/);
});

test('a short block holding a copyright notice is boilerplate; a sentence about copyright in a long paragraph is not', () => {
  const html = `<html><body><div id="story">
<p>The first paragraph of the story is long enough to count as real content, and so is the next one.</p>
<p>A second paragraph says that copyright protection will remain on the other offering of the company, which sells songs.</p>
<p>A third paragraph goes on with the story, so that the body is clearly the region with the running text.</p>
<p>A fourth paragraph closes the story, so that the page holds enough text for a main block to be chosen.</p>
<p>On copyrighted works, see below.</p>
<p>A fifth paragraph ends the story, so that the short lines above lie between paragraphs of the story.</p>
<p>© The Daily Example 2008</p><p>COPYRIGHT 2008 by UPI</p></div></body></html>`;
  const tree = parseHtml(html);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, new Uint8Array(tree.size), o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  assert.match(text({}), /copyright protection will remain/);
  assert.doesNotMatch(text({}), /Daily Example|UPI/);
  assert.match(text({}), /On copyrighted works/);
  assert.match(text({ notices: false }), /Daily Example/);
});

test('a "Comment" column of a data table in the story is not a comment thread heading', () => {
  const para = (k: number): string => `<p>Paragraph ${k} of the design note explains one more step of the task framework, in enough words to be running text.</p>`;
  const html = `<html><body><article>${para(1)}${para(2)}
<table><tr><th><p>State</p></th><th><p><b>Comment</b></p></th></tr><tr><td><p>enqueued</p></td><td><p>waiting for a worker</p></td></tr></table>
${para(3)}${para(4)}</article><div id="comments"><h3>Comments</h3><p>Reader: great note, thank you for writing it all down so clearly.</p></div></body></html>`;
  const tree = parseHtml(html);
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  const text = textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  assert.match(text, /Paragraph 4 of the design note/);
  assert.match(text, /waiting for a worker/);
  assert.doesNotMatch(text, /great note/);
});

test('navigation only (after a link-graph template): prev / next bars and breadcrumbs outside the main block leave, the article keeps its link lists; an index keeps its links', () => {
  const doc = `<html><head><title>Routers - Docs</title></head><body><div class="menu"><a href="/">Home</a> <a href="/guide">Guide</a></div>
<nav class="crumbs"><a href="/">Docs</a> › <a href="/api">API</a> › Routers</nav>
<article><h1>Routers</h1><ul class="toc"><li><a href="#usage">Usage</a></li><li><a href="#api">API guide</a></li></ul>
<p>A router maps the URLs of a resource to its views, so that the views do not have to be wired one by one in the settings.</p>
<p>Register a view set with a prefix and the router makes the list and detail routes for it, named after the view set.</p>
<p>A router can also add routes for extra actions of a view set, marked with the action decorator, at paths named after them.</p>
<ul><li><a href="/api/views">Views</a></li><li><a href="/api/viewsets">View sets</a></li></ul></article>
<div class="prev-next"><a href="/api/views">« Views</a> <a href="/api/parsers">Parsers »</a></div></body></html>`;
  const tree = parseHtml(doc);
  const template = new Uint8Array(tree.size);
  const menu = tree.find('div');
  template.fill(1, menu, tree.end[menu]!);
  const text = (o: Parameters<typeof chooseMainBlock>[2]): string => {
    const mb = chooseMainBlock(tree, template, o);
    return textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  };
  const nav = text({ navigationOnly: true });
  assert.match(nav, /Usage\nAPI guide/);
  assert.match(nav, /View sets/);
  assert.doesNotMatch(nav, /Parsers »|API › Routers|Home/);
  assert.doesNotMatch(text({}), /View sets/);
  const index = parseHtml(`<html><body><h1>Contents</h1><p>The chapters of the book, in order, with their sections.</p><ul>${Array.from({ length: 30 }, (_, k) => `<li><a href="/c${k}">Chapter ${k}: a title of some length</a></li>`).join('')}</ul></body></html>`);
  const mb = chooseMainBlock(index, new Uint8Array(index.size), { navigationOnly: true });
  assert.match(textOf(index, index.body(), (i) => mb.content[i] === 1), /Chapter 29: a title/);
});

test('a listing page keeps its links but not the site menu named as a sidebar; Chinese text counts as the words it holds', () => {
  const cards = Array.from({ length: 6 }, (_, k) => `<article class="card"><a href="/docs/p${k}"><h2>设备接入 ${k}</h2><p>通过协议接入设备</p></a></article>`).join('');
  const menu = Array.from({ length: 20 }, (_, k) => `<li><a href="/docs/m${k}">Menu entry number ${k}</a></li>`).join('');
  const tree = parseHtml(`<html><body><aside class="theme-doc-sidebar-container"><ul>${menu}</ul></aside><main><h1>Device connection</h1>${cards}</main></body></html>`);
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
  assert.equal(mb.listing, true);
  const text = textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  assert.match(text, /设备接入 5/);
  assert.doesNotMatch(text, /Menu entry/);
  const zh = parseHtml('<html><body><p>物联网平台支持多种协议接入设备，包括MQTT、HTTP和CoAP协议。</p></body></html>');
  const p = zh.find('p');
  const plain = chooseMainBlock(zh, new Uint8Array(zh.size), { cjkWeight: 1 }).chars;
  assert.ok(chooseMainBlock(zh, new Uint8Array(zh.size)).chars > 2 * plain, `${p}`);
});
