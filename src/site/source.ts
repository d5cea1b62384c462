/**
 * Opening a PageSource from what a user types (DESIGN.md, "source"): a directory of pages, a WARC file
 * (.warc, .warc.gz) or an http(s) URL, crawled from that entry. Each kind lives in its own file
 * (dir-source.ts, warc-source.ts, http-source.ts; memory-source.ts for pages in memory) and is loaded only
 * when a source of that kind is opened: a directory does not load the HTTP stack (undici) nor the WARC one
 * (warcio, pako).
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import type { DirSourceOptions } from './dir-source.ts';
import type { HttpSourceOptions } from './http-source.ts';
import { isHttpUrl } from './keys.ts';
import type { PageSource } from './page.ts';
import type { WarcSourceOptions } from './warc-source.ts';

/**
 * Options of every kind of source; each kind reads its own (`entry` is a key for a directory, a URL or key
 * for a WARC; `root` is for WARC; fetch options and `store` are for HTTP).
 */
export type SourceOptions = DirSourceOptions & Omit<WarcSourceOptions, 'entry'> & HttpSourceOptions & { entry?: string };

/** True when a path names a WARC file by its extension. */
export function isWarcPath(spec: string): boolean {
  return /\.warc(\.gz)?$/i.test(spec);
}

/**
 * Opens `spec` as a PageSource: an http(s) URL (a crawl from it), a .warc/.warc.gz file, a directory, or
 * one page file (FileSource). Throws a UsageError when it is none of these (a missing path, a malformed URL).
 */
export async function openSource(spec: string, options: SourceOptions = {}): Promise<PageSource> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    if (!isHttpUrl(spec)) throw new UsageError(`unsupported source URL (only http and https): ${spec}`);
    const { HttpSource } = await import('./http-source.ts');
    return new HttpSource(spec, options);
  }
  let isFile = false;
  let isDir = false;
  try {
    const s = await stat(spec);
    isFile = s.isFile();
    isDir = s.isDirectory();
  } catch {
    throw new UsageError(`no such file or directory: ${spec}`);
  }
  if (isFile && isWarcPath(spec)) {
    const o: WarcSourceOptions = {};
    if (options.root !== undefined) o.root = options.root;
    if (options.entry !== undefined) o.entry = options.entry;
    if (options.maxBytes !== undefined) o.maxBytes = options.maxBytes;
    const { WarcSource } = await import('./warc-source.ts');
    return WarcSource.open(spec, o);
  }
  if (isDir) {
    const o: DirSourceOptions = {};
    if (options.entry !== undefined) o.entry = options.entry;
    if (options.maxBytes !== undefined) o.maxBytes = options.maxBytes;
    const { DirSource } = await import('./dir-source.ts');
    return new DirSource(spec, o);
  }
  if (isFile) {
    const { FileSource } = await import('./file-source.ts');
    return new FileSource(spec, options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {});
  }
  throw new UsageError(`not a source: ${spec} (give a directory of pages, a page file, a .warc/.warc.gz file, or an http(s) URL)`);
}
