/**
 * Thresholds and defaults of the pagelets engine (paper 3: Bar-Yossef & Rajagopalan, "Template Detection
 * via Data Mining and its Applications", WWW 2002). Each one names the paper's value where the paper gives
 * one, and why we chose the value where it does not. src/defaults.ts re-exports them.
 */
export const PAGELET_DEFAULTS = {
  /**
   * k of Definition 2: an element whose child holds at least k hyperlinks is split into its children.
   * The paper: "in our implementation we use k = 3".
   */
  k: 3,
  /**
   * Width w of the w-shingles (Broder et al. 1997) taken over a pagelet's token sequence. Broder used 10
   * words for whole documents; pagelets are short (a menu item is 3–6 tokens), so 4 keeps several
   * shingles even in small pagelets while a one-word edit still changes only 4 of them.
   */
  shingleWidth: 4,
  /**
   * Number m of min-hash functions whose minima make up a pagelet's fingerprint. Two pagelets get the same
   * fingerprint with probability about J^m (J the Jaccard resemblance of their shingle sets): m = 2 keeps
   * pagelets that are 95 % alike together about 90 % of the time, and lets pagelets that share half their
   * shingles collide only a quarter of the time. Chosen by leave-one-generator-out cross-validation over
   * {2, 4, 6} (docs/engines.md; 4 before): near-identical menus (one entry a link on some pages, plain
   * words on others) stay together more often.
   */
  minhashes: 2,
  /**
   * Link targets as shingle tokens. Off: a menu is known by its anchor texts and structure; "next /
   * previous" bars whose targets change on every page stay alike. Tuned on the corpus sites.
   */
  linkTargets: false,
  /**
   * Every word made only of digits becomes one token, so "PEP 801" and "PEP 802", dates and section
   * numbers in breadcrumbs and footers are small perturbations, not new shingles. Tuned on the corpus.
   */
  foldDigits: true,
  /**
   * Navigation pagelets (navigation.ts): a pagelet of links outside the page's content region is
   * shingled by its place and structure, not its words, so prev/next bars and open menu sections repeat.
   * Chosen by leave-one-generator-out cross-validation (docs/engines.md).
   */
  navigationPagelets: true,
  /**
   * Share of the text outside links (of `<main>` or the body) that the content region holds (the
   * `contentShare` option). Most of it, so that the region stops at the article's container rather than at
   * its longest paragraph: with a half, an article whose one paragraph holds half its prose has that
   * paragraph for region, and a paragraph of links beside it ("See X, Y and Z.") is taken for navigation
   * and lost (test/template/pagelets/navigation.test.ts). Cross-validation over {0.5, 0.8} on all sites
   * prefers 0.5 by 0.0007 of the mean objective (docs/engines.md): gains on two sites, losses on three;
   * 0.8 is kept for the reason above, and the held-out figures choose between both per fold.
   */
  contentShare: 0.8,
  /**
   * HTML's landmarks as pagelet boundaries (partition.ts): `<nav>`, `<header>`, `<footer>`, `<aside>` and
   * the ARIA roles navigation, banner, contentinfo, complementary, whatever their links; a pagelet of links
   * inside a landmark is a navigation pagelet wherever it is. Chosen by leave-one-generator-out
   * cross-validation (docs/engines.md): every fold's choice has it (mean F1 over the sites 0.971 without,
   * 0.987 with).
   */
  landmarks: true,
  /**
   * Navigation pagelets shingled by their list items whether linked or not (shingle.ts): a bar whose
   * current entry is plain text has the shape of the same bar elsewhere. Chosen by leave-one-generator-out
   * cross-validation (docs/engines.md): every fold's choice has it (mean F1 0.985 without, 0.987 with).
   */
  navigationItems: true,
  /**
   * Minimum fraction of the site's unique pages a template shingle must span (detection.ts
   * `supportThreshold`): the paper's "significant collection of pages" (section 1.4). 0 restores the
   * paper's "at least two occurrences". Chosen by leave-one-generator-out cross-validation over {0, 0.05,
   * 0.1} (docs/engines.md; 0.05 before): content repeated on a few pages of a site (an API reference's
   * identical annotation pages, the same text in two language versions) stays content.
   */
  minSupport: 0.1,
  /** Cap, in pages, of the `minSupport` requirement, so large crawls keep templates of a few dozen pages. */
  supportCap: 50,
  /**
   * Pages a template must span (Definition 4 requires a collection: at least two owner pages). Figure 5
   * step (1) keeps shingles "that have at least two occurrences"; we count distinct pages, so a pagelet
   * repeated inside one page is not a template by itself.
   */
  minTemplatePages: 2,
  /**
   * Pages below which the engine keeps parsed trees in memory between the detection pass and the marking
   * pass; above it, pages are read from the source and parsed again (memory stays bounded).
   */
  keepTreesUpTo: 5_000,
  /**
   * Pages per message to a worker thread (both passes). One message per page costs a round trip through
   * the event loop each; 16 pages (about 650 KB of HTML on the corpus pages) make that negligible while a
   * batch still takes only tens of milliseconds, so the workers never wait long for the next one.
   */
  workerBatch: 16,
  /**
   * Batches waiting or running per worker. Two keep a worker busy while the main thread handles the
   * previous answer; more only hold more pages in memory.
   */
  batchesInFlight: 2,
  /**
   * Pages a worker pool handles before it is replaced by a fresh one (both passes). A worker's V8 heap
   * keeps growing with the pages it has parsed although what it holds live does not (70–80 MiB a worker
   * after 20,000 pages, 99–153 MiB after 180,000–200,000), so a long run recycles its workers; a new pool
   * costs its two threads about 7 s of CPU to warm up (docs/spark.md, "Worker threads kept from one shard
   * to the next"): 0.18 ms a page at this limit.
   */
  workerRecycle: 40_000,
  /**
   * DuckDB memory limit of the private database of `--global` while pass 1 appends the rows of PAGES,
   * PAGELETS and LINKS; beyond it DuckDB moves full table blocks to its temporary directory. The tables take
   * about 3 KB a page on the synthetic crawl (bench/pagelets-scale.bench.ts), so any limit is reached
   * early and the store's share of memory stops growing there: at 256 MB (the earlier single limit) only
   * after ~80,000 pages, which made RSS in pass 1 grow 3 KB a page up to there (477 → 826 MiB from 20,000 to
   * 180,000 pages); at 64 MB after ~20,000 pages (RSS in pass 1 then stays at 461–521 MiB up to 80,000 pages,
   * against 692 MiB at 80,000 with 256 MB) with no measurable change in pass 1's time (the appended blocks
   * are written once either way). Peak RSS of the whole run: 670 / 831 MiB at 50,000 / 200,000 pages,
   * against 746 / 947 with 256 MB (README, "Pagelets scale benchmark").
   */
  duckdbIngestMemoryLimit: '64MB',
  /**
   * DuckDB memory limit for the relational steps of Figure 5 (set once pass 1 is done and the workers are
   * gone); beyond it DuckDB spills joins, aggregates and table blocks to its temporary directory. With
   * 256 MB the steps' peak RSS is 670 / 704 MiB at 50,000 / 200,000 pages (pass 1's 623 / 831 MiB); 128 MB
   * lowered it (567 MiB at 200,000 pages) but made the SQL much slower (28.5 s against 18.7 s with 256 MB on
   * the same machine: the triple join and the sort by shingle spill more), so the steps keep 256 MB.
   */
  duckdbMemoryLimit: '256MB',
} as const;
