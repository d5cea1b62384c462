/**
 * Thresholds and defaults of structural crawling and clustering (paper 4: Blanco, Crescenzi, Merialdo,
 * "Efficiently locating collections of web pages to wrap", WEBIST 2005). Each is named, with the paper's
 * value and why; options override them. The lead merges these into src/defaults.ts.
 */
export const COLLECT_DEFAULTS = {
  /**
   * T, the Jaccard threshold above which two page schemas are "similar" (section 2, "Page similarity";
   * footnote 2: "In our experiments, we have set T = 0.85").
   */
  similarity: 0.85,
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
   * attributes (script hooks carrying one item's data, e.g. stackoverflow's `data-gps-track="…target_site:579…"`,
   * which made each question page a cluster of its own) are left out too.
   * `id` is left out as well: on the corpus its values name one page's headings (`h4 id="we-see-a-blog…"`),
   * which made pages of one class dissimilar (jekyll-blog posts: mean Jaccard 0.29 with ids, 1.0 without).
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
   * Words of its own text that make an anchor's parent a sentence, and the anchor an editorial link in
   * running text rather than a navigation link (link-collections.ts, `inline`). The paper's sites were
   * database-driven and their content held few links; documentation and blog pages put many links in
   * their prose, in structures (nested sections, lists, notes) that vary from page to page and would
   * make pages of one class dissimilar. 6 words is more than the label of a generated list item
   * ("May 18, 2019:") and less than a sentence.
   */
  proseWords: 6,
  /**
   * How deep the recursion of step 3 ("Recursion to catch index pages") may go. The paper recurses without
   * stating a bound; a bound keeps a run finite on sites whose index pages are reached only through long
   * chains of other index pages. 3 covers target ← index ← index-of-index ← one more level.
   */
  maxDepth: 3,
  /**
   * Rings of neighbourhood widening (indesit.ts): when no neighbouring cluster leads back to the target,
   * step 1 runs again from the neighbours' pages, this many times at most. 0 is the paper (one link deep);
   * 1 reaches index pages two links away from the target, as jekyll-blog's tag pages are from its posts
   * (through the list of tags): post recall 0.16–0.22 with 0, see eval/collect.eval.ts.
   */
  rings: 1,
  /** Safety cap on downloads in one run (a crawler is a guest); the run stops and says so when reached. */
  maxDownloads: 10_000,
} as const;
