/**
 * Writes the "redesigned" demo pages for the self-healing wrapper demo (paper 5): a few product pages of
 * the demo shop (examples/site/shop) as they might look after a site redesign, into
 * examples/wrapper/redesigned/, and the wrapper built on the original design, examples/wrapper/
 * product.wrapper.json (`gabarit wrapper create` with the same patterns).
 * The redesign, applied to the page text: classes renamed (product → product-detail, price → amount,
 * description → copy, features → highlights, specs → spec-table), the product wrapped in two layout
 * elements, a promotion banner inserted before it, and the rating moved below the SKU.
 * Run: `npx tsx examples/wrapper/redesign.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/html/parse.ts';
import { createWrapper, type PatternSpec } from '../../src/wrapper/create.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOP = join(HERE, '..', 'site', 'shop');
/** The pages redesigned. */
export const DEMO_PAGES = ['cairn-45-backpack.html', 'ridgeline-2-tent.html', 'merino-base-layer.html'];
export const REDESIGNED_DIR = join(HERE, 'redesigned');
export const WRAPPER_FILE = join(HERE, 'product.wrapper.json');

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

async function main(): Promise<void> {
  mkdirSync(REDESIGNED_DIR, { recursive: true });
  for (const p of DEMO_PAGES) writeFileSync(join(REDESIGNED_DIR, p), redesign(readFileSync(join(SHOP, p), 'utf8')));
  const original = parseHtml(readFileSync(join(SHOP, DEMO_PAGES[0]!), 'utf8'));
  const wrapper = createWrapper(original, DEMO_PATTERNS, { name: 'demo-product', source: `examples/site/shop/${DEMO_PAGES[0]}` });
  writeFileSync(WRAPPER_FILE, JSON.stringify(wrapper, null, 1) + '\n');
  process.stdout.write(`wrote ${DEMO_PAGES.length} redesigned pages to ${REDESIGNED_DIR} and the wrapper ${WRAPPER_FILE}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
