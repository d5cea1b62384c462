/**
 * The foundation issue's test: a corpus site as a directory, as a WARC made from it, and over HTTP from
 * serveDirectory gives the same pages (keys and bytes) and the same link graph. The crawl reaches the
 * pages linked from the entry, so it is compared with the part of the directory's graph reachable from the
 * entry (the directory also holds pages nothing links to, such as a 404 page).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { DirSource } from '../../src/site/dir-source.ts';
import { LinkGraph } from '../../src/site/graph.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import type { PageSource } from '../../src/site/page.ts';
import { serveDirectory } from '../../src/site/serve.ts';
import { WarcSource, writeWarc } from '../../src/site/warc-source.ts';

async function pagesOf(source: PageSource): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const r of source.pages()) {
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    out.set(r.page.key, r.page.body);
  }
  return out;
}

/** Keys reachable from `entry` in a graph (breadth-first). */
function reachable(g: LinkGraph, entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let i = 0; i < queue.length; i++) for (const k of g.outLinks(queue[i]!)) if (!seen.has(k)) (seen.add(k), queue.push(k));
  return seen;
}

test('httpx-docs: directory, WARC and HTTP give the same pages and the same link graph', { skip: corpusSkip() }, async () => {
  const pagesDir = join(CORPUS_DIR, 'sites', 'httpx-docs', 'pages');
  const tmp = mkdtempSync(join(tmpdir(), 'gabarit-corpus-warc-'));
  const served = await serveDirectory(pagesDir);
  try {
    const dir = new DirSource(pagesDir);
    const warcFile = join(tmp, 'httpx-docs.warc.gz');
    assert.equal(await writeWarc(pagesDir, warcFile, { baseUrl: 'https://www.python-httpx.org/' }), 25);
    const warc = await WarcSource.open(warcFile);
    const http = new HttpSource(served.url, { delayMs: 0, concurrencyPerHost: 4, retries: 0 });

    const dirPages = await pagesOf(dir);
    const warcPages = await pagesOf(warc);
    const httpPages = await pagesOf(http);
    assert.equal(dirPages.size, 25);
    assert.deepEqual([...warcPages.keys()], [...dirPages.keys()]);
    for (const [k, b] of warcPages) assert.deepEqual(b, dirPages.get(k), `WARC bytes of ${k}`);

    const dirGraph = await LinkGraph.fromSource(dir);
    const warcGraph = await LinkGraph.fromSource(warc);
    const httpGraph = await LinkGraph.fromSource(new HttpSource(served.url, { delayMs: 0, concurrencyPerHost: 4, retries: 0 }));
    assert.deepEqual(warcGraph.edges(), dirGraph.edges());
    assert.ok(dirGraph.edgeCount > 25 * 10, `a docs menu links most pages to most pages (${dirGraph.edgeCount} edges)`);

    const reach = reachable(dirGraph, 'index.html');
    assert.deepEqual([...httpPages.keys()].sort(), [...reach].sort(), 'the crawl reaches exactly the pages linked from the entry');
    assert.ok(reach.size >= 20 && reach.size < 25, `${reach.size} of 25 reachable`);
    for (const [k, b] of httpPages) assert.deepEqual(b, dirPages.get(k), `HTTP bytes of ${k}`);
    const induced = dirGraph.edges().filter(([a, b]) => reach.has(a) && reach.has(b));
    assert.deepEqual(httpGraph.edges(), induced);
    assert.equal(http.loaded, reach.size, 'each page downloaded once');
    await http.close();
  } finally {
    await served.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
