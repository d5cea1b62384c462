import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../../src/errors.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { MemorySource, type MemoryPage } from '../../../src/site/memory-source.ts';
import type { PageSource } from '../../../src/site/page.ts';
import type { PageFailure } from '../../../src/output.ts';
import engine from '../../../src/template/hyperlink/engine.ts';
import { sameDocument } from '../../../src/template/hyperlink/site-links.ts';
import { loadEngine } from '../../../src/template/engines.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import { fixtureSite, page, SECTIONS, sectionText } from './fixture-site.ts';

interface Run {
  marks: Map<string, PageMarks>;
  warnings: string[];
  failures: PageFailure[];
  summary: Record<string, unknown>;
  template: Record<string, unknown>;
}

async function run(source: PageSource, options: Record<string, unknown> = {}): Promise<Run> {
  const marks = new Map<string, PageMarks>();
  const warnings: string[] = [];
  const failures: PageFailure[] = [];
  const r = await engine.run({
    source,
    labels: new LabelTable(),
    options,
    onPage: async (m) => {
      marks.set(m.key, m);
    },
    onFailure: (f) => failures.push(f),
    onWarning: (w) => warnings.push(w),
  });
  return { marks, warnings, failures, summary: r.summary, template: r.template as Record<string, unknown> };
}

test('the registry loads the hyperlink engine', async () => {
  const e = await loadEngine('hyperlink');
  assert.equal(e.name, 'hyperlink');
  const flags = e.options.cliFlags();
  assert.ok(flags.some((o) => o.flags.startsWith('--key')));
  assert.ok(flags.some((o) => o.flags.startsWith('--n ') && o.defaultText === '3'));
  assert.equal(e.options.defaults()['n'], 3);
});

test('from an article: a 4-CS of menu pages, loaded menu-first, and the content kept on every page', async () => {
  const r = await run(new MemorySource(fixtureSite()), { key: 'a1.html', n: 4 });
  assert.equal(r.summary['csSize'], 4);
  assert.equal(r.summary['csComplete'], true);
  // Key page + the 4 first menu pages: the density order tries the menu before the inline link.
  assert.equal(r.summary['pagesLoadedForLearning'], 5);
  assert.deepEqual(r.summary['cs'], ['news.html', 'sport.html', 'science.html', 'arts.html']);
  assert.equal(r.marks.size, fixtureSite().length, 'every page of the source is marked');
  for (const [key, m] of r.marks) {
    const kept = keptText(m);
    assert.ok(!/Gazette|section|Copyright|Independent|About us/.test(kept), `${key}: template text kept: ${kept}`);
  }
  const a2 = keptText(r.marks.get('a2.html')!);
  assert.match(a2, /a2word/);
  assert.match(a2, /Witnesses of a2 said a2quote/);
  assert.match(a2, /Story a2/);
  assert.ok(!/a2 first part/.test(a2), 'the per-page table of contents is a navigation region');
  const sport = keptText(r.marks.get('sport.html')!);
  assert.match(sport, /sportalpha sportbeta sportgamma/);
  // An inline link inside the content stays content.
  assert.match(keptText(r.marks.get('a1.html')!), /in sport news/);
});

test('the paper\'s document order loads at least as many pages as the density order', async () => {
  const d = await run(new MemorySource(fixtureSite()), { key: 'a1.html', linkOrder: 'document', n: 4 });
  assert.equal(d.summary['linkOrder'], 'document');
  assert.equal(d.summary['csSize'], 4);
  assert.ok((d.summary['pagesLoadedForLearning'] as number) >= 5);
});

test('the key page is marked even when the source\'s listing does not reach it (a frame of a frameset)', async () => {
  const src = new MemorySource(fixtureSite());
  const listing = src.pages.bind(src);
  src.pages = async function* () {
    for await (const r of listing()) if (!r.ok || r.page.key !== 'a1.html') yield r;
  };
  const r = await run(src, { key: 'a1.html' });
  assert.equal(r.marks.size, fixtureSite().length);
  assert.match(keptText(r.marks.get('a1.html')!), /a1word/);
});

