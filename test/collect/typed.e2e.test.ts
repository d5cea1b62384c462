/**
 * `gabarit collect` on an API reference whose classes share one template and menus (test/collect/typed-site.ts),
 * over HTTP on 127.0.0.1: functions and macros differ only in the layout of their content; struct pages each
 * list their own methods under headings named after them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDirectory } from '../../src/site/serve.ts';
import { gabarit } from '../cli/gabarit-process.ts';
import { writeSite } from './fixture-site.ts';
import { typedSite } from './typed-site.ts';

interface Why {
  key: string;
  similarity: number;
  shapeSimilarity: number;
  kind: string;
  evidence: string;
}

/** Collects from `sample` over a served copy of the site; the pages taken, the summary and stderr. */
async function collectFrom(sample: string, site = typedSite()): Promise<{ pages: Why[]; summary: Record<string, unknown>; stderr: string; size: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-typed-'));
  const { files } = site;
  await writeSite(join(dir, 'site'), files);
  const served = await serveDirectory(join(dir, 'site'));
  try {
    const out = join(dir, 'out');
    const r = await gabarit(['collect', served.url + sample, '--out', out, '--delay', '0']);
    assert.equal(r.code, 0, r.stderr);
    const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as Why[];
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    return { pages, summary, stderr: r.stderr, size: files.size };
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('gabarit collect from a function page takes the functions, not the macros of the same template and menus', async () => {
  const site = typedSite();
  const { pages, summary, stderr, size } = await collectFrom(site.fn[4]!);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.fn].sort());
  const left = summary['pagesLeft'] as Why[];
  const macros = left.filter((p) => site.macro.includes(p.key));
  assert.ok(macros.length > 0, 'macro pages were read and left');
  // Why: the macros' schemas are as similar as the threshold; the kind their address names sets them apart.
  for (const p of macros) assert.equal(p.evidence, 'kind', `${p.key} left for ${p.evidence}`);
  assert.ok((summary['doubts'] as string[]).some((d) => /share their structure/.test(d)));
  assert.match(stderr, /share their structure/);
  assert.ok((summary['downloads'] as number) <= size);
});

test('gabarit collect from a struct page takes every struct page, each listing its own methods', async () => {
  const site = typedSite();
  for (const sample of [site.struct[0]!, site.struct[site.struct.length - 1]!]) {
    const { pages, summary, size } = await collectFrom(sample);
    assert.deepEqual(pages.map((p) => p.key).sort(), [...site.struct].sort(), `from ${sample}`);
    for (const p of pages) assert.equal(p.kind, 'struct');
    assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
    assert.equal(typeof (summary['options'] as Record<string, unknown>)['shapeSimilarity'], 'number');
  }
});

test('gabarit collect from a struct page takes every struct page of a partial copy, though its first index page names structs outside the copy', async () => {
  const site = typedSite({ partial: true });
  const { pages, summary, size } = await collectFrom(site.struct[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.struct].sort());
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});

test('gabarit collect from a struct page takes the structs of modules whose item pages were read before their index pages', async () => {
  const site = typedSite({ modulesMenu: false, firstAcross: true });
  const { pages, summary, size } = await collectFrom(site.struct[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.struct].sort());
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});

test('gabarit collect from a trait page takes the traits that only a module index lists, though the index pages read list none not taken', async () => {
  const site = typedSite({ seeAlso: true });
  const { pages, summary, size } = await collectFrom(site.trait[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.trait].sort());
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});

test('gabarit collect from a crate root does not widen its search once the links of its class were followed or given up as dead', async () => {
  // The crate root names twelve modules missing from the copy after its own: its list is given up after a
  // run of dead links, and the page of all items, a neighbour, would lead to items of every kind.
  const site = typedSite({ modules: 8, missing: 12, partial: true, allItems: true });
  const { pages, summary } = await collectFrom('index.html', site);
  assert.deepEqual(pages.map((p) => p.key).sort(), ['index.html', ...site.module].sort());
  const left = (summary['pagesLeft'] as Why[]).map((p) => p.key);
  const items = left.filter((k) => site.struct.includes(k) || site.trait.includes(k));
  assert.deepEqual(items, [], 'no struct or trait page is read: no widening');
});

test('gabarit collect from a trait page takes the traits only module indexes list, the module pages a cluster of their own', async () => {
  const site = typedSite({ seeAlso: true, oneTable: true });
  const { pages, summary, size } = await collectFrom(site.trait[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.trait].sort());
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});

test('gabarit collect from a struct page of a reference of two modules takes every struct, the kinds learnt from a module table of items of several kinds', async () => {
  // Each token (`struct`, `fn`, …) is seen in two folders only and with fewer than 20 names: only a module's
  // table, listing structs, functions and macros by their kinds, tells them.
  const site = typedSite({ modules: 2 });
  const { pages, summary, size } = await collectFrom(site.struct[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.struct].sort());
  for (const p of pages) assert.equal(p.kind, 'struct');
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});

test('gabarit collect from a struct page takes the structs only module indexes list, after trait pages listing implementors served as index pages', async () => {
  // The trait pages list most structs and are the first index; the module pages, a cluster of their own, join
  // the traits' index target by single linkage (a trait lists its implementors as a module lists its
  // structs) and list the traits no struct names, but give it no index page of its kind: they still list the
  // structs that implement no trait.
  const site = typedSite({ implementors: true, firstAcross: true });
  const { pages, summary, size } = await collectFrom(site.struct[0]!, site);
  assert.deepEqual(pages.map((p) => p.key).sort(), [...site.struct].sort());
  assert.ok((summary['downloads'] as number) <= size, `${String(summary['downloads'])} downloads for ${size} pages`);
});
