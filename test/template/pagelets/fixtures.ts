/**
 * Small hand-written fixtures for the pagelets tests: an in-memory PageSource and a tiny synthetic site
 * (a menu and a footer shared by every page, a sidebar shared by some, unique articles).
 */
import { PageError } from '../../../src/errors.ts';
import type { Page, PageResult, PageSource } from '../../../src/site/page.ts';

export const ROOT = 'http://site.test/';

/** A PageSource over pages given as key → HTML. */
export function memorySource(pages: Record<string, string>, root = ROOT): PageSource {
  const enc = new TextEncoder();
  const make = (key: string): Page => ({
    url: root + key,
    key,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: enc.encode(pages[key]!),
    origin: 'memory',
  });
  return {
    kind: 'memory',
    root,
    entry: root + 'index.html',
    loaded: 0,
    async *pages(): AsyncIterable<PageResult> {
      for (const key of Object.keys(pages)) yield { ok: true, page: make(key) };
    },
    async get(urlOrKey: string): Promise<Page> {
      const key = urlOrKey.startsWith(root) ? urlOrKey.slice(root.length) : urlOrKey;
      if (!(key in pages)) throw new PageError(urlOrKey, 'not-found', 'no such page');
      return make(key);
    },
    keyOf: (url) => (url.startsWith(root) ? url.slice(root.length) : undefined),
    urlOf: (key) => root + key,
    close: async () => undefined,
  };
}

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(' ');

/** Deterministic pseudo-random words (a linear congruential generator; seed per page). */
export function prose(seed: number, n: number): string {
  let x = seed * 2654435761 + 1;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]! + String((x >>> 8) % 97));
  }
  return out.join(' ');
}

/**
 * A site of `n` pages: page-0 .. page-(n-1). Every page has the same menu (links to the first 5 pages and
 * the home page) and footer; pages 0..n/2 also share a sidebar; each has a unique article with one
 * "related" paragraph linking to its neighbours.
 */
export function syntheticSite(n: number, options: { sidebarOn?: (i: number) => boolean } = {}): Record<string, string> {
  const pages: Record<string, string> = {};
  const menu = `<ul class="menu">${[0, 1, 2, 3, 4].map((j) => `<li><a href="page-${j}.html">Section ${j}</a></li>`).join('')}<li><a href="index.html">Home</a></li></ul>`;
  const footer = `<footer><p>Copyright Example Corp</p><a href="about.html">About</a> <a href="contact.html">Contact</a> <a href="privacy.html">Privacy</a></footer>`;
  const sidebarOn = options.sidebarOn ?? ((i: number) => i < n / 2);
  for (let i = 0; i < n; i++) {
    const sidebar = sidebarOn(i)
      ? `<aside><h3>Popular</h3><a href="page-1.html">One</a> <a href="page-2.html">Two</a> <a href="page-3.html">Three</a></aside>`
      : '';
    const related = `<p class="related">See <a href="page-${(i + 1) % n}.html">${prose(i + 3000, 2)}</a>, <a href="page-${(i + n - 1) % n}.html">${prose(i + 4000, 2)}</a> and <a href="page-${(i + 7) % n}.html">${prose(i + 5000, 2)}</a>.</p>`;
    pages[`page-${i}.html`] =
      `<!doctype html><html><head><title>Page ${i}</title></head><body><header><nav>${menu}</nav></header>` +
      `<main><h1>Title ${prose(i, 3)}</h1><p>${prose(i + 1000, 40)}</p>${related}<p>${prose(i + 2000, 30)}</p></main>${sidebar}${footer}</body></html>`;
  }
  return pages;
}
