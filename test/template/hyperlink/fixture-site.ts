/**
 * Small hand-written sites for the hyperlink engine's tests, served from memory (MemorySource): a menu of
 * section pages that all link to each other (the complete subdigraph of paper 2), article pages with a
 * per-page table of contents, and pages of another layout.
 */
import type { MemoryPage } from '../../../src/site/memory-source.ts';

export const SECTIONS = ['news', 'sport', 'science', 'arts', 'travel'] as const;

/** The site's menu: every section, the current one marked active. */
function menu(current: string): string {
  return SECTIONS.map((s) => `<li class="item${s === current ? ' item--active' : ''}"><a href="/${s}.html">${s[0]!.toUpperCase()}${s.slice(1)} section</a></li>`).join('');
}

/** One page of the shared template around `body` (the content) with a per-page table of contents. */
export function page(current: string, title: string, body: string, toc: readonly string[] = []): string {
  const tocHtml = toc.length ? `<nav class="toc"><ul>${toc.map((t, i) => `<li><a href="#h${i}">${t}</a></li>`).join('')}</ul></nav>` : '<nav class="toc"><ul></ul></nav>';
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header class="top"><div class="logo">Daily Example Gazette</div><ul class="menu">${menu(current)}</ul></header>
<div class="layout"><aside class="side">${tocHtml}<p class="about">Independent reporting since nineteen ninety</p></aside>
<article class="content"><h1>${title}</h1>${body}</article></div>
<footer class="foot"><p>Copyright Gazette Press, all rights reserved</p><a href="/about.html">About us</a></footer>
</body></html>`;
}

/** Words of a section page's content (unique per page so that the tests can tell content apart). */
export function sectionText(s: string): string {
  return `<p>Today in ${s} our reporters cover the ${s} stories of the week.</p><p>More about ${s}: ${s}alpha ${s}beta ${s}gamma.</p>`;
}

/** The fixture site: 5 section pages, 3 articles (linked from the news page only), an about page. */
export function fixtureSite(): MemoryPage[] {
  const pages: MemoryPage[] = SECTIONS.map((s) => ({ key: `${s}.html`, body: page(s, `${s} front page`, sectionText(s) + (s === 'news' ? '<ul class="list"><li><a href="/a1.html">first story</a></li><li><a href="/a2.html">second story</a></li><li><a href="/a3.html">third story</a></li></ul>' : ''), [`${s} today`, `${s} archive`]) }));
  for (const a of ['a1', 'a2', 'a3']) {
    pages.push({ key: `${a}.html`, body: page('', `Story ${a}`, `<p>The ${a} story unfolds with ${a}word and ${a}detail in <a href="/sport.html">sport</a> news.</p><p>Witnesses of ${a} said ${a}quote.</p>`, [`${a} first part`, `${a} second part`, `${a} third part`]) });
  }
  pages.push({ key: 'about.html', body: page('', 'About', '<p>About the gazette aboutword.</p>') });
  pages.push({ key: 'index.html', body: page('', 'Home', '<p>Welcome homeword.</p>') });
  return pages;
}
