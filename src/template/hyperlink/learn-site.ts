/**
 * Learning the hyperlink engine's template of a site (engine.ts, steps 1–3 of its module comment): the key
 * page, Algorithm 1 and its fallback, Algorithm 2 with the pages set aside, the navigation regions. Each
 * step is a method of one learning run, which loads every page once and counts and times the loads.
 */
import { EngineError, PageError } from '../../errors.ts';
import type { Tree } from '../../html/tree.ts';
import { type Page, pageText, parsePage } from '../../site/page.ts';
import type { LearnContext } from '../engine.ts';
import { findCompleteSubdigraph } from './complete-subdigraph.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { AlignmentScratch } from './equal-top-down-mapping.ts';
import { orderLinks } from './link-order.ts';
import { markNavigationCells, navigationRegions } from './navigation-regions.ts';
import { NodeFeatures } from './node-equality.ts';
import { type HyperlinkOptions, readOptions } from './options.ts';
import type { LearnedTemplate } from './page-marks.ts';
import { PageClasses } from './page-classes.ts';
import { siblingLinks } from './sibling-pages.ts';
import { byKey, type SiteLink, siteLinks } from './site-links.ts';
import { differentTemplates, type ExtractedTemplate, extractTemplate, imageOfTemplate, markSameWords, sameWordElements } from './template-extraction.ts';

const D = HYPERLINK_DEFAULTS;

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
export interface HyperlinkLearned {
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

/** Learns the template of the source's site from its key page (the steps of the module comment). */
export async function learnSite(ctx: LearnContext): Promise<HyperlinkLearned> {
  const l = new SiteLearning(ctx);
  const key = await l.keyPage();
  const found = await l.completeSubdigraph(key);
  const set = await l.learningSet(key, found);
  const { ext, dropped, widened } = await l.algorithm2(key, found, set);
  const { learned, regions, sameWords } = l.navigation(key, ext);
  l.timings['load'] = Math.round(l.loadMs);
  l.timings['learn'] = Math.round(performance.now() - l.started);
  const usedKeys = ext.maps.map((m) => m.key);
  const o = l.o;
  const summary = {
    keyPage: { key: key.page.key, url: key.page.url },
    /** Pages requested to learn the template, the key page included (failed loads count too). */
    pagesLoadedForLearning: l.loads,
    /** What the source itself counted as loaded during learning (downloads, for HTTP). */
    networkLoadsForLearning: ctx.source.loaded - l.loadedBefore,
    cs: found.cs.map((k) => l.loaded.get(k)?.page.key ?? k),
    csSize: found.cs.length,
    csComplete: found.complete,
    n: o.n,
    fallback: set.fallback,
    templatePages: usedKeys,
    droppedPages: dropped.map((d) => d.key),
    /** Pages loaded beyond the CS to find enough pages of the key page's template (`agreeingPages`). */
    widenedPages: widened,
    linkOrder: o.linkOrder,
    linksConsidered: key.ordered.length,
    linksTried: found.tried,
    learningFailures: l.failed,
    templateNodes: ext.size,
    navigationRegions: regions.length,
    sameWordElements: sameWords.length,
  };
  const about = {
    paper: 'Alarte, Insa, Silva, Tamarit: Web Template Extraction Based on Hyperlink Analysis',
    keyPage: key.page.key,
    templatePages: usedKeys,
    n: o.n,
    templateNodes: ext.size,
    keyPageNodes: key.tree.size,
    mappedPerPage: ext.mapped,
    navigationRegions: regions.map((r) => describeNode(key.tree, r)),
  };
  return { learned, keyPage: key.page, keyText: pageText(key.page).text, keyF: l.keyF!, features: l.features, scratch: l.scratch, summary, about, timings: l.timings, options: o };
}

/** The key page, its tree and its usable links in Algorithm 1's order. */
interface KeyPage {
  page: Page;
  tree: Tree;
  ordered: string[];
  urlOfKey: Map<string, string>;
}

/** What Algorithm 1 returned (complete-subdigraph.ts). */
type Found = Awaited<ReturnType<typeof findCompleteSubdigraph>>;

/** One learning run: the pages loaded so far (each once), the loads counted and timed, the warnings. */
class SiteLearning {
  readonly o: HyperlinkOptions;
  readonly source: LearnContext['source'];
  readonly timings: Record<string, number> = {};
  readonly started = performance.now();
  readonly loadedBefore: number;
  readonly loaded = new Map<string, Loaded>();
  readonly failed: LearningSet['failed'] = [];
  readonly features = new Map<string, NodeFeatures>();
  readonly scratch = new AlignmentScratch();
  keyF: NodeFeatures | undefined;
  loadMs = 0;
  loads = 0;

