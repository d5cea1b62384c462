/**
 * Writes the demo site `examples/site/`: "Switchback Supply", a fictional outdoor-gear shop with a
 * magazine, written here for gabarit's demo (`npm start`) and tests. Regenerate with
 *
 *     npx tsx examples/generate.ts
 *
 * The output is deterministic (a seeded PRNG, no clock): running it twice gives the same bytes, so the
 * generated files are committed and reviewed like code.
 *
 * What the site offers each engine:
 *  - every page shares a template: header (logo, search, main menu), breadcrumbs, sidebar (categories,
 *    an advertisement that changes from page to page, a newsletter box) and footer: shared template
 *    tokens for paper 1 (alignment) and repeated navigation pagelets for paper 3 (pagelets);
 *  - the five menu pages (home, shop, journal, trail guides, about) all link each other through the menu:
 *    a complete subdigraph of size 5 for paper 2 (hyperlink analysis);
 *  - page classes (products, articles, guides, categories) reached through list pages with pagination,
 *    and detail pages linking related items, for paper 4 (structural crawling and clustering);
 *  - product pages with clear fields (name, price, rating, specifications) for paper 5 (wrappers; a
 *    redesigned version lives under examples/wrapper/).
 * All links are relative, so the site works as a directory and when served over HTTP.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const SITE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'site');
/** The seed of every random choice (change it and the prose changes, not the structure). */
const SEED = 20240917;
const SITE_NAME = 'Switchback Supply';

// ---------------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------------

