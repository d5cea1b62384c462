import { test } from 'node:test';
import assert from 'node:assert/strict';
import engine, { type AlignTemplate } from '../../../src/template/align/engine.ts';
import type { AlignData } from '../../../src/template/align/learned.ts';
import { declaredLanguage, languageGroups } from '../../../src/template/align/languages.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { applyTemplate, learnTemplate } from '../../../src/run/learn.ts';
import { detectTemplate } from '../../../src/run/template.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import { type MemoryPage, MemorySource } from '../../../src/site/memory-source.ts';

/**
 * A made-up documentation site: a menu whose open section lists the pages of the current section, a
 * per-page table of contents (links to the page's own headings), an article, a footer. Sections and
 * headings differ from page to page, so neither the open section nor the contents are shared text.
 */
const SECTIONS = [
  ['Install', ['Linux', 'Windows', 'Docker']],
  ['Guide', ['Queries', 'Caching', 'Routing', 'Testing']],
  ['Reference', ['Settings', 'Signals']],
] as const;
const WORDS = ['otters', 'volcanoes', 'bread', 'comets', 'chess', 'tides', 'maple', 'beacons', 'glaciers', 'orchids'];

function docPage(section: number, page: number, lang = 'en'): string {
  const [name, pages] = SECTIONS[section]!;
  const title = pages[page]!;
  const menu = SECTIONS.map(([n, ps], s) =>
    `<li class="cat"><a href="/${n}">${n}</a>` +
    (s === section ? `<ul>${ps.map((p) => `<li><a href="/${n}/${p}">${p}</a></li>`).join('')}</ul>` : '') + '</li>',
  ).join('');
  const w = (k: number): string => WORDS[(section * 4 + page + k) % WORDS.length]!;
  const heads = [`About ${w(1)}`, `Using ${w(2)}`, `Notes on ${w(3)}`];
  const toc = heads.map((h) => `<li><a href="#${h}">${h}</a></li>`).join('');
  const article = `<h1>${title}</h1><p>${title} explains ${w(0)} and ${w(4)} at length for ${name}.</p>` +
    heads.map((h) => `<h2 id="${h}">${h}</h2><p>${h} with ${w(5)} and ${w(6)} in detail.</p>`).join('');
  const edit = lang === 'en' ? 'Edit this page' : 'Modifier cette page';
  return `<!DOCTYPE html><html lang="${lang}"><head><title>${title}</title></head><body><nav class="menu"><ul>${menu}</ul></nav>` +
    `<main><article class="doc">${article}</article><aside class="toc"><p>${lang === 'en' ? 'Contents' : 'Sommaire'}</p><ul>${toc}</ul></aside>` +
    `<footer><a href="/edit/${title}">${edit}</a></footer></main></body></html>`;
}

function site(lang = 'en', prefix = ''): MemoryPage[] {
  const out: MemoryPage[] = [];
  SECTIONS.forEach(([, pages], s) => pages.forEach((_, p) => out.push({ key: `${prefix}${s}-${p}.html`, body: docPage(s, p, lang) })));
  return out;
}

