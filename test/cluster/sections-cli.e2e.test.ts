/**
 * Sections of a site through the command line: a documentation whose library reference and manual share
 * the template, the menus and the links of their pages (one page schema) is two classes by its folders,
 * each with its own index page, whose pages differ in shape; `gabarit cluster` gives two clusters and
 * `gabarit collect` keeps to the sample's section. Sections whose pages are alike (a newspaper's topics),
 * folders that are values (years) and folders without an index page split nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gabarit } from '../cli/gabarit-process.ts';
import { Sections, sitesOf } from '../../src/structure/sections.ts';

const words = (n: number, seed: number): string => Array.from({ length: n }, (_, k) => ['the', 'module', 'reads', 'a', 'value', 'from', 'its', 'file', 'and', 'writes'][(k * 7 + seed) % 10]).join(' ');

/** A page of the template: the top menu to both sections, a sidebar of the page's own folder, prose. */
function page(up: string, title: string, sidebar: string[], body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header><a href="${up}index.html">Docs</a><nav><ul><li><a href="${up}library/index.html">Library</a></li><li><a href="${up}manual/index.html">Manual</a></li></ul></nav></header>
<div class="wrap"><aside><ul>${sidebar.map((s) => `<li><a href="${s}">${s.replace(/\.html$/, '')}</a></li>`).join('')}</ul></aside>
<main><div class="body"><h1>${title}</h1>${body}</div></main></div>
<footer><p>Built by a generator.</p></footer></body></html>`;
}

const prose = (i: number): string => `<p>${words(40 + (i % 7), i)}</p><h2>Notes</h2><p>${words(30 + (i % 5), i + 1)}</p><p>${words(25, i + 2)}</p>`;

/** A library page: an introduction, then an entry per function it documents (2 to 4). */
const entries = (i: number): string => `<p>${words(30, i)}</p>` + Array.from({ length: 2 + (i % 3) }, (_, k) => `<dl class="function"><dt><code>f${i}_${k}(value)</code></dt><dd><p>${words(15 + k, i + k)}</p></dd></dl>`).join('');
/** A manual page: prose with a note and a list of steps. */
const manual = (i: number): string => `${prose(i)}<div class="note"><p>${words(12, i)}</p></div><ol><li>${words(6, i)}</li><li>${words(7, i)}</li></ol>`;

/**
 * `library/` and `manual/`, each with an index page and `n` pages, and the home page: one template, one
 * menu, the same links on every page, but library pages document functions and manual pages are prose.
 */
function twoSections(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  const names = Array.from({ length: n }, (_, i) => `p${String.fromCharCode(97 + i)}.html`);
  for (const section of ['library', 'manual']) {
    files[`${section}/index.html`] = page('../', section, names, `<ul class="toc">${names.map((x) => `<li><a href="${x}">${x}</a></li>`).join('')}</ul>`);
    names.forEach((x, i) => (files[`${section}/${x}`] = page('../', `${section} ${x}`, names, section === 'library' ? entries(i) : manual(i))));
  }
  files['index.html'] = page('', 'Home', ['library/index.html', 'manual/index.html'], `<p>${words(12, 0)}</p>`);
  return files;
}

function writeSite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-sections-'));
  for (const [key, html] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'site', key)), { recursive: true });
    writeFileSync(join(dir, 'site', key), html);
  }
  return dir;
}

interface ClusterOut {
  id: string;
  keys: string[];
  section?: string;
  why?: { nearest: string | null; similarity: number; apart: string[]; lacks: string[] };
}

async function clusterOf(dir: string, extra: string[] = []): Promise<{ clusters: ClusterOut[]; summary: Record<string, unknown> }> {
  const out = join(dir, 'out');
  const r = await gabarit(['cluster', join(dir, 'site'), '-o', out, ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return { clusters: JSON.parse(readFileSync(join(out, 'clusters.json'), 'utf8')) as ClusterOut[], summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown> };
}

const clustersHolding = (clusters: ClusterOut[], prefix: string): ClusterOut[] => clusters.filter((c) => c.keys.some((k) => k.startsWith(prefix) && !k.endsWith('index.html')));

test('cluster: pages of one schema in two sections whose pages differ in shape are two clusters; --no-sections gives one', async () => {
  const dir = writeSite(twoSections(8));
  try {
    const { clusters, summary } = await clusterOf(dir);
    const lib = clustersHolding(clusters, 'library/');
    const man = clustersHolding(clusters, 'manual/');
    assert.equal(lib.length, 1, JSON.stringify(clusters));
    assert.equal(man.length, 1, JSON.stringify(clusters));
    assert.notEqual(lib[0]!.id, man[0]!.id);
    assert.equal(lib[0]!.section, 'library');
    // Why, as for every cluster however grouped: its nearest cluster and the paths that set them apart.
    assert.ok(lib[0]!.why?.nearest, JSON.stringify(lib[0]!.why));
    assert.ok(lib[0]!.why!.apart.some((p) => p.includes('dl class="function"')), JSON.stringify(lib[0]!.why));
    assert.equal(man[0]!.section, 'manual');
    assert.deepEqual((summary['sections'] as Array<{ section: string }>).map((s) => s.section), ['library', 'manual']);
    assert.ok((summary['splitBySection'] as number) >= 1);
    // Without sections the two folders are one structure: what separates them is the section alone.
    const off = await clusterOf(dir, ['--no-sections']);
    const both = clustersHolding(off.clusters, 'library/').filter((c) => c.keys.some((k) => k.startsWith('manual/')));
    assert.equal(both.length, 1, JSON.stringify(off.clusters));
    assert.equal(off.summary['sections'], undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster: folders that are values (years) or have no index page split no class', async () => {
  const files: Record<string, string> = {};
  const posts: string[] = [];
  for (let i = 0; i < 12; i++) posts.push(`${2019 + (i % 3)}/post-${i}.html`, `${i % 2 === 0 ? 'news' : 'notes'}/item-${i}.html`);
  for (const [i, k] of posts.entries()) files[k] = page('../', `Post ${i}`, ['index.html'], prose(i));
  files['index.html'] = page('', 'Home', posts, `<p>${words(12, 0)}</p>`);
  const dir = writeSite(files);
  try {
    const { clusters, summary } = await clusterOf(dir);
    const holding = clusters.filter((c) => c.keys.some((k) => k !== 'index.html'));
    assert.equal(holding.length, 1, JSON.stringify(clusters));
    assert.equal(summary['sections'], undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A newspaper: `world/`, `sport/` and `science/`, each an index page of its stories, one story layout everywhere. */
function newspaper(): Record<string, string> {
  const files: Record<string, string> = {};
  const sections = ['world', 'sport', 'science'];
  for (const [n, section] of sections.entries()) {
    const stories = Array.from({ length: 6 }, (_, i) => `story-${i}.html`);
    files[`${section}/index.html`] = page('../', section, [], `<ul class="stories">${stories.map((x) => `<li><a href="${x}">${x}</a></li>`).join('')}</ul>`);
    stories.forEach((x, i) => (files[`${section}/${x}`] = page('../', `${section} ${x}`, [], `<p class="byline">By a reporter</p>${prose(i + n)}`)));
  }
  files['index.html'] = page('', 'Front page', sections.map((x) => `${x}/index.html`), `<p>${words(12, 0)}</p>`);
  return files;
}

test('cluster and collect: sections whose pages are alike (topics of one class) split nothing', async () => {
  const dir = writeSite(newspaper());
  try {
    const { clusters, summary } = await clusterOf(dir);
    const stories = clusters.filter((c) => c.keys.some((k) => /story-/.test(k)));
    assert.equal(stories.length, 1, JSON.stringify(clusters));
    assert.equal(stories[0]!.keys.filter((k) => /story-/.test(k)).length, 18);
    const listed = summary['sections'] as Array<{ section: string; with: string[] }>;
    assert.deepEqual(listed.find((x) => x.section === 'world')!.with.sort(), ['science', 'sport']);
    const out = join(dir, 'out');
    const r = await gabarit(['collect', join(dir, 'site', 'world', 'story-2.html'), '--root', join(dir, 'site'), '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const taken = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pages: Array<{ key: string }> }).pages.map((p) => p.key);
    assert.equal(taken.filter((k) => /story-/.test(k)).length, 18, taken.join(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("collect keeps to the sample's section; each page left in another says so (evidence 'section')", async () => {
  const dir = writeSite(twoSections(8));
  try {
    const out = join(dir, 'out');
    const r = await gabarit(['collect', join(dir, 'site', 'library', 'pc.html'), '--root', join(dir, 'site'), '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pages: Array<{ key: string; section?: string }>; pagesLeft: Array<{ key: string; evidence: string; section?: string }>; options: { sections: boolean } };
    // The index pages have every page's links and too few words for a content area: schema alone takes them.
    const taken = summary.pages.map((p) => p.key).filter((k) => !k.endsWith('index.html')).sort();
    const wanted = Array.from({ length: 8 }, (_, i) => `library/p${String.fromCharCode(97 + i)}.html`);
    assert.deepEqual(taken, wanted);
    assert.ok(summary.pages.every((p) => p.section !== 'manual'));
    const manual = summary.pagesLeft.filter((p) => p.key.startsWith('manual/p'));
    assert.ok(manual.every((p) => p.evidence === 'section' && p.section === 'manual'), JSON.stringify(manual));
    assert.equal(summary.options.sections, true);
    // Without sections the manual's pages, of the same structure, are taken too.
    const off = await gabarit(['collect', join(dir, 'site', 'library', 'pc.html'), '--root', join(dir, 'site'), '-o', out, '--no-sections']);
    assert.equal(off.code, 0, off.stderr);
    const all = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pages: Array<{ key: string }> };
    assert.ok(all.pages.some((p) => p.key.startsWith('manual/')), JSON.stringify(all.pages.map((p) => p.key)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A manual whose chapter pages list their topics (a table of contents in the content area), the topics
 * sharing the template but not the chapters' schema (a box of related links, a pager), beside a library
 * of the same template: the topics join a chapter's target by shape only once the two sections are told
 * apart, after the chapters' tables of contents were first judged.
 */
function chapters(): Record<string, string> {
  const files: Record<string, string> = {};
  const libs = Array.from({ length: 8 }, (_, i) => `m${i}.html`);
  files['library/index.html'] = page('../', 'library', libs, `<ul class="toc">${libs.map((x) => `<li><a href="${x}">${x}</a></li>`).join('')}</ul>`);
  libs.forEach((x, i) => (files[`library/${x}`] = page('../', `library ${x}`, libs, entries(i))));
  const chs = ['ch-a.html', 'ch-b.html', 'ch-c.html', 'ch-d.html'];
  files['manual/index.html'] = page('../', 'manual', chs, `<div class="toctree"><ul>${chs.map((x) => `<li><a href="${x}">${x}</a></li>`).join('')}</ul></div>`);
  chs.forEach((c, ci) => {
    const topics = Array.from({ length: 4 }, (_, k) => `t${ci}${k}.html`);
    files[`manual/${c}`] = page('../', `chapter ${c}`, chs, `${manual(ci + 20)}<div class="toctree"><ul>${topics.map((x) => `<li><a href="${x}">${x}</a></li>`).join('')}</ul></div>`);
    topics.forEach((x, k) => {
      const i = ci * 4 + k;
      const api = `<dl class="api">${[0, 1, 2].map((j) => `<dt>${words(3, i + j)}</dt><dd><p>${words(9, i + j)} <a class="ref" href="../library/m${(i + j) % 8}.html">m</a></p></dd>`).join('')}</dl>`;
      const related = `<div class="related"><h3>Related</h3><ul>${[1, 2, 3].map((j) => `<li><a href="../library/m${(ci + k + j) % 8}.html">m</a></li>`).join('')}</ul></div><div class="pager"><a class="prev" href="${c}">up</a> <a class="next" href="../index.html">home</a></div>`;
      files[`manual/${x}`] = page('../', `manual ${x}`, chs, manual(i) + api).replace('<footer>', `${related}<footer>`);
    });
  });
  files['index.html'] = page('', 'Home', ['library/index.html', 'manual/index.html'], `<p>${words(12, 0)}</p>`);
  return files;
}

test("collect from a chapter takes the topics its table of contents lists once they join the target, not only those read first", async () => {
  const files = chapters();
  const dir = writeSite(files);
  try {
    const out = join(dir, 'out');
    const r = await gabarit(['collect', join(dir, 'site', 'manual', 'ch-b.html'), '--root', join(dir, 'site'), '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const taken = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pages: Array<{ key: string }> }).pages.map((p) => p.key).sort();
    // Every page of the manual (its index, chapters and topics) and none of the library's.
    assert.deepEqual(taken, Object.keys(files).filter((k) => k.startsWith('manual/')).sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The pages of a clustering as a partition (sets of keys, sorted), keys under `prefix` only, the prefix cut. */
function partition(clusters: ClusterOut[], prefix: string): string[][] {
  return clusters
    .map((c) => c.keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)).sort())
    .filter((ks) => ks.length > 0)
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

test('cluster on a folder of several sites side by side groups each site as if alone: its sections are its own folders', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-sites-'));
  try {
    const sites: Record<string, Record<string, string>> = { docs: twoSections(8), news: newspaper() };
    for (const [site, files] of Object.entries(sites)) {
      for (const [key, html] of Object.entries(files)) {
        for (const root of [join(dir, 'site', site), join(dir, `alone-${site}`, 'site')]) {
          mkdirSync(dirname(join(root, key)), { recursive: true });
          writeFileSync(join(root, key), html);
        }
      }
    }
    const { clusters, summary } = await clusterOf(dir);
    // No cluster holds pages of two sites, and the library and the manual are two clusters.
    assert.ok(clusters.every((c) => new Set(c.keys.map((k) => k.split('/')[0])).size === 1), JSON.stringify(clusters));
    const lib = clustersHolding(clusters, 'docs/library/');
    assert.equal(lib.length, 1, JSON.stringify(clusters));
    assert.ok(lib[0]!.keys.every((k) => !k.startsWith('docs/manual/')), JSON.stringify(lib[0]));
    assert.equal(lib[0]!.section, 'docs/library');
    assert.deepEqual((summary['sites'] as Array<{ site: string }>).map((x) => x.site), ['docs', 'news']);
    // Each site's pages are grouped as when the site is clustered alone.
    for (const site of Object.keys(sites)) {
      const alone = await clusterOf(join(dir, `alone-${site}`));
      assert.deepEqual(partition(clusters, `${site}/`), partition(alone.clusters, ''), site);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Sections: a top-level folder with its own index page and 3 pages; language prefixes passed over; digits and lone folders are none', () => {
  const s = new Sections(['index.html', 'library/index.html', 'library/os.html', 'library/re.html', 'c-api/', 'c-api/list.html', 'c-api/dict.html', 'zh-Hans/library/os.html', '2019/index.html', '2019/a.html', '2019/b.html', 'about/index.html', 'notes/a.html', 'notes/b.html', 'notes/c.html', 'blog', 'blog/a', 'blog/b?page=2']);
  assert.equal(s.of('library/os.html'), 'library');
  assert.equal(s.of('library/index.html'), 'library');
  assert.equal(s.of('zh-Hans/library/os.html'), 'library');
  assert.equal(s.of('http://example.org/c-api/list.html'), 'c-api');
  assert.equal(s.of('blog/a'), 'blog');
  assert.equal(s.of('index.html'), '');
  assert.equal(s.of('2019/a.html'), '', 'a folder with a digit is a value');
  assert.equal(s.of('about/index.html'), '', 'one page is no section');
  assert.equal(s.of('notes/a.html'), '', 'no index page');
  assert.deepEqual(s.list().map((x) => x.section), ['blog', 'c-api', 'library']);
});

test('sitesOf: first folders linked to no other folder of the set are sites, two or more of them', () => {
  const keys = ['a/index.html', 'a/x.html', 'a/y.html', 'b/index.html', 'b/x.html', 'b/y.html', 'c/index.html', 'c/x.html', 'c/y.html', 'top.html'];
  // a and b link only within themselves (and to a root folder the set lacks); c links to the root page.
  const linked = [['a', 'about'], ['a'], ['a'], ['b'], ['b'], [], ['c', ''], ['c'], ['c'], ['c']];
  const sites = sitesOf(keys, linked)!;
  assert.deepEqual([...sites.keys()], ['a', 'b', '']);
  assert.deepEqual(sites.get('')!, [6, 7, 8, 9]);
  // A site's folders joined by its menus are no sites.
  assert.equal(sitesOf(keys, [['a', 'b'], ['a'], ['a'], ['b'], ['b'], [], ['c'], ['c'], ['c'], ['c']]), null);
});
