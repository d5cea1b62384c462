/**
 * A test-only PageSource over pages held in memory (src/site has no MemorySource yet): keys are paths
 * relative to `memory://site/`, bodies UTF-8 HTML. Pages whose html is null fail with 'not-found'.
 */
import { PageError } from '../../../src/errors.ts';
import type { Page, PageResult, PageSource } from '../../../src/site/page.ts';

export interface MemoryPage {
  key: string;
  html: string | null;
}

export function memorySource(pages: readonly MemoryPage[]): PageSource & { gets: number } {
  const root = 'memory://site/';
  const enc = new TextEncoder();
  const byKey = new Map(pages.map((p) => [p.key, p]));
  const toPage = (p: MemoryPage): Page => ({
    url: root + p.key,
    key: p.key,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: enc.encode(p.html ?? ''),
    origin: 'memory',
  });
  const src = {
    kind: 'memory' as const,
    root,
    entry: root + (pages[0]?.key ?? ''),
    loaded: 0,
    gets: 0,
    async *pages(): AsyncIterable<PageResult> {
      for (const p of pages) {
        if (p.html === null) yield { ok: false, url: root + p.key, key: p.key, error: new PageError(root + p.key, 'not-found', 'no such page') };
        else yield { ok: true, page: toPage(p) };
      }
    },
    async get(urlOrKey: string): Promise<Page> {
      src.gets++;
      const key = urlOrKey.startsWith(root) ? urlOrKey.slice(root.length) : urlOrKey;
      const p = byKey.get(key);
      if (!p || p.html === null) throw new PageError(root + key, 'not-found', 'no such page');
      return toPage(p);
    },
    keyOf: (url: string) => (url.startsWith(root) ? url.slice(root.length) : undefined),
    urlOf: (key: string) => root + key,
    async close() {},
  };
  return src;
}
