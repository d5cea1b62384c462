/**
 * Thresholds and defaults of structural crawling and clustering (paper 4: Blanco, Crescenzi, Merialdo,
 * "Efficiently locating collections of web pages to wrap", WEBIST 2005). Each is named, with the paper's
 * value and why; options override them. src/defaults.ts re-exports them. They sit with the page model
 * (page schemas, link collections, text region, layout) below the engines: collect (INDESIT), cluster and
 * the hyperlink engine's page classes all read them.
 */
export const COLLECT_DEFAULTS = {
  /**
   * T, the similarity threshold above which two page schemas are "similar" for INDESIT (section 2, "Page
   * similarity"; footnote 2: "In our experiments, we have set T = 0.85"). Here the similarity is the lower
   * of the Jaccard coefficients of links and frames, vetoed by contents with nothing in common
   * (src/structure/page-schema.ts). 0.8: chosen by leave-one-site-out cross-validation over {0.85, 0.8, 0.75, 0.7, 0.65,
   * 0.6} (eval/collect.eval.ts; figures in docs/collect.md), the same value as for clustering. Chosen again with
   * the shape threshold leaving one generator out: 0.75 and 0.8 meet the target on the same 35 of 51 runs,
   * 0.75 with a higher mean min(R, P) (0.863 against 0.856); 0.8 is kept, the hyperlink template's page
   * classes (src/template/hyperlink/page-classes.ts) sharing this default.
   */
  similarity: 0.8,
  /**
   * T for structural clustering (src/cluster/schema.ts, `gabarit cluster`): 0.8, chosen by
   * leave-one-set-out cross-validation over 0.85 … 0.5 (eval/cluster.eval.ts; every held-out fold chose it).
   * Clustering links every page of a site by single linkage, where INDESIT grows its target from one sample
   * only: a stricter T.
   */
  clusterSimilarity: 0.8,
  /**
   * n of step 1 (section 3.1, footnote 3: "We set n=3"): once this many links of one link collection
   * have led to pages of the same cluster, the rest of the collection is not followed (the homologous
   * link conjecture: the skipped links most likely lead to that cluster again).
   */
  sameClusterLinks: 3,
  /**
   * The attributes that, with the tag name, make up one step of a tag-list (section 2, footnote 1: "we
   * also consider the name and value of HTML attributes associated to the nodes of the path"). The paper
   * does not say which. 'all' keeps every attribute but `ignoredAttributes`.
   */
  schemaAttributes: 'all' as 'all' | 'none' | readonly string[],
  /**
   * Attributes left out of tag-list steps: those that carry the data of one link or one page (its URL,
   * its text, its size, its date) rather than layout or presentation. Kept, they would make the path of
   * every anchor unique and every schema disjoint from every other. Event handlers (`on*`) and `data-*`
   * attributes (script hooks carrying one item's data, which made each page a cluster of its own) are left
   * out too. `id` is left out as well: its values often name one page's headings (`h4 id="we-see-a-blog…"`),
   * which made pages of one class dissimilar (docs/collect.md, "How the page-model options were measured").
   */
  ignoredAttributes: [
    'id',
    'href', 'src', 'srcset', 'title', 'alt', 'name', 'value', 'content', 'style', 'action', 'datetime',
    'width', 'height', 'tabindex', 'aria-label', 'aria-describedby', 'hreflang', 'download', 'target',
    'rel', 'lang', 'dir', 'for', 'placeholder', 'sizes', 'loading', 'decoding', 'integrity', 'crossorigin',
  ] as readonly string[],
  /**
   * Runs of equal consecutive steps count once (`section > section > p > a` is `section > p > a`): the
   * nesting depth of sections and lists follows a page's headings, not its template.
   */
  collapseRepeats: true,
  /**
   * Keep in the schema the tag-lists of collections whose links all leave the site (src/structure/page-schema.ts), as the
   * paper keeps every path; clustering always did. With links in articles one collection (text-region.ts),
   * the off-site collections left are the template's (social buttons) or a page's own lists, and a list
   * whose links only look off-site (protocol-relative) stays part of its page's schema (docs/collect.md).
   */
  offSiteLinks: true,
  /**
   * Words of its own text that make an anchor's parent a sentence, and the anchor an editorial link in
   * running text rather than a navigation link (link-collections.ts, `inline`). The paper's sites were
   * database-driven and their content held few links; documentation and blog pages put many links in
   * their prose, in structures (nested sections, lists, notes) that vary from page to page and would
   * make pages of one class dissimilar. 6 words is more than the label of a generated list item
   * ("May 18, 2019:") and less than a sentence.
   */
  proseWords: 6,
  /**
   * Departure from the paper's model (text-region.ts): the links under a page's text region (the article:
   * the path under which most of its running text lies) form one link collection, `… > #text`, instead of
   * one collection per root-to-anchor path. The paper's sites were database-driven, every path laid down by
   * the template; in authored articles each paragraph, list, note or header field holding a link adds a
   * path of its own, and pages of one class fell apart. Measured with eval/collect.eval.ts and
   * eval/cluster.eval.ts (docs/collect.md). `false` is the paper.
   */
  textRegion: true,
  /**
   * Share of the page's running-text words that a child path must hold for the text region to descend
   * into it (text-region.ts): nearly all of it, so that the region is the article, not its longest part.
   * Lists and tables are never a region (text-region.ts), so a page that is one long list keeps its article
   * as region. Measured on the corpus (docs/collect.md).
   */
  textRegionShare: 0.8,
  /**
   * Running-text words a page needs to have a text region: below this, a page is a list of links with
   * little text (a menu, a listing), and its collections stay one per path, as in the paper. Chosen with
   * T by leave-one-set-out cross-validation among {50, 20} (eval/cluster.eval.ts, docs/collect.md): with 50,
   * short pages of a class (a placeholder PEP, an annotation type of a Javadoc site) had no region and
   * fell out of their class.
   */
  textRegionWords: 20,
  /**
   * Link density (share of its words that are link text) above which a text region is an index with some
   * text rather than an article (link-collections.ts): there, lists of links (`textRegionListLinks`) stay
   * collections of their own, since they are the class-links INDESIT harvests (the PEP index's table of
   * 1000 PEPs); in an article they are part of the text. Set between the link densities of articles and
   * of index pages on the corpus (docs/collect.md).
   */
  textRegionLinkDensity: 0.25,
  /**
   * In a link-dense text region, links outside running text sharing one path, at least this many, form a
   * list (an index's table) that stays a link collection of its own; fewer (a header field, a "see also")
   * join the text. Lists in articles are not kept at all: an article's list of references would make it
   * unlike the other articles of its class (docs/collect.md).
   */
  textRegionListLinks: 10,
  /**
   * The links of a list (`ul`, `ol`, `menu`, `dl`), however deeply nested, make one feature of the page schema:
   * the outermost list's path (link-collections.ts `TagLists.listFeature`). Link collections, which INDESIT
   * follows, stay the paper's, one per tag-list.
   */
  listRoots: true,
  /**
   * How deep the recursion of step 3 ("Recursion to catch index pages") may go. The paper recurses without
   * stating a bound; a bound keeps a run finite on sites whose index pages are reached only through long
   * chains of other index pages. 3 covers target ← index ← index-of-index ← one more level.
   */
  maxDepth: 3,
  /**
   * Rings of neighbourhood widening (src/collect/indesit.ts): when no neighbouring cluster leads back to the target,
   * step 1 runs again from the neighbours' pages, this many times at most. 0 is the paper (one link deep);
   * 1 reaches index pages two links away from the target, as a blog's tag pages are from its posts
   * (through the list of tags; docs/collect.md).
   */
  rings: 1,
  /**
   * Step 2 scores a class-link 0 "as soon as a link leads to a page whose schema is not similar to the
   * schema of C0" (section 3.1). The paper's conjecture is that "most (possibly all)" links of a
   * class-link are homologous (section 2); with the first unlike page fatal, one odd page of a class (a
   * placeholder PEP with no text: pep-0801) killed the PEP index's table of 1000 links. Here the class-link
   * dies when its unlike pages exceed this share of the pages it led to so far: the first link still
   * decides alone (1 > 0.15 × 1), a stray needs 7 target pages before it. 0 is the paper. 0.15: chosen with
   * T and the shape threshold by leave-one-generator-out cross-validation against 0.05 (eval/collect.eval.ts):
   * every fold chose it, meeting the target on the same runs with fewer pages fetched (docs/collect.md).
   */
  strayShare: 0.15,
  /**
   * Compare page layouts beside link tag-lists (page-schema.ts, layout.ts). false is the paper (links only).
   */
  layout: true,
  /**
   * Pages of one structure in different sections of the site (top-level folders with their own index page,
   * src/structure/sections.ts) are different classes: clusters are split by section, and collect's target
   * keeps to the sample's section. false: structure alone.
   */
  sections: true,
  /**
   * Depth of the content (steps from the root) when no page read so far shows one (layout.ts `LayoutDepth`):
   * html > body > two levels of containers.
   */
  layoutDepth: 4,
  /**
   * Weighted Jaccard similarity of page shapes (src/structure/page-shape.ts, template paths of the pages read
   * weighing little) at or above which a page whose address names the sample's typed kind (`struct.Vec.html`,
   * addresses.ts `AddressKinds`) joins the sample's class though its schema differs (item lists under
   * headings named after the items), or a page of the sample's section once sections are known apart (a
   * documentation's how-tos, each written its own way). Chosen with T by leave-one-generator-out
   * cross-validation (eval/collect.eval.ts): on all sites 0.8/0.2 (docs/collect.md); 0.3 left the how-tos of
   * python-docs 0.13–0.6 apart in shape to one another, those below it unlike pages that killed the section
   * index's table of contents.
   */
  shapeSimilarity: 0.2,
  /**
   * Levels of a page's frame kept below the depth of the site's content (layout.ts): 0 stops at the
   * content's level; 1 would keep the children of the containers at that level (a header's title and
   * subtitle beside the article). Chosen with T by leave-one-set-out cross-validation among {0, 1}
   * (eval/cluster.eval.ts).
   */
  layoutBelow: 0,
  /**
   * Levels of the structure of a page's content area kept in its schema (page-structure.ts, page-schema.ts): its
   * blocks one level down. 0 leaves the content out (the schema of links and frame).
   */
  contentLevels: 1,
  /**
   * Dead links (src/collect/indesit.ts): a collection is given up once this many of its links in a row were
   * dead, whatever it reached before (a partial copy's index lists the pages copied, then hundreds that are
   * not: the PEP index of the corpus). Scattered dead links (an item list naming items of a module outside the
   * copy) rarely run this long. Links into a folder are no longer tried once `sameClusterLinks` of them were
   * dead and no page of the folder or below it was read.
   */
  deadRun: 10,
  /** Safety cap on downloads in one run (a crawler is a guest); the run stops and says so when reached. */
  maxDownloads: 10_000,
} as const;
