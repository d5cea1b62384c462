/**
 * Out-of-sample choice of an engine's options (shared by eval/align.eval.ts, pagelets.eval.ts and
 * hyperlink.eval.ts): every option value an engine's figures depend on is chosen on *other* sites than
 * the one it is scored on.
 *
 *  - A *grid* of option sets (the engine's defaults first, then variations) is measured on every whole
 *    site of the corpus (sites/): one figure set per (grid point, site).
 *  - *Folds*: leave one generator out. Sites built by one generator share their template's habits (the
 *    two MkDocs Material sites), so a fold holds out every site of a generator at once; the other
 *    generators have one site each, so for them this is leave-one-site-out.
 *  - For each fold, the grid point with the best *objective* on the sites outside the fold (a mean over
 *    those sites, each site weighing the same) is chosen, and the fold's sites are scored with it: the
 *    *held-out* figure, the headline. Points within `TIE` of the best mean objective are tied, and ties
 *    go to the earlier grid point (the defaults come first): a variation replaces the defaults only when
 *    it gains more than a tenth of a point of F1 on the training sites (docs/engines.md, "How the options
 *    are chosen").
 *  - The *in-sample* figure beside it: the point chosen on all sites, the fold's included.
 * The module measures nothing itself: the eval gives `measure` (one run of the engine over the sites with
 * a grid point's options) and the objective.
 */
import { fmt, formatTable } from './harness.ts';

/** The figures of one site under one grid point. `f1`, `precision`, `recall` always; others as the engine needs. */
export interface SiteFigures {
  f1: number;
  precision: number;
  recall: number;
  [figure: string]: number;
}

/** One option set of the grid. */
export interface GridPoint {
  /** Short name for tables ("default", "mismatch 0", …). */
  name: string;
  /** Engine options (camelCase names, parsed values). */
  options: Record<string, unknown>;
}

/**
 * The generator of each corpus site (corpus README, sites/ table): the folds of leave-one-generator-out.
 * A site missing here is its own generator.
 */
export const SITE_GENERATORS: Readonly<Record<string, string>> = {
  'httpx-docs': 'MkDocs Material',
  'django-rest-framework-docs': 'MkDocs Material',
  peps: 'Sphinx',
  'python-docs': 'Sphinx',
  'rustdoc-std': 'rustdoc',
  sicp: 'Texinfo',
  'jekyll-blog': 'Jekyll',
  'retrofit-javadoc': 'Javadoc',
  'thingspanel-docs': 'Docusaurus',
};

/** What cross-validation needs from an eval. */
export interface CrossValidationSpec {
  /** Engine name, for tables. */
  engine: string;
  grid: readonly GridPoint[];
  /** The sites measured (sites/ names). */
  sites: readonly string[];
  /** Figures of every site under one grid point. */
  measure(point: GridPoint): Promise<Map<string, SiteFigures>>;
  /** Objective of one site's figures (higher is better); the choice maximises its mean over the training sites. */
  objective(figures: SiteFigures): number;
  /** Progress lines on stderr (default true). */
  progress?: boolean;
}

/** One site's line of the result. */
export interface FoldResult {
  site: string;
  generator: string;
  /** Grid point chosen without this site's generator, and the site's figures with it (the headline). */
  heldOutChoice: string;
  heldOut: SiteFigures;
  /** Grid point chosen on all sites, and the site's figures with it. */
  inSampleChoice: string;
  inSample: SiteFigures;
}

/** Everything cross-validation measured. */
export interface CrossValidationResult {
  engine: string;
  grid: GridPoint[];
  /** figures[point name][site]. */
  figures: Record<string, Record<string, SiteFigures>>;
  folds: FoldResult[];
  /** Means over sites (each site once) of the held-out and in-sample figures. */
  meanHeldOut: SiteFigures;
  meanInSample: SiteFigures;
  /** The point chosen on all sites: what the engine's defaults should be. */
  chosenOnAll: string;
}

/** The generator of a site (its own name when unknown). */
export function generatorOf(site: string): string {
  return SITE_GENERATORS[site] ?? site;
}

/**
 * Mean objectives closer than this are a tie. The evaluations are deterministic, but a gain of less than
 * 0.001 of mean F1 over the training sites is a few words a site, often all from one site: too little to
 * say that a variation generalises better than the defaults.
 */
export const TIE = 0.001;

/** Index of the first grid point whose mean objective over `sites` is within `TIE` of the highest. */
export function choose(spec: Pick<CrossValidationSpec, 'objective'>, grid: readonly GridPoint[], figures: Record<string, Record<string, SiteFigures>>, sites: readonly string[]): number {
  const scores = grid.map((p) => {
    const xs = sites.map((s) => spec.objective(figures[p.name]![s]!));
    return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
  });
  const best = Math.max(...scores);
  return scores.findIndex((x) => x >= best - TIE);
}

