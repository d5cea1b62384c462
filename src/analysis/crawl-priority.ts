/**
 * Crawl priority with templates: paper 3, section 4, "Case 2: Focused Crawling", item 2: "pages which are
 * pointed to out of template pagelets can be assigned a reduced priority for crawling". A crawler does not
 * know the site's templates before it has fetched it, so `TemplateAwarePriority` learns them online with the
 * local algorithm's rule (Figure 4): a pagelet whose shingle has been seen on `minPages` fetched pages of
 * the site is template. Each fetched page's links then get a priority: `contentPriority` when at least one
 * non-template pagelet links to the URL, `templatePriority` (lower) when only template pagelets do.
 *
 * How a crawler plugs it in: HttpSource takes `linkPriority` (one `TemplateAwarePriority` per crawl) and
 * orders its frontier by it, highest first, equal priorities in discovery order; a URL found again keeps
 * the highest priority it was given (`gabarit crawl <url> --template-priority`). Other crawlers can call
 * `observe(tree, pageUrl)` after parsing each fetched page and queue the returned links by `priority`.
 */
import type { Tree } from '../html/tree.ts';
import type { LinkPriority } from '../site/http-source.ts';
import { linkCounts, pageletOf, partition } from '../template/pagelets/partition.ts';
import { pageLinks } from '../template/pagelets/links.ts';
import { NO_SHINGLE, shinglePagelets, type ShingleOptions } from '../template/pagelets/shingle.ts';

/** Options of the crawl priority. */
export interface CrawlPriorityOptions extends ShingleOptions {
  /** k of Definition 2 (default 3). */
  k?: number;
  /** Fetched pages a pagelet must be seen on to count as template (default 3). */
  minPages?: number;
  /** Priority of a link found in a content (non-template) pagelet (default 1). */
  contentPriority?: number;
  /** Priority of a link found only in template pagelets (default 0.25). */
  templatePriority?: number;
}

/** A link of a fetched page with its crawl priority. */
export interface PrioritisedLink {
  url: string;
  priority: number;
  /** True when only template pagelets link to it. */
  templateOnly: boolean;
}

/**
 * Priorities for a page's links given which of its pagelets are template (a pure function, for callers
 * that already ran a template detection).
 */
export function linkPriorities(
  linkPagelet: Int32Array,
  linkUrl: readonly string[],
  template: Uint8Array,
  options: Pick<CrawlPriorityOptions, 'contentPriority' | 'templatePriority'> = {},
): PrioritisedLink[] {
  const hi = options.contentPriority ?? 1;
  const lo = options.templatePriority ?? 0.25;
  const fromContent = new Map<string, boolean>();
  for (let j = 0; j < linkUrl.length; j++) {
    const p = linkPagelet[j]!;
    const content = p < 0 || template[p] !== 1;
    const u = linkUrl[j]!;
    fromContent.set(u, (fromContent.get(u) ?? false) || content);
  }
  return [...fromContent].map(([url, content]) => ({ url, priority: content ? hi : lo, templateOnly: !content }));
}

/** Learns a site's template pagelets while crawling and prioritises each fetched page's links. */
export class TemplateAwarePriority {
  private readonly seen = new Map<number, number>();
  private readonly options: CrawlPriorityOptions;

  constructor(options: CrawlPriorityOptions = {}) {
    this.options = options;
  }

  /**
   * Records a fetched page (its pagelets' shingles) and returns which of its pagelets are template now,
   * with the page's pagelets and the pagelet holding each node.
   */
  private learn(tree: Tree, pageUrl: string): { template: Uint8Array; owner: Int32Array; links: ReturnType<typeof pageLinks> } {
    const o = this.options;
    const counts = linkCounts(tree);
    const pagelets = partition(tree, { k: o.k ?? 3, counts });
    const links = pageLinks(tree, pageUrl);
    const shingles = shinglePagelets(tree, pagelets, links.node, links.dest, o);
    const minPages = o.minPages ?? 3;
    const template = new Uint8Array(pagelets.length);
    const onPage = new Set<number>();
    for (let p = 0; p < shingles.length; p++) {
      const s = shingles[p]!;
      if (s === NO_SHINGLE) continue;
      if (!onPage.has(s)) {
        onPage.add(s);
        this.seen.set(s, (this.seen.get(s) ?? 0) + 1);
      }
      if (this.seen.get(s)! >= minPages) template[p] = 1;
    }
    return { template, owner: pageletOf(tree, pagelets), links };
  }

  /** Records a fetched page and returns its links with priorities (self-links left out). */
  observe(tree: Tree, pageUrl: string): PrioritisedLink[] {
    const { template, owner, links } = this.learn(tree, pageUrl);
    const linkPagelet = Int32Array.from(links.node, (n) => owner[n]!);
    const self = new URL(pageUrl);
    self.hash = '';
    return linkPriorities(linkPagelet, links.href, template, this.options).filter((l) => l.url !== self.href);
  }

  /**
   * The crawler's hook (HttpSource option `linkPriority`): records the fetched page and gives each of its
   * link nodes `contentPriority` when it lies outside the template pagelets, `templatePriority` inside.
   * The crawl keeps the highest priority a URL gets, so a URL also linked from content is not lowered.
   */
  readonly linkPriority: LinkPriority = (page, tree, links) => {
    const { template, owner } = this.learn(tree, page.url);
    const hi = this.options.contentPriority ?? 1;
    const lo = this.options.templatePriority ?? 0.25;
    return Float64Array.from(links, (l) => {
      const p = owner[l.node] ?? -1;
      return p >= 0 && template[p] === 1 ? lo : hi;
    });
  };
}