test('navigation regions decided by the key page alone: same marks on the fixture, outside the content slot only', async () => {
  const all = await run(new MemorySource(fixtureSite()), { key: 'a1.html' });
  const key = await run(new MemorySource(fixtureSite()), { key: 'a1.html', regionsDecidedBy: 'key', navigationLinkShare: 0.3 });
  for (const [k, m] of all.marks) assert.equal(keptText(key.marks.get(k)!), keptText(m), k);
  await assert.rejects(run(new MemorySource(fixtureSite()), { key: 'a1.html', regionsDecidedBy: 'some' }), /regions-decided-by/);
  await assert.rejects(run(new MemorySource(fixtureSite()), { key: 'a1.html', navigationLinkShare: 2 }), /navigation-link-share/);
});

test('page order does not change the template', async () => {
  const pages = fixtureSite();
  const a = await run(new MemorySource(pages), { key: 'a2.html' });
  const b = await run(new MemorySource([...pages].reverse()), { key: 'a2.html' });
  assert.equal(a.summary['templateNodes'], b.summary['templateNodes']);
  for (const [key, m] of a.marks) assert.deepEqual(m.template, b.marks.get(key)!.template, key);
});

test('bad input: a key page with no usable links is an EngineError, not a template of the key page', async () => {
  const pages: MemoryPage[] = [...fixtureSite(), { key: 'lonely.html', body: '<html><body><p>No links here, only <a href="https://elsewhere.example/">another site</a> and <a href="#top">itself</a>.</p></body></html>' }];
  await assert.rejects(run(new MemorySource(pages), { key: 'lonely.html' }), (e: unknown) => e instanceof EngineError && e.code === 'no-usable-links' && /lonely\.html/.test(e.message));
});

test('bad input: a key page that cannot be loaded', async () => {
  await assert.rejects(run(new MemorySource(fixtureSite()), { key: 'missing.html' }), (e: unknown) => e instanceof EngineError && e.code === 'key-page-unavailable');
});

test('bad input: pages that fail to load are warned about and skipped; the CS is still found', async () => {
  const pages = fixtureSite().map((p) => (p.key === 'sport.html' ? { ...p, status: 500 } : p));
  const r = await run(new MemorySource(pages), { key: 'a1.html', n: 4 });
  assert.ok(r.warnings.some((w) => /sport\.html/.test(w) && /http-status/.test(w)), r.warnings.join('\n'));
  assert.ok(!(r.summary['cs'] as string[]).includes('sport.html'));
  assert.equal(r.summary['csSize'], 4);
  assert.ok(r.failures.some((f) => f.key === 'sport.html'), 'the marking pass reports the failed page');
  assert.match(keptText(r.marks.get('a2.html')!), /a2word/);
});

test('bad input: every linked page fails to load', async () => {
  const pages: MemoryPage[] = [
    { key: 'k.html', body: '<html><body><ul><li><a href="/x.html">x</a></li><li><a href="/y.html">y</a></li></ul><p>text</p></body></html>' },
    { key: 'x.html', body: '', status: 404 },
  ];
  await assert.rejects(run(new MemorySource(pages), { key: 'k.html' }), (e: unknown) => e instanceof EngineError && e.code === 'no-complete-subdigraph');
});

test('bad input: a CS smaller than 2 is said, and completed with the key page\'s siblings', async () => {
  // Articles link only to the index; the index lists them (no two pages link to each other but via it).
  const art = (i: number): string => page('', `Article ${i}`, `<p>Body of article ${i} word${i}x and word${i}y.</p>`).replace(/<ul class="menu">.*?<\/ul>/, '<ul class="menu"><li><a href="/index.html">Index</a></li></ul>').replace('<a href="/about.html">About us</a>', '');
  const list = Array.from({ length: 6 }, (_, i) => `<li><a href="/art${i}.html">Article number ${i}</a></li>`).join('');
  const pages: MemoryPage[] = [
    { key: 'index.html', body: `<html><body><h1>All articles</h1><ul class="all">${list}</ul></body></html>` },
    ...Array.from({ length: 6 }, (_, i) => ({ key: `art${i}.html`, body: art(i) })),
  ];
  const r = await run(new MemorySource(pages), { key: 'art2.html' });
  assert.equal(r.summary['csSize'], 1);
  assert.equal(r.summary['fallback'], 'siblings');
  assert.ok(r.warnings.some((w) => /fewer than 2/.test(w)), r.warnings.join('\n'));
  const tp = r.summary['templatePages'] as string[];
  assert.ok(tp.includes('art1.html') || tp.includes('art3.html'), `siblings next to the key page: ${tp.join(', ')}`);
  const kept = keptText(r.marks.get('art4.html')!);
  assert.match(kept, /word4x/);
  assert.ok(!/Gazette|Copyright/.test(kept), kept);

  // Without the fallback, the 1-CS alone is used and the run says the template rests on one page.
  const one = await run(new MemorySource(pages), { key: 'art2.html', siblings: false });
  assert.equal(one.summary['fallback'], 'none');
  assert.ok(one.warnings.some((w) => /one other page only/.test(w)), one.warnings.join('\n'));
});

