/**
 * A page's metadata from its own markup, each field with where it came from: title, author, published and
 * modified dates (ISO 8601), language, site name, description, canonical URL and main image. Sources are
 * read in the order a careful extractor trusts them, the first that has a field giving it:
 *  1. JSON-LD (`<script type="application/ld+json">`: an object, an array, `@graph`, `mainEntity`), the
 *     page's main object first (an article, else a web page, else any other typed object);
 *  2. OpenGraph `<meta property>` (`og:*`, `article:*`);
 *  3. other `<meta name>`: author, description, Dublin Core (`dc.*`, `dcterms.*`), Parse.ly, Sailthru,
 *     citation and date names; then Twitter cards (`twitter:*`), which repeat the others, often shortened;
 *  4. microdata (`itemprop`), outside comments, reviews and offers;
 *  5. the document itself: `<html lang>`, `<title>`, `<link rel=canonical>`, `<link rel=image_src>`;
 *  6. what is printed next to the headline: a byline (`rel=author`, a class or id naming the author or
 *     byline, a line opening with "By …") and a date (`<time datetime>`, a `<time>` or a date-named element
 *     whose text is a date with its year).
 * A field no source has is absent: nothing is guessed. A date that cannot be read (no year, a relative date,
 * an unknown form) is left out; one read keeps only what was written (a date without a time stays a date,
 * a time without an offset has none). Dates are read by chrono-node (strict mode: no "today", no "3 days
 * ago"), in the page's language when chrono knows it. A JSON-LD block that is not JSON is skipped and named
 * in `warnings`.
 */
import * as chrono from 'chrono-node';
import { decodeHTML } from 'entities';
import { textOf } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { pageTitle } from './format.ts';

/** Where a field's value was read. */
export type MetadataOrigin = 'json-ld' | 'opengraph' | 'twitter' | 'meta' | 'microdata' | 'html' | 'byline' | 'time';

/** One field: its value and where it was read. */
export interface MetadataField {
  value: string;
  from: MetadataOrigin;
}

/** The fields found on a page (a field the page does not give is absent). */
export interface PageMetadata {
  title?: MetadataField;
  author?: MetadataField;
  /** ISO 8601: `YYYY-MM-DD`, or with the time as written, and its offset when the source gives one. */
  published?: MetadataField;
  modified?: MetadataField;
  language?: MetadataField;
  siteName?: MetadataField;
  description?: MetadataField;
  canonical?: MetadataField;
  image?: MetadataField;
}

export const METADATA_FIELDS = ['title', 'author', 'published', 'modified', 'language', 'siteName', 'description', 'canonical', 'image'] as const;

/** Options of pageMetadata. */
export interface MetadataOptions {
  /**
   * The main content's headline: the visible byline and date are looked for next to it (without it, next to
   * the page's one `<h1>`; not at all when it has several or none).
   */
  headline?: string;
  /** The page's address, against which relative canonical and image URLs are resolved. */
  url?: string;
}

/** Visible characters before and after the headline within which a byline or a date is looked for. */
const NEAR_BEFORE = 300;
const NEAR_AFTER = 800;
/** Longest visible byline (characters) taken for a name. */
const BYLINE_MAX = 100;

