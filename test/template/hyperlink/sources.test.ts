import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusSkip } from '../../../src/eval/corpus-path.ts';
import { getSite, goldContentText } from '../../../src/eval/corpus.ts';
import { contentScore } from '../../../src/eval/metrics.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { DirSource } from '../../../src/site/dir-source.ts';
import { HttpSource } from '../../../src/site/http-source.ts';
import type { PageSource } from '../../../src/site/page.ts';
import { serveDirectory } from '../../../src/site/serve.ts';
import engine from '../../../src/template/hyperlink/engine.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import { fixtureSite } from './fixture-site.ts';

async function run(source: PageSource, options: Record<string, unknown>) {
  const marks = new Map<string, PageMarks>();
  const r = await engine.run({ source, labels: new LabelTable(), options, onPage: async (m) => void marks.set(m.key, m), onFailure: () => {} });
  return { marks, summary: r.summary };
}

test('over HTTP (127.0.0.1) and over the same directory: the same CS and the same marks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-hl-'));
  try {
    for (const p of fixtureSite()) writeFileSync(join(dir, p.key), p.body as string);
    const served = await serveDirectory(dir);
    try {
      const http = new HttpSource(served.url + 'index.html', { delayMs: 0 });
      const h = await run(http, { key: 'a1.html', n: 4 });
      await http.close();
      const d = await run(new DirSource(dir), { key: 'a1.html', n: 4 });
      assert.deepEqual(h.summary['cs'], d.summary['cs']);
      assert.equal(h.summary['pagesLoadedForLearning'], 5);
      assert.equal(h.summary['networkLoadsForLearning'], 5, 'the fetcher downloaded what the engine says it loaded');
      // The HTTP crawl reaches every linked page; each is marked like its directory twin.
      for (const [key, m] of h.marks) assert.equal(keptText(m), keptText(d.marks.get(key)!), key);
      assert.ok(h.marks.size >= 9);
    } finally {
      await served.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('corpus: httpx-docs and jekyll-blog (root-relative links resolved in the directory) from one key page', { skip: corpusSkip() }, async () => {
  for (const [name, key] of [['httpx-docs', 'advanced/ssl/index.html'], ['jekyll-blog', 'hack-the-box/oz/index.html']] as const) {
    const site = getSite(name);
    const r = await run(new DirSource(site.pagesDir, { entry: site.entry }), { key });
    assert.ok((r.summary['pagesLoadedForLearning'] as number) <= 7, `${name}: loaded ${r.summary['pagesLoadedForLearning']}`);
    assert.equal(r.summary['csSize'], 3, `${name}: an n-CS with the default n`);
    const f1: number[] = [];
    for (const m of r.marks.values()) {
      const gold = goldContentText(site, m.tree);
      if (gold !== null) f1.push(contentScore(keptText(m), gold).f1);
    }
    const mean = f1.reduce((a, b) => a + b, 0) / f1.length;
    assert.ok(mean >= 0.97, `${name}: mean content F1 ${mean}`);
  }
});
