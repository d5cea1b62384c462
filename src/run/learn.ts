/**
 * Learn once, apply many (DESIGN.md, "Learn, then apply"):
 *  - `learnTemplate(source, { method, ...options })`: the engine's learning alone, site by site as the
 *    pipelines go (by-site.ts); a Template for a source of one site, a TemplateSet for several (sites of one
 *    page are left out: nothing can be learned from one page), and the pages it could not learn from;
 *  - `applyTemplate(template, htmlOrTree)`: one page marked with a learned template (compiled once per
 *    template object, then applied page after page);
 *  - `applyToSource(template, source)`: every page of a source marked with it, as a pipeline (what
 *    `gabarit apply` runs), giving the same outcomes and output contract as `detectTemplate`.
 * The template of a TemplateSet is chosen by the page's site (its URL's host, else the URL it declares);
 * a page of no site of the set gets the single-page answer (its main block).
 */
import { EngineError, UsageError } from '../errors.ts';
import { decodeHtml } from '../html/charset.ts';
import { LabelTable } from '../html/labels.ts';
import { Tree } from '../html/tree.ts';
import type { PageFailure } from '../output.ts';
import { compilerOf, ENGINES, loadEngine } from '../template/engines.ts';
import { type Applier, type ApplyInput, inputTree, inputUrl, readTemplate, type Template, TEMPLATE_SET_FORMAT, TEMPLATE_VERSION, TemplateError, type TemplateSet } from '../template/learned.ts';
import type { PageMarks, RenderedPage } from '../template/result.ts';
import { runBySite } from './by-site.ts';
import { type CommandHooks, type PipelineDestination, pipelineCommand } from './command.ts';
import { doneOutcome, type Driven, type Emit, type PipelineRun, type RenderingRun, runPipeline } from './drive.ts';
import { openInput } from './source.ts';
import { SINGLE_PAGE, singleTreeMarks } from './single.ts';
import { declaredUrl, hostOf } from './sites.ts';
import { type DetectOptions, splitOptions } from './template.ts';
import type { SourceFlags } from './options.ts';
import type { AnyOutcome, PageRendered, RunControls, SourceInput } from './types.ts';
import type { Written } from './write.ts';

/** What `learnTemplate` gives: the template learned, and the pages it could not learn from, with why. */
export interface Learned {
  /** A Template for a source of one site, a TemplateSet for several (serialisable: template.json). */
  template: Template | TemplateSet;
  /** Pages that could not be read or parsed (the engine learned without them). */
  failures: PageFailure[];
}

/** Learns the template of each site of `source` (see the module comment). */
export async function learnTemplate(source: SourceInput, options: DetectOptions = {}): Promise<Learned> {
  const { method, engine: values, controls } = splitOptions(options as Readonly<Record<string, unknown>>);
  const engine = await loadEngine(method);
  const opened = await openInput(source, controls);
  const templates: Template[] = [];
  const failures: PageFailure[] = [];
  try {
    const collectFailures: Emit = async (o) => {
      if (!o.ok) failures.push(o.failure);
    };
    await runBySite(opened.source, method, controls, collectFailures, async (view, emit, site) => {
      const driven: Driven = { done: 0, failed: 0, noContent: 0 };
      const r = await engine.learn({
        source: view,
        labels: controls.labels ?? new LabelTable(),
        options: values,
        site,
        onFailure: (failure) => {
          driven.failed++;
          void emit({ ok: false, key: failure.key, url: failure.url, failure });
        },
        ...(controls.onProgress ? { onProgress: controls.onProgress } : {}),
        ...(controls.onWarning ? { onWarning: controls.onWarning } : {}),
        ...(controls.signal ? { signal: controls.signal } : {}),
      });
      templates.push(r.template);
      return { ...driven, run: { template: r.template, summary: r.summary, timings: r.timings } };
    }, { alone: false });
    if (templates.length === 0) throw new EngineError('too-few-pages', `${opened.spec}: no site with two pages or more; a template is learned from at least two pages of one site`);
  } finally {
    await opened.close();
  }
  return { template: templates.length === 1 ? templates[0]! : { format: TEMPLATE_SET_FORMAT, version: TEMPLATE_VERSION, sites: templates }, failures };
}

/** Compiles a template (throws TemplateError for an unknown method or bad data). */
export function compileTemplate(template: Template): Applier {
  const compile = compilerOf(template.method);
  if (!compile) throw new TemplateError(`template of an unknown method "${template.method}" (known: ${Object.keys(ENGINES).join(', ')})`);
  return compile(template);
}

/** Templates read from the values given (a template.json value is checked once), and their appliers. */
const checked = new WeakMap<object, Template | TemplateSet>();
const appliers = new WeakMap<Template, Applier>();

/** The template a value reads as (a Template, a TemplateSet, or a parsed template.json); throws TemplateError. */
function validated(value: unknown): Template | TemplateSet {
  if (typeof value !== 'object' || value === null) return readTemplate(value);
  let t = checked.get(value);
  if (!t) {
    t = readTemplate(value);
    checked.set(value, t);
  }
  return t;
}

/** The applier of a template (compiled once per template). */
function applierOf(template: Template): Applier {
  let a = appliers.get(template);
  if (!a) {
    a = compileTemplate(template);
    appliers.set(template, a);
  }
  return a;
}

/**
 * The template of a set for a page: the one of its site (its URL's host, else the URL it declares); for a
 * page whose site is not known (no host, none declared), the set's only template when it has one.
 */
