/**
 * Paper 3's global template detection (section 3.2, Figure 5) as one list of SQL SELECT statements over
 * the tables PAGES, PAGELETS and LINKS: the single source of truth for every engine that runs it. The
 * embedded DuckDB runs it in-process (global.ts for one machine, sql-run.ts over Parquet shards) and Spark
 * SQL runs the very same text through `spark/gabarit_global.py`. Each step is a SELECT whose result becomes
 * a table under the step's name; how a result becomes a table, how shards are read and how results are
 * written is the engine's business (sql-dialect.ts says how each one does it).
 *
 * The SELECTs use only what both dialects share: joins, `IN (subquery)` (both plan it as a semi join),
 * GROUP BY, window `min() OVER`, `least`/`greatest`/`ceil`, CAST. Page ids are BIGINT (over shards: the
 * shard's number times 2^32 plus the page's number inside its shard; on one machine the page's number),
 * so "the first page" of duplicates is the same page on every engine.
 *
 * Steps:
 *   (0)  page_orig / unique_pages: pages with the same fingerprint keep the first (Figure 4 step (1), applied
 *        here too); url_pages and page_links resolve LINKS targets to unique pages (self-links dropped);
 *   (1)  shingle_pages, support, template_shingles: shingles on at least `support` distinct unique pages
 *        (support: detection.ts `supportThreshold`, computed in SQL from the unique page count);
 *   (2)  template_candidates / candidate_pages: pagelets (and (shingle, page) pairs) of template shingles;
 *   (3)  template_links: the triple join T1.page = LINKS.src, T2.page = LINKS.dest, T1.shingle = T2.shingle;
 *   (4)–(5) components: undirected connected components of each shingle's pages under its template links,
 *        computed once per distinct set of linked pages (shingles with the same set have the same links;
 *        sets keyed by hashes, then checked page for page), by label propagation with hooking and pointer
 *        jumping, of the changed labels only, iterated until no label changes (`SqlPlan.loop`); each
 *        component is a template (a component has at least two pages: an edge); an engine with graph code
 *        of its own computes the same components from the template links instead (`SqlPlan.graph`: Spark);
 *   template_pagelets: candidates whose page has a template link for their shingle (exactly the pages of
 *        non-singleton components; found as the candidates without one of the few unlinked pairs), plus each
 *        duplicate page's pagelets at its original's template ordinals.
 */

/** Support options, as SQL needs them (detection.ts `supportThreshold`). */
export interface SqlSupport {
  minPages: number;
  minSupport: number;
  supportCap: number;
}

/** One step: a SELECT whose result becomes the table `table`; `group` names the step for timings. */
export interface SqlStep {
  group: string;
  table: string;
  sql: string;
  /**
   * An engine may keep the step as a view over its inputs rather than store its rows: one later step reads
   * it, or it is a filter cheap to repeat, and no join needs to know its size (Spark does so; DuckDB stores
   * every step).
   */
  view?: boolean;
}

/** A fixed-point loop: `body` steps repeated until `changed` (a SELECT of one count) returns 0. */
export interface SqlLoop {
  group: string;
  /** Steps run once before the loop. */
  init: SqlStep[];
  /** Steps of one iteration. */
  body: SqlStep[];
  /** The table the loop updates. */
  state: string;
  /** The body's table that replaces `state` after each iteration. */
  next: string;
  /** SELECT count(*): rows of the new state that differ from the old one (0: done). */
  changed: string;
  /** Iterations allowed before the run fails (never a silent partial result). */
  maxIterations: number;
}

/** Components computed outside SQL (SqlPlan.graph). */
export interface SqlGraph {
  group: string;
  /** SELECT of the links (shingle, src, dest), a link from a page to itself for each candidate pair. */
  edges: string;
  /** Counted tables whose rows bound the links' (to size the engine's tasks). */
  sizes: string[];
  /** The table the engine writes: shingle, page, label (least page of its component), linked (a component of more than one page). */
  table: string;
  /** Steps made from `table`, in place of the plan's steps of the same tables. */
  steps: SqlStep[];
}

