import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoDate, pageMetadata } from '../../src/content/metadata.ts';
import { parseHtml } from '../../src/html/parse.ts';

/** A news page with the same facts in JSON-LD, OpenGraph, `<meta name>` and a visible byline, each different. */
const FULL = `<!DOCTYPE html><html lang="en-GB"><head>
<title>Rivers rise again | The Daily River</title>
<meta property="og:title" content="OG: rivers rise">
<meta property="og:site_name" content="OG River">
<meta property="og:description" content="OG description">
<meta property="og:image" content="/img/og.jpg">
<meta property="article:published_time" content="2020-01-01T00:00:00Z">
<meta name="author" content="Meta Author">
<meta name="description" content="Meta description">
<link rel="canonical" href="https://river.example/news/rise">
<script type="application/ld+json">
{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","name":"The Daily River","url":"https://river.example/"},
 {"@type":"NewsArticle","headline":"Rivers rise again","description":"The rivers rose for the third time.",
  "datePublished":"2021-03-04T05:06:07+01:00","dateModified":"2021-03-05",
  "author":[{"@type":"Person","name":"Ann Flow"},{"@type":"Person","name":"Bo Tide"}],
  "publisher":{"@type":"Organization","name":"The Daily River"},
  "image":{"@type":"ImageObject","url":"https://river.example/img/ld.jpg"}}]}
</script></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Rivers rise again</h1><p class="byline">By Visible Writer</p><time datetime="2019-09-09">9 Sept 2019</time>
<p>The rivers rose for the third time this year, and the town's walls held.</p></article></body></html>`;

test('metadata: JSON-LD (with @graph and an author array) is preferred, each field names its origin', () => {
  const { metadata, warnings } = pageMetadata(parseHtml(FULL), { url: 'https://river.example/news/rise?x=1', headline: 'Rivers rise again' });
  assert.deepEqual(warnings, []);
  assert.deepEqual(metadata.title, { value: 'Rivers rise again', from: 'json-ld' });
  assert.deepEqual(metadata.author, { value: 'Ann Flow, Bo Tide', from: 'json-ld' });
  assert.deepEqual(metadata.published, { value: '2021-03-04T05:06:07+01:00', from: 'json-ld' });
  assert.deepEqual(metadata.modified, { value: '2021-03-05', from: 'json-ld' });
  assert.deepEqual(metadata.siteName, { value: 'The Daily River', from: 'json-ld' });
  assert.deepEqual(metadata.description, { value: 'The rivers rose for the third time.', from: 'json-ld' });
  assert.deepEqual(metadata.image, { value: 'https://river.example/img/ld.jpg', from: 'json-ld' });
  assert.deepEqual(metadata.language, { value: 'en-GB', from: 'html' });
  assert.deepEqual(metadata.canonical, { value: 'https://river.example/news/rise', from: 'html' });
});

test('metadata: without JSON-LD, OpenGraph comes before <meta name>, and a relative image is resolved against the page', () => {
  const page = FULL.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, '');
  const { metadata } = pageMetadata(parseHtml(page), { url: 'https://river.example/news/rise', headline: 'Rivers rise again' });
  assert.deepEqual(metadata.title, { value: 'OG: rivers rise', from: 'opengraph' });
  assert.deepEqual(metadata.siteName, { value: 'OG River', from: 'opengraph' });
  assert.deepEqual(metadata.description, { value: 'OG description', from: 'opengraph' });
  assert.deepEqual(metadata.published, { value: '2020-01-01T00:00:00Z', from: 'opengraph' });
  assert.deepEqual(metadata.image, { value: 'https://river.example/img/og.jpg', from: 'opengraph' });
  assert.deepEqual(metadata.author, { value: 'Meta Author', from: 'meta' });
  assert.equal(metadata.modified, undefined, 'no source gives the modification date');
});

test('metadata: a page with only a visible byline and a <time> next to its headline (or its one <h1>)', () => {
  const page = `<html><head><title>Night trains | Rail notes</title></head><body>
<header><a href="/">Rail notes</a> <time datetime="2001-01-01">site since 2001</time></header>
<p>Unrelated teaser written by Nobody Else, far above the story, with many words so that it lies out of reach of the headline's neighbourhood: ${'words and more words '.repeat(30)}</p>
<main><h1>Night trains</h1>
<div class="meta"><span>By <a href="/people/jo">Jo Rail</a></span> · <time>March 11, 2015 3:46 PM</time></div>
<p>Night trains came back to the network this winter, three lines of them, and they are full.</p></main></body></html>`;
  const { metadata } = pageMetadata(parseHtml(page), { headline: 'Night trains' });
  assert.deepEqual(metadata.author, { value: 'Jo Rail', from: 'byline' });
  assert.deepEqual(metadata.published, { value: '2015-03-11T15:46', from: 'time' }, 'the time as written, no offset invented');
  assert.deepEqual(metadata.title, { value: 'Night trains | Rail notes', from: 'html' });
  assert.equal(metadata.language, undefined);
  assert.equal(metadata.siteName, undefined);
  // Without the headline, next to the page's one <h1>; with two <h1>, nothing visible is taken.
  assert.deepEqual(pageMetadata(parseHtml(page)).metadata.author, { value: 'Jo Rail', from: 'byline' });
  const alone = pageMetadata(parseHtml(page.replace('<main>', '<h1>Rail notes</h1><main>'))).metadata;
  assert.equal(alone.author, undefined);
  assert.equal(alone.published, undefined);
});