test('bad input: a CS page of a different template is left out with a warning', async () => {
  const pages = fixtureSite().map((p) =>
    p.key === 'science.html'
      ? { ...p, body: `<html><body><div class="other"><ul>${['news', 'sport', 'arts', 'travel'].map((s) => `<li><a href="/${s}.html">${s}</a></li>`).join('')}</ul><p>${sectionText('science')}</p></div></body></html>` }
      : p,
  );
  const r = await run(new MemorySource(pages), { key: 'a1.html', n: 4 });
  assert.ok((r.summary['cs'] as string[]).includes('science.html'));
  assert.deepEqual(r.summary['droppedPages'], ['science.html']);
  assert.ok(r.warnings.some((w) => /science\.html/.test(w) && /another template/.test(w)), r.warnings.join('\n'));
  const kept = keptText(r.marks.get('a2.html')!);
  assert.ok(!/Gazette|Copyright/.test(kept), kept);
  assert.match(kept, /a2word/);
});

test('agreeing pages: a template never rests on one page that repeats the key page\'s content (a blog index and the tag page listing the same posts)', async () => {
  const TAGS = ['tagall', 'tagone', 'tagtwo'];
  const post = (i: number): string => `<article class="post"><h2><a href="/post${i}.html">Post ${i} title</a></h2>${Array.from({ length: 8 }, (_, k) => `<p>Post ${i} paragraph ${k} word${i}p${k}.</p>`).join('')}</article>`;
  const blog = (current: string, posts: readonly number[]): string =>
    `<html><body><header class="top"><div class="logo">Example blog</div><ul class="tags">${TAGS.map((t) => `<li><a href="/${t}.html">${t} tag</a></li>`).join('')}</ul></header>` +
    `<main class="posts"><h1 class="title">${current}</h1>${posts.map(post).join('')}</main><footer class="foot"><p>Copyright Example blog</p></footer></body></html>`;
  const pages: MemoryPage[] = [
    { key: 'index.html', body: blog('All posts', [1, 2, 3]) },
    { key: 'tagall.html', body: blog('Tagged all', [1, 2, 3]) },
    { key: 'tagone.html', body: blog('Tagged one', [1]) },
    { key: 'tagtwo.html', body: blog('Tagged two', [2]) },
    ...[1, 2, 3].map((i) => ({ key: `post${i}.html`, body: blog(`Post ${i}`, [i]) })),
  ];
  // One page agreeing is enough (the former rule): the two one-post tags are set aside, and the page that
  // repeats every post makes them template.
  const one = await run(new MemorySource(pages), { key: 'index.html', agreeingPages: 1 });
  assert.deepEqual(one.summary['droppedPages'], ['tagone.html', 'tagtwo.html']);
  assert.doesNotMatch(keptText(one.marks.get('index.html')!), /word2p3/);
  // Two pages must agree: the further pages (the posts) share less still, so none is set aside and the
  // posts, which the three tags do not all repeat, are content.
  const two = await run(new MemorySource(pages), { key: 'index.html', agreeingPages: 2 });
  assert.deepEqual(two.summary['droppedPages'], []);
  assert.ok((two.summary['widenedPages'] as string[]).length > 0);
  assert.ok(two.warnings.some((w) => /no page is set aside/.test(w)), two.warnings.join('\n'));
  const kept = keptText(two.marks.get('index.html')!);
  for (const w of ['word1p0', 'word2p3', 'word3p7']) assert.match(kept, new RegExp(w));
  assert.doesNotMatch(kept, /Copyright|Example blog/);
});