/** mulberry32: a small 32-bit PRNG, enough for reproducible prose. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(SEED);
function int(lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}
function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}
function sample<T>(xs: readonly T[], n: number): T[] {
  const copy = xs.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

// ---------------------------------------------------------------------------------------------------
// Catalogue and stories (fictional, written for this demo)
// ---------------------------------------------------------------------------------------------------

interface Category {
  slug: string;
  name: string;
  blurb: string;
}
const CATEGORIES: readonly Category[] = [
  { slug: 'tents', name: 'Tents & shelters', blurb: 'Shelters for wind, rain and the odd surprise snowfall.' },
  { slug: 'backpacks', name: 'Backpacks', blurb: 'Packs from day trips to a fortnight between resupplies.' },
  { slug: 'footwear', name: 'Footwear', blurb: 'Boots and trail shoes we have walked through several soles.' },
  { slug: 'clothing', name: 'Clothing', blurb: 'Layers that breathe on the climb and keep the wind out on top.' },
  { slug: 'cooking', name: 'Camp kitchen', blurb: 'Stoves, pots and the small things that make dinner happen.' },
];

interface Product {
  slug: string;
  name: string;
  category: string;
  price: number;
  weight: string;
  material: string;
  extra: [string, string];
  features: readonly string[];
}
const PRODUCTS: readonly Product[] = [
  { slug: 'ridgeline-2-tent', name: 'Ridgeline 2 Tent', category: 'tents', price: 389, weight: '1.48 kg', material: '20D ripstop nylon, silicone coated', extra: ['Sleeps', '2'], features: ['Two doors and two vestibules', 'Pitches fly-first in the rain', 'Colour-coded pole clips'] },
  { slug: 'bivvy-lite-shelter', name: 'Bivvy Lite Shelter', category: 'tents', price: 219, weight: '620 g', material: 'Breathable three-layer laminate', extra: ['Sleeps', '1'], features: ['Single hoop over the head', 'Full-length side zip', 'Packs smaller than a water bottle'] },
  { slug: 'basecamp-4-dome', name: 'Basecamp 4 Dome', category: 'tents', price: 549, weight: '4.1 kg', material: '68D polyester, taped seams', extra: ['Sleeps', '4'], features: ['Stands up to storm-force gusts', 'Large porch for wet boots', 'Six guy-out points'] },
  { slug: 'cairn-45-backpack', name: 'Cairn 45 Backpack', category: 'backpacks', price: 179, weight: '1.2 kg', material: 'Recycled 210D nylon', extra: ['Volume', '45 litres'], features: ['Adjustable back length', 'Hip-belt pockets that fit a phone', 'Stretch front pocket'] },
  { slug: 'summit-day-pack-22', name: 'Summit Day Pack 22', category: 'backpacks', price: 89, weight: '540 g', material: 'Ripstop nylon with a PU coating', extra: ['Volume', '22 litres'], features: ['Hydration sleeve', 'Ice-axe loop', 'Rolls into its own lid'] },
  { slug: 'long-haul-65', name: 'Long Haul 65', category: 'backpacks', price: 259, weight: '2.05 kg', material: 'Dyneema-reinforced nylon', extra: ['Volume', '65 litres'], features: ['Load lifters and a stiff frame sheet', 'Sleeping-bag compartment', 'Removable lid becomes a bum bag'] },
  { slug: 'scree-runner-trail-shoe', name: 'Scree Runner Trail Shoe', category: 'footwear', price: 139, weight: '310 g per shoe', material: 'Mesh upper, rubber toe cap', extra: ['Drop', '6 mm'], features: ['5 mm lugs for loose ground', 'Rock plate under the forefoot', 'Drains fast after river crossings'] },
  { slug: 'highland-leather-boot', name: 'Highland Leather Boot', category: 'footwear', price: 229, weight: '780 g per boot', material: 'Full-grain leather, waterproof lining', extra: ['Drop', '12 mm'], features: ['Resoleable welted construction', 'Stiff enough for light crampons', 'Padded scree collar'] },
  { slug: 'stormfront-shell-jacket', name: 'Stormfront Shell Jacket', category: 'clothing', price: 299, weight: '395 g', material: 'Three-layer waterproof membrane', extra: ['Fit', 'Regular, room for a fleece'], features: ['Helmet-compatible hood', 'Pit zips for the climb', 'Two chest pockets above the hip belt'] },
  { slug: 'thermal-grid-fleece', name: 'Thermal Grid Fleece', category: 'clothing', price: 95, weight: '290 g', material: 'Grid-back polyester fleece', extra: ['Fit', 'Slim'], features: ['Thumb loops', 'Half-length zip', 'Dries overnight in a tent'] },
  { slug: 'merino-base-layer', name: 'Merino Base Layer', category: 'clothing', price: 75, weight: '180 g', material: '200 g/m² merino wool', extra: ['Fit', 'Close'], features: ['Flatlock seams', 'Stays fresh for days', 'Long cut at the back'] },
  { slug: 'ember-canister-stove', name: 'Ember Canister Stove', category: 'cooking', price: 59, weight: '88 g', material: 'Titanium and aluminium', extra: ['Boil time', '3 min 40 s per litre'], features: ['Piezo igniter', 'Folding pot supports', 'Fine simmer control'] },
  { slug: 'trail-cook-set', name: 'Trail Cook Set', category: 'cooking', price: 69, weight: '340 g', material: 'Hard-anodised aluminium', extra: ['Capacity', '1.3 litres'], features: ['Pot, pan and two mugs nest together', 'Stove and gas fit inside', 'Lid with strainer holes'] },
  { slug: 'folding-spork-kit', name: 'Folding Spork Kit', category: 'cooking', price: 19, weight: '24 g', material: 'Glass-filled nylon', extra: ['Pieces', '3'], features: ['Reaches the bottom of a food pouch', 'Clips to a shoulder strap', 'Dishwasher safe'] },
];

interface Article {
  slug: string;
  title: string;
  author: string;
  tags: readonly string[];
  lead: string;
}
const AUTHORS = ['Maren Okafor', 'Tomasz Reyes', 'Ines Halvorsen', 'Callum Achebe', 'Priya Lindqvist'];
const ARTICLES: readonly Article[] = [
  { slug: 'first-night-in-the-ridgeline', title: 'A first night in the Ridgeline', author: AUTHORS[0]!, tags: ['tents'], lead: 'We took our new two-person tent up to a windy col to see what it does when the forecast is wrong.' },
  { slug: 'packing-light-for-a-week', title: 'Packing light for a week on the coast path', author: AUTHORS[1]!, tags: ['backpacks', 'clothing'], lead: 'Seven days, one 45-litre pack and a strict rule: nothing goes in that was not used last time.' },
  { slug: 'breaking-in-leather-boots', title: 'Breaking in leather boots without breaking your feet', author: AUTHORS[2]!, tags: ['footwear'], lead: 'Leather boots reward patience. Here is the slow, unglamorous routine that works for us.' },
  { slug: 'layering-for-shoulder-season', title: 'Layering for shoulder season', author: AUTHORS[3]!, tags: ['clothing'], lead: 'Spring and autumn hills can give you four seasons before lunch. A simple layering system keeps up.' },
  { slug: 'one-pot-dinners', title: 'Five one-pot dinners that survive a long day', author: AUTHORS[4]!, tags: ['cooking'], lead: 'When the light goes and the wind picks up, dinner should take one pot, one burner and ten minutes.' },
  { slug: 'trail-shoes-or-boots', title: 'Trail shoes or boots? What a season of testing told us', author: AUTHORS[0]!, tags: ['footwear'], lead: 'We split the team in two for a whole season and compared notes on blisters, ankles and river crossings.' },
  { slug: 'choosing-a-backpack-that-fits', title: 'Choosing a backpack that actually fits', author: AUTHORS[1]!, tags: ['backpacks'], lead: 'Back length matters more than volume. We explain how to measure it and what to look for in the shop.' },
  { slug: 'storm-pitching-practice', title: 'Storm pitching: practise it in the garden first', author: AUTHORS[2]!, tags: ['tents'], lead: 'The worst time to learn how your tent goes up is at dusk in horizontal rain. The best time is a dry Sunday.' },
  { slug: 'cold-mornings-hot-coffee', title: 'Cold mornings, hot coffee: stoves below freezing', author: AUTHORS[3]!, tags: ['cooking'], lead: 'Canister stoves sulk in the cold. A few habits bring them back to life on frosty mornings.' },
  { slug: 'repairing-gear-in-the-field', title: 'Repairing gear in the field', author: AUTHORS[4]!, tags: ['tents', 'clothing', 'backpacks'], lead: 'A small repair kit and ten minutes of care can save a trip. These are the fixes we have actually needed.' },
];

interface Guide {
  slug: string;
  title: string;
  region: string;
  distance: string;
  ascent: string;
  days: number;
  difficulty: string;
}
const GUIDES: readonly Guide[] = [
  { slug: 'heron-ridge-traverse', title: 'Heron Ridge Traverse', region: 'North Uplands', distance: '42 km', ascent: '2,310 m', days: 3, difficulty: 'Demanding' },
  { slug: 'saltmarsh-coast-loop', title: 'Saltmarsh Coast Loop', region: 'East Shore', distance: '27 km', ascent: '380 m', days: 2, difficulty: 'Easy' },
  { slug: 'three-lochs-circuit', title: 'Three Lochs Circuit', region: 'Western Glens', distance: '35 km', ascent: '1,240 m', days: 2, difficulty: 'Moderate' },
  { slug: 'old-drovers-road', title: 'The Old Drovers Road', region: 'Border Hills', distance: '64 km', ascent: '1,900 m', days: 4, difficulty: 'Moderate' },
];

// ---------------------------------------------------------------------------------------------------
// Prose: sentence patterns filled from small word lists
// ---------------------------------------------------------------------------------------------------

const WORDS = {
  place: ['the ridge', 'the upper valley', 'the coast path', 'a sheltered hollow', 'the bothy', 'the summit plateau', 'the forestry track', 'the loch shore', 'the col', 'the boggy moorland'],
  weather: ['steady drizzle', 'a cold north-westerly', 'low cloud', 'bright, cold sunshine', 'sleet showers', 'a sticky heat', 'fog that never quite lifted', 'gusts of fifty miles an hour'],
  activity: ['walking', 'scrambling', 'wild camping', 'fast packing', 'ridge walking', 'long-distance hiking'],
  feeling: ['comfortable', 'surprisingly warm', 'dry', 'a little damp but happy', 'tired in the good way', 'glad of every gram we had left at home'],
  who: ['our tester', 'the team', 'one of us', 'a friend who guides in the hills', 'our resident sceptic', 'everyone in the group'],
  month: ['March', 'April', 'May', 'September', 'October', 'November'],
  thing: ['the zips', 'the seams', 'the buckles', 'the hip belt', 'the hood', 'the lining', 'the laces', 'the pole sleeves'],
  verdict: ['held up', 'kept working', 'never gave us trouble', 'needed a little care', 'stayed reliable', 'did exactly what it should'],
  advice: ['check the forecast twice', 'carry one more layer than you think', 'pitch before you are tired', 'keep your matches in two places', 'eat before you are hungry', 'turn back while turning back is easy'],
};

const SENTENCES: readonly string[] = [
  'We spent {n} days {activity} around {place}, mostly in {weather}.',
  'By the end of the first day {who} felt {feeling}.',
  'In {month} the ground up there is rarely dry, so we chose accordingly.',
  'After {n} nights out, {thing} {verdict}.',
  'It is easy to forget how much {weather} changes a plan; {who} said so more than once.',
  'The rule we keep coming back to is simple: {advice}.',
  'On the descent from {place} the difference was obvious.',
  'None of this is new, but it is worth repeating: {advice}.',
  'We reached {place} just before dark and were {feeling}.',
  'The next morning brought {weather}, and {thing} {verdict}.',
  'Weight matters less than people think when the kit you carry is the kit you use.',
  'A good day in the hills is mostly made of small decisions taken early.',
  'If you only remember one thing from this piece, {advice}.',
  '{who} used it for {n} weeks in {month}; the short version of the report is that it {verdict}.',
  'The path climbs steadily from {place}, then levels out where the old wall ends.',
  'We stopped for lunch out of the wind, and {who} brewed tea in under five minutes.',
  'Water was easy to find below {place}, less so higher up, so we filled every bottle at the last stream.',
  'Nobody enjoys packing a wet tent, but it happens more often than the brochures suggest.',
  'It rained for most of the afternoon, which told us more about {thing} than any lab test could.',
  'Looking back, we would have started an hour earlier and walked an hour less.',
  'Small details decide whether a piece of kit is pleasant or merely adequate: {thing} is one of them.',
  'The forecast promised {weather}; what we got was worse, and {who} was {feeling} anyway.',
  'We met a shepherd near {place} who had seen every kind of walker, and most kinds of mistake.',
  'On day {n} the wind dropped and the whole valley went quiet.',
  'A map and compass still earn their place in the pack, whatever the phone says.',
  'Our advice for {month}: {advice}.',
  'Comfort in camp starts with a flat pitch, a dry pair of socks and something warm to drink.',
  'Everything that went wrong was fixed with tape, patience or a second cup of tea.',
  'Some of the team prefer to travel light and fast; others like a proper dinner; both are right.',
  'The last mile back to the car park always feels twice as long as the first.',
  'There is no perfect piece of equipment, only a good fit for the trip you have in mind.',
  'We kept notes every evening, by head torch, in a notebook that is now rather stained.',
  'Most problems we saw came from rushing, not from the gear itself.',
  'By {month} the light fades early, so the last hour of walking always feels longer.',
];

function fill(pattern: string): string {
  return pattern.replace(/\{(\w+)\}/g, (_m, slot: string) => {
    if (slot === 'n') return String(int(2, 9));
    const list = (WORDS as Record<string, readonly string[]>)[slot];
    return list ? pick(list) : slot;
  });
}
function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
function paragraph(minSentences: number, maxSentences: number): string {
  const n = int(minSentences, maxSentences);
  return sample(SENTENCES, n).map((s) => capitalize(fill(s))).join(' ');
}

// ---------------------------------------------------------------------------------------------------
// HTML helpers and the shared layout
// ---------------------------------------------------------------------------------------------------

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
/** A relative href from page `from` to page `to` (both site-root paths like `shop/index.html`). */
function rel(from: string, to: string): string {
  const r = posix.relative(posix.dirname(from), to);
  return r === '' ? posix.basename(to) : r;
}
function money(n: number): string {
  return `£${n.toFixed(2)}`;
}
function stars(n: number): string {
  return '★'.repeat(n) + '☆'.repeat(5 - n);
}

