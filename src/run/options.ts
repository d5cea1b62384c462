/**
 * The options of the commands' pipelines (src/run/), each declared once (src/template/options.ts): name,
 * type, default, range, help and, where it comes from a paper, the section. From a declaration follow the
 * typed values a pipeline takes, validation, the command-line flag, its --help and docs/cli.md. The
 * defaults are those of the library (src/defaults.ts), read from there so that each has one source.
 * This module stays light: every command's help reads it.
 */
import { z } from 'zod';
import { FETCH_DEFAULTS } from '../site/defaults.ts';
import { COLLECT_DEFAULTS } from '../structure/defaults.ts';
import { type AlgorithmName, WRAPPER_DEFAULTS } from '../wrapper/defaults.ts';
import { declareOptions, option, type OptionValues, share, threshold, wholeNumber, WORKERS } from '../template/options.ts';

/** A flag that may be given several times, its values gathered into a list. */
function repeatable(arg: string, description: string) {
  return option(z.array(z.string()).optional(), { arg, description });
}

/**
 * The command line's global options (`gabarit --json --quiet <command> …`): how a command prints, not what
 * it does. No default of their own: left out, they are off.
 */
export const GLOBAL_OPTIONS = declareOptions('gabarit', {
  json: option(z.boolean().optional(), { description: 'print the result as JSON on stdout (messages stay on stderr)' }),
  quiet: option(z.boolean().optional(), { short: 'q', description: 'no progress bars (failures are still named on stderr)' }),
});
export type GlobalFlags = OptionValues<typeof GLOBAL_OPTIONS.shape>;

/** The source options of every command with a `<source>` (a directory, a WARC file, a URL). */
export const SOURCE_OPTIONS = declareOptions('source', {
  userAgent: option(z.string().default(FETCH_DEFAULTS.userAgent), { arg: 'ua', description: 'user agent sent over HTTP and matched in robots.txt' }),
  delay: option(wholeNumber(0).default(FETCH_DEFAULTS.delayMs), { arg: 'ms', description: 'least time between two requests to one host, ms' }),
  concurrency: option(wholeNumber(1).default(FETCH_DEFAULTS.concurrencyPerHost), { arg: 'n', description: 'requests at once per host' }),
  maxPages: option(wholeNumber(1).optional(), {
    arg: 'n',
    description: `pages read at most (default: none for a local source, ${FETCH_DEFAULTS.maxPages} for a crawl of a URL); a cap that leaves pages out is named on stderr and in summary.json`,
  }),
  maxBytes: option(wholeNumber(1).default(FETCH_DEFAULTS.maxBytes), {
    arg: 'n',
    description: 'largest page accepted, bytes, from any source, counted decoded when the server compresses it (a larger one is refused and named)',
  }),
  timeout: option(wholeNumber(1).default(FETCH_DEFAULTS.timeoutMs), { arg: 'ms', description: 'time allowed for one request, ms' }),
  store: option(z.string().optional(), { arg: 'file', description: 'DuckDB file keeping fetched pages: a rerun, after an interruption too, resumes without refetching them' }),
  include: repeatable('glob', 'crawl of a URL: follow links only to pages whose path under the crawl root matches (`blog/**`); repeat for several'),
  exclude: repeatable('glob', 'crawl of a URL: do not follow links to pages whose path under the crawl root matches (`**/tag/**`); repeat for several'),
  sitemap: option(z.union([z.literal(true), z.array(z.string().regex(/^https?:\/\/[^/]/i, "expected the absolute http(s) URL of a sitemap (or no value, to find the site's sitemaps)"))]).optional(), {
    arg: 'url',
    optionalValue: true,
    description:
      'crawl of a URL: also crawl the pages its sitemaps list (under the crawl root, through --include/--exclude), before the links found; without a URL they are found from robots.txt `Sitemap:` lines, else /sitemap.xml; indexes and .xml.gz read; repeat for several',
  }),
  sitemapOnly: option(z.boolean().default(false), { description: 'crawl of a URL: follow no link, read the entry page and the pages its sitemaps list (found as --sitemap does, unless given)' }),
});
/** The source options' values. */
export type SourceFlags = OptionValues<typeof SOURCE_OPTIONS.shape>;

