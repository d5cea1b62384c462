/**
 * A crawl split into shards (paper 3, section 3.2: the tables are built "by streaming through the pages",
 * constant work per page, so the per-page work splits freely). A shard is one source (a WARC file or a
 * directory of pages); its pass 1 (parse, partition, shingle, links: engine.ts `passOne`) writes the rows
 * of PAGES, PAGELETS and LINKS as Parquet files in a work directory that every machine sees:
 *
 *   WORK/shards/<index>-<name>/pages.parquet     page BIGINT, url DOUBLE, fingerprint DOUBLE, chars INTEGER
 *                              pagelets.parquet  page BIGINT, ordinal, shingle DOUBLE, node, nodes, chars
 *                              links.parquet     src BIGINT, dest DOUBLE
 *                              keys.parquet      page BIGINT, key VARCHAR (the page's key in its source)
 *                              manifest.json     the shard's id, its source's checksum, the analysis
 *                                                options, and each file's size and SHA-256 (written last)
 *   WORK/global/                                  the global step's results (global-shards.ts)
 *   WORK/marked/<index>-<name>.json              a shard whose output was written (this file)
 *
 * Page ids are the shard's index × 2^32 plus the page's number in its shard, so they are unique over the
 * crawl and ordered (shard, page) without any coordination between machines: the index is the shard's
 * position in the sorted list of sources every machine is given (`listShards`); `--part i/n` picks the
 * shards of one machine. A shard is written under a temporary name and renamed when complete; a rerun
 * skips a shard whose manifest matches its source and options and whose files match their checksums.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { PageFailure } from '../../errors.ts';
import { OrdinalBits } from './detection.ts';
import { type DetectContext, type KeptWorkers, type MarkInput, type PageletRunOptions, passOne } from './engine.ts';
import { expandGlob } from '../../site/glob.ts';
import { SqlPageletStore } from './global.ts';
import { type RecordKind, RenderSpool } from './render.ts';
import { SHARD_STRIDE } from './sql-steps.ts';

/** One shard: a source and its place in the crawl's sorted list of sources. */
export interface Shard {
  index: number;
  /** File-system-safe name (the source's base name). */
  name: string;
  /** The source as given (a path). */
  spec: string;
}

/** What a shard's pass 1 wrote (`manifest.json`). */
export interface ShardManifest {
  version: 1;
  index: number;
  name: string;
  source: string;
  /** SHA-256 of the source (a file's bytes; a directory's sorted list of paths, sizes and times). */
  sourceChecksum: string;
  /** The options of the per-page work (the output phase partitions pages with the same k). */
  analysis: { k: number; shingleWidth: number; minhashes: number; linkTargets: boolean; foldDigits: boolean; navigation: boolean; contentShare: number; landmarks?: boolean; items?: boolean };
  pages: number;
  failures: number;
  files: Record<string, { bytes: number; sha256: string }>;
  /**
   * What writing each page's output needs, recorded in pass 1 (render.ts) so that the output phase parses
   * no page again: `render.spool` and its index, checked by size (they play no part in the global step).
   * `kind: 'text'`: text records (the kept text and the title: what JSON lines need, not the page files).
   */
  render?: { bytes: number; indexBytes: number; kind?: 'text' };
  ms: number;
}

export const SHARD_FILES = ['pages', 'pagelets', 'links', 'keys'] as const;
/** The pages of the shard that pass 1 could not read or parse (a JSON array of PageFailure), when any. */
export const SHARD_FAILURES = 'failures.json';

