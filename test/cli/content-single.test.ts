/**
 * `gabarit content` on a page alone (no other page of its site): the main block is chosen on the page's own
 * signals. Each fixture is a page where one of those signals used to mislead it:
 *  - a drop-down's options (a jump menu of the site's blogs) read as a paragraph of prose;
 *  - an article whose story is a few lines under a long menu taken for a listing (all its links kept);
 *  - a story's first paragraphs beside the "read more" wrapper of the rest left out;
 *  - a short story under the page's own headline losing to a longer notice in the footer;
 *  - the notes an article cites (linked both ways) left out after a list of related links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

/** The text `gabarit content` keeps of one page (its headline first), run through the command line. */
async function contentOf(t: { after: (fn: () => Promise<void>) => void }, html: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-single-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'page.html'), html);
  const r = await gabarit(['content', join(dir, 'page.html'), '--headline', 'first', '-q', '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  return readFile(join(dir, 'out', 'page.txt'), 'utf8');
}

/** A menu of `n` links with names of a few words (a site's navigation). */
const menu = (n: number, words: string): string =>
  `<ul class="menu">${Array.from({ length: n }, (_, i) => `<li><a href="/s${i}.html">${words} number ${i + 1}</a></li>`).join('')}</ul>`;

test('content: the options of a drop-down are a menu, not a paragraph beside the story', async (t) => {
  const blogs = ['Council of Economic Advisers', 'Council on Environmental Quality', 'Office of Management and Budget', 'Office of Public Engagement', 'Office of Science and Technology Policy', 'Office of Urban Affairs', 'Faith and Neighborhood Partnerships', 'Trade Representative Office', 'Office of National Drug Control Policy', 'Middle Class Task Force'];
  const html = `<!DOCTYPE html><html><head><title>Harbour works begin | Town Blog</title></head><body>
<div id="page"><div class="post"><h2>Harbour works begin</h2>
<p>Work on the new harbour wall began on Monday, three years after the storm that broke the old one.</p>
<p>The council expects the wall to be finished before the winter gales of next year.</p></div>
<div class="rail"><form><select name="blog"><option>Other blogs of the town</option>${blogs.map((b) => `<option value="/${b.length}">${b}</option>`).join('')}</select></form></div></div>
</body></html>`;
  const text = await contentOf(t, html);
  assert.match(text, /Work on the new harbour wall began/);
  assert.match(text, /winter gales/);
  for (const b of blogs) assert.ok(!text.includes(b), `the drop-down's option "${b}" is left out:\n${text}`);
});

test('content: a short story under its own headline is an article, not a listing, beside a long menu', async (t) => {
  const html = `<!DOCTYPE html><html><head><title>Lighthouse keeper retires after forty years | Coast News</title></head><body>
<nav>${menu(40, 'Coast news section')}</nav>
<div class="main"><h2>Lighthouse keeper retires after forty years</h2>
<p>The keeper of the north point light hands over his keys this week, forty years after he first climbed its stairs.</p></div>
<div class="more">${menu(12, 'Other story from the coast')}</div>
</body></html>`;
  const text = await contentOf(t, html);
  assert.match(text, /hands over his keys/);
  assert.ok(!/Coast news section|Other story from the coast/.test(text), `the menus are left out:\n${text}`);
});

test('content: the first paragraphs of a story stay beside the "read more" wrapper of the rest', async (t) => {
  // No headline: the lead is not kept as the head zone between a headline and the story.
  const lead = [
    'A high-powered team has been doing the rounds of newsrooms this week, explaining the new data bill to editors.',
    'The team met executives of two newspaper groups, the television networks and the union of journalists.',
  ];
  const rest = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 3} of the story goes on about the bill, the storage of records for two years and what the editors said about it.</p>`).join('');
  const html = `<!DOCTYPE html><html><head><title>Data bill roadshow | Daily</title></head><body>
<nav>${menu(8, 'Section')}</nav>
<div id="story"><div class="story-body">
${lead.map((p) => `<p>${p}</p>`).join('')}
<div id="read-more"><div id="read-more-content">${rest}</div></div>
</div></div>
<div class="related">${menu(6, 'Related story')}</div>
</body></html>`;
  const text = await contentOf(t, html);
  for (const p of lead) assert.ok(text.includes(p), `the lead paragraph is kept: "${p}"\n${text}`);
  assert.match(text, /Paragraph 8 of the story/);
  assert.ok(!text.includes('Related story'), text);
});

test('content: a short story under the page headline wins over a longer notice in the footer', async (t) => {
  const story = [
    'People from all over the world are coming to the coast to see the regatta.',
    'Two sisters from the hills are among the thousands making the trip.',
    'They made a film about getting ready for the visit.',
  ];
  const html = `<!DOCTYPE html><html><head><title>Sisters on their way to the regatta</title></head><body>
<div id="top">${menu(10, 'Site section')}</div>
<div id="main-content"><h1>Sisters on their way to the regatta</h1>
<div class="player"><a href="/video.html">Play</a></div>
<div class="description">${story.map((p) => `<p>${p}</p>`).join('')}</div>
<div class="links">${menu(5, 'Share on network')}</div></div>
<div id="bottom"><div class="links">${menu(50, 'Footer link')}</div>
<div id="notice"><p><strong>This page is best viewed in an up-to-date web browser with style sheets enabled. While you will be able to view the content of this page in your current browser, you will not be able to get the full visual experience. Please consider upgrading your browser software soon.</strong></p></div></div>
</body></html>`;
  const text = await contentOf(t, html);
  for (const p of story) assert.ok(text.includes(p), `the story is kept: "${p}"\n${text}`);
  assert.ok(!text.includes('best viewed'), `the footer's notice is left out:\n${text}`);
});

