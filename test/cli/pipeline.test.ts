/**
 * `gabarit template` and `gabarit content` over the library's pipelines, as a user runs them: jsonl
 * records on stdout (`--format jsonl --out -`) or in pages.jsonl, and bad options refused with exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lonePage, sitePage, writeMixed, writeSite } from '../run/fixtures.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import { gabarit } from './gabarit-process.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('content --format jsonl --out -: one record per page on stdout, the summary on stderr', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 5);
  const r = await gabarit(['content', join(dir, 'site'), '--format', 'jsonl', '--out', '-', '--method', 'align']);
  assert.equal(r.code, 0, r.stderr);
  const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { key: string; url: string; title: string; text: string; templateFraction: number });
  assert.deepEqual(records.map((x) => x.key).sort(), ['p0.html', 'p1.html', 'p2.html', 'p3.html', 'p4.html']);
  for (const x of records) {
    assert.match(x.text, /Story \d tells of the/);
    assert.doesNotMatch(x.text, /Copyright alpha/);
    assert.match(x.url, /^file:/);
  }
  assert.match(r.stderr, /pages done: 5/);
});

test('template --format jsonl --out DIR: pages.jsonl, template.json and summary.json, no page files', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 4);
  const out = join(dir, 'out');
  const r = await gabarit(['template', join(dir, 'site'), '--format', 'jsonl', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const lines = (await readFile(join(out, 'pages.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 4);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(summary['pagesDone'], 4);
  await assert.rejects(readFile(join(out, 'p0.txt'), 'utf8'), 'no page file in jsonl form');
});

test('bad options and destinations are usage errors (exit 2)', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 3);
  const site = join(dir, 'site');
  for (const args of [
    ['template', site, '--method', 'pagelets', '--backend', 'sqlite'],
    ['template', site, '--method', 'pagelets', '--k', 'three'],
    ['template', site, '--method', 'align', '--min-evidence', '2'],
    ['template', site, '--method', 'align', '--k', '3'],
    ['template', site, '--out', '-'],
    ['content', site, '--format', 'jsonl', '--out', '-', '--json'],
  ]) {
    const r = await gabarit([...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^gabarit: /m);
  }
});

test('content of one page file, and template of a one-page directory: the main block, exit 0', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'page.html'), lonePage('gamma', 1));
  const r = await gabarit(['content', join(dir, 'page.html'), '--out', join(dir, 'c')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(await readFile(join(dir, 'c', 'page.txt'), 'utf8'), /Story 101 tells of the/);
  // The headline is its own field, in JSON and JSONL alike (the text is the body; --headline first puts it first too).
  const json = await gabarit(['content', join(dir, 'page.html'), '--format', 'json', '--out', join(dir, 'j')]);
  assert.equal(json.code, 0, json.stderr);
  const page = JSON.parse(await readFile(join(dir, 'j', 'page.json'), 'utf8')) as { title: string; headline: string; text: string };
  for (const [args, first] of [[[], false], [['--headline', 'first'], true]] as const) {
    const l = await gabarit(['content', join(dir, 'page.html'), '--format', 'jsonl', '--out', '-', ...args]);
    assert.equal(l.code, 0, l.stderr);
    const rec = JSON.parse(l.stdout) as { title: string; headline: string; text: string };
    assert.equal(rec.title, 'gamma');
    assert.equal(rec.headline, 'gamma: a report');
    assert.equal(rec.text.startsWith('gamma: a report\n'), first, rec.text);
    if (!first) assert.deepEqual({ title: page.title, headline: page.headline, text: page.text }, { title: rec.title, headline: rec.headline, text: rec.text });
  }
  await mkdir(join(dir, 'one'));
  await writeFile(join(dir, 'one', 'index.html'), lonePage('delta', 2));
  const t1 = await gabarit(['template', join(dir, 'one'), '--out', join(dir, 't')]);
  assert.equal(t1.code, 0, t1.stderr);
  assert.match(t1.stdout, /^method: align \(1 site\(s\): a template learned on 0; 1 page\(s\) alone/m, 'the printed method says the page was alone');
  assert.match(await readFile(join(dir, 't', 'index.txt'), 'utf8'), /Story 102 tells of the/);
});

test('a mixed directory: every page keeps its article; summary.json lists the sites', async (t) => {
  const dir = await tempDir(t);
  await writeMixed(join(dir, 'mixed'));
  for (const command of ['template', 'content']) {
    const out = join(dir, command);
    const r = await gabarit([command, join(dir, 'mixed'), '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    for (const f of ['alpha-0', 'beta-2', 'gamma', 'delta', 'lone-1', 'lone-2']) assert.match(await readFile(join(out, f + '.txt'), 'utf8'), /Story \d+ tells of the/, `${command} ${f}`);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { engine: { sites: unknown[]; sitesAlone: number }; pagesNoContent: number };
    assert.equal(summary.engine.sites.length, 6);
    assert.equal(summary.engine.sitesAlone, 4);
    assert.equal(summary.pagesNoContent, 0);
  }
});

test('a directory of sites that took different engines: the first line counts the sites each engine learned on', async (t) => {
  const dir = await tempDir(t);
  await writeMixed(join(dir, 'all', 'mixed'));
  // a site whose home page links to its pages: its link graph (the mixed sites go through align)
  await writeSite(join(dir, 'all', 'docs'), 6, 'omega');
  await writeFile(join(dir, 'all', 'docs', 'index.html'), sitePage('omega', 20, 6));
  const r = await gabarit(['content', join(dir, 'all'), '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^method: (align|hyperlink) \(\d+ sites: a template learned on 3 \((align 2, hyperlink 1|hyperlink 2, align 1)\), \d+ page\(s\) alone/m, r.stdout);
  const summary = JSON.parse(await readFile(join(dir, 'out', 'summary.json'), 'utf8')) as { engine: { sites: Array<{ method: string }> } };
  assert.deepEqual([...new Set(summary.engine.sites.map((s) => s.method))].sort(), ['align', 'hyperlink', 'main-block']);
});

test('a directory of one site whose pages differ in length is one site: a long page is not split off', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await writeSite(site, 5);
  // A chapter page: the site's menu and footer around a list of many sections, each a short line of its own.
  const list = Array.from({ length: 300 }, (_, k) => `<li><a href="s${k}.html">Section ${k}: the ${k % 7 === 0 ? 'granite' : 'meadow'} part ${k * 13}</a></li>`).join('\n');
  await writeFile(join(site, 'chapter.html'), sitePage('alpha', 9, 5).replace(/<main>[\s\S]*<\/main>/, `<main><h1>Chapter 9 on alpha</h1><ul class="toc">${list}</ul></main>`));
  const out = join(dir, 'out');
  const r = await gabarit(['content', site, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  // One site: the engine runs on the whole directory, and no list of sites is printed or written.
  assert.doesNotMatch(r.stdout, /site\(s\)/, r.stdout);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { engine: { sites?: unknown } };
  assert.equal(summary.engine.sites, undefined, JSON.stringify(summary.engine));
  const chapter = await readFile(join(out, 'chapter.txt'), 'utf8');
  assert.match(chapter, /Section 299: the meadow part/, 'the chapter keeps its list');
  assert.doesNotMatch(chapter, /Contact, terms and privacy/, "the site's footer is template on the chapter too");
});

test("a directory whose root has no index file is entered at its shallowest index.html, as a site's home page", async (t) => {
  const dir = await tempDir(t);
  // All pages under docs/ (a rustdoc or javadoc tree): docs/index.html links to the site's pages.
  await writeSite(join(dir, 'tree', 'docs'), 6);
  await writeFile(join(dir, 'tree', 'docs', 'index.html'), sitePage('alpha', 20, 6));
  const r = await gabarit(['content', join(dir, 'tree'), '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^method: hyperlink \(entry page links to \d+\+ pages of the source/m, r.stdout);
  const summary = JSON.parse(await readFile(join(dir, 'out', 'summary.json'), 'utf8')) as { engine: { keyPage?: { key: string } } };
  assert.equal(summary.engine.keyPage?.key, 'docs/index.html');
});

test('a mirror of part of a site: its home page links first to pages not saved, then to pages held; the link graph is found', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'part'), 6);
  // The home page's header links to ten pages the mirror lacks (about, search, download …) before its list of pages.
  const missing = Array.from({ length: 10 }, (_, k) => `<a href="missing-${k}.html">Missing ${k}</a>`).join(' ');
  await writeFile(join(dir, 'part', 'index.html'), sitePage('alpha', 30, 6).replace('<header>', `<header><div class="top">${missing}</div>`));
  const r = await gabarit(['content', join(dir, 'part'), '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^method: hyperlink \(entry page links to \d+\+ pages of the source/m, r.stdout);
});

/**
 * A documentation site as Sphinx lays it out: a menu linking every page, the page's section under its
 * title, a sidebar of the page's own headings and a pager; `body` is what the section holds after the title.
 */
