/**
 * Learn once, apply many: a template learned by each engine survives JSON, and applied to the pages it was
 * learned on it gives the one-shot run's marks; applied to new pages of the site it removes the site's
 * template from them too. A template that cannot be read is a TemplateError naming why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyTemplate, compileTemplate, learnTemplate } from '../../src/run/learn.ts';
import { detectTemplate } from '../../src/run/template.ts';
import { parseHtml } from '../../src/html/parse.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { MemorySource } from '../../src/site/memory-source.ts';
import { readTemplate, TEMPLATE_VERSION, TemplateError, type Template } from '../../src/template/learned.ts';
import { keptText } from '../../src/template/result.ts';
import { sitePage } from './fixtures.ts';

const N = 8;
const pages = Array.from({ length: N }, (_, i) => ({ key: `p${i}.html`, body: sitePage('alpha', i, N) }));

/** Options off their defaults that change how pages are marked: the template must carry them to `apply`. */
const OFF_DEFAULT = {
  align: { mismatch: 0, lineRule: false, navigationRegions: false },
  hyperlink: { regionsDecidedBy: 'key', navigationLinkShare: 0.3, linkOrder: 'document' },
  pagelets: { navigationPagelets: false, contentShare: 0.5, minhashes: 4, landmarks: false, navigationItems: false },
} as const;

for (const method of ['align', 'hyperlink', 'pagelets'] as const) {
  for (const [what, options] of [['defaults', {}], ['options off their defaults', OFF_DEFAULT[method]]] as const) {
    const extra = { ...options, ...(method === 'pagelets' ? { workers: 0 } : {}) };

    test(`${method}, ${what}: learn, JSON round trip, apply = the one-shot run on the same pages`, async () => {
      const { template: learned } = await learnTemplate(new MemorySource(pages), { method, ...extra });
      const template = JSON.parse(JSON.stringify(learned)) as unknown;
      const t = readTemplate(template) as Template;
      assert.equal(t.method, method);
      assert.equal(t.version, TEMPLATE_VERSION);
      const oneShot = new Map<string, string>();
      for await (const o of detectTemplate(new MemorySource(pages), { method, ...extra })) if (o.ok) oneShot.set(o.key, keptText(o.marks));
      assert.equal(oneShot.size, N);
      for (const p of pages) {
        const a = applyTemplate(template, p.body, { key: p.key, url: `http://memory.invalid/${p.key}` });
        assert.equal(keptText(a), oneShot.get(p.key), `${method} ${p.key}`);
      }
    });
  }

  test(`${method}: applied to pages it was not learned on, the site's template is removed`, async () => {
    const { template: learned } = await learnTemplate(new MemorySource(pages.slice(0, 5)), { method, ...(method === 'pagelets' ? { workers: 0 } : {}) });
    for (let i = 5; i < N; i++) {
      const a = applyTemplate(learned, sitePage('alpha', i, N));
      const text = keptText(a);
      assert.match(text, new RegExp(`Story ${i} tells of the`), `${method} p${i}: the article is kept`);
      assert.doesNotMatch(text, /Copyright alpha/, `${method} p${i}: the footer is template`);
    }
  });
}

test('align: a Tree parsed with another label table gives the same marks as the HTML', async () => {
  const learned = (await learnTemplate(new MemorySource(pages), { method: 'align' })).template as Template;
  const html = sitePage('alpha', 9, N);
  const fromHtml = applyTemplate(learned, html);
  const fromTree = applyTemplate(learned, parseHtml(html, { labels: new LabelTable() }));
  assert.deepEqual(Array.from(fromTree.template), Array.from(fromHtml.template));
  assert.ok(fromHtml.template.some((x) => x === 1));
});

test('a template that cannot be read says why', async () => {
  const learned = (await learnTemplate(new MemorySource(pages), { method: 'align' })).template as Template;
  assert.throws(() => readTemplate({ method: 'align' }), (e: unknown) => e instanceof TemplateError && /not a gabarit template/.test(e.message));
  assert.throws(() => readTemplate({ ...learned, version: TEMPLATE_VERSION + 1 }), /version/);
  assert.throws(() => compileTemplate({ ...learned, method: 'magic' }), /unknown method "magic"/);
  assert.throws(() => compileTemplate({ ...learned, data: { tokens: 'none' } }), (e: unknown) => e instanceof TemplateError && /align template: data/.test(e.message));
  await assert.rejects(learnTemplate(new MemorySource(pages.slice(0, 1)), { method: 'align' }), /at least two pages/);
});

