/**
 * The previews of the HTML report: each shown page, with its marks and the overlay, as its own file under
 * the report folder (`site/<page>.html`, `<page>` as in docs/output.md), beside copies of the stylesheets,
 * images and fonts it uses (`site/<path in the source>`), so that a browser opening the report from disk
 * (file://) shows the page styled: its links to them are rewritten to the copies, relative. Only a
 * directory source has files to copy; a resource that is not in the source (another site, a WARC, a
 * crawl) is left out of the preview rather than fetched, and counted. The previews hold no script, no
 * frame, no refresh, no base; a CSP lets them load local files only.
 */
import { copyFile, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from '../html/serialize.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { OVERLAY_STYLE, pageStem } from '../output.ts';
import type { PageMarks } from '../template/result.ts';

/** A file of a directory source that previews use; its copy goes to `site/<path>` under the report folder. */
export interface PreviewAsset {
  /** The source's directory. */
  root: string;
  /** The file's path in it, with `/`. */
  path: string;
}

/** One page's preview file. */
export interface Preview {
  /** Path under the report folder (`site/<page>.html`, with `/`). */
  file: string;
  html: string;
  /** What it uses from the source (stylesheets, images). */
  assets: PreviewAsset[];
  /** Resources the page names that are not in the source (left out of the preview), as absolute URLs (or as written when invalid). */
  missing: string[];
}

/** Folder of the previews and their copies under the report folder. */
export const PREVIEW_DIR = 'site';
/** At most this many bytes of the source's files are copied for the previews (the rest are left out, and counted). */
export const PREVIEW_ASSET_BYTES = 200 * 1024 * 1024;

const HEAD = `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline' file:; img-src file: data:; font-src file: data:; media-src file:">${OVERLAY_STYLE}`;

/** Elements a preview leaves out: what runs, loads other pages or redirects, and what a charset or base would change. */
const DROPPED = new Set(['script', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'template', 'portal']);
/** Attributes that name a resource to load, by element. */
const RESOURCE_ATTRS: Readonly<Record<string, readonly string[]>> = {
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  input: ['src'],
  link: ['href', 'imagesrcset'],
  use: ['href', 'xlink:href'],
  image: ['href', 'xlink:href'],
};

function dropped(tree: Tree, i: number): boolean {
  const tag = tree.tag(i);
  if (DROPPED.has(tag)) return true;
  if (tag === 'meta') return tree.attr(i, 'charset') !== undefined || tree.attr(i, 'http-equiv') !== undefined;
  if (tag === 'link') return !/(^|\s)stylesheet(\s|$)/i.test(tree.attr(i, 'rel') ?? '');
  return false;
}

/** The URLs of a `srcset` (each candidate's first word). */
function srcsetUrls(v: string): string[] {
  return v.split(/,\s+/).map((c) => c.trim().split(/\s+/)[0]!).filter(Boolean);
}

/**
 * The source's directory as a file URL (ending with `/`) when the page is a file of a directory source
 * (its URL is a file URL ending with its key), else undefined.
 */
function localRoot(m: PageMarks): { href: string; dir: string } | undefined {
  if (!m.url.startsWith('file:')) return undefined;
  const depth = m.key.replace(/^\/+/, '').split('/').length - 1;
  const href = new URL('../'.repeat(depth) || './', m.url).href;
  return { href, dir: fileURLToPath(href) };
}

/** The file under `root` (a file URL) that `url` names, as a path relative to it; undefined when it is elsewhere. */
function underRoot(url: URL, root: string): string | undefined {
  if (url.protocol !== 'file:' || !url.href.startsWith(root)) return undefined;
  const rel = decoded(url.pathname.slice(new URL(root).pathname.length));
  return rel === undefined || rel === '' || rel.endsWith('/') || rel.split('/').includes('..') ? undefined : rel;
}

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** Is `path` a file inside `dir` once symbolic links are followed? */
async function fileInside(path: string, dir: string): Promise<boolean> {
  try {
    const [real, realDir] = await Promise.all([realpath(path), realpath(dir)]);
    return (real === realDir || real.startsWith(realDir + sep)) && (await stat(real)).isFile();
  } catch {
    return false;
  }
}

/** The preview of a page: its HTML with the overlay (marks from `mark`), the files it uses, the resources it lost. */
export async function pagePreview(m: PageMarks, mark: (i: number) => Readonly<Record<string, string>> | undefined): Promise<Preview> {
  const tree = m.tree;
  const file = `${PREVIEW_DIR}/${pageStem(m.key)}.html`;
  const root = localRoot(m);
  const baseHref = tree.find('base') >= 0 ? tree.attr(tree.find('base'), 'href') : undefined;
  let base: URL;
  try {
    base = new URL(baseHref ?? m.url, m.url);
  } catch {
    base = new URL(m.url);
  }
  // Every resource URL the page names, and the URL of its copy, relative to the preview (or none).
  const here = posix.dirname(file);
  const copies = new Map<string, string | undefined>();
  const assets: PreviewAsset[] = [];
  for (let i = 0; i < tree.size; i++) {
    const names = tree.kind[i] === NodeKind.Element ? RESOURCE_ATTRS[tree.tag(i)] : undefined;
    if (!names || dropped(tree, i)) continue;
    for (const n of names) {
      const v = tree.attr(i, n);
      if (v === undefined) continue;
      for (const u of n.endsWith('srcset') ? srcsetUrls(v) : [v.trim()]) {
        if (copies.has(u)) continue;
        let to: string | undefined;
        const url = URL.canParse(u, base.href) ? new URL(u, base) : undefined;
        // A data URL, or a part of the page itself (an svg symbol), stays as it is.
        if (url?.protocol === 'data:' || u.startsWith('#')) to = u;
        else {
          const rel = url && root ? underRoot(url, root.href) : undefined;
          if (root && rel !== undefined && (await fileInside(join(root.dir, ...rel.split('/')), root.dir))) {
            to = posix.relative(here, `${PREVIEW_DIR}/${rel}`).split('/').map(encodeURIComponent).join('/') + url!.hash;
            assets.push({ root: root.dir, path: rel });
          }
        }
        copies.set(u, to);
      }
    }
  }
  const missing: string[] = [];
  for (const [u, to] of copies) if (to === undefined) missing.push(URL.canParse(u, base.href) ? new URL(u, base).href : u);
  const html = serialize(tree, {
    mark,
    inject: HEAD,
    skip: (i) => dropped(tree, i),
    attr: (i, name, value) => {
      if (/^on/i.test(name)) return undefined;
      if (!RESOURCE_ATTRS[tree.tag(i)]?.includes(name)) return value;
      if (name.endsWith('srcset')) {
        const kept = value.split(/,\s+/).flatMap((c) => {
          const [u, ...rest] = c.trim().split(/\s+/);
          const to = u ? copies.get(u) : undefined;
          return to === undefined ? [] : [[to, ...rest].join(' ')];
        });
        return kept.length > 0 ? kept.join(', ') : undefined;
      }
      return copies.get(value.trim());
    },
  });
  return { file, html, assets, missing };
}

/** `url(…)` and `@import "…"` in a stylesheet. */
const CSS_REFS = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/g;

/**
 * Copies the previews' files from the source into `dir` (`site/<path>`), with the fonts and images their
 * stylesheets name when those are in the source too. Returns how many files were copied and how many were
 * left out by the size cap (PREVIEW_ASSET_BYTES).
 */
export async function copyPreviewAssets(assets: readonly PreviewAsset[], dir: string): Promise<{ copied: number; overCap: number }> {
  const done = new Set<string>();
  const queue = [...assets];
  let bytes = 0;
  let copied = 0;
  let overCap = 0;
  while (queue.length > 0) {
    const a = queue.shift()!;
    const from = join(a.root, ...a.path.split('/'));
    if (done.has(from)) continue;
    done.add(from);
    const size = (await stat(from)).size;
    if (bytes + size > PREVIEW_ASSET_BYTES) {
      overCap++;
      continue;
    }
    bytes += size;
    const to = join(dir, PREVIEW_DIR, ...a.path.split('/'));
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    copied++;
    if (!/\.css$/i.test(a.path)) continue;
    // The stylesheet's own references, relative to it, when they stay inside the source.
    for (const m of (await readFile(from, 'utf8')).matchAll(CSS_REFS)) {
      const ref = decoded((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').split(/[?#]/)[0]!);
      if (!ref || /^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('/')) continue;
      const path = posix.normalize(posix.join(posix.dirname(a.path), ref));
      if (path.startsWith('..') || !(await fileInside(join(a.root, ...path.split('/')), a.root))) continue;
      queue.push({ root: a.root, path });
    }
  }
  return { copied, overCap };
}