  constructor(readonly ctx: LearnContext) {
    this.o = readOptions(ctx.options);
    this.source = ctx.source;
    this.loadedBefore = ctx.source.loaded;
  }

  warn(m: string): void {
    this.ctx.onWarning?.(m);
  }

  /** `source.get`, counted and timed. */
  async get(url: string): Promise<Page> {
    const t = performance.now();
    this.loads++;
    try {
      return await this.source.get(url);
    } finally {
      this.loadMs += performance.now() - t;
    }
  }

  /** Loads a page for learning once (null when it fails, which is recorded and warned of). */
  async load(key: string, url: string): Promise<Loaded | null> {
    const have = this.loaded.get(key);
    if (have) return have;
    let page: Page;
    try {
      page = await this.get(url);
    } catch (err) {
      const d = describe(err);
      this.failed.push({ key, url, ...d });
      this.warn(`${url}: could not be loaded to find the template (${d.code}): ${d.message}`);
      return null;
    }
    const tree = parsePage(page, this.ctx.labels);
    const entry = { page, tree, links: siteLinks(this.source, tree, page) };
    this.loaded.set(key, entry);
    this.ctx.onProgress?.('learn', this.loaded.size);
    return entry;
  }

  /** Step 1: the key page and its usable links, menu first. */
  async keyPage(): Promise<KeyPage> {
    const { o, source } = this;
    const keyUrl = o.key === undefined ? source.entry : /^[a-z][a-z0-9+.-]*:\/\//i.test(o.key) ? o.key : source.urlOf(o.key);
    let page: Page;
    try {
      page = await this.get(keyUrl);
    } catch (err) {
      const d = describe(err);
      throw new EngineError('key-page-unavailable', `the key page ${keyUrl} could not be loaded (${d.code}): ${d.message}`);
    }
    const tree = parsePage(page, this.ctx.labels);
    const links = siteLinks(source, tree, page);
    if (links.length === 0) {
      throw new EngineError('no-usable-links', `the key page ${page.key} has no links to other pages of the site (root ${source.root}); the hyperlink method needs the pages it links to`);
    }
    const ordered = orderLinks(tree, byKey(links), { order: o.linkOrder, minRegionLinks: D.minRegionLinks, key: page.key });
    return { page, tree, ordered, urlOfKey: new Map(links.map((l) => [l.key, l.url])) };
  }

  /** Step 2: Algorithm 1, pages loaded one at a time until an n-CS exists (else the biggest found). */
  async completeSubdigraph(key: KeyPage): Promise<Found> {
    const { o, source } = this;
    const found = await findCompleteSubdigraph(key.ordered, {
      n: o.n,
      maxLoad: o.maxLoad,
      loadBudget: o.loadBudget,
      signal: this.ctx.signal,
      load: async (k) => {
        const l = await this.load(k, key.urlOfKey.get(k) ?? source.urlOf(k));
        return l ? l.links.map((x) => x.key) : null;
      },
    });
    if (!found.complete && found.cs.length >= 3 && found.tried.length >= o.loadBudget && found.tried.length < Math.min(key.ordered.length, o.maxLoad)) {
      this.warn(`${key.page.key}: no ${o.n}-page complete subdigraph within the load budget (${o.loadBudget} pages); the ${found.cs.length}-page one found is used`);
    } else if (!found.complete) {
      this.warn(`${key.page.key}: no ${o.n}-page complete subdigraph among its ${key.ordered.length} links (${found.tried.length} tried); the biggest has ${found.cs.length} page(s)`);
    }
    return found;
  }

