/**
 * The hyperlink template engine: paper 2, Alarte, Insa, Silva, Tamarit, "Web Template Extraction Based on
 * Hyperlink Analysis". From a key page:
 *  1. its usable links (same site by `source.keyOf`, unique, no self-link), ordered menu-first
 *     (link-order.ts);
 *  2. Algorithm 1 (complete-subdigraph.ts): pages loaded one at a time through `source.get` until an
 *     n-CS of mutually linked pages exists, else the biggest m-CS; when m < 2, the key page's siblings
 *     (sibling-pages.ts) complete the set, and the run says so;
 *  3. Algorithm 2 / Definition 3.3 (template-extraction.ts): the key page's nodes that an equal top-down
 *     mapping (equal-top-down-mapping.ts, with node equality ≜ from node-equality.ts) pairs in every page
 *     of the set; CS pages of a clearly different template are set aside with a warning; plus navigation
 *     regions (navigation-regions.ts);
 *  4. every page of the source is marked with the same mapping (page-marks.ts) and handed to `onPage`.
 * Bad input never yields a template from the key page alone: no usable link, no page loaded, or no page
 * sharing the key page's root raise an EngineError with a code; weaker fallbacks are warnings.
 */
import { EngineError, PageError } from '../../errors.ts';
import type { Tree } from '../../html/tree.ts';
import { extractLinks } from '../../site/links.ts';
import { type Page, type PageSource, parsePage } from '../../site/page.ts';
import type { EngineContext, EngineOption, EngineRun, TemplateEngine } from '../engine.ts';
import { findCompleteSubdigraph } from './complete-subdigraph.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { AlignmentScratch } from './equal-top-down-mapping.ts';
import { type KeyLink, type LinkOrder, orderLinks } from './link-order.ts';
import { navigationRegions } from './navigation-regions.ts';
import { nodeEquality, type NodeEquality, NodeFeatures } from './node-equality.ts';
import { type LearnedTemplate, markPage } from './page-marks.ts';
import { siblingLinks } from './sibling-pages.ts';
import { type ExtractedTemplate, extractTemplate } from './template-extraction.ts';

const D = HYPERLINK_DEFAULTS;

/** A link of a page of the source: its key (identity) and URL (to load), and the `<a>` node. */
export interface SiteLink extends KeyLink {
  key: string;
}

/**
 * The usable links of a page (Algorithm 1's getLinks): on the source's site (`keyOf`), unique by key, not
 * to the page itself. Root-relative hrefs in a directory (`/about/`) are the site layer's business:
 * DirSource.keyOf reads them against the directory (its `siteRootLinks` option), for every engine.
 */
export function siteLinks(source: PageSource, tree: Tree, page: Pick<Page, 'url' | 'key'>): SiteLink[] {
  const out: SiteLink[] = [];
  const urlOf = new Map<string, string>();
  for (const l of extractLinks(tree, page.url, { duplicates: true })) {
    const key = source.keyOf(l.url);
    if (key === undefined || key === page.key) continue;
    // Every occurrence is kept (link density counts them); one URL per key.
    const first = urlOf.get(key);
    if (first === undefined) urlOf.set(key, l.url);
    out.push({ url: first ?? l.url, key, node: l.node });
  }
  return out;
}

/** Links keyed by page key (the identity Algorithm 1 works on). */
function byKey(links: readonly SiteLink[]): KeyLink[] {
  return links.map((l) => ({ url: l.key, node: l.node }));
}

/** The engine's options, resolved. */
export interface HyperlinkOptions {
  key: string | undefined;
  n: number;
  maxLoad: number;
  linkOrder: LinkOrder;
  equality: NodeEquality;
  navigationRegions: boolean;
  /** Share of a region's changing text that must be link text (navigation-regions.ts). */
  linkShare: number;
  /** Which pages decide that a region is navigation (navigation-regions.ts). */
  regionsDecidedBy: 'all' | 'key';
  siblings: boolean;
}

function num(v: unknown, name: string, fallback: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const x = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(x)) throw new EngineError('bad-option', `--${name} must be a number (got ${String(v)})`);
  return x;
}

