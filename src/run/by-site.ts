/**
 * A pipeline's work site by site (sites.ts): a source of one site runs the engine once, over the source
 * itself; a source of several sites runs it once per site of at least two pages, over a view holding that
 * site's pages, and gives each page alone the single-page answer (single.ts), or leaves it out (learning). A site whose engine cannot
 * justify a result has its pages named as failed (with the engine's code) and the run goes on; the run's
 * error is set only when no site gave a page.
 */
import type { HeadlinePlacement } from '../content/extract.ts';
import { LabelTable } from '../html/labels.ts';
import { loadEach } from '../site/check.ts';
import type { PageSource } from '../site/page.ts';
import type { EngineRun } from '../template/engine.ts';
import { doneOutcome, type Driven, type Emit } from './drive.ts';
import { singlePageMarks, SINGLE_PAGE } from './single.ts';
import { groupSource, hostOf, type SiteGroup } from './sites.ts';
import { TEMPLATE_FORMAT, TEMPLATE_SET_FORMAT, TEMPLATE_VERSION } from '../template/learned.ts';
import type { PageOutcome, RunControls } from './types.ts';

/**
 * The entry of a site of `source` holding `keys`: the source's entry when held, else the site's home
 * page: its shallowest `index.html` (`python-docs/index.html`, `a.example/index.html` in an archive of
 * several sites; `std/index.html` in a directory whose root has no index file), else the first key.
 */
function siteEntry(source: PageSource, keys: readonly string[]): string {
  const entryKey = source.keyOf(source.entry);
  if (entryKey !== undefined && keys.includes(entryKey)) return source.entry;
  const depth = (k: string): number => k.split('/').length;
  const home = keys.filter((k) => k === 'index.html' || k.endsWith('/index.html')).reduce<string | undefined>((a, k) => (a === undefined || depth(k) < depth(a) ? k : a), undefined);
  return source.urlOf(home ?? keys[0]!);
}

/** A view of `source` holding only `keys` (loaded by key), entered at the site's entry (`siteEntry`). */
export function siteView(source: PageSource, keys: readonly string[]): PageSource {
  return entered(source, siteEntry(source, keys), (options = {}) => loadEach(keys, options, (k) => source.urlOf(k), (k) => source.get(k)));
}

/** `source` with another entry, its pages listed by `pages` (by default the source's own listing). */
function entered(source: PageSource, entry: string, pages: PageSource['pages'] = (options = {}) => source.pages(options)): PageSource {
  return {
    get kind() {
      return source.kind;
    },
    root: source.root,
    entry,
    get loaded() {
      return source.loaded;
    },
    pages,
    get: (urlOrKey) => source.get(urlOrKey),
    keyOf: (url) => source.keyOf(url),
    urlOf: (key) => source.urlOf(key),
    close: async () => undefined,
  };
}

/** One site's run, as the result's template and summary show it. */
export interface SiteRun {
  site: string;
  by: SiteGroup['by'] | 'source';
  pages: number;
  /** The engine's method, or 'main-block' for a page alone. */
  method: string;
  run?: EngineRun;
  error?: { code: string; message: string };
}

/** What a run site by site gives: the counts of every site together, and each site's run. */
export interface BySite {
  driven: Driven;
  sites: SiteRun[];
}

/** How pages alone are handled: the single-page answer with its headline placed so, or left out (`alone: false`). */
export interface AloneOptions {
  headline?: HeadlinePlacement;
  /** Give each page alone the single-page answer (default true); false leaves it out (learning only). */
  alone?: boolean;
}

/**
 * Runs `runSite` on each site of `source` of at least two pages (on the source itself when it is one
 * site), and the single-page answer on each page alone; pages are handed to `emit`.
 */
