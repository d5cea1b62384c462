/**
 * The output contract (DESIGN.md, "Results and outputs"), written once for every engine:
 *  - `<page>.txt`  the text kept (non-template text, or main content), blocks on their own lines;
 *  - `<page>.html` the page with every template element marked `data-gabarit="template"` (and main content
 *                  elements `data-gabarit="content"` when the engine gives content marks);
 *  - `template.json` what was learned, `summary.json` pages done, failures with reasons, pages loaded,
 *                  time per phase.
 * `<page>` is the page key (its path relative to the source root) without a trailing .html/.htm/.xhtml.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { serialize } from './html/serialize.ts';
import { keptText, type PageMarks, templateFraction } from './template/result.ts';
import type { PageErrorCode } from './errors.ts';

export interface PageFailure {
  url: string;
  key: string;
  code: PageErrorCode | string;
  message: string;
}

export interface PageReport {
  key: string;
  url: string;
  /** Fraction of the page's body text that is template. */
  templateFraction: number;
  [extra: string]: unknown;
}

/** What a command says of its run; the writer adds pages and failures. */
export interface SummaryBase {
  command: string;
  method?: string;
  source: string;
  /** Pages loaded over the network (downloads), when the source is HTTP. */
  pagesLoaded: number;
  /** Milliseconds per phase. */
  timings: Record<string, number>;
  [extra: string]: unknown;
}

export interface Summary extends SummaryBase {
  pagesDone: number;
  pagesFailed: number;
  pages: PageReport[];
  failures: PageFailure[];
  [extra: string]: unknown;
}

/** The file stem of a page key: safe (no `..`, no absolute path) and without an HTML extension. */
export function pageStem(key: string): string {
  let k = key.replace(/\\/g, '/').replace(/^\/+/, '');
  if (k === '' || k.endsWith('/')) k += 'index.html';
  k = k.replace(/\.(html?|xhtml)$/i, '');
  const parts = k.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  return parts.join('/') || 'index';
}

/** A page's output already rendered (an engine that writes it without the page's tree, e.g. pagelets). */
export interface RenderedPage {
  key: string;
  url: string;
  /** `<page>.html`: the page with its marks. */
  html: string;
  /** `<page>.txt` without its final newline: the text kept. */
  text: string;
  /** Fraction of the page's body text that is template. */
  templateFraction: number;
}

export class OutputWriter {
  readonly dir: string;
  private readonly reports: PageReport[] = [];
  private readonly failures: PageFailure[] = [];

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(key: string, ext: string): string {
    const p = normalize(join(this.dir, pageStem(key) + ext));
    if (!p.startsWith(normalize(this.dir) + sep) && p !== normalize(this.dir)) throw new Error(`unsafe output path for ${key}`);
    return p;
  }

  /** Writes `<page>.txt` and `<page>.html` for one page; returns its report line. */
  async writePage(m: PageMarks, extra: Record<string, unknown> = {}): Promise<PageReport> {
    const txt = this.path(m.key, '.txt');
    await mkdir(dirname(txt), { recursive: true });
    await writeFile(txt, keptText(m) + '\n');
    const tpl = m.template;
    const content = m.content;
    const html = serialize(m.tree, {
      mark: (i) => (tpl[i] === 1 ? TEMPLATE_MARK : content && content[i] === 1 ? CONTENT_MARK : undefined),
    });
    await writeFile(this.path(m.key, '.html'), html);
    const report: PageReport = { key: m.key, url: m.url, templateFraction: round(templateFraction(m)), ...extra };
    this.reports.push(report);
    return report;
  }

  /** Writes `<page>.txt` and `<page>.html` of a page rendered by its engine; the same files as `writePage`. */
  async writeRendered(r: RenderedPage, extra: Record<string, unknown> = {}): Promise<PageReport> {
    const txt = this.path(r.key, '.txt');
    await mkdir(dirname(txt), { recursive: true });
    await writeFile(txt, r.text + '\n');
    await writeFile(this.path(r.key, '.html'), r.html);
    const report: PageReport = { key: r.key, url: r.url, templateFraction: round(r.templateFraction), ...extra };
    this.reports.push(report);
    return report;
  }

  fail(f: PageFailure): void {
    this.failures.push(f);
  }

  get failed(): readonly PageFailure[] {
    return this.failures;
  }
  get done(): readonly PageReport[] {
    return this.reports;
  }

  async writeJson(name: string, value: unknown): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFile(join(this.dir, name), JSON.stringify(value, null, 1) + '\n');
  }

  /** Writes template.json (when given) and summary.json; returns the summary. */
  async finish(
    base: SummaryBase,
    template?: unknown,
  ): Promise<Summary> {
    if (template !== undefined) await this.writeJson('template.json', template);
    const summary: Summary = {
      ...base,
      pagesDone: this.reports.length,
      pagesFailed: this.failures.length,
      pages: this.reports,
      failures: this.failures,
    };
    await this.writeJson('summary.json', summary);
    return summary;
  }
}

/** The attribute of a template element in `<page>.html`. */
export const TEMPLATE_MARK = { 'data-gabarit': 'template' } as const;
const CONTENT_MARK = { 'data-gabarit': 'content' } as const;

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
