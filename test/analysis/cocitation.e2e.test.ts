import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cocited } from '../../src/analysis/cocitation.ts';
import { loadSitePagelets } from '../../src/analysis/site-pagelets.ts';
import { memorySource } from '../template/pagelets/fixtures.ts';

test('co-citation counts within pagelets and ignores template citations', async () => {
  const menu = '<ul><li><a href="t.html">T</a></li><li><a href="m1.html">M1</a></li><li><a href="m2.html">M2</a></li></ul>';
  const pages: Record<string, string> = {};
  const w = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  for (let i = 0; i < 6; i++) {
    // every page: the menu (a template citing t with m1, m2); pages 0-2 also cite t beside r in their article,
    // and mention "far" in another block of the article
    const article = i < 3
      ? `<div><p>Text ${w[i]} <a href="t.html">t</a> <a href="r.html">r</a> <a href="x${i}.html">x</a></p><p>Other ${w[i + 3]} <a href="far.html">far</a> <a href="y.html">y</a> <a href="z${i}.html">z</a></p></div>`
      : `<p>Unique text number ${i * 7} words</p>`;
    pages[`p${i}.html`] = `<html><body><nav>${menu}</nav><main><h1>Page ${['one','two','three','four','five','six'][i]}</h1>${article}</main></body></html>`;
  }
  const site = await loadSitePagelets(memorySource(pages), { minSupport: 0, global: false }); // pages do not link to each other: Figure 4
  const related = cocited(site, 'http://site.test/t.html');
  assert.equal(related[0]!.url, 'http://site.test/r.html');
  assert.equal(related[0]!.score, 3);
  assert.ok(!related.some((r) => r.url.endsWith('m1.html')), 'menu co-citations are ignored');
  assert.ok(!related.some((r) => r.url.endsWith('far.html')), 'another pagelet of the page does not count');
  const classic = cocited(site, 'http://site.test/t.html', { ignoreTemplates: false, pageWeight: 1 });
  assert.equal(classic[0]!.score, 6);
  assert.ok(classic.slice(0, 2).some((r) => r.url.endsWith('m1.html')), 'page-level co-citation is dominated by the menu');
});

test('gabarit cocited: the same counts from a directory, a page named by its key, files written', async () => {
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { COCITED_OPTIONS, SOURCE_OPTIONS } = await import('../../src/run/options.ts');
  const { cocitedCommand } = await import('../../src/run/cocited.ts');
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-cocited-'));
  const menu = '<ul><li><a href="t.html">T</a></li><li><a href="m1.html">M1</a></li><li><a href="m2.html">M2</a></li></ul>';
  const w = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  for (let i = 0; i < 6; i++) {
    const article = i < 3 ? `<p>Text ${w[i]} <a href="t.html">t</a> <a href="r.html">r</a> <a href="x${i}.html">x</a></p>` : `<p>Unique text number ${i * 7} words</p>`;
    writeFileSync(join(dir, `p${i}.html`), `<html><body><nav>${menu}</nav><main><h1>Page ${w[i]}</h1>${article}</main></body></html>`);
  }
  const flags = { ...SOURCE_OPTIONS.defaults(), ...COCITED_OPTIONS.parse({ url: 't.html', top: 5, local: true }), out: join(dir, 'out') };
  try {
    const { related, summary } = await cocitedCommand(join(dir), flags);
    assert.equal(summary.pagesDone, 6);
    assert.deepEqual(related[0], { url: 'http://local.invalid/r.html', key: 'r.html', score: 3 });
    assert.equal(summary.targetKey, 't.html');
    assert.ok(!related.some((r) => r.url.endsWith('m1.html')));
    const written = JSON.parse(readFileSync(join(dir, 'out', 'cocited.json'), 'utf8')) as { related: unknown[] };
    assert.deepEqual(written.related, related);
    const classic = await cocitedCommand(join(dir), { ...flags, pageWeight: 1, keepTemplates: true });
    assert.ok(classic.related.slice(0, 2).some((r) => r.url.endsWith('m1.html')), 'with template citations, the menu dominates');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Six pages citing t.html beside r.html in their article, under a shared menu, written to a temporary directory. */
async function cocitedSite(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-cocited-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const menu = '<ul><li><a href="t.html">T</a></li><li><a href="m1.html">M1</a></li><li><a href="m2.html">M2</a></li></ul>';
  const w = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  for (let i = 0; i < 6; i++) {
    const article = i < 3 ? `<p>Text ${w[i]} <a href="t.html">t</a> <a href="sub/r.html">r</a> <a href="x${i}.html">x</a></p>` : `<p>Unique text number ${i * 7} words</p>`;
    await writeFile(join(dir, `p${i}.html`), `<html><body><nav>${menu}</nav><main><h1>Page ${w[i]}</h1>${article}</main></body></html>`);
  }
  return dir;
}

test('gabarit cocited and hits on a directory print page keys, not http://local.invalid/ URLs', async (t) => {
  const { gabarit } = await import('../cli/gabarit-process.ts');
  const { join } = await import('node:path');
  const dir = await cocitedSite(t);
  const c = await gabarit(['cocited', dir, '--url', 't.html', '--local', '-q', '--out', join(dir, 'out-c')]);
  assert.equal(c.code, 0, c.stderr);
  assert.match(c.stdout, /co-cited with t\.html:/);
  assert.match(c.stdout, /^\s+3\.00 {2}sub\/r\.html$/m);
  assert.doesNotMatch(c.stdout, /local\.invalid/);
  const h = await gabarit(['hits', dir, '--local', '-q', '--out', join(dir, 'out-h')]);
  assert.equal(h.code, 0, h.stderr);
  assert.match(h.stdout, /top authorities:\n\s+\d\.\d{4} {2}t\.html/);
  assert.doesNotMatch(h.stdout, /local\.invalid/);
});

test('gabarit cocited --url with a page the source does not know is a usage error (exit 2), not "(none)"', async (t) => {
  const { gabarit } = await import('../cli/gabarit-process.ts');
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const dir = await cocitedSite(t);
  const out = join(dir, 'out');
  const r = await gabarit(['cocited', dir, '--url', 'no-such-page.html', '--local', '-q', '--out', out]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--url no-such-page\.html: not a page of .*, and no page of it links there/);
  assert.doesNotMatch(r.stdout, /\(none\)/);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { error?: { code: string } };
  assert.equal(summary.error?.code, 'unknown-page');
  // a page that is linked but not in the directory is known: it can be asked about
  const linked = await gabarit(['cocited', dir, '--url', 'm1.html', '--local', '-q', '--out', out]);
  assert.equal(linked.code, 0, linked.stderr);
});
