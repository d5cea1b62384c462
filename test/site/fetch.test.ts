/**
 * Bad input over HTTP: each failure gives a PageError naming the page and the reason, and the crawl goes
 * on. Politeness: per-host delay and concurrency. Everything on 127.0.0.1.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PageError, UsageError } from '../../src/errors.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { textOf } from '../../src/html/text.ts';
import { Fetcher } from '../../src/site/fetch.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { parsePage, type PageResult } from '../../src/site/page.ts';
import { openSource } from '../../src/site/source.ts';
import { closedPort, HUGE_BYTES, startBadServer, type BadServer } from './bad-server.ts';

let server: BadServer;
before(async () => {
  server = await startBadServer({ slowMs: 1500 });
});
after(async () => {
  await server.close();
});

const CAP = 1024 * 1024;

test('a crawl through every kind of bad response reports each one by page and reason, and goes on', async () => {
  const source = new HttpSource(server.url, { delayMs: 0, concurrencyPerHost: 4, retries: 2, retryBaseMs: 5, timeoutMs: 1000, maxBytes: CAP });
  const results: PageResult[] = [];
  try {
    for await (const r of source.pages()) results.push(r);
  } finally {
    await source.close();
  }
  const byKey = new Map(results.map((r) => [r.ok ? r.page.key : r.key, r]));
  const fail = (key: string): PageError => {
    const r = byKey.get(key);
    assert.ok(r && !r.ok, `${key} failed`);
    assert.ok(r.error.message.includes(server.url + key), `the message names the page: ${r.error.message}`);
    return r.error;
  };
  const expectFail = (key: string, code: string, reason: RegExp): PageError => {
    const e = fail(key);
    assert.equal(e.code, code, `${key}: ${e.message}`);
    assert.match(e.message, reason);
    return e;
  };

  // The pages that are fine were all crawled, after and between the failures.
  const ok = results.flatMap((r) => (r.ok ? [r.page.key] : [])).sort();
  assert.deepEqual(ok, ['broken.html', 'flaky.html', 'index.html', 'latin1.html', 'ok.html', 'ok2.html', 'p/1.html', 'p/2.html', 'p/3.html', 'p/4.html', 'p/5.html']);

  const e500 = expectFail('error500.html', 'http-status', /HTTP 500 .*gave up after 3 attempts/);
  assert.equal(e500.status, 500);
  assert.equal(server.hits('/error500.html'), 3, 'two retries after the first attempt');
  assert.equal(server.hits('/flaky.html'), 2, 'a 503 is retried once and then succeeds');
  expectFail('missing.html', 'not-found', /not found \(HTTP 404\)/);
  assert.equal(server.hits('/missing.html'), 1, 'a 404 is not retried');
  expectFail('loop-a.html', 'redirect-loop', /redirect loop: .*loop-a\.html -> .*loop-b\.html -> .*loop-a\.html/);
  expectFail('offsite.html', 'off-site', /redirects off site to http:\/\/localhost:/);
  expectFail('huge.html', 'too-large', new RegExp(`exceeds the cap of ${CAP} bytes`));
  expectFail('binary.html', 'binary', /binary content/);
  expectFail('picture', 'not-html', /Content-Type: image\/png/);
  expectFail('empty.html', 'empty', /empty/);
  expectFail('truncated.html', 'network', /network error: .*(truncated|closed|terminated|socket)/i);
  expectFail('private/secret.html', 'robots', /disallowed by http:\/\/127\.0\.0\.1:\d+\/robots\.txt \(line 2\)/);
  assert.equal(server.hits('/private/secret.html'), 0, 'robots.txt was obeyed');
  assert.equal(server.hits('/robots.txt'), 1, 'robots.txt fetched once per host');
  assert.equal(server.hits('/ok.html'), 1, 'redirect.html → ok.html does not fetch ok.html again');
  assert.ok(server.hits('/huge.html') === 1, 'a too-large page is not retried');

  // Pages that survive their problems: broken markup parses; a wrong charset is reported as a warning.
  const latin1 = byKey.get('latin1.html')!;
  assert.ok(latin1.ok);
  assert.ok(latin1.warnings?.some((w) => w.startsWith(server.url + 'latin1.html') && /declared charset "utf-8" .* does not match the bytes/.test(w)), String(latin1.warnings));
  const broken = byKey.get('broken.html')!;
  assert.ok(broken.ok);
  const tree = parsePage(broken.page, new LabelTable());
  assert.match(textOf(tree), /Unclosed paragraph\s+bold\s+italic[\s\S]*cell/);
});

test('the streaming size cap stops reading a 10 MB page early', async () => {
  let requests = 0;
  const f = new Fetcher({ delayMs: 0, retries: 0, maxBytes: CAP, onRequest: () => requests++ });
  try {
    await assert.rejects(f.fetch(server.url + 'huge.html'), (e: unknown) => {
      assert.ok(e instanceof PageError && e.code === 'too-large', String(e));
      const read = Number(/after (\d+) bytes/.exec(e.message)?.[1]);
      assert.ok(read > CAP && read < HUGE_BYTES / 2, `stopped after ${read} bytes, far below ${HUGE_BYTES}`);
      return true;
    });
  } finally {
    await f.close();
  }
});

test('a slow page times out, retried with backoff, and says so', async () => {
  const before = server.hits('/slow.html');
  const f = new Fetcher({ delayMs: 0, timeoutMs: 150, retries: 1, retryBaseMs: 10 });
  try {
    await assert.rejects(f.fetch(server.url + 'slow.html'), (e: unknown) => {
      assert.ok(e instanceof PageError);
      assert.equal(e.code, 'timeout');
      assert.match(e.message, new RegExp(`^${server.url}slow\\.html: timed out after 150 ms \\(gave up after 2 attempts\\)`));
      return true;
    });
    assert.equal(f.stats.retries, 1);
    assert.equal(server.hits('/slow.html') - before, 2);
  } finally {
    await f.close();
  }
});

test('a dead host (closed port) fails with a network error after retries', async () => {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/page.html`;
  const f = new Fetcher({ delayMs: 0, retries: 1, retryBaseMs: 5 });
  try {
    await assert.rejects(f.fetch(url), (e: unknown) => {
      assert.ok(e instanceof PageError);
      assert.equal(e.code, 'network');
      assert.ok(e.message.startsWith(url + ': network error: connection refused'), e.message);
      return true;
    });
    // A crawl of the dead host yields one failure for its entry and ends.
    const s = new HttpSource(url, { delayMs: 0, retries: 0 });
    const results: PageResult[] = [];
    for await (const r of s.pages()) results.push(r);
    await s.close();
    assert.equal(results.length, 1);
    assert.ok(!results[0]!.ok && results[0]!.error.code === 'network');
  } finally {
    await f.close();
  }
});

test('invalid URLs are refused with their reason', async () => {
  const f = new Fetcher({ delayMs: 0 });
  try {
    await assert.rejects(f.fetch('http://[::1'), (e: unknown) => e instanceof PageError && e.code === 'invalid-url' && e.message === 'http://[::1: invalid URL');
    await assert.rejects(f.fetch('ftp://127.0.0.1/x'), (e: unknown) => e instanceof PageError && e.code === 'invalid-url' && /unsupported scheme "ftp:"/.test(e.message));
  } finally {
    await f.close();
  }
  await assert.rejects(openSource('http://exa mple.invalid/'), (e: unknown) => e instanceof UsageError && /not an http\(s\) URL: http:\/\/exa mple/.test(e.message));
  await assert.rejects(openSource('/no/such/dir/for/gabarit'), (e: unknown) => e instanceof UsageError && /no such file or directory/.test(e.message));
});

test('politeness: with concurrency 1 and delay D, requests to one host start at least D apart', async () => {
  const D = 60;
  const starts: number[] = [];
  const arrivalsFrom = server.requests.length;
  const s = new HttpSource(server.url + 'p/1.html', { delayMs: D, concurrencyPerHost: 1, retries: 0, onRequest: (r) => starts.push(r.time) });
  const keys: string[] = [];
  for await (const r of s.pages()) keys.push(r.ok ? r.page.key : `failed ${r.key}`);
  await s.close();
  assert.deepEqual(keys, ['1.html', '2.html', '3.html', '4.html', '5.html']);
  assert.equal(starts.length, 6, 'robots.txt and five pages');
  // The starts the gate recorded, on the clock it keeps the delay by.
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= D, `request ${i} started ${starts[i]! - starts[i - 1]!} ms after the previous one`);
  // As the server saw them. The server shares the test's event loop, so on a loaded machine one arrival
  // can be handled late and the next on time: single gaps say little, the span of all of them does.
  const arrivals = server.requests.slice(arrivalsFrom).map((r) => r.time);
  assert.equal(arrivals.length, 6);
  assert.ok(arrivals.at(-1)! - arrivals[0]! >= (arrivals.length - 2) * D, `five gaps of ${D} ms spanned ${arrivals.at(-1)! - arrivals[0]!} ms`);
});

test('politeness: no more requests at once to a host than its concurrency limit', async () => {
  const s2 = await startBadServer();
  const f = new Fetcher({ delayMs: 0, concurrencyPerHost: 2, retries: 0 });
  try {
    const pages = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => f.fetch(`${s2.url}held/${n}.html`)));
    assert.equal(pages.length, 6);
    assert.equal(s2.maxActive, 2);
    assert.equal(f.stats.downloads, 6);
    // The in-run cache: a second fetch of a URL is not a request.
    const requests = f.stats.requests;
    await f.fetch(`${s2.url}held/1.html#frag`);
    assert.equal(f.stats.requests, requests);
    assert.equal(f.stats.cacheHits, 1);
  } finally {
    await f.close();
    await s2.close();
  }
});
