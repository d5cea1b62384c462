/**
 * Small sites written here for the pipeline tests: pages of one site (a shared menu and footer around a
 * different article each), and single pages of other sites.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemorySource } from '../../src/site/memory-source.ts';

const WORDS = ['granite', 'harbour', 'lantern', 'meadow', 'orchard', 'pebble', 'quarry', 'ribbon', 'saddle', 'thimble', 'umber', 'velvet'];

/** An article of a few sentences, different for each `i`. */
export function article(i: number, sentences = 4): string {
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const a = WORDS[(i * 7 + s) % WORDS.length]!;
    const b = WORDS[(i * 3 + s * 5 + 1) % WORDS.length]!;
    out.push(`<p>Story ${i} tells of the ${a} and the ${b}, sentence ${s} of a page with its own words ${i * 31 + s}.</p>`);
  }
  return out.join('\n');
}

/** A page of the fixture site `site` (menu, article, footer). */
export function sitePage(site: string, i: number, pages: number): string {
  const menu = Array.from({ length: Math.min(pages, 6) }, (_, k) => `<li><a href="p${k}.html">Section ${k} of ${site}</a></li>`).join('');
  return `<!DOCTYPE html><html><head><title>${site} page ${i}</title></head><body>
<header><div class="brand">${site} — the fixture site</div><nav><ul>${menu}</ul></nav></header>
<main><h1>Title ${i} on ${site}</h1>${article(i)}</main>
<footer><p>Copyright ${site}. Contact, terms and privacy of the fixture site.</p></footer>
</body></html>`;
}

/** `n` pages of one site in memory (`p0.html` … ). */
export function memorySite(n: number, site = 'alpha'): MemorySource {
  return new MemorySource(Array.from({ length: n }, (_, i) => ({ key: `p${i}.html`, body: sitePage(site, i, n) })));
}

/** Writes `n` pages of one site into `dir`. */
export async function writeSite(dir: string, n: number, site = 'alpha'): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < n; i++) await writeFile(join(dir, `p${i}.html`), sitePage(site, i, n));
}

/** A page of another site, alone: its own header and footer around an article, and its canonical URL when given. */
export function lonePage(site: string, i: number, canonical?: string): string {
  const link = canonical ? `<link rel="canonical" href="${canonical}">` : '';
  return `<!DOCTYPE html><html><head><title>${site}</title>${link}</head><body>
<div class="top-${site}"><a href="/">${site} home</a> · <a href="/about">About ${site}</a> · <a href="/shop">Shop</a></div>
<article class="post-${site}"><h1>${site}: a report</h1>${article(100 + i, 6)}</article>
<div class="bottom-${site}">© ${site} — all rights reserved</div>
</body></html>`;
}

/** Writes a mixed crawl: 3 pages of alpha and of beta (no URL), pages of gamma and delta (canonical), and two lone pages without a URL. */
export async function writeMixed(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < 3; i++) await writeFile(join(dir, `alpha-${i}.html`), sitePage('alpha', i, 3));
  for (let i = 0; i < 3; i++) await writeFile(join(dir, `beta-${i}.html`), sitePage('beta', i + 10, 3).replace(/<header>/, '<header class="beta-head">'));
  await writeFile(join(dir, 'gamma.html'), lonePage('gamma', 1, 'https://www.gamma.example/news/1'));
  await writeFile(join(dir, 'delta.html'), lonePage('delta', 2, 'https://delta.example/a'));
  await writeFile(join(dir, 'lone-1.html'), lonePage('epsilon', 3));
  await writeFile(join(dir, 'lone-2.html'), lonePage('zeta', 4));
}
