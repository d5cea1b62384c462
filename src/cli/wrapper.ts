/**
 * One file over 400 lines: create and run share the pattern syntax and output; the pages and the work are
 * src/run/wrapper.ts's, the wrapper logic src/wrapper/'s.
 *
 * `gabarit wrapper create|run` (paper 5: self-healing wrappers; DESIGN.md "Commands").
 *
 *   gabarit wrapper create <pages...> --pattern name=selector … [--example [page:]name=value …] [--examples FILE] [-o wrapper.json]
 *     Patterns: `name=selector` (CSS, or XPath when it starts with / or ( ), `name[]=selector` for a list,
 *     `parent/child=selector` for a field inside each instance of `parent` (declare the parent first).
 *     What a value is follows the selector: `@attr` an attribute (`meta[name=description]@content`,
 *     `a.more@href`, or XPath `//a/@href`), `::after` the text after a label element (`<b>Date:</b> 2008`),
 *     `::own` the element's own text nodes; by default its text. A single pattern whose selector matches
 *     several elements is refused (a list, or a tighter selector); selectors are for the first page.
 *     `--example name=value` finds the value on the first page instead of a selector (`name[]=value`, or
 *     the same name given twice, for a list); `--example page:name=value` on the page named (as given, or
 *     by its file name), `--examples FILE` from JSON per page. One pattern per name is learned from every
 *     page that gives it values, and stderr says on how many of them it holds and the label it keeps.
 *     Writes the wrapper (with a tree-gram per pattern) to -o, or stdout.
 *   gabarit wrapper run <wrapper> <pages...> [-o DIR] [--update [FILE]]
 *     One JSON line per page: `{page, record, steps}`; `steps` says per pattern which step found the data
 *     (selector / ctm / stm / bigram / jw / string / document / not-found), on which view (`tags`,
 *     `content` or `document`), with what similarity and, when not found, why (`reason`: ambiguous,
 *     not-similar, wrong-value, not-adapted; `violations`, the constraints still broken) or, when adapted,
 *     what the selector's result broke (`cause`). With -o, the lines go to DIR/records.jsonl and a summary
 *     (pages, failures, per pattern how it was found or why not) to DIR/summary.json; without, to stdout.
 *   A page of create is an HTML file or an http(s) URL; the pages of run may also be directories of pages,
 *   WARC files and quoted globs of these, read as every command reads a source (one record per page). A
 *   URL is fetched as a guest (robots.txt obeyed, a delay between requests to a host, size and time limits:
 *   the fetch options) and its address after redirects is the page's address (the document view only
 *   looks on the wrapper's site); a WARC's pages have their URL as address. Local pages get the checks of
 *   every source (--max-bytes, empty, binary): a page refused is named on stderr and counted in summary.json.
 *     Adaptations and failures are also named on stderr. `--update` writes the wrapper back (or to FILE)
 *     with the new selectors, tree-grams and history; without it the wrapper file is never changed.
 *
 * Exit codes: 0 when every pattern was found on every page; 1 when some pattern could not be found or
 * adapted on some page (records are still written, with null for what was not found) or no page could be
 * read; 2 for usage errors (bad pattern syntax, an invalid selector or one that cannot be run, a page file
 * that does not exist, an invalid wrapper file).
 */
import { readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { WRAPPER_FETCH_OPTIONS, type WrapperFetchFlags } from '../run/options.ts';
import { globalOptions, NothingDone, outDir } from './run.ts';
import { WRAPPER_DEFAULTS } from '../wrapper/defaults.ts';
import { addDeclaredOptions, parseThreshold } from './parsers.ts';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
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

function addFetchOptions(cmd: Command): Command {
  return addDeclaredOptions(cmd, WRAPPER_FETCH_OPTIONS);
}

interface CreateFlags extends WrapperFetchFlags {
  pattern?: string[];
  example?: string[];
  examples?: string;
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

interface RunFlags extends WrapperFetchFlags {
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
  const wrapper = program.command('wrapper').description('self-healing wrappers (paper 5): create one from pages, run it on pages (adapting when pages changed)');

  const create = wrapper
    .command('create')
    .description('write a wrapper (patterns with selectors and tree-grams) from a page, or from example values on several pages')
    .argument('<pages...>', 'HTML files or http(s) URLs of the pages the wrapper is built on (selectors: the first one; examples: each its own)')
    .option('--pattern <name=selector>', 'a pattern: name=selector, name[]=selector (list), parent/child=selector; selector@attr, selector::after, selector::own for what the value is (repeatable)', collect)
    .option('--example <[page:]name=value>', 'a pattern found by its value on a page (the first page, or the page named before the colon, as given or by its file name); name[]=value (or a name given twice) for a list (repeatable)', collect)
    .option('--examples <file>', 'example values per page from a JSON file: {"page.html": {"name": "value", "list": ["v1", "v2"]}, …}')
    .option('-o, --out <file>', 'where to write the wrapper (default: stdout)')
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
  create.action(async (pagePaths: string[], opts: CreateFlags, self: Command) => {
    const g = globalOptions(self);
    const { createWrapperOn, PageUnusable } = await import('../run/wrapper.ts');
    const { WrapperError } = await import('../wrapper/wrapper.ts');
    if (!opts.pattern?.length && !opts.example?.length && !opts.examples) throw new UsageError('give at least one --pattern name=selector, --example name=value or --examples FILE');
    const specs = parsePatternFlags(opts.pattern ?? []);
    const examples = parseExampleFlags(opts.example ?? [], pagePaths, opts.examples !== undefined ? readExamplesFile(opts.examples) : undefined);
    const adaptation: Record<string, unknown> = {};
    if (opts.threshold !== undefined) adaptation['threshold'] = opts.threshold;
    if (opts.algorithms !== undefined) adaptation['algorithms'] = opts.algorithms;
    if (opts.labels !== undefined) adaptation['labels'] = opts.labels;
    if (opts.contentThreshold !== undefined) adaptation['contentThreshold'] = opts.contentThreshold;
    if (opts.content === false) adaptation['content'] = false;
    if (opts.documentThreshold !== undefined) adaptation['documentThreshold'] = opts.documentThreshold;
    if (opts.document === false) adaptation['document'] = false;
    let r;
    try {
      r = await createWrapperOn(pagePaths, {
        patterns: specs,
        examples,
        fetch: opts,
        ...(opts.url !== undefined ? { url: opts.url } : {}),
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(Object.keys(adaptation).length ? { adaptation } : {}),
      });
    } catch (e) {
      if (e instanceof PageUnusable) throw new NothingDone(e.message);
      if (e instanceof WrapperError) throw new UsageError(`${pagePaths.join(', ')}: ${e.message}`);
      throw e;
    }
    const where = pagePaths.length === 1 ? pagePaths[0]! : 'the example pages';
    for (const m of r.missing) process.stderr.write(`gabarit: ${where}: example "${m}" not found on ${pagePaths.length === 1 ? 'the page' : 'any of them'}\n`);
    for (const m of r.unextracted) process.stderr.write(`gabarit: ${where}: example "${m}": its values are on the page${pagePaths.length === 1 ? '' : 's'}, but no one selector gives them\n`);
    for (const c of r.choices) {
      if (c.lookAlikes !== undefined) process.stderr.write(`gabarit: warning: example "${c.name}" is one of ${c.lookAlikes} look-alike elements on the page, picked by its position; for all of them give --example '${c.name}[]=…'\n`);
      if (c.pages < c.examplePages) process.stderr.write(`gabarit: warning: example "${c.name}": its pattern holds on ${c.pages} of ${c.examplePages} example pages only\n`);
    }
    if (!g.quiet) for (const c of r.choices) process.stderr.write(`gabarit: example "${c.name}": ${choiceText(c)}\n`);
    const text = JSON.stringify(r.wrapper, null, 1) + '\n';
    if (opts.out) writeFileSync(opts.out, text);
    else process.stdout.write(text);
    if (opts.out) process.stderr.write(`gabarit: wrapper with ${r.wrapper.patterns.length} top-level pattern(s) written to ${opts.out}\n`);
  });

  const run = wrapper
    .command('run')
    .description('extract records with a wrapper (JSON lines), adapting it where pages changed')
    .argument('<wrapper>', 'wrapper file (JSON)')
    .argument('<pages...>', "pages: HTML files, directories of pages, .warc/.warc.gz files, quoted globs of these ('pages/*.html'), or http(s) URLs")
    .option('-o, --out <dir>', 'write records.jsonl and summary.json there (default: the JSON lines on stdout)')
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
    const start = performance.now();
    const { parseWrapper, WrapperError } = await import('../wrapper/wrapper.ts');
    let text: string;
    try {
      text = readFileSync(wrapperPath, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the wrapper ${wrapperPath}: ${(e as Error).message}`);
    }
    let w: import('../wrapper/wrapper.ts').Wrapper;
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
    const { runWrapperOn } = await import('../run/wrapper.ts');
    const { updateWrapper } = await import('../wrapper/run.ts');
    const running = await runWrapperOn(() => w, pages, { fetch: opts, settings, ...(opts.url !== undefined ? { url: opts.url } : {}) });
    const { OutputWriter } = await import('../output.ts');
    const writer = opts.out ? new OutputWriter(outDir(opts.out)) : null;
    if (writer) await mkdir(writer.dir, { recursive: true });
    const out = writer ? createWriteStream(join(writer.dir, 'records.jsonl')) : process.stdout;
    const { summarizeRuns } = await import('../wrapper/design.ts');
    // Only what the summary needs of each run is kept (not the trees).
    const runs: Array<Pick<import('../wrapper/run.ts').PageRun, 'page' | 'reports'>> = [];
    let unreadable = 0;
    try {
      for await (const loaded of running.pages) {
        const page = loaded.name;
        if (!loaded.ok) {
          writer?.fail(loaded.failure);
          unreadable++;
          process.stderr.write(`gabarit: ${page}: ${loaded.failure.message}\n`);
          continue;
        }
        const r = loaded.run;
        runs.push({ page: r.page, reports: r.reports });
        for (const rep of r.reports) {
          if (g.quiet && rep.step !== 'not-found') continue;
          const line = reportLine(rep);
          if (line) process.stderr.write(`gabarit: ${page}: ${line}\n`);
        }
        out.write(JSON.stringify({ page, record: r.record, steps: stepsOf(r.reports) }) + '\n');
        if (opts.update !== undefined && r.adapted) w = updateWrapper(w, r, loaded.tree);
      }
    } catch (e) {
      // A selector of the wrapper that cannot be run fails on every page: the wrapper file is at fault.
      if (e instanceof WrapperError) throw new UsageError(`${wrapperPath}: ${e.message}`);
      throw e;
    }
    if (out !== process.stdout) await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(resolve));
    if (opts.update !== undefined) {
      const target = typeof opts.update === 'string' ? opts.update : wrapperPath;
      writeFileSync(target, JSON.stringify(w, null, 1) + '\n');
      process.stderr.write(`gabarit: wrapper written to ${target} (${w.history?.length ?? 0} adaptation(s) in its history)\n`);
    }
    const summary = summarizeRuns(runs);
    if (writer) {
      await writer.writeJson('summary.json', {
        command: 'wrapper run',
        wrapper: wrapperPath,
        source: pages.length === 1 ? pages[0] : `${pages.length} pages`,
        pagesLoaded: running.fetched(),
        timings: { total: Math.round(performance.now() - start) },
        pagesDone: summary.pages,
        pagesFailed: writer.failed.length,
        failures: writer.failed,
        pagesComplete: summary.complete,
        pagesIncomplete: summary.incomplete.length,
        patterns: summary.patterns,
        incomplete: summary.incomplete,
      });
      if (!g.quiet) process.stderr.write(`gabarit: ${summary.pages} page(s) done, records and summary in ${writer.dir}\n`);
    }
    if (summary.pages === 0) throw new NothingDone(`no page could be read (${unreadable} unreadable)`);
    const notFound = summary.incomplete.flatMap((x) => x.notFound.map((n) => `${x.page}: ${n.pattern}`));
    if (summary.incomplete.length > 0) throw new NothingDone(`could not find every pattern on ${summary.incomplete.length} of ${summary.pages} page(s): ${notFound.slice(0, 5).join(', ')}${notFound.length > 5 ? ', …' : ''}`);
  });
}

type Report = import('../wrapper/run.ts').PatternReport;

/** The `steps` of a record line: per pattern, how it was found (or why not). */
function stepsOf(reports: readonly Report[]): Record<string, Record<string, unknown>> {
  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  const steps: Record<string, Record<string, unknown>> = {};
  for (const rep of reports) {
    const s: Record<string, unknown> = { step: rep.step, similarity: rep.similarity === null ? null : round(rep.similarity) };
    if (rep.view && rep.step !== 'selector' && rep.step !== 'not-found') s['view'] = rep.view;
    if (rep.reason !== undefined) s['reason'] = rep.reason;
    if (rep.matched !== 1) s['matched'] = rep.matched;
    if (rep.rival) s['rival'] = { selector: rep.rival.selector, similarity: round(rep.rival.similarity) };
    if (rep.contentSimilarity !== undefined) s['contentSimilarity'] = round(rep.contentSimilarity);
    if (rep.documentSimilarity !== undefined) s['documentSimilarity'] = round(rep.documentSimilarity);
    if (rep.newSelector) s['selector'] = rep.newSelector;
    if (rep.step === 'not-found') s['violations'] = rep.violations;
    if (rep.cause) s['cause'] = rep.cause;
    if (rep.chosenBy) s['chosenBy'] = rep.chosenBy;
    steps[rep.pattern] = s;
  }
  return steps;
}

/** The stderr line of a pattern that was adapted or not found (null when its selector found it). */
function reportLine(rep: Report): string | null {
  if (rep.step === 'selector') return null;
  if (rep.step === 'not-found') {
    const views =
      (rep.contentSimilarity !== undefined ? `, on the content view ${rep.contentSimilarity.toFixed(3)}` : '') +
      (rep.documentSimilarity !== undefined ? `, on the document view ${rep.documentSimilarity.toFixed(3)}` : '');
    const why =
      rep.reason === 'ambiguous'
        ? rep.rival
          ? `ambiguous: ${rep.rival.selector} is as similar (${rep.rival.similarity.toFixed(3)})`
          : `ambiguous: ${rep.matched} elements match and give different values`
        : rep.reason === 'wrong-value'
          ? 'similar elements hold values that break its constraints'
          : rep.reason === 'not-adapted'
            ? 'adaptation is off or impossible'
            : `best similarity ${(rep.similarity ?? 0).toFixed(3)}${views}`;
    return `pattern "${rep.pattern}" not found (${rep.violations.join('; ')}; ${why})`;
  }
  const cause = rep.cause ? ` (the selector: ${rep.cause.join('; ')})` : '';
  return `pattern "${rep.pattern}" adapted by ${rep.step}${rep.view === 'content' ? ' on the content view' : rep.view === 'document' ? ' (same site, same title)' : ''}${rep.trigger ? ` (${rep.trigger} trigger)` : ''}, similarity ${(rep.similarity ?? 0).toFixed(3)}: ${rep.newSelector ?? rep.selector}${cause}`;
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
    const { selector, value } = selectorAndValue(f.slice(eq + 1).trim());
    if (selector === '') throw new UsageError(`--pattern ${JSON.stringify(f)}: the selector is empty`);
    const multiple = path.endsWith('[]');
    if (multiple) path = path.slice(0, -2);
    const parts = path.split('/');
    const name = parts[parts.length - 1]!;
    if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: "${name}" is not a valid name (letters, digits, _ and -)`);
    if (byName.has(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: pattern "${name}" is declared twice`);
    const spec: Spec = { name, selector, ...(multiple ? { multiple: true } : {}), ...(value !== undefined ? { value } : {}) };
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

/**
 * A pattern's selector and what its value is, from the text after `name=`: a trailing `@attr` is an
 * attribute (an XPath's `/@attr` step too), `::after` the text after the element (a label), `::own` its
 * own text nodes, `::text` its text (the default).
 */
export function selectorAndValue(raw: string): { selector: string; value?: string } {
  const pseudo = /^(.*?)\s*::(after|own|text)$/.exec(raw);
  if (pseudo) return pseudo[2] === 'text' ? { selector: pseudo[1]! } : { selector: pseudo[1]!, value: pseudo[2]! };
  const attr = /^(.*?[^\s@])\s*@([A-Za-z_][\w:.-]*)$/.exec(raw);
  if (attr) {
    const selector = /^\s*(?:[/(]|\.\.?\/)/.test(attr[1]!) ? attr[1]!.replace(/\/+$/, '') : attr[1]!;
    return { selector, value: `@${attr[2]!.toLowerCase()}` };
  }
  return { selector: raw };
}

/** Adds one example value of `name` to a page's values: a name given twice, or as `name[]`, is a list. */
function addExample(values: Record<string, string | string[]>, name: string, value: string, list: boolean): void {
  const had = values[name];
  values[name] = had === undefined ? (list ? [value] : value) : [...(Array.isArray(had) ? had : [had]), value];
}

/** A name of an example, with `[]` for a list: the name and whether it is a list, or a usage error. */
function exampleName(raw: string, what: string): { name: string; list: boolean } {
  let name = raw.trim();
  const list = name.endsWith('[]');
  if (list) name = name.slice(0, -2);
  if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new UsageError(`${what}: "${name}" is not a valid name (letters, digits, _ and -)`);
  return { name, list };
}

/**
 * The index of the page an example names: a page argument as given, else the one page argument with that
 * file name. A usage error otherwise.
 */
function pageIndex(page: string, pages: readonly string[], what: string): number {
  const exact = pages.indexOf(page);
  if (exact >= 0) return exact;
  const byName = pages.flatMap((p, k) => (basename(p) === page ? [k] : []));
  if (byName.length === 1) return byName[0]!;
  throw new UsageError(`${what}: ${byName.length > 1 ? `"${page}" names several pages` : `"${page}" is not one of the pages given`} (${pages.join(', ')})`);
}

/** The JSON examples file: per page, per name, a value or a list of values. */
export function readExamplesFile(file: string): Record<string, Record<string, string | string[]>> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--examples ${file}: ${(e as Error).message}`);
  }
  const bad = (why: string): never => {
    throw new UsageError(`--examples ${file}: ${why} (expected {"page.html": {"name": "value", "list": ["v1", "v2"]}, …})`);
  };
  if (!data || typeof data !== 'object' || Array.isArray(data)) bad('not an object');
  const out: Record<string, Record<string, string | string[]>> = {};
  for (const [page, values] of Object.entries(data as Record<string, unknown>)) {
    if (!values || typeof values !== 'object' || Array.isArray(values)) bad(`the values of "${page}" are not an object`);
    const v: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      if (typeof value === 'string') v[name] = value;
      else if (Array.isArray(value) && value.every((x) => typeof x === 'string')) v[name] = value as string[];
      else bad(`"${page}": "${name}" is neither a string nor a list of strings`);
    }
    out[page] = v;
  }
  return out;
}

/**
 * Example values per page (in the order of `pages`) from `--example [page:]name=value` flags and the
 * examples file: without a page, the first page; a name given twice on a page, or as `name[]`, is a list
 * (an array of its values).
 */
export function parseExampleFlags(
  flags: readonly string[],
  pages: readonly string[],
  file?: Readonly<Record<string, Record<string, string | string[]>>>,
): Array<Record<string, string | string[]>> {
  const out = pages.map((): Record<string, string | string[]> => ({}));
  for (const [page, values] of Object.entries(file ?? {})) {
    const k = pageIndex(page, pages, '--examples');
    for (const [raw, value] of Object.entries(values)) {
      const { name, list } = exampleName(raw, `--examples "${page}"`);
      for (const v of Array.isArray(value) ? value : [value]) addExample(out[k]!, name, v, list || Array.isArray(value));
    }
  }
  for (const f of flags) {
    const eq = f.indexOf('=');
    const what = `--example ${JSON.stringify(f)}`;
    if (eq <= 0) throw new UsageError(`${what}: expected [page:]name=value`);
    const left = f.slice(0, eq);
    const colon = left.lastIndexOf(':');
    const k = colon >= 0 ? pageIndex(left.slice(0, colon), pages, what) : 0;
    const { name, list } = exampleName(left.slice(colon + 1), what);
    addExample(out[k]!, name, f.slice(eq + 1), list);
  }
  return out;
}

/** What was chosen for an example name, in words (the stderr line of `wrapper create`). */
function choiceText(c: import('../wrapper/create.ts').ExampleChoice): string {
  const value = c.value === 'text' ? '' : c.value === 'after' ? ' (the text after this label)' : c.value === 'own' ? ' (its own text)' : ` (attribute ${c.value.slice(1)})`;
  const label = c.label !== undefined ? `; label ${JSON.stringify(c.label)}${c.byLabel > 0 ? ` (it left other matches out on ${c.byLabel} example page${c.byLabel > 1 ? 's' : ''})` : ''}` : '';
  const rank = c.rank !== undefined ? `; block ${c.rank} of its kind` : '';
  const [lo, hi] = c.values;
  const variation = c.multiple ? `; a list (${lo === hi ? lo : `${lo} to ${hi}`} value${hi > 1 ? 's' : ''} per example page)` : '; one value';
  return `${c.selector}${value}, a ${c.form} pattern, chosen among ${c.candidates}; holds on ${c.pages} of ${c.examplePages} example page${c.examplePages > 1 ? 's' : ''}${variation}${label}${rank}`;
}