/** Collapses white space and trims. */
function clean(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The types of a JSON-LD object (`@type`, string or array), without a schema.org prefix. */
function typesOf(o: JsonObject): string[] {
  const t = o['@type'];
  const ts = Array.isArray(t) ? t : [t];
  return ts.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^https?:\/\/schema\.org\//, ''));
}

const ARTICLE_TYPE = /Article$|^(BlogPosting|SocialMediaPosting|LiveBlogPosting|Report|Review|Recipe|HowTo|Thesis|Book|Chapter|CreativeWork|DiscussionForumPosting|Posting)$/;
const PAGE_TYPE = /Page$|^(VideoObject|AudioObject|Product|Event|Course)$/;

/** Every typed object of a JSON-LD value: arrays, `@graph` and `mainEntity` unwrapped (a few levels deep). */
function jsonLdObjects(v: Json, out: JsonObject[], depth = 0): void {
  if (depth > 3) return;
  if (Array.isArray(v)) for (const x of v) jsonLdObjects(x, out, depth + 1);
  else if (isObject(v)) {
    if (v['@type'] !== undefined) out.push(v);
    if (v['@graph'] !== undefined) jsonLdObjects(v['@graph'], out, depth + 1);
    // A web page whose main entity is the article ({"@type": "WebPage", "mainEntity": {"@type": "Article"…}}).
    if (isObject(v['mainEntity']) || Array.isArray(v['mainEntity'])) jsonLdObjects(v['mainEntity'], out, depth + 1);
  }
}

/** The text of a JSON-LD value: a string, the first string of an array, or an object's `name`. */
function jsonText(v: Json | undefined, key = 'name'): string | undefined {
  if (typeof v === 'string') {
    const s = clean(decodeHTML(v));
    return s === '' ? undefined : s;
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      const s = jsonText(x, key);
      if (s !== undefined) return s;
    }
    return undefined;
  }
  return isObject(v) ? jsonText(v[key], key) : undefined;
}

/** The names of a JSON-LD author value (a string, a person or organisation, or an array of them), joined. */
function jsonAuthors(v: Json | undefined): string | undefined {
  const names = (Array.isArray(v) ? v : [v]).map((x) => jsonText(x)).filter((s): s is string => s !== undefined && !/^https?:\/\//.test(s));
  return names.length > 0 ? [...new Set(names)].join(', ') : undefined;
}

/** A URL of a JSON-LD value: a string, an object's `url` (an ImageObject) or `@id`, the first of an array. */
function jsonUrl(v: Json | undefined): string | undefined {
  if (isObject(v)) return jsonText(v['url'], 'url') ?? jsonText(v['@id'], '@id');
  return jsonText(v, 'url');
}

/** The JSON-LD blocks of a page, parsed: the typed objects, the main one first; malformed blocks named. */
function readJsonLd(tree: Tree, warnings: string[]): JsonObject[] {
  const objects: JsonObject[] = [];
  let n = 0;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element || tree.tag(i) !== 'script') continue;
    if ((tree.attr(i, 'type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    n++;
    let text = '';
    for (let j = i + 1; j < tree.end[i]!; j++) text += tree.nodeText(j);
    // Some pages wrap the JSON in an HTML comment or a CDATA section.
    text = text.trim().replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '').replace(/(?:-->|\/\/\s*\]\]>|\]\]>)$/, '').trim();
    if (text === '') continue;
    try {
      jsonLdObjects(JSON.parse(text) as Json, objects);
    } catch (e) {
      warnings.push(`JSON-LD block ${n} is not JSON (${e instanceof Error ? e.message : String(e)}): left out`);
    }
  }
  const rank = (o: JsonObject): number => {
    const ts = typesOf(o);
    return ts.some((t) => ARTICLE_TYPE.test(t)) ? 0 : ts.some((t) => PAGE_TYPE.test(t)) ? 1 : ts.some((t) => /^(WebSite|Organization|BreadcrumbList|Person|ImageObject|SiteNavigationElement)$/.test(t)) ? 3 : 2;
  };
  return objects.map((o, k) => [o, rank(o), k] as const).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(([o]) => o);
}

/**
 * `<meta>` values by normalised key (lowercase, `dc.x` as `dc:x`), first wins, except that a `property`
 * (RDFa, as OpenGraph defines its names) wins over a `name` or `http-equiv` of the same key. Character
 * references left in a value (written twice escaped) are decoded.
 */
function readMeta(tree: Tree): Map<string, string> {
  const out = new Map<string, string>();
  const byProperty = new Set<string>();
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element || tree.tag(i) !== 'meta') continue;
    let content = clean(tree.attr(i, 'content') ?? '');
    if (content === '') continue;
    if (/&(?:#\d+|#x[\da-f]+|[a-z]+\d*);/i.test(content)) content = clean(decodeHTML(content));
    for (const attr of ['property', 'name', 'http-equiv']) {
      // A property attribute may hold several names (RDFa: "og:title dc:title").
      for (const raw of (tree.attr(i, attr) ?? '').split(/\s+/)) {
        if (raw === '') continue;
        const key = raw.toLowerCase().replace(/^(dc|dcterms?)\./, '$1:').replace(/^dcterm:/, 'dcterms:');
        if (out.has(key) && (byProperty.has(key) || attr !== 'property')) continue;
        out.set(key, content);
        if (attr === 'property') byProperty.add(key);
      }
    }
  }
  return out;
}