test('agreeing pages: when setting pages of another template aside leaves one page, a further page of the key page\'s template is loaded', async () => {
  const other = (s: string): string => `<html><body><div class="other"><ul>${SECTIONS.filter((x) => x !== s).map((x) => `<li><a href="/${x}.html">${x}</a></li>`).join('')}</ul><p>${sectionText(s)}</p></div></body></html>`;
  const pages = fixtureSite().map((p) => (p.key === 'sport.html' || p.key === 'science.html' ? { ...p, body: other(p.key.replace('.html', '')) } : p));
  const r = await run(new MemorySource(pages), { key: 'a1.html' });
  assert.deepEqual(r.summary['cs'], ['news.html', 'sport.html', 'science.html']);
  assert.deepEqual(r.summary['droppedPages'], ['sport.html', 'science.html']);
  assert.deepEqual(r.summary['widenedPages'], ['arts.html']);
  assert.deepEqual(r.summary['templatePages'], ['news.html', 'arts.html']);
  const kept = keptText(r.marks.get('a2.html')!);
  assert.match(kept, /a2word/);
  assert.doesNotMatch(kept, /Gazette|Copyright/);
});

test('a link to the key page under its other name on a static host (`docs/a` for `docs/a.html`) is a self-link', () => {
  assert.ok(sameDocument('docs/a', 'docs/a.html'));
  assert.ok(sameDocument('docs/', 'docs/index.html'));
  assert.ok(sameDocument('index.html', ''));
  assert.ok(!sameDocument('docs/a', 'docs/ab.html'));
  assert.ok(!sameDocument('docs/a/index.html', 'docs/b.html'));
});

test('bad options are EngineErrors with a clear code', async () => {
  await assert.rejects(run(new MemorySource(fixtureSite()), { n: 1 }), (e: unknown) => e instanceof EngineError && e.code === 'bad-option' && /--n/.test(e.message));
  await assert.rejects(run(new MemorySource(fixtureSite()), { linkOrder: 'random' }), (e: unknown) => e instanceof EngineError && e.code === 'bad-option');
});

test('a root whose class varies by page type (WordPress-style body and wrapper classes): the template is still found', async () => {
  // Every page's <body> and top wrapper carry page-type classes of their own (no class in common).
  const pages = fixtureSite().map((p, i) => ({
    ...p,
    body: (p.body as string)
      .replace('<body>', `<body class="${/^a\d/.test(p.key) ? 'single' : 'page'} post-${i} postid-${i * 7}">`)
      .replace('<div class="layout">', `<div class="layout-${p.key.replace('.html', '')}">`),
  }));
  const r = await run(new MemorySource(pages), { key: 'a1.html', n: 4 });
  assert.equal(r.summary['csSize'], 4);
  assert.ok((r.summary['templateNodes'] as number) > 20, `template nodes: ${String(r.summary['templateNodes'])}`);
  for (const [key, m] of r.marks) {
    const kept = keptText(m);
    assert.ok(!/Gazette|Copyright|Independent/.test(kept), `${key}: template text kept: ${kept}`);
  }
  assert.match(keptText(r.marks.get('a2.html')!), /a2word/);
  assert.match(keptText(r.marks.get('sport.html')!), /sportalpha sportbeta sportgamma/);

  // With ≜ comparing the skeleton and the wrappers by class, the ETDM stops at <body>: nothing is template.
  const strict = await run(new MemorySource(pages), { key: 'a1.html', documentSkeleton: false, topWrapperDepth: 0 });
  assert.match(keptText(strict.marks.get('a2.html')!), /Gazette/);
  // Skeleton alone, wrappers compared by class: the header and footer are found, the wrapper's sidebar is not.
  const skel = await run(new MemorySource(pages), { key: 'a1.html', topWrapperDepth: 0 });
  const kept = keptText(skel.marks.get('a2.html')!);
  assert.ok(!/Gazette|Copyright/.test(kept), kept);
  assert.match(kept, /Independent reporting/);
});

