/**
 * The output files written from pass 1's records (render.ts) are byte for byte those written from the
 * marked tree (OutputWriter: serialize with marks, keptText): on every corpus site page and on the tests'
 * synthetic site, with the template pagelets of a real detection and with every other pagelet marked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusAvailable, corpusSkip } from '../../../src/eval/corpus-path.ts';
import { OVERLAY_STYLE } from '../../../src/output.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { OutputWriter, type RenderedPage } from '../../../src/output.ts';
import { openSource } from '../../../src/site/source.ts';
import { loadEngine } from '../../../src/template/engines.ts';
import { differingFiles } from '../../spark/compare.ts';
import { serialize } from '../../../src/html/serialize.ts';
import { keptText } from '../../../src/template/result.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { marksFromPagelets, pageletLabels, parseBytes } from '../../../src/template/pagelets/page-analysis.ts';
import { partition } from '../../../src/template/pagelets/partition.ts';
import { decodeRender, recordRender, recordText, renderHtml, renderText } from '../../../src/template/pagelets/render.ts';
import { syntheticSite } from './fixtures.ts';

const MARK = { 'data-gabarit': 'template' };

function pages(): Array<[string, Uint8Array]> {
  const out: Array<[string, Uint8Array]> = Object.entries(syntheticSite(8)).map(([k, h]) => [k, new TextEncoder().encode(h)]);
  // every white-space character textOf collapses, in runs and alone, short and long texts, next to
  // non-ASCII text and surrogate pairs
  const ws = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
  const texts = ws.flatMap((c, i) => [`a${c}b`, `${c}é${c}${ws[(i + 3) % ws.length]}à${c}`, `\u{1f600}${c}${c}\u{1f600} long enough to take the other path${c}${c}end`]);
  out.push(['spaces.html', new TextEncoder().encode(`<html><body><p>${texts.join('</p><p>')}</p><div>x \u00a0 y<span>${texts.join(' ')}</span></div></body></html>`)]);
  if (!corpusAvailable()) return out;
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(html?|xhtml)$/.test(f)) out.push([p, readFileSync(p)]);
    }
  };
  walk(join(CORPUS_DIR, 'sites'));
  walk(join(CORPUS_DIR, 'samesite'));
  return out;
}

test('render: marked HTML and kept text from pass 1 records equal those from the marked tree', () => {
  const labels = pageletLabels();
  let checked = 0;
  for (const [key, bytes] of pages()) {
    const tree = parseBytes(bytes, undefined, key, labels);
    const rec = recordRender(tree);
    assert.ok(rec, `${key}: recorded`);
    const back = decodeRender(rec);
    const pagelets = partition(tree, { k: 3 });
    // two markings: every other pagelet, and all of them but the first
    const choices = [pagelets.map((_, o) => o).filter((o) => o % 2 === 0), pagelets.map((_, o) => o).slice(1)];
    for (const ords of choices) {
      const marks = marksFromPagelets(tree, pagelets, ords);
      const start = Int32Array.from(ords, (o) => pagelets[o]!);
      const count = Int32Array.from(ords, (o) => tree.end[pagelets[o]!]! - pagelets[o]!);
      const html = serialize(tree, { mark: (i) => (marks[i] === 1 ? MARK : undefined), inject: OVERLAY_STYLE });
      assert.ok(Buffer.from(html).equals(renderHtml(back, start, count, MARK)), `${key}: html`);
      assert.equal(renderText(back, start, count), keptText({ key, url: key, tree, template: marks }), `${key}: text`);
    }
    checked++;
  }
  assert.ok(checked >= 8);
});

test('pagelets engine: the files written without a second parse are byte for byte those written from trees, on the corpus sites', { skip: corpusSkip() }, async () => {
  const engine = await loadEngine('pagelets');
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-render-'));
  try {
    // three corpus sites of different makes (GABARIT_RENDER_ALL=1: every site, and the samesite groups' sites)
    const all = process.env['GABARIT_RENDER_ALL'] === '1';
    const sites = readdirSync(join(CORPUS_DIR, 'sites'))
      .sort()
      .filter((s) => all || ['httpx-docs', 'peps', 'retrofit-javadoc'].includes(s))
      .map((s) => join(CORPUS_DIR, 'sites', s, 'pages'));
    if (all) {
      for (const g of readdirSync(join(CORPUS_DIR, 'samesite')).sort()) for (const s of readdirSync(join(CORPUS_DIR, 'samesite', g)).sort()) sites.push(join(CORPUS_DIR, 'samesite', g, s));
    }
    let rendered = 0;
    for (const [i, site] of sites.entries()) {
      for (const mode of ['trees', 'rendered'] as const) {
        const writer = new OutputWriter(join(dir, String(i), mode));
        const source = await openSource(site);
        const options = { global: true, keepTreesUpTo: 0, workers: 2 };
        await engine.run({
          source,
          labels: new LabelTable(),
          options,
          onPage: async (m, e) => void (await writer.writePage(m, e)),
          ...(mode === 'rendered' ? { onRendered: async (r: RenderedPage, e?: Record<string, unknown>) => void (rendered++, await writer.writeRendered(r, e)) } : {}),
          onFailure: (f) => assert.fail(f.message),
        });
        await source.close();
        await writer.finish({ command: 'test', source: site, pagesLoaded: 0, timings: {} });
      }
      assert.deepEqual(differingFiles(join(dir, String(i), 'trees'), join(dir, String(i), 'rendered')), [], site);
      // the same page reports (the tree path lists them as the workers finish, the rendered one in source order)
      const pagesOf = (m: string): unknown =>
        (JSON.parse(readFileSync(join(dir, String(i), m, 'summary.json'), 'utf8')) as { pages: Array<{ key: string }> }).pages.sort((a, b) => (a.key < b.key ? -1 : 1));
      assert.deepEqual(pagesOf('rendered'), pagesOf('trees'), `${site}: summary pages`);
    }
    assert.ok(rendered > 250, `pages rendered without a tree: ${rendered}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('render: a text holding an unpaired surrogate, or a pair split between two texts, gives no record', () => {
  const labels = pageletLabels();
  // a string, not bytes: bytes would hold the surrogates' replacement characters; the text record (no
  // serialised page, which finds them too)
  const record = (html: string): Uint8Array | undefined => recordText(parseHtml(html, { labels }));
  assert.ok(record('<p>a \u{1f600}  b</p>'));
  assert.equal(record('<p>a \ud83d b</p>'), undefined);
  assert.equal(record('<p>a \ude00 b</p>'), undefined);
  assert.equal(record('<p>a \ud83d<b>\ude00 b</b></p>'), undefined);
});