/** Item types whose properties are not the page's (a comment's author is not the page's author). */
const FOREIGN_ITEM = /(Comment|Review|Rating|Offer|Answer|Question|Person|Organization)$/;

/** The value of a microdata property element: its content / datetime / href / src attribute, else its text. */
function itemValue(tree: Tree, i: number, url: boolean): string {
  const attr = tree.attr(i, 'content') ?? tree.attr(i, 'datetime') ?? (url ? (tree.attr(i, 'href') ?? tree.attr(i, 'src')) : undefined);
  return clean(attr ?? textOf(tree, i));
}

/** The first page-level element with itemprop `name` (nearest item scope not a comment, review…), or -1. */
function itemprop(tree: Tree, name: string): number {
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const p = tree.attr(i, 'itemprop');
    if (p === undefined || !p.split(/\s+/).includes(name)) continue;
    let scope = tree.parent[i]!;
    while (scope > 0 && tree.attr(scope, 'itemscope') === undefined) scope = tree.parent[scope]!;
    if (scope > 0 && FOREIGN_ITEM.test(tree.attr(scope, 'itemtype') ?? '')) continue;
    return i;
  }
  return -1;
}

/** A microdata author: the item's `name` property when it is an item, else its text. */
function itemAuthor(tree: Tree): string | undefined {
  const author = itemprop(tree, 'author');
  const i = author >= 0 ? author : itemprop(tree, 'creator');
  if (i < 0) return undefined;
  if (tree.attr(i, 'itemscope') !== undefined) {
    for (let j = i + 1; j < tree.end[i]!; j++) {
      const p = tree.attr(j, 'itemprop');
      if (tree.kind[j] === NodeKind.Element && p !== undefined && p.split(/\s+/).includes('name')) return nonEmpty(itemValue(tree, j, false));
    }
  }
  return nonEmpty(itemValue(tree, i, false));
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === '' ? undefined : s;
}

/** chrono's parser for a language tag (strict: absolute dates only), English when chrono lacks the language. */
function chronoFor(lang: string | undefined): chrono.Chrono {
  const code = (lang ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  const locales = chrono as unknown as Record<string, { strict?: chrono.Chrono } | undefined>;
  return (code !== 'en' && locales[code]?.strict) || chrono.strict;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/**
 * A date as ISO 8601, from text holding it (`whole`: the text must be the date, a machine-readable value;
 * else the first date in running text that has its year written). Undefined when there is none.
 */
export function isoDate(text: string, lang?: string, whole = true): string | undefined {
  const s = clean(text);
  if (s === '' || !/\d/.test(s)) return undefined;
  const parser = whole ? chrono.strict : chronoFor(lang);
  for (const r of parser.parse(s, new Date(0))) {
    if (whole && r.index !== 0) return undefined;
    // A year written in full: no relative date ("2 days ago") and no date of the year implied.
    if (!/\d{4}/.test(r.text)) {
      if (whole) return undefined;
      continue;
    }
    const c = r.start;
    if (!c.isCertain('year') || !c.isCertain('month') || !c.isCertain('day')) continue;
    let out = `${pad(c.get('year')!, 4)}-${pad(c.get('month')!)}-${pad(c.get('day')!)}`;
    if (c.isCertain('hour')) {
      out += `T${pad(c.get('hour')!)}:${pad(c.get('minute') ?? 0)}`;
      if (c.isCertain('second')) out += `:${pad(c.get('second')!)}`;
      if (c.isCertain('millisecond') && c.get('millisecond')! > 0) out += `.${pad(c.get('millisecond')!, 3)}`;
      if (c.isCertain('timezoneOffset')) {
        const off = c.get('timezoneOffset')!;
        out += off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
      }
    }
    return out;
  }
  return undefined;
}

/** A URL resolved against the page's `<base href>` and address when it can be, else as written. */
function resolveUrl(tree: Tree, href: string, pageUrl: string | undefined): string {
  const b = tree.find('base');
  const base = b >= 0 ? tree.attr(b, 'href') : undefined;
  try {
    return new URL(href, base !== undefined ? new URL(base, pageUrl) : pageUrl).href;
  } catch {
    return href;
  }
}

/** The first element that is `tag` with a `rel` holding `rel`, or -1. */
function linkRel(tree: Tree, tag: string, rel: string): number {
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] === NodeKind.Element && tree.tag(i) === tag && (tree.attr(i, 'rel') ?? '').toLowerCase().split(/\s+/).includes(rel)) return i;
  }
  return -1;
}