type Section = 'home' | 'shop' | 'journal' | 'guides' | 'about' | 'none';
const MENU: readonly { section: Section; label: string; path: string }[] = [
  { section: 'home', label: 'Home', path: 'index.html' },
  { section: 'shop', label: 'Shop', path: 'shop/index.html' },
  { section: 'journal', label: 'Journal', path: 'journal/index.html' },
  { section: 'guides', label: 'Trail guides', path: 'guides/index.html' },
  { section: 'about', label: 'About us', path: 'about.html' },
];

const ADS: readonly { title: string; text: string; cta: string; target: string }[] = [
  { title: 'Autumn sale', text: 'Up to 30% off last season’s shells and fleeces while stocks last.', cta: 'Shop clothing', target: 'tags/clothing.html' },
  { title: 'Free repairs', text: 'Bring any pack bought here for a free strap or buckle repair.', cta: 'How it works', target: 'shipping.html' },
  { title: 'New: Basecamp 4', text: 'Our roomiest dome yet, built for storms and family weekends.', cta: 'See the tent', target: 'shop/basecamp-4-dome.html' },
  { title: 'Guided weekends', text: 'Walk the Heron Ridge with one of our staff. Small groups, big views.', cta: 'Read the guide', target: 'guides/heron-ridge-traverse.html' },
];