export async function runBySite(source: PageSource, method: string, controls: RunControls, emit: Emit, runSite: (view: PageSource, emit: Emit, site: string) => Promise<Driven>, how: AloneOptions = {}): Promise<BySite> {
  const unread: PageOutcome[] = [];
  const groups = await groupSource(source, (r) => unread.push({ ok: false, key: r.key, url: r.url, failure: { url: r.url, key: r.key, code: r.error.code, message: r.error.message } }));
  const total: Driven = { done: 0, failed: 0, noContent: 0 };
  const sites: SiteRun[] = [];
  const add = (d: Driven): void => {
    total.done += d.done;
    total.failed += d.failed;
    total.noContent += d.noContent;
  };
  if (groups === null || (groups.length === 1 && groups[0]!.keys.length >= 2)) {
    // One site: the engine reads the source itself (unreadable pages are its to report), entered at the
    // site's home page when the source's entry is not one of its pages (a directory with no root index).
    const entry = groups === null ? source.entry : siteEntry(source, groups[0]!.keys);
    const d = await runSite(entry === source.entry ? source : entered(source, entry), emit, groups?.[0]?.site ?? hostOf(source.root) ?? source.root);
    add(d);
    sites.push({ site: groups?.[0]?.site ?? source.root, by: groups ? groups[0]!.by : 'source', pages: d.done, method: methodOf(d, method), ...(d.run ? { run: d.run } : {}), ...(d.error ? { error: d.error } : {}) });
    if (d.error) total.error = d.error;
    if (d.run) total.run = d.run;
    return { driven: total, sites };
  }
  for (const o of unread) {
    total.failed++;
    await emit(o);
  }
  const labels = controls.labels ?? new LabelTable();
  for (const g of groups) {
    if (g.keys.length === 1) {
      if (how.alone === false) continue;
      add(await single(source, g.keys[0]!, labels, emit, how.headline ?? 'first'));
      sites.push({ site: g.site, by: g.by, pages: 1, method: SINGLE_PAGE });
      continue;
    }
    const given = new Set<string>();
    const d = await runSite(
      siteView(source, g.keys),
      (o) => {
        given.add(o.key);
        return emit(o);
      },
      g.site,
    );
    add(d);
    if (d.error) {
      // The site's pages not given before the engine stopped are failures of this site; the run goes on.
      for (const key of g.keys.filter((k) => !given.has(k))) {
        total.failed++;
        const url = source.urlOf(key);
        await emit({ ok: false, key, url, failure: { url, key, code: d.error.code, message: `${url}: ${d.error.message}` } });
      }
    }
    sites.push({ site: g.site, by: g.by, pages: d.done, method: methodOf(d, method), ...(d.run ? { run: d.run } : {}), ...(d.error ? { error: d.error } : {}) });
  }
  if (total.done === 0) {
    const err = sites.find((s) => s.error)?.error;
    if (err) total.error = err;
  }
  return { driven: total, sites };
}

/** The method a site's run used: the content engine's choice, else the engine's. */
function methodOf(d: Driven, method: string): string {
  const m = d.run?.summary['method'];
  return typeof m === 'string' && m !== '' ? m : method;
}

/** The single-page answer of one page, handed to `emit`. */
async function single(source: PageSource, key: string, labels: LabelTable, emit: Emit, headline: HeadlinePlacement): Promise<Driven> {
  const url = source.urlOf(key);
  let outcome: PageOutcome;
  try {
    const page = await source.get(key);
    const { marks, info } = singlePageMarks(page, labels, headline);
    outcome = doneOutcome(marks, info);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    outcome = { ok: false, key, url, failure: { url, key, code: e.code ?? 'read-error', message: e.message ?? String(err) } };
  }
  await emit(outcome);
  return { done: outcome.ok ? 1 : 0, failed: outcome.ok ? 0 : 1, noContent: outcome.ok && outcome.noContent ? 1 : 0 };
}

/** What the result says of a run site by site: one site's template and figures, or each site's. */
export function siteResults(r: BySite): { template: unknown; engine: Record<string, unknown>; timings: Record<string, number> } {
  const only = r.sites.length === 1 ? r.sites[0]!.run : undefined;
  if (only) return { template: only.template, engine: only.summary, timings: only.timings };
  const sites = r.sites.map((s) => ({ site: s.site, by: s.by, pages: s.pages, method: s.method, ...(s.error ? { error: s.error } : {}) }));
  // The largest site's figures stay where a source of one site has them; each site's are under `sites`.
  const main = r.sites.filter((s) => s.run).reduce<SiteRun | undefined>((a, b) => (a === undefined || b.pages > a.pages ? b : a), undefined);
  return {
    template: { format: TEMPLATE_SET_FORMAT, version: TEMPLATE_VERSION, sites: r.sites.filter((s) => s.run).map((s) => learnedOf(s.run!.template)) },
    engine: { ...(main?.run?.summary ?? {}), sites: r.sites.map((s, i) => ({ ...sites[i]!, ...(s.run ? { summary: s.run.summary } : {}) })), sitesAlone: r.sites.filter((s) => s.method === SINGLE_PAGE).length },
    timings: main?.run?.timings ?? {},
  };
}

/** The Template in what a run learned (the content engine wraps its template engine's with the method chosen). */
function learnedOf(template: unknown): unknown {
  const inner = (template as { template?: { format?: unknown } } | null)?.template;
  return inner?.format === TEMPLATE_FORMAT ? inner : template;
}