const HEADING = /^h[1-6]$/;

/** Elements never read for a byline or date: not page text, or the site's navigation. */
const NOT_NEAR = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'nav', 'footer', 'select', 'form', 'button']);

/**
 * The elements next to the headline, in document order (within NEAR_BEFORE visible characters before it
 * and NEAR_AFTER after it, and not into another item: see `starts`): the heading whose text is `headline`, else the body's one `<h1>`. None when
 * the page has neither (no headline, or several `<h1>`).
 */
function nearHeadline(tree: Tree, headline: string | undefined): number[] {
  const want = clean(headline ?? '');
  const body = tree.body();
  let anchor = -1;
  const h1s: number[] = [];
  for (let i = body; i < tree.end[body]! && anchor < 0; i++) {
    if (tree.kind[i] !== NodeKind.Element || !/^h[1-6]$/.test(tree.tag(i))) continue;
    if (tree.tag(i) === 'h1') h1s.push(i);
    if (want !== '' && clean(textOf(tree, i)) === want) anchor = i;
  }
  for (let i = body; i < tree.end[body]! && anchor < 0 && want !== ''; i++) {
    if (tree.kind[i] === NodeKind.Element && tree.end[i]! - i <= 64 && clean(textOf(tree, i)) === want) anchor = i;
  }
  if (anchor < 0 && h1s.length === 1) {
    for (let i = h1s[0]! + 1; i < tree.end[body]!; i++) if (tree.kind[i] === NodeKind.Element && tree.tag(i) === 'h1') return [];
    anchor = h1s[0]!;
  }
  if (anchor < 0) return [];
  const visible = (i: number): number => (tree.kind[i] === NodeKind.Text ? clean(tree.nodeText(i)).length : 0);
  const hidden = (i: number): boolean => {
    for (let a = i; a > body; a = tree.parent[a]!) if (NOT_NEAR.has(tree.tag(a))) return true;
    return false;
  };
  // Another item (a teaser on a home page) starts with an <article>, a heading that links elsewhere, or a
  // heading of the headline's rank or higher: the neighbourhood stops there (a deck in an <h2> under an
  // <h1> does not stop it).
  const rank = (i: number): number => Number(tree.tag(i).slice(1));
  const starts = (i: number): boolean => {
    if (tree.kind[i] !== NodeKind.Element) return false;
    if (tree.tag(i) === 'article') return !tree.contains(i, anchor);
    if (!HEADING.test(tree.tag(i))) return false;
    if (rank(i) <= rank(anchor) || !HEADING.test(tree.tag(anchor))) return true;
    for (let j = i + 1; j < tree.end[i]!; j++) if (tree.tag(j) === 'a') return true;
    return false;
  };
  const heading = (i: number): boolean => {
    for (let a = i; a > body; a = tree.parent[a]!) if (starts(a)) return true;
    return false;
  };
  let start = anchor;
  for (let seen = 0, i = anchor - 1; i > body && seen <= NEAR_BEFORE; i--) {
    if (hidden(i)) continue;
    if (heading(i)) break;
    seen += visible(i);
    start = i;
  }
  let end = tree.end[anchor]!;
  for (let seen = 0, i = end; i < tree.end[body]! && seen <= NEAR_AFTER; i++) {
    if (starts(i)) break;
    if (hidden(i)) continue;
    seen += visible(i);
    end = i + 1;
  }
  const out: number[] = [];
  for (let i = start; i < end; i++) if (tree.kind[i] === NodeKind.Element && !(i >= anchor && i < tree.end[anchor]!) && !hidden(i)) out.push(i);
  return out;
}

