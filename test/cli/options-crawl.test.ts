/**
 * The options of `gabarit crawl` and the fetch options of a source, through the command line against a
 * site served on 127.0.0.1 that records every request (its path, user agent, start and end): each option
 * has the effect its help states, seen from the server's side or in summary.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gabarit, type Ran } from './gabarit-process.ts';

interface Hit {
  path: string;
  ua: string;
  start: number;
  end: number;
}

/** What the server does, changed between runs. */
interface Behaviour {
  /** Time before each page of /basic/ is answered, ms. */
  latencyMs: number;
  /** /basic/slow.html answers only after this long, ms (0: at once). */
  slowMs: number;
}

function page(title: string, links: readonly string[], extra = ''): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>
<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>${extra}</body></html>`;
}

/**
 * /basic/: an index linking a, b, c, big (over the size cap of the test) and slow (answered late); a, b
 * and c link each other and the index, so index, a, b and c are linked from several pages each.
 * /prio/: a chain of content pages c0 → c1 → … → c5 (one link in the main text of each), every page
 * with the same menu of ten links before it, the template: a content page's menu links ten pages of its own
 * (f-<page>-<i>), a menu page's links those of c0.
 */
function site(path: string): string | undefined {
  const basic: Record<string, string> = {
    '/basic/': page('Index', ['a.html', 'b.html', 'c.html', 'big.html', 'slow.html']),
    '/basic/a.html': page('A', ['./', 'b.html', 'c.html']),
    '/basic/b.html': page('B', ['./', 'a.html', 'c.html']),
    '/basic/c.html': page('C', ['./', 'a.html']),
    '/basic/big.html': page('Big', ['./'], `<p>${'x'.repeat(30_000)}</p>`),
    '/basic/slow.html': page('Slow', ['./']),
  };
  if (path in basic) return basic[path];
  const m = /^\/prio\/(c(\d+)|f-c\d+-\d+)\.html$/.exec(path) ?? (path === '/prio/' ? ['', 'c0', '0'] : null);
  if (!m) return undefined;
  const name = m[1]!;
  // the footer of a content page links pages of its own; that of a footer page, the first content page's
  const owner = m[2] !== undefined ? name : 'c0';
  const footer = `<footer><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="f-${owner}-${i + 1}.html">Link ${i + 1}</a></li>`).join('')}</ul></footer>`;
  const next = m[2] !== undefined && Number(m[2]) < 5 ? `<a href="c${Number(m[2]) + 1}.html">Read on</a>` : '';
  return `<!DOCTYPE html><html><head><title>${name}</title></head><body>${footer}<main><h1>${name}</h1><p>Text of ${name}. ${next}</p></main></body></html>`;
}