test("content: an article's <footer> (its author's bio) is not part of the story", async (t) => {
  const story = Array.from({ length: 5 }, (_, i) => `Paragraph ${i + 1} of the report on the quarterly results tells what the company earned and what it expects for the next three months.`);
  const html = `<!DOCTYPE html><html><head><title>Quarterly results call today | Tech News</title></head><body>
<nav>${menu(8, 'Section')}</nav>
<article><h1>Quarterly results call today</h1>${story.map((p) => `<p>${p}</p>`).join('')}
<footer><p>Sam Writer joined the paper in 2006 and covers the computer makers. Before that, Sam wrote about new Web startups and video games, and remote-controlled robots.</p></footer>
</article>
</body></html>`;
  const text = await contentOf(t, html);
  for (const p of story) assert.ok(text.includes(p), `the story is kept: "${p}"\n${text}`);
  assert.ok(!text.includes('joined the paper'), `the footer's bio is left out:\n${text}`);
});

test('content: a one-word headline that is a whole part of the <title> is the headline, not the blog name above it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-single-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const html = `<!DOCTYPE html><html><head><title>Harbour — Coast Blog</title></head><body>
<div id="header"><h2>Coast Blog</h2>${menu(6, 'Section')}</div>
<div class="post"><h1>Harbour</h1><p class="meta">by the editor on July 21</p>
<p>The new harbour wall was finished this week, three years after the storm that broke the old one, and the boats are back.</p>
<p>Fishermen who had moored in the next bay all winter sailed home on Saturday morning, cheered by half the town on the quay.</p>
<p>The council will open the old fish market again in the spring, once the last of the stones have been laid along the pier.</p></div>
</body></html>`;
  await writeFile(join(dir, 'page.html'), html);
  const r = await gabarit(['content', join(dir, 'page.html'), '--format', 'json', '-q', '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  const page = JSON.parse(await readFile(join(dir, 'out', 'page.json'), 'utf8')) as { headline?: string; text: string };
  assert.equal(page.headline, 'Harbour');
  assert.match(page.text, /new harbour wall/);
});

test('content: an index page whose headline and intro head its list of links stays a listing', async (t) => {
  const html = `<!DOCTYPE html><html><head><title>Internet Data Handling — Library Docs</title></head><body>
<div class="related">${menu(6, 'Previous or next chapter')}</div>
<div class="body"><div class="section"><h1>Internet Data Handling</h1>
<p>This chapter describes modules which support handling data formats commonly used on the internet.</p>
${menu(14, 'Module for one data format')}</div></div>
</body></html>`;
  const text = await contentOf(t, html);
  assert.match(text, /commonly used on the internet/);
  for (let i = 1; i <= 14; i++) assert.ok(text.includes(`Module for one data format number ${i}`), `the index keeps its entry ${i}:\n${text}`);
});

test('content: the notes an article cites are kept after a list of related links (the third by the page\'s full address, as saved pages write it), and a link to its comments keeps no comment', async (t) => {
  const notes = [
    ['Harbour Authority, Annual report on the sea wall and its repairs', 'page 12'],
    ['Coastal Survey Office, Storm damage along the northern shore', 'chapter 3'],
    ['Town Council, Minutes of the meeting on the harbour budget', 'item 7'],
  ];
  const html = `<!DOCTYPE html><html><head><title>Harbour works begin | Town Blog</title></head><body>
<header><a href="/">Town Blog</a></header>
<article><h1>Harbour works begin</h1>
<p><a href="#comments">2 comments</a></p>
<p>Work on the new harbour wall began on Monday, three years after the storm that broke the old one.<a href="#fn1" class="footnote-ref" id="fnref1"><sup>1</sup></a> The contractors expect to pour the first concrete in spring.</p>
<p>The storm of that winter took away forty metres of the old wall<a href="#fn2" class="footnote-ref" id="fnref2"><sup>2</sup></a> and the council voted the money for its repair last autumn.<a href="https://town.example/harbour.html#fn3" class="footnote-ref" id="fnref3"><sup>3</sup></a></p>
<h2>Related posts</h2>
<ul>${['The old harbour in pictures', 'A history of the sea wall', 'Fishing boats return to the quay', 'The council budget explained', 'Storm season ahead'].map((x, i) => `<li><a href="/p${i}.html">${x}</a></li>`).join('')}</ul>
<section class="footnotes"><hr><ol>${notes.map(([title, where], i) => `<li id="fn${i + 1}"><p><a href="https://example.org/doc${i}">${title}</a>, ${where}. <a href="${i === 2 ? 'https://town.example/harbour.html' : ''}#fnref${i + 1}" class="footnote-back">↩</a></p></li>`).join('')}</ol></section>
</article>
<div id="comments"><h3>2 comments</h3><p>Anna: Finally some good news for the quay and the people who work there every day.</p><p>Ben: I hope they finish before the next storm season comes around again.</p></div>
</body></html>`;
  const text = await contentOf(t, html);
  assert.match(text, /Work on the new harbour wall began/);
  for (const [title] of notes) assert.match(text, new RegExp(title!), 'each note the text cites is kept');
  assert.doesNotMatch(text, /Finally some good news/, 'the comments the article links to are not content');
  assert.doesNotMatch(text, /Fishing boats return/, 'the related posts stay out');
});