const BYLINE_NAME = /(^|[\s_-])(by-?line|author|byl|writtenby|written-by|p-author|contributor|reporter)s?($|[\s_-])/i;
const BY_PREFIX = /^(?:(?:written|posted|published|reported|words|text|story|photos?)\s+)?(?:by|par|von|por|di|door|av|от|autor(?:in)?:?|author:?)\s+/i;
const NOT_NAME = /^(?:about|more|follow|view|see|all|posts?|articles?|share|bio|last|updated|published|posted|on)\b/i;

/** A byline's text as a name: its "By" removed, a date after it removed; undefined when it is no name. */
function bylineName(text: string, lang: string | undefined): string | undefined {
  let s = clean(text).replace(BY_PREFIX, '');
  const d = chronoFor(lang).parse(s, new Date(0))[0];
  if (d && d.index > 0) s = s.slice(0, d.index);
  s = s.replace(/[\s|,·•–—-]+(?:updated|published|posted|on)?[\s:]*$/i, '').replace(/^[\s|,·•–—:-]+/, '').trim();
  // A name has letters and no digits ("3 days ago", a comment count or a date chrono did not read is no name).
  if (s === '' || s.length > BYLINE_MAX || !/\p{L}/u.test(s) || /\d/.test(s) || NOT_NAME.test(s) || s.split(' ').length > 10) return undefined;
  return s;
}

/** The byline printed next to the headline: `rel=author`, an author- or byline-named element, a "By …" line. */
function visibleByline(tree: Tree, near: readonly number[], lang: string | undefined): string | undefined {
  const text = (i: number): string => clean(textOf(tree, i));
  for (const i of near) if (tree.tag(i) === 'a' && (tree.attr(i, 'rel') ?? '').toLowerCase().split(/\s+/).includes('author')) {
    const name = bylineName(text(i), lang);
    if (name) return name;
  }
  for (const i of near) {
    const names = `${tree.attr(i, 'class') ?? ''} ${tree.attr(i, 'id') ?? ''} ${tree.attr(i, 'itemprop') ?? ''}`;
    if (!BYLINE_NAME.test(names) || /(bio|avatar|image|photo|img|pic)/i.test(names)) continue;
    const t = text(i);
    if (t.length === 0 || t.length > BYLINE_MAX + 40) continue;
    const name = bylineName(t, lang);
    if (name) return name;
  }
  for (const i of near) {
    if (tree.kind[i + 1] !== NodeKind.Text && tree.end[i]! - i > 8) continue;
    const t = text(i);
    if (t.length < BYLINE_MAX + 40 && BY_PREFIX.test(t)) {
      const name = bylineName(t, lang);
      if (name) return name;
    }
  }
  return undefined;
}

const DATE_NAME = /(^|[\s_-])(date|dateline|published|pubdate|posted|timestamp|time)($|[\s_-])/i;

/**
 * The date printed next to the headline: a `<time>` (its datetime, else its text), else a date-named element
 * (its datetime, content or title attribute when that is a date, else its text).
 */
function visibleDate(tree: Tree, near: readonly number[], lang: string | undefined): string | undefined {
  for (const i of near) {
    // A date said to be an update is not the publication's.
    if (tree.tag(i) !== 'time' || /modif|update/i.test(`${tree.attr(i, 'itemprop') ?? ''} ${tree.attr(i, 'class') ?? ''} ${textOf(tree, i)}`)) continue;
    const dt = tree.attr(i, 'datetime');
    const d = dt !== undefined ? isoDate(dt) : isoDate(textOf(tree, i), lang, false);
    if (d) return d;
  }
  for (const i of near) {
    const names = `${tree.attr(i, 'class') ?? ''} ${tree.attr(i, 'id') ?? ''}`;
    if (!DATE_NAME.test(names) || /(update|modif)/i.test(names)) continue;
    const t = textOf(tree, i);
    if (t.length > 200) continue;
    // A machine-readable copy in an attribute (`<abbr class="published" title="2016-05-08T00:55:00-07:00">`) first.
    const attr = tree.attr(i, 'datetime') ?? tree.attr(i, 'content') ?? tree.attr(i, 'title');
    const d = (attr !== undefined ? isoDate(attr) : undefined) ?? isoDate(t, lang, false);
    if (d) return d;
  }
  return undefined;
}

