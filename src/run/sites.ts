/**
 * Pages grouped by site before anything is learned across pages (a template is a site's; a directory may
 * hold pages of many sites: a mixed crawl, or single pages saved from anywhere). Sources of one site by
 * construction (a crawl over HTTP stays on its site; a WARC archive of one site has one root) are one
 * group. For a directory, an archive of several sites (or pages in memory), each page's site is:
 *  1. its own URL's host when it is an http(s) URL, else the host of the URL the page declares for itself:
 *     `<link rel="canonical">`, `<meta property="og:url">`, or `<base href>` (a leading `www.` ignored);
 *  2. for a page declaring none, the site of the pages it resembles: pages under one folder with no URL
 *     are one site when they share a template, which is checked — their "template evidence" (class and id
 *     names, short text snippets such as menu entries and footer lines) is compared, pairs at or above
 *     `RUN_DEFAULTS.siteSimilarity` (`resemblance`: the share of the smaller page's evidence found in the
 *     other) are linked, and each connected set of linked pages is a site;
 *     such a set joins a host's group when it resembles pages of that host only. A page that resembles no
 *     other page is a site of its own (one page: the best single-page answer, the main block alone).
 * How the threshold was measured is in docs/library.md. Above `RUN_DEFAULTS.siteCheckMaxPages` pages
 * without a URL, the check is skipped (pairs are quadratic) and those pages are one site.
 */
import { SITES_ROOT } from '../site/keys.ts';
import { pageText, type Page, type PageResult, type PageSource } from '../site/page.ts';
import { UnionFind } from '../structure/union-find.ts';
import { RUN_DEFAULTS } from './defaults.ts';

/** One site of a source: the keys of its pages (in source order). */
export interface SiteGroup {
  /** The host, or a name for pages without one (`<folder>` or `<folder>#2`). */
  site: string;
  /** How the pages were found to be one site. */
  by: 'host' | 'similar' | 'alone';
  keys: string[];
}

/**
 * The host a URL names (lowercase, a leading `www.` dropped), or undefined for a non-http(s) URL and for a
 * reserved `.invalid` host (pages in memory, directories read as if served: no real site).
 */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    const host = u.hostname.toLowerCase();
    if (host === 'invalid' || host.endsWith('.invalid')) return undefined;
    return host.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

const HEAD_TAG = /<(link|meta|base)\b[^>]*>/gi;
const ATTR = /([a-z:_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** The URL a page declares for itself (canonical, og:url, base href), or undefined. */
export function declaredUrl(html: string): string | undefined {
  const head = html.slice(0, RUN_DEFAULTS.headBytes);
  for (const m of head.matchAll(HEAD_TAG)) {
    const attrs = new Map<string, string>();
    for (const a of m[0].matchAll(ATTR)) attrs.set(a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '');
    const tag = m[1]!.toLowerCase();
    const href = tag === 'meta' ? attrs.get('content') : attrs.get('href');
    if (!href) continue;
    const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const prop = (attrs.get('property') ?? attrs.get('name') ?? '').toLowerCase();
    if ((tag === 'link' && rel.includes('canonical')) || (tag === 'meta' && prop === 'og:url') || tag === 'base') {
      if (hostOf(href) !== undefined) return href;
    }
  }
  return undefined;
}

const SKIPPED = /<(script|style)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const NAMES = /\s(?:class|id)\s*=\s*["']([^"']*)["']/gi;
const TEXTS = />([^<]+)</g;

/** FNV-1a of a string, as a 32-bit integer. */
function hash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h;
}

/**
 * A page's template evidence: hashes of its class and id names and of its short text snippets
 * (collapsed, lowercased, 2 to `snippetChars` characters), sorted and unique.
 */
export function templateEvidence(html: string): Int32Array {
  const text = html.replace(SKIPPED, ' ');
  const out = new Set<number>();
  for (const m of text.matchAll(NAMES)) for (const c of m[1]!.split(/\s+/)) if (c) out.add(hash('c:' + c.toLowerCase()));
  for (const m of text.matchAll(TEXTS)) {
    const s = m[1]!.replace(/\s+/g, ' ').trim().toLowerCase();
    if (s.length >= 2 && s.length <= RUN_DEFAULTS.snippetChars) out.add(hash('t:' + s));
  }
  return Int32Array.from(out).sort();
}

/** How two pages' template evidence is compared (the eval sweeps these; the defaults are RUN_DEFAULTS'). */
export interface Resemblance {
  /** Pages at or above this resemblance are linked. */
  threshold: number;
  /** The smaller set counts as at least this many items (a page with little evidence links to nothing). */
  floor: number;
  /** Another measure in place of `resemblance` (the eval compares with Jaccard, and caches). */
  measure?: (a: Int32Array, b: Int32Array, floor: number) => number;
}

export const SITE_RESEMBLANCE: Resemblance = { threshold: RUN_DEFAULTS.siteSimilarity, floor: RUN_DEFAULTS.siteEvidenceFloor };

/** Items two sorted sets of integers share. */
export function shared(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      both++;
      i++;
      j++;
    }
  }
  return both;
}

