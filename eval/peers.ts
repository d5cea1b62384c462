/**
 * The single-page extractors the content evaluation (eval/content.eval.ts) compares with, each on a real
 * DOM (jsdom), and a disk cache of their outputs so that `npm run eval` runs each peer once per page:
 *  - Mozilla Readability (@mozilla/readability), the reader view of Firefox;
 *  - Defuddle (defuddle/node), the engine of the Obsidian web clipper.
 * A peer's output on a page is its title and its content HTML; both are cached as JSON under
 * eval/.cache/peers/<peer>@<version>+jsdom@<version>/<sha256 of page bytes and url>.json (gitignored):
 * a new version of the peer or of jsdom, or other page bytes, miss the cache. The text a peer keeps is
 * made from that HTML by the same code as ours (parseHtml + textOf), so every method is scored alike.
 * The metadata evaluation (eval/metadata.eval.ts) reads each peer's metadata, cached the same way under
 * `meta/` in that folder. The Python peers' virtual environment is made here too (`pythonPeerEnv`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHtml } from '../src/html/parse.ts';
import { textOf } from '../src/html/text.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { REPO_ROOT } from './harness.ts';

/** What a peer returns on one page. */
export interface PeerOutput {
  title: string;
  /** Content HTML ('' when the peer found nothing). */
  content: string;
  /** Set when the peer threw on the page: its message (the page then counts as empty). */
  error?: string;
  /** Milliseconds the peer took (jsdom parse included), measured when the entry was made. */
  ms: number;
}

/** A peer: its name, version (the cache key) and extraction. */
export interface Peer {
  readonly name: 'readability' | 'defuddle';
  readonly version: string;
  extract(html: string, url: string): Promise<{ title: string; content: string }>;
  /** The page's metadata as the peer gives it, under Readability's names (eval/metadata.eval.ts). */
  metadata(html: string, url: string): Promise<PeerMetadata>;
}

/** The metadata fields the metadata evaluation scores, as a peer gives them (null: not given). */
export interface PeerMetadata {
  title: string | null;
  byline: string | null;
  lang: string | null;
  siteName: string | null;
  publishedTime: string | null;
  excerpt: string | null;
}

/** A peer's value: null for none or an empty string. */
const given = (s: string | null | undefined): string | null => (typeof s === 'string' && s.trim() !== '' ? s : null);

/** The installed version of a package (read from node_modules: some packages do not export package.json). */
function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}
const JSDOM_VERSION = versionOf('jsdom');
const quiet = new VirtualConsole();

export const READABILITY: Peer = {
  name: 'readability',
  version: versionOf('@mozilla/readability'),
  async extract(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    try {
      const r = new Readability(dom.window.document).parse();
      return { title: r?.title ?? '', content: r?.content ?? '' };
    } finally {
      dom.window.close();
    }
  },
  async metadata(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    try {
      const r = new Readability(dom.window.document).parse();
      return { title: given(r?.title), byline: given(r?.byline), lang: given(r?.lang), siteName: given(r?.siteName), publishedTime: given(r?.publishedTime), excerpt: given(r?.excerpt) };
    } finally {
      dom.window.close();
    }
  },
};

export const DEFUDDLE: Peer = {
  name: 'defuddle',
  version: versionOf('defuddle'),
  async extract(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    try {
      const r = await Defuddle(dom, url);
      return { title: r.title ?? '', content: r.content ?? '' };
    } finally {
      dom.window.close();
    }
  },
  async metadata(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    try {
      const r = await Defuddle(dom, url);
      return { title: given(r.title), byline: given(r.author), lang: given(r.language), siteName: given(r.site), publishedTime: given(r.published), excerpt: given(r.description) };
    } finally {
      dom.window.close();
    }
  },
};

export const PEERS: readonly Peer[] = [READABILITY, DEFUDDLE];

/** The cache directory of a peer. */
export const PEER_CACHE_DIR = join(REPO_ROOT, 'eval', '.cache', 'peers');
function cacheDir(peer: Peer): string {
  return join(PEER_CACHE_DIR, `${peer.name}@${peer.version}+jsdom@${JSDOM_VERSION}`);
}

/** Counts of cache use in this process (printed by the evaluation). */
export const cacheStats = { hits: 0, misses: 0 };