test('a prev/next bar inside the content container is template; the article\'s own contents list stays content', async () => {
  // sicp-like: <body><section> holds everything; nav.header (fixed words + changing prev/next links) at both ends.
  const n = 6;
  const chapters = Array.from({ length: n }, (_, i) => `<a href="/ch${i}.html">Chapter ${i}</a>`).join(' ');
  const bar = (i: number): string => `<nav class="header"><p>Next: <a href="/ch${(i + 1) % n}.html">Section ${(i + 1) % n}.1 next</a>, Previous: <a href="/ch${(i + n - 1) % n}.html">Section ${(i + n - 1) % n}.1 prev</a> [${chapters}] [<a href="/index.html">Contents</a>]</p></nav>`;
  const pages: MemoryPage[] = Array.from({ length: n }, (_, i) => ({
    key: `ch${i}.html`,
    body: `<html><body><section><a id="top${i}"></a>${bar(i)}<hr><h2>Title of chapter ${i}</h2><p>Prose of chapter ${i} about word${i}a and word${i}b.</p>
<ul class="toc"><li><a href="#p${i}a">Part ${i}a heading</a></li><li><a href="#p${i}b">Part ${i}b heading</a></li></ul><p>More prose ${i} with word${i}c in it.</p><hr>${bar(i)}</section></body></html>`,
  }));
  pages.push({ key: 'index.html', body: `<html><body><h1>Contents</h1><p>${chapters}</p></body></html>` });
  const r = await run(new MemorySource(pages), { key: 'ch2.html' });
  assert.equal(r.summary['csComplete'], true);
  for (let i = 0; i < n; i++) {
    const m = r.marks.get(`ch${i}.html`)!;
    const kept = keptText(m);
    assert.ok(!/next|prev|Next:|Contents/.test(kept), `ch${i}: navigation kept: ${kept}`);
    assert.match(kept, new RegExp(`Part ${i}a heading`), `ch${i}: the article's contents list is content`);
    assert.match(kept, new RegExp(`word${i}a.*word${i}c`, 's'));
    const t = m.tree;
    assert.equal(m.template[t.find('section')], 0, `ch${i}: the content container is not template`);
    assert.equal(m.template[t.find('body')], 0, `ch${i}: nor its ancestors`);
    assert.equal(m.template[t.find('hr')], 0, `ch${i}: an empty element in the content container is content`);
    assert.equal(m.template[t.find('nav')], 1, `ch${i}: the bar is template`);
  }
});

test('link order proximity: the complete subdigraph is found among the pages of the key page\'s own folder', async () => {
  // Guide pages list each other in a side list (fewer links than the site menu, so the density order
  // tries the menu's section pages first); proximity tries the key page's folder first.
  const guides = ['g1', 'g2', 'g3', 'g4'];
  const list = (self: string): string => `<ul class="guide">${guides.filter((g) => g !== self).map((g) => `<li><a href="/guide/${g}.html">Guide ${g}</a></li>`).join('')}</ul>`;
  const pages: MemoryPage[] = [
    ...fixtureSite(),
    ...guides.map((g) => ({ key: `guide/${g}.html`, body: page('', `Guide ${g}`, `<p>The ${g} guide explains ${g}word.</p>${list(g)}`) })),
  ];
  const near = await run(new MemorySource(pages), { key: 'guide/g1.html', linkOrder: 'proximity', n: 3 });
  assert.equal(near.summary['linkOrder'], 'proximity');
  assert.equal(near.summary['csComplete'], true);
  assert.deepEqual(near.summary['cs'], ['guide/g2.html', 'guide/g3.html', 'guide/g4.html']);
  assert.equal(near.summary['pagesLoadedForLearning'], 4);
  const dense = await run(new MemorySource(pages), { key: 'guide/g1.html', linkOrder: 'density', n: 3 });
  assert.ok((dense.summary['cs'] as string[]).every((k) => !k.startsWith('guide/')), `density: the menu's pages first (${(dense.summary['cs'] as string[]).join(', ')})`);
});