/** The fetch options of the wrapper commands, whose pages are files or URLs: the source options' own. */
export const WRAPPER_FETCH_OPTIONS = SOURCE_OPTIONS.only(['userAgent', 'delay', 'maxBytes', 'timeout']);
export type WrapperFetchFlags = OptionValues<typeof WRAPPER_FETCH_OPTIONS.shape>;

/** `--out <dir>` of a command, by default `out/<command>`. */
export function outOptions(command: string) {
  return declareOptions(command, { out: option(z.string().default(`out/${command}`), { short: 'o', arg: 'dir', description: 'output directory' }) });
}
/** The `--out` flag's value. */
export type OutFlags = OptionValues<ReturnType<typeof outOptions>['shape']>;

/** `collect`'s options (INDESIT, paper 4), defaults from COLLECT_DEFAULTS. */
export const COLLECT_OPTIONS = declareOptions('collect', {
  root: option(z.string().optional(), { arg: 'url-or-dir', description: 'the site root (default: the URL origin, or the highest ancestor directory with an index page)' }),
  similarity: option(threshold().default(COLLECT_DEFAULTS.similarity), {
    arg: 'T',
    section: 'paper 4, section 2, footnote 2',
    description: 'threshold T of similar page schemas (the lower Jaccard coefficient of their links and of their layouts)',
  }),
  sameClusterLinks: option(wholeNumber(1).default(COLLECT_DEFAULTS.sameClusterLinks), {
    arg: 'n',
    section: 'paper 4, section 3.1, footnote 3',
    description: 'links of one collection into one cluster before the rest is skipped',
  }),
  maxDepth: option(wholeNumber(0).default(COLLECT_DEFAULTS.maxDepth), { arg: 'n', section: 'paper 4, section 3.1, step 3', description: 'depth of the recursion that looks for index pages' }),
  rings: option(wholeNumber(0).default(COLLECT_DEFAULTS.rings), { arg: 'n', description: 'rings of neighbourhood widening (0: the paper)' }),
  maxDownloads: option(wholeNumber(1).default(COLLECT_DEFAULTS.maxDownloads), { arg: 'n', description: 'downloads at most' }),
  layout: option(z.boolean().default(COLLECT_DEFAULTS.layout), { description: "compare pages by their links' tag-lists only, as the paper (not their layouts too)" }),
  sections: option(z.boolean().default(COLLECT_DEFAULTS.sections), { description: "take pages of other sections of the site than the sample's too (top-level folders with their own index page whose pages differ in shape)" }),
  savePages: option(z.boolean().default(false), { description: 'also write the HTML of each collected page under <out>/pages/' }),
});
export type CollectFlags = OptionValues<typeof COLLECT_OPTIONS.shape>;

/** `cluster`'s options. */
export const CLUSTER_OPTIONS = declareOptions('cluster', {
  by: option(z.enum(['auto', 'schema', 'shape', 'content']).default('auto'), { arg: 'method', description: 'what pages are compared by' }),
  similarity: option(threshold().default(COLLECT_DEFAULTS.clusterSimilarity), {
    arg: 'T',
    description: '--by schema (and auto, which then groups by schema): threshold T of similar schemas (the lower Jaccard coefficient of links and of layouts)',
  }),
  layout: option(z.boolean().default(COLLECT_DEFAULTS.layout), { description: "--by schema (and auto, which then groups by schema): compare pages by their links' tag-lists only, as the paper" }),
  sections: option(z.boolean().default(COLLECT_DEFAULTS.sections), {
    description: '--by auto, schema, shape: do not split clusters by the sections of the site (top-level folders with their own index page whose pages differ in shape)',
  }),
  k: option(wholeNumber(1).optional(), { arg: 'n', description: '--by content: number of clusters (default: chosen by silhouette)' }),
  gold: option(z.string().optional(), { arg: 'file', description: 'JSON object page key → class: also report purity and adjusted Rand index' }),
  workers: WORKERS,
});
export type ClusterFlags = OptionValues<typeof CLUSTER_OPTIONS.shape>;

