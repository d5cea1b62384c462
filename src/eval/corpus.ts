/**
 * Readers for every part of the evaluation corpus (../shared/corpus/README.md): sites/ (whole sites with
 * gold content selectors and page classes), samesite/ (page groups with gold main text), clusters/ (pages
 * with a known class), records/ (SWDE ground truth) and versions/ (the same page over time: Open Terms
 * Archive documents and dated home-page snapshots; corpus-versions.ts, re-exported here). Everything is read from `CORPUS_DIR`, never copied.
 * Readers are synchronous (the corpus is small and local) and return plain data; pages are parsed only
 * on request (`readTree`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHtml } from '../html/charset.ts';
import type { LabelTable } from '../html/labels.ts';
import { parseHtml } from '../html/parse.ts';
import { textOf } from '../html/text.ts';
import type { Tree } from '../html/tree.ts';
import { dirs, readJson, walk } from './corpus-files.ts';
import { CORPUS_DIR } from './corpus-path.ts';
import { goldRegions, type GoldSelectors } from './metrics.ts';

export {
  declarationAt,
  listVersions,
  stemDate,
  type Dated,
  type OtaDeclaration,
  type OtaDocument,
  type OtaRange,
  type OtaSelect,
  type OtaSnapshot,
  type SnapshotSeries,
  type VersionSet,
} from './corpus-versions.ts';

/** Page files of a site copy: HTML and XHTML. */
const PAGE_FILE = /\.(html?|xhtml)$/i;

/**
 * Reads and parses one corpus page: bytes decoded as a browser would (charset.ts), parsed with the fast
 * parser; `.xhtml` files get self-closing tags recognised (as `parsePage` does for XHTML).
 */
export function readTree(path: string, labels?: LabelTable): Tree {
  const { text } = decodeHtml(readFileSync(path));
  const options: { labels?: LabelTable; selfClosing: boolean } = { selfClosing: /\.xhtml$/i.test(path) };
  if (labels) options.labels = labels;
  return parseHtml(text, options);
}

// ---------------------------------------------------------------------------------------------------------
// sites/

/** A whole website of sites/ with its gold (site.json). */
export interface CorpusSite {
  /** Folder name, e.g. 'peps'. */
  readonly name: string;
  /** sites/<name>. */
  readonly dir: string;
  /** sites/<name>/pages: the site root. */
  readonly pagesDir: string;
  /** The home page, relative to pagesDir. */
  readonly entry: string;
  readonly gold: GoldSelectors;
  /** Page classes: class name → regular expression over the page key. Absent when site.json has none. */
  readonly classes?: Readonly<Record<string, RegExp>>;
  /** Page keys (paths relative to pagesDir, '/'-separated), sorted. */
  files(): string[];
}

interface SiteJson {
  name?: string;
  entry: string;
  gold: { content: string[]; exclude?: string[] };
  classes?: Record<string, string>;
}

/** The sites of sites/, sorted by name. Empty when the corpus is absent. */
export function listSites(): CorpusSite[] {
  const root = join(CORPUS_DIR, 'sites');
  return dirs(root)
    .filter((n) => existsSync(join(root, n, 'site.json')))
    .map((n) => {
      const dir = join(root, n);
      const j = readJson<SiteJson>(join(dir, 'site.json'));
      const pagesDir = join(dir, 'pages');
      let cache: string[] | null = null;
      const site: { -readonly [K in keyof CorpusSite]: CorpusSite[K] } = {
        name: n,
        dir,
        pagesDir,
        entry: j.entry,
        gold: { content: j.gold.content, exclude: j.gold.exclude ?? [] },
        files: () => (cache ??= walk(pagesDir, PAGE_FILE)).slice(),
      };
      if (j.classes) {
        site.classes = Object.fromEntries(Object.entries(j.classes).map(([k, re]) => [k, new RegExp(re)]));
      }
      return site;
    });
}

/** The site of that name, or throws naming the known ones. */
export function getSite(name: string): CorpusSite {
  const all = listSites();
  const s = all.find((x) => x.name === name);
  if (!s) throw new Error(`corpus: no site "${name}" (known: ${all.map((x) => x.name).join(', ') || 'none'})`);
  return s;
}

/** The class of a page key (the first class whose expression matches), or undefined (unlabelled). */
export function classOf(site: CorpusSite, key: string): string | undefined {
  if (!site.classes) return undefined;
  for (const [name, re] of Object.entries(site.classes)) if (re.test(key)) return name;
  return undefined;
}

/**
 * The gold main-content containers of a page (node indices, outermost only, document order): the matches
 * of the first content selector that matches. Null when none matches (no gold on this page).
 */
export function goldContainers(site: Pick<CorpusSite, 'gold'>, tree: Tree): number[] | null {
  return goldRegions(tree, site.gold)?.containers ?? null;
}

