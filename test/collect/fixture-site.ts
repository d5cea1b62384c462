/**
 * A small in-memory site for the collect tests (test-only PageSource): a shop whose home page links to
 * three category pages; a category page lists its products in a table (two pages of them, with page
 * links); a product page links home, to its category and to two related products; plus about and contact
 * pages. Classes: product (24 pages), category (6 pages: 3 categories × 2 listing pages).
 */
import { PageError } from '../../src/errors.ts';
import type { Page, PageResult, PageSource } from '../../src/site/page.ts';
import { keyFromUrl, urlFromKey } from '../../src/site/keys.ts';

/** A PageSource over a map of key → HTML, counting loads. */
export class MemorySource implements PageSource {
  readonly kind = 'memory' as const;
  readonly root = 'http://shop.test/';
  readonly entry: string;
  loaded = 0;
  constructor(
    readonly files: ReadonlyMap<string, string>,
    entryKey = 'index.html',
  ) {
    this.entry = this.urlOf(entryKey);
  }
  async *pages(): AsyncIterable<PageResult> {
    for (const key of this.files.keys()) yield { ok: true, page: await this.get(key) };
  }
  async get(urlOrKey: string): Promise<Page> {
    const key = /^https?:/.test(urlOrKey) ? this.keyOf(urlOrKey) : urlOrKey;
    const html = key === undefined ? undefined : this.files.get(key);
    if (key === undefined || html === undefined) throw new PageError(urlOrKey, 'not-found', 'no such page');
    this.loaded++;
    return { url: this.urlOf(key), key, status: 200, headers: { 'content-type': 'text/html' }, body: new TextEncoder().encode(html), origin: 'memory' };
  }
  keyOf(url: string): string | undefined {
    return keyFromUrl(url, this.root);
  }
  urlOf(key: string): string {
    return urlFromKey(key, this.root);
  }
  async close(): Promise<void> {}
}

const CATEGORIES = ['chairs', 'tables', 'lamps'];
const PER_CATEGORY = 8;
const PER_LISTING = 4;

function layout(title: string, main: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>
<div class="header"><a href="/index.html">Shop</a> <ul class="menu">${CATEGORIES.map((c) => `<li><a href="/${c}/1.html">${c}</a></li>`).join('')}</ul></div>
<div class="main">${main}</div>
<div class="footer"><a href="/about.html">About</a> | <a href="/contact.html">Contact</a></div>
</body></html>`;
}

/** Product key of category c, number i (0-based). */
export function productKey(c: string, i: number): string {
  return `${c}/item-${i}.html`;
}

/** The fixture site: key → HTML, and the gold classes. */
export function shopSite(): { files: Map<string, string>; products: string[]; listings: string[] } {
  const files = new Map<string, string>();
  const products: string[] = [];
  const listings: string[] = [];
  files.set('index.html', layout('Home', `<h1>Welcome</h1><p>Our shop sells furniture of every kind.</p>`));
  files.set('about.html', layout('About', `<h1>About</h1><p>We are a small shop.</p>`));
  files.set('contact.html', layout('Contact', `<h1>Contact</h1><p>Write to us.</p>`));
  for (const c of CATEGORIES) {
    for (let page = 1; page <= PER_CATEGORY / PER_LISTING; page++) {
      const rows: string[] = [];
      for (let i = (page - 1) * PER_LISTING; i < page * PER_LISTING; i++) {
        rows.push(`<tr><td class="name"><a href="/${productKey(c, i)}">${c} ${i}</a></td><td class="price">${10 + i}.00</td></tr>`);
      }
      const pages = Array.from({ length: PER_CATEGORY / PER_LISTING }, (_, k) => `<li><a href="/${c}/${k + 1}.html">${k + 1}</a></li>`);
      const nav = `<ul class="pages">${pages.join('')}</ul>`;
      const key = `${c}/${page}.html`;
      files.set(key, layout(c, `<h1>${c}</h1><table class="products">${rows.join('')}</table><div class="pager">${nav}</div>`));
      listings.push(key);
    }
    for (let i = 0; i < PER_CATEGORY; i++) {
      const related = [1, 2].map((d) => `<li><a href="/${productKey(c, (i + d) % PER_CATEGORY)}">${c} ${(i + d) % PER_CATEGORY}</a></li>`).join('');
      const key = productKey(c, i);
      files.set(
        key,
        layout(
          `${c} ${i}`,
          `<h1>${c} ${i}</h1><div class="crumbs"><a href="/${c}/1.html">${c}</a></div><p class="desc">A fine piece, number ${i}.</p><ul class="related">${related}</ul>`,
        ),
      );
      products.push(key);
    }
  }
  return { files, products, listings };
}

/** Writes a site (key → HTML) as files under `dir`. */
export async function writeSite(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { dirname, join } = await import('node:path');
  for (const [key, html] of files) {
    await mkdir(dirname(join(dir, key)), { recursive: true });
    await writeFile(join(dir, key), html);
  }
}