/** Reads `ctx.options` (commander's camelCase names) into HyperlinkOptions; throws EngineError on bad values. */
export function readOptions(o: Readonly<Record<string, unknown>>): HyperlinkOptions {
  const n = num(o['n'], 'n', D.n);
  if (!Number.isInteger(n) || n < 2) throw new EngineError('bad-option', `--n must be an integer >= 2 (got ${n})`);
  const maxLoad = num(o['maxLoad'], 'max-load', D.maxLoad);
  if (!Number.isInteger(maxLoad) || maxLoad < 1) throw new EngineError('bad-option', `--max-load must be an integer >= 1 (got ${maxLoad})`);
  const linkOrder = (o['linkOrder'] ?? D.linkOrder) as LinkOrder;
  if (linkOrder !== 'density' && linkOrder !== 'document' && linkOrder !== 'proximity') throw new EngineError('bad-option', `--link-order must be density, document or proximity (got ${String(linkOrder)})`);
  const text = (o['textEquality'] ?? 'exact') as 'exact' | 'kind';
  if (text !== 'exact' && text !== 'kind') throw new EngineError('bad-option', `--text-equality must be exact or kind (got ${String(text)})`);
  let equality: NodeEquality;
  try {
    equality = nodeEquality({
      threshold: num(o['equalityThreshold'], 'equality-threshold', D.threshold),
      weightClass: num(o['weightClass'], 'weight-class', D.weightClass),
      weightAttributes: num(o['weightAttributes'], 'weight-attributes', D.weightAttributes),
      weightChildren: num(o['weightChildren'], 'weight-children', D.weightChildren),
      weightPosition: num(o['weightPosition'], 'weight-position', D.weightPosition),
      text,
      documentSkeleton: o['documentSkeleton'] !== false,
      topWrapperDepth: num(o['topWrapperDepth'], 'top-wrapper-depth', D.topWrapperDepth),
    });
  } catch (err) {
    throw new EngineError('bad-option', (err as Error).message);
  }
  const key = o['key'];
  const share = num(o['navigationLinkShare'], 'navigation-link-share', D.navigationLinkShare);
  if (!(share >= 0 && share <= 1)) throw new EngineError('bad-option', `--navigation-link-share must be in [0, 1] (got ${share})`);
  const decidedBy = (o['regionsDecidedBy'] ?? D.regionsDecidedBy) as 'all' | 'key';
  if (decidedBy !== 'all' && decidedBy !== 'key') throw new EngineError('bad-option', `--regions-decided-by must be all or key (got ${String(decidedBy)})`);
  return {
    key: typeof key === 'string' && key !== '' ? key : undefined,
    n,
    maxLoad,
    linkOrder,
    equality,
    navigationRegions: o['navigationRegions'] !== false,
    linkShare: share,
    regionsDecidedBy: decidedBy,
    siblings: o['siblings'] !== false,
  };
}

/** One page loaded for learning. */
interface Loaded {
  page: Page;
  tree: Tree;
  links: SiteLink[];
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof PageError) return { code: err.code, message: err.message };
  return { code: 'error', message: err instanceof Error ? err.message : String(err) };
}

/** A short CSS-like description of an element, for template.json. */
function describeNode(tree: Tree, i: number): string {
  let s = tree.tag(i);
  const id = tree.attr(i, 'id');
  if (id) s += '#' + id;
  const cls = tree.attr(i, 'class')?.trim();
  if (cls) s += '.' + cls.split(/\s+/).join('.');
  return s;
}

/** What Algorithm 1 and its fallbacks found. */
export interface LearningSet {
  /** Pages the template is computed from (the CS, or the fallback set). */
  pages: Loaded[];
  cs: string[];
  complete: boolean;
  fallback: 'none' | 'siblings';
  tried: string[];
  failed: Array<{ key: string; url: string; code: string; message: string }>;
}