test('hyperlink: navigation regions decided by the key page travel with the template', async () => {
  // A bar of links on the key page and two pages, plain words on the third: with `--regions-decided-by key`
  // it is navigation (template) on every page; decided by all pages it is not, and the plain words stay.
  const prose = (w: string): string => `<p>The ${w} article tells of ${w}s at length, with ${w} words, more ${w} words and a last ${w} sentence.</p>`;
  const menu = '<ul class="menu"><li><a href="k.html">Home</a></li><li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li><li><a href="c.html">Gamma</a></li></ul>';
  const page = (bar: string, w: string): string =>
    `<html><body><div class="logo">Site name</div>${menu}<nav class="bar">${bar}</nav><main class="doc">${prose(w)}</main><footer>Site footer</footer></body></html>`;
  const site = [
    { key: 'k.html', body: page('<a href="/x/one">Kappa one</a><a href="/x/two">Kappa two</a>', 'kappa') },
    { key: 'a.html', body: page('<span>Plain one</span><span>Plain two</span>', 'alpha') },
    { key: 'b.html', body: page('<a href="/y/one">Beta one</a><a href="/y/two">Beta two</a>', 'beta') },
    { key: 'c.html', body: page('<a href="/z/one">Gamma one</a><a href="/z/two">Gamma two</a>', 'gamma') },
  ];
  const plain = new Map<string, boolean>();
  for (const regionsDecidedBy of ['key', 'all'] as const) {
    const options = { method: 'hyperlink', key: 'k.html', regionsDecidedBy } as const;
    const template = JSON.parse(JSON.stringify((await learnTemplate(new MemorySource(site), options)).template)) as Template;
    assert.equal((template.data as { regionsDecidedBy: string }).regionsDecidedBy, regionsDecidedBy);
    const oneShot = new Map<string, string>();
    for await (const o of detectTemplate(new MemorySource(site), options)) if (o.ok) oneShot.set(o.key, keptText(o.marks));
    for (const p of site) assert.equal(keptText(applyTemplate(template, p.body, { key: p.key })), oneShot.get(p.key), `${regionsDecidedBy} ${p.key}`);
    const a = oneShot.get('a.html')!;
    assert.match(a, /alpha article/, `${regionsDecidedBy}: the content is kept`);
    plain.set(regionsDecidedBy, /Plain one/.test(a));
  }
  assert.deepEqual(Object.fromEntries(plain), { key: false, all: true });
});

test('learnTemplate names the pages it could not learn from, on a source of one site and of several', async (t) => {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-learn-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const maxBytes = 20_000;
  for (const p of pages) await writeFile(join(dir, p.key), p.body);
  await writeFile(join(dir, 'huge.html'), `<html><body><p>${'padding '.repeat(maxBytes / 4)}</p></body></html>`);
  // The engines that learn from every page (hyperlink learns from the pages its key page links to, and
  // names those it could not load by a warning).
  for (const method of ['align', 'pagelets'] as const) {
    const { template, failures } = await learnTemplate(dir, { method, sourceOptions: { maxBytes }, ...(method === 'pagelets' ? { workers: 0 } : {}) });
    assert.equal((template as Template).method, method);
    assert.deepEqual(failures.map((f) => f.key), ['huge.html'], method);
  }
  // Another site beside it: each site is learned on its own pages, the unreadable page is named once.
  for (let i = 0; i < 4; i++) await writeFile(join(dir, `other${i}.html`), sitePage('beta', i, 4).replace('<head>', `<head><link rel="canonical" href="https://beta.example/${i}.html">`));
  const mixed = await learnTemplate(dir, { method: 'align', sourceOptions: { maxBytes } });
  assert.equal((mixed.template as { sites?: unknown[] }).sites?.length, 2);
  assert.deepEqual(mixed.failures.map((f) => f.key), ['huge.html']);
  assert.match(mixed.failures[0]!.message, /\d/);
});