async function startServer(t: { after(fn: () => Promise<void>): void }) {
  const hits: Hit[] = [];
  const behaviour: Behaviour = { latencyMs: 0, slowMs: 0 };
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const hit: Hit = { path: req.url ?? '', ua: req.headers['user-agent'] ?? '', start: performance.now(), end: 0 };
    hits.push(hit);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // A request the client gave up on (a timeout) stops counting when its connection closes, so that
    // one run's abandoned slow answers do not count as requests in flight of the next run.
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    void (async () => {
      const body = site(hit.path);
      if (hit.path.startsWith('/basic/')) {
        await sleep(hit.path === '/basic/slow.html' && behaviour.slowMs > 0 ? behaviour.slowMs : behaviour.latencyMs, undefined, { signal: gone.signal }).catch(() => undefined);
      }
      inFlight--;
      hit.end = performance.now();
      if (res.destroyed) return;
      if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    behaviour,
    /** The requests since the last call, and the most at once among them. */
    take(): { hits: Hit[]; maxInFlight: number } {
      const r = { hits: hits.splice(0), maxInFlight };
      maxInFlight = 0;
      return r;
    },
  };
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

test('crawl over HTTP: --user-agent, --delay, --timeout, --max-bytes, --top, --store, --concurrency and --template-priority do what their help says', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-crawl-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const server = await startServer(t);
  const store = join(dir, 'pages.duckdb');
  const basic = `${server.url}/basic/`;

  // One polite run: its user agent on every request, request starts --delay apart, the slow page given up
  // after --timeout, the big page refused by --max-bytes, --top most linked pages, every page kept in --store.
  server.behaviour.slowMs = 4000;
  const ua = 'option-test-agent/1.0';
  const out1 = join(dir, 'one');
  const one = await gabarit(['crawl', basic, '--user-agent', ua, '--delay', '400', '--concurrency', '1', '--timeout', '800', '--max-bytes', '20000', '--top', '2', '--store', store, '--out', out1, '-q']);
  server.behaviour.slowMs = 0;
  assert.equal(one.code, 0, one.stderr);
  const first = server.take();
  assert.ok(first.hits.length >= 6, 'the pages and robots.txt were requested');
  assert.deepEqual([...new Set(first.hits.map((h) => h.ua))], [ua], 'every request carries --user-agent');
  // Request starts as the server sees them (each may arrive a little late): on average at least --delay
  // apart, more than the default delay (250 ms). The first attempt of each page only (retries back off).
  const starts = [...new Set(first.hits.filter((h) => h.path.startsWith('/basic/')).map((h) => h.path))].map((p) => first.hits.find((h) => h.path === p)!.start);
  const mean = (starts.at(-1)! - starts[0]!) / (starts.length - 1);
  assert.ok(mean >= 370, `request starts --delay 400 ms apart (${Math.round(mean)} ms on average)`);
  assert.match(one.stderr, /gabarit: http:\/\/127\.0\.0\.1:\d+\/basic\/slow\.html: timed out after 800 ms/);
  assert.match(one.stderr, /gabarit: http:\/\/127\.0\.0\.1:\d+\/basic\/big\.html: .*20000/);
  const s1 = await readJson(join(out1, 'summary.json'));
  assert.equal(s1['pagesDone'], 4);
  assert.equal(s1['pagesFailed'], 2);
  const failures = s1['failures'] as { key: string; code: string }[];
  assert.deepEqual(failures.map((f) => f.key).sort(), ['big.html', 'slow.html']);
  const graph = s1['graph'] as { mostLinked: { key: string }[] };
  assert.equal(graph.mostLinked.length, 2, '--top 2 lists two pages');

  // The same crawl again over --store: the pages stored are not fetched again.
  const out2 = join(dir, 'two');
  const two = await gabarit(['crawl', basic, '--store', store, '--delay', '0', '--out', out2, '-q']);
  assert.equal(two.code, 0, two.stderr);
  const again = server.take().hits.filter((h) => /\/basic\/(index\.html)?$|\/basic\/[abc]\.html$/.test(h.path));
  assert.deepEqual(again.map((h) => h.path), [], 'pages kept in the store are not fetched again');
  const s2 = await readJson(join(out2, 'summary.json'));
  // the two pages that failed were not stored: they are fetched (and now load: no slowness, no cap)
  assert.equal(s2['pagesLoaded'], 2);
  assert.equal(s2['pagesDone'], 6);

  // --concurrency 3: slow answers overlap, three at a time at most.
  server.behaviour.latencyMs = 400;
  const three = await gabarit(['crawl', basic, '--delay', '0', '--concurrency', '3', '--out', join(dir, 'three'), '-q']);
  server.behaviour.latencyMs = 0;
  assert.equal(three.code, 0, three.stderr);
  assert.equal(server.take().maxInFlight, 3, '--concurrency 3 keeps three requests in flight');

  // --template-priority: once the menu is known as template (seen on 3 pages), the content chain
  // c0 → c5 is fetched before the menus' links; breadth-first, each menu's pages come first.
  // How many menu pages were fetched before the last content page.
  const menuPagesFirst = (r: Ran): number => {
    assert.equal(r.code, 0, r.stderr);
    const paths = server.take().hits.map((h) => h.path);
    const last = paths.indexOf('/prio/c5.html');
    assert.ok(last > 0, `c5 was fetched (${paths.join(' ')})`);
    return paths.slice(0, last).filter((p) => p.includes('/f-')).length;
  };
  const breadthFirst = menuPagesFirst(await gabarit(['crawl', `${server.url}/prio/`, '--delay', '0', '--concurrency', '1', '--out', join(dir, 'bfs'), '-q']));
  const prioritised = menuPagesFirst(await gabarit(['crawl', `${server.url}/prio/`, '--delay', '0', '--concurrency', '1', '--template-priority', '--out', join(dir, 'prio'), '-q']));
  assert.ok(prioritised < breadthFirst, `menu pages fetched before the last content page: ${prioritised} with --template-priority, ${breadthFirst} without`);
});