  /** The pages the template is computed from: the CS, completed by the key page's siblings when it has fewer than 2. */
  async learningSet(key: KeyPage, found: Found): Promise<LearningSet> {
    const set: LearningSet = {
      pages: found.cs.map((k) => this.loaded.get(k)!).filter((x) => x !== undefined),
      cs: found.cs,
      complete: found.complete,
      fallback: 'none',
      tried: found.tried,
      failed: this.failed,
    };
    if (set.pages.length < 2 && this.o.siblings) await this.addSiblings(key, set);
    if (set.pages.length === 0) {
      throw new EngineError('no-complete-subdigraph', `${key.page.key}: no page linked from the key page could be used (${found.tried.length} tried, ${this.failed.length} failed to load); a template needs at least one other page of the site`);
    }
    if (set.pages.length === 1) {
      this.warn(`${key.page.key}: the template rests on one other page only (${set.pages[0]!.page.key}): complete subdigraph smaller than 2`);
    }
    return set;
  }

  /** Fallback: the key page's siblings (sibling-pages.ts) in the pages loaded complete a CS of fewer than 2 pages. */
  private async addSiblings(key: KeyPage, set: LearningSet): Promise<void> {
    const want = this.o.n - set.pages.length;
    const keyPageKey = key.page.key;
    const have = new Set(set.pages.map((p) => p.page.key));
    const siblings: Array<{ key: string; url: string }> = [];
    for (const l of this.loaded.values()) {
      const urls = new Map(l.links.map((x) => [x.key, x.url]));
      for (const k of siblingLinks(l.tree, byKey(l.links), keyPageKey, D.minRegionLinks)) {
        if (k !== keyPageKey && !have.has(k) && !siblings.some((x) => x.key === k)) siblings.push({ key: k, url: urls.get(k) ?? this.source.urlOf(k) });
      }
    }
    let added = 0;
    for (const { key: k, url } of siblings) {
      if (added >= want || this.loads - 1 >= this.o.maxLoad) break;
      const l = await this.load(k, url);
      if (!l) continue;
      set.pages.push(l);
      have.add(k);
      added++;
    }
    if (added > 0) {
      set.fallback = 'siblings';
      this.warn(`${keyPageKey}: the complete subdigraph has fewer than 2 pages; the template also uses ${added} sibling page(s) of the key page (${set.pages.slice(-added).map((p) => p.page.key).join(', ')})`);
    }
  }

  /** Node features of a loaded page, once. */
  private featuresOf(p: Loaded): NodeFeatures {
    let f = this.features.get(p.page.key);
    if (!f) {
      f = new NodeFeatures(p.tree, this.o.equality);
      this.features.set(p.page.key, f);
    }
    return f;
  }

  /**
   * Step 3: Algorithm 2 over the set; pages of another template (by shared texts, never all of them) or of
   * another page class (by structure, page-classes.ts) are set aside as long as `agreeingPages` remain,
   * else further linked pages are tried (widen), and failing that none is set aside.
   */
  async algorithm2(key: KeyPage, found: Found, set: LearningSet): Promise<{ ext: ExtractedTemplate; dropped: SetAside[]; widened: string[] }> {
    const { o } = this;
    const keyF = (this.keyF = new NodeFeatures(key.tree, o.equality));
    const extractFrom = (pages: readonly Loaded[]): ExtractedTemplate => extractTemplate(o.equality, keyF, pages.map((p) => ({ key: p.page.key, features: this.featuresOf(p) })), this.scratch);
    let ext = extractFrom(set.pages);
    for (const k of ext.skipped) this.warn(`${k}: its root is not equal to the key page's; left out of the template (Algorithm 2)`);
    const classes = o.pageClasses ? new PageClasses(key.tree, key.page.url, (u) => this.source.keyOf(u)) : null;
    const setAside = (e: ExtractedTemplate): SetAside[] => this.setAside(keyF, classes, e);
    let pool = set.pages;
    let dropped = setAside(ext);
    const widened: string[] = [];
    if (dropped.length > 0 && ext.maps.length - dropped.length < o.agreeingPages) {
      const w = await this.widen(key, found, pool, extractFrom, setAside, widened);
      pool = w?.pool ?? set.pages;
      dropped = w?.dropped ?? [];
    }
    if (dropped.length > 0 || pool !== set.pages) {
      for (const d of dropped) this.warn(`${d.key}: ${d.why}; left out`);
      ext = extractFrom(pool.filter((p) => !dropped.some((d) => d.key === p.page.key)));
    }
    if (ext.maps.length === 0) {
      throw new EngineError('no-shared-template', `${key.page.key}: none of the ${set.pages.length} page(s) found shares the key page's root; no template can be justified`);
    }
    return { ext, dropped, widened };
  }

