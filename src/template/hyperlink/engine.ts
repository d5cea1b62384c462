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
 *     of the set; CS pages of a clearly different template (by shared texts) or of another page class (by
 *     page schema, page-classes.ts) are set aside with a warning, as long as `agreeingPages` pages remain
 *     (else further linked pages are loaded, and failing that none is set aside); plus same-word elements
 *     (template-extraction.ts), navigation bars' changing cells and navigation regions
 *     (navigation-regions.ts);
 *  4. every page of the source is marked with the same mapping (page-marks.ts) and handed to `onPage`.
 * Bad input never yields a template from the key page alone: no usable link, no page loaded, or no page
 * sharing the key page's root raise an EngineError with a code; weaker fallbacks are warnings.
 */
import { EngineError, PageError } from '../../errors.ts';
import type { Tree } from '../../html/tree.ts';
import { extractLinks } from '../../site/links.ts';
import { type Page, type PageSource, pageText, parsePage } from '../../site/page.ts';
import type { EngineContext, EngineRun, LearnContext, LearningEngine, LearnRun } from '../engine.ts';
import { type Applier, makeTemplate, type Template } from '../learned.ts';
import { compileHyperlink, hyperlinkData, type HyperlinkData } from './learned.ts';
import { BAD_OPTION } from '../options.ts';
import { findCompleteSubdigraph } from './complete-subdigraph.ts';
import { HYPERLINK_DEFAULTS, type UnmappedCells } from './defaults.ts';
import { HYPERLINK_OPTIONS } from './options.ts';
import { AlignmentScratch } from './equal-top-down-mapping.ts';
import { type KeyLink, type LinkOrder, orderLinks } from './link-order.ts';
import { markNavigationCells, navigationRegions } from './navigation-regions.ts';
import { nodeEquality, type NodeEquality, NodeFeatures } from './node-equality.ts';
import { type LearnedTemplate, markPage } from './page-marks.ts';
import { PageClasses } from './page-classes.ts';
import { siblingLinks } from './sibling-pages.ts';
import { differentTemplates, type ExtractedTemplate, extractTemplate, imageOfTemplate, markSameWords, sameWordElements } from './template-extraction.ts';

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
    if (key === undefined || key === page.key || sameDocument(key, page.key)) continue;
    // Every occurrence is kept (link density counts them); one URL per key.
    const first = urlOf.get(key);
    if (first === undefined) urlOf.set(key, l.url);
    out.push({ url: first ?? l.url, key, node: l.node });
  }
  return out;
}

/**
 * True when two keys name one document on a static host: `docs/a` and `docs/a.html`, `docs/` and
 * `docs/index.html` (a host serves an extensionless path from its `.html` file and a folder from its
 * index). A link to the key page under its other name is a self-link.
 */
export function sameDocument(a: string, b: string): boolean {
  const bare = (k: string): string => k.replace(/(^|\/)index\.x?html?$/i, '$1').replace(/\.x?html?$/i, '').replace(/\/$/, '');
  return bare(a) === bare(b);
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
  /** Pages loaded after which a CS of at least 3 pages is taken (complete-subdigraph.ts). */
  loadBudget: number;
  linkOrder: LinkOrder;
  equality: NodeEquality;
  navigationRegions: boolean;
  /** Share of a region's changing text that must be link text (navigation-regions.ts). */
  linkShare: number;
  /** Which pages decide that a region is navigation (navigation-regions.ts). */
  regionsDecidedBy: 'all' | 'key';
  /** Navigation bars (defaults.ts): plain-text cells of a bar, and bars beside a stub's content slot. */
  navigationBars: boolean;
  /** Where a bar's unmapped cells are changing cells (defaults.ts). */
  unmappedCells: UnmappedCells;
  /** Fewest pages of the key page's template the template rests on (defaults.ts). */
  agreeingPages: number;
  /** A CS page sharing less than this share of the key page's texts that the best one shares is set aside. */
  differentTemplateShare: number;
  /** Set aside CS pages of another page class than the key page's (page-classes.ts). */
  pageClasses: boolean;
  /** Same-word elements are template whole (template-extraction.ts `sameWordElements`). */
  sameWords: boolean;
  siblings: boolean;
}