function docPage(title: string, body: string, prev: string, next: string, heading = title): string {
  const menu = ['index', 'typing', 'pydoc', 'doctest', 'unittest', 'chapter'].map((k) => `<li><a href="${k}.html">The ${k} page</a></li>`).join('');
  const id = title.toLowerCase().replace(/\W+/g, '-');
  return `<!DOCTYPE html><html><head><title>${title} — Fixture documentation</title></head><body>
<div class="header"><ul class="menu">${menu}</ul></div>
<div class="document"><div class="body" role="main"><section id="${id}"><h1>${heading}</h1>${body}</section></div></div>
<div class="sidebar"><h3>On this page</h3><ul><li><a href="#${id}">${title}</a></li><li><a href="#${id}-use">Using ${title}</a></li><li><a href="#${id}-api">Reference of ${title}</a></li></ul></div>
<div class="related"><a href="${prev}.html">Previous: ${prev}</a> <a href="${next}.html">Next: ${next}</a></div>
<div class="footer">© Copyright of the fixture documentation, built by its generator.</div>
</body></html>`;
}

test("after a site's link graph, link lists under the page's title stay (a chapter's table of contents, a trait's implementations), not the pager and sidebar around them", async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'docs'));
  const modules = ['typing', 'pydoc', 'doctest', 'unittest'];
  const prose = (m: string, k: number): string =>
    `<p>The ${m} module, part ${k} of its description: it explains how ${m} reads its input, which options change what it does, and what it writes back to the caller once the work is done.</p>`;
  await writeFile(join(dir, 'docs', 'index.html'), docPage('Fixture documentation', prose('index', 0) + prose('index', 1), 'index', 'typing'));
  for (const [k, m] of modules.entries()) {
    await writeFile(join(dir, 'docs', `${m}.html`), docPage(`The ${m} module`, [0, 1, 2, 3].map((p) => prose(m, p)).join(''), modules[k - 1] ?? 'index', modules[k + 1] ?? 'chapter'));
  }
  // A chapter: an intro, then the list of its pages and their sections.
  const toc = modules.map((m) => `<li><a href="${m}.html">${m} — the ${m} module</a><ul><li><a href="${m}.html#use">Using ${m} in a program</a></li><li><a href="${m}.html#api">Reference of ${m}</a></li></ul></li>`).join('');
  const intro =
    '<p>The modules described in this chapter help you write software. For example, pydoc takes a module and writes its documentation, and doctest runs the examples of the documentation to check that they give the output they show.</p>';
  await writeFile(join(dir, 'docs', 'chapter.html'), docPage('Development Tools', `${intro}<p>The list of modules described in this chapter is:</p><div class="toctree-wrapper"><ul>${toc}</ul></div>`, 'unittest', 'index'));
  // A page whose title is printed in other words than its <title>'s (as rustdoc does): its list of
  // implementations, each line mostly links, after the prose.
  const impls = modules.map((m) => `<h3 class="code-header">impl <a href="${m}.html">Reader</a> for <a href="${m}.html">${m}::Source</a></h3>`).join('');
  await writeFile(join(dir, 'docs', 'reader.html'), docPage('Reader in fixture', `<div class="docblock">${prose('reader', 0)}${prose('reader', 1)}</div><h2>Implementors</h2><div class="item-list">${impls}</div>`, 'index', 'typing', 'Trait fixture::io::Reader'));
  const r = await gabarit(['content', join(dir, 'docs'), '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^method: hyperlink/m, r.stdout);
  const text = await readFile(join(dir, 'out', 'chapter.txt'), 'utf8');
  assert.match(text, /help you write software/);
  for (const m of modules) assert.ok(text.includes(`${m} — the ${m} module`) && text.includes(`Reference of ${m}`), `the chapter's list keeps ${m}:\n${text}`);
  assert.doesNotMatch(text, /Previous: |Next: |On this page|Using Development Tools/, `the pager and the sidebar are navigation:\n${text}`);
  // A module page keeps its prose, not its sidebar nor its pager.
  const typing = await readFile(join(dir, 'out', 'typing.txt'), 'utf8');
  assert.match(typing, /part 3 of its description/);
  assert.doesNotMatch(typing, /Previous: |On this page|Reference of The typing module/);
  // The page titled in other words keeps its implementations, and still not its pager.
  const reader = await readFile(join(dir, 'out', 'reader.txt'), 'utf8');
  for (const m of modules) assert.ok(reader.includes(`${m}::Source`), `the implementations stay (${m}):\n${reader}`);
  assert.doesNotMatch(reader, /Previous: |On this page/);
});

