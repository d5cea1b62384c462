/**
 * `gabarit wrapper create|run` (paper 5: self-healing wrappers; DESIGN.md "Commands").
 *
 *   gabarit wrapper create <page> --pattern name=selector … [--example name=value …] [--out wrapper.json]
 *     Patterns: `name=selector` (CSS, or XPath when it starts with / or ( ), `name[]=selector` for a list,
 *     `parent/child=selector` for a field inside each instance of `parent` (declare the parent first).
 *     `--example name=value` finds the value on the page instead of a selector. Writes the wrapper (with
 *     a tree-gram per pattern) to --out, or stdout.
 *   gabarit wrapper run <wrapper> <pages...> [--out records.jsonl] [--update [FILE]]
 *     One JSON line per page on stdout (or --out): `{page, record, steps}`; `steps` says per pattern which
 *     step found the data (selector / ctm / stm / bigram / jw / string / document / not-found), on which
 *     view (`tags`, `content` or `document`) and with what similarity.
 *   A page is an HTML file or an http(s) URL. A URL is fetched as a guest (robots.txt obeyed, a delay
 *   between requests to a host, size and time limits: the fetch options) and its address after redirects
 *   is the page's address (the document view only looks on the wrapper's site).
 *     Adaptations and failures are also named on stderr. `--update` writes the wrapper back (or to FILE)
 *     with the new selectors, tree-grams and history; without it the wrapper file is never changed.
 *
 * Exit codes: 0 when every pattern was found on every page; 1 when some pattern could not be found or
 * adapted on some page (records are still written, with null for what was not found) or no page could be
 * read; 2 for usage errors (bad pattern syntax, invalid wrapper file).
 */
import { readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { DEFAULTS } from '../defaults.ts';
import { globalOptions, NothingDone, parseCount, parsePositive } from './run.ts';
import { WRAPPER_DEFAULTS } from '../wrapper/defaults.ts';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parseThreshold(raw: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError('expected a number in (0, 1].');
  return x;
}

function parseUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
  } catch {
    // fall through
  }
  throw new InvalidArgumentError('expected an http(s) URL.');
}

const ALGOS = ['ctm', 'stm', 'bigram', 'jw'] as const;
function parseAlgorithms(raw: string): Array<(typeof ALGOS)[number]> {
  const xs = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const x of xs) if (!(ALGOS as readonly string[]).includes(x)) throw new InvalidArgumentError(`unknown algorithm "${x}" (expected ${ALGOS.join(', ')}).`);
  if (xs.length === 0) throw new InvalidArgumentError('expected at least one algorithm.');
  return xs as Array<(typeof ALGOS)[number]>;
}

function parseLabels(raw: string): { tag: boolean; id: boolean; class: boolean } {
  const xs = new Set(raw.split(',').map((s) => s.trim()).filter(Boolean));
  for (const x of xs) if (!['tag', 'id', 'class'].includes(x)) throw new InvalidArgumentError(`unknown label flag "${x}" (expected tag, id, class).`);
  return { tag: xs.has('tag'), id: xs.has('id'), class: xs.has('class') };
}

async function readPage(path: string): Promise<import('../html/tree.ts').Tree> {
  const { decodeHtml } = await import('../html/charset.ts');
  const { parseHtml } = await import('../html/parse.ts');
  const bytes = readFileSync(path);
  return parseHtml(decodeHtml(bytes).text, { selfClosing: /\.xhtml$/i.test(path) });
}

/** A message without the page name it may start with (the caller names the page). */
function unprefixed(message: string, page: string): string {
  return message.startsWith(page + ': ') ? message.slice(page.length + 2) : message;
}

/** Fetch options of the wrapper commands (the same names and defaults as the source options). */
interface FetchFlags {
  userAgent: string;
  delay: number;
  timeout: number;
  maxBytes: number;
}

function addFetchOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--user-agent <ua>', 'user agent sent over HTTP and matched in robots.txt (pages given as URLs)').default(DEFAULTS.userAgent))
    .addOption(new Option('--delay <ms>', 'least time between two requests to one host, ms').default(DEFAULTS.delayMs).argParser(parseCount))
    .addOption(new Option('--max-bytes <n>', 'largest page accepted, bytes').default(DEFAULTS.maxBytes).argParser(parsePositive))
    .addOption(new Option('--timeout <ms>', 'time allowed for one request, ms').default(DEFAULTS.timeoutMs).argParser(parsePositive));
}

/**
 * Loads pages given as files or http(s) URLs: a URL through one polite Fetcher (robots.txt, per-host
 * delay, size and time limits), parsed with its Content-Type; its address is the URL after redirects.
 */
