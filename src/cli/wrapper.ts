/**
 * The pages and the work are src/run/'s (wrapper.ts, wrapper-records.ts; the pattern syntax
 * wrapper-syntax.ts), the wrapper logic src/wrapper/'s; this file parses the options and prints.
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
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../errors.ts';
import { WRAPPER_CREATE_OPTIONS, WRAPPER_FETCH_OPTIONS, WRAPPER_RUN_OPTIONS, type WrapperCreateFlags, type WrapperFetchFlags, type WrapperRunFlags } from '../run/options.ts';
import { globalOptions, NothingDone, outDir } from './run.ts';
import { addDeclaredOptions } from './parsers.ts';

function addFetchOptions(cmd: Command): Command {
  return addDeclaredOptions(cmd, WRAPPER_FETCH_OPTIONS);
}

type CreateFlags = WrapperCreateFlags & WrapperFetchFlags;
type RunFlags = WrapperRunFlags & WrapperFetchFlags;

/** Registers `gabarit wrapper`. */
export function register(program: Command): void {
  const wrapper = program.command('wrapper').description('self-healing wrappers (paper 5): create one from pages, run it on pages (adapting when pages changed)');

  const create = wrapper
    .command('create')
    .description('write a wrapper (patterns with selectors and tree-grams) from a page, or from example values on several pages')
    .argument('<pages...>', 'HTML files or http(s) URLs of the pages the wrapper is built on (selectors: the first one; examples: each its own)');
  addDeclaredOptions(create, WRAPPER_CREATE_OPTIONS);
  addFetchOptions(create);
  create.action(async (pagePaths: string[], opts: CreateFlags, self: Command) => {
    const g = globalOptions(self);
    const { createWrapperOn, PageUnusable } = await import('../run/wrapper.ts');
    const { WrapperError } = await import('../wrapper/wrapper.ts');
    if (!opts.pattern?.length && !opts.example?.length && !opts.examples) throw new UsageError('give at least one --pattern name=selector, --example name=value or --examples FILE');
    const { parseExampleFlags, parsePatternFlags, readExamplesFile } = await import('../run/wrapper-syntax.ts');
    const specs = parsePatternFlags(opts.pattern ?? []);
    const examples = parseExampleFlags(opts.example ?? [], pagePaths, opts.examples !== undefined ? readExamplesFile(opts.examples) : undefined);
    // the adaptation settings given (a view is written only when turned off)
    const { pattern: _p, example: _e, examples: _x, out: _o, name: _n, url: _u, content, document, ...given } = WRAPPER_CREATE_OPTIONS.pick(opts);
    const adaptation = { ...given, ...(content ? {} : { content }), ...(document ? {} : { document }) };
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
    .argument('<pages...>', "pages: HTML files, directories of pages, .warc/.warc.gz files, quoted globs of these ('pages/*.html'), or http(s) URLs");
  addDeclaredOptions(run, WRAPPER_RUN_OPTIONS);
  addFetchOptions(run);
  run.action(async (wrapperPath: string, pages: string[], opts: RunFlags, self: Command) => {
    const g = globalOptions(self);
    // the settings given override the wrapper's (a view only when turned off)
    const { out: _o, update: _u, url: _a, workers, content, document, ...given } = WRAPPER_RUN_OPTIONS.pick(opts);
    const settings = { ...given, ...(content ? {} : { content }), ...(document ? {} : { document }) };
    const { runWrapperFile } = await import('../run/wrapper-records.ts');
    const dir = opts.out ? outDir(opts.out) : undefined;
    const update = opts.update === undefined ? undefined : typeof opts.update === 'string' ? opts.update : wrapperPath;
    const { wrapper: w, summary, unreadable } = await runWrapperFile(wrapperPath, pages, {
      fetch: opts,
      settings,
      ...(opts.url !== undefined ? { url: opts.url } : {}),
      ...(dir !== undefined ? { dir } : {}),
      ...(update !== undefined ? { update } : {}),
      workers,
      onFailure: (page, message) => process.stderr.write(`gabarit: ${page}: ${message}\n`),
      onPage: (page, r) => {
        for (const rep of r.reports) {
          if (g.quiet && rep.step !== 'not-found') continue;
          const line = reportLine(rep);
          if (line) process.stderr.write(`gabarit: ${page}: ${line}\n`);
        }
      },
    });
    if (update !== undefined) process.stderr.write(`gabarit: wrapper written to ${update} (${w.history?.length ?? 0} adaptation(s) in its history)\n`);
    if (dir !== undefined && !g.quiet) process.stderr.write(`gabarit: ${summary.pages} page(s) done, records and summary in ${dir}\n`);
    if (summary.pages === 0) throw new NothingDone(`no page could be read (${unreadable} unreadable)`);
    const notFound = summary.incomplete.flatMap((x) => x.notFound.map((n) => `${x.page}: ${n.pattern}`));
    if (summary.incomplete.length > 0) throw new NothingDone(`could not find every pattern on ${summary.incomplete.length} of ${summary.pages} page(s): ${notFound.slice(0, 5).join(', ')}${notFound.length > 5 ? ', …' : ''}`);
  });
}

type Report = import('../wrapper/run.ts').PatternReport;

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

/** What was chosen for an example name, in words (the stderr line of `wrapper create`). */
function choiceText(c: import('../wrapper/create.ts').ExampleChoice): string {
  const value = c.value === 'text' ? '' : c.value === 'after' ? ' (the text after this label)' : c.value === 'own' ? ' (its own text)' : ` (attribute ${c.value.slice(1)})`;
  const label = c.label !== undefined ? `; label ${JSON.stringify(c.label)}${c.byLabel > 0 ? ` (it left other matches out on ${c.byLabel} example page${c.byLabel > 1 ? 's' : ''})` : ''}` : '';
  const rank = c.rank !== undefined ? `; block ${c.rank} of its kind` : '';
  const [lo, hi] = c.values;
  const variation = c.multiple ? `; a list (${lo === hi ? lo : `${lo} to ${hi}`} value${hi > 1 ? 's' : ''} per example page)` : '; one value';
  return `${c.selector}${value}, a ${c.form} pattern, chosen among ${c.candidates}; holds on ${c.pages} of ${c.examplePages} example page${c.examplePages > 1 ? 's' : ''}${variation}${label}${rank}`;
}