/**
 * The gold main text of a page: the text (textOf, blocks on lines) of each gold container minus the
 * `exclude` matches inside it, containers joined by newlines. Null when no content selector matches.
 */
export function goldContentText(site: Pick<CorpusSite, 'gold'>, tree: Tree): string | null {
  const r = goldRegions(tree, site.gold);
  if (!r) return null;
  const ex = r.excluded;
  return r.containers
    .map((c) => textOf(tree, c, (i) => ex[i] !== 1))
    .filter((t) => t !== '')
    .join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// samesite/

/** One page of a samesite group: `<id>.html` and its gold main text `<id>.txt`. */
export interface SamesitePage {
  readonly id: string;
  readonly htmlPath: string;
  readonly goldPath: string;
}

/** Several pages of one site (samesite/<set>/<site>/), the input of site-level methods. */
export interface SamesiteGroup {
  /** 'l3s-gn1' | 'cleanportaleval' | 'dragnet'. */
  readonly set: string;
  /** The site folder, e.g. 'www.bbc.co.uk'. */
  readonly site: string;
  readonly dir: string;
  /** Pages that have both files, sorted by id. */
  readonly pages: readonly SamesitePage[];
}

/** Every samesite group, sorted by set then site. Empty when the corpus is absent. */
export function listSamesite(): SamesiteGroup[] {
  const root = join(CORPUS_DIR, 'samesite');
  const out: SamesiteGroup[] = [];
  for (const set of dirs(root)) {
    for (const site of dirs(join(root, set))) {
      const dir = join(root, set, site);
      const pages: SamesitePage[] = [];
      for (const f of readdirSync(dir).sort()) {
        if (!f.endsWith('.html')) continue;
        const id = f.slice(0, -'.html'.length);
        const goldPath = join(dir, id + '.txt');
        if (existsSync(goldPath)) pages.push({ id, htmlPath: join(dir, f), goldPath });
      }
      out.push({ set, site, dir, pages });
    }
  }
  return out;
}

/**
 * The gold main text of a samesite page: UTF-8 with an optional BOM, or UTF-16. Five dragnet gold files
 * are UTF-16LE whose BOM was itself mangled into two U+FFFD (bytes EF BF BD EF BF BD) by an earlier
 * conversion; read as UTF-8 they turn into single letters separated by NULs, so they are decoded as UTF-16
 * when the bytes after such a start alternate with zeros. An HTML comment is a note, not gold text:
 * CleanPortalEval's page without an article (bbc.co.uk_news/04) has the gold `<!-- this page contains no
 * article -->`, an empty gold (the page is left out of content scores, as every empty gold is).
 */
export function samesiteGoldText(page: SamesitePage): string {
  return cutComments(decodeGold(readFileSync(page.goldPath))).replace(/<!--[\s\S]*?-->/g, '');
}

/**
 * Dragnet's separator between a page's main text and its reader comments in the gold files: a line
 * `!@#$%^&*() COMMENTS` (in one file the `!` is lost, in one the `*` is doubled, `!@#$%^&**() COMMENTS`,
 * and in one the word is `CORRECTED`; reader comments follow it in each). The corpus README says
 * dragnet's gold has the comments cut; five gold files (blog.ted.com, fourhourworkweek, johndcook) still
 * hold them after the separator, up to 37 times the words of the article, so the gold main text is what
 * comes before it. The symbol run alone is the separator (no article text holds it).
 */
const COMMENTS_SEPARATOR = /!?@#\$%\^&\*+\(\)/;

/** A gold text without the reader comments behind dragnet's separator (see COMMENTS_SEPARATOR). */
export function cutComments(gold: string): string {
  const at = gold.search(COMMENTS_SEPARATOR);
  return at < 0 ? gold : gold.slice(0, at);
}

/** Decodes a gold text file (see samesiteGoldText). */
export function decodeGold(bytes: Buffer): string {
  const at = (i: number): number => bytes[i] ?? -1;
  if (at(0) === 0xff && at(1) === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (at(0) === 0xfe && at(1) === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  const mangledBom = [0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd].every((b, i) => at(i) === b);
  if (mangledBom) {
    const rest = bytes.subarray(6, 6 + 2 * Math.floor(Math.min(bytes.length - 6, 400) / 2));
    let zeros = 0;
    for (let i = 1; i < rest.length; i += 2) if (rest[i] === 0) zeros++;
    if (rest.length >= 8 && zeros >= 0.9 * (rest.length / 2)) {
      // Non-ASCII characters went through the same mangling: their low byte became EF BF BD, which read
      // as UTF-16 is U+BFEF U+00BD. They are lost; they become U+FFFD again.
      return bytes.subarray(6, 6 + 2 * Math.floor((bytes.length - 6) / 2)).toString('utf16le').replaceAll('\uBFEF\u00BD', '\uFFFD');
    }
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

// ---------------------------------------------------------------------------------------------------------
// clusters/

/** A page of a cluster set with its gold class. */
export interface ClusterPage {
  /** File name, e.g. 'jobs-01.html'. */
  readonly key: string;
  readonly path: string;
  readonly cls: string;
}

/** A set of pages with known classes (clusters/<name>/, classes.json). */
export interface ClusterSet {
  readonly name: string;
  readonly dir: string;
  /** Pages listed in classes.json whose file exists, sorted by key. */
  readonly pages: readonly ClusterPage[];
  /** key → class, for `purity` / `adjustedRandIndex`. */
  readonly gold: ReadonlyMap<string, string>;
}

/** Every cluster set (today: stackoverflow), sorted by name. Empty when the corpus is absent. */
export function loadClusters(): ClusterSet[] {
  const root = join(CORPUS_DIR, 'clusters');
  return dirs(root)
    .filter((n) => existsSync(join(root, n, 'classes.json')))
    .map((name) => {
      const dir = join(root, name);
      const classes = readJson<Record<string, string>>(join(dir, 'classes.json'));
      const pages = Object.keys(classes)
        .sort()
        .filter((k) => existsSync(join(dir, k)))
        .map((key) => ({ key, path: join(dir, key), cls: classes[key]! }));
      return { name, dir, pages, gold: new Map(pages.map((p) => [p.key, p.cls])) };
    });
}

// ---------------------------------------------------------------------------------------------------------
// records/

/** A page of a records set with the gold values of each attribute ([] for `<NULL>`). */
export interface RecordPage {
  /** SWDE page id, e.g. '0000'. */
  readonly id: string;
  readonly path: string;
  readonly values: Readonly<Record<string, readonly string[]>>;
}

/** A SWDE site (records/swde-<vertical>-<site>/): its pages and per-attribute ground truth. */
export interface RecordSet {
  /** Folder name, e.g. 'swde-book-booksamillion'. */
  readonly name: string;
  readonly dir: string;
  readonly vertical: string;
  readonly site: string;
  /** Attribute names, sorted (e.g. author, isbn_13, publication_date, publisher, title). */
  readonly attributes: readonly string[];
  /** The pages present in pages/ (ground truth covers more pages than are stored), sorted by id. */
  readonly pages: readonly RecordPage[];
}

/**
 * Parses one SWDE ground-truth file (UTF-8 with BOM, CRLF, tab-separated): line 1 `vertical site
 * attribute`, line 2 counts, then `page_id n_values value1 value2 …`, `<NULL>` for none.
 */
export function parseGroundTruth(text: string, file = 'ground truth'): { vertical: string; site: string; attribute: string; values: Map<string, string[]> } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = (lines[0] ?? '').split('\t');
  if (head.length < 3) throw new Error(`corpus: ${file}: first line is not "vertical\\tsite\\tattribute"`);
  const values = new Map<string, string[]>();
  for (let l = 2; l < lines.length; l++) {
    const line = lines[l]!;
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const id = cells[0]!;
    const n = Number(cells[1]);
    const vs = cells.slice(2).filter((v) => v !== '<NULL>' && v.trim() !== '').map((v) => v.trim());
    if (!Number.isFinite(n)) throw new Error(`corpus: ${file}: line ${l + 1}: bad value count "${cells[1]}"`);
    values.set(id, vs);
  }
  return { vertical: head[0]!.trim(), site: head[1]!.trim(), attribute: head[2]!.trim(), values };
}

/** Every records set, sorted by name. Empty when the corpus is absent. */
export function loadRecords(): RecordSet[] {
  const root = join(CORPUS_DIR, 'records');
  return dirs(root).map((name) => {
    const dir = join(root, name);
    const gtDir = join(dir, 'groundtruth');
    const truths = (existsSync(gtDir) ? readdirSync(gtDir).filter((f) => f.endsWith('.txt')).sort() : []).map((f) =>
      parseGroundTruth(readFileSync(join(gtDir, f), 'utf8'), join(gtDir, f)),
    );
    const attributes = truths.map((t) => t.attribute).sort();
    const pages = walk(join(dir, 'pages'), /\.html?$/i).map((f) => {
      const id = f.replace(/\.html?$/i, '');
      const values: Record<string, readonly string[]> = {};
      for (const t of truths) values[t.attribute] = t.values.get(id) ?? [];
      return { id, path: join(dir, 'pages', f), values };
    });
    return { name, dir, vertical: truths[0]?.vertical ?? '', site: truths[0]?.site ?? '', attributes, pages };
  });
}
