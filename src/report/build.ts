/**
 * Gathers what the HTML report shows (html-report.ts) from a source: the content run (template engine
 * chosen for the source, then the main block; src/content/engine.ts) gives every page's marks, the
 * overlay HTML of the first `maxShown` pages and the template found; every other registered engine is run
 * too (unless `otherEngines: false`) for its figures (pages, failures, mean template fraction, time).
 * The source is opened once per engine by `open` (sources are streams).
 */
import { contentEngine } from '../content/engine.ts';
import { LabelTable } from '../html/labels.ts';
import { isNonText } from '../html/text.ts';
import { NodeKind } from '../html/tree.ts';
import type { PageSource } from '../site/page.ts';
import { ENGINES, loadEngine } from '../template/engines.ts';
import { keptText, type PageMarks } from '../template/result.ts';
import { type EngineFigures, overlayHtml, type ReportData, type ReportPage } from './html-report.ts';

/** Options of `buildReport`. */
export interface BuildReportOptions {
  /** Template engine (default: chosen from the source). */
  method?: string;
  /** Pages shown with their overlay (the others are listed). Default 40. */
  maxShown?: number;
  /** Also run the other registered engines for their figures (default true). */
  otherEngines?: boolean;
  onWarning?(message: string): void;
}

/** Pages shown with their overlay, by default. */
export const REPORT_MAX_SHOWN = 40;
/** Characters of each shown page's main content given as text. */
export const REPORT_TEXT_CHARS = 4000;

function wordCount(s: string): number {
  return s.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The shares of a page's text (words of the body's text nodes, scripts, styles and other non-text elements
 * left out) that are main content and that are template. Each word counts once: a node marked content
 * counts as content (it is what the page keeps), a template node that is not content as template, so the
 * two shares never add up to more than 1.
 */
export function textShares(m: PageMarks): { template: number; content: number } {
  const tree = m.tree;
  const body = tree.body();
  let all = 0;
  let template = 0;
  let content = 0;
  for (let i = body, end = tree.end[body]!; i < end; i++) {
    if (isNonText(tree, i) && i !== body) {
      i = tree.end[i]! - 1;
      continue;
    }
    if (tree.kind[i] !== NodeKind.Text) continue;
    const n = tree.nodeText(i).match(WORD)?.length ?? 0;
    all += n;
    if (m.content ? m.content[i] === 1 : false) content += n;
    else if (m.template[i] === 1) template += n;
  }
  return all === 0 ? { template: 0, content: 0 } : { template: template / all, content: content / all };
}

/** Runs the content extractor (and the other engines) on the source; returns the report's data. */
export async function buildReport(spec: string, open: () => Promise<PageSource>, options: BuildReportOptions = {}): Promise<ReportData> {
  const maxShown = options.maxShown ?? REPORT_MAX_SHOWN;
  const pages: ReportPage[] = [];
  const failures: ReportData['failures'] = [];
  const t0 = performance.now();
  const source = await open();
  let run;
  try {
    run = await contentEngine(options.method ? { method: options.method } : {}).run({
      source,
      labels: new LabelTable(),
      options: {},
      onPage: async (m) => {
        const text = keptText(m);
        const shares = textShares(m);
        const p: ReportPage = { key: m.key, url: m.url, templateFraction: shares.template, contentWords: wordCount(text), contentFraction: shares.content };
        if (pages.length < maxShown) {
          p.srcdoc = overlayHtml(m);
          p.contentText = text.length > REPORT_TEXT_CHARS ? text.slice(0, REPORT_TEXT_CHARS) + ' …' : text;
        }
        pages.push(p);
      },
      onFailure: (f) => failures.push({ key: f.key, message: f.message }),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
  } finally {
    await source.close();
  }
  const method = String(run.summary['method'] ?? '');
  const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
  const engines: EngineFigures[] = [
    { engine: method, pages: pages.length, failed: failures.length, meanTemplateFraction: mean(pages.map((p) => p.templateFraction)), ms: performance.now() - t0 },
  ];
  if (options.otherEngines ?? true) {
    for (const name of Object.keys(ENGINES)) {
      if (name === method) continue;
      const t = performance.now();
      const fr: number[] = [];
      let failed = 0;
      const fig: EngineFigures = { engine: name, pages: 0, failed: 0, meanTemplateFraction: NaN, ms: 0 };
      let src: PageSource | undefined;
      try {
        src = await open();
        const engine = await loadEngine(name);
        await engine.run({
          source: src,
          labels: new LabelTable(),
          options: Object.fromEntries(engine.options.filter((o) => o.defaultValue !== undefined).map((o) => [camel(o.flags), o.defaultValue])),
          onPage: async (m) => {
            fr.push(textShares(m).template);
          },
          onFailure: () => {
            failed++;
          },
        });
      } catch (err) {
        fig.error = err instanceof Error ? err.message : String(err);
      } finally {
        await src?.close();
      }
      fig.pages = fr.length;
      fig.failed = failed;
      fig.meanTemplateFraction = mean(fr);
      fig.ms = performance.now() - t;
      engines.push(fig);
    }
  }
  return {
    source: spec,
    method,
    reason: String(run.summary['reason'] ?? ''),
    pages,
    engines,
    template: run.template,
    failures,
    generated: new Date().toISOString(),
  };
}

/** commander's attribute name of a flag ('--min-evidence <x>' → 'minEvidence'). */
function camel(flags: string): string {
  const long = /--([a-z0-9-]+)/i.exec(flags)?.[1] ?? flags;
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
