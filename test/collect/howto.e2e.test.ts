/**
 * `gabarit collect` on a documentation whose how-tos are each written its own way (test/collect/howto-site.ts),
 * over HTTP on 127.0.0.1: the how-tos share the template and one schema but their shapes lie 0.25–0.75 apart,
 * one of them (a page whose topic moved) has a schema of its own and only its shape near the others'; only the
 * section's index page lists them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDirectory } from '../../src/site/serve.ts';
import { gabarit } from '../cli/gabarit-process.ts';
import { writeSite } from './fixture-site.ts';
import { howtoSite, type HowtoSite } from './howto-site.ts';

interface Summary {
  pages: Array<{ key: string; evidence: string }>;
  pagesLeft: Array<{ key: string }>;
  indexPath: Array<{ example: string }>;
  downloads: number;
  deadLinks: number;
  indexPages: string[];
}

/** Serves the site on 127.0.0.1 and hands `run` a collect through the CLI from a sample: its summary.json. */
async function onServed(site: HowtoSite, run: (collect: (sample: string) => Promise<Summary>) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-howto-'));
  await writeSite(join(dir, 'site'), site.files);
  const served = await serveDirectory(join(dir, 'site'));
  try {
    await run(async (sample) => {
      const out = join(dir, 'out');
      const r = await gabarit(['collect', served.url + sample, '--out', out, '--delay', '0']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    });
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('gabarit collect from any how-to takes every how-to, the one whose schema differs too, within 1.5 downloads per how-to', async () => {
  const site = howtoSite();
  await onServed(site, async (collect) => {
    // Every how-to but the moved page (a test of its own, below) as sample: the first, a middle one, the last.
    const samples = site.howtos.filter((k) => !k.includes('moved'));
    for (const sample of [samples[0]!, samples[5]!, samples[samples.length - 1]!]) {
      const summary = await collect(sample);
      const taken = summary.pages.map((p) => p.key);
      // Before, the moved page, read first in the index's table of contents and below the shape threshold, was
      // an unlike page that dropped the table: 3 or 4 how-tos of 13.
      assert.deepEqual(taken.filter((k) => site.howtos.includes(k)).sort(), [...site.howtos].sort(), `from ${sample}: ${taken.join(' ')}`);
      assert.ok(taken.every((k) => k.startsWith('howto/')), taken.join(' '));
      assert.equal(summary.pages.find((p) => p.key.includes('moved'))?.evidence, 'shape');
      assert.ok(summary.downloads - summary.deadLinks <= 1.5 * site.howtos.length + summary.indexPages.length, `from ${sample}: ${summary.downloads} downloads`);
    }
  });
});

test('gabarit collect: the recursion on the how-tos index page runs no step 1 again from the how-tos it takes by shape', async () => {
  // The index page opens with a few blocks of the how-tos' own (its shape near some of them), too few words for
  // an article: its cluster is an index of the how-tos, and its target takes how-tos by shape (their section is
  // the index page's); their links were followed from the sample's target already.
  const site = howtoSite(12, 10, true);
  const linked = (key: string): string[] => [...site.files.get(key)!.matchAll(/href="\.\.\/(library\/lib\d+\.html)"/g)].map((m) => m[1]!);
  await onServed(site, async (collect) => {
    for (const sample of ['howto/h02.html', 'howto/h04.html']) {
      const summary = await collect(sample);
      assert.deepEqual(summary.pages.map((p) => p.key).filter((k) => site.howtos.includes(k)).sort(), [...site.howtos].sort());
      assert.equal(summary.indexPath[0]?.example, 'howto/index.html', JSON.stringify(summary.indexPath));
      // The library pages read are those the sample and the moved page (taken by shape, a cluster of its own)
      // link to; before, step 1 ran again from a how-to the index page's target took, reading its library pages.
      const expected = new Set([...linked(sample), ...linked('howto/a-moved.html')]);
      const read = summary.pagesLeft.map((p) => p.key).filter((k) => /^library\/lib/.test(k));
      assert.deepEqual(read.filter((k) => !expected.has(k)), [], `from ${sample}: ${read.join(' ')}`);
    }
  });
});

test('gabarit collect from the how-to whose schema differs: other sections are read until one is told apart, then its section joins by shape', async () => {
  const site = howtoSite();
  await onServed(site, async (collect) => {
    const summary = await collect('howto/a-moved.html');
    const taken = summary.pages.map((p) => p.key);
    // Before, a library page alone was read besides the section index pages: the sections were never told
    // apart, and the how-tos (another schema than the sample's) could not join by shape: the sample alone.
    assert.deepEqual(taken.filter((k) => site.howtos.includes(k)).sort(), [...site.howtos].sort(), taken.join(' '));
    assert.ok(taken.every((k) => k.startsWith('howto/')), taken.join(' '));
    assert.ok(summary.pages.filter((p) => p.key !== 'howto/a-moved.html').every((p) => p.evidence === 'shape'), JSON.stringify(summary.pages));
    assert.ok(summary.downloads - summary.deadLinks <= 1.5 * site.howtos.length + summary.indexPages.length, `${summary.downloads} downloads`);
  });
});
