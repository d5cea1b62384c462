/**
 * Writes the "redesigned" demo pages for the self-healing wrapper demo (paper 5): a few product pages of
 * the demo shop (examples/site/shop) as they might look after a site redesign, into
 * examples/wrapper/redesigned/, and the wrapper built on the original design, examples/wrapper/
 * product.wrapper.json (`gabarit wrapper create` with the same patterns).
 * The redesign, applied to the page text: classes renamed (product → product-detail, price → amount,
 * description → copy, features → highlights, specs → spec-table), the product wrapped in two layout
 * elements, a promotion banner inserted before it, and the rating moved below the SKU.
 * A second, harder change: the privacy page moved to a new CMS (`redesignDocument`): its container and
 * every level above the paragraphs rebuilt, the heading demoted, each paragraph boxed, no old class left,
 * into examples/wrapper/redesigned/privacy.html, with the wrapper of the policy built on the original page,
 * examples/wrapper/policy.wrapper.json. Element labels find nothing similar; the content view does.
 * A third: the terms moved to another page of the site and rewritten (TERMS_PAGE, MOVED_TERMS_PAGE, written
 * by hand), with the wrapper examples/wrapper/terms.wrapper.json; only the document view finds them.
 * Run: `npx tsx examples/wrapper/redesign.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/html/parse.ts';
import { createWrapper, type PatternSpec } from '../../src/wrapper/create.ts';
import { DEMO_PAGES, MOVED_TERMS_PAGE, POLICY_PAGE, POLICY_WRAPPER_FILE, REDESIGNED_DIR, TERMS_PAGE, TERMS_WRAPPER_FILE, WRAPPER_FILE } from '../../src/demo/files.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOP = join(HERE, '..', 'site', 'shop');
export { DEMO_PAGES, REDESIGNED_DIR, WRAPPER_FILE, POLICY_PAGE, POLICY_WRAPPER_FILE, TERMS_PAGE, MOVED_TERMS_PAGE, TERMS_WRAPPER_FILE };
export const POLICY_PATTERNS: PatternSpec[] = [{ name: 'policy', selector: 'main#content' }];
/**
 * The third change: the shop's terms of service moved from its legal page (examples/wrapper/legal/, one
 * page for terms, privacy and returns on the old site builder) to a page of their own on a new builder,
 * on another host of the same site, and were rewritten there (examples/wrapper/moved/; both written by
 * hand). Neither element labels nor the content view find them; the document view does.
 */
export const TERMS_PATTERNS: PatternSpec[] = [{ name: 'terms', selector: '#legal_2' }];

/** The patterns of the demo wrapper (as `--pattern` flags would give them). */
export const DEMO_PATTERNS: PatternSpec[] = [
  {
    name: 'product',
    selector: 'article.product',
    children: [
      { name: 'name', selector: 'h1' },
      { name: 'price', selector: 'p.price', constraints: { type: 'number' } },
      { name: 'description', selector: 'div.description' },
      { name: 'features', selector: 'ul.features > li', multiple: true },
    ],
  },
];

/** The redesign of one page (see the module comment). */
export function redesign(html: string): string {
  const renames: Array<[RegExp, string]> = [
    [/class="product"/g, 'class="product-detail"'],
    [/class="price"/g, 'class="amount"'],
    [/class="description"/g, 'class="copy"'],
    [/class="features"/g, 'class="highlights"'],
    [/class="specs"/g, 'class="spec-table"'],
  ];
  let out = html;
  for (const [re, to] of renames) out = out.replace(re, to);
  out = out.replace(/(<p class="rating"[^>]*>.*?<\/p>)\s*(<p class="sku">.*?<\/p>)/s, '$2\n  $1');
  out = out.replace(/<article class="product-detail"/, '<div class="promo-banner"><p>Winter sale: free delivery this week</p></div>\n<div class="layout"><div class="layout__main"><article class="product-detail"');
  out = out.replace(/<\/article>\s*<section class="related">/, '</article></div></div>\n<section class="related">');
  return out;
}

/** The CMS change of a document page (see the module comment). */
export function redesignDocument(html: string): string {
  return html.replace(/<main id="content" class="page-static">\s*<h1>(.*?)<\/h1>([\s\S]*?)<\/main>/, (_m, title: string, body: string) => {
    const blocks = [...body.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((p) => `<div class="block block--text"><p>${p[1]}</p></div>`).join('\n');
    return `<main class="cms"><article class="cms-page"><div class="cms-page__inner"><header class="cms-page__header"><h2 class="title">${title}</h2></header>\n<div class="cms-page__body">\n${blocks}\n</div></div></article></main>`;
  });
}

async function main(): Promise<void> {
  mkdirSync(REDESIGNED_DIR, { recursive: true });
  for (const p of DEMO_PAGES) writeFileSync(join(REDESIGNED_DIR, p), redesign(readFileSync(join(SHOP, p), 'utf8')));
  const original = parseHtml(readFileSync(join(SHOP, DEMO_PAGES[0]!), 'utf8'));
  const wrapper = createWrapper(original, DEMO_PATTERNS, { name: 'demo-product', source: `examples/site/shop/${DEMO_PAGES[0]}` });
  writeFileSync(WRAPPER_FILE, JSON.stringify(wrapper, null, 1) + '\n');
  const policyHtml = readFileSync(join(SHOP, '..', POLICY_PAGE), 'utf8');
  const redesigned = redesignDocument(policyHtml);
  if (redesigned === policyHtml) throw new Error(`${POLICY_PAGE}: the document redesign did not apply`);
  writeFileSync(join(REDESIGNED_DIR, POLICY_PAGE), redesigned);
  const policy = createWrapper(parseHtml(policyHtml), POLICY_PATTERNS, { name: 'demo-policy', source: `examples/site/${POLICY_PAGE}` });
  writeFileSync(POLICY_WRAPPER_FILE, JSON.stringify(policy, null, 1) + '\n');
  // The wrapper's address comes from the legal page's canonical link.
  const terms = createWrapper(parseHtml(readFileSync(TERMS_PAGE, 'utf8')), TERMS_PATTERNS, { name: 'demo-terms', source: 'examples/wrapper/legal/terms.html' });
  writeFileSync(TERMS_WRAPPER_FILE, JSON.stringify(terms, null, 1) + '\n');
  process.stdout.write(`wrote ${DEMO_PAGES.length} redesigned pages to ${REDESIGNED_DIR} and the wrapper ${WRAPPER_FILE}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
