/**
 * Evaluation of page metadata (src/content/metadata.ts) on single/readability: each page's `<name>.meta.json`
 * (Readability's own expected metadata: title, byline, lang, siteName, publishedTime, excerpt) against ours
 * (title, author, language, siteName, published, description) and against Readability and Defuddle run on the
 * same pages (eval/peers.ts, jsdom, cached).
 * Scoring, per field: the pages whose gold file has the field (a gold null is "the page has none"); a page
 * counts as right when both sides have no value, or both have one and they are equal after white space is
 * collapsed and trimmed; dates are equal when they are the same instant (both read by isoDate, a time
 * without an offset and a date alone read as UTC). Accuracy = right / scored. Also per field: of the pages
 * whose gold has a value, how many each method has right; of the pages a method gives a value for, how
 * many are right (a value where the gold has none counts wrong: the gold is what Readability finds, so a
 * date or a byline it does not read counts against the others).
 * Every method is given the address the gold was made with (http://fakehost/test/page.html).
 * Run: `npx tsx eval/metadata.eval.ts` (or `npm run eval -- metadata`); writes eval/results/metadata.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractMainContent } from '../src/content/extract.ts';
import { isoDate, pageMetadata, type PageMetadata } from '../src/content/metadata.ts';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import { fmt, formatTable, REPO_ROOT, runEval, writeResults } from './harness.ts';
import { cacheStats, DEFUDDLE, peerMetadata, READABILITY, type PeerMetadata } from './peers.ts';

const URL_GIVEN = 'http://fakehost/test/page.html';

/** The scored fields (the gold's names) and ours for each. */
const FIELDS = { title: 'title', byline: 'author', lang: 'language', siteName: 'siteName', publishedTime: 'published', excerpt: 'description' } as const satisfies Record<keyof PeerMetadata, keyof PageMetadata>;
type Field = keyof typeof FIELDS;
const METHODS = ['gabarit', 'readability', 'defuddle'] as const;
type Method = (typeof METHODS)[number];

/** A value as compared: white space collapsed and trimmed, null for none. */
function norm(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  const t = s.replace(/[\s\u00a0]+/g, ' ').trim();
  return t === '' ? null : t;
}

/** The instant of a date (ms), a date or time without an offset read as UTC; NaN when it cannot be read. */
function instant(s: string): number {
  const iso = isoDate(s);
  if (iso === undefined) return NaN;
  const withTime = iso.includes('T') ? iso : `${iso}T00:00`;
  return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(withTime) ? withTime : `${withTime}Z`);
}

/** True when a method's value is right for the gold's (see the module comment). */
export function sameValue(field: Field, gold: string | null | undefined, got: string | null | undefined): boolean {
  const g = norm(gold);
  const v = norm(got);
  if (g === null || v === null) return g === v;
  if (g === v) return true;
  if (field !== 'publishedTime') return false;
  const a = instant(g);
  return !Number.isNaN(a) && a === instant(v);
}

interface Tally {
  scored: number;
  right: number;
  given: number;
  givenRight: number;
  /** Pages whose gold has a value, and of them those the method has right. */
  goldHas: number;
  goldHasRight: number;
}

await runEval('metadata', async () => {
  const dir = join(CORPUS_DIR, 'single', 'readability');
  const names = readdirSync(dir).filter((f) => f.endsWith('.meta.json')).map((f) => f.slice(0, -'.meta.json'.length)).sort();
  const tally = new Map<string, Tally>();
  const at = (m: Method, f: Field): Tally => {
    const k = `${m} ${f}`;
    let t = tally.get(k);
    if (!t) tally.set(k, (t = { scored: 0, right: 0, given: 0, givenRight: 0, goldHas: 0, goldHasRight: 0 }));
    return t;
  };
  const origins = new Map<string, number>();
  const pages: Array<Record<string, unknown>> = [];
  let warnings = 0;
  for (const name of names) {
    const gold = JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as Partial<Record<Field, string | null>>;
    const bytes = readFileSync(join(dir, `${name}.html`));
    const tree = parseHtml(decodeHtml(bytes).text);
    const headline = extractMainContent(tree).headline;
    const { metadata, warnings: w } = pageMetadata(tree, { url: URL_GIVEN, ...(headline !== '' ? { headline } : {}) });
    warnings += w.length;
    const values: Record<Method, Partial<Record<Field, string | null>>> = {
      gabarit: Object.fromEntries(Object.entries(FIELDS).map(([g, o]) => [g, metadata[o]?.value ?? null])),
      readability: await peerMetadata(READABILITY, bytes, URL_GIVEN),
      defuddle: await peerMetadata(DEFUDDLE, bytes, URL_GIVEN),
    };
    const row: Record<string, unknown> = { page: name };
    for (const f of Object.keys(FIELDS) as Field[]) {
      if (!(f in gold)) continue;
      const right: Record<string, boolean> = {};
      for (const m of METHODS) {
        const t = at(m, f);
        const ok = sameValue(f, gold[f], values[m][f]);
        t.scored++;
        if (ok) t.right++;
        if (norm(gold[f]) !== null) {
          t.goldHas++;
          if (ok) t.goldHasRight++;
        }
        if (norm(values[m][f]) !== null) {
          t.given++;
          if (ok) t.givenRight++;
        }
        right[m] = ok;
      }
      const from = metadata[FIELDS[f]]?.from;
      if (from) origins.set(`${f} ${from}`, (origins.get(`${f} ${from}`) ?? 0) + 1);
      row[f] = { gold: gold[f] ?? null, gabarit: values.gabarit[f] ?? null, from: from ?? null, right };
    }
    pages.push(row);
  }

  const acc = (m: Method, f: Field): number => at(m, f).right / at(m, f).scored;
  const rows = (Object.keys(FIELDS) as Field[]).map((f) => [
    f,
    FIELDS[f],
    String(at('gabarit', f).scored),
    ...METHODS.map((m) => fmt(acc(m, f))),
    ...METHODS.map((m) => `${at(m, f).goldHasRight}/${at(m, f).goldHas}`),
    ...METHODS.map((m) => `${at(m, f).givenRight}/${at(m, f).given}`),
  ]);
  process.stdout.write(
    `metadata on single/readability (${names.length} pages): accuracy per field (exact after white space; dates: same instant)\n` +
      formatTable(['gold field', 'ours', 'pages', 'gabarit', 'Readability', 'Defuddle', 'gold has one: gabarit', 'Readability', 'Defuddle', 'given: gabarit right', 'Readability', 'Defuddle'], rows) +
      '\n\n' +
      `where our values came from (pages scored):\n${formatTable(['field origin', 'pages'], [...origins].sort().map(([k, n]) => [k, String(n)]))}\n` +
      `malformed JSON-LD blocks named: ${warnings}\npeer cache: ${cacheStats.hits} hits, ${cacheStats.misses} misses (eval/.cache/peers)\n`,
  );
  const headline: Record<string, number> = {};
  for (const f of Object.keys(FIELDS) as Field[]) for (const m of METHODS) headline[`${f} accuracy ${m}`] = acc(m, f);
  const fields = Object.fromEntries((Object.keys(FIELDS) as Field[]).map((f) => [f, { ours: FIELDS[f], ...Object.fromEntries(METHODS.map((m) => [m, { ...at(m, f), accuracy: acc(m, f) }])) }]));
  const path = writeResults('metadata', headline, { url: URL_GIVEN, pages: names.length, fields, origins: Object.fromEntries([...origins].sort()), jsonLdWarnings: warnings, perPage: pages });
  process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
});