  /** The pages of an extraction to set aside: of another template by their shared texts, of another page class by their structure. */
  private setAside(keyF: NodeFeatures, classes: PageClasses | null, e: ExtractedTemplate): SetAside[] {
    const byText: SetAside[] = differentTemplates(keyF, e, this.o.differentTemplateShare).map((d) => ({
      key: d.key,
      why: `shares ${d.shared} of the key page's texts where the best page shares ${d.best}; it seems to use another template`,
    }));
    if (!classes) return byText;
    const out = [...byText];
    for (const m of e.maps) classes.add(m.key, m.features.tree, this.loaded.get(m.key)?.page.url ?? this.source.urlOf(m.key));
    for (const m of e.maps) {
      if (byText.some((d) => d.key === m.key)) continue;
      const sim = classes.similarity(m.key);
      if (sim < classes.threshold) out.push({ key: m.key, why: `its structure is of another page class than the key page's (page schema similarity ${sim.toFixed(2)} < ${classes.threshold})` });
    }
    return out.length < e.maps.length ? out : byText;
  }

  /**
   * Further linked pages (those loaded but outside the CS first, then the next links), at most n of them,
   * until `agreeingPages` pages of the key page's template remain once pages are set aside; undefined
   * (with a warning) when they do not make up for it.
   */
  private async widen(key: KeyPage, found: Found, start: Loaded[], extractFrom: (pages: readonly Loaded[]) => ExtractedTemplate, setAside: (e: ExtractedTemplate) => SetAside[], widened: string[]): Promise<{ pool: Loaded[]; dropped: SetAside[] } | undefined> {
    const { o } = this;
    let pool = start;
    const inPool = new Set(pool.map((p) => p.page.key));
    const tried = new Set(found.tried);
    const candidates = [...[...this.loaded.keys()].filter((k) => !inPool.has(k)), ...key.ordered.filter((k) => !this.loaded.has(k) && !tried.has(k))];
    for (const k of candidates) {
      if (widened.length >= o.n || (!this.loaded.has(k) && this.loads - 1 >= o.maxLoad)) break;
      const l = await this.load(k, key.urlOfKey.get(k) ?? this.source.urlOf(k));
      if (!l) continue;
      widened.push(l.page.key);
      pool = [...pool, l];
      const e = extractFrom(pool);
      const d = setAside(e);
      if (e.maps.length - d.length >= o.agreeingPages) return { pool, dropped: d };
    }
    this.warn(`${key.page.key}: fewer than ${o.agreeingPages} pages of the complete subdigraph share the key page's template, and ${widened.length} further page(s) did not make up for it; no page is set aside`);
    return undefined;
  }

  /**
   * Step 3, continued: same-word elements (template whole, before bars and regions are read), navigation
   * bars' changing cells and navigation regions.
   */
  navigation(key: KeyPage, ext: ExtractedTemplate): { learned: LearnedTemplate; regions: number[]; sameWords: number[] } {
    const { o } = this;
    const keyTree = key.tree;
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
    const learned: LearnedTemplate = { eq: o.equality, key: this.keyF!, template: ext.template, regions, linkShare: o.linkShare, regionsDecidedBy: o.regionsDecidedBy, slotShare: D.contentSlotShare, cells: o.navigationBars, unmappedCells: o.unmappedCells, sameWords };
    return { learned, regions, sameWords };
  }
}