interface PageSpec {
  path: string;
  title: string;
  section: Section;
  kind: string;
  description: string;
  crumbs: readonly { label: string; path?: string }[];
  main: string;
}

function layout(p: PageSpec): string {
  const r = (to: string): string => rel(p.path, to);
  const menu = MENU.map(
    (m) => `      <li${m.section === p.section ? ' class="active"' : ''}><a href="${r(m.path)}">${m.label}</a></li>`,
  ).join('\n');
  const cats = CATEGORIES.map((c) => `        <li><a href="${r(`tags/${c.slug}.html`)}">${esc(c.name)}</a></li>`).join('\n');
  const ad = pick(ADS);
  const crumbs =
    p.crumbs.length === 0
      ? ''
      : `<nav class="breadcrumbs" aria-label="Breadcrumb">
  <ol>
${p.crumbs.map((c) => (c.path ? `    <li><a href="${r(c.path)}">${esc(c.label)}</a></li>` : `    <li aria-current="page">${esc(c.label)}</li>`)).join('\n')}
  </ol>
</nav>
`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.title)} · ${SITE_NAME}</title>
<meta name="description" content="${esc(p.description)}">
<link rel="stylesheet" href="${r('css/site.css')}">
<script>document.documentElement.className = 'js';</script>
</head>
<body>
<header class="site-header">
  <a class="logo" href="${r('index.html')}"><img src="${r('img/logo.svg')}" alt="" width="36" height="36"> ${SITE_NAME}</a>
  <form class="search" role="search" action="${r('index.html')}" method="get">
    <label for="q" class="visually-hidden">Search</label>
    <input id="q" type="search" name="q" placeholder="Search gear and stories">
    <button type="submit">Search</button>
  </form>
  <nav class="main-nav" aria-label="Main">
    <ul>
${menu}
    </ul>
  </nav>
</header>
${crumbs}<div class="layout">
<main id="content" class="page-${p.kind}">
${p.main}
</main>
<aside class="sidebar">
  <section class="categories">
    <h2>Shop by category</h2>
    <ul>
${cats}
    </ul>
  </section>
  <section class="ad" aria-label="Advertisement">
    <p class="ad-label">Advertisement</p>
    <h3>${esc(ad.title)}</h3>
    <p>${esc(ad.text)}</p>
    <a class="button" href="${r(ad.target)}">${esc(ad.cta)}</a>
  </section>
  <section class="newsletter">
    <h2>The Switchback Letter</h2>
    <p>One email a month: new routes, honest reviews, no spam.</p>
    <form action="${r('contact.html')}" method="post">
      <input type="email" name="email" placeholder="you@example.org" required>
      <button type="submit">Subscribe</button>
    </form>
  </section>