/** Templates found by paper 3's local algorithm rather than the global one (hits, cocited). */
const LOCAL = option(z.boolean().default(false), { description: 'find templates with the local algorithm (Figure 4) instead of the global one' });

/** `hits`'s options (paper 3, section 4, Case 1). */
export const HITS_OPTIONS = declareOptions('hits', {
  query: option(z.string().optional(), { arg: 'words', description: 'only pagelets whose text holds all these words are hubs (FNM filter)' }),
  keepTemplates: option(z.boolean().default(false), { description: 'keep the edges of template pagelets (the vanilla pagelet graph, for comparison)' }),
  top: option(wholeNumber(1).default(10), { arg: 'n', description: 'how many hubs and authorities to show' }),
  local: LOCAL,
  external: option(z.boolean().default(true), { description: 'leave out links to pages outside the source' }),
});
export type HitsFlags = OptionValues<typeof HITS_OPTIONS.shape>;

/** `cocited`'s options (paper 3, section 4). */
export const COCITED_OPTIONS = declareOptions('cocited', {
  url: option(z.string(), { arg: 'page', description: 'the page whose co-cited pages are wanted: a URL or a key of the source' }),
  top: option(wholeNumber(1).default(10), { arg: 'n', description: 'how many related pages to show' }),
  pageWeight: option(share().default(0), { arg: 'w', description: 'weight of a co-citation in another pagelet of the same page (0: same pagelet only)' }),
  keepTemplates: option(z.boolean().default(false), { description: 'count citations from template pagelets too (the classic algorithm, for comparison)' }),
  local: LOCAL,
});
export type CocitedFlags = OptionValues<typeof COCITED_OPTIONS.shape>;

/** `crawl`'s options. */
export const CRAWL_OPTIONS = declareOptions('crawl', {
  top: option(wholeNumber(0).default(10), { arg: 'n', description: 'most linked pages listed' }),
  templatePriority: option(z.boolean().default(false), {
    section: 'paper 3, section 4, Case 2',
    description: 'over HTTP, fetch links found only in template pagelets (menus, footers) after the others',
  }),
});
export type CrawlFlags = OptionValues<typeof CRAWL_OPTIONS.shape>;

/** `report`'s options. */
export const REPORT_OPTIONS = declareOptions('report', {
  method: option(z.string().optional(), { short: 'm', arg: 'name', description: 'template engine (default: chosen from the source)' }),
  maxShown: option(wholeNumber(1).default(40), { arg: 'n', description: 'pages shown with their overlay (the others are listed)' }),
  otherEngines: option(z.boolean().default(true), { description: 'do not run the other engines for their figures' }),
});
export type ReportFlags = OptionValues<typeof REPORT_OPTIONS.shape>;

/** `--port` of a command that listens on 127.0.0.1, by default `port` (0: any free port). */
export function portOptions(command: string, port: number) {
  return declareOptions(command, { port: option(wholeNumber(0).max(65535, 'must be at most 65535').default(port), { short: 'p', arg: 'n', description: 'port to listen on (0: any free port)' }) });
}
/** `serve`'s options. */
export const SERVE_OPTIONS = portOptions('serve', 8080);
/** `ui`'s options. */
export const UI_OPTIONS = portOptions('ui', 0);

/** The template engines (a static list: a command's help does not load the registry, src/template/engines.ts). */
export const METHODS = ['align', 'hyperlink', 'pagelets'] as const;

/** `--format` of the commands writing the output contract. */
const CONTRACT_FORMAT = option(z.enum(['text', 'jsonl']).default('text'), {
  short: 'f',
  arg: 'format',
  description: 'text: <page>.txt and <page>.html per page; jsonl: one record per page in pages.jsonl (or stdout with --out -)',
});

/** `template`'s own options (each engine's are its declaration's, src/template/<engine>/options.ts). */
export const TEMPLATE_OPTIONS = declareOptions('template', {
  method: option(z.string().default(METHODS[0]), { short: 'm', arg: 'name', description: `template engine: ${METHODS.join(', ')}` }),
  format: CONTRACT_FORMAT,
  workers: WORKERS,
});
export type TemplateFlags = OptionValues<typeof TEMPLATE_OPTIONS.shape>;

