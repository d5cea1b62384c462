/**
 * gabarit/crawlee: the papers at crawl time, inside a Crawlee `CheerioCrawler` or `HttpCrawler` request
 * handler. Crawlee is a peer dependency: this module loads `@crawlee/core` only to open the default
 * key-value store when none is given, and the root `gabarit` entry never loads it.
 *
 *  - `SiteModels`: one model per site (URL host). It holds the site's first pages until the template
 *    engine's own minimum (align's sample, 8 pages), learns the template from them (`learnTemplate`), keeps
 *    it in a key-value store as the site's template.json (key `gabarit-template-<host>`) so that a resumed
 *    crawl does not learn again, and gives every page its main content (`pageContent`: what `gabarit content`
 *    gives with that template; before learning, the page's main block alone), metadata, and its links,
 *    those only template pagelets point to told apart (paper 3's online rule, `TemplateAwarePriority`).
 *  - `enqueueByPriority`: paper 3's crawl priority: links from content enqueued at the front of the queue,
 *    template links at the back (or not at all).
 *  - `PagesLike`: paper 4's class of a sample page: tells whether a page is of the class, and enqueues the
 *    links of the link collections that lead to pages of the class (homologous links: a collection's first
 *    links are tried, the rest follow once one of them led to the class; a collection whose first links
 *    all led elsewhere is left).
 */
import { TemplateAwarePriority, type CrawlPriorityOptions, type PrioritisedLink } from '../analysis/crawl-priority.ts';
import { LabelTable } from '../html/labels.ts';
import { parseHtml } from '../html/parse.ts';
import type { Tree } from '../html/tree.ts';
import { MemorySource } from '../site/memory-source.ts';
import { COLLECT_DEFAULTS } from '../structure/defaults.ts';
import { type LinkCollection, TagLists } from '../structure/link-collections.ts';
import { type PageSchema, similarity } from '../structure/page-schema.ts';
import { readStructure, schemaOfStructure } from '../structure/page-structure.ts';
import { ALIGN_DEFAULTS } from '../template/align/defaults.ts';
import { readTemplate, type Template, type TemplateSet } from '../template/learned.ts';
import { learnTemplate } from '../run/learn.ts';
import { pageContent, type PageContent } from '../run/page-content.ts';

/** The part of Crawlee's KeyValueStore the models use (`KeyValueStore.open()` gives one). */
export interface TemplateStore {
  getValue(key: string): Promise<unknown>;
  setValue(key: string, value: unknown): Promise<void>;
}

/** The part of a Crawlee crawling context (CheerioCrawler, HttpCrawler) the functions read. */
export interface CrawlContext {
  request: { url: string; loadedUrl?: string | undefined; userData: Record<string, unknown> };
  body: string | Buffer;
  enqueueLinks(options: { urls: string[]; forefront?: boolean; userData?: Record<string, unknown> }): Promise<unknown>;
}

/** Options of `SiteModels`. */
export interface SiteModelOptions {
  /** Where templates are kept (default: Crawlee's key-value store named TEMPLATE_STORE). */
  store?: TemplateStore;
  /** Template engine (default align). */
  method?: 'align' | 'pagelets' | 'hyperlink';
  /** Options of the engine (those of `gabarit template`). */
  engineOptions?: Record<string, unknown>;
  /** Pages of a site held before learning (default: align's sample, 8; at least 2). */
  minPages?: number;
  /** Paper 3's online template rule for links (`TemplateAwarePriority` options). */
  priority?: CrawlPriorityOptions;
  /** Warnings (a site that could not be learned, a page's metadata): default none. */
  onWarning?: (message: string) => void;
}

/** A page as the model gives it: its main content and metadata, and its links. */
export interface GabaritPage extends PageContent {
  /** True when the site's learned template marked the page (false: its main block alone). */
  learned: boolean;
  /** Links from the page's content (non-template pagelets), for a crawler to follow first. */
  links: string[];
  /** Links that only template pagelets point to. */
  templateLinks: string[];
  /** Every link with its paper 3 priority. */
  prioritised: PrioritisedLink[];
}

/** One site's state: pages held, its template once learned, its link priority. */
interface Site {
  held: Map<string, string>;
  template?: Template | TemplateSet;
  learning?: Promise<void>;
  /** True once learning was tried and failed: the site's pages stay alone. */
  failed?: boolean;
  loaded?: Promise<void>;
  priority: TemplateAwarePriority;
}

/**
 * The named key-value store templates are kept in by default: Crawlee purges its default stores when a
 * crawl starts afresh, not the named ones.
 */
