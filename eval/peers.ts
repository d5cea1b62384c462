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
 * `meta/` in that folder. The Python peers' virtual environment is made here too (`pythonPeerEnv`), and
 * trafilatura (PyPI) is run in it on the content evaluation's pages (`trafilaturaOutputs`), cached the same way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
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

/** The cache file of a page (bytes and url) in cache directory `dir`. */
function entryFile(dir: string, bytes: Buffer, url: string): string {
  return join(dir, `${createHash('sha256').update(bytes).update('\0').update(url).digest('hex')}.json`);
}

/** A cache entry when there and whole (counted as a hit), else undefined (counted as a miss). */
function readEntry<T>(file: string): T | undefined {
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
  return undefined;
}

/** Stores a cache entry (written whole, then renamed, so that a reader never sees half of it). */
function writeEntry(file: string, out: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(out));
  renameSync(tmp, file);
}

/** The entry of a page (bytes and url) in cache directory `dir`: read when there, else `compute`d and stored. */
async function cachedEntry<T>(dir: string, bytes: Buffer, url: string, compute: () => Promise<T>): Promise<T> {
  const file = entryFile(dir, bytes, url);
  const hit = readEntry<T>(file);
  if (hit !== undefined) return hit;
  const out = await compute();
  writeEntry(file, out);
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
  // trafilatura 2.0.0, with the dependencies pip now resolves for it, gives every paragraph twice; 2.3.1 does not.
  'trafilatura==2.3.1',
  // jusText (a trafilatura dependency) imports lxml.html.clean, a package of its own since lxml 5.2.
  'lxml_html_clean==0.4.6',
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

/** trafilatura's two settings compared: its defaults, and `favor_precision=True`. */
export interface PythonPeer {
  readonly name: 'trafilatura' | 'trafilatura-precision';
  readonly precision: boolean;
}
export const TRAFILATURA: PythonPeer = { name: 'trafilatura', precision: false };
export const TRAFILATURA_PRECISION: PythonPeer = { name: 'trafilatura-precision', precision: true };
/** The pinned version of trafilatura (the cache key with the page's bytes and url). */
export const TRAFILATURA_VERSION = PYTHON_PEERS.find((p) => p.startsWith('trafilatura=='))!.slice('trafilatura=='.length);

/**
 * trafilatura's outputs on pages (bytes as read from disk, url as given to the peer), from the cache
 * (eval/.cache/peers/<name>@<version>/) when there; the others are computed in one Python process
 * (eval/trafilatura-peer.py, fed a page at a time) and stored as they come. Its content is its HTML
 * output, made into text by the same code as the other peers' (peerText / htmlText). Returns the reason
 * when the outputs could not all be had (no Python, no venv, the process died): the column is then left out.
 */
export async function trafilaturaOutputs(peer: PythonPeer, pages: ReadonlyArray<{ bytes: Buffer; url: string }>): Promise<PeerOutput[] | { error: string }> {
  const dir = join(PEER_CACHE_DIR, `${peer.name}@${TRAFILATURA_VERSION}`);
  const files = pages.map((p) => entryFile(dir, p.bytes, p.url));
  const outs: Array<PeerOutput | undefined> = files.map((f) => readEntry<PeerOutput>(f));
  const todo = outs.flatMap((o, i) => (o === undefined ? [i] : []));
  if (todo.length === 0) return outs as PeerOutput[];
  const env = pythonPeerEnv();
  if ('error' in env) return { error: `its Python environment could not be made (${env.error})` };
  const child = spawn(env.python, [join(REPO_ROOT, 'eval', 'trafilatura-peer.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  child.stdin.on('error', () => {
    /* the process died: reported below when its answer is missing */
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const died = (): { error: string } => ({ error: `the Python process ended early: ${stderr.trim().split('\n').slice(-3).join(' ')}` });
  try {
    const hello = await lines.next();
    if (hello.done) return died();
    const version = (JSON.parse(hello.value) as { version: string }).version;
    if (version !== TRAFILATURA_VERSION) return { error: `trafilatura ${version} is installed, ${TRAFILATURA_VERSION} is pinned` };
    for (const i of todo) {
      const page = pages[i]!;
      child.stdin.write(JSON.stringify({ html: decodeHtml(page.bytes).text, url: page.url, precision: peer.precision }) + '\n');
      const answer = await lines.next();
      if (answer.done) return died();
      const out = JSON.parse(answer.value) as PeerOutput;
      writeEntry(files[i]!, out);
      outs[i] = out;
    }
    return outs as PeerOutput[];
  } finally {
    child.stdin.end();
  }
}
