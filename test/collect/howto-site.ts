/**
 * A small documentation written for the collect tests: a library reference (`library/`, pages of one kind,
 * each documenting functions) and how-tos (`howto/`), each section with an index page, one template over
 * the whole site (a top menu to the sections' index pages, a footer). The how-tos are written each its own
 * way (three blocks of their content drawn from a pool: code, tables, notes, definition lists, quotes…), so
 * that their shapes lie far apart; one of them (`howto/a-moved.html`, first in the section's table of
 * contents) has a box of links to where its topic moved beside its content, a schema of its own, its shape
 * 0.25–0.27 to the others'. Only the section's index page lists the how-tos; a how-to links to library pages
 * in its prose.
 */

const WORDS = ['the', 'module', 'reads', 'a', 'value', 'from', 'its', 'file', 'and', 'writes', 'socket', 'buffer', 'handle', 'stream'];

const words = (n: number, seed: number): string => Array.from({ length: n }, (_, k) => WORDS[(k * 7 + seed * 3) % WORDS.length]!).join(' ');

/** The template around a page's body (the body's container, `div.body`, holds its content). */
function page(title: string, body: string, aside = ''): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header><a href="../index.html">Docs</a><nav><ul><li><a href="../library/index.html">Library</a></li><li><a href="../howto/index.html">How-tos</a></li></ul></nav></header>
<div class="wrap"><main><div class="body"><h1>${title}</h1>${body}</div></main>${aside}</div>
<footer><p>Built by a generator.</p></footer></body></html>`;
}

/** Blocks a how-to's content is made of; how-to i takes three of them. */
const BLOCKS: Array<(i: number) => string> = [
  (i) => `<pre class="code"><span class="k">def</span> f${i}(): <span class="n">pass</span></pre>`,
  (i) => `<table class="grid"><thead><tr><th>name</th><th>use</th></tr></thead><tbody><tr><td>${words(2, i)}</td><td>${words(3, i)}</td></tr></tbody></table>`,
  (i) => `<div class="admonition note"><p class="title">Note</p><p>${words(10, i)}</p></div>`,
  (i) => `<dl class="glossary"><dt>${words(2, i)}</dt><dd><p>${words(8, i)}</p></dd></dl>`,
  (i) => `<blockquote><div><p>${words(9, i)}</p></div></blockquote>`,
  (i) => `<div class="admonition warning"><p class="title">Warning</p><p>${words(9, i + 1)}</p></div>`,
  (i) => `<figure><img src="f${i}.png" alt=""><figcaption>${words(4, i)}</figcaption></figure>`,
  (i) => `<ol class="steps"><li><p>${words(6, i)}</p></li><li><p>${words(5, i)}</p></li></ol>`,
  (i) => `<div class="highlight-python"><div class="highlight"><pre><span class="n">x</span> = ${i}</pre></div></div>`,
  (i) => `<ul class="simple"><li><p>${words(5, i)}</p></li><li><p>${words(4, i)}</p></li></ul>`,
  (i) => `<section class="footnotes"><aside class="footnote"><span class="label">1</span><p>${words(7, i)}</p></aside></section>`,
];

/** How-to i: prose naming two library pages, then three blocks of the pool, each in a section of its own. */
function howto(i: number, libs: readonly string[]): string {
  const blocks = [0, 1, 2].map((k) => BLOCKS[(i * 4 + k * 3) % BLOCKS.length]!(i));
  const prose = `<p>${words(40, i)} <a href="../library/${libs[i % libs.length]}">${libs[i % libs.length]}</a> ${words(20, i + 1)}</p><p>${words(30, i + 2)} <a href="../library/${libs[(i + 3) % libs.length]}">see</a> ${words(12, i)}</p>`;
  return `<section>${prose}${blocks.map((b, k) => `<section><h2>${words(3, i + k)}</h2>${b}<p>${words(25, i + k)}</p></section>`).join('')}</section>`;
}

/**
 * The moved page: prose and a section with a block of its own, and a box of links to where its topic moved
 * beside its content (links and frame unlike a how-to's).
 */
function moved(i: number, libs: readonly string[]): string {
  const body = `<section><p>${words(30, i)}</p><section><h2>Why</h2><div class="deprecated"><p>${words(6, i)}</p></div><p>${words(20, i)}</p></section></section>`;
  const aside = `<aside class="moved-to"><ul>${libs.slice(0, 3).map((k) => `<li><a href="../library/${k}">${k}</a></li>`).join('')}</ul></aside>`;
  return page('Moved', body, aside);
}

/** A library page: an introduction, then its functions. */
const entries = (i: number): string => `<section><p>${words(30, i)}</p>${[0, 1, 2].map((k) => `<dl class="function"><dt><code>f${i}_${k}(value)</code></dt><dd><p>${words(15 + k, i + k)}</p></dd></dl>`).join('')}</section>`;

export interface HowtoSite {
  files: Map<string, string>;
  /** The how-tos (the moved page among them), without the section's index page. */
  howtos: string[];
}

/**
 * The site: `library/` (`libraries` pages), `howto/` (`howtos` how-tos and the moved page), and the home page;
 * `indexIntro`: the how-tos' index page opens with two blocks of the how-tos' pool (its shape near some of
 * them), too few words for an article.
 */
export function howtoSite(howtos = 12, libraries = 10, indexIntro = false): HowtoSite {
  const files = new Map<string, string>();
  const libs = Array.from({ length: libraries }, (_, i) => `lib${i}.html`);
  const toc = (keys: readonly string[], cls: string): string => `<div class="${cls}"><ul>${keys.map((k) => `<li class="l1"><a href="${k}">${k.replace(/\.html$/, '')}</a></li>`).join('')}</ul></div>`;
  files.set('library/index.html', page('Library', toc(libs, 'toctree-wrapper')));
  libs.forEach((k, i) => files.set(`library/${k}`, page(`Library ${k}`, entries(i))));
  // The moved page comes first in the table of contents.
  const names = [...Array.from({ length: howtos }, (_, i) => `h${String(i).padStart(2, '0')}.html`), 'a-moved.html'].sort();
  const intro = indexIntro ? `<section><section><h2>${words(3, 1)}</h2>${BLOCKS[0]!(1)}${BLOCKS[6]!(1)}</section></section>` : '';
  files.set('howto/index.html', page('How-tos', intro + toc(names, 'toctree-wrapper')));
  names.forEach((k, i) => files.set(`howto/${k}`, k === 'a-moved.html' ? moved(i, libs) : page(`How-to ${k}`, howto(i, libs))));
  files.set('index.html', page('Home', `<p>${words(12, 0)}</p><ul class="sections"><li><a href="library/index.html">Library</a></li><li><a href="howto/index.html">How-tos</a></li></ul>`).replaceAll('../', ''));
  return { files, howtos: names.map((k) => `howto/${k}`) };
}