/** The pages of a shard that failed in pass 1 (none when it kept no list). */
export async function shardFailures(work: string, shard: Pick<Shard, 'index' | 'name'>): Promise<PageFailure[]> {
  try {
    return JSON.parse(await readFile(join(workPaths.shard(work, shard), SHARD_FAILURES), 'utf8')) as PageFailure[];
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
}

/** The shard's render records (render.ts), with their index in `<name>.idx`. */
export const RENDER_SPOOL = 'render.spool';

/** Paths inside a work directory. */
export const workPaths = {
  shards: (work: string): string => join(work, 'shards'),
  shard: (work: string, s: Pick<Shard, 'index' | 'name'>): string => join(work, 'shards', `${s.index}-${s.name}`),
  global: (work: string): string => join(work, 'global'),
  marked: (work: string, s: Pick<Shard, 'index' | 'name'>): string => join(work, 'marked', `${s.index}-${s.name}.json`),
};

/** What names a folder being written beside its final name (`<final>~tmp-<host>-<pid>-<random>`); `~` is never in a shard's name. */
const STAGING = '~tmp-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/**
 * A new empty folder beside `final`, to write it in before `replaceDir` renames it to `final`: a killed
 * writer leaves `final` as it was. Its name is unique to this process, so that two attempts at the same
 * folder (a retried or speculative Spark task, on any machine sharing the folder) never write in each
 * other's. The folders left beside `final` by processes of this host that no longer run are removed first.
 */
export async function stagingDir(final: string): Promise<string> {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
  const mine = `${basename(final)}${STAGING}${host}-`;
  const parent = dirname(final);
  await mkdir(parent, { recursive: true });
  for (const name of await readdir(parent)) {
    const pid = name.startsWith(mine) ? /^(\d+)-[0-9a-f]+$/.exec(name.slice(mine.length))?.[1] : undefined;
    if (pid !== undefined && !alive(Number(pid))) await rm(join(parent, name), { recursive: true, force: true });
  }
  const dir = `${final}${STAGING}${host}-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(dir);
  return dir;
}

/** Puts the complete folder `staged` (from `stagingDir`) in place of `final`. */
export async function replaceDir(staged: string, final: string): Promise<void> {
  await rm(final, { recursive: true, force: true });
  await rename(staged, final);
}

/** True for the name of a folder being written (`stagingDir`, or a temporary name of an earlier version). */
export function isStaging(name: string): boolean {
  return name.includes(STAGING) || /\.tmp-\d+$/.test(name);
}

/**
 * The shards of a crawl: every source the specs name (globs expanded), sorted by absolute path and
 * numbered; the same list on every machine gives the same indexes. Throws when a spec matches nothing.
 */
export async function listShards(specs: readonly string[]): Promise<Shard[]> {
  const paths = new Set<string>();
  for (const spec of specs) {
    const found = await expandGlob(spec);
    if (found.length === 0) throw new Error(`no source matches ${spec}`);
    for (const f of found) paths.add(resolve(f));
  }
  const sorted = [...paths].sort();
  // the base name, or as many parent folders as make names unique (sites/a/pages, sites/b/pages → a_pages, b_pages)
  const segments = sorted.map((p) => p.split(/[\\/]+/).filter(Boolean));
  let depth = 1;
  const nameAt = (segs: string[], d: number): string => segs.slice(-d).join('_').replace(/[^A-Za-z0-9._-]/g, '_') || 'source';
  while (new Set(segments.map((s) => nameAt(s, depth))).size < segments.length) {
    if (segments.every((s) => s.length <= depth)) throw new Error('two sources have the same path');
    depth++;
  }
  return sorted.map((spec, index) => ({ index, name: nameAt(segments[index]!, depth), spec }));
}

/** The shards of machine `i` of `n` (`--part i/n`): indexes ≡ i (mod n). */
export function partOf<T extends Pick<Shard, 'index'>>(shards: readonly T[], part: { i: number; n: number } | undefined): T[] {
  if (!part) return [...shards];
  return shards.filter((s) => s.index % part.n === part.i);
}

/** Parses `i/n` (0 ≤ i < n). */
export function parsePart(raw: string): { i: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const i = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!(n >= 1 && i >= 0 && i < n)) throw new Error(`expected i/n with 0 <= i < n, got "${raw}"`);
  return { i, n };
}

/** SHA-256 of a file's bytes. */
export async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** SHA-256 of a source: a file's bytes, or a directory's sorted list of relative paths, sizes and mtimes. */
export async function sourceChecksum(spec: string): Promise<string> {
  const s = await stat(spec);
  if (s.isFile()) return fileSha256(spec);
  const h = createHash('sha256');
  const entries: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const fs = await stat(p);
        entries.push(`${relative(spec, p)}\0${fs.size}\0${fs.mtimeMs}`);
      }
    }
  };
  await walk(spec);
  for (const e of entries.sort()) h.update(e + '\n');
  return h.digest('hex');
}

function analysisOf(o: PageletRunOptions): ShardManifest['analysis'] {
  return { k: o.k, shingleWidth: o.shingleWidth, minhashes: o.minhashes, linkTargets: o.linkTargets, foldDigits: o.foldDigits, navigation: o.navigationPagelets, contentShare: o.contentShare, landmarks: o.landmarks, items: o.navigationItems };
}

/** The shard's manifest when it is complete and still matches its files (else undefined). */
export async function readManifest(work: string, shard: Pick<Shard, 'index' | 'name'>): Promise<ShardManifest | undefined> {
  const dir = workPaths.shard(work, shard);
  let m: ShardManifest;
  try {
    m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ShardManifest;
  } catch {
    return undefined;
  }
  for (const [file, f] of Object.entries(m.files)) {
    const p = join(dir, file);
    if (!existsSync(p) || (await stat(p)).size !== f.bytes || (await fileSha256(p)) !== f.sha256) return undefined;
  }
  return m;
}

/** A shard's identity for the steps after it: SHA-256 over its files' checksums and its source's. */
export function manifestChecksum(m: ShardManifest): string {
  return createHash('sha256').update(JSON.stringify([m.index, m.sourceChecksum, m.files])).digest('hex');
}

/** Every complete shard of a work directory, by index; throws when two claim the same index. */
export async function readManifests(work: string): Promise<ShardManifest[]> {
  let dirs: string[] = [];
  try {
    dirs = (await readdir(workPaths.shards(work))).filter((d) => /^\d+-/.test(d) && !isStaging(d));
  } catch {
    return [];
  }
  const out: ShardManifest[] = [];
  for (const d of dirs) {
    const dash = d.indexOf('-');
    const m = await readManifest(work, { index: Number(d.slice(0, dash)), name: d.slice(dash + 1) });
    if (m) out.push(m);
  }
  out.sort((a, b) => a.index - b.index);
  for (let i = 1; i < out.length; i++) if (out[i]!.index === out[i - 1]!.index) throw new Error(`two shards have index ${out[i]!.index} in ${work}`);
  return out;
}

/** What `analyseShard` did. */
export type ShardOutcome = { skipped: true; manifest: ShardManifest } | { skipped: false; manifest: ShardManifest };

/**
 * Pass 1 over one shard's source, its rows written as Parquet in the work directory; skipped when the
 * shard is already done for the same source and options. `ctx.source` is the shard's source;
 * `knownChecksum` stands for its checksum when it is not a path (a generated crawl); `keep` keeps the
 * worker threads for the next shard (engine.ts `KeptWorkers`).
 */
export async function analyseShard(work: string, shard: Shard, ctx: DetectContext, o: PageletRunOptions, knownChecksum?: string, records: boolean | RecordKind = true, keep?: KeptWorkers): Promise<ShardOutcome> {
  const checksum = knownChecksum ?? (await sourceChecksum(shard.spec));
  const analysis = analysisOf(o);
  const done = await readManifest(work, shard);
  if (done && done.sourceChecksum === checksum && JSON.stringify(done.analysis) === JSON.stringify(analysis)) return { skipped: true, manifest: done };
  const t0 = performance.now();
  const final = workPaths.shard(work, shard);
  const tmp = await stagingDir(final);
  const store = await SqlPageletStore.open({});
  const spool = records ? RenderSpool.create(join(tmp, RENDER_SPOOL), records === 'text' ? 'text' : 'page') : undefined;
  const failed: PageFailure[] = [];
  try {
    const keys: string[] = [];
    const pass = await passOne(
      { ...ctx, onFailure: (f) => (failed.push(f), ctx.onFailure(f)) },
      o,
      (rec) => {
        keys.push(rec.key);
        return store.add(rec);
      },
      spool,
      keep,
    );
    let render: ShardManifest['render'];
    if (spool) {
      spool.save();
      spool.close();
      render = { bytes: (await stat(join(tmp, RENDER_SPOOL))).size, indexBytes: (await stat(join(tmp, `${RENDER_SPOOL}.idx`))).size, ...(spool.kind === 'text' ? { kind: 'text' as const } : {}) };
    }
    await store.finishAppends();
    const c = store.connection;
    await c.run('CREATE TABLE pagelets.keys (page INTEGER, key VARCHAR)');
    const app = await c.createAppender('keys', 'pagelets');
    for (let i = 0; i < keys.length; i++) {
      app.appendInteger(i);
      app.appendVarchar(keys[i]!);
      app.endRow();
    }
    app.flushSync();
    app.closeSync();
    const base = `${shard.index}::BIGINT * ${SHARD_STRIDE}`;
    const copy = (select: string, file: string): Promise<unknown> => c.run(`COPY (${select}) TO '${join(tmp, file).replace(/'/g, "''")}' (FORMAT parquet)`);
    await copy(`SELECT ${base} + page AS page, url, fingerprint, chars FROM pagelets.pages ORDER BY page`, 'pages.parquet');
    await copy(`SELECT ${base} + page AS page, ordinal, shingle, node, nodes, chars FROM pagelets.pagelets ORDER BY page, ordinal`, 'pagelets.parquet');
    await copy(`SELECT ${base} + src AS src, dest FROM pagelets.links ORDER BY src`, 'links.parquet');
    await copy(`SELECT ${base} + page AS page, key FROM pagelets.keys ORDER BY page`, 'keys.parquet');
    const files: ShardManifest['files'] = {};
    for (const f of SHARD_FILES) {
      const p = join(tmp, `${f}.parquet`);
      files[`${f}.parquet`] = { bytes: (await stat(p)).size, sha256: await fileSha256(p) };
    }
    const manifest: ShardManifest = {
      version: 1,
      index: shard.index,
      name: shard.name,
      source: shard.spec,
      sourceChecksum: checksum,
      analysis,
      pages: pass.ids.size,
      failures: failed.length,
      files,
      ...(render ? { render } : {}),
      ms: Math.round(performance.now() - t0),
    };
    // the pages that failed, for the summary of the shard's output (mark lists them with its own)
    if (failed.length > 0) await writeFile(join(tmp, SHARD_FAILURES), JSON.stringify(failed) + '\n');
    await writeFile(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
    await replaceDir(tmp, final);
    return { skipped: false, manifest };
  } finally {
    spool?.close();
    store.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * What the output phase of a shard needs from the work directory: each page's id (from keys.parquet) and
 * its template ordinals (from the global step's template_pagelets of the shard), as a `MarkInput` for
 * engine.ts `markPagelets`; with the shard's records when they hold what `need` asks (text records do
 * not make page files: the pages are then read and parsed again).
 */
export async function shardMarkInput(work: string, manifest: ShardManifest, o: PageletRunOptions, need: RecordKind = 'page'): Promise<MarkInput> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '128MB' });
  const c = await instance.connect();
  try {
    const dir = workPaths.shard(work, manifest);
    const ids = new Map<string, number>();
    const keys = await c.runAndReadAll(`SELECT CAST(page % ${SHARD_STRIDE} AS INTEGER), key FROM read_parquet('${join(dir, 'keys.parquet').replace(/'/g, "''")}') ORDER BY page`);
    for (const [page, key] of keys.getRows()) ids.set(String(key), Number(page));
    const bits = new OrdinalBits(manifest.pages);
    // With the shard's render records, each page's template node ranges and characters too, in page order:
    // page p's rows are [first[p], first[p + 1]) of `start` and `count`.
    const records = manifest.render !== undefined && (need === 'text' || manifest.render.kind !== 'text') && existsSync(join(dir, RENDER_SPOOL));
    const n = manifest.pages;
    const first = new Int32Array(n + 1);
    const tchars = new Float64Array(n);
    let start = new Int32Array(0);
    let count = new Int32Array(0);
    const tp = join(workPaths.global(work), 'template_pagelets', `shard=${manifest.index}`);
    if (existsSync(tp) && (await readdir(tp)).some((f) => f.endsWith('.parquet'))) {
      const from = `read_parquet('${join(tp, '*.parquet').replace(/'/g, "''")}')`;
      if (records) {
        const rows = Number((await c.runAndReadAll(`SELECT count(*) FROM ${from}`)).getRows()[0]![0]);
        start = new Int32Array(rows);
        count = new Int32Array(rows);
      }
      const r = await c.stream(`SELECT page, ordinal${records ? ', node, nodes, chars' : ''} FROM ${from} ORDER BY page, ordinal`);
      let row = 0;
      for (;;) {
        const chunk = await r.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        // (rowCount asks the native chunk each time it is read)
        const rows = chunk.rowCount;
        const p = chunk.getColumnValues(0) as number[];
        const ord = chunk.getColumnValues(1) as number[];
        for (let i = 0; i < rows; i++) bits.set(p[i]!, ord[i]!);
        if (!records) continue;
        const v = chunk.getColumnValues(2) as number[];
        const k = chunk.getColumnValues(3) as number[];
        const ch = chunk.getColumnValues(4) as number[];
        for (let i = 0; i < rows; i++, row++) {
          first[p[i]! + 1]!++;
          tchars[p[i]!]! += ch[i]!;
          start[row] = v[i]!;
          count[row] = k[i]!;
        }
      }
    }
    bits.finish();
    const a = manifest.analysis;
    const options = { ...o, k: a.k, shingleWidth: a.shingleWidth, minhashes: a.minhashes, linkTargets: a.linkTargets, foldDigits: a.foldDigits, navigationPagelets: a.navigation, contentShare: a.contentShare, landmarks: a.landmarks ?? false, navigationItems: a.items ?? false, keepTreesUpTo: 0 };
    const detection: MarkInput['detection'] = { templateOrdinals: (page) => bits.get(page) };
    let spool: RenderSpool | undefined;
    if (records) {
      for (let p = 0; p < n; p++) first[p + 1]! += first[p]!;
      const body = new Float64Array(n);
      const pages = await c.runAndReadAll(`SELECT CAST(page % ${SHARD_STRIDE} AS INTEGER), chars FROM read_parquet('${join(dir, 'pages.parquet').replace(/'/g, "''")}')`);
      for (const [page, chars] of pages.getRows()) body[Number(page)] = Number(chars);
      detection.templateFraction = (page) => (body[page]! === 0 ? 0 : tchars[page]! / body[page]!);
      detection.eachTemplateNodes = async (onPage) => {
        for (let p = 0; p < n; p++) await onPage(p, start.subarray(first[p]!, first[p + 1]!), count.subarray(first[p]!, first[p + 1]!));
      };
      // opened last: nothing after it can fail and leave it open
      spool = RenderSpool.read(join(dir, RENDER_SPOOL));
    }
    if (!spool) return { options, ids, kept: null, workers: o.workers, detection: { templateOrdinals: detection.templateOrdinals } };
    return { options, ids, kept: null, workers: o.workers, detection, spool };
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** A shard whose output was written: which global result it used, where, and how many pages. */
export interface MarkedManifest {
  index: number;
  name: string;
  out: string;
  /** SHA-256 of the global step's result.json the marks came from. */
  global: string;
  pages: number;
  failures: number;
  /** The output's format when not the page files (`text`). */
  format?: 'jsonl';
}

/** True when the shard's output is already written to `out`, in `format`, from the current global result. */
export async function markedAlready(work: string, shard: Pick<Shard, 'index' | 'name'>, out: string, global: string, format: 'text' | 'jsonl' = 'text'): Promise<boolean> {
  try {
    const m = JSON.parse(await readFile(workPaths.marked(work, shard), 'utf8')) as MarkedManifest;
    return m.out === resolve(out) && m.global === global && (m.format ?? 'text') === format && existsSync(join(out, 'summary.json'));
  } catch {
    return false;
  }
}

/** Records that a shard's output is written. */
export async function recordMarked(work: string, m: MarkedManifest): Promise<void> {
  const p = workPaths.marked(work, m);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(`${p}.tmp-${process.pid}`, JSON.stringify({ ...m, out: resolve(m.out) }, null, 1) + '\n');
  await rename(`${p}.tmp-${process.pid}`, p);
}