</aside>
</div>
<footer class="site-footer">
  <div class="footer-columns">
    <section>
      <h3>Help</h3>
      <ul>
        <li><a href="${r('shipping.html')}">Shipping &amp; returns</a></li>
        <li><a href="${r('contact.html')}">Contact us</a></li>
        <li><a href="${r('privacy.html')}">Privacy</a></li>
      </ul>
    </section>
    <section>
      <h3>Explore</h3>
      <ul>
        <li><a href="${r('shop/index.html')}">All gear</a></li>
        <li><a href="${r('journal/index.html')}">Journal</a></li>
        <li><a href="${r('guides/index.html')}">Trail guides</a></li>
      </ul>
    </section>
    <section>
      <h3>Follow</h3>
      <ul>
        <li><a href="https://social.example/switchback" rel="noopener">Social</a></li>
        <li><a href="https://video.example/@switchback" rel="noopener">Videos</a></li>
      </ul>
    </section>
  </div>
  <p class="copyright">© 2024 ${SITE_NAME} Co. A fictional shop made for the gabarit demo.</p>
</footer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------------
// Page classes
// ---------------------------------------------------------------------------------------------------

const categoryOf = (slug: string): Category => CATEGORIES.find((c) => c.slug === slug)!;
const productPath = (p: Product): string => `shop/${p.slug}.html`;
const articlePath = (a: Article): string => `journal/${a.slug}.html`;
const guidePath = (g: Guide): string => `guides/${g.slug}.html`;