/**
 * The peer's output on a page (bytes as read from disk, url as given to the peer), from the cache when
 * there, else computed and stored. Never throws for the page's sake: a peer's exception is recorded.
 */
export async function peerOutput(peer: Peer, bytes: Buffer, url: string): Promise<PeerOutput> {
  return cachedEntry(cacheDir(peer), bytes, url, async () => {
    const html = decodeHtml(bytes).text;
    const t0 = performance.now();
    try {
      const r = await peer.extract(html, url);
      return { title: r.title, content: r.content, ms: performance.now() - t0 };
    } catch (e) {
      return { title: '', content: '', error: e instanceof Error ? e.message : String(e), ms: performance.now() - t0 };
    }
  });
}

/**
 * The entry of a page (bytes and url) in cache directory `dir`: read when there, else `compute`d and
 * stored (written whole, then renamed, so that a reader never sees half of it).
 */
async function cachedEntry<T>(dir: string, bytes: Buffer, url: string, compute: () => Promise<T>): Promise<T> {
  const key = createHash('sha256').update(bytes).update('\0').update(url).digest('hex');
  const file = join(dir, `${key}.json`);
  if (existsSync(file)) {
    try {
      const out = JSON.parse(readFileSync(file, 'utf8')) as T;
      cacheStats.hits++;
      return out;
    } catch {
      /* a torn entry: recompute */
    }
  }
  cacheStats.misses++;
  const out = await compute();
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(out));
  renameSync(tmp, file);
  return out;
}

/**
 * The peer's metadata of a page (cached beside its outputs, under `meta/`); all null, with `error`, when
 * the peer threw on the page.
 */
export async function peerMetadata(peer: Peer, bytes: Buffer, url: string): Promise<PeerMetadata & { error?: string }> {
  return cachedEntry(join(cacheDir(peer), 'meta'), bytes, url, async () => {
    try {
      return await peer.metadata(decodeHtml(bytes).text, url);
    } catch (e) {
      return { title: null, byline: null, lang: null, siteName: null, publishedTime: null, excerpt: null, error: e instanceof Error ? e.message : String(e) };
    }
  });
}

/** The text of an HTML fragment or document, as ours is made. */
export function htmlText(html: string): string {
  const tree = parseHtml(html);
  return textOf(tree, tree.body());
}

/** Title + content text; the title only when the content does not already start with it. */
export function peerText(out: PeerOutput): string {
  const text = htmlText(out.content);
  const t = out.title.trim();
  if (t === '' || text.slice(0, t.length + 200).includes(t)) return text;
  return t + '\n' + text;
}

/**
 * The Python peers (the wrapper evaluation's AutoScraper) run in a virtual environment of their own,
 * eval/.cache/python-peers/ (gitignored), made on first use with `python3 -m venv` and the pinned
 * packages of PYTHON_PEERS installed by pip; a venv whose packages are already there is reused. Returns
 * the venv's python, or the reason it could not be made (the evaluation then says the peer did not run).
 */
export const PYTHON_PEERS: readonly string[] = [
  'autoscraper==1.1.14',
  // AutoScraper 1.1.14 (2022) reads the tree through BeautifulSoup's API of its time: with a newer
  // beautifulsoup4 (4.13 and later) its rules lose their paths and give the whole page's text.
  'beautifulsoup4==4.11.1',
];
export const PYTHON_PEER_DIR = join(REPO_ROOT, 'eval', '.cache', 'python-peers');

export function pythonPeerEnv(): { python: string } | { error: string } {
  const python = join(PYTHON_PEER_DIR, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
  const stamp = join(PYTHON_PEER_DIR, 'installed.json');
  const want = JSON.stringify(PYTHON_PEERS);
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return { python };
  const run = (cmd: string, args: string[]): string | null => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error) return r.error.message;
    return r.status === 0 ? null : `${cmd} ${args.join(' ')}: exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`;
  };
  const made = existsSync(python) ? null : run(process.env['PYTHON'] ?? 'python3', ['-m', 'venv', PYTHON_PEER_DIR]);
  if (made) return { error: made };
  const installed = run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...PYTHON_PEERS]);
  if (installed) return { error: installed };
  writeFileSync(stamp, want);
  return { python };
}
