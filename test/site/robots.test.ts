/**
 * robots.txt verdicts (RFC 9309) and per-host politeness, on their own: a loader stands in for HTTP
 * (test/site/fetch.test.ts runs them through a real server).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageError } from '../../src/errors.ts';
import { HostGate } from '../../src/site/politeness.ts';
import { MAX_CRAWL_DELAY_S, RobotsRules } from '../../src/site/robots.ts';

const UA = 'gabarit-test';

/** RobotsRules over a loader answering `answer(url)`, counting the loads. */
function rules(answer: (url: string) => string | PageError): { robots: RobotsRules; loads: string[]; delays: Array<[string, number]> } {
  const loads: string[] = [];
  const delays: Array<[string, number]> = [];
  const robots = new RobotsRules(
    UA,
    async (url) => {
      loads.push(url);
      const a = answer(url);
      if (a instanceof PageError) throw a;
      return { url, body: new TextEncoder().encode(a) };
    },
    (host, ms) => delays.push([host, ms]),
  );
  return { robots, loads, delays };
}

async function verdict(robots: RobotsRules, url: string): Promise<PageError | null> {
  try {
    await robots.check(url, url);
    return null;
  } catch (err) {
    assert.ok(err instanceof PageError);
    return err;
  }
}

test('a disallowed path fails with code robots and the rule line; read once per origin', async () => {
  const { robots, loads } = rules(() => 'User-agent: *\nDisallow: /private/\n');
  assert.equal(await verdict(robots, 'http://s.test/a.html'), null);
  const e = await verdict(robots, 'http://s.test/private/b.html');
  assert.equal(e?.code, 'robots');
  assert.match(e!.message, /disallowed by http:\/\/s\.test\/robots\.txt \(line 2\)/);
  assert.deepEqual(loads, ['http://s.test/robots.txt']);
  await verdict(robots, 'http://other.test/private/b.html');
  assert.deepEqual(loads, ['http://s.test/robots.txt', 'http://other.test/robots.txt']);
});

test('robots.txt missing (4xx) allows all; unreachable (5xx) disallows all; a network failure fails each page', async () => {
  const missing = rules((url) => new PageError(url, 'not-found', 'not found (HTTP 404)', { status: 404 }));
  assert.equal(await verdict(missing.robots, 'http://s.test/a.html'), null);
  const unreachable = rules((url) => new PageError(url, 'http-status', 'HTTP 503 (server error)', { status: 503 }));
  const e5 = await verdict(unreachable.robots, 'http://s.test/a.html');
  assert.equal(e5?.code, 'robots');
  assert.match(e5!.message, /^http:\/\/s\.test\/a\.html: robots\.txt unreachable \(HTTP 503/);
  const down = rules((url) => new PageError(url, 'network', 'network error: connection refused'));
  const en = await verdict(down.robots, 'http://s.test/a.html');
  assert.equal(en?.code, 'network');
  assert.equal(en?.message, 'http://s.test/a.html: network error: connection refused (while fetching http://s.test/robots.txt)');
});

test('a Crawl-delay raises the host delay, capped at MAX_CRAWL_DELAY_S', async () => {
  const { robots, delays } = rules((url) => (url.includes('slow') ? 'User-agent: *\nCrawl-delay: 600\n' : 'User-agent: *\nCrawl-delay: 2\n'));
  await verdict(robots, 'http://fast.test/a.html');
  await verdict(robots, 'http://slow.test/a.html');
  assert.deepEqual(delays, [
    ['fast.test', 2000],
    ['slow.test', MAX_CRAWL_DELAY_S * 1000],
  ]);
});

test('host gate: starts to one host are the raised delay apart, other hosts do not wait', async () => {
  const gate = new HostGate(1, 0);
  gate.raiseDelay('a.test', 60);
  gate.raiseDelay('a.test', 10); // lowering is ignored
  const starts: Array<[string, number]> = [];
  const t0 = Date.now();
  const one = async (host: string): Promise<void> => {
    const at = await gate.acquire(host);
    starts.push([host, at - t0]);
    gate.release(host);
  };
  await Promise.all([one('a.test'), one('a.test'), one('b.test')]);
  const a = starts.filter(([h]) => h === 'a.test').map(([, t]) => t);
  assert.ok(a[1]! - a[0]! >= 60, `a.test starts ${a.join(', ')} ms`);
  assert.deepEqual(starts.map(([h]) => h), ['a.test', 'b.test', 'a.test'], 'b.test did not wait for a.test');
});