/** `apply`'s options. */
export const APPLY_OPTIONS = declareOptions('apply', { format: CONTRACT_FORMAT, workers: WORKERS });
export type ApplyFlags = OptionValues<typeof APPLY_OPTIONS.shape>;

/** How the main block is chosen among non-template nodes (src/content/). */
export const MAIN_BLOCK = option(z.enum(['auto', 'always', 'navigation', 'never']).default('auto'), {
  arg: 'when',
  description: 'the main block among non-template nodes: auto (whole after align/pagelets, navigation after hyperlink), always, navigation (leave out only the per-page navigation around it), never',
});
/** Where the main content's headline goes. */
export const HEADLINE = option(z.enum(['field', 'first']).default('field'), {
  arg: 'where',
  description: "the main content's headline: field (the title in JSON, left out of the text) or first (also the first line of the text)",
});
/** The template engine of `content`, chosen from the source unless given. */
export const CONTENT_METHOD = { arg: 'name', description: 'template engine (default: chosen from the source: hyperlink where the pages link each other, else align)' } as const;

/** `content`'s own options (the content pipeline's are CONTENT_OPTIONS, src/run/content.ts). */
export const CONTENT_COMMAND_OPTIONS = declareOptions('content', {
  method: option(z.string().optional(), { short: 'm', ...CONTENT_METHOD }),
  format: option(z.enum(['text', 'html', 'markdown', 'json', 'jsonl']).default('text'), {
    short: 'f',
    arg: 'format',
    description: 'format written beside <page>.txt (text, html, markdown, json), or jsonl: one record per page in pages.jsonl (or stdout with --out -) instead of page files',
  }),
  mainBlock: MAIN_BLOCK,
  headline: HEADLINE,
  workers: WORKERS,
});
export type ContentFlags = OptionValues<typeof CONTENT_COMMAND_OPTIONS.shape>;