/** Reads engine options (any subset, validated) into HyperlinkOptions; throws EngineError `bad-option`. */
export function readOptions(input: Readonly<Record<string, unknown>>): HyperlinkOptions {
  const o = HYPERLINK_OPTIONS.parse(input);
  let equality: NodeEquality;
  try {
    equality = nodeEquality({
      threshold: o.equalityThreshold,
      weightClass: o.weightClass,
      weightAttributes: o.weightAttributes,
      weightChildren: o.weightChildren,
      weightPosition: o.weightPosition,
      text: o.textEquality,
      documentSkeleton: o.documentSkeleton,
      topWrapperDepth: o.topWrapperDepth,
    });
  } catch (err) {
    throw new EngineError(BAD_OPTION, (err as Error).message);
  }
  return {
    key: o.key,
    n: o.n,
    maxLoad: o.maxLoad,
    loadBudget: o.loadBudget,
    linkOrder: o.linkOrder,
    equality,
    navigationRegions: o.navigationRegions,
    linkShare: o.navigationLinkShare,
    regionsDecidedBy: o.regionsDecidedBy,
    navigationBars: o.navigationBars,
    unmappedCells: o.unmappedCells,
    agreeingPages: o.agreeingPages,
    differentTemplateShare: o.differentTemplateShare,
    pageClasses: o.pageClasses,
    sameWords: o.sameWords,
    siblings: o.siblings,
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

/** A CS page set aside, and why. */
interface SetAside {
  key: string;
  why: string;
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

/** What learning found: the learned template and what marking the source's pages reuses. */
interface HyperlinkLearned {
  learned: LearnedTemplate;
  keyPage: Page;
  /** The key page's decoded text (the template holds it). */
  keyText: string;
  keyF: NodeFeatures;
  features: Map<string, NodeFeatures>;
  scratch: AlignmentScratch;
  summary: Record<string, unknown>;
  about: Record<string, unknown>;
  timings: Record<string, number>;
  options: HyperlinkOptions;
}

/** The Template of what was learned. */
function hyperlinkTemplate(l: HyperlinkLearned, ctx: LearnContext): Template<HyperlinkData> {
  return makeTemplate('hyperlink', { ...HYPERLINK_OPTIONS.parse(ctx.options) }, ctx.site ?? ctx.source.root, (l.summary['templatePages'] as string[]).length + 1, hyperlinkData(l.learned, l.keyPage, l.keyText), l.about);
}

export class HyperlinkEngine implements LearningEngine {
  readonly name = 'hyperlink';
  readonly description = 'Template of a key page from a complete subdigraph of mutually linked pages and equal top-down mappings (Alarte et al., paper 2)';
  readonly options = HYPERLINK_OPTIONS;

  /** Learns the template: the key page, Algorithm 1 and its fallbacks, Algorithm 2, navigation regions. */
  private async learnSite(ctx: LearnContext): Promise<HyperlinkLearned> {
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
      loadBudget: o.loadBudget,
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
    if (!found.complete && found.cs.length >= 3 && found.tried.length >= o.loadBudget && found.tried.length < Math.min(ordered.length, o.maxLoad)) {
      warn(`${keyPage.key}: no ${o.n}-page complete subdigraph within the load budget (${o.loadBudget} pages); the ${found.cs.length}-page one found is used`);
    } else if (!found.complete) {
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
    const extractFrom = (pages: readonly Loaded[]): ExtractedTemplate => extractTemplate(eq, keyF, pages.map((p) => ({ key: p.page.key, features: featuresOf(p) })), scratch);
    let ext: ExtractedTemplate = extractFrom(set.pages);
    for (const k of ext.skipped) warn(`${k}: its root is not equal to the key page's; left out of the template (Algorithm 2)`);
    // Pages set aside: of another template by their shared texts (`differentTemplates`, never all of them),
    // and of another page class by their structure (page-classes.ts) as long as one page remains.
    const classes = o.pageClasses ? new PageClasses(keyTree, keyPage.url, (u) => source.keyOf(u)) : null;
    const setAside = (e: ExtractedTemplate): SetAside[] => {
      const byText: SetAside[] = differentTemplates(keyF, e, o.differentTemplateShare).map((d) => ({
        key: d.key,
        why: `shares ${d.shared} of the key page's texts where the best page shares ${d.best}; it seems to use another template`,
      }));
      if (!classes) return byText;
      const out = [...byText];
      for (const m of e.maps) classes.add(m.key, m.features.tree, loaded.get(m.key)?.page.url ?? source.urlOf(m.key));
      for (const m of e.maps) {
        if (byText.some((d) => d.key === m.key)) continue;
        const sim = classes.similarity(m.key);
        if (sim < classes.threshold) out.push({ key: m.key, why: `its structure is of another page class than the key page's (page schema similarity ${sim.toFixed(2)} < ${classes.threshold})` });
      }
      return out.length < e.maps.length ? out : byText;
    };
    let pool = set.pages;
    let dropped = setAside(ext);
    // Setting pages aside must leave `agreeingPages` pages of the key page's template: else further
    // linked pages (those loaded but outside the CS first, then the next links) are tried, at most n of
    // them, and failing that no page is set aside.
    const widened: string[] = [];
    if (dropped.length > 0 && ext.maps.length - dropped.length < o.agreeingPages) {
      const inPool = new Set(pool.map((p) => p.page.key));
      const tried = new Set(found.tried);
      const candidates = [...[...loaded.keys()].filter((k) => !inPool.has(k)), ...ordered.filter((k) => !loaded.has(k) && !tried.has(k))];
      let agreed = false;
      for (const k of candidates) {
        if (widened.length >= o.n || (!loaded.has(k) && loads - 1 >= o.maxLoad)) break;
        const l = await load(k, urlOfKey.get(k) ?? source.urlOf(k));
        if (!l) continue;
        widened.push(l.page.key);
        pool = [...pool, l];
        const e = extractFrom(pool);
        const d = setAside(e);
        if (e.maps.length - d.length >= o.agreeingPages) {
          agreed = true;
          dropped = d;
          break;
        }
      }
      if (!agreed) {
        warn(`${keyPage.key}: fewer than ${o.agreeingPages} pages of the complete subdigraph share the key page's template, and ${widened.length} further page(s) did not make up for it; no page is set aside`);
        pool = set.pages;
        dropped = [];
      }
    }
    if (dropped.length > 0 || pool !== set.pages) {
      for (const d of dropped) warn(`${d.key}: ${d.why}; left out`);
      ext = extractFrom(pool.filter((p) => !dropped.some((d) => d.key === p.page.key)));
    }
    if (ext.maps.length === 0) {
      throw new EngineError('no-shared-template', `${keyPage.key}: none of the ${set.pages.length} page(s) found shares the key page's root; no template can be justified`);
    }
    // Same-word elements first: their subtrees are template before the bars and regions are read.
    const sameWords = o.sameWords ? sameWordElements(keyTree, ext.template, ext.maps.map((m) => ({ tree: m.features.tree, map: m.map }))) : [];
    for (const e of sameWords) ext.template.fill(1, e, keyTree.end[e]!);
    if (o.navigationBars) markNavigationCells(keyTree, ext.template, o.unmappedCells);
    const imageOn = (m: ExtractedTemplate['maps'][number]): Uint8Array => {
      const marks = imageOfTemplate(ext.template, m.map, m.features.tree.size);
      markSameWords(keyTree, sameWords, m.features.tree, m.map, marks);
      if (o.navigationBars) markNavigationCells(m.features.tree, marks, o.unmappedCells);
      return marks;
    };
    const regions = o.navigationRegions
      ? navigationRegions(keyTree, ext.template, ext.maps.map((m) => ({ tree: m.features.tree, map: m.map, marks: imageOn(m) })), o.linkShare, D.contentSlotShare, o.regionsDecidedBy, o.navigationBars)
      : [];
    const learned: LearnedTemplate = { eq, key: keyF, template: ext.template, regions, linkShare: o.linkShare, regionsDecidedBy: o.regionsDecidedBy, slotShare: D.contentSlotShare, cells: o.navigationBars, unmappedCells: o.unmappedCells, sameWords };
    const networkLoads = source.loaded - loadedBefore;
    timings['load'] = Math.round(loadMs);
    timings['learn'] = Math.round(performance.now() - started);

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
      /** Pages loaded beyond the CS to find enough pages of the key page's template (`agreeingPages`). */
      widenedPages: widened,
      linkOrder: o.linkOrder,
      linksConsidered: ordered.length,
      linksTried: found.tried,
      learningFailures: failed,
      templateNodes: ext.size,
      navigationRegions: regions.length,
      sameWordElements: sameWords.length,
    };
    const about = {
      paper: 'Alarte, Insa, Silva, Tamarit: Web Template Extraction Based on Hyperlink Analysis',
      keyPage: keyPage.key,
      templatePages: usedKeys,
      n: o.n,
      templateNodes: ext.size,
      keyPageNodes: keyTree.size,
      mappedPerPage: ext.mapped,
      navigationRegions: regions.map((r) => describeNode(keyTree, r)),
    };
    return { learned, keyPage, keyText: pageText(keyPage).text, keyF, features, scratch, summary, about, timings, options: o };
  }

  async run(ctx: EngineContext): Promise<EngineRun> {
    const l = await this.learnSite(ctx);
    const { learned, keyPage, keyF, features, scratch, timings } = l;
    const eq = learned.eq;
    const source = ctx.source;
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
      await ctx.onPage({ key: keyPage.key, url: keyPage.url, tree: keyF.tree, template: markPage(learned, keyF, scratch) });
      done++;
    }
    timings['mark'] = Math.round(performance.now() - tMark);

    return { template: hyperlinkTemplate(l, ctx), summary: { ...l.summary, pagesMarked: done }, timings };
  }

  async learn(ctx: LearnContext): Promise<LearnRun> {
    const l = await this.learnSite(ctx);
    return { template: hyperlinkTemplate(l, ctx), summary: l.summary, timings: l.timings };
  }

  compile(template: Template): Applier {
    return compileHyperlink(template);
  }
}

export { HYPERLINK_OPTIONS };

const engine: LearningEngine<typeof HYPERLINK_OPTIONS.shape> = new HyperlinkEngine();
export default engine;