export const TEMPLATE_STORE = 'gabarit-templates';

/** The store key of a site's template (Crawlee keys allow letters, digits and `!-_.'()`). */
export function templateKey(host: string): string {
  return `gabarit-template-${host.replace(/[^a-zA-Z0-9!\-_.'()]/g, '-')}`;
}

/** The key of a page under its site's root (a MemorySource key). */
function pageKey(url: URL): string {
  const path = url.pathname.replace(/^\//, '');
  return (path === '' || path.endsWith('/') ? `${path}index.html` : path) + url.search.replace(/[?&=]/g, '_');
}

/** Per-site models learning each site's template online (see the module comment). */
export class SiteModels {
  private readonly sites = new Map<string, Site>();
  private readonly minPages: number;
  private storeOpened?: Promise<TemplateStore>;

  constructor(private readonly options: SiteModelOptions = {}) {
    this.minPages = Math.max(2, options.minPages ?? (options.engineOptions?.['sample'] as number | undefined) ?? ALIGN_DEFAULTS.sample);
  }

  private store(): Promise<TemplateStore> {
    if (this.options.store) return Promise.resolve(this.options.store);
    this.storeOpened ??= import('@crawlee/core').then((c) => c.KeyValueStore.open(TEMPLATE_STORE));
    return this.storeOpened;
  }

  /** The site of a host, its template read from the store once. */
  private async site(host: string): Promise<Site> {
    let s = this.sites.get(host);
    if (!s) {
      s = { held: new Map(), priority: new TemplateAwarePriority(this.options.priority) };
      const site = s;
      this.sites.set(host, s);
      s.loaded = this.store().then(async (store) => {
        const saved = await store.getValue(templateKey(host));
        if (saved !== null && saved !== undefined) site.template = readTemplate(saved);
      });
    }
    await s.loaded;
    return s;
  }

  /** The template learned for a host, if any. */
  async template(url: string): Promise<Template | TemplateSet | undefined> {
    return (await this.site(new URL(url).host)).template;
  }

  /** Learns a site's template from its held pages and stores it. */
  private async learn(host: string, site: Site, origin: string): Promise<void> {
    const pages = [...site.held].map(([key, body]) => ({ key, body }));
    site.held.clear();
    try {
      const { template } = await learnTemplate(new MemorySource(pages, { root: `${origin}/` }), {
        method: this.options.method ?? 'align',
        ...(this.options.engineOptions ?? {}),
      });
      site.template = template;
      await (await this.store()).setValue(templateKey(host), template);
    } catch (err) {
      site.failed = true;
      this.options.onWarning?.(`${origin}: no template learned (${err instanceof Error ? err.message : String(err)}); its pages get their main block alone`);
    }
  }

  /** A fetched page's content, metadata and links (HTML text or bytes, UTF-8). */
  async page(html: string | Buffer, pageUrl: string): Promise<GabaritPage> {
    const text = typeof html === 'string' ? html : html.toString('utf8');
    const url = new URL(pageUrl);
    const site = await this.site(url.host);
    if (!site.template && !site.failed) {
      if (site.learning) await site.learning;
      else {
        site.held.set(pageKey(url), text);
        if (site.held.size >= this.minPages) {
          site.learning = this.learn(url.host, site, url.origin);
          await site.learning;
        }
      }
    }
    const content = pageContent(site.template, text, pageUrl);
    for (const w of content.warnings) this.options.onWarning?.(w);
    const prioritised = site.priority.observe(content.marks.tree, pageUrl);
    return {
      ...content,
      learned: site.template !== undefined && content.method !== 'main-block',
      links: prioritised.filter((l) => !l.templateOnly).map((l) => l.url),
      templateLinks: prioritised.filter((l) => l.templateOnly).map((l) => l.url),
      prioritised,
    };
  }

  /** The page of a crawling context (its loaded URL and body). */
  async fromContext(context: CrawlContext): Promise<GabaritPage> {
    return this.page(context.body, context.request.loadedUrl ?? context.request.url);
  }
}

/** Where paper 3's crawl priority puts links only template pagelets point to. */
export interface PriorityOptions {
  /** 'last' (default): at the back of the queue; 'skip': not enqueued. */
  templateLinks?: 'last' | 'skip';
}

/**
 * Paper 3's crawl priority from a request handler: the page's content links at the front of the request
 * queue, its template links at the back (or left). Crawlee keeps a URL's first place in the queue: a URL
 * enqueued from a template first is not moved forward when content links to it later.
 */
export async function enqueueByPriority(context: CrawlContext, page: GabaritPage, options: PriorityOptions = {}): Promise<void> {
  if (page.links.length > 0) await context.enqueueLinks({ urls: page.links, forefront: true });
  if ((options.templateLinks ?? 'last') === 'last' && page.templateLinks.length > 0) await context.enqueueLinks({ urls: page.templateLinks });
}

/** Options of `PagesLike`. */
export interface PagesLikeOptions {
  /** Similarity to the sample's schema for a page to be of its class (default COLLECT_DEFAULTS.similarity). */
  similarity?: number;
  /** Links of a collection tried before its other links wait on them (default COLLECT_DEFAULTS.sameClusterLinks). */
  probes?: number;
}

/** What `PagesLike.judge` tells of a page. */
export interface Judged {
  /** True when the page is of the sample's class (the sample itself included). */
  inClass: boolean;
  /** Similarity of its schema to the sample's (1 for the sample). */
  similarity: number;
}

/** The collection (tag-list) a request was enqueued from, in its userData. */
const LIST = 'gabaritList';

/** One link collection's record: pages of the class and others it led to, links waiting on it. */
interface ListRecord {
  hits: number;
  misses: number;
  tried: number;
  waiting: string[];
}

/**
 * Paper 4's class of a sample page during a crawl that starts at it (see the module comment). The first
 * page judged is the sample; its content depth is the one every page's schema is read at.
 */
export class PagesLike {
  private readonly tagLists = new TagLists();
  private readonly labels = new LabelTable();
  private readonly lists = new Map<number, ListRecord>();
  /** URLs enqueued; a URL waiting on one collection may still be enqueued from another. */
  private readonly enqueued = new Set<string>();
  private sample?: PageSchema;
  private depth: number = COLLECT_DEFAULTS.layoutDepth;
  private readonly threshold: number;
  private readonly probes: number;

  constructor(options: PagesLikeOptions = {}) {
    this.threshold = options.similarity ?? COLLECT_DEFAULTS.similarity;
    this.probes = options.probes ?? COLLECT_DEFAULTS.sameClusterLinks;
  }

  /** Judges a fetched page and enqueues the links worth following (see the module comment). */
  async judge(context: CrawlContext, tree?: Tree): Promise<Judged> {
    const url = context.request.loadedUrl ?? context.request.url;
    const t = tree ?? parseHtml(typeof context.body === 'string' ? context.body : context.body.toString('utf8'), { labels: this.labels });
    const origin = new URL(url).origin;
    const structure = readStructure(t, url, this.tagLists, { keyOf: (u) => (u.startsWith(`${origin}/`) ? u : undefined) });
    if (this.sample === undefined && structure.contentDepth >= 0) this.depth = structure.contentDepth;
    const schema = schemaOfStructure(structure, this.tagLists, this.depth);
    this.sample ??= schema;
    const sim = similarity(schema, this.sample);
    const inClass = sim >= this.threshold;
    const from = context.request.userData[LIST];
    const release: string[] = [];
    if (typeof from === 'number') {
      const r = this.lists.get(from);
      if (r) {
        if (inClass) {
          r.hits++;
          for (const u of r.waiting.splice(0)) if (!this.enqueued.has(u)) release.push(u);
          for (const u of release) this.enqueued.add(u);
        } else r.misses++;
      }
    }
    for (const [list, urls] of this.follow(structure.collections)) await context.enqueueLinks({ urls, forefront: this.lists.get(list)!.hits > 0, userData: { [LIST]: list } });
    if (release.length > 0) await context.enqueueLinks({ urls: release, forefront: true, userData: { [LIST]: from } });
    return { inClass, similarity: sim };
  }

  /** The links of each on-site collection to enqueue now; the others of a collection not proven wait. */
  private follow(collections: readonly LinkCollection[]): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const c of collections) {
      if (c.offSite) continue;
      let r = this.lists.get(c.tagList);
      if (!r) {
        r = { hits: 0, misses: 0, tried: 0, waiting: [] };
        this.lists.set(c.tagList, r);
      }
      // Homologous links: once a collection's probes all led elsewhere, its links are left.
      if (r.hits === 0 && r.misses >= this.probes) continue;
      for (const l of c.links) {
        if (this.enqueued.has(l.url)) continue;
        if (r.hits === 0 && r.tried >= this.probes) {
          r.waiting.push(l.url);
          continue;
        }
        this.enqueued.add(l.url);
        r.tried++;
        const urls = out.get(c.tagList) ?? [];
        urls.push(l.url);
        out.set(c.tagList, urls);
      }
    }
    return out;
  }
}
