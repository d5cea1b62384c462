/**
 * The output contract (DESIGN.md, "Results and outputs"), written once for every engine:
 *  - `<page>.txt`  the text kept (non-template text, or main content), blocks on their own lines;
 *  - `<page>.html` the page with every template element marked `data-gabarit="template"` (and main content
 *                  elements `data-gabarit="content"` when the engine gives content marks);
 *  - `template.json` what was learned, `summary.json` pages done, failures with reasons, pages loaded,
 *                  time per phase.
 * `<page>` is the page key (its path relative to the source root) without a trailing .html/.htm/.xhtml.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { serialize } from './html/serialize.ts';
import { keptText, OVERLAY_STYLE, type PageMarks, type RenderedPage, TEMPLATE_MARK, templateFraction } from './template/result.ts';
import type { PageFailure } from './errors.ts';

// Defined below the engines, which use them too; re-exported as part of the output contract.
export type { PageFailure } from './errors.ts';
export { OVERLAY_CSS, OVERLAY_STYLE, type RenderedPage, TEMPLATE_MARK } from './template/result.ts';

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

/**
 * Longest file-name segment written, UTF-8 bytes: file systems allow 255, and the contract appends an
 * extension (`.txt`, `.html`, up to `.content.html`) to the last one.
 */
export const MAX_SEGMENT_BYTES = 200;
/** Longest stem written, UTF-8 bytes (well under PATH_MAX 4096 and Windows' long-path limit, with --out). */
export const MAX_STEM_BYTES = 1000;
/** Names Windows reserves for devices, whatever the extension (`con.txt` is the console too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
/** Characters no segment keeps: controls, and those Windows forbids in file names. */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f<>:"\\|?*]/g;

/** A short, stable hash of a string (8 hex digits), telling apart keys that map to the same safe name. */
export function shortHash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 8);
}

/** `s` cut to at most `max` UTF-8 bytes, on a code point boundary. */
function cutBytes(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  let bytes = 0;
  let i = 0;
  for (const ch of s) {
    const b = Buffer.byteLength(ch);
    if (bytes + b > max) break;
    bytes += b;
    i += ch.length;
  }
  return s.slice(0, i);
}

/**
 * One path segment as a file name every common file system accepts (docs/output.md, "File names"): kept as
 * it is when it is safe; otherwise (or when `hashOf` is given) unsafe characters become `_`, a reserved or
 * dot-ended name gets a `_`, the result is cut to fit, and `~` plus a hash (of `hashOf`, else of the
 * original segment) is appended, so that two segments never share a name by accident.
 */
function safeSegment(seg: string, hashOf?: string): string {
  let s = seg.replace(UNSAFE_CHARS, '_');
  if (s === '..') s = '__';
  if (/[. ]$/.test(s)) s += '_';
  if (WINDOWS_RESERVED.test(s)) s = '_' + s;
  if (hashOf === undefined && s === seg && Buffer.byteLength(s) <= MAX_SEGMENT_BYTES) return s;
  return cutBytes(s, MAX_SEGMENT_BYTES - 9) + '~' + shortHash(hashOf ?? seg);
}

/**
 * The file stem of a page key: `<page>` in `<page>.txt` and `<page>.html`. The key's path without a trailing
 * .html/.htm/.xhtml (a directory stands for its index), a query string kept in the last segment, and every
 * segment made safe (see `safeSegment` and docs/output.md): never absolute, never outside the output
 * directory, never a name a file system refuses.
 */
export function pageStem(key: string): string {
  const q = key.indexOf('?');
  let k = (q < 0 ? key : key.slice(0, q)).replace(/\\/g, '/').replace(/^\/+/, '');
  if (k === '' || k.endsWith('/')) k += 'index.html';
  k = k.replace(/\.(html?|xhtml)$/i, '');
  const parts = k.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) parts.push('index');
  if (q >= 0) parts[parts.length - 1] += key.slice(q);
  const safe = parts.map((p) => safeSegment(p));
  let stem = safe.join('/');
  if (Buffer.byteLength(stem) > MAX_STEM_BYTES) {
    // Keep the leading folders that fit; the rest of the key becomes one hashed file name.
    let used = 0;
    let n = 0;
    while (n < safe.length - 1 && used + Buffer.byteLength(safe[n]!) + 1 <= MAX_STEM_BYTES - MAX_SEGMENT_BYTES) {
      used += Buffer.byteLength(safe[n]!) + 1;
      n++;
    }
    stem = [...safe.slice(0, n), safeSegment(parts.slice(n).join('_'), key)].join('/');
  }
  return stem;
}

/** The endings of the files written for a page: `<page>` and one of these (the last three by `content --format`). */
export const PAGE_FILE_ENDINGS: readonly string[] = ['.txt', '.html', '.content.html', '.md', '.json'];

/**
 * The `<page>` of every page written in one output directory, distinct for each key (docs/output.md, "File
 * names"): `pageStem(key)`, unless an earlier page of the run holds that name. A folder the stem needs that
 * is a file an earlier page wrote (`a/index.html`, the page of key `a/index.html`, and the folder of key
 * `a/index.html/`) gets `~` and the hash of its path; a stem an earlier page has (ignoring case), or that is
 * a folder of an earlier page with one of the endings, gets `~` and the hash of the key. So every page has
 * its own files, the same on every run over the same pages in the same order.
 */
export class PageNames {
  private readonly byKey = new Map<string, string>();
  /** Stems and folders given, lowercased (file systems that ignore case see one name). */
  private readonly stems = new Set<string>();
  private readonly folders = new Set<string>();

