/**
 * What the UI's server holds for one source, over the library: the source opened once and its pages
 * parsed once (titles, and the trees the wrapper designer works on), the pages grouped by structure
 * (run/cluster.ts, as `gabarit cluster` groups them), and each template engine's run (run/content.ts `extractContent`: the template
 * removed, the main block chosen), made the first time the user picks that engine and kept. No engine
 * logic here: only calls, and the figures the report shows (run/report.ts `pageFigures`).
 */
import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cluster } from '../run/cluster.ts';
import { LabelTable } from '../html/labels.ts';
import type { Tree } from '../html/tree.ts';
import { fractionChart, type ReportPage } from '../report/html-report.ts';
import { extractContent } from '../run/content.ts';
import { pageFigures } from '../run/report.ts';
import type { SourceInput } from '../run/types.ts';
import { parsePage, type PageCut, type PageSource } from '../site/page.ts';
import { openSource, type SourceOptions } from '../site/source.ts';
import { ENGINES, type Method } from '../template/engines.ts';
import type { PageMarks } from '../template/result.ts';
import type { EngineInfo, SiteInfo } from './api.ts';

/** The engine choice that lets the content pipeline pick the engine best suited to the source. */
export const AUTO = 'auto';

/** Options of a session. */
export interface SessionOptions {
  /** Pages read from the source at most (default UI_MAX_PAGES). */
  maxPages?: number;
  sourceOptions?: SourceOptions;
  /** The source as the user named it (default: the path or URL given, or the open source's root). */
  label?: string;
  /** Pages read so far, while opening. */
  onProgress?: (done: number) => void;
  /** Told when `maxPages` left pages of the source unread. */
  onCut?: (cut: PageCut) => void;
}

/** Pages a session reads by default: the UI keeps every page's tree in memory. */
export const UI_MAX_PAGES = 2000;

/** One engine's run, kept. */
interface EngineRun {
  info: EngineInfo;
  marks: Map<string, PageMarks>;
}

/** The text of a page's first `<title>`, white space collapsed ('' when none). */
function titleOf(tree: Tree): string {
  const t = tree.find('title');
  if (t < 0) return '';
  let s = '';
  for (let c = t + 1; c < tree.end[t]!; c++) s += tree.nodeText(c);
  return s.replace(/\s+/g, ' ').trim();
}

export class Session {
  /** Page key → its tree (parsed once, with one label table for the site). */
  private readonly trees = new Map<string, Tree>();
  private readonly runs = new Map<string, Promise<EngineRun>>();
  private siteInfo!: SiteInfo;

  private constructor(
    readonly spec: string,
    readonly source: PageSource,
    /** The real path of the source's directory, when it is one (its files are the pages' resources). */
    readonly dir: string | null,
    /** The session opened the source (and closes it). */
    private readonly owned: boolean,
  ) {}

  /**
   * Opens the source (a path or URL; an open PageSource is used as it is and left open), reads and parses
   * its pages, groups them by structure.
   */
  static async open(input: SourceInput, options: SessionOptions = {}): Promise<Session> {
    const owned = typeof input === 'string';
    const source = typeof input === 'string' ? await openSource(input, options.sourceOptions ?? {}) : input;
    const s = new Session(options.label ?? (typeof input === 'string' ? input : source.root), source, source.kind === 'dir' ? await realpath(fileURLToPath(source.root)) : null, owned);
    try {
      await s.load(options);
    } catch (err) {
      await s.close();
      throw err;
    }
    return s;
  }