export class HyperlinkEngine implements TemplateEngine {
  readonly name = 'hyperlink';
  readonly description = 'Template of a key page from a complete subdigraph of mutually linked pages and equal top-down mappings (Alarte et al., paper 2)';
  readonly options: readonly EngineOption[] = [
    { flags: '--key <url-or-key>', description: "the key page (URL or key relative to the source root); default: the source's entry page" },
    { flags: '--n <n>', description: 'size of the complete subdigraph to look for (paper: 4)', defaultValue: D.n, parse: Number },
    { flags: '--max-load <n>', description: 'most pages loaded to find it', defaultValue: D.maxLoad, parse: Number },
    { flags: '--link-order <order>', description: "order of the key page's links: density (menus first), document (the paper's), or proximity (the key page's folder first, then density)", defaultValue: D.linkOrder },
    { flags: '--equality-threshold <x>', description: 'node equality: two nodes are equal when ≜ >= x', defaultValue: D.threshold, parse: Number },
    { flags: '--weight-class <w>', description: 'node equality: weight of the class names', defaultValue: D.weightClass, parse: Number },
    { flags: '--weight-attributes <w>', description: 'node equality: weight of the other attributes', defaultValue: D.weightAttributes, parse: Number },
    { flags: '--weight-children <w>', description: 'node equality: weight of the number of children', defaultValue: D.weightChildren, parse: Number },
    { flags: '--weight-position <w>', description: 'node equality: weight of the relative position among siblings', defaultValue: D.weightPosition, parse: Number },
    { flags: '--text-equality <mode>', description: 'node equality of texts: exact (same text) or kind (any text)', defaultValue: 'exact' },
    { flags: '--no-document-skeleton', description: 'node equality: compare <html>, <head>, <body> by their attributes too (default: always equal)' },
    { flags: '--top-wrapper-depth <n>', description: 'node equality: levels below <body> where a tag-unique wrapper is compared without its classes (0: none)', defaultValue: D.topWrapperDepth, parse: Number },
    { flags: '--no-navigation-regions', description: 'do not treat link-made regions with changing text as template' },
    { flags: '--navigation-link-share <x>', description: 'navigation regions: share of the changing text that must be link text', defaultValue: D.navigationLinkShare, parse: Number },
    { flags: '--regions-decided-by <pages>', description: 'navigation regions: decided by all (the key page and every CS page) or key (the key page alone)', defaultValue: D.regionsDecidedBy },
    { flags: '--no-siblings', description: "when no 2-CS exists, do not complete the set with the key page's siblings" },
  ];