/** What a run of the plan writes: a query, and the column it is split on into `<column>=<value>/` folders. */
export interface SqlOutput {
  name: string;
  sql: string;
  partitionBy?: string;
}

/** The whole of Figure 5 for one engine to run. */
export interface SqlPlan {
  /** The input tables (pages, pagelets, links) and their columns, in order. */
  inputs: Record<'pages' | 'pagelets' | 'links', readonly string[]>;
  /** Steps before the components loop, in order. */
  before: SqlStep[];
  loop: SqlLoop;
  /** Steps after the loop. */
  after: SqlStep[];
  /**
   * The same components by an engine's own graph code instead of the loop (the Spark driver: a vectorised
   * connected components per partition of `edges` grouped by shingle). The engine writes `table` (each
   * candidate pair, the least page of its component, and whether it has a template link) from `edges`, skips
   * the loop, and runs `steps` in place of the steps of `before` and `after` that make the same tables.
   */
  graph: SqlGraph;
  /** Tables whose row count is reported (inputs at the start, the others once made; COUNT_FIELDS). */
  counted: readonly string[];
  outputs: SqlOutput[];
}

/** 2^32: a shard's page ids start at shard × 2^32. */
export const SHARD_STRIDE = 4294967296;

/** Iterations of min-label propagation allowed (each halves label distances at least, with the jump). */
export const MAX_COMPONENT_ITERATIONS = 64;

/** Table names of the plan, optionally qualified (global.ts keeps its tables in schema `pagelets`). */
export type TableName = (name: string) => string;

/** Options of `figure5Plan`. */
export interface PlanOptions {
  /**
   * SQL of a page's hash (over column `page`, at most 2^31) for the keys of the shingles' page sets; tests
   * give a weak one so that different sets share keys and the page-for-page check must split them.
   */
  pageHash?: string;
}

/**
 * Figure 5 as SQL. `t` qualifies table names (identity for Spark and the shard runner).
 */