/** Words of a title, lowercased. */
function words(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Of a JSON-LD headline and name, the one with more words of the document title (the headline on a tie). */
function nearerTitle(headline: string | undefined, name: string | undefined, docTitle: string): string | undefined {
  if (headline === undefined || name === undefined || headline === name) return headline ?? name;
  const t = new Set(words(docTitle));
  const share = (s: string): number => words(s).filter((w) => t.has(w)).length;
  return share(name) > share(headline) ? name : headline;
}

/** Separators between a document title's parts ("Story | Site", "Story – Site"). */
const TITLE_SEPARATOR = /\s+[|\-–—·»:/\\]\s+/;

/** The document title as the page's title: less its last part when that part is the site's name ("Story | Site"). */
function ownTitle(docTitle: string, siteName: string | undefined): string {
  let last: RegExpExecArray | null = null;
  for (let m: RegExpExecArray | null, re = new RegExp(TITLE_SEPARATOR.source, 'g'); (m = re.exec(docTitle)) !== null; ) last = m;
  const site = clean(siteName ?? '').toLowerCase();
  if (last === null || site === '' || docTitle.slice(last.index + last[0].length).toLowerCase() !== site) return docTitle;
  return docTitle.slice(0, last.index);
}

/** The page's metadata (see the module comment), with the warnings met (a JSON-LD block that is not JSON). */
export function pageMetadata(tree: Tree, options: MetadataOptions = {}): { metadata: PageMetadata; warnings: string[] } {
  const warnings: string[] = [];
  const ld = readJsonLd(tree, warnings);
  const meta = readMeta(tree);
  const out: PageMetadata = {};
  /** Sets `field` from the first of `tries` that gives a value. */
  const take = (field: keyof PageMetadata, tries: Array<[MetadataOrigin, () => string | undefined]>): void => {
    for (const [from, get] of tries) {
      const v = get();
      if (v !== undefined && v !== '') {
        out[field] = { value: v, from };
        return;
      }
    }
  };
  const ldFirst = (get: (o: JsonObject) => string | undefined): string | undefined => {
    for (const o of ld) {
      const v = get(o);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const main = ld[0];
  const m = (...keys: string[]): string | undefined => {
    for (const k of keys) if (meta.has(k)) return meta.get(k);
    return undefined;
  };
  const notUrl = (s: string | undefined): string | undefined => (s !== undefined && !/^https?:\/\/|^www\./.test(s) && !/^@/.test(s) ? s : undefined);
  /** An author value without the "By" a byline opens with. */
  const name = (s: string | undefined): string | undefined => nonEmpty(s?.replace(BY_PREFIX, '').trim());
  const item = (name: string, url = false): string | undefined => {
    const i = itemprop(tree, name);
    return i < 0 ? undefined : nonEmpty(itemValue(tree, i, url));
  };
  const dateOf = (s: string | undefined): string | undefined => (s === undefined ? undefined : isoDate(s));

  const html = tree.find('html');
  const htmlLang = html >= 0 ? clean(tree.attr(html, 'lang') ?? tree.attr(html, 'xml:lang') ?? '') : '';
  take('language', [
    ['html', () => nonEmpty(htmlLang)],
    ['meta', () => m('content-language', 'language', 'dc:language')?.split(/[,;]/)[0]?.trim()],
    ['json-ld', () => (main ? jsonText(main['inLanguage']) : undefined)],
  ]);
  const lang = out.language?.value;

  take('siteName', [
    ['json-ld', () => (main ? jsonText(main['publisher']) : undefined) ?? ldFirst((o) => (typesOf(o).includes('WebSite') ? jsonText(o['name']) : undefined))],
    ['opengraph', () => m('og:site_name')],
    ['meta', () => m('application-name', 'apple-mobile-web-app-title')],
  ]);
  const docTitle = pageTitle(tree);
  // The site's name first: the document title may end with it.
  const siteName = out.siteName?.value;
  take('title', [
    ['json-ld', () => (main && typesOf(main).some((t) => ARTICLE_TYPE.test(t) || PAGE_TYPE.test(t)) ? nearerTitle(jsonText(main['headline']), jsonText(main['name']), docTitle) : undefined)],
    ['opengraph', () => m('og:title')],
    ['meta', () => m('dc:title', 'dcterms:title', 'title', 'parsely-title', 'sailthru.title', 'citation_title')],
    ['twitter', () => m('twitter:title')],
    ['microdata', () => item('headline')],
    ['html', () => nonEmpty(ownTitle(docTitle, siteName))],
  ]);
  const near = nearHeadline(tree, options.headline);
  take('author', [
    ['json-ld', () => name(ldFirst((o) => jsonAuthors(o['author']) ?? jsonAuthors(o['creator'])))],
    ['opengraph', () => name(notUrl(m('article:author', 'og:article:author', 'book:author')))],
    ['meta', () => name(notUrl(m('author', 'dc:creator', 'dcterms:creator', 'parsely-author', 'sailthru.author', 'byl', 'citation_author', 'article.author')))],
    ['microdata', () => name(itemAuthor(tree))],
    ['byline', () => visibleByline(tree, near, lang)],
  ]);
  take('published', [
    ['json-ld', () => ldFirst((o) => dateOf(jsonText(o['datePublished'])) ?? dateOf(jsonText(o['dateCreated'])))],
    ['opengraph', () => dateOf(m('article:published_time', 'og:published_time', 'og:article:published_time'))],
    ['meta', () => dateOf(m('parsely-pub-date', 'dc:date.issued', 'dcterms:issued', 'dcterms:created', 'dc:date', 'dcterms:date', 'date', 'pubdate', 'publishdate', 'publish-date', 'sailthru.date', 'article.published', 'citation_publication_date', 'citation_date'))],
    ['microdata', () => dateOf(item('datePublished')) ?? dateOf(item('dateCreated'))],
    ['time', () => visibleDate(tree, near, lang)],
  ]);
  take('modified', [
    ['json-ld', () => ldFirst((o) => dateOf(jsonText(o['dateModified'])))],
    ['opengraph', () => dateOf(m('article:modified_time', 'og:updated_time', 'og:modified_time'))],
    ['meta', () => dateOf(m('dcterms:modified', 'dc:date.modified', 'last-modified', 'article.updated'))],
    ['microdata', () => dateOf(item('dateModified'))],
  ]);
  take('description', [
    ['json-ld', () => (main && typesOf(main).some((t) => ARTICLE_TYPE.test(t) || PAGE_TYPE.test(t)) ? jsonText(main['description']) : undefined)],
    ['opengraph', () => m('og:description')],
    ['meta', () => m('description', 'dc:description', 'dcterms:description', 'dcterms:abstract', 'sailthru.description')],
    ['twitter', () => m('twitter:description')],
    ['microdata', () => item('description')],
  ]);
  const url = (s: string | undefined): string | undefined => (s === undefined || s.trim() === '' ? undefined : resolveUrl(tree, s.trim(), options.url));
  const canonical = linkRel(tree, 'link', 'canonical');
  take('canonical', [
    ['html', () => url(canonical >= 0 ? tree.attr(canonical, 'href') : undefined)],
    ['opengraph', () => url(m('og:url'))],
    ['json-ld', () => url(main ? (jsonUrl(main['mainEntityOfPage']) ?? jsonText(main['url'], 'url')) : undefined)],
  ]);
  const imageSrc = linkRel(tree, 'link', 'image_src');
  take('image', [
    ['json-ld', () => url(main ? jsonUrl(main['image']) ?? jsonUrl(main['thumbnailUrl']) : undefined)],
    ['opengraph', () => url(m('og:image:secure_url', 'og:image', 'og:image:url'))],
    ['twitter', () => url(m('twitter:image', 'twitter:image:src'))],
    ['microdata', () => url(item('image', true))],
    ['html', () => url(imageSrc >= 0 ? tree.attr(imageSrc, 'href') : undefined)],
  ]);
  return { metadata: out, warnings };
}