/**
 * The resemblance of two pages' evidence: the share of the smaller set found in the other (overlap
 * coefficient), the smaller counted as at least `floor` items. Not Jaccard: a long page (a chapter, a
 * long article) has many snippets of its own, so its Jaccard with a short page of the same template is
 * low although the short page's evidence is nearly all in it.
 */
export function resemblance(a: Int32Array, b: Int32Array, floor: number = RUN_DEFAULTS.siteEvidenceFloor): number {
  return overlapOf(shared(a, b), a.length, b.length, floor);
}

/** The overlap coefficient of two sets of sizes `m` and `n` sharing `both` items, the smaller counted as at least `floor`. */
export function overlapOf(both: number, m: number, n: number, floor: number): number {
  return both === 0 ? 0 : both / Math.max(floor, Math.min(m, n));
}

/** The Jaccard index of two sets of sizes `m` and `n` sharing `both` items (the measure used before `resemblance`). */
export function jaccardOf(both: number, m: number, n: number): number {
  return both === 0 ? 0 : both / (m + n - both);
}

function similar(a: Int32Array, b: Int32Array, r: Resemblance): boolean {
  return (r.measure ?? resemblance)(a, b, r.floor) >= r.threshold;
}

/** What grouping needs of a page. */
interface Seen {
  key: string;
  host: string | undefined;
  evidence: Int32Array | null;
}

/** A page's site identity and evidence (the evidence only when it has no host and `evidence` is asked). */
export function siteOf(page: Page, evidence = true): { host: string | undefined; evidence: Int32Array | null } {
  let host = hostOf(page.url);
  if (host !== undefined) return { host, evidence: null };
  const html = pageText(page).text;
  const declared = declaredUrl(html);
  host = declared === undefined ? undefined : hostOf(declared);
  return { host, evidence: host === undefined && evidence ? templateEvidence(html) : null };
}

/**
 * Groups pages by site (see the module comment). `pages` are the source's pages (key, host, and evidence
 * for those without a host) in source order; `folder` names the groups of pages without a host.
 */