function siteTemplate(set: TemplateSet, url: string, html: string): Template | undefined {
  const declared = declaredUrl(html);
  const host = hostOf(url) ?? (declared === undefined ? undefined : hostOf(declared));
  if (host === undefined) return set.sites.length === 1 ? set.sites[0] : undefined;
  return set.sites.find((t) => t.site === host);
}

/** A page marked with a template: its marks and the engine's figures for it. */
export interface AppliedPage extends PageMarks {
  readonly info: Record<string, unknown>;
}

/** What `applyTemplate` may be told of the page. */
export interface ApplyOptions {
  /** The page's key (for its output files; default `page.html`) and URL (its site, link targets). */
  key?: string;
  url?: string;
}

/**
 * Marks one page (HTML text, bytes, or a parsed Tree) with a learned template or template set (a value
 * read from template.json is accepted as is).
 */
export function applyTemplate(template: Template | TemplateSet | unknown, input: ApplyInput, options: ApplyOptions = {}): AppliedPage {
  const t = validated(template);
  const key = options.key ?? 'page.html';
  const url = options.url ?? inputUrl(input) ?? `http://page.invalid/${key}`;
  const page = withUrl(input, url);
  const one = t.format === TEMPLATE_SET_FORMAT ? siteTemplate(t, url, htmlOf(page)) : t;
  if (!one) {
    // A page of no site of the set: the single-page answer.
    const { marks, info } = singleTreeMarks(inputTree(page, new LabelTable()), key, url);
    return { ...marks, info };
  }
  const a = applierOf(one).apply(page);
  return { key, url, tree: a.tree, template: a.template, info: a.info };
}

/** The page with its URL (for the templates that read link targets), bytes decoded. */
function withUrl(input: ApplyInput, url: string): ApplyInput {
  if (typeof input === 'string') return { html: input, url };
  if (input instanceof Tree) return input;
  if ('bytes' in input) {
    const xhtml = (input.contentType ?? '').includes('xhtml') || /\.xhtml$/i.test(input.key ?? '');
    return { html: decodeHtml(input.bytes, input.contentType).text, xhtml, url: input.url ?? url };
  }
  return input.url !== undefined ? input : { ...input, url };
}

/** The HTML of a page to apply a template to ('' for a Tree: its site is known by its URL alone). */
function htmlOf(input: ApplyInput): string {
  return typeof input === 'object' && 'html' in input ? input.html : '';
}

/**
 * Marks every page of `source` with `template` (a Template or TemplateSet): what `gabarit apply` runs, the
 * pages marked in worker threads (`controls.workers`, page-pool.ts) and handed on in the source's order.
 */
export function applyToSource(template: Template | TemplateSet, source: SourceInput, controls: RunControls & { rendered: true }): RenderingRun;
export function applyToSource(template: Template | TemplateSet, source: SourceInput, controls?: RunControls): PipelineRun;
export function applyToSource(template: Template | TemplateSet, source: SourceInput, controls: RunControls = {}): PipelineRun | RenderingRun {
  const set = template.format === TEMPLATE_SET_FORMAT ? (template as TemplateSet) : null;
  const method = set ? (set.sites[0]?.method ?? SINGLE_PAGE) : (template as Template).method;
  return runPipeline('apply', source, controls, async (src, emit, signal) => {
    const driven = { done: 0, failed: 0, noContent: 0 };
    let n = 0;
    const [{ eachPage, defaultWorkers }, { applyWork }] = await Promise.all([import('./page-pool.ts'), import('./pooled.ts')]);
    for await (const a of eachPage(src.pages(), { ...applyWork(template, controls.rendered === true), workers: controls.workers ?? defaultWorkers(), signal })) {
      if (!a.ok) {
        driven.failed++;
        await emit({ ok: false, key: a.failure.key, url: a.failure.url, failure: a.failure });
        continue;
      }
      const v = a.value;
      const o: AnyOutcome = 'rendered' in v ? renderedOutcome(v.rendered, v.info) : doneOutcome(v, v.info);
      driven.done++;
      if (o.noContent) driven.noContent++;
      await emit(o);
      controls.onProgress?.('apply', ++n);
    }
    return { method, options: set ? {} : (template as Template).options, driven, learned: { template, engine: { pagesMarked: driven.done }, timings: {} } };
  });
}

/** The outcome of a page rendered (in a worker), its no-content check made on its tree there. */
function renderedOutcome(rendered: RenderedPage, info: Record<string, unknown>): PageRendered {
  const nc = rendered.noContent ?? undefined;
  return { ok: true, key: rendered.key, url: rendered.url, rendered, info, ...(nc ? { noContent: nc } : {}) };
}

/**
 * `gabarit apply` without printing: reads the template `file` (one that cannot be read is a UsageError),
 * opens `spec` with the source options, marks every page with the template and writes the output contract
 * to `to` (`pipelineCommand`).
 */
export async function applyCommand(file: string, spec: string, flags: SourceFlags & { workers?: number }, to: PipelineDestination, hooks: CommandHooks = {}): Promise<Written> {
  const { readFile } = await import('node:fs/promises');
  let template;
  try {
    template = readTemplate(JSON.parse(await readFile(file, 'utf8')) as unknown, file);
  } catch (err) {
    if (err instanceof TemplateError) throw new UsageError(err.message);
    const code = (err as { code?: string }).code;
    throw new UsageError(code === 'ENOENT' ? `no such template file: ${file}` : `${file}: not a template (${(err as Error).message})`);
  }
  return pipelineCommand(spec, flags, to, hooks, (source, controls) => applyToSource(template, source, { ...controls, rendered: true, ...(flags.workers !== undefined ? { workers: flags.workers } : {}) }), { summary: { template: file } });
}