  /** The stem of `key` in this directory (the same for a key asked again). */
  stemOf(key: string): string {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const parts = pageStem(key).split('/');
    const original = parts.slice();
    for (let i = 0; i < parts.length - 1; i++) {
      if (this.isFile(parts.slice(0, i + 1).join('/'))) parts[i] = safeSegment(original[i]!, original.slice(0, i + 1).join('/') + '/');
    }
    const last = parts.length - 1;
    for (let n = 0; this.taken(parts.join('/')); n++) parts[last] = safeSegment(original[last]!, n === 0 ? key : `${key}#${n}`);
    const stem = parts.join('/');
    this.stems.add(stem.toLowerCase());
    for (let i = 1; i < parts.length; i++) this.folders.add(parts.slice(0, i).join('/').toLowerCase());
    this.byKey.set(key, stem);
    return stem;
  }

  /** True when `path` is a file of a stem given (a stem and one of the endings). */
  private isFile(path: string): boolean {
    const p = path.toLowerCase();
    return PAGE_FILE_ENDINGS.some((e) => p.endsWith(e) && this.stems.has(p.slice(0, -e.length)));
  }

  /** True when `stem` was given, or one of its files would be a folder given. */
  private taken(stem: string): boolean {
    const s = stem.toLowerCase();
    return this.stems.has(s) || PAGE_FILE_ENDINGS.some((e) => this.folders.has(s + e));
  }
}

/** Options of an OutputWriter. */
export interface OutputWriterOptions {
  /** Called for every failure recorded (`fail`, and pages that could not be written), e.g. to name it on stderr. */
  onFailure?: (f: PageFailure) => void;
}

/** What `<page>.txt` and `<page>.html` hold for a marked page, and its template fraction. */
export function pageFiles(m: PageMarks): { text: string; html: string; templateFraction: number } {
  const tpl = m.template;
  const content = m.content;
  return {
    text: keptText(m),
    html: serialize(m.tree, {
      mark: (i) => (tpl[i] === 1 ? TEMPLATE_MARK : content && content[i] === 1 ? CONTENT_MARK : undefined),
      inject: OVERLAY_STYLE,
    }),
    templateFraction: templateFraction(m),
  };
}

export class OutputWriter {
  readonly dir: string;
  private readonly reports: PageReport[] = [];
  private readonly failures: PageFailure[] = [];
  private readonly onFailure: ((f: PageFailure) => void) | undefined;
  /** The `<page>` of each page written (distinct; see PageNames). */
  readonly names = new PageNames();

  constructor(dir: string, options: OutputWriterOptions = {}) {
    this.dir = dir;
    this.onFailure = options.onFailure;
  }

  /** The path of a page's file with extension `ext` (`.txt`, `.html`, …), always inside the output directory. */
  pathOf(key: string, ext: string): string {
    const p = normalize(join(this.dir, this.names.stemOf(key) + ext));
    // pageStem never leaves the directory; this guards the contract against a future change of it.
    if (!p.startsWith(normalize(this.dir) + sep)) throw new Error(`unsafe output path for ${JSON.stringify(key)}`);
    return p;
  }

  /**
   * Writes `<page>.txt` and `<page>.html` for one page; returns its report line. A page that cannot be
   * written (a file system refusing the name, a folder where a file should be, a full disk) is recorded as a
   * failure with code `write-error` naming the page, and undefined is returned: the run goes on.
   */
  async writePage(m: PageMarks, extra: Record<string, unknown> = {}): Promise<PageReport | undefined> {
    return this.writeFiles(m, extra, () => pageFiles(m));
  }

  /** Writes `<page>.txt` and `<page>.html` of a page rendered by its engine; the same files as `writePage`. */
  async writeRendered(r: RenderedPage, extra: Record<string, unknown> = {}): Promise<PageReport | undefined> {
    return this.writeFiles(r, extra, () => r);
  }

  /** Writes a page's files (see `writePage` for what happens when they cannot be written). */
  private async writeFiles(
    page: { key: string; url: string },
    extra: Record<string, unknown>,
    files: () => { text: string; html: string | Uint8Array; templateFraction: number },
  ): Promise<PageReport | undefined> {
    let fraction: number;
    try {
      const f = files();
      fraction = f.templateFraction;
      const txt = this.pathOf(page.key, '.txt');
      await mkdir(dirname(txt), { recursive: true });
      await writeFile(txt, f.text + '\n');
      await writeFile(this.pathOf(page.key, '.html'), f.html);
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      // A file system error has a string code (ENAMETOOLONG, ENOTDIR, ENOSPC…); anything else is a fault
      // met while writing this page, still named after it so that the other pages are written.
      const fs = typeof e.code === 'string';
      const why = fs ? String(e.code) : String(e.message ?? err);
      this.fail({
        url: page.url,
        key: page.key,
        code: fs ? 'write-error' : 'internal-error',
        message: `${page.url}: cannot write its output files in ${this.dir} (${why})`,
      });
      return undefined;
    }
    const stem = this.names.stemOf(page.key);
    const report: PageReport = { key: page.key, url: page.url, ...(stem !== pageStem(page.key) ? { stem } : {}), templateFraction: round(fraction), ...extra };
    this.reports.push(report);
    return report;
  }

  /** Records a failed page (and tells `onFailure`). */
  fail(f: PageFailure): void {
    this.failures.push(f);
    this.onFailure?.(f);
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

const CONTENT_MARK = { 'data-gabarit': 'content' } as const;

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