/** Publication dates, newest first, fixed (no clock). */
const ARTICLE_DATES = ARTICLES.map((_a, i) => {
  const day = 28 - ((i * 9) % 27);
  const month = 10 - Math.floor(i / 2);
  return `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
});
function dateOf(a: Article): string {
  return ARTICLE_DATES[ARTICLES.indexOf(a)]!;
}
function humanDate(iso: string): string {
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${months[m! - 1]} ${y}`;
}

/** Product ratings and short blurbs, drawn once so that cards and detail pages agree. */
const PRODUCT_INFO = new Map(
  PRODUCTS.map((p) => [p.slug, { rating: int(3, 5), reviews: int(2, 48), blurb: capitalize(fill(pick(SENTENCES))) }] as const),
);

function productCard(from: string, p: Product): string {
  const info = PRODUCT_INFO.get(p.slug)!;
  return `<li class="product-card">
  <h3><a href="${rel(from, productPath(p))}">${esc(p.name)}</a></h3>
  <p class="category">${esc(categoryOf(p.category).name)}</p>
  <p class="price">${money(p.price)}</p>
  <p class="rating" title="${info.rating} out of 5">${stars(info.rating)} <span>(${info.reviews})</span></p>
</li>`;
}

function articleTeaser(from: string, a: Article): string {
  return `<article class="teaser">
  <h3><a href="${rel(from, articlePath(a))}">${esc(a.title)}</a></h3>
  <p class="meta">By ${esc(a.author)} · <time datetime="${dateOf(a)}">${humanDate(dateOf(a))}</time></p>
  <p>${esc(a.lead)}</p>
</article>`;
}

function pagination(base: string, page: number, pages: number): string {
  const href = (n: number): string => (n === 1 ? 'index.html' : `page-${n}.html`);
  const items: string[] = [];
  if (page > 1) items.push(`<li class="prev"><a href="${href(page - 1)}" rel="prev">« Previous</a></li>`);
  for (let n = 1; n <= pages; n++) {
    items.push(n === page ? `<li class="current"><span>${n}</span></li>` : `<li><a href="${href(n)}">${n}</a></li>`);
  }
  if (page < pages) items.push(`<li class="next"><a href="${href(page + 1)}" rel="next">Next »</a></li>`);
  return `<nav class="pagination" aria-label="${esc(base)} pages">
<ul>
${items.join('\n')}
</ul>
</nav>`;
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

function homePage(): PageSpec {
  const path = 'index.html';
  const featured = sample(PRODUCTS, 4);
  const latest = ARTICLES.slice(0, 3);
  return {
    path,
    title: 'Outdoor gear and stories from the hills',
    section: 'home',
    kind: 'home',
    description: 'Switchback Supply sells tested outdoor gear and publishes trail guides and field notes.',
    crumbs: [],
    main: `<section class="hero">
  <h1>Gear for the long way round</h1>
  <p>${esc(paragraph(2, 3))}</p>
  <a class="button" href="${rel(path, 'shop/index.html')}">Browse the shop</a>
</section>
<section class="featured">
  <h2>New in the shop</h2>
  <ul class="product-grid">
${featured.map((p) => productCard(path, p)).join('\n')}
  </ul>
</section>
<section class="latest">
  <h2>From the journal</h2>
${latest.map((a) => articleTeaser(path, a)).join('\n')}
</section>
<section class="guides-teaser">
  <h2>Trail guides</h2>
  <ul>
${GUIDES.slice(0, 2).map((g) => `    <li><a href="${rel(path, guidePath(g))}">${esc(g.title)}</a>: ${esc(g.distance)} in the ${esc(g.region)}</li>`).join('\n')}
  </ul>
</section>`,
  };
}

const SHOP_PAGE_SIZE = 6;
function shopListPages(): PageSpec[] {
  const pages = chunks(PRODUCTS, SHOP_PAGE_SIZE);
  return pages.map((items, i) => {
    const n = i + 1;
    const path = n === 1 ? 'shop/index.html' : `shop/page-${n}.html`;
    return {
      path,
      title: n === 1 ? 'Shop all gear' : `Shop all gear, page ${n}`,
      section: 'shop',
      kind: 'product-list',
      description: `Tested outdoor gear, page ${n} of ${pages.length}.`,
      crumbs: [{ label: 'Home', path: 'index.html' }, { label: n === 1 ? 'Shop' : `Shop (page ${n})` }],
      main: `<h1>All gear</h1>
<p class="intro">${esc(n === 1 ? 'Everything we sell has been carried, pitched, worn or cooked with by our staff before it reached this page.' : `Page ${n} of our gear, sorted by category.`)}</p>
<p class="count">${PRODUCTS.length} products · page ${n} of ${pages.length}</p>
<ul class="product-grid">
${items.map((p) => productCard(path, p)).join('\n')}
</ul>
${pagination('Shop', n, pages.length)}`,
    };
  });
}

function productPage(p: Product): PageSpec {
  const path = productPath(p);
  const info = PRODUCT_INFO.get(p.slug)!;
  const cat = categoryOf(p.category);
  const sameCat = PRODUCTS.filter((q) => q.category === p.category && q !== p);
  const others = PRODUCTS.filter((q) => q.category !== p.category);
  const related = [...sameCat, ...sample(others, 3)].slice(0, 3);
  const stories = ARTICLES.filter((a) => a.tags.includes(p.category)).slice(0, 2);
  const reviews = Array.from({ length: int(1, 3) }, () => ({
    name: pick(['Ailsa', 'Ben', 'Chidi', 'Dora', 'Emil', 'Fern', 'Gus', 'Hana', 'Ivo', 'Jude']),
    stars: int(3, 5),
    text: paragraph(1, 3),
  }));
  const descParas = Array.from({ length: int(1, 3) }, () => `<p>${esc(paragraph(2, 5))}</p>`).join('\n');
  return {
    path,
    title: p.name,
    section: 'shop',
    kind: 'product',
    description: `${p.name}: ${p.features[0]}.`,
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: 'Shop', path: 'shop/index.html' }, { label: cat.name, path: `tags/${cat.slug}.html` }, { label: p.name }],
    main: `<article class="product" itemscope itemtype="https://schema.org/Product">
  <h1 itemprop="name">${esc(p.name)}</h1>
  <p class="price" itemprop="price">${money(p.price)}</p>
  <p class="rating" title="${info.rating} out of 5">${stars(info.rating)} <a href="#reviews">${info.reviews} reviews</a></p>
  <p class="sku">Item ${p.slug.toUpperCase().replace(/-/g, '').slice(0, 8)}</p>
  <div class="description" itemprop="description">
${descParas}
  </div>
  <h2>Features</h2>
  <ul class="features">
${p.features.map((f) => `    <li>${esc(f)}</li>`).join('\n')}
  </ul>
  <h2>Specifications</h2>
  <table class="specs">
    <tr><th>Weight</th><td>${esc(p.weight)}</td></tr>
    <tr><th>Material</th><td>${esc(p.material)}</td></tr>
    <tr><th>${esc(p.extra[0])}</th><td>${esc(p.extra[1])}</td></tr>
    <tr><th>Category</th><td><a href="${rel(path, `tags/${cat.slug}.html`)}">${esc(cat.name)}</a></td></tr>
  </table>
  <form class="add-to-cart" action="${rel(path, 'shipping.html')}" method="post">
    <input type="hidden" name="item" value="${p.slug}">
    <button type="submit">Add to basket</button>
  </form>
  <section id="reviews" class="reviews">
    <h2>Customer reviews</h2>
${reviews.map((r) => `    <blockquote class="review"><p class="stars">${stars(r.stars)}</p><p>${esc(r.text)}</p><footer>${r.name}</footer></blockquote>`).join('\n')}
  </section>
</article>
<section class="related">
  <h2>You may also like</h2>
  <ul class="product-grid">
${related.map((q) => productCard(path, q)).join('\n')}
  </ul>
</section>
${stories.length === 0 ? '' : `<section class="stories">
  <h2>Read about it</h2>
  <ul>
${stories.map((a) => `    <li><a href="${rel(path, articlePath(a))}">${esc(a.title)}</a></li>`).join('\n')}
  </ul>
</section>`}`,
  };
}

const JOURNAL_PAGE_SIZE = 6;
function journalListPages(): PageSpec[] {
  const pages = chunks(ARTICLES, JOURNAL_PAGE_SIZE);
  return pages.map((items, i) => {
    const n = i + 1;
    const path = n === 1 ? 'journal/index.html' : `journal/page-${n}.html`;
    return {
      path,
      title: n === 1 ? 'Journal' : `Journal, page ${n}`,
      section: 'journal',
      kind: 'article-list',
      description: 'Field notes, gear tests and advice from the Switchback team.',
      crumbs: [{ label: 'Home', path: 'index.html' }, { label: n === 1 ? 'Journal' : `Journal (page ${n})` }],
      main: `<h1>Journal</h1>
<p class="intro">Field notes, gear tests and advice from people who spend too many weekends in a tent.</p>
<div class="teasers">
${items.map((a) => articleTeaser(path, a)).join('\n')}
</div>
${pagination('Journal', n, pages.length)}`,
    };
  });
}