  private async load(options: SessionOptions): Promise<void> {
    const labels = new LabelTable();
    const pages: SiteInfo['pages'] = [];
    const failures: SiteInfo['failures'] = [];
    for await (const r of this.source.pages({ maxPages: options.maxPages ?? UI_MAX_PAGES, ...(options.onCut ? { onCut: options.onCut } : {}) })) {
      if (!r.ok) {
        failures.push({ key: r.key, message: r.error.message });
        continue;
      }
      const tree = parsePage(r.page, labels);
      this.trees.set(r.page.key, tree);
      pages.push({ key: r.page.key, url: r.page.url, title: titleOf(tree), cluster: null });
      options.onProgress?.(pages.length);
    }
    const clusters: SiteInfo['clusters'] = [];
    if (pages.length > 1) {
      // The page classes `gabarit cluster` gives (run/cluster.ts, its defaults: by schema or shape, split by section).
      const c = await cluster(this.source, { workers: 0 });
      for (const p of pages) p.cluster = c.assignment.get(p.key) ?? null;
      for (const k of c.clusters) {
        const section = typeof k['section'] === 'string' && k['section'] !== '' ? { section: k['section'] } : {};
        clusters.push({ id: k.id, pages: k.keys.length, schema: Array.isArray(k['schema']) ? (k['schema'] as string[]) : [], ...section });
      }
    }
    this.siteInfo = { source: this.spec, kind: this.source.kind, pages, clusters, engines: [AUTO, ...Object.keys(ENGINES)], failures };
  }

  site(): SiteInfo {
    return this.siteInfo;
  }

  /** Page keys in source order. */
  keys(): string[] {
    return [...this.trees.keys()];
  }

  /** True when `method` is an engine the UI offers. */
  isEngine(method: string): boolean {
    return method === AUTO || Object.hasOwn(ENGINES, method);
  }

  /** The run of `method` on the source (made once; later calls share it). */
  engine(method: string): Promise<EngineRun> {
    let run = this.runs.get(method);
    if (!run) {
      run = this.runEngine(method);
      this.runs.set(method, run);
    }
    return run;
  }

  private async runEngine(method: string): Promise<EngineRun> {
    const t0 = performance.now();
    const run = extractContent(this.source, { ...(method === AUTO ? {} : { method: method as Method }), onWarning: () => undefined });
    const marks = new Map<string, PageMarks>();
    const pages: EngineInfo['pages'] = [];
    const failures: EngineInfo['failures'] = [];
    let error: string | null = null;
    try {
      for await (const o of run) {
        if (!o.ok) {
          failures.push({ key: o.key, message: o.failure.message });
          continue;
        }
        marks.set(o.key, o.marks);
        pages.push({ key: o.key, ...pageFigures(o.marks), ...(o.noContent ? { noContent: o.noContent.message } : {}) });
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const result = await run.result().catch(() => null);
    const fractions = pages.map((p) => p.templateFraction);
    const template = result?.template ?? null;
    const about = (template as { about?: Record<string, unknown>; sites?: Array<{ about?: Record<string, unknown> }> } | null);
    const info: EngineInfo = {
      requested: method,
      method: result?.method ?? method,
      reason: String(result?.extra['reason'] ?? ''),
      pages,
      failures,
      error,
      figures: { pages: pages.length, failed: failures.length, meanTemplateFraction: fractions.length ? fractions.reduce((a, b) => a + b, 0) / fractions.length : NaN, ms: performance.now() - t0 },
      template: { bytes: template === null ? 0 : JSON.stringify(template).length, about: about?.about ?? about?.sites?.[0]?.about ?? null },
      chart: fractionChart(pages.map((p): ReportPage => ({ key: p.key, url: '', templateFraction: p.templateFraction, contentWords: p.contentWords, contentFraction: p.contentFraction }))),
    };
    return { info, marks };
  }

  /**
   * The tree of page `key` and, when `method`'s run marked it, its marks. With a method, the tree is the
   * one the run marked (node numbers of its marks); every tree of a page has the same node numbers (one
   * parser), so a node number means the same element whichever tree it came from.
   */
  async page(key: string, method: string | null): Promise<{ tree: Tree; marks: PageMarks | null } | null> {
    if (method !== null && this.isEngine(method)) {
      const m = (await this.engine(method)).marks.get(key);
      if (m) return { tree: m.tree, marks: m };
    }
    const tree = this.trees.get(key);
    return tree ? { tree, marks: null } : null;
  }

  /** Every page's tree, in source order (the designer's preview and values). */
  allTrees(): Array<{ key: string; tree: Tree }> {
    return [...this.trees].map(([key, tree]) => ({ key, tree }));
  }

  async close(): Promise<void> {
    if (this.owned) await this.source.close();
  }
}
