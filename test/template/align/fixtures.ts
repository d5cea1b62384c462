/** Small hand-written pages of one made-up site (a header menu, an article, a footer) for the align tests. */

const HEADER = `<header class="top"><a href="/">Home</a><nav><ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li><li><a href="/c">Gamma</a></li></ul></nav></header>`;
const FOOTER = `<footer id="foot"><p>Copyright Example Ltd</p><a href="/legal">Legal notice</a></footer>`;

/** The article bodies: distinct words per page so that content never repeats across pages. */
const BODIES = [
  `<h1>Otters</h1><p>Otters hold hands while sleeping.</p><p>They live near rivers.</p>`,
  `<h1>Volcanoes</h1><p>Magma rises through the crust.</p>`,
  `<h1>Bread</h1><p>Flour water salt yeast.</p><p>Knead then wait.</p><p>Bake hot.</p>`,
  `<h1>Comets</h1><p>Icy bodies with bright tails.</p><ul><li>Halley</li><li>Hale Bopp</li></ul>`,
  `<h1>Chess</h1><p>Sixty four squares.</p>`,
  `<h1>Tides</h1><p>The moon pulls the oceans.</p><p>Twice each day.</p>`,
  `<h1>Maple</h1><p>Sap boiled into syrup.</p>`,
  `<h1>Lighthouses</h1><p>Beacons guiding ships at night.</p><p>Keepers once lived inside.</p>`,
];

/** Page i of the fixture site: same header and footer, a different article. */
export function fixturePage(i: number): string {
  const body = BODIES[i % BODIES.length]!;
  return `<!DOCTYPE html><html><head><title>Page ${i}</title></head><body>${HEADER}<main class="content"><article>${body}</article></main>${FOOTER}</body></html>`;
}

/** The words that are article text on page i (the gold content of the fixture). */
export function fixtureArticle(i: number): string {
  return BODIES[i % BODIES.length]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

export const FIXTURE_PAGES = BODIES.length;