class PageLoader {
  private fetcher: import('../site/fetch.ts').Fetcher | null = null;
  constructor(private readonly flags: FetchFlags) {}
  async load(spec: string): Promise<{ tree: import('../html/tree.ts').Tree; url?: string }> {
    if (!/^https?:\/\//i.test(spec)) return { tree: await readPage(spec) };
    const { Fetcher } = await import('../site/fetch.ts');
    const { parsePage } = await import('../site/page.ts');
    const { LabelTable } = await import('../html/labels.ts');
    this.fetcher ??= new Fetcher({ userAgent: this.flags.userAgent, delayMs: this.flags.delay, timeoutMs: this.flags.timeout, maxBytes: this.flags.maxBytes });
    const page = await this.fetcher.fetch(spec);
    return { tree: parsePage(page, new LabelTable()), url: page.url };
  }
  async close(): Promise<void> {
    await this.fetcher?.close();
  }
}

interface CreateFlags extends FetchFlags {
  pattern?: string[];
  example?: string[];
  out?: string;
  name?: string;
  threshold?: number;
  algorithms?: Array<(typeof ALGOS)[number]>;
  labels?: { tag: boolean; id: boolean; class: boolean };
  contentThreshold?: number;
  content?: boolean;
  documentThreshold?: number;
  document?: boolean;
  url?: string;
}

interface RunFlags extends FetchFlags {
  out?: string;
  update?: string | boolean;
  threshold?: number;
  algorithms?: Array<(typeof ALGOS)[number]>;
  contentThreshold?: number;
  content?: boolean;
  documentThreshold?: number;
  document?: boolean;
  url?: string;
}

/** Registers `gabarit wrapper`. */
export function register(program: Command): void {
  const wrapper = program.command('wrapper').description('self-healing wrappers (paper 5): create one from a page, run it on pages (adapting when pages changed)');

  const create = wrapper
    .command('create')
    .description('write a wrapper (patterns with selectors and tree-grams) from a page')
    .argument('<page>', 'HTML file or http(s) URL of the page the wrapper is built on')
    .option('--pattern <name=selector>', 'a pattern: name=selector, name[]=selector (list), parent/child=selector (repeatable)', collect)
    .option('--example <name=value>', 'a pattern found by one of its values on the page (repeatable)', collect)
    .option('--out <file>', 'where to write the wrapper (default: stdout)')
    .option('--name <name>', 'a name for the wrapper');
  create.addOption(new Option('--threshold <T>', 'adaptation similarity threshold in (0, 1]').argParser(parseThreshold));
  create.addOption(new Option('--algorithms <list>', 'adaptation algorithms in order, e.g. ctm,stm,bigram,jw').argParser(parseAlgorithms));
  create.addOption(new Option('--labels <flags>', 'node-label flags for matching: tag,id,class').argParser(parseLabels));
  create.addOption(new Option('--content-threshold <T>', `similarity the content view (text blocks) must reach, in (0, 1] (default ${WRAPPER_DEFAULTS.contentThreshold})`).argParser(parseThreshold));
  create.option('--no-content', 'never fall back to the content view (element labels only, as in the paper)');
  create.addOption(new Option('--document-threshold <T>', `similarity the document view (a moved document, same site and title) must reach, in (0, 1] (default ${WRAPPER_DEFAULTS.documentThreshold})`).argParser(parseThreshold));
  create.option('--no-document', 'never fall back to the document view');
  create.addOption(new Option('--url <address>', "the page's address (default: the URL it was fetched from, else its canonical link or og:url); the document view only looks on this site").argParser(parseUrl));
  addFetchOptions(create);
  create.action(async (pagePath: string, opts: CreateFlags) => {
    const { createWrapper, createFromExamples } = await import('../wrapper/create.ts');
    const { WrapperError } = await import('../wrapper/wrapper.ts');
    const loader = new PageLoader(opts);
    let tree;
    let fetchedUrl: string | undefined;
    try {
      ({ tree, url: fetchedUrl } = await loader.load(pagePath));
    } catch (e) {
      throw new NothingDone(`${pagePath}: cannot read: ${unprefixed((e as Error).message, pagePath)}`);
    } finally {
      await loader.close();
    }
    const adaptation: Record<string, unknown> = {};
    if (opts.threshold !== undefined) adaptation['threshold'] = opts.threshold;
    if (opts.algorithms !== undefined) adaptation['algorithms'] = opts.algorithms;
    if (opts.labels !== undefined) adaptation['labels'] = opts.labels;
    if (opts.contentThreshold !== undefined) adaptation['contentThreshold'] = opts.contentThreshold;
    if (opts.content === false) adaptation['content'] = false;
    if (opts.documentThreshold !== undefined) adaptation['documentThreshold'] = opts.documentThreshold;
    if (opts.document === false) adaptation['document'] = false;
    const options = {
      source: pagePath,
      ...((opts.url ?? fetchedUrl) !== undefined ? { url: (opts.url ?? fetchedUrl)! } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(Object.keys(adaptation).length ? { adaptation } : {}),
    };
    if (!opts.pattern?.length && !opts.example?.length) throw new UsageError('give at least one --pattern name=selector or --example name=value');
    try {
      const specs = parsePatternFlags(opts.pattern ?? []);
      let w = specs.length > 0 ? createWrapper(tree, specs, options) : null;
      if (opts.example?.length) {
        const values: Record<string, string> = {};
        for (const e of opts.example) {
          const eq = e.indexOf('=');
          if (eq <= 0) throw new UsageError(`--example ${JSON.stringify(e)}: expected name=value`);
          values[e.slice(0, eq)] = e.slice(eq + 1);
        }
        const r = createFromExamples([{ tree, values }], options);
        for (const m of r.missing) process.stderr.write(`gabarit: ${pagePath}: example "${m}" not found on the page\n`);
        w = w ? { ...w, patterns: [...w.patterns, ...r.wrapper.patterns] } : r.wrapper;
      }
      const text = JSON.stringify(w, null, 1) + '\n';
      if (opts.out) writeFileSync(opts.out, text);
      else process.stdout.write(text);
      if (opts.out) process.stderr.write(`gabarit: wrapper with ${w!.patterns.length} top-level pattern(s) written to ${opts.out}\n`);
    } catch (e) {
      if (e instanceof WrapperError) throw new UsageError(`${pagePath}: ${e.message}`);
      throw e;
    }
  });

  const run = wrapper
    .command('run')
    .description('extract records with a wrapper (JSON lines), adapting it where pages changed')
    .argument('<wrapper>', 'wrapper file (JSON)')
    .argument('<pages...>', 'HTML files or http(s) URLs')
    .option('--out <file>', 'write the JSON lines there instead of stdout')
    .option('--update [file]', 'write the adapted wrapper (new selectors, tree-grams, history) back, or to <file>');
  run.addOption(new Option('--threshold <T>', 'override the wrapper\'s similarity threshold').argParser(parseThreshold));
  run.addOption(new Option('--algorithms <list>', "override the wrapper's algorithms, e.g. ctm,stm").argParser(parseAlgorithms));
  run.addOption(new Option('--content-threshold <T>', "override the wrapper's content-view threshold").argParser(parseThreshold));
  run.option('--no-content', 'do not use the content view on this run');
  run.addOption(new Option('--document-threshold <T>', "override the wrapper's document-view threshold").argParser(parseThreshold));
  run.option('--no-document', 'do not use the document view on this run');
  run.addOption(new Option('--url <address>', "the page's address, with a single page (default: the URL it was fetched from, else its canonical link or og:url)").argParser(parseUrl));
  addFetchOptions(run);
  run.action(async (wrapperPath: string, pages: string[], opts: RunFlags, self: Command) => {
    const g = globalOptions(self);
    const { parseWrapper, WrapperError } = await import('../wrapper/wrapper.ts');
    const { runWrapper, updateWrapper } = await import('../wrapper/run.ts');
    let text: string;
    try {
      text = readFileSync(wrapperPath, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the wrapper ${wrapperPath}: ${(e as Error).message}`);
    }
    let w;
    try {
      w = parseWrapper(text, wrapperPath);
    } catch (e) {
      if (e instanceof WrapperError) throw new UsageError(e.message);
      throw e;
    }
    const settings: Record<string, unknown> = {};
    if (opts.threshold !== undefined) settings['threshold'] = opts.threshold;
    if (opts.algorithms !== undefined) settings['algorithms'] = opts.algorithms;
    if (opts.contentThreshold !== undefined) settings['contentThreshold'] = opts.contentThreshold;
    if (opts.content === false) settings['content'] = false;
    if (opts.documentThreshold !== undefined) settings['documentThreshold'] = opts.documentThreshold;
    if (opts.document === false) settings['document'] = false;
    if (opts.url !== undefined && pages.length > 1) throw new UsageError('--url gives the address of one page; run the pages one at a time');
    const out = opts.out ? createWriteStream(opts.out) : process.stdout;
    let done = 0;
    let failedPages = 0;
    let unreadable = 0;
    const notFound: string[] = [];
    const loader = new PageLoader(opts);
    try {
      for (const page of pages) {
        let tree;
        let fetchedUrl: string | undefined;
        try {
          ({ tree, url: fetchedUrl } = await loader.load(page));
        } catch (e) {
          unreadable++;
          process.stderr.write(`gabarit: ${page}: cannot read: ${unprefixed((e as Error).message, page)}\n`);
          continue;
        }
        const address = opts.url ?? fetchedUrl;
        const r = runWrapper(w, tree, page, { settings, ...(address !== undefined ? { url: address } : {}) });
        done++;
        const steps: Record<string, { step: string; view?: string; similarity: number | null; contentSimilarity?: number; documentSimilarity?: number; selector?: string; violations?: string[] }> = {};
        const round = (x: number): number => Math.round(x * 1e4) / 1e4;
        for (const rep of r.reports) {
          steps[rep.pattern] = { step: rep.step, similarity: rep.similarity === null ? null : round(rep.similarity) };
          if (rep.view && rep.step !== 'selector' && rep.step !== 'not-found') steps[rep.pattern]!.view = rep.view;
          if (rep.contentSimilarity !== undefined) steps[rep.pattern]!.contentSimilarity = round(rep.contentSimilarity);
          if (rep.documentSimilarity !== undefined) steps[rep.pattern]!.documentSimilarity = round(rep.documentSimilarity);
          if (rep.newSelector) steps[rep.pattern]!.selector = rep.newSelector;
          if (rep.step !== 'selector') steps[rep.pattern]!.violations = rep.violations;
          if (!g.quiet || rep.step === 'not-found') {
            const content =
              (rep.contentSimilarity !== undefined ? `, on the content view ${rep.contentSimilarity.toFixed(3)}` : '') +
              (rep.documentSimilarity !== undefined ? `, on the document view ${rep.documentSimilarity.toFixed(3)}` : '');
            if (rep.step === 'not-found') process.stderr.write(`gabarit: ${page}: pattern "${rep.pattern}" could not be adapted (${rep.violations.join('; ')}; best similarity ${(rep.similarity ?? 0).toFixed(3)}${content})\n`);
            else if (rep.step !== 'selector') process.stderr.write(`gabarit: ${page}: pattern "${rep.pattern}" adapted by ${rep.step}${rep.view === 'content' ? ' on the content view' : rep.view === 'document' ? ' (same site, same title)' : ''}${rep.trigger ? ` (${rep.trigger} trigger)` : ''}, similarity ${(rep.similarity ?? 0).toFixed(3)}: ${rep.newSelector ?? rep.selector}\n`);
          }
        }
        if (!r.ok) {
          failedPages++;
          notFound.push(...r.reports.filter((x) => x.step === 'not-found').map((x) => `${page}: ${x.pattern}`));
        }
        out.write(JSON.stringify({ page, record: r.record, steps }) + '\n');
        if (opts.update !== undefined && r.adapted) w = updateWrapper(w, r, tree);
      }
    } finally {
      await loader.close();
    }
    if (out !== process.stdout) await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(resolve));
    if (opts.update !== undefined) {
      const target = typeof opts.update === 'string' ? opts.update : wrapperPath;
      writeFileSync(target, JSON.stringify(w, null, 1) + '\n');
      process.stderr.write(`gabarit: wrapper written to ${target} (${w.history?.length ?? 0} adaptation(s) in its history)\n`);
    }
    if (done === 0) throw new NothingDone(`no page could be read (${unreadable} unreadable)`);
    if (failedPages > 0) throw new NothingDone(`could not adapt the wrapper on ${failedPages} of ${done} page(s): ${notFound.slice(0, 5).join(', ')}${notFound.length > 5 ? ', …' : ''}`);
  });
}

/** `name=selector`, `name[]=selector`, `parent/child=selector` → nested pattern specs. */
export function parsePatternFlags(flags: readonly string[]): import('../wrapper/create.ts').PatternSpec[] {
  type Spec = import('../wrapper/create.ts').PatternSpec;
  const top: Spec[] = [];
  const byName = new Map<string, Spec>();
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new UsageError(`--pattern ${JSON.stringify(f)}: expected name=selector`);
    let path = f.slice(0, eq).trim();
    const selector = f.slice(eq + 1).trim();
    const multiple = path.endsWith('[]');
    if (multiple) path = path.slice(0, -2);
    const parts = path.split('/');
    const name = parts[parts.length - 1]!;
    if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: "${name}" is not a valid name (letters, digits, _ and -)`);
    if (byName.has(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: pattern "${name}" is declared twice`);
    const spec: Spec = { name, selector, ...(multiple ? { multiple: true } : {}) };
    byName.set(name, spec);
    if (parts.length === 1) top.push(spec);
    else {
      const parent = byName.get(parts[parts.length - 2]!);
      if (!parent) throw new UsageError(`--pattern ${JSON.stringify(f)}: declare the parent pattern "${parts[parts.length - 2]}" first`);
      (parent.children ??= []).push(spec);
    }
  }
  return top;
}