/** Mean of each figure over the given figure sets (NaN-free figures only). */
export function meanFigures(xs: readonly SiteFigures[]): SiteFigures {
  const out: SiteFigures = { f1: 0, precision: 0, recall: 0 };
  const keys = new Set(xs.flatMap((x) => Object.keys(x)));
  for (const k of keys) {
    const v = xs.map((x) => x[k]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    out[k] = v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
  }
  return out;
}

/** Runs the grid over the sites and the folds over the grid (see the module comment). */
export async function crossValidate(spec: CrossValidationSpec): Promise<CrossValidationResult> {
  const names = new Set<string>();
  for (const p of spec.grid) {
    if (names.has(p.name)) throw new Error(`cross-validation: two grid points named "${p.name}"`);
    names.add(p.name);
  }
  const figures: Record<string, Record<string, SiteFigures>> = {};
  for (const p of spec.grid) {
    const t = performance.now();
    const m = await spec.measure(p);
    figures[p.name] = {};
    for (const s of spec.sites) {
      const f = m.get(s);
      if (!f) throw new Error(`cross-validation: grid point "${p.name}" gave no figures for ${s}`);
      figures[p.name]![s] = f;
    }
    if (spec.progress !== false) {
      process.stderr.write(`${spec.engine} grid "${p.name}": ${spec.sites.map((s) => `${s} ${fmt(figures[p.name]![s]!.f1)}`).join(', ')} (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
    }
  }
  const all = choose(spec, spec.grid, figures, spec.sites);
  const folds: FoldResult[] = [];
  for (const site of spec.sites) {
    const gen = generatorOf(site);
    const training = spec.sites.filter((s) => generatorOf(s) !== gen);
    const k = training.length > 0 ? choose(spec, spec.grid, figures, training) : all;
    const held = spec.grid[k]!.name;
    const inS = spec.grid[all]!.name;
    folds.push({ site, generator: gen, heldOutChoice: held, heldOut: figures[held]![site]!, inSampleChoice: inS, inSample: figures[inS]![site]! });
  }
  return {
    engine: spec.engine,
    grid: [...spec.grid],
    figures,
    folds,
    meanHeldOut: meanFigures(folds.map((f) => f.heldOut)),
    meanInSample: meanFigures(folds.map((f) => f.inSample)),
    chosenOnAll: spec.grid[all]!.name,
  };
}

/**
 * The per-site table: held-out figures (the headline), the point chosen without the site's generator,
 * the in-sample figure beside it, and the targets met or not. `extra` adds figure columns (e.g. pages
 * loaded) by key, and `target` says whether a site's held-out figures meet the engine's targets.
 */
export function foldTable(r: CrossValidationResult, extra: ReadonlyArray<[string, string]> = [], target?: (f: SiteFigures) => boolean): string {
  const header = ['site', 'generator', 'held out: chosen', 'P', 'R', 'F1', ...extra.map(([, h]) => h), 'in-sample F1', ...extra.map(([, h]) => `in-sample ${h}`), ...(target ? ['target'] : [])];
  const num = (k: string, f: SiteFigures): string => (Number.isInteger(f[k]) ? String(f[k]) : fmt(f[k], k === 'f1' || k === 'precision' || k === 'recall' ? 3 : 2));
  const rows: Array<string[] | null> = r.folds.map((f) => [
    f.site,
    f.generator,
    f.heldOutChoice,
    fmt(f.heldOut.precision),
    fmt(f.heldOut.recall),
    fmt(f.heldOut.f1),
    ...extra.map(([k]) => num(k, f.heldOut)),
    fmt(f.inSample.f1),
    ...extra.map(([k]) => num(k, f.inSample)),
    ...(target ? [target(f.heldOut) ? 'met' : 'NOT MET'] : []),
  ]);
  rows.push(null);
  rows.push([
    `mean of ${r.folds.length} sites`,
    '',
    '',
    fmt(r.meanHeldOut.precision),
    fmt(r.meanHeldOut.recall),
    fmt(r.meanHeldOut.f1),
    ...extra.map(([k]) => fmt(r.meanHeldOut[k], 2)),
    fmt(r.meanInSample.f1),
    ...extra.map(([k]) => fmt(r.meanInSample[k], 2)),
    ...(target ? [`${r.folds.filter((f) => target(f.heldOut)).length} of ${r.folds.length} met`] : []),
  ]);
  return (
    `${r.engine} — leave one generator out: options chosen on the other generators' sites (held out, the headline) and on all sites (in-sample: "${r.chosenOnAll}")\n` +
    formatTable(header, rows)
  );
}

/** The grid table: content F1 of every grid point on every site, with the point's options. */
export function gridTable(r: CrossValidationResult, figure = 'f1'): string {
  const sites = r.folds.map((f) => f.site);
  const header = ['grid point', ...sites.map((s) => s.replace(/-docs$/, '')), 'mean', 'options'];
  const rows = r.grid.map((p) => {
    const xs = sites.map((s) => r.figures[p.name]![s]![figure]!);
    return [p.name, ...xs.map((x) => fmt(x)), fmt(xs.reduce((a, b) => a + b, 0) / xs.length), JSON.stringify(p.options)];
  });
  return `${r.engine} — grid: ${figure} per site\n` + formatTable(header, rows);
}

/** Headline figures of a cross-validation for the results overview: per site held out, and the means. */
export function crossValidationHeadline(r: CrossValidationResult, keys: readonly string[] = ['f1']): Record<string, number | string | null> {
  const h: Record<string, number | string | null> = {};
  const num = (x: number | undefined): number | null => (x === undefined || !Number.isFinite(x) ? null : x);
  for (const k of keys) {
    h[`held-out ${k}, mean of sites`] = num(r.meanHeldOut[k]);
    h[`in-sample ${k}, mean of sites`] = num(r.meanInSample[k]);
  }
  for (const f of r.folds) for (const k of keys) h[`${f.site} held-out ${k}`] = num(f.heldOut[k]);
  h['chosen on all sites'] = r.chosenOnAll;
  return h;
}