test('no empty success: pages with no content are named on stderr and in summary.json; none with content is exit 1', async (t) => {
  const dir = await tempDir(t);
  // A site's menu and footer, nothing else (a directory's pages are one site when they share enough of them).
  const links = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'].map((n) => `<a href="${n.toLowerCase()}.html">${n} section</a>`).join(' ');
  const menu = (i: number): string => `<html><head><title>M${i}</title></head><body><nav class="menu">${links}</nav><footer class="foot"><p>Same footer on every page</p><p>Contact and terms</p></footer></body></html>`;
  await mkdir(join(dir, 'menus'));
  for (let i = 0; i < 3; i++) await writeFile(join(dir, 'menus', `m${i}.html`), menu(i));
  const r = await gabarit(['template', join(dir, 'menus'), '--out', join(dir, 'out')]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /m0\.html: .*template/);
  assert.match(r.stderr, /no content kept on any of the 3 page/);
  const summary = JSON.parse(await readFile(join(dir, 'out', 'summary.json'), 'utf8')) as { pagesNoContent: number; noContent: Array<{ key: string; code: string }> };
  assert.equal(summary.pagesNoContent, 3);
  assert.deepEqual(summary.noContent.map((f) => f.code), ['no-content', 'no-content', 'no-content']);
});

test('apply: template.json of gabarit template read back, the same kept text, new pages marked too', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 6);
  for (const method of ['align', 'hyperlink', 'pagelets']) {
    const out = join(dir, `t-${method}`);
    const r = await gabarit(['template', join(dir, 'site'), '--method', method, '--out', out, ...(method === 'hyperlink' ? ['--key', 'p0.html'] : [])]);
    assert.equal(r.code, 0, r.stderr);
    const a = await gabarit(['apply', join(out, 'template.json'), join(dir, 'site'), '--out', join(dir, `a-${method}`)]);
    assert.equal(a.code, 0, a.stderr);
    for (let i = 0; i < 6; i++) {
      assert.equal(await readFile(join(dir, `a-${method}`, `p${i}.txt`), 'utf8'), await readFile(join(out, `p${i}.txt`), 'utf8'), `${method} p${i}`);
    }
  }
  await mkdir(join(dir, 'new'));
  const { sitePage } = await import('../run/fixtures.ts');
  await writeFile(join(dir, 'new', 'p7.html'), sitePage('alpha', 7, 6));
  const n = await gabarit(['apply', join(dir, 't-align', 'template.json'), join(dir, 'new', 'p7.html'), '--format', 'jsonl', '--out', '-']);
  assert.equal(n.code, 0, n.stderr);
  const rec = JSON.parse(n.stdout) as { text: string };
  assert.match(rec.text, /Story 7 tells of the/);
  assert.doesNotMatch(rec.text, /Copyright alpha/);
  const missing = await gabarit(['apply', join(dir, 'nope.json'), join(dir, 'site')]);
  assert.equal(missing.code, 2);
  const notTemplate = await gabarit(['apply', join(dir, 't-align', 'summary.json'), join(dir, 'site')]);
  assert.equal(notTemplate.code, 2);
  assert.match(notTemplate.stderr, /not a gabarit template/);
});
