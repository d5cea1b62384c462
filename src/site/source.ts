/**
 * Opening a PageSource from what a user types (DESIGN.md, "source"): a directory of pages, a WARC file
 * (.warc, .warc.gz) or an http(s) URL, crawled from that entry. Each kind lives in its own file
 * (dir-source.ts, warc-source.ts, http-source.ts; memory-source.ts for pages in memory) and is loaded only
 * when a source of that kind is opened: a directory does not load the HTTP stack (undici) nor the WARC one
 * (warcio, pako).
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import { expandGlob, isGlob } from './glob.ts';
import type { DirSourceOptions } from './dir-source.ts';
import type { HttpSourceOptions } from './http-source.ts';
import { commonRoot, isHttpUrl } from './keys.ts';
import type { PageSource } from './page.ts';
import type { WarcSource, WarcSourceOptions } from './warc-source.ts';

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
 * Opens `spec` as a PageSource: an http(s) URL (a crawl from it), a .warc/.warc.gz file, a directory, one
 * page file (FileSource), or a quoted glob of these (`'crawl/crawl-*.warc.gz'`, glob.ts) read as one source
 * (union-source.ts). Throws a UsageError when it is none of these (a missing path, a malformed URL, a glob
 * that matches nothing, parts of different kinds or sites).
 */
export async function openSource(spec: string, options: SourceOptions = {}): Promise<PageSource> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    if (!isHttpUrl(spec)) throw new UsageError(`unsupported source URL (only http and https): ${spec}`);
    const { HttpSource } = await import('./http-source.ts');
    return new HttpSource(spec, options);
  }
  if (isGlob(spec) && !(await exists(spec))) return openGlob(spec, options);
  return openPath(spec, options);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The sources a glob names, as one (a single match is opened as itself). */
async function openGlob(spec: string, options: SourceOptions): Promise<PageSource> {
  let paths: string[];
  try {
    paths = await expandGlob(spec);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (paths.length === 0) throw new UsageError(`no file or directory matches ${spec}`);
  if (paths.length === 1) return openPath(paths[0]!, options);
  const { entry, ...partOptions } = options;
  const parts: PageSource[] = [];
  try {
    for (const p of paths) parts.push(await openPath(p, partOptions));
    // archives of different sites (a crawl of the web in parts): each read as an archive of several
    // sites, keys `host/path`, so that the parts make one source of several sites
    if (options.root === undefined && parts.every((s) => s.kind === 'warc') && commonRoot(parts.map((s) => s.root)) === undefined) {
      for (let i = 0; i < parts.length; i++) parts[i] = (parts[i] as WarcSource).asSites();
    }
    const { UnionSource } = await import('./union-source.ts');
    return new UnionSource(parts, paths, entry);
  } catch (err) {
    await Promise.all(parts.map((s) => s.close()));
    throw err;
  }
}

async function openPath(spec: string, options: SourceOptions): Promise<PageSource> {
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