export function groupPages(pages: readonly Seen[], folder: string, r: Resemblance = SITE_RESEMBLANCE): SiteGroup[] {
  const byHost = new Map<string, number[]>();
  const anon: number[] = [];
  pages.forEach((p, i) => {
    if (p.host === undefined) anon.push(i);
    else {
      const list = byHost.get(p.host);
      if (list) list.push(i);
      else byHost.set(p.host, [i]);
    }
  });
  const groups: SiteGroup[] = [];
  const hostGroups = new Map<string, SiteGroup>();
  for (const [host, idx] of byHost) {
    const g: SiteGroup = { site: host, by: 'host', keys: idx.map((i) => pages[i]!.key) };
    hostGroups.set(host, g);
    groups.push(g);
  }
  if (anon.length === 0) return groups;
  if (anon.length > RUN_DEFAULTS.siteCheckMaxPages) {
    groups.push({ site: folder, by: 'similar', keys: anon.map((i) => pages[i]!.key) });
    return groups;
  }
  // Pages without a host: linked when they resemble each other; each linked set is one site.
  const uf = new UnionFind(anon.length);
  for (let a = 0; a < anon.length; a++) {
    for (let b = a + 1; b < anon.length; b++) {
      if (uf.find(a) === uf.find(b)) continue;
      if (similar(pages[anon[a]!]!.evidence!, pages[anon[b]!]!.evidence!, r)) uf.union(a, b);
    }
  }
  const sets = new Map<number, number[]>();
  anon.forEach((i, a) => {
    const r = uf.find(a);
    const s = sets.get(r);
    if (s) s.push(i);
    else sets.set(r, [i]);
  });
  let n = 0;
  for (const members of sets.values()) {
    const host = resemblingHost(members, pages, byHost, r);
    if (host !== undefined) {
      hostGroups.get(host)!.keys.push(...members.map((i) => pages[i]!.key));
      continue;
    }
    n++;
    groups.push({ site: n === 1 ? folder : `${folder}#${n}`, by: members.length > 1 ? 'similar' : 'alone', keys: members.map((i) => pages[i]!.key) });
  }
  return groups;
}

/** The one host whose pages (the first few, with their evidence computed) a set of pages resembles. */
function resemblingHost(members: readonly number[], pages: readonly Seen[], byHost: ReadonlyMap<string, number[]>, r: Resemblance): string | undefined {
  if (byHost.size === 0) return undefined;
  const hosts = new Set<string>();
  for (const [host, idx] of byHost) {
    const sample = idx.slice(0, RUN_DEFAULTS.siteHostSample);
    if (members.some((m) => sample.some((h) => pages[h]!.evidence !== null && similar(pages[m]!.evidence!, pages[h]!.evidence!, r)))) hosts.add(host);
  }
  return hosts.size === 1 ? [...hosts][0] : undefined;
}

/**
 * The keys of a source's pages grouped by site, or null when the source is one site by construction (HTTP,
 * a WARC archive of one site; an archive of several is grouped by its pages' hosts). Pages that cannot be
 * read are handed to `onFailed` (they belong to no group).
 */
export async function groupSource(source: PageSource, onFailed: (failed: Extract<PageResult, { ok: false }>) => void, resemble: Resemblance = SITE_RESEMBLANCE): Promise<SiteGroup[] | null> {
  if (source.kind === 'http' || (source.kind === 'warc' && source.root !== SITES_ROOT)) return null;
  const seen: Seen[] = [];
  const hostEvidence = new Map<string, number>();
  // Past `siteCheckMaxPages` pages without a URL, they are one site unchecked: their evidence is dropped.
  let anon = 0;
  for await (const r of source.pages()) {
    if (!r.ok) {
      onFailed(r);
      continue;
    }
    const s = siteOf(r.page, anon <= RUN_DEFAULTS.siteCheckMaxPages);
    if (s.host === undefined && ++anon === RUN_DEFAULTS.siteCheckMaxPages + 1) for (const p of seen) if (p.host === undefined) p.evidence = null;
    // A few pages of each host keep their evidence, to place pages without a host (resemblingHost).
    if (s.host !== undefined) {
      const n = hostEvidence.get(s.host) ?? 0;
      if (n < RUN_DEFAULTS.siteHostSample) {
        hostEvidence.set(s.host, n + 1);
        s.evidence = templateEvidence(pageText(r.page).text);
      }
    }
    seen.push({ key: r.page.key, ...s });
  }
  return groupPages(seen, source.root, resemble);
}