function articlePage(a: Article): PageSpec {
  const path = articlePath(a);
  const products = PRODUCTS.filter((p) => a.tags.includes(p.category)).slice(0, 3);
  const more = ARTICLES.filter((b) => b !== a && b.tags.some((t) => a.tags.includes(t))).slice(0, 2);
  const sections = int(2, 4);
  const headings = sample(['Getting there', 'What we carried', 'The first day', 'When the weather turned', 'What worked', 'What we would change', 'Our advice', 'The verdict'], sections);
  const body = headings
    .map((h) => {
      const paras = Array.from({ length: int(1, 3) }, () => `<p>${esc(paragraph(3, 6))}</p>`).join('\n');
      return `<h2>${esc(h)}</h2>\n${paras}`;
    })
    .join('\n');
  const checklist = rand() < 0.5 ? '' : `<h2>Checklist</h2>\n<ul class="checklist">\n${sample(WORDS.advice, 3).map((x) => `  <li>${esc(capitalize(x))}</li>`).join('\n')}\n</ul>\n`;
  return {
    path,
    title: a.title,
    section: 'journal',
    kind: 'article',
    description: a.lead,
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: 'Journal', path: 'journal/index.html' }, { label: a.title }],
    main: `<article class="story">
  <h1>${esc(a.title)}</h1>
  <p class="meta">By <span class="author">${esc(a.author)}</span> · <time datetime="${dateOf(a)}">${humanDate(dateOf(a))}</time></p>
  <p class="tags">Filed under ${a.tags.map((t) => `<a href="${rel(path, `tags/${t}.html`)}">${esc(categoryOf(t).name)}</a>`).join(', ')}</p>
  <p class="lead">${esc(a.lead)}</p>
${body}
${checklist}</article>
<section class="gear-mentioned">
  <h2>Gear in this story</h2>
  <ul class="product-grid">
${products.map((p) => productCard(path, p)).join('\n')}
  </ul>
</section>
${more.length === 0 ? '' : `<section class="more-stories">
  <h2>More stories</h2>
${more.map((b) => articleTeaser(path, b)).join('\n')}
</section>`}`,
  };
}

function guidesIndex(): PageSpec {
  const path = 'guides/index.html';
  return {
    path,
    title: 'Trail guides',
    section: 'guides',
    kind: 'guide-list',
    description: 'Multi-day routes walked and written up by our staff.',
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: 'Trail guides' }],
    main: `<h1>Trail guides</h1>
<p class="intro">${esc(paragraph(2, 3))}</p>
<table class="routes">
  <thead><tr><th>Route</th><th>Region</th><th>Distance</th><th>Days</th><th>Difficulty</th></tr></thead>
  <tbody>
${GUIDES.map((g) => `    <tr><td><a href="${rel(path, guidePath(g))}">${esc(g.title)}</a></td><td>${esc(g.region)}</td><td>${esc(g.distance)}</td><td>${g.days}</td><td>${esc(g.difficulty)}</td></tr>`).join('\n')}
  </tbody>
</table>`,
  };
}

function guidePage(g: Guide): PageSpec {
  const path = guidePath(g);
  const kit = sample(PRODUCTS, 3);
  const stages = Array.from({ length: g.days }, (_x, i) => `<h3>Day ${i + 1}</h3>\n<p>${esc(paragraph(3, 5))}</p>`).join('\n');
  return {
    path,
    title: g.title,
    section: 'guides',
    kind: 'guide',
    description: `${g.title}: ${g.distance} over ${g.days} days in the ${g.region}.`,
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: 'Trail guides', path: 'guides/index.html' }, { label: g.title }],
    main: `<article class="guide">
  <h1>${esc(g.title)}</h1>
  <dl class="route-facts">
    <dt>Region</dt><dd>${esc(g.region)}</dd>
    <dt>Distance</dt><dd>${esc(g.distance)}</dd>
    <dt>Total ascent</dt><dd>${esc(g.ascent)}</dd>
    <dt>Days</dt><dd>${g.days}</dd>
    <dt>Difficulty</dt><dd>${esc(g.difficulty)}</dd>
  </dl>
  <p class="lead">${esc(paragraph(2, 3))}</p>
  <h2>The route, day by day</h2>
${stages}
  <h2>What to pack</h2>
  <ul class="kit">
${kit.map((p) => `    <li><a href="${rel(path, productPath(p))}">${esc(p.name)}</a></li>`).join('\n')}
  </ul>
</article>`,
  };
}