test('metadata: the byline and date of a teaser under a home page\'s headline are not the page\'s, nor is "3 days ago"', () => {
  const teaser = (n: number): string => `<article class="teaser"><h3><a href="/post${n}">Post ${n}</a></h3><p class="meta">By Writer ${n} · <time datetime="2024-10-2${n}">2${n} October 2024</time></p></article>`;
  const home = `<html><body><main><section class="hero"><h1>Gear for the long way round</h1><p class="byline">3 days ago</p><p>We sell tents.</p></section>
<section><h2>From the journal</h2>${teaser(1)}${teaser(2)}</section></main></body></html>`;
  const { metadata } = pageMetadata(parseHtml(home), { headline: 'Gear for the long way round' });
  assert.equal(metadata.author, undefined, 'neither a relative date nor a teaser\'s writer');
  assert.equal(metadata.published, undefined);
  // A deck in an <h2> under the headline is no other item: the byline after it is the page's.
  const story = `<html><body><article><h1>Night trains</h1><h2>Three lines are back</h2><p class="byline">By Jo Rail</p>
<abbr class="published" title="2016-05-08T00:55:00-07:00">8 May</abbr><p>Text.</p></article></body></html>`;
  const got = pageMetadata(parseHtml(story), { headline: 'Night trains' }).metadata;
  assert.deepEqual(got.author, { value: 'Jo Rail', from: 'byline' });
  assert.deepEqual(got.published, { value: '2016-05-08T00:55:00-07:00', from: 'time' }, 'the machine-readable title of a date-named element');
});

test('metadata: a malformed JSON-LD block is named in a warning and the page keeps its other sources', () => {
  const page = `<html lang="fr"><head><title>T</title>
<script type="application/ld+json">{"@type": "NewsArticle", "headline": "broken",</script>
<script type="application/ld+json">[{"@type":"WebPage","name":"Page","mainEntity":{"@type":"BlogPosting","author":"Zoé Marchand","datePublished":"yesterday"}}]</script>
<meta property="og:site_name" content="Le Site"></head><body><h1>T</h1><p>Texte.</p></body></html>`;
  const { metadata, warnings } = pageMetadata(parseHtml(page));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^JSON-LD block 1 is not JSON \(.+\): left out$/);
  assert.deepEqual(metadata.author, { value: 'Zoé Marchand', from: 'json-ld' }, 'the second block, an array holding a page whose main entity is the post, is read');
  assert.equal(metadata.published, undefined, 'a date that cannot be read is left out');
  assert.deepEqual(metadata.siteName, { value: 'Le Site', from: 'opengraph' });
  assert.deepEqual(metadata.language, { value: 'fr', from: 'html' });
});

test('metadata: microdata outside comments, http-equiv content-language, and the site name cut from the title', () => {
  const page = `<html><head><meta http-equiv="content-language" content="de-AT, en">
<title>Der Berg – Alpenblatt</title><meta property="og:site_name" content="Alpenblatt"></head><body>
<article itemscope itemtype="https://schema.org/Article"><h1>Der Berg</h1>
<span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Eva Gipfel</span></span>
<meta itemprop="datePublished" content="2018-06-01T08:00:00+02:00">
<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author">Troll</span></div></article></body></html>`;
  const { metadata } = pageMetadata(parseHtml(page));
  assert.deepEqual(metadata.author, { value: 'Eva Gipfel', from: 'microdata' });
  assert.deepEqual(metadata.published, { value: '2018-06-01T08:00:00+02:00', from: 'microdata' });
  assert.deepEqual(metadata.language, { value: 'de-AT', from: 'meta' });
  assert.deepEqual(metadata.title, { value: 'Der Berg', from: 'html' });
});

test('isoDate: machine-readable dates normalised, what was not written left out', () => {
  assert.equal(isoDate('2021-11-01T10:52:50+0100'), '2021-11-01T10:52:50+01:00');
  assert.equal(isoDate('2015-03-27T13:07:55.096Z'), '2015-03-27T13:07:55.096Z');
  assert.equal(isoDate('2017-11-03 03:01:00'), '2017-11-03T03:01:00');
  assert.equal(isoDate('2024-06-25'), '2024-06-25');
  assert.equal(isoDate('Tue, 03 Jan 2019 10:00:00 GMT'), '2019-01-03T10:00:00Z');
  for (const bad of ['', 'not a date', '2 hours ago', 'today', '1430000000', 'March 11']) assert.equal(isoDate(bad), undefined, bad);
  assert.equal(isoDate('Publié le 1er novembre 2021', 'fr', false), '2021-11-01');
});