export function figure5Plan(support: SqlSupport, t: TableName = (n) => n, options: PlanOptions = {}): SqlPlan {
  const minPages = Math.max(1, Math.floor(support.minPages));
  const f = Number(support.minSupport);
  const cap = Math.floor(support.supportCap);
  if (!Number.isFinite(f) || !Number.isFinite(cap)) throw new Error('pagelets: support options must be numbers');
  const before: SqlStep[] = [
    { group: 'duplicates', table: 'page_orig', sql: `SELECT page, url, min(page) OVER (PARTITION BY fingerprint) AS orig FROM ${t('pages')}` },
    { group: 'duplicates', table: 'unique_pages', sql: `SELECT page, url FROM ${t('page_orig')} WHERE page = orig` },
    { group: 'duplicates', table: 'url_pages', sql: `SELECT url, min(page) AS page FROM ${t('unique_pages')} GROUP BY url` },
    {
      group: 'duplicates',
      table: 'page_links',
      view: true,
      sql: `SELECT DISTINCT l.src, u.page AS dest
        FROM ${t('links')} l
        JOIN ${t('unique_pages')} s ON s.page = l.src
        JOIN ${t('url_pages')} u ON u.url = l.dest
        WHERE u.page <> l.src`,
    },
    // (1) in two grouping passes over (shingle, page) pairs rather than count(DISTINCT page) per shingle
    {
      group: 'templateShingles',
      table: 'shingle_pages',
      sql: `SELECT DISTINCT shingle, page FROM ${t('pagelets')} WHERE page IN (SELECT page FROM ${t('unique_pages')})`,
    },
    {
      group: 'templateShingles',
      table: 'support',
      // in DOUBLE, as supportThreshold computes it (a literal like 0.05 is DECIMAL in both dialects)
      sql: `SELECT greatest(${minPages}, least(${cap}, CAST(ceil(CAST(${String(f)} AS DOUBLE) * CAST(count(*) AS DOUBLE)) AS INTEGER))) AS min_pages FROM ${t('unique_pages')}`,
    },
    {
      group: 'templateShingles',
      table: 'template_shingles',
      sql: `SELECT shingle FROM ${t('shingle_pages')} GROUP BY shingle HAVING count(*) >= (SELECT min_pages FROM ${t('support')})`,
    },
    {
      group: 'templateCandidates',
      table: 'template_candidates',
      view: true,
      sql: `SELECT page, ordinal, shingle, node, nodes, chars FROM ${t('pagelets')}
        WHERE page IN (SELECT page FROM ${t('unique_pages')}) AND shingle IN (SELECT shingle FROM ${t('template_shingles')})`,
    },
    {
      group: 'templateCandidates',
      table: 'candidate_pages',
      view: true,
      sql: `SELECT shingle, page FROM ${t('shingle_pages')} WHERE shingle IN (SELECT shingle FROM ${t('template_shingles')})`,
    },
    {
      group: 'templateLinks',
      table: 'template_links',
      sql: `SELECT /*+ SHUFFLE_HASH(l), SHUFFLE_HASH(t2) */ t1.shingle, l.src, l.dest
        FROM ${t('candidate_pages')} t1
        JOIN ${t('page_links')} l ON t1.page = l.src
        JOIN ${t('candidate_pages')} t2 ON t2.page = l.dest AND t2.shingle = t1.shingle`,
    },
    // each shingle's pages with a template link: its template pagelets' pages, and the set its edges are on
    {
      group: 'templatePagelets',
      table: 'template_link_pages',
      sql: `SELECT shingle, src AS page FROM ${t('template_links')} UNION SELECT shingle, dest AS page FROM ${t('template_links')}`,
    },
  ];
  // (4)-(5): undirected edges per shingle; every page starts with the least page among itself and its
  // neighbours; an iteration propagates and hooks least labels, then shortcuts; stop when no label changes.
  // Only the labels that changed in the last iteration are propagated (cc_delta): a page's label is never
  // above the previous label of any neighbour, so a neighbour whose label did not change cannot lower it.
  // a page's hash for the set keys (exact BIGINT arithmetic on both engines: no product reaches 2^63)
  const h1 = options.pageHash ?? '((page % 2147483647) * 48271) % 2147483647';
  const reps = `${t('template_links')} WHERE shingle IN (SELECT shingle FROM ${t('cc_reps')} WHERE rep = shingle)`;
  const loop: SqlLoop = {
    group: 'components',
    init: [
      // A shingle's template links are the crawl's links between its linked pages (template_link_pages), so
      // shingles with the same set of linked pages have the same edges and components: the loop runs once
      // per distinct set, on the least of its shingles (its representative), and the templates are mapped
      // back. Sets are grouped by size and two sums of page hashes, then each shingle's set is checked
      // page for page against its representative's; a shingle whose set differs is its own representative.
      // The loop's shingles are BIGINT (exact: 53-bit integers): Spark normalises DOUBLE join keys, which
      // would hide that its tables are bucketed by shingle (gabarit_global.py).
      {
        group: 'components',
        table: 'cc_sets',
        sql: `SELECT shingle, count(*) AS n, sum(h) AS s1, sum((h * h) % 2147483629) AS s2
          FROM (SELECT CAST(shingle AS BIGINT) AS shingle, ${h1} AS h FROM ${t('template_link_pages')}) x GROUP BY shingle`,
      },
      { group: 'components', table: 'cc_keyed', sql: `SELECT shingle, n, min(shingle) OVER (PARTITION BY n, s1, s2) AS rep FROM ${t('cc_sets')}` },
      {
        group: 'components',
        table: 'cc_reps',
        sql: `SELECT r.shingle, CASE WHEN r.rep = r.shingle OR v.matched = r.n THEN r.rep ELSE r.shingle END AS rep
          FROM ${t('cc_keyed')} r LEFT JOIN (
            SELECT k.shingle, count(*) AS matched
            FROM ${t('cc_keyed')} m
            JOIN ${t('template_link_pages')} k ON k.shingle = m.shingle
            JOIN ${t('template_link_pages')} k2 ON k2.shingle = m.rep AND k2.page = k.page
            WHERE m.rep <> m.shingle
            GROUP BY k.shingle) v ON v.shingle = r.shingle`,
      },
      {
        group: 'components',
        table: 'cc_edges',
        sql: `SELECT CAST(shingle AS BIGINT) AS shingle, src AS a, dest AS b FROM ${reps} UNION SELECT CAST(shingle AS BIGINT) AS shingle, dest AS a, src AS b FROM ${reps}`,
      },
      { group: 'components', table: 'cc_labels', sql: `SELECT shingle, a AS page, least(a, min(b)) AS label FROM ${t('cc_edges')} GROUP BY shingle, a` },
      // the labels that changed from the start (every page its own label)
      { group: 'components', table: 'cc_delta', sql: `SELECT shingle, page, label FROM ${t('cc_labels')} WHERE label <> page` },
    ],
    body: [
      // every page's least label among its neighbours whose label changed
      {
        group: 'components',
        table: 'cc_min',
        sql: `SELECT e.shingle, e.a AS page, min(d.label) AS label
          FROM ${t('cc_edges')} e JOIN ${t('cc_delta')} d ON d.shingle = e.shingle AND d.page = e.b
          GROUP BY e.shingle, e.a`,
      },
      // each page's label (a root of the forest of labels) takes the least label found next to any page
      // that points to it ("hooking", as in Shiloach-Vishkin): whole trees of labels move at once
      {
        group: 'components',
        table: 'cc_hook',
        sql: `SELECT l.shingle, l.label AS page, min(m.label) AS label
          FROM ${t('cc_min')} m JOIN ${t('cc_labels')} l ON l.shingle = m.shingle AND l.page = m.page
          GROUP BY l.shingle, l.label`,
      },
      {
        group: 'components',
        table: 'cc_propagated',
        sql: `SELECT l.shingle, l.page, least(l.label, coalesce(m.label, l.label), coalesce(h.label, l.label)) AS label, l.label AS old
          FROM ${t('cc_labels')} l
          LEFT JOIN ${t('cc_min')} m ON m.shingle = l.shingle AND m.page = l.page
          LEFT JOIN ${t('cc_hook')} h ON h.shingle = l.shingle AND h.page = l.page`,
      },
      // then two jumps to the label's label (a label is a page of the same component with a label no
      // larger: safe, and halves the way to the root each time); each row keeps its label of the iteration's
      // start (old), so the changed labels need no join with the previous labels
      {
        group: 'components',
        table: 'cc_jumped',
        sql: `SELECT p.shingle, p.page, least(p.label, j.label) AS label, p.old
          FROM ${t('cc_propagated')} p JOIN ${t('cc_propagated')} j ON j.shingle = p.shingle AND j.page = p.label`,
      },
      {
        group: 'components',
        table: 'cc_next',
        sql: `SELECT p.shingle, p.page, least(p.label, j.label) AS label, p.old
          FROM ${t('cc_jumped')} p JOIN ${t('cc_jumped')} j ON j.shingle = p.shingle AND j.page = p.label`,
      },
      {
        group: 'components',
        table: 'cc_delta',
        sql: `SELECT shingle, page, label FROM ${t('cc_next')} WHERE label <> old`,
      },
    ],
    state: 'cc_labels',
    next: 'cc_next',
    changed: `SELECT count(*) AS changed FROM ${t('cc_delta')}`,
    maxIterations: MAX_COMPONENT_ITERATIONS,
  };
  const after: SqlStep[] = [
    // each representative's components, for every shingle it stands for
    {
      group: 'components',
      table: 'templates',
      sql: `SELECT CAST(m.shingle AS DOUBLE) AS shingle, c.first_page, c.size
        FROM (SELECT shingle, label AS first_page, count(*) AS size FROM ${t('cc_labels')} GROUP BY shingle, label) c
        JOIN ${t('cc_reps')} m ON m.rep = c.shingle`,
    },
    // Template pagelets are the candidates whose page has a template link for their shingle: nearly all of
    // them. So the few (shingle, page) pairs without one are found first (from the pairs, narrower than the
    // pagelets; every linked pair is a candidate pair) and the candidates are filtered by them, which Spark
    // does by broadcast: the candidates' pagelets move nowhere.
    {
      group: 'templatePagelets',
      table: 'unlinked_pairs',
      sql: `SELECT shingle, page FROM ${t('candidate_pages')} EXCEPT SELECT shingle, page FROM ${t('template_link_pages')}`,
    },
    {
      group: 'templatePagelets',
      table: 'template_pagelets',
      sql: `SELECT c.page, c.ordinal, c.node, c.nodes, c.chars FROM ${t('template_candidates')} c
        WHERE NOT EXISTS (SELECT 1 FROM ${t('unlinked_pairs')} u WHERE u.shingle = c.shingle AND u.page = c.page)`,
    },
    // A duplicate page gets its original's ordinals with its own node ranges and characters (equal token
    // streams, but blank text may differ). The duplicates are a table of their own, few and known to be
    // few once written (Spark joins them by broadcast), and the pagelets are first cut down to theirs: no
    // step moves every pagelet or template pagelet to reach a handful of pages.
    { group: 'templatePagelets', table: 'duplicate_pages', sql: `SELECT page, orig FROM ${t('page_orig')} WHERE page <> orig` },
    {
      group: 'templatePagelets',
      table: 'page_template_pagelets',
      view: true,
      sql: `SELECT page, ordinal, node, nodes, chars FROM ${t('template_pagelets')}
        UNION ALL
        SELECT d.page, p.ordinal, p.node, p.nodes, p.chars
        FROM ${t('duplicate_pages')} d
        JOIN ${t('template_pagelets')} tp ON tp.page = d.orig
        JOIN (SELECT page, ordinal, node, nodes, chars FROM ${t('pagelets')} WHERE page IN (SELECT page FROM ${t('duplicate_pages')})) p
          ON p.page = d.page AND p.ordinal = tp.ordinal`,
    },
  ];
  // Every candidate pair comes in as a link of its page to itself, so that a pair without a template link is
  // a component of one node (not linked): the unlinked pairs need no join of their own.
  const graph: SqlGraph = {
    group: 'components',
    edges: `SELECT shingle, src, dest FROM ${t('template_links')} UNION ALL SELECT shingle, page AS src, page AS dest FROM ${t('candidate_pages')}`,
    sizes: ['template_links', 'template_candidates'],
    table: 'link_components',
    steps: [
      // the linked pairs: nothing after the graph reads them (the unlinked pairs stand for them), but the
      // graph makes every table of the plan it replaces
      { group: 'templatePagelets', table: 'template_link_pages', view: true, sql: `SELECT shingle, page FROM ${t('link_components')} WHERE linked` },
      { group: 'components', table: 'templates', sql: `SELECT shingle, label AS first_page, count(*) AS size FROM ${t('link_components')} WHERE linked GROUP BY shingle, label` },
      { group: 'templatePagelets', table: 'unlinked_pairs', sql: `SELECT shingle, page FROM ${t('link_components')} WHERE NOT linked` },
    ],
  };
  const outputs: SqlOutput[] = [
    {
      name: 'template_pagelets',
      partitionBy: 'shard',
      sql: `SELECT CAST(floor(page / ${SHARD_STRIDE}) AS INTEGER) AS shard, CAST(page % ${SHARD_STRIDE} AS INTEGER) AS page, ordinal, node, nodes, chars
        FROM ${t('page_template_pagelets')}`,
    },
    { name: 'templates', sql: `SELECT shingle, first_page, size FROM ${t('templates')}` },
  ];
  return {
    inputs: {
      pages: ['page', 'url', 'fingerprint', 'chars'],
      pagelets: ['page', 'ordinal', 'shingle', 'node', 'nodes', 'chars'],
      links: ['src', 'dest'],
    },
    before,
    loop,
    after,
    graph,
    counted: Object.keys(COUNT_FIELDS),
    outputs,
  };
}

/** Counted tables → DetectionCounts fields (`templates`: the number of components). */
export const COUNT_FIELDS = {
  pages: 'pages',
  unique_pages: 'uniquePages',
  pagelets: 'pagelets',
  links: 'links',
  template_shingles: 'templateShingles',
  template_candidates: 'templateCandidates',
  template_links: 'templateLinks',
  template_pagelets: 'templatePagelets',
  templates: 'templates',
} as const;
