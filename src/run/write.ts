/**
 * Writes a pipeline's run (template.ts, content.ts, apply.ts) in one of two forms:
 *  - `files` (the output contract, src/output.ts): `<page>.txt` and `<page>.html` per page, `template.json`
 *    and `summary.json` (each page with its template fraction);
 *  - `jsonl`: one JSON record per line and page (`url`, `key`, `title`: the document's `<title>`; `headline`:
 *    the main content's headline when the run found one (`info.headline`, src/content/extract.ts); `text`, `templateFraction`,
 *    `metadata` for `content` (src/content/metadata.ts), and
 *    `failure` `{code, message}` for a page that failed or kept no content), streamed to `<out>/pages.jsonl`
 *    or to a writable stream (stdout), plus `template.json` and `summary.json` in `<out>` (a summary without
 *    the per-page list, which the records hold: memory does not grow with the pages).
 * Both add to summary.json the pages with no content (`noContent`, `pagesNoContent`).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { decodeHTML } from 'entities';
import { contentHeadline, pageTitle } from '../content/format.ts';
import type { PageMetadata } from '../content/metadata.ts';
import { OutputWriter, type PageFailure, type Summary, type SummaryBase } from '../output.ts';
import { keptText, templateFraction } from '../template/result.ts';
import { cutFields } from './source.ts';
import type { PipelineRun, RenderingRun } from './drive.ts';
import type { PageDone, PageRendered, RunResult } from './types.ts';

export type OutputFormat = 'files' | 'jsonl';

export interface WriteOptions {
  /** Output directory (jsonl: `pages.jsonl` goes inside it), or a stream the jsonl records go to. */
  out: string | Writable;
  format?: OutputFormat;
  /**
   * Called after each page done is written (e.g. to write another format beside it, from its marks), with
   * its `<page>` in the files format (distinct for every page: see PageNames). When it throws, the page is
   * named as failed (`write-error`) and the run goes on.
   */
  onPage?(page: PageDone | PageRendered, stem?: string): Promise<void> | void;
  /** A page that failed, its files that could not be written included (to name it on stderr). */
  onFailure?(failure: PageFailure): void;
  /** A page marked with no content (to name it on stderr). */
  onNoContent?(failure: PageFailure): void;
  /** summary.json fields added to the run's (e.g. the content command's `format`); a function is called once the run is over. */
  summary?: Record<string, unknown> | (() => Record<string, unknown>);
}

/** summary.json: with the per-page list in the files format, without it in jsonl. */
export type WrittenSummary = SummaryBase & { pagesDone: number; pagesFailed: number; failures: PageFailure[]; pages?: Summary['pages'] };

/** What was written: the summary (as summary.json holds it, when a directory was given) and the run's result. */
export interface Written {
  summary: WrittenSummary;
  result: RunResult;
}

/** The record of one page in `jsonl` output. */
export interface PageRecord {
  url: string;
  key: string;
  /** The document's `<title>`, white space collapsed and trimmed ('' when none). */
  title?: string;
  /** The main content's headline, when the run found one. */
  headline?: string;
  text?: string;
  templateFraction?: number;
  /** The page's metadata, each field with its origin (`content` only: src/content/metadata.ts). */
  metadata?: PageMetadata;
  failure?: { code: string; message: string };
}

/** Rounds a fraction to 4 decimals (as summary.json's page lines). */
function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** summary.json's fields from a run's result. */
export function summaryBase(r: RunResult, extra: Record<string, unknown> = {}): SummaryBase {
  return {
    command: r.command,
    method: r.method,
    source: r.source,
    pagesLoaded: r.pagesLoaded,
    ...cutFields(r.cut),
    timings: r.timings,
    engine: r.engine,
    options: r.options,
    ...r.extra,
    ...extra,
    ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
  };
}

/**
 * Consumes `run` and writes it (see the module comment); resolves when everything is written. The run's
 * error, if it ended early, is in the result and in summary.json (never thrown).
 */
