import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusSkip } from '../../../src/eval/corpus-path.ts';
import { listSites } from '../../../src/eval/corpus.ts';
import { decodeHtml } from '../../../src/html/charset.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { tokenize } from '../../../src/html/tokens.ts';
import { applyTemplate } from '../../../src/template/align/apply.ts';
import { evidenceThreshold, hierarchicalConsensus, mergeProfiles, pageProfile } from '../../../src/template/align/consensus.ts';
import engine, { type AlignTemplate } from '../../../src/template/align/engine.ts';
import { chooseSample } from '../../../src/template/align/sample.ts';
import type { EngineRun } from '../../../src/template/engine.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import type { PageFailure } from '../../../src/output.ts';
import { FIXTURE_PAGES, fixtureArticle, fixturePage } from './fixtures.ts';
import { type MemoryPage, MemorySource } from '../../../src/site/memory-source.ts';

const seq = (...xs: number[]): Int32Array => Int32Array.from(xs);

test('merging two profiles sums evidence on matches and keeps the rest by threshold', () => {
  const x = pageProfile(seq(1, 2, 3, 4));
  const y = pageProfile(seq(1, 5, 3, 4));
  // Threshold 0.5 of 2 pages = 1: the union, in alignment order (the paper's scoring: 2 and 5 share a
  // mismatch column, the left profile's token first; with mismatch -2 they are two gap columns).
  for (const mismatch of [0, -2]) {
    const u = mergeProfiles(x, y, { minEvidence: 0.5, mismatch }).profile;
    assert.deepEqual([...u.ids].sort(), [1, 2, 3, 4, 5]);
    assert.deepEqual([...u.ids].filter((t) => t !== 2 && t !== 5), [1, 3, 4]);
    assert.deepEqual([...u.evidence].filter((_, k) => u.ids[k] !== 2 && u.ids[k] !== 5), [2, 2, 2]);
    assert.equal(u.pages, 2);
  }
  assert.deepEqual([...mergeProfiles(x, y, { minEvidence: 0.5, mismatch: 0 }).profile.ids], [1, 2, 5, 3, 4]);
  // Threshold 1 of 2 pages = 2: only what both pages support.
  const i = mergeProfiles(x, y, { minEvidence: 1 }).profile;
  assert.deepEqual([...i.ids], [1, 3, 4]);
  assert.equal(evidenceThreshold(4, 0.5), 2);
  assert.equal(evidenceThreshold(3, 0.5), 2);
  assert.equal(evidenceThreshold(16, 0.5), 8);
});

test('the consensus keeps what most pages share and drops what one page has', () => {
  const head = [1, 2, 3, 4];
  const foot = [5, 6, 7, 8];
  const contents = [[10], [11, 12], [13, 2], [14, 15, 16]];
  const pages = contents.map((c) => Int32Array.from([...head, ...c, ...foot]));
  const { template, levels } = hierarchicalConsensus(pages.map(pageProfile), { minEvidence: 0.5 });
  assert.deepEqual([...template.ids], [...head, ...foot]);
  assert.deepEqual([...template.evidence], [4, 4, 4, 4, 4, 4, 4, 4]);
  assert.equal(levels.length, 2);
  assert.equal(template.pages, 4);
});

test('sample: spread over the sorted keys, independent of their order', () => {
  const keys = Array.from({ length: 100 }, (_, i) => `p${String(i).padStart(3, '0')}.html`);
  const s = chooseSample(keys, 4);
  assert.deepEqual(s, ['p012.html', 'p037.html', 'p062.html', 'p087.html']);
  assert.deepEqual(chooseSample([...keys].reverse(), 4), s);
  assert.deepEqual(chooseSample(['b', 'a'], 16), ['a', 'b']);
});

function fixtureSite(): MemoryPage[] {
  return Array.from({ length: FIXTURE_PAGES }, (_, i) => ({ key: `p${i}.html`, body: fixturePage(i) }));
}

async function runEngine(pages: MemoryPage[], options: Record<string, unknown> = {}): Promise<{ run: EngineRun; marks: PageMarks[]; failures: PageFailure[] }> {
  const marks: PageMarks[] = [];
  const failures: PageFailure[] = [];
  const run = await engine.run({
    source: new MemorySource(pages),
    labels: new LabelTable(),
    options,
    async onPage(m) {
      marks.push(m);
    },
    onFailure(f) {
      failures.push(f);
    },
  });
  return { run, marks, failures };
}

test('applying the template: menus and footer are template, the article is kept', () => {
  const labels = new LabelTable();
  const trees = [0, 1, 2, 3].map((i) => parseHtml(fixturePage(i), { labels }));
  const { template } = hierarchicalConsensus(trees.map((t) => pageProfile(tokenize(t, labels).ids)));
  // A page outside the sample.
  const tree = parseHtml(fixturePage(5), { labels });
  const applied = applyTemplate(tree, tokenize(tree, labels), template.ids);
  const m: PageMarks = { key: 'p5.html', url: 'memory://site/p5.html', tree, template: applied.template };
  assert.equal(keptText(m).replace(/\s+/g, ' ').trim(), fixtureArticle(5));
  const isT = (tag: string): boolean => applied.template[tree.find(tag)] === 1;
  assert.ok(isT('header') && isT('nav') && isT('footer'), 'header, nav and footer are template');
  assert.ok(!isT('main') && !isT('article') && !isT('body'), 'elements holding content are not');
  assert.ok(!isT('h1'), 'the article heading is content');
});

