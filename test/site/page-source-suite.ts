/**
 * One suite for every PageSource (STYLE.md 10): each implementation, given the fixture site
 * test/fixtures/site/basic, must give the same pages (keys and bytes), the same key/URL mapping and the
 * same failures for missing pages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PageError } from '../../src/errors.ts';
import { LinkGraph } from '../../src/site/graph.ts';
import type { Page, PageResult, PageSource } from '../../src/site/page.ts';

export const FIXTURE_SITE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'site', 'basic');

/** The pages of the fixture site, sorted. */
export const FIXTURE_KEYS = ['about.html', 'docs/guide.html', 'docs/index.html', 'docs/plain', 'docs/ref.xhtml', 'index.html'];

/** The fixture's link graph, worked out by hand from its files. */
export const FIXTURE_EDGES: Array<[string, string]> = [
  ['about.html', 'docs/guide.html'],
  ['about.html', 'index.html'],
  ['docs/guide.html', 'about.html'],
  ['docs/guide.html', 'docs/ref.xhtml'],
  ['docs/index.html', 'docs/guide.html'],
  ['docs/index.html', 'docs/plain'],
  ['docs/index.html', 'index.html'],
  ['docs/plain', 'docs/index.html'],
  ['docs/ref.xhtml', 'index.html'],
  ['index.html', 'about.html'],
  ['index.html', 'docs/guide.html'],
  ['index.html', 'docs/index.html'],
];

export function fixtureBytes(key: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURE_SITE, key)));
}

export async function collect(source: PageSource, maxPages?: number): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for await (const r of source.pages(maxPages === undefined ? {} : { maxPages })) out.push(r);
  return out;
}

export function okPages(results: PageResult[]): Page[] {
  return results.flatMap((r) => (r.ok ? [r.page] : []));
}

export interface SuiteCase {
  /** Opens a fresh source over the fixture site. */
  open(): Promise<PageSource>;
  /** Failures `pages()` is expected to yield, by key and code (a crawl meets the dead link). */
  expectedFailures?: Array<{ key: string; code: string }>;
  /** Cleanup after the whole suite (stop a server). */
  after?: () => Promise<void>;
}

/** Registers the shared tests for one kind of source. */
export function pageSourceSuite(name: string, c: SuiteCase): void {
  test(`${name}: pages() gives every page of the fixture with its bytes`, async () => {
    const s = await c.open();
    try {
      const results = await collect(s);
      const pages = okPages(results);
      assert.deepEqual(pages.map((p) => p.key).sort(), FIXTURE_KEYS);
      for (const p of pages) {
        assert.deepEqual(p.body, fixtureBytes(p.key), `bytes of ${p.key}`);
        assert.equal(p.status, 200);
        assert.equal(p.origin, s.kind);
        assert.equal(s.keyOf(p.url), p.key, `keyOf(url) of ${p.key}`);
      }
      const failures = results.flatMap((r) => (r.ok ? [] : [{ key: r.key, code: r.error.code }]));
      assert.deepEqual(failures, c.expectedFailures ?? []);
      assert.ok(s.loaded >= FIXTURE_KEYS.length, `loaded counts the pages (${s.loaded})`);
    } finally {
      await s.close();
    }
  });

  test(`${name}: root, entry, keyOf and urlOf agree`, async () => {
    const s = await c.open();
    try {
      assert.ok(s.root.endsWith('/'));
      assert.equal(s.keyOf(s.entry), 'index.html');
      assert.equal(s.keyOf(s.root), 'index.html', 'the root names its index page');
      for (const key of FIXTURE_KEYS) {
        const url = s.urlOf(key);
        assert.ok(url.startsWith(s.root), `${url} is under the root`);
        assert.equal(s.keyOf(url), key);
      }
      assert.equal(s.keyOf(s.urlOf('docs/guide.html') + '#install'), 'docs/guide.html', 'fragments are ignored');
      assert.equal(s.keyOf(new URL('docs/', s.root).href), 'docs/index.html', 'a directory names its index page');
      assert.equal(s.keyOf('https://example.invalid/elsewhere.html'), undefined, 'another site has no key');
      assert.equal(s.keyOf('not a url'), undefined);
    } finally {
      await s.close();
    }
  });

  test(`${name}: get() by key and by URL; missing and off-site pages fail with named errors`, async () => {
    const s = await c.open();
    try {
      const byKey = await s.get('docs/guide.html');
      const byUrl = await s.get(s.urlOf('docs/guide.html'));
      assert.equal(byKey.key, 'docs/guide.html');
      assert.deepEqual(byUrl.body, byKey.body);
      assert.deepEqual(byKey.body, fixtureBytes('docs/guide.html'));
      assert.equal((await s.get('docs/')).key, 'docs/index.html');
      await assert.rejects(s.get('gone.html'), (e: unknown) => {
        assert.ok(e instanceof PageError);
        assert.equal(e.code, 'not-found');
        assert.match(e.message, /gone\.html/);
        return true;
      });
      await assert.rejects(s.get('https://example.invalid/x.html'), (e: unknown) => e instanceof PageError && e.code === 'off-site' && /example\.invalid/.test(e.message));
      await assert.rejects(s.get('http://[::1'), (e: unknown) => e instanceof PageError && e.code === 'invalid-url' && e.message.includes('http://[::1'));
    } finally {
      await s.close();
    }
  });

  test(`${name}: maxPages limits pages()`, async () => {
    const s = await c.open();
    try {
      const results = await collect(s, 2);
      assert.equal(results.length, 2);
    } finally {
      await s.close();
    }
  });

  test(`${name}: the link graph is the fixture's`, async () => {
    const s = await c.open();
    try {
      const g = await LinkGraph.fromSource(s);
      assert.deepEqual([...g.keys], FIXTURE_KEYS);
      assert.deepEqual(g.edges(), FIXTURE_EDGES);
    } finally {
      await s.close();
    }
  });

  if (c.after) test(`${name}: cleanup`, c.after);
}
