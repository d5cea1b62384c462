/**
 * Readers of the corpus's versions/ (../shared/corpus/README.md): the same page over time, as Open Terms
 * Archive documents (snapshots with the gold selectors in force at each date) and dated home-page
 * snapshot series. corpus.ts re-exports them with the readers of the other folders.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dirs, readJson } from './corpus-files.ts';
import { CORPUS_DIR } from './corpus-path.ts';

/** An Open Terms Archive range selection: from the element `startBefore`/`startAfter` to `endBefore`/`endAfter`. */
export interface OtaRange {
  readonly startBefore?: string;
  readonly startAfter?: string;
  readonly endBefore?: string;
  readonly endAfter?: string;
}
/** An OTA `select` (or `remove`): a CSS selector, a range, or a list of them. */
export type OtaSelect = string | OtaRange | ReadonlyArray<string | OtaRange>;

/** One declaration of a document: what to select (and remove), in force until `validUntil` (null: now). */
export interface OtaDeclaration {
  /** The URL the document was fetched from while this declaration was in force. */
  readonly fetch: string;
  readonly select: OtaSelect;
  readonly remove?: OtaSelect;
  readonly filter?: readonly string[];
  /** ISO date after which maintainers replaced it (can lag the real break by weeks); null for the current one. */
  readonly validUntil: string | null;
}

/** A dated file of a series. */
export interface Dated {
  /** ISO 8601 date-time, UTC (`2022-01-20T14:33:27Z`). */
  readonly date: string;
  readonly path: string;
}

/** A raw snapshot of an OTA document, with which declarations match it (meta.json). */
export interface OtaSnapshot extends Dated {
  /** 'monthly' | 'transition' | 'latest' … (why it was staged). */
  readonly why: string;
  readonly selectorInForce: OtaSelect | null;
  /** Per declaration (its JSON as key) and per selector, how many elements matched. */
  readonly selectorMatches: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** An Open Terms Archive document (versions/ota-<service>__<document>/). */
export interface OtaDocument {
  readonly kind: 'ota';
  readonly name: string;
  readonly dir: string;
  readonly service: string;
  readonly document: string;
  /** Earlier declarations then the current one, oldest first (declaration.history.json + declaration.json). */
  readonly declarations: readonly OtaDeclaration[];
  /** Snapshots, oldest first. */
  readonly snapshots: readonly OtaSnapshot[];
  /** Extracted versions (versions/*.md, the expected content over time), oldest first. */
  readonly versions: readonly Dated[];
}

/** A page captured at dates, with no gold but its history (frontpage-*, christian-daily-reporter-home). */
export interface SnapshotSeries {
  readonly kind: 'snapshots';
  readonly name: string;
  readonly dir: string;
  /** Oldest first. */
  readonly snapshots: readonly Dated[];
}

/** A set of versions/: an OTA document (with gold selectors over time) or a plain snapshot series. */
export type VersionSet = OtaDocument | SnapshotSeries;

/** `2022-01-20T143327Z` (file stem) → `2022-01-20T14:33:27Z`; other stems are returned unchanged. */
export function stemDate(stem: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stem);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z` : stem;
}

/** An ISO date with offset (`+00:00`, `-05:00`) → UTC with `Z`. */
function toUtc(date: string): string {
  const t = Date.parse(date);
  return Number.isNaN(t) ? date : new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

function datedFiles(dir: string, ext: string): Dated[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => ({ date: stemDate(basename(f, ext)), path: join(dir, f) }));
}

interface OtaMeta {
  service: string;
  document: string;
  snapshots: Array<{ file: string; date: string; why: string; selector_in_force?: OtaSelect | null; selector_matches?: Record<string, Record<string, number>> }>;
}
type RawDeclaration = { fetch: string; select: OtaSelect; remove?: OtaSelect; filter?: string[]; validUntil?: string };

function readOta(name: string, dir: string): OtaDocument {
  const meta = readJson<OtaMeta>(join(dir, 'meta.json'));
  const current = readJson<{ terms: Record<string, RawDeclaration> }>(join(dir, 'declaration.json')).terms[meta.document];
  const historyPath = join(dir, 'declaration.history.json');
  const history = existsSync(historyPath) ? (readJson<Record<string, RawDeclaration[]>>(historyPath)[meta.document] ?? []) : [];
  const decl = (d: RawDeclaration, validUntil: string | null): OtaDeclaration => {
    const out: { -readonly [K in keyof OtaDeclaration]: OtaDeclaration[K] } = { fetch: d.fetch, select: d.select, validUntil };
    if (d.remove !== undefined) out.remove = d.remove;
    if (d.filter !== undefined) out.filter = d.filter;
    return out;
  };
  const declarations = history
    .map((d) => decl(d, d.validUntil ?? null))
    .sort((a, b) => (a.validUntil ?? '').localeCompare(b.validUntil ?? ''));
  if (current) declarations.push(decl(current, null));
  const snapshots = meta.snapshots
    .map((s) => ({
      date: toUtc(s.date),
      path: join(dir, s.file),
      why: s.why,
      selectorInForce: s.selector_in_force ?? null,
      selectorMatches: s.selector_matches ?? {},
    }))
    .sort((a, b) => a.date.localeCompare(b.date));
  return { kind: 'ota', name, dir, service: meta.service, document: meta.document, declarations, snapshots, versions: datedFiles(join(dir, 'versions'), '.md') };
}

function readSeries(name: string, dir: string): SnapshotSeries {
  const snapshots = datedFiles(dir, '.html');
  // index.tsv (christian-daily-reporter-home) gives the true commit date with its offset: prefer it.
  const index = join(dir, 'index.tsv');
  if (existsSync(index)) {
    const dates = new Map<string, string>();
    for (const line of readFileSync(index, 'utf8').split(/\r?\n/)) {
      const [file, , date] = line.split('\t');
      if (file && date) dates.set(file, toUtc(date));
    }
    return { kind: 'snapshots', name, dir, snapshots: snapshots.map((s) => ({ path: s.path, date: dates.get(basename(s.path)) ?? s.date })) };
  }
  return { kind: 'snapshots', name, dir, snapshots };
}

/** Every set of versions/, sorted by name: OTA documents (with meta.json) and snapshot series. */
export function listVersions(): VersionSet[] {
  const root = join(CORPUS_DIR, 'versions');
  return dirs(root).map((name) => {
    const dir = join(root, name);
    return existsSync(join(dir, 'meta.json')) ? readOta(name, dir) : readSeries(name, dir);
  });
}

/** The declaration in force at `date` (ISO): the first whose validUntil is after it, else the current one. */
export function declarationAt(doc: OtaDocument, date: string): OtaDeclaration | undefined {
  const t = Date.parse(date);
  return doc.declarations.find((d) => d.validUntil === null || Date.parse(d.validUntil) > t);
}