test('engine: every page gets marks, failures are reported, options are honoured', async () => {
  const pages: MemoryPage[] = [...fixtureSite(), { key: 'missing.html', body: 'gone', status: 404 }];
  const { run, marks, failures } = await runEngine(pages, { sample: 4 });
  assert.equal(marks.length, FIXTURE_PAGES);
  assert.equal(failures.length, 1);
  assert.equal(failures[0]!.key, 'missing.html');
  assert.equal(failures[0]!.code, 'not-found');
  const t = run.template as AlignTemplate;
  assert.equal((t.about!['sample'] as string[]).length, 4);
  assert.equal(run.summary['alignmentsNotExact'], 0, 'every alignment exact (the fallback is for ranges above 2^31 cells)');
  assert.ok(t.data.tokens.some(([k]) => k === '#t:legal notice'));
  for (const m of marks) {
    const i = Number(m.key.slice(1, -5));
    assert.equal(keptText(m).replace(/\s+/g, ' ').trim(), fixtureArticle(i), m.key);
  }
  await assert.rejects(runEngine(fixtureSite(), { sample: 0 }), /--sample/);
  await assert.rejects(runEngine(fixtureSite(), { minEvidence: '2' }), /--min-evidence/);
  await assert.rejects(runEngine([]), /no page/);
});

test('the template does not depend on the order of the pages', async () => {
  const base = fixtureSite();
  const orders = [base, [...base].reverse(), [3, 6, 0, 7, 1, 5, 2, 4].map((i) => base[i]!)];
  const templates: string[] = [];
  for (const o of orders) {
    const { run } = await runEngine(o, { sample: 5 });
    const t = run.template as AlignTemplate;
    templates.push(JSON.stringify([t.about!['sample'], t.data.tokens]));
  }
  assert.equal(templates[1], templates[0]);
  assert.equal(templates[2], templates[0]);
});

test('the template and every page\'s marks do not depend on the order of a real site\'s pages', { skip: corpusSkip() }, async () => {
  const site = listSites().find((s) => s.name === 'httpx-docs')!;
  const base: MemoryPage[] = site.files().map((k) => ({ key: k, body: decodeHtml(readFileSync(join(site.pagesDir, k))).text }));
  const r = rng(5);
  const shuffled = [...base];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const results: Array<{ template: string; marks: Map<string, string> }> = [];
  for (const order of [base, [...base].reverse(), shuffled]) {
    const { run, marks } = await runEngine(order);
    const t = run.template as AlignTemplate;
    results.push({ template: JSON.stringify([t.about!['sample'], t.data.tokens]), marks: new Map(marks.map((m) => [m.key, Buffer.from(m.template).toString('base64')])) });
  }
  assert.ok(JSON.parse(results[0]!.template)[1].length > 100, 'a real template was learned');
  for (const other of results.slice(1)) {
    assert.equal(other.template, results[0]!.template);
    assert.equal(other.marks.size, base.length);
    for (const [key, m] of results[0]!.marks) assert.equal(other.marks.get(key), m, key);
  }
});

/** A small deterministic generator. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
}

test('line rule: matched text and inline elements in a line with kept plain text are content; a navigation line of changing links is not', () => {
  const page = (title: string, date: string, next: string): string =>
    `<html><body><div class="menu"><a href="/">Home</a></div><p class="by">by <a href="/me">Ann Author</a> on ${date}</p>` +
    `<p class="nav">Next: <a href="/${next}">${next}</a></p><h1>${title}</h1><p><i class="icon"></i>${title} text of the article.</p>` +
    `<div class="foot">Footer line</div></body></html>`;
  const labels = new LabelTable();
  const pages = [['Otters', 'May 1', 'b'], ['Comets', 'May 2', 'c'], ['Bread', 'May 3', 'd'], ['Tides', 'May 4', 'e']];
  const trees = pages.map(([t, d, n]) => parseHtml(page(t!, d!, n!), { labels }));
  const { template } = hierarchicalConsensus(trees.map((t) => pageProfile(tokenize(t, labels).ids)));
  const tree = parseHtml(page('Maple', 'June 9', 'x'), { labels });
  const kept = (lineRule: boolean): string => {
    const applied = applyTemplate(tree, tokenize(tree, labels), template.ids, { lineRule });
    return keptText({ key: 'p.html', url: 'memory://site/p.html', tree, template: applied.template }).replace(/\s+/g, ' ').trim();
  };
  // With the rule the byline stays whole; the navigation line keeps only its changing link (as without it).
  assert.equal(kept(true), 'by Ann Author on June 9 x Maple Maple text of the article.');
  assert.equal(kept(false), 'on June 9 x Maple Maple text of the article.');
  // The empty icon inside the article's line is content with the rule, template (matched) without it.
  const icon = [...Array(tree.size).keys()].find((i) => tree.kind[i] === 1 && tree.tag(i) === 'i')!;
  assert.equal(applyTemplate(tree, tokenize(tree, labels), template.ids, { lineRule: true }).template[icon], 0);
  assert.equal(applyTemplate(tree, tokenize(tree, labels), template.ids, { lineRule: false }).template[icon], 1);
});