function categoryPage(c: Category): PageSpec {
  const path = `tags/${c.slug}.html`;
  const products = PRODUCTS.filter((p) => p.category === c.slug);
  const stories = ARTICLES.filter((a) => a.tags.includes(c.slug));
  return {
    path,
    title: c.name,
    section: 'shop',
    kind: 'category',
    description: c.blurb,
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: 'Shop', path: 'shop/index.html' }, { label: c.name }],
    main: `<h1>${esc(c.name)}</h1>
<p class="intro">${esc(c.blurb)}</p>
<h2>${products.length} products</h2>
<ul class="product-grid">
${products.map((p) => productCard(path, p)).join('\n')}
</ul>
<h2>Stories about ${esc(c.name.toLowerCase())}</h2>
<ul class="story-list">
${stories.map((a) => `  <li><a href="${rel(path, articlePath(a))}">${esc(a.title)}</a></li>`).join('\n')}
</ul>`,
  };
}

function staticPage(path: string, title: string, section: Section, paras: number): PageSpec {
  const body = Array.from({ length: paras }, () => `<p>${esc(paragraph(2, 5))}</p>`).join('\n');
  return {
    path,
    title,
    section,
    kind: 'static',
    description: `${title} at ${SITE_NAME}.`,
    crumbs: [{ label: 'Home', path: 'index.html' }, { label: title }],
    main: `<h1>${esc(title)}</h1>\n${body}`,
  };
}

function aboutPage(): PageSpec {
  const p = staticPage('about.html', 'About us', 'about', 3);
  return {
    ...p,
    main: `<h1>About us</h1>
<p class="lead">${SITE_NAME} started as a repair bench in the back of a bike shop. We still fix more gear than we sell.</p>
${Array.from({ length: 3 }, () => `<p>${esc(paragraph(3, 5))}</p>`).join('\n')}
<h2>The team</h2>
<ul class="team">
${AUTHORS.map((a) => `  <li>${esc(a)}</li>`).join('\n')}
</ul>`,
  };
}

function contactPage(): PageSpec {
  const p = staticPage('contact.html', 'Contact us', 'none', 1);
  return {
    ...p,
    main: `<h1>Contact us</h1>
<p>Questions about an order, a route or a repair? Write to us and a person will answer, usually within two working days.</p>
<address>${SITE_NAME} Co.<br>4 Mill Lane<br>Fellside</address>
<form class="contact" method="post" action="contact.html">
  <label>Name <input name="name"></label>
  <label>Email <input type="email" name="email"></label>
  <label>Message <textarea name="message" rows="5"></textarea></label>
  <button type="submit">Send</button>
</form>`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Static assets
// ---------------------------------------------------------------------------------------------------

const CSS = `/* Switchback Supply: demo stylesheet (generated by examples/generate.ts). */
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2a24; background: #f6f4ef; }
a { color: #24613f; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .75rem 1.5rem; background: #1f3a2c; color: #fff; }
.site-header a { color: #fff; }
.logo { display: flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 1.2rem; text-decoration: none; }
.main-nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.main-nav .active a { text-decoration: underline; }
.search { margin-left: auto; order: 3; }
.breadcrumbs ol { display: flex; gap: .5rem; list-style: none; margin: 0; padding: .5rem 1.5rem; font-size: .9rem; }
.breadcrumbs li + li::before { content: "›"; margin-right: .5rem; }
.layout { display: grid; grid-template-columns: 1fr 260px; gap: 2rem; padding: 1rem 1.5rem; max-width: 1100px; margin: auto; }
.sidebar section { background: #fff; padding: 1rem; margin-bottom: 1rem; border-radius: 6px; }
.ad { border: 2px dashed #c9a24a; }
.ad-label { font-size: .7rem; text-transform: uppercase; color: #8a7a55; margin: 0; }
.product-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 1rem; list-style: none; padding: 0; }
.product-card { background: #fff; padding: .75rem; border-radius: 6px; }
.price { font-weight: 700; }
.pagination ul { display: flex; gap: .5rem; list-style: none; padding: 0; }
.specs th { text-align: left; padding-right: 1rem; }
.site-footer { background: #1f3a2c; color: #dfe8e2; padding: 1.5rem; }
.site-footer a { color: #dfe8e2; }
.footer-columns { display: flex; gap: 3rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
[data-gabarit="template"] { outline: 2px solid rgba(200, 60, 60, .5); opacity: .55; }
`;

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36" width="36" height="36">
<rect width="36" height="36" rx="6" fill="#e9b949"/>
<path d="M4 28 L13 14 L18 21 L23 12 L32 28 Z" fill="#1f3a2c"/>
</svg>
`;

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const specs: PageSpec[] = [
    homePage(),
    ...shopListPages(),
    ...PRODUCTS.map(productPage),
    ...journalListPages(),
    ...ARTICLES.map(articlePage),
    guidesIndex(),
    ...GUIDES.map(guidePage),
    ...CATEGORIES.map(categoryPage),
    aboutPage(),
    contactPage(),
    staticPage('shipping.html', 'Shipping & returns', 'none', 3),
    staticPage('privacy.html', 'Privacy', 'none', 2),
  ];
  await rm(SITE_DIR, { recursive: true, force: true });
  const files = new Map<string, string>([
    ['css/site.css', CSS],
    ['img/logo.svg', LOGO],
  ]);
  for (const s of specs) files.set(s.path, layout(s));
  for (const [path, text] of files) {
    const file = join(SITE_DIR, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  process.stdout.write(`wrote ${specs.length} pages (+${files.size - specs.length} assets) to ${SITE_DIR}\n`);
}

await main();