  async run(ctx: EngineContext): Promise<EngineRun> {
    const o = readOptions(ctx.options);
    const source = ctx.source;
    const timings: Record<string, number> = {};
    const warn = (m: string): void => ctx.onWarning?.(m);
    const started = performance.now();
    const loadedBefore = source.loaded;
    let loadMs = 0;
    let loads = 0;
    const timedGet = async (url: string): Promise<Page> => {
      const t = performance.now();
      loads++;
      try {
        return await source.get(url);
      } finally {
        loadMs += performance.now() - t;
      }
    };

    // The key page.
    const keyUrl = o.key === undefined ? source.entry : /^[a-z][a-z0-9+.-]*:\/\//i.test(o.key) ? o.key : source.urlOf(o.key);
    let keyPage: Page;
    try {
      keyPage = await timedGet(keyUrl);
    } catch (err) {
      const d = describe(err);
      throw new EngineError('key-page-unavailable', `the key page ${keyUrl} could not be loaded (${d.code}): ${d.message}`);
    }
    const keyTree = parsePage(keyPage, ctx.labels);
    const keyLinks = siteLinks(source, keyTree, keyPage);
    if (keyLinks.length === 0) {
      throw new EngineError('no-usable-links', `the key page ${keyPage.key} has no links to other pages of the site (root ${source.root}); the hyperlink method needs the pages it links to`);
    }
    const ordered = orderLinks(keyTree, byKey(keyLinks), { order: o.linkOrder, minRegionLinks: D.minRegionLinks, key: keyPage.key });
    const urlOfKey = new Map(keyLinks.map((l) => [l.key, l.url]));

    // Algorithm 1.
    const loaded = new Map<string, Loaded>();
    const failed: LearningSet['failed'] = [];
    const load = async (key: string, url: string): Promise<Loaded | null> => {
      const have = loaded.get(key);
      if (have) return have;
      let page: Page;
      try {
        page = await timedGet(url);
      } catch (err) {
        const d = describe(err);
        failed.push({ key, url, ...d });
        warn(`${url}: could not be loaded to find the template (${d.code}): ${d.message}`);
        return null;
      }
      const tree = parsePage(page, ctx.labels);
      const entry = { page, tree, links: siteLinks(source, tree, page) };
      loaded.set(key, entry);
      ctx.onProgress?.('learn', loaded.size);
      return entry;
    };
    const found = await findCompleteSubdigraph(ordered, {
      n: o.n,
      maxLoad: o.maxLoad,
      signal: ctx.signal,
      load: async (key) => {
        const l = await load(key, urlOfKey.get(key) ?? source.urlOf(key));
        return l ? l.links.map((x) => x.key) : null;
      },
    });
    const set: LearningSet = {
      pages: found.cs.map((k) => loaded.get(k)!).filter((x) => x !== undefined),
      cs: found.cs,
      complete: found.complete,
      fallback: 'none',
      tried: found.tried,
      failed,
    };
    if (!found.complete) {
      warn(`${keyPage.key}: no ${o.n}-page complete subdigraph among its ${ordered.length} links (${found.tried.length} tried); the biggest has ${found.cs.length} page(s)`);
    }

    // Fallback: fewer than 2 pages in the CS.
    if (set.pages.length < 2 && o.siblings) {
      const want = o.n - set.pages.length;
      const have = new Set(set.pages.map((p) => p.page.key));
      const siblings: Array<{ key: string; url: string }> = [];
      for (const l of loaded.values()) {
        const urls = new Map(l.links.map((x) => [x.key, x.url]));
        for (const k of siblingLinks(l.tree, byKey(l.links), keyPage.key, D.minRegionLinks)) {
          if (k !== keyPage.key && !have.has(k) && !siblings.some((x) => x.key === k)) siblings.push({ key: k, url: urls.get(k) ?? source.urlOf(k) });
        }
      }
      let added = 0;
      for (const { key: k, url } of siblings) {
        if (added >= want || loads - 1 >= o.maxLoad) break;
        const l = await load(k, url);
        if (!l) continue;
        set.pages.push(l);
        have.add(k);
        added++;
      }
      if (added > 0) {
        set.fallback = 'siblings';
        warn(`${keyPage.key}: the complete subdigraph has fewer than 2 pages; the template also uses ${added} sibling page(s) of the key page (${set.pages.slice(-added).map((p) => p.page.key).join(', ')})`);
      }
    }
    if (set.pages.length === 0) {
      throw new EngineError('no-complete-subdigraph', `${keyPage.key}: no page linked from the key page could be used (${found.tried.length} tried, ${failed.length} failed to load); a template needs at least one other page of the site`);
    }
    if (set.pages.length === 1) {
      warn(`${keyPage.key}: the template rests on one other page only (${set.pages[0]!.page.key}): complete subdigraph smaller than 2`);
    }

    // Algorithm 2.
    const eq = o.equality;
    const scratch = new AlignmentScratch();
    const keyF = new NodeFeatures(keyTree, eq);
    const features = new Map<string, NodeFeatures>();
    const featuresOf = (p: Loaded): NodeFeatures => {
      let f = features.get(p.page.key);
      if (!f) {
        f = new NodeFeatures(p.tree, eq);
        features.set(p.page.key, f);
      }
      return f;
    };
    let ext: ExtractedTemplate = extractTemplate(eq, keyF, set.pages.map((p) => ({ key: p.page.key, features: featuresOf(p) })), scratch);
    for (const k of ext.skipped) warn(`${k}: its root is not equal to the key page's; left out of the template (Algorithm 2)`);
    const dropped = differentTemplates(keyF, ext);
    if (dropped.length > 0) {
      for (const d of dropped) warn(`${d.key}: shares ${d.shared} of the key page's texts where the best page shares ${d.best}; it seems to use another template and is left out`);
      const keep = set.pages.filter((p) => !dropped.some((d) => d.key === p.page.key));
      ext = extractTemplate(eq, keyF, keep.map((p) => ({ key: p.page.key, features: featuresOf(p) })), scratch);
    }
    if (ext.maps.length === 0) {
      throw new EngineError('no-shared-template', `${keyPage.key}: none of the ${set.pages.length} page(s) found shares the key page's root; no template can be justified`);
    }
    const regions = o.navigationRegions
      ? navigationRegions(keyTree, ext.template, ext.maps.map((m) => ({ tree: m.features.tree, map: m.map, marks: imageOfTemplate(ext.template, m.map, m.features.tree.size) })), o.linkShare, D.contentSlotShare, o.regionsDecidedBy)
      : [];
    const learned: LearnedTemplate = { eq, key: keyF, template: ext.template, regions, linkShare: o.linkShare, regionsDecidedBy: o.regionsDecidedBy, slotShare: D.contentSlotShare };
    const networkLoads = source.loaded - loadedBefore;
    timings['load'] = Math.round(loadMs);
    timings['learn'] = Math.round(performance.now() - started);

    // Mark every page of the source, and the key page (whose template this is) even when the source's
    // listing does not reach it (a frame of a frameset, which a crawl does not follow).
    const tMark = performance.now();
    let done = 0;
    let keyMarked = false;
    for await (const r of source.pages()) {
      ctx.signal?.throwIfAborted();
      if (!r.ok) {
        ctx.onFailure({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
        continue;
      }
      if (r.page.key === keyPage.key) keyMarked = true;
      const known = r.page.key === keyPage.key ? keyF : features.get(r.page.key);
      const f = known ?? new NodeFeatures(parsePage(r.page, ctx.labels), eq);
      const marks = markPage(learned, f, scratch);
      await ctx.onPage({ key: r.page.key, url: r.page.url, tree: f.tree, template: marks });
      ctx.onProgress?.('mark', ++done);
    }
    if (!keyMarked) {
      await ctx.onPage({ key: keyPage.key, url: keyPage.url, tree: keyTree, template: markPage(learned, keyF, scratch) });
      done++;
    }
    timings['mark'] = Math.round(performance.now() - tMark);

    const usedKeys = ext.maps.map((m) => m.key);
    const summary = {
      keyPage: { key: keyPage.key, url: keyPage.url },
      /** Pages requested to learn the template, the key page included (failed loads count too). */
      pagesLoadedForLearning: loads,
      /** What the source itself counted as loaded during learning (downloads, for HTTP). */
      networkLoadsForLearning: networkLoads,
      cs: found.cs.map((k) => loaded.get(k)?.page.key ?? k),
      csSize: found.cs.length,
      csComplete: found.complete,
      n: o.n,
      fallback: set.fallback,
      templatePages: usedKeys,
      droppedPages: dropped.map((d) => d.key),
      linkOrder: o.linkOrder,
      linksConsidered: ordered.length,
      linksTried: found.tried,
      learningFailures: failed,
      templateNodes: ext.size,
      navigationRegions: regions.length,
      pagesMarked: done,
    };
    const template = {
      method: 'hyperlink',
      paper: 'Alarte, Insa, Silva, Tamarit: Web Template Extraction Based on Hyperlink Analysis',
      keyPage: keyPage.key,
      templatePages: usedKeys,
      n: o.n,
      equality: {
        threshold: eq.threshold,
        weightClass: eq.weightClass,
        weightAttributes: eq.weightAttributes,
        weightChildren: eq.weightChildren,
        weightPosition: eq.weightPosition,
        ignoreAttributes: [...eq.ignoreAttributes],
        text: eq.text,
        documentSkeleton: eq.documentSkeleton,
        topWrapperDepth: eq.topWrapperDepth,
      },
      templateNodes: ext.size,
      keyPageNodes: keyTree.size,
      mappedPerPage: ext.mapped,
      navigationRegions: regions.map((r) => describeNode(keyTree, r)),
    };
    return { template, summary, timings };
  }
}

/** 1 on the page nodes that are images of template nodes under `map`. */
function imageOfTemplate(template: Uint8Array, map: Int32Array, size: number): Uint8Array {
  const marks = new Uint8Array(size);
  for (let i = 0; i < map.length; i++) if (template[i] === 1 && map[i]! >= 0) marks[map[i]!] = 1;
  return marks;
}

/**
 * CS pages of another template than the key page's ("Bad input" of the issue): a page whose ETDM pairs
 * fewer than `DIFFERENT_TEMPLATE_SHARE` of the key page's texts that the best page pairs is left out
 * (only when at least one other page remains). Shared texts, not shared nodes, because the ETDM also pairs
 * the content slot's skeleton, whose size follows the content, not the template.
 */
export function differentTemplates(key: NodeFeatures, ext: ExtractedTemplate): Array<{ key: string; shared: number; best: number }> {
  if (ext.maps.length < 2) return [];
  const tree = key.tree;
  const shared = ext.maps.map((m) => {
    let s = 0;
    for (let i = 0; i < tree.size; i++) if (tree.kind[i] === 2 && m.map[i]! >= 0) s++;
    return s;
  });
  const best = Math.max(...shared);
  const out: Array<{ key: string; shared: number; best: number }> = [];
  shared.forEach((s, k) => {
    if (s < DIFFERENT_TEMPLATE_SHARE * best) out.push({ key: ext.maps[k]!.key, shared: s, best });
  });
  return out.length < ext.maps.length ? out : [];
}

/**
 * A CS page sharing less than this fraction of the key page's texts that the best CS page shares is taken
 * for a page of another template. One half: pages of one template share most of their fixed texts (menus,
 * headers, footers); a page of another template shares a few words at best.
 */
export const DIFFERENT_TEMPLATE_SHARE = 0.5;

const engine: TemplateEngine = new HyperlinkEngine();
export default engine;