export async function writeOutputs(run: PipelineRun | RenderingRun, options: WriteOptions): Promise<Written> {
  const format = options.format ?? 'files';
  if (format === 'files' && typeof options.out !== 'string') throw new Error('the files format needs an output directory');
  const noContent: PageFailure[] = [];
  // The files format: the writer keeps the failures (and names each, those of its own writes included).
  const writer = typeof options.out === 'string' ? new OutputWriter(options.out, format === 'files' && options.onFailure ? { onFailure: options.onFailure } : {}) : null;
  let lines: LineSink | null = null;
  if (format === 'jsonl') lines = typeof options.out === 'string' ? await fileSink(join(options.out, 'pages.jsonl')) : streamSink(options.out);
  let done = 0;
  const failed: PageFailure[] = [];
  const fail = (f: PageFailure): void => {
    if (format === 'files') writer!.fail(f);
    else {
      failed.push(f);
      options.onFailure?.(f);
    }
  };
  try {
    try {
      for await (const o of run) {
        if (!o.ok) {
          fail(o.failure);
          if (lines) await lines.write({ url: o.url, key: o.key, failure: { code: String(o.failure.code), message: o.failure.message } });
          continue;
        }
        const extra = { ...o.info, ...(o.noContent ? { noContent: true } : {}) };
        if (lines) await lines.write(recordOf(o));
        // A page whose files cannot be written is a failure the writer names (write-error); the run goes on.
        else if (!('rendered' in o ? await writer!.writeRendered(o.rendered, extra) : await writer!.writePage(o.marks, extra))) continue;
        done++;
        if (o.noContent) {
          noContent.push(o.noContent);
          options.onNoContent?.(o.noContent);
        }
        try {
          await options.onPage?.(o, lines ? undefined : writer!.names.stemOf(o.key));
        } catch (err) {
          fail({ url: o.url, key: o.key, code: 'write-error', message: `${o.url}: cannot write its output (${err instanceof Error ? err.message : String(err)})` });
        }
      }
    } catch {
      // The run ended early (its error is in the result) or failed: the result says which.
    }
    const result = await run.result();
    const fields = typeof options.summary === 'function' ? options.summary() : options.summary;
    const base = { ...summaryBase(result, fields), pagesNoContent: noContent.length, noContent };
    if (writer && format === 'files') return { summary: await writer.finish(base, result.template ?? undefined), result };
    const summary: WrittenSummary = { ...base, pagesDone: done, pagesFailed: failed.length, failures: failed };
    if (writer) {
      if (result.template !== null && result.template !== undefined) await writer.writeJson('template.json', result.template);
      await writer.writeJson('summary.json', summary);
    }
    return { summary, result };
  } finally {
    await lines?.close();
  }
}

/** The jsonl record of a page done. */
export function recordOf(o: PageDone | PageRendered): PageRecord {
  const headline = contentHeadline(o.info);
  const titles = { title: 'rendered' in o ? (o.rendered.title ?? titleIn(o.rendered.html)) : pageTitle(o.marks.tree), ...(headline !== '' ? { headline } : {}) };
  const r: PageRecord =
    'rendered' in o
      ? { url: o.url, key: o.key, ...titles, text: o.rendered.text, templateFraction: round4(o.rendered.templateFraction) }
      : { url: o.url, key: o.key, ...titles, text: keptText(o.marks), templateFraction: round4(templateFraction(o.marks)) };
  if (o.info['metadata'] !== undefined) r.metadata = o.info['metadata'] as PageMetadata;
  if (o.noContent) r.failure = { code: String(o.noContent.code), message: o.noContent.message };
  return r;
}

/** The `<title>` of a rendered page's HTML (white space collapsed, character references decoded). */
function titleIn(html: string | Uint8Array): string {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(typeof html === 'string' ? html : new TextDecoder().decode(html));
  return m ? decodeHTML(m[1]!.replace(/\s+/g, ' ').trim()) : '';
}

/** Where jsonl lines go: written in order, waiting when the stream is full. */
export interface LineSink {
  write(record: PageRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * jsonl lines written to `stream` in order, waiting when it is full; gathered into writes of about `batch`
 * characters when given (each write to a file is a system call and a hand-over to libuv's threads), else
 * written a line at a time (stdout: a reader sees each line as it comes).
 */
function streamSink(stream: Writable, end = false, batch = 0): LineSink {
  let lines: string[] = [];
  let size = 0;
  const put = async (text: string): Promise<void> => {
    if (!stream.write(text)) await new Promise<void>((r) => stream.once('drain', () => r()));
  };
  const flush = async (): Promise<void> => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    await put(text);
  };
  return {
    async write(record) {
      const line = JSON.stringify(record) + '\n';
      if (batch === 0) return put(line);
      lines.push(line);
      size += line.length;
      if (size >= batch) await flush();
    },
    async close() {
      await flush();
      if (end) await new Promise<void>((r, j) => stream.end((err?: Error | null) => (err ? j(err) : r())));
    },
  };
}

/** Characters of jsonl lines gathered before they are written to a file. */
const FILE_BATCH = 1 << 16;

/** jsonl lines written to a new file at `path` (its folder made), in writes of about FILE_BATCH characters. */
export async function fileSink(path: string): Promise<LineSink> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '');
  return streamSink(createWriteStream(path), true, FILE_BATCH);
}