async function run(pages: MemoryPage[], options: Record<string, unknown> = {}): Promise<{ marks: PageMarks[]; template: AlignData }> {
  const marks: PageMarks[] = [];
  const r = await engine.run({ source: new MemorySource(pages), labels: new LabelTable(), options, onPage: async (m) => void marks.push(m), onFailure: () => {} });
  return { marks, template: (r.template as AlignTemplate).data };
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** The article's text on a page of the fixture (its gold content). */
function article(m: PageMarks): string {
  const t = m.tree;
  const a = t.find('article');
  return squash(keptText({ ...m, template: Uint8Array.from({ length: t.size }, (_, i) => (t.contains(a, i) ? 0 : 1)) }));
}

test('navigation regions: the open menu section and the table of contents are template, the article is kept', async () => {
  const { marks, template } = await run(site());
  assert.ok(template.navigationRegions.length > 0, 'regions learned');
  assert.ok(template.contentSlot >= 0 && template.tokens[template.contentSlot]![0].startsWith('article'), 'the content slot is the article');
  for (const m of marks) assert.equal(squash(keptText(m)), article(m), m.key);
  // Without the regions, the changing links stay as content.
  const off = await run(site(), { navigationRegions: false });
  const kept = squash(keptText(off.marks.find((m) => m.key === '1-2.html')!));
  assert.match(kept, /Queries Caching Routing Testing/);
  assert.match(kept, /in detail\. About \w+ Using \w+ Notes on \w+$/);
});

test('navigation regions never take the content: a page whose article is a list of links keeps it', async () => {
  const pages = site();
  // An index page: its article is only links (other pages of its section).
  pages.push({ key: '9-index.html', body: docPage(0, 0).replace(/<article class="doc">.*<\/article>/, '<article class="doc"><h1>Index</h1><ul><li><a href="/a">Alpha page</a></li><li><a href="/b">Beta page</a></li><li><a href="/c">Gamma page</a></li></ul></article>') });
  const { marks } = await run(pages);
  const index = marks.find((m) => m.key === '9-index.html')!;
  assert.equal(squash(keptText(index)), 'Index Alpha page Beta page Gamma page');
});

test('languages: a page\'s declared language, its language and script subtags', () => {
  const b = (s: string): Uint8Array => new TextEncoder().encode(s);
  assert.equal(declaredLanguage(b('<!DOCTYPE html><html lang="en-US" dir="ltr"><head>')), 'en');
  assert.equal(declaredLanguage(b("<html class='x' lang='zh-Hans'>")), 'zh-hans');
  assert.equal(declaredLanguage(b('<HTML LANG=fr>')), 'fr');
  assert.equal(declaredLanguage(b('<html><head>')), undefined);
  assert.equal(declaredLanguage(b('<html lang="">')), undefined);
  const keys = ['a', 'b', 'c', 'd', 'e'];
  const langs = new Map<string, string | undefined>([['a', 'en'], ['b', 'en'], ['c', 'fr'], ['d', 'fr'], ['e', undefined]]);
  assert.deepEqual(languageGroups(keys, langs, 2).map((g) => [g.language, g.keys.length, g.serves]), [['en', 2, ['a', 'b']], ['fr', 2, ['c', 'd']], [undefined, 5, ['e']]]);
  assert.deepEqual(languageGroups(keys, langs, 3).map((g) => [g.language, g.serves.length]), [[undefined, 5]]);
  // Every page in a language of its own: the site's template is learned all the same, for pages met later.
  const two = new Map<string, string | undefined>([['a', 'en'], ['b', 'en'], ['c', 'fr'], ['d', 'fr']]);
  assert.deepEqual(languageGroups(['a', 'b', 'c', 'd'], two, 2).map((g) => [g.language, g.keys.length, g.serves]), [['en', 2, ['a', 'b']], ['fr', 2, ['c', 'd']], [undefined, 4, []]]);
});

test('languages: a site in two languages learns one template per language; each keeps its words', async () => {
  // Each language's footer has a sentence of plain words (not a link, so no navigation region takes it).
  const credit = (lang: string): string => (lang === 'en' ? 'Written with care by the documentation team' : 'Écrit avec soin par l’équipe de la documentation');
  const withCredit = (pages: MemoryPage[], lang: string): MemoryPage[] => pages.map((p) => ({ ...p, body: (p.body as string).replace('<footer>', `<footer><p>${credit(lang)}</p>`) }));
  // A third of the pages in French.
  const pages = [...withCredit([...site('en'), ...site('en', 'more/')], 'en'), ...withCredit(site('fr', 'fr/'), 'fr')];
  const both = await run(pages, { sample: 8 });
  assert.deepEqual(both.template.languages?.map((l) => l.language), ['en', 'fr']);
  for (const m of both.marks) assert.equal(squash(keptText(m)), article(m), m.key);
  const en = both.template.languages![0]!.tokens.map(([k]) => k);
  assert.ok(en.includes('#t:edit this page') && !en.includes('#t:modifier cette page'));
  // One template for both: the French sentence is on a minority of the pages, not in the consensus.
  const one = await run(pages, { sample: 8, languages: false });
  assert.equal(one.template.languages, undefined);
  for (const m of one.marks) {
    const rest = squash(keptText(m)).slice(article(m).length).trim();
    assert.equal(rest, m.key.startsWith('fr/') ? `${credit('fr')} Modifier cette page` : '', m.key);
  }
});

test('mismatch -2: a menu whose open entry carries the page\'s own contents aligns entry to entry; with 0 it aligns shifted', async () => {
  // The current page's menu entry holds a small contents list (same words on every page, at another place).
  const menuPage = (section: number, page: number): string => {
    const [name, pages] = SECTIONS[section]!;
    const title = pages[page]!;
    const contents = '<ul class="toc"><li><a href="#a">Overview</a></li><li><a href="#b">Details</a></li></ul>';
    const menu = SECTIONS.map(([n, ps], s) => `<li class="cat"><a href="/${n}">${n}</a>` +
      (s === section ? `<ul>${ps.map((p) => `<li><a href="/${n}/${p}">${p}</a>${p === title ? contents : ''}</li>`).join('')}</ul>` : '') + '</li>').join('');
    return `<html><body><nav class="menu"><ul>${menu}</ul></nav><main><article><h1>${title}</h1><p>${title} text for ${name}.</p></article></main><footer>Foot</footer></body></html>`;
  };
  const pages: MemoryPage[] = [];
  SECTIONS.forEach(([, ps], s) => ps.forEach((_, p) => pages.push({ key: `${s}-${p}.html`, body: menuPage(s, p) })));
  // Navigation regions off: the alignment alone decides.
  for (const [mismatch, kept] of [[-2, false], [0, true]] as const) {
    const { marks } = await run(pages, { mismatch, navigationRegions: false });
    for (const m of marks) assert.equal(/Overview Details/.test(squash(keptText(m))), kept, `mismatch ${mismatch}, ${m.key}: ${squash(keptText(m))}`);
  }
});

test('learn, then apply: a site in two languages; the learned template picks each page\'s language and gives the one-shot marks', async () => {
  const withCredit = (pages: MemoryPage[], lang: string): MemoryPage[] => pages.map((p) => ({ ...p, body: (p.body as string).replace('<footer>', `<footer><p>Credit ${lang} team</p>`) }));
  const pages = [...withCredit([...site('en'), ...site('en', 'more/')], 'en'), ...withCredit(site('fr', 'fr/'), 'fr')];
  const oneShot = new Map<string, Uint8Array>();
  for await (const o of detectTemplate(new MemorySource(pages), { method: 'align', sample: 8 })) if (o.ok) oneShot.set(o.key, o.marks.template);
  assert.equal(oneShot.size, pages.length);
  const learned = JSON.parse(JSON.stringify((await learnTemplate(new MemorySource(pages), { method: 'align', sample: 8 })).template)) as AlignTemplate;
  const data = learned.data;
  assert.deepEqual(data.languages?.map((l) => l.language), ['en', 'fr']);
  for (const l of data.languages!) assert.ok(l.navigationRegions.length > 0 && l.contentSlot >= 0, `${l.language}: navigation learned`);
  assert.equal(data.mismatch, -2);
  for (const p of pages) {
    const lang = p.key.startsWith('fr/') ? 'fr' : 'en';
    const a = applyTemplate(learned, p.body as string, { key: p.key });
    assert.deepEqual(Array.from(a.template), Array.from(oneShot.get(p.key)!), p.key);
    assert.equal(a.info['language'], lang, p.key);
    assert.equal(squash(keptText(a)), article(a), p.key);
    // A page given parsed (another label table): its language read from its <html> element.
    const tree = parseHtml(p.body as string, { labels: new LabelTable() });
    assert.deepEqual(Array.from(applyTemplate(learned, tree, { key: p.key }).template), Array.from(a.template), `${p.key} as a Tree`);
  }
  // A page of a language the site had no template for gets the site's template: its article is kept.
  const de = applyTemplate(learned, docPage(1, 2, 'de'), { key: 'de/1-2.html' });
  assert.equal(de.info['language'], null);
  assert.ok(squash(keptText(de)).startsWith(article(de)), squash(keptText(de)));
  assert.doesNotMatch(squash(keptText(de)), /Install|Reference/, 'the menu is template');
});