/** `shards`' options besides the pagelets engine's: which part of the shards a machine takes. */
export const SHARD_PART_OPTIONS = declareOptions('shards', {
  part: option(z.string().optional(), { arg: 'i/n', description: 'only the shards of machine i of n (shard index mod n = i)' }),
});
/** `shards`: the engine of the global step (paper 3, Figure 5's relational steps). */
export const SHARD_GLOBAL_OPTIONS = declareOptions('shards', {
  backend: option(z.enum(['duckdb', 'spark']).default('duckdb'), { arg: 'engine', description: 'engine of the relational steps: duckdb (embedded) or spark (spark-submit)' }),
  sparkMaster: option(z.string().default('local[2]'), { arg: 'url', description: 'Spark master: local[N] or spark://HOST:PORT' }),
  sparkSubmit: option(z.string().optional(), { arg: 'path', description: 'spark-submit program (default: $SPARK_HOME/bin/spark-submit, else on PATH)' }),
  sparkConf: option(z.array(z.string().regex(/^[^=]+=/, 'expected key=value')).optional(), { arg: 'key=value', description: 'a Spark setting passed to spark-submit (repeatable)' }),
  driverMemory: option(z.string().default('1g'), { arg: 'size', description: 'Spark driver memory' }),
});
/** `shards run`: on Spark, analyse and mark run as tasks on the executors (src/run/spark-shards.ts). */
export const SHARD_SPARK_RUN_OPTIONS = declareOptions('shards', {
  sparkGabarit: option(z.string().regex(/\S/, 'expected a command').optional(), {
    arg: 'command',
    description: "with --backend spark, the command that runs gabarit on Spark's executors, which run analyse and mark as Spark tasks (split at spaces; default: this installation's, run by this Node)",
  }),
});
/** Pass 1's options (the pagelets engine's), which `shards analyse` and `run` take and a shard's manifest records. */
export const SHARD_PASS_ONE = ['k', 'shingleWidth', 'minhashes', 'linkTargets', 'foldDigits', 'contentShare', 'landmarks', 'navigationItems', 'navigationPagelets'] as const;
/** `shards analyse` and `run`: whether pass 1 records what the output phase needs. */
export const SHARD_RECORDS_OPTIONS = declareOptions('shards', {
  records: option(z.boolean().default(true), {
    description: "write no render records beside the shard's rows (by default pass 1 records what writing each page's output needs, about 1.5 times the pages' size, so that mark parses no page again): less disk, and mark reads and parses every page again",
  }),
});
/** `shards analyse`, `mark` and `run`: what mark writes (and so what pass 1 records for it). */
export const SHARD_FORMAT_OPTIONS = declareOptions('shards', {
  format: option(z.enum(['text', 'jsonl']).default('text'), {
    short: 'f',
    arg: 'format',
    description: "what mark writes: text: <page>.txt and <page>.html per page; jsonl: one record per page in each shard's pages.jsonl (pass 1 then records the kept text and title, not the page; give it to analyse too)",
  }),
});
/** `shards`: the work directory every machine shares. */
export const SHARD_WORK_OPTIONS = declareOptions('shards', {
  work: option(z.string(), { arg: 'dir', description: 'work directory shared by every machine (shards, global results)' }),
});
/** `shards`: where the marked pages go. */
export const SHARD_OUT_OPTIONS = declareOptions('shards', {
  out: option(z.string().default('out/shards'), { short: 'o', arg: 'dir', description: 'output directory (one folder per shard when there are several)' }),
});
export type ShardFlags = OptionValues<typeof SHARD_PART_OPTIONS.shape> &
  Partial<OptionValues<typeof SHARD_RECORDS_OPTIONS.shape>> &
  Partial<OptionValues<typeof SHARD_FORMAT_OPTIONS.shape>> &
  Partial<OptionValues<typeof SHARD_SPARK_RUN_OPTIONS.shape>> &
  OptionValues<typeof SHARD_GLOBAL_OPTIONS.shape> &
  OptionValues<typeof SHARD_WORK_OPTIONS.shape> &
  Partial<OptionValues<typeof SHARD_OUT_OPTIONS.shape>>;

/** The adaptation algorithms of a wrapper, in order: `ctm,stm,bigram,jw`. */
const ALGORITHM_NAMES: readonly AlgorithmName[] = ['ctm', 'stm', 'bigram', 'jw'];
const ALGORITHMS = z.string().transform((raw, ctx): AlgorithmName[] => {
  const xs = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = xs.find((x) => !(ALGORITHM_NAMES as readonly string[]).includes(x));
  if (bad !== undefined || xs.length === 0) {
    ctx.addIssue({ code: 'custom', message: bad !== undefined ? `unknown algorithm "${bad}" (expected ${ALGORITHM_NAMES.join(', ')})` : 'expected at least one algorithm' });
    return z.NEVER;
  }
  return xs as AlgorithmName[];
});
/** The node-label flags of matching: `tag,id,class`. */
const LABELS = z.string().transform((raw, ctx) => {
  const xs = new Set(raw.split(',').map((s) => s.trim()).filter(Boolean));
  const bad = [...xs].find((x) => !['tag', 'id', 'class'].includes(x));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `unknown label flag "${bad}" (expected tag, id, class)` });
    return z.NEVER;
  }
  return { tag: xs.has('tag'), id: xs.has('id'), class: xs.has('class') };
});
/** An http(s) address. */
const HTTP_URL = z.string().transform((raw, ctx) => {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
  } catch {
    // not a URL
  }
  ctx.addIssue({ code: 'custom', message: 'expected an http(s) URL' });
  return z.NEVER;
});

