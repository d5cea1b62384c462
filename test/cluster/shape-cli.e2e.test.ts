/**
 * `gabarit cluster --by shape` on small generated documentation sites: classes that share the site's
 * template and menus but lay out their content differently are told apart, and pages of one class that
 * each list their own items (under headings named after them, in numbers that differ) are kept together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from '../cli/gabarit-process.ts';

const MENU = ['intro', 'install', 'config', 'deploy', 'faq'];

/** A page of the site's template: header menu, sidebar of sections (the current one marked), footer. */
function page(title: string, current: string, sidebar: string, content: string): string {
  const menu = MENU.map((m) => `<li${m === current ? ' class="current"' : ''}><a href="${m}.html">${m}</a></li>`).join('');
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header class="top"><a class="logo" href="index.html">Docs</a><nav class="menu"><ul>${menu}</ul></nav></header>
<div class="wrap"><aside class="side">${sidebar}</aside>
<main class="body"><article class="doc"><h1>${title}</h1>${content}</article></main></div>
<footer class="bottom"><p>Built by a generator. <a href="about.html">About</a></p></footer></body></html>`;
}

const words = (n: number, seed: number): string => Array.from({ length: n }, (_, k) => ['the', 'module', 'reads', 'a', 'value', 'from', 'its', 'file', 'and', 'writes'][(k * 7 + seed) % 10]).join(' ');

/** A module reference page: a summary table of its directives, then a section per directive. */
function modulePage(i: number): string {
  const directives = Array.from({ length: 2 + (i % 5) }, (_, k) => `dir_${i}_${k}`);
  const table = `<table class="summary"><tr><th>Directive</th><th>Default</th></tr>${directives.map((d) => `<tr><td><a href="#${d}">${d}</a></td><td><code>off</code></td></tr>`).join('')}</table>`;
  const sections = directives.map((d, k) => `<div class="directive"><h2 id="${d}">${d}</h2><table class="syntax"><tr><th>Syntax:</th><td><code>${d} value;</code></td></tr><tr><th>Context:</th><td>http</td></tr></table><p>${words(20 + k, i)}</p></div>`).join('');
  return page(`Module ${i}`, 'config', '<ul class="toc"><li><a href="config.html">Reference</a></li></ul>', `<p>${words(25, i)}</p>${table}${sections}`);
}

/** A how-to page: prose, a list of steps and a code example. */
function howtoPage(i: number): string {
  const paras = Array.from({ length: 3 + (i % 3) }, (_, k) => `<p>${words(30 + k, i + k)}</p>`).join('');
  return page(`How to ${i}`, 'config', '<ul class="toc"><li><a href="config.html">Reference</a></li></ul>', `${paras}<h2>Steps</h2><ol><li>${words(8, i)}</li><li>${words(9, i)}</li></ol><pre><code>run ${i}</code></pre><p>${words(20, i)}</p>`);
}

/** Optional sections of an API class page, each listed in the sidebar when the class has such items. */
const SECTIONS = ['method', 'field', 'trait', 'auto', 'blanket'];

/**
 * An API class page: its own items, in the sections it has, listed in the sidebar and documented each under
 * a heading of its name; how many items and which sections differ from page to page.
 */
function classPage(i: number): string {
  const present = SECTIONS.filter((_, k) => k === 0 || ((i >> k) & 1) === 1 || (i + k) % 4 === 0);
  let sidebar = '';
  let content = `<div class="docblock"><p>${words(25, i)}</p></div>`;
  for (const sec of present) {
    const items = Array.from({ length: 1 + ((i * 5 + sec.length) % 9) }, (_, k) => `${sec}${i}x${k}`);
    sidebar += `<h3><a href="#${sec}s">${sec}s</a></h3><ul class="block ${sec}">${items.map((m) => `<li><a href="#${m}">${m}</a></li>`).join('')}</ul>`;
    content += `<h2 id="${sec}s" class="section-header">${sec}s</h2>`;
    content += items.map((m, k) => `<section class="method"><h4 id="${m}" class="code-header">pub fn ${m}(&amp;self) -&gt; u${k}</h4><div class="docblock"><p>${words(12 + k, i)}</p></div></section>`).join('');
  }
  return page(`Struct Type${i}`, 'intro', sidebar, content);
}

/** A module index page: a table of the module's items. */
function indexPage(i: number): string {
  const items = Array.from({ length: 3 + i }, (_, k) => `<li><a class="struct" href="struct.Type${k}.html">Type${k}</a><span class="desc">${words(6, k)}</span></li>`).join('');
  return page(`Module m${i}`, 'intro', '<ul class="toc"><li><a href="index.html">Crate</a></li></ul>', `<div class="docblock"><p>${words(22, i)}</p></div><h2 id="structs" class="section-header">Structs</h2><ul class="item-table">${items}</ul>`);
}

interface ClusterOut {
  id: string;
  keys: string[];
  why?: { nearest: string | null; similarity: number; apart: string[]; lacks: string[] };
}

/** Writes the pages in a temporary directory, runs `gabarit cluster --by shape`, returns page → cluster. */
async function clusterShape(pages: Record<string, string>, seen?: (clusters: ClusterOut[]) => void): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shape-'));
  try {
    for (const [key, html] of Object.entries(pages)) writeFileSync(join(dir, key), html);
    const out = join(dir, 'out');
    const r = await gabarit(['cluster', join(dir), '--by', 'shape', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const clusters = JSON.parse(readFileSync(join(out, 'clusters.json'), 'utf8')) as ClusterOut[];
    seen?.(clusters);
    return new Map(clusters.flatMap((c) => c.keys.map((k) => [k, c.id] as [string, string])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const clustersOf = (assignment: Map<string, string>, prefix: string): Set<string> => new Set([...assignment].filter(([k]) => k.startsWith(prefix)).map(([, c]) => c));

test('cluster --by shape: two classes sharing template and menus but not their content layout are two clusters', async () => {
  const pages: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    pages[`module-${i}.html`] = modulePage(i);
    pages[`howto-${i}.html`] = howtoPage(i);
  }
  let clusters: ClusterOut[] = [];
  const a = await clusterShape(pages, (c) => (clusters = c));
  const modules = clustersOf(a, 'module-');
  const howtos = clustersOf(a, 'howto-');
  assert.equal(modules.size, 1, `module pages in ${[...modules].join(', ')}`);
  assert.equal(howtos.size, 1, `how-to pages in ${[...howtos].join(', ')}`);
  assert.notDeepEqual([...modules], [...howtos]);
  // Why: each is the other's nearest cluster; the module pages have their summary table, the how-tos their steps.
  const m = clusters.find((c) => modules.has(c.id))!;
  const h = clusters.find((c) => howtos.has(c.id))!;
  assert.equal(m.why?.nearest, h.id);
  assert.equal(h.why?.nearest, m.id);
  assert.ok(m.why!.similarity < 0.5, `similarity ${m.why!.similarity}`);
  assert.ok(m.why!.apart.some((p) => p.includes('table class="summary"')), m.why!.apart.join(' | '));
  assert.ok(h.why!.apart.some((p) => p.includes('ol')), h.why!.apart.join(' | '));
  assert.deepEqual(m.why!.lacks, h.why!.apart);
});

test('cluster --by shape: pages of one class each listing their own items under headings named after them are one cluster', async () => {
  const pages: Record<string, string> = {};
  for (let i = 0; i < 16; i++) pages[`struct-${i}.html`] = classPage(i);
  for (let i = 0; i < 6; i++) pages[`index-${i}.html`] = indexPage(i);
  const a = await clusterShape(pages);
  const structs = clustersOf(a, 'struct-');
  const indexes = clustersOf(a, 'index-');
  assert.equal(structs.size, 1, `class pages in ${structs.size} clusters`);
  assert.ok(![...indexes].some((c) => structs.has(c)), 'index pages are apart from class pages');
});

/** A prose page whose markup is its own: blocks picked and nested differently on every page. */
function prosePage(i: number): string {
  const blocks = [
    (k: number) => `<blockquote class="q${k % 3}"><p>${words(12, k)}</p></blockquote>`,
    (k: number) => `<dl class="terms"><dt>${words(2, k)}</dt><dd><p>${words(10, k)}</p></dd></dl>`,
    (k: number) => `<table class="grid"><tr><td><em>${words(3, k)}</em></td></tr></table>`,
    (k: number) => `<div class="note n${k % 4}"><p><strong>${words(2, k)}</strong> ${words(9, k)}</p></div>`,
    (k: number) => `<figure><figcaption>${words(4, k)}</figcaption></figure>`,
    (k: number) => `<ol class="steps"><li><p>${words(7, k)}</p><ul><li><code>${words(1, k)}</code></li></ul></li></ol>`,
    (k: number) => `<aside class="tip"><h3>${words(2, k)}</h3><p>${words(8, k)}</p></aside>`,
  ];
  const picked = blocks.filter((_, k) => ((i * 37 + k * 11) % 7) < 2 + (k === i % 7 ? 5 : 0));
  const nested = picked.map((b, k) => (k % 2 === i % 2 ? `<div class="level${(i + k) % 5}">${b(i + k)}</div>` : b(i + k))).join('');
  return page(`Essay ${i}`, 'faq', '<ul class="toc"><li><a href="faq.html">Essays</a></li></ul>', `<p>${words(30, i)}</p>${nested}`);
}

test('cluster --by shape: when the shapes scatter the pages, the page schema groups them, said on stderr and in the summary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shape-'));
  try {
    for (let i = 0; i < 14; i++) writeFileSync(join(dir, `essay-${i}.html`), prosePage(i));
    const out = join(dir, 'out');
    const r = await gabarit(['cluster', dir, '--by', 'shape', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { fallback: string | null; grouped: number; clusters: number };
    assert.equal(summary.fallback, 'schema');
    assert.ok(summary.grouped < 0.7);
    assert.match(r.stderr, /grouped by page schema instead/);
    assert.equal(summary.clusters, 1, 'the essays share one schema');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster: a run that leaves nearly every page in its own cluster says so on stderr and in the summary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shape-'));
  try {
    // Twelve pages, each wrapped in a frame of its own (a different nesting of containers).
    for (let i = 0; i < 12; i++) {
      const open = Array.from({ length: i + 1 }, (_, k) => `<div class="f${i}-${k}">`).join('');
      const close = '</div>'.repeat(i + 1);
      writeFileSync(join(dir, `p${i}.html`), `<!DOCTYPE html><html><body><nav class="n${i}"><a href="p${(i + 1) % 12}.html">next</a></nav>${open}<p>${words(40, i)}</p>${close}</body></html>`);
    }
    for (const by of ['schema', 'shape']) {
      const out = join(dir, `out-${by}`);
      const r = await gabarit(['cluster', dir, '--by', by, '-o', out]);
      assert.equal(r.code, 0, r.stderr);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { doubts: string[]; clusters: number };
      assert.equal(summary.clusters, 12, by);
      assert.equal(summary.doubts.length, 1, by);
      assert.match(r.stderr, /nearly every page is its own cluster/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster --by schema: one cluster holding pages the page shapes tell apart says so on stderr and in the summary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shape-'));
  try {
    for (let i = 0; i < 12; i++) {
      writeFileSync(join(dir, `module-${i}.html`), modulePage(i));
      writeFileSync(join(dir, `howto-${i}.html`), howtoPage(i));
    }
    const out = join(dir, 'out');
    const r = await gabarit(['cluster', dir, '--by', 'schema', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { doubts: string[]; clusters: number };
    assert.equal(summary.clusters, 1, 'the page schema merges the two classes');
    assert.equal(summary.doubts.length, 1);
    assert.match(summary.doubts[0]!, /split into 2 layouts \(12, 12 pages\)/);
    assert.match(r.stderr, /see --by shape/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster (default --by auto): classes sharing template and menus are two clusters; the pages of one class listing their own items one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shape-'));
  try {
    const run = async (name: string, pages: Record<string, string>, args: string[] = []): Promise<{ a: Map<string, string>; summary: { groupedBy: string; doubts: string[] } }> => {
      const site = join(dir, name);
      mkdirSync(site, { recursive: true });
      for (const [key, html] of Object.entries(pages)) writeFileSync(join(site, key), html);
      const out = join(dir, `out-${name}-${args.length}`);
      const r = await gabarit(['cluster', site, '-o', out, ...args]);
      assert.equal(r.code, 0, r.stderr);
      const clusters = JSON.parse(readFileSync(join(out, 'clusters.json'), 'utf8')) as ClusterOut[];
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { groupedBy: string; doubts: string[] };
      return { a: new Map(clusters.flatMap((c) => c.keys.map((k) => [k, c.id] as [string, string]))), summary };
    };
    const two: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      two[`module-${i}.html`] = modulePage(i);
      two[`howto-${i}.html`] = howtoPage(i);
    }
    const x = await run('two', two);
    assert.equal(x.summary.groupedBy, 'shape');
    assert.match(x.summary.doubts[0]!, /split into 2 layouts \(12, 12 pages\): grouped by page shape/);
    const modules = clustersOf(x.a, 'module-');
    const howtos = clustersOf(x.a, 'howto-');
    assert.equal(modules.size, 1);
    assert.equal(howtos.size, 1);
    assert.notDeepEqual([...modules], [...howtos]);
    // Given the schema's threshold, the schema groups them, and the doubt says so.
    const asked = await run('two', two, ['--similarity', '0.8']);
    assert.equal(asked.summary.groupedBy, 'schema');
    assert.match(asked.summary.doubts[0]!, /see --by shape/);

    const one: Record<string, string> = {};
    for (let i = 0; i < 16; i++) one[`struct-${i}.html`] = classPage(i);
    for (let i = 0; i < 6; i++) one[`index-${i}.html`] = indexPage(i);
    const y = await run('one', one);
    const structs = clustersOf(y.a, 'struct-');
    assert.equal(structs.size, 1);
    assert.ok(![...clustersOf(y.a, 'index-')].some((c) => structs.has(c)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
