/**
 * `report(source, options)`: what the HTML report (src/report/html-report.ts) shows, from a source: the
 * content run (extract.ts: template engine chosen for the source, then the main block) gives every page's
 * marks, the preview of the first `maxShown` pages (preview.ts) and the template found; every other registered
 * engine runs too (unless `otherEngines: false`) for its figures (pages, failures, mean template fraction,
 * time). `writeReport` writes it as an offline HTML file with the previews beside it. What `gabarit report` and `npm start` run
 * (`reportCommand`: from the command's flags, the report written).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { GabaritError } from '../errors.ts';
import { isNonText } from '../html/text.ts';
import { NodeKind } from '../html/tree.ts';
import { type EngineFigures, overlayMarks, type ReportData, type ReportPage, renderReport } from '../report/html-report.ts';
import { copyPreviewAssets, pagePreview, PREVIEW_ASSET_BYTES, type PreviewAsset } from '../report/preview.ts';
import { ENGINES, type Method } from '../template/engines.ts';
import { keptText, type PageMarks } from '../template/result.ts';
import { extractContent } from './content.ts';
import { detectTemplate } from './template.ts';
import { type CommandHooks, overSource } from './command.ts';
import { type OutFlags, REPORT_OPTIONS, type ReportFlags, type SourceFlags } from './options.ts';
import type { RunControls, SourceInput } from './types.ts';

/** Options of `report`. */
export interface ReportOptions extends RunControls {
  /** Template engine (default: chosen from the source). */
  method?: Method;
  /** Pages shown with their overlay (the others are listed). Default REPORT_MAX_SHOWN. */
  maxShown?: number;
  /** Also run the other registered engines for their figures (default true). */
  otherEngines?: boolean;
}

/** Pages shown with their overlay, by default. */
export const REPORT_MAX_SHOWN = REPORT_OPTIONS.defaults().maxShown;
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

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The figures the report shows of one marked page: its template fraction and how much of it is main content. */
export function pageFigures(m: PageMarks): Pick<ReportPage, 'templateFraction' | 'contentWords' | 'contentFraction'> {
  const shares = textShares(m);
  return { templateFraction: shares.template, contentWords: wordCount(keptText(m)), contentFraction: shares.content };
}

/** Runs the content extractor (and the other engines) on the source; returns the report's data. */
export async function report(input: SourceInput, options: ReportOptions = {}): Promise<ReportData> {
  const maxShown = options.maxShown ?? REPORT_MAX_SHOWN;
  const { method: given, maxShown: _m, otherEngines: _o, ...controls } = options;
  const pages: ReportPage[] = [];
  const failures: ReportData['failures'] = [];
  const previews: ReportData['previews'] = [];
  const assets: PreviewAsset[] = [];
  const missing = new Set<string>();
  const t0 = performance.now();
  const run = extractContent(input, { ...controls, ...(given ? { method: given } : {}) });
  for await (const o of run) {
    if (!o.ok) {
      failures.push({ key: o.key, message: o.failure.message });
      continue;
    }
    const m = o.marks;
    const p: ReportPage = { key: m.key, url: m.url, ...pageFigures(m) };
    if (pages.length < maxShown) {
      const text = keptText(m);
      const preview = await pagePreview(m, overlayMarks(m));
      p.preview = preview.file;
      previews.push({ file: preview.file, html: preview.html });
      assets.push(...preview.assets);
      for (const u of preview.missing) missing.add(u);
      p.contentText = text.length > REPORT_TEXT_CHARS ? text.slice(0, REPORT_TEXT_CHARS) + ' …' : text;
    }
    pages.push(p);
  }
  const result = await run.result();
  const method = result.method;
  const engines: EngineFigures[] = [{ engine: method, pages: pages.length, failed: failures.length, meanTemplateFraction: mean(pages.map((p) => p.templateFraction)), ms: performance.now() - t0 }];
  if (options.otherEngines ?? true) {
    for (const name of Object.keys(ENGINES) as Method[]) {
      if (name !== method) engines.push(await engineFigures(input, name, controls));
    }
  }
  const missingResources = missing.size;
  if (missingResources > 0) options.onWarning?.(`${result.source}: ${missingResources} stylesheets or images that the shown pages name are not in the source: their previews in the report show without them`);
  return { source: result.source, method, reason: String(result.extra['reason'] ?? ''), pages, engines, template: result.template, failures, generated: new Date().toISOString(), previews, assets, missingResources };
}

/** One engine's figures on the source (its error, if it could not run). */
async function engineFigures(input: SourceInput, name: Method, controls: RunControls): Promise<EngineFigures> {
  const t = performance.now();
  const fr: number[] = [];
  let failed = 0;
  const fig: EngineFigures = { engine: name, pages: 0, failed: 0, meanTemplateFraction: NaN, ms: 0 };
  try {
    for await (const o of detectTemplate(input, { ...controls, onWarning: () => undefined, method: name })) {
      if (o.ok) fr.push(textShares(o.marks).template);
      else failed++;
    }
  } catch (err) {
    fig.error = err instanceof Error ? err.message : String(err);
  }
  fig.pages = fr.length;
  fig.failed = failed;
  fig.meanTemplateFraction = mean(fr);
  fig.ms = performance.now() - t;
  return fig;
}

/**
 * Writes the report: `<dir>/index.html`, the previews (`<dir>/site/<page>.html`) and copies of the
 * source's files they use (`<dir>/site/…`); returns the path of index.html. `onWarning` hears of the files
 * left out by the size cap.
 */
export async function writeReport(data: ReportData, dir: string, onWarning?: (message: string) => void): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const p of data.previews) {
    const to = join(dir, ...p.file.split('/'));
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, p.html);
  }
  const { overCap } = await copyPreviewAssets(data.assets, dir);
  if (overCap > 0) onWarning?.(`${data.source}: ${overCap} files the previews use were not copied (over ${PREVIEW_ASSET_BYTES / 1024 / 1024} MiB): their previews show without them`);
  const file = join(dir, 'index.html');
  await writeFile(file, renderReport(data));
  return file;
}

/** What `reportCommand` made: the report file and the data it shows. */
export interface ReportRun {
  file: string;
  data: ReportData;
}

/**
 * `gabarit report` without printing: opens `spec` with the source options, builds its report (`report`)
 * and writes `<flags.out>/index.html` (`writeReport`); the pages that failed are warnings on the hooks.
 * Throws a GabaritError when no page could be processed.
 */
export async function reportCommand(spec: string, flags: ReportFlags & SourceFlags & OutFlags, hooks: CommandHooks = {}): Promise<ReportRun> {
  const warn = (m: string): void => hooks.warn?.(m);
  const data = await overSource(spec, flags, hooks, (source) =>
    report(source, { ...(flags.method ? { method: flags.method as Method } : {}), maxShown: flags.maxShown, otherEngines: flags.otherEngines, onWarning: warn }),
  );
  data.source = spec;
  for (const f of data.failures) warn(`${f.key}: ${f.message}`);
  if (data.pages.length === 0) throw new GabaritError(`no page processed from ${spec}`);
  return { file: await writeReport(data, resolve(flags.out), warn), data };
}