/** `wrapper create`'s options (paper 5); the adaptation settings left out stay the wrapper's defaults (WRAPPER_DEFAULTS). */
export const WRAPPER_CREATE_OPTIONS = declareOptions('wrapper create', {
  pattern: repeatable('name=selector', 'a pattern: name=selector, name[]=selector (list), parent/child=selector; selector@attr, selector::after, selector::own for what the value is (repeatable)'),
  example: repeatable('[page:]name=value', 'a pattern found by its value on a page (the first page, or the page named before the colon, as given or by its file name); name[]=value (or a name given twice) for a list (repeatable)'),
  examples: option(z.string().optional(), { arg: 'file', description: 'example values per page from a JSON file: {"page.html": {"name": "value", "list": ["v1", "v2"]}, …}' }),
  out: option(z.string().optional(), { short: 'o', arg: 'file', description: 'where to write the wrapper (default: stdout)' }),
  name: option(z.string().optional(), { arg: 'name', description: 'a name for the wrapper' }),
  threshold: option(threshold().optional(), { arg: 'T', description: 'adaptation similarity threshold in (0, 1]' }),
  algorithms: option(ALGORITHMS.optional(), { arg: 'list', description: 'adaptation algorithms in order, e.g. ctm,stm,bigram,jw' }),
  labels: option(LABELS.optional(), { arg: 'flags', description: 'node-label flags for matching: tag,id,class' }),
  contentThreshold: option(threshold().optional(), {
    arg: 'T',
    description: `similarity the content view (text blocks) must reach, in (0, 1] (default ${WRAPPER_DEFAULTS.contentThreshold})`,
  }),
  content: option(z.boolean().default(true), { description: 'never fall back to the content view (element labels only, as in the paper)' }),
  documentThreshold: option(threshold().optional(), {
    arg: 'T',
    description: `similarity the document view (a moved document, same site and title) must reach, in (0, 1] (default ${WRAPPER_DEFAULTS.documentThreshold})`,
  }),
  document: option(z.boolean().default(true), { description: 'never fall back to the document view' }),
  url: option(HTTP_URL.optional(), {
    arg: 'address',
    description: "the page's address (default: the URL it was fetched from, else its canonical link or og:url); the document view only looks on this site",
  }),
});
export type WrapperCreateFlags = OptionValues<typeof WRAPPER_CREATE_OPTIONS.shape>;

/** `wrapper run`'s options: each adaptation setting given overrides the wrapper's on this run. */
export const WRAPPER_RUN_OPTIONS = declareOptions('wrapper run', {
  out: option(z.string().optional(), { short: 'o', arg: 'dir', description: 'write records.jsonl and summary.json there (default: the JSON lines on stdout)' }),
  update: option(z.union([z.string(), z.literal(true)]).optional(), {
    arg: 'file',
    optionalValue: true,
    description: 'write the adapted wrapper (new selectors, tree-grams, history) back, or to <file>',
  }),
  threshold: option(threshold().optional(), { arg: 'T', description: "override the wrapper's similarity threshold" }),
  algorithms: option(ALGORITHMS.optional(), { arg: 'list', description: "override the wrapper's algorithms, e.g. ctm,stm" }),
  contentThreshold: option(threshold().optional(), { arg: 'T', description: "override the wrapper's content-view threshold" }),
  content: option(z.boolean().default(true), { description: 'do not use the content view on this run' }),
  documentThreshold: option(threshold().optional(), { arg: 'T', description: "override the wrapper's document-view threshold" }),
  document: option(z.boolean().default(true), { description: 'do not use the document view on this run' }),
  url: option(HTTP_URL.optional(), { arg: 'address', description: "the page's address, with a single page (default: the URL it was fetched from, else its canonical link or og:url)" }),
  workers: WORKERS,
});
export type WrapperRunFlags = OptionValues<typeof WRAPPER_RUN_OPTIONS.shape>;

/**
 * ` (align 4, hyperlink 1)`: how many sites each method learned on, when the sites did not all take the same
 * one; else ''. Here, not beside the runs, so that the CLI's result lines load no engine.
 */
export function methodTally(methods: readonly string[]): string {
  const counts = methodCounts(methods);
  return counts.length < 2 ? '' : ` (${counts.map(([m, c]) => `${m} ${c}`).join(', ')})`;
}

/** Each method with the number of sites that took it, the most taken first (ties by name). */
export function methodCounts(methods: readonly string[]): [string, number][] {
  const n = new Map<string, number>();
  for (const m of methods) n.set(m, (n.get(m) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
