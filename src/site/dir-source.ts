/**
 * A directory of pages as a PageSource: a local mirror of a site (a corpus site's `pages/`, a `wget
 * --mirror`, a static site's build output) or a loose set of pages (a corpus samesite group, where the
 * `.txt` gold files beside the pages are not pages).
 *  - root: `file:///abs/dir/`; a page's key is its path relative to the directory, '/'-separated;
 *  - a directory (a key or URL ending in '/', or a link to a directory) means its index file
 *    (`SITE_DEFAULTS.indexFiles`: index.html, index.htm, index.xhtml), as a static web server would serve it;
 *  - an extensionless path that names no file (`docs/overview`, as static site generators link) means
 *    `docs/overview.html` when that file exists, before a directory of the same name, as GitHub Pages
 *    serves it (`staticKey`); the key is the file's path;
 *  - pages(): the files with a page extension (.html .htm .xhtml) and extensionless files that sniff as
 *    HTML, in sorted key order; hidden files and folders (a leading '.') and every other file are skipped;
 *  - entry: the root's index file, or the `entry` option (a key).
 */
import { statSync, type Dirent } from 'node:fs';
import { open, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PageError, UsageError } from '../errors.ts';
import { checkBody, loadEach, sniffHtml } from './check.ts';
import { FETCH_DEFAULTS, SITE_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';
import { normalizeUrl } from './links.ts';
import type { Page, PageResult, PageSource, PageSourceOptions } from './page.ts';

export interface DirSourceOptions {
  /** The entry page, as a key relative to the directory (default: the root's index file). */
  entry?: string;
  /** Largest file read as a page, bytes (default `DEFAULTS.maxBytes`); larger ones fail with `too-large`. */
  maxBytes?: number;
  /**
   * Read links with an absolute path (`/a/b.html`) as relative to the directory (default true). In a
   * file:// page such a link resolves to the root of the file system; in a mirror it meant the site's
   * root, which the directory is (a server over the directory, as `serveDirectory`, resolves it so too).
   * A path inside the directory's parent is a relative link (`../x.html`) that left it: off-site.
   */
  siteRootLinks?: boolean;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** True when `path` is `root` or inside it (both absolute and normalised, e.g. real paths). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Reads the first bytes of a file (for sniffing). */
async function head(path: string, n: number): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * The file a static host (GitHub Pages) serves for the path `rel` ('/'-separated, relative to `dir`): a
 * directory path ('' or ending in '/') is its first index file; otherwise the file itself, else
 * `rel + '.html'` (an extensionless link such as `/docs/overview`), else a directory's index file. The
 * key returned names that file, or is `rel` unchanged when nothing matches (a missing page).
 */
export function staticKey(dir: string, rel: string): string {
  const indexOf = (d: string): string => {
    for (const f of SITE_DEFAULTS.indexFiles) if (isFile(join(dir, d, f))) return d + f;
    return d + SITE_DEFAULTS.indexFiles[0]!;
  };
  if (rel === '' || rel.endsWith('/')) return indexOf(rel);
  const path = join(dir, rel);
  if (isFile(path)) return rel;
  if (isFile(path + '.html')) return rel + '.html';
  if (isDir(path)) return indexOf(rel + '/');
  return rel;
}

export class DirSource implements PageSource {
  readonly kind = 'dir' as const;
  /** Absolute path of the directory. */
  readonly dir: string;
  readonly root: string;
  readonly entry: string;
  private readonly rootPath: string;
  private readonly maxBytes: number;
  private readonly siteRootLinks: boolean;
  private count = 0;
  /** The directory's real path (symbolic links resolved), found on first read. */
  private realDir: string | undefined;

  constructor(dir: string, options: DirSourceOptions = {}) {
    this.dir = resolve(dir);
    if (!isDir(this.dir)) throw new UsageError(`not a directory: ${this.dir}`);
    const href = pathToFileURL(this.dir).href;
    this.root = href.endsWith('/') ? href : href + '/';
    this.rootPath = new URL(this.root).pathname;
    this.maxBytes = filled(options, FETCH_DEFAULTS, ['maxBytes']).maxBytes;
    this.siteRootLinks = options.siteRootLinks ?? true;
    this.entry = this.urlOf(this.cleanKey(options.entry ?? ''));
  }

  get loaded(): number {
    return this.count;
  }

  /** Normalises a key given by a user: '/' separators, no leading './' or '/', resolved as a static host does. */
  private cleanKey(key: string): string {
    return staticKey(this.dir, key.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, ''));
  }

  keyOf(url: string): string | undefined {
    const n = normalizeUrl(url);
    if (n === undefined) return undefined;
    const u = new URL(n);
    if (u.protocol !== 'file:' || u.host !== '') return undefined;
    let rel: string;
    if (u.pathname.startsWith(this.rootPath)) {
      try {
        rel = relative(this.dir, fileURLToPath(u)).split(sep).join('/');
      } catch {
        return undefined;
      }
      if (rel.startsWith('..')) return undefined;
    } else if (this.siteRootLinks) {
      // A relative link that climbed out of the directory lands beside it, not at a site root.
      const parent = this.rootPath.replace(/[^/]+\/$/, '');
      if (parent !== '/' && u.pathname.startsWith(parent)) return undefined;
      try {
        rel = decodeURIComponent(u.pathname).replace(/^\/+/, '');
      } catch {
        return undefined;
      }
      if (rel.split('/').includes('..')) return undefined;
    } else {
      return undefined;
    }
    if (u.pathname.endsWith('/') && rel !== '' && !rel.endsWith('/')) rel += '/';
    return this.cleanKey(rel);
  }

  urlOf(key: string): string {
    const k = key.replace(/\\/g, '/').replace(/^\/+/, '');
    const href = pathToFileURL(join(this.dir, k)).href;
    return k.endsWith('/') && !href.endsWith('/') ? href + '/' : href;
  }

  /** The page keys of the directory, sorted (see the module comment for what is a page). */
  async keys(): Promise<string[]> {
    const entries: Dirent[] = await readdir(this.dir, { recursive: true, withFileTypes: true });
    const out: string[] = [];
    for (const d of entries) {
      if (!d.isFile()) continue;
      const abs = join(d.parentPath, d.name);
      const key = relative(this.dir, abs).split(sep).join('/');
      if (key.split('/').some((part) => part.startsWith('.'))) continue;
      const ext = extname(d.name).toLowerCase();
      if (SITE_DEFAULTS.pageExtensions.includes(ext)) out.push(key);
      else if (ext === '' && sniffHtml(await head(abs, SITE_DEFAULTS.sniffBytes))) out.push(key);
    }
    return out.sort();
  }

  async *pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    const keys = await this.keys();
    yield* loadEach(keys, options, (key) => this.urlOf(key), (key) => this.read(key));
  }

  async get(urlOrKey: string): Promise<Page> {
    let key: string | undefined;
    if (/^[a-z][a-z0-9+.-]*:/i.test(urlOrKey) && !/^[a-z]:[\\/]/i.test(urlOrKey)) {
      key = this.keyOf(urlOrKey);
      if (key === undefined) {
        throw normalizeUrl(urlOrKey) === undefined
          ? new PageError(urlOrKey, 'invalid-url', 'invalid URL')
          : new PageError(urlOrKey, 'off-site', `not in this directory (root ${this.root})`);
      }
    } else {
      key = this.cleanKey(urlOrKey);
    }
    return this.read(key);
  }

  private async read(key: string): Promise<Page> {
    const path = resolve(this.dir, key);
    const url = this.urlOf(key);
    if (path !== this.dir && !path.startsWith(this.dir + sep)) throw new PageError(url, 'off-site', `outside the directory ${this.dir}`);
    let body: Uint8Array;
    try {
      // A symbolic link may point anywhere: only what really is inside the directory is read.
      this.realDir ??= await realpath(this.dir);
      const real = await realpath(path);
      if (!isInside(real, this.realDir)) throw new PageError(url, 'off-site', `outside the directory ${this.dir} (a symbolic link to ${real})`);
      const size = (await stat(path)).size;
      if (size > this.maxBytes) throw new PageError(url, 'too-large', `too large: ${size} bytes exceeds the cap of ${this.maxBytes} bytes`);
      body = new Uint8Array(await readFile(path));
    } catch (err) {
      if (err instanceof PageError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new PageError(url, 'not-found', 'no such file');
      throw new PageError(url, 'read-error', `cannot read the file (${code ?? String(err)})`, { cause: err });
    }
    this.count++;
    const bad = checkBody(url, body);
    if (bad) throw bad;
    return { url, key, status: 200, headers: {}, body, origin: 'dir' };
  }

  async close(): Promise<void> {}
}

