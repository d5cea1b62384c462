/**
 * Evaluation of main-content extraction (src/content/), in two modes (eval/content-sets.ts):
 *  - single-page mode: each page alone, no template: `extractMainContent(tree)` on every samesite page,
 *    on single/readability and on the stackoverflow question pages;
 *  - site mode: the pages of a site together (template engine, then the main block with the site vote):
 *    samesite groups, the stackoverflow pages, the corpus sites.
 * Scores are content P/R/F1 by words (corpus README; src/eval/metrics.ts), mean over pages. Beside ours, two
 * single-page extractors on the same pages, each on jsdom (eval/peers.ts, outputs cached on disk): Mozilla
 * Readability and Defuddle; and trafilatura (Python, in eval/peers.ts's venv; its HTML output made into text by
 * our code, like Readability's), with its defaults and with favor_precision (columns left out, said on stderr,
 * when Python or the venv is missing). Each set's gold says whether it holds the headline (content-sets.ts): where it
 * does, every method's headline goes first (a peer's title, when its content does not start with it); on
 * single/readability it does not, and no method's title is scored.
 * The main-block options are chosen by leave-one-site-out cross-validation (eval/content-cv.ts): the
 * headline figure of each page is the one of the options chosen on the other sites (held out), the
 * defaults' figure (chosen on everything: in-sample) beside it.
 * Run: `npx tsx eval/content.eval.ts [--only <name>] [--no-peers] [--peers readability,defuddle,trafilatura]
 * [--no-cv] [--main-block auto|always|never] [--opts '<MainBlockOptions JSON>']`; writes eval/results/content.json
 * (content-ours.json with --no-peers, content-<tag>.json with --only / --opts / --main-block / --peers / --no-cv). `--opts` replaces the defaults (in-sample column)
 * for trying a change; `--no-cv` scores the defaults only.
 */
import { relative } from 'node:path';
import { readFileSync } from 'node:fs';
import type { MainBlockOptions } from '../src/content/main-block.ts';
import { classOf, listSites } from '../src/eval/corpus.ts';
import { contentScore, meanScore, type Score } from '../src/eval/metrics.ts';
import { cellOf, cvGrid, leaveOneSiteOut, scorePages, type MainBlockWhen } from './content-cv.ts';
import { singlePages, sitePages, type EvalPage } from './content-sets.ts';
import { fmt, formatTable, REPO_ROOT, runEval, writeResults } from './harness.ts';
import { cacheStats, DEFUDDLE, htmlText, peerOutput, peerText, READABILITY, TRAFILATURA, TRAFILATURA_PRECISION, TRAFILATURA_VERSION, trafilaturaOutputs, type Peer, type PeerOutput, type PythonPeer } from './peers.ts';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = arg('--only');
const peers = !args.includes('--no-peers');
/** The peers run (--peers readability,defuddle,trafilatura; all by default): the others' columns are left out. */
const peerNames = (arg('--peers') ?? 'readability,defuddle,trafilatura').split(',');
for (const n of peerNames) if (!['readability', 'defuddle', 'trafilatura'].includes(n)) throw new Error(`--peers: unknown peer ${n}`);
const cv = !args.includes('--no-cv');
const when = (arg('--main-block') ?? 'auto') as MainBlockWhen;
const opts = arg('--opts');
const base: MainBlockOptions = opts ? (JSON.parse(opts) as MainBlockOptions) : {};
const selected = (name: string): boolean => only === undefined || name.includes(only) || only.includes(name);

/** Page classes counted as listing pages on the corpus sites (site.json classes). */
const LISTING_CLASSES = new Set(['tag', 'listing', 'topic']);

const UNSCORED: Score = { precision: NaN, recall: NaN, f1: NaN };
/** A peer's score on a page, from its output (its headline first where the set's gold holds it). */
const peerScore = (p: EvalPage, o: PeerOutput): Score => contentScore(p.headline === 'first' ? peerText(o) : htmlText(o.content), p.gold);

/** A peer's scores on every page (NaN scores for unscored pages). */
async function peerScores(pages: readonly EvalPage[], peer: Peer): Promise<Score[]> {
  const out: Score[] = [];
  for (const p of pages) out.push(p.scored ? peerScore(p, await peerOutput(peer, readFileSync(p.path), 'file://' + p.path)) : UNSCORED);
  return out;
}

/** trafilatura's scores on every page (one Python process for the pages not in the cache), or undefined, said, when it could not run. */
async function trafilaturaScores(pages: readonly EvalPage[], peer: PythonPeer): Promise<Score[] | undefined> {
  const scored = pages.filter((p) => p.scored);
  const outs = await trafilaturaOutputs(peer, scored.map((p) => ({ bytes: readFileSync(p.path), url: 'file://' + p.path })));
  if ('error' in outs) {
    process.stderr.write(`content: ${peer.name} did not run, its column is left out: ${outs.error}\n`);
    return undefined;
  }
  const byPage = new Map(scored.map((p, i) => [p, outs[i]!]));
  return pages.map((p) => (p.scored ? peerScore(p, byPage.get(p)!) : UNSCORED));
}

/** The peers' columns: key in Columns and in the results file, and label. */
const PEER_COLUMNS = [
  ['readability', 'Readability'],
  ['defuddle', 'Defuddle'],
  ['trafilatura', 'trafilatura'],
  ['trafilaturaPrecision', 'trafilatura precision'],
] as const;
type PeerColumn = (typeof PEER_COLUMNS)[number][0];

/** Columns of one row: the pages it covers and each method's mean (a peer's column absent when it did not run). */
type Columns = { heldOut: Score[]; inSample: Score[] } & Partial<Record<PeerColumn, Score[]>>;

function row(label: string, idx: readonly number[], c: Columns): string[] {
  const m = (xs: Score[] | undefined): Score | undefined => (xs ? meanScore(idx.map((i) => xs[i]!)) : undefined);
  const h = m(c.heldOut)!;
  const f1s = PEER_COLUMNS.map(([k, label]) => [label, m(c[k])?.f1] as const);
  const best = f1s.reduce<readonly [string, number]>((a, [l, f]) => (f !== undefined && f > a[1] ? [l, f] : a), ['ours', h.f1])[0];
  return [label, String(idx.length), fmt(h.precision), fmt(h.recall), fmt(h.f1), fmt(m(c.inSample)!.f1), ...f1s.map(([, f]) => fmt(f)), peers ? best : ''];
}

const HEADER = ['set / site', 'pages', 'P', 'R', 'F1 held out', 'F1 in-sample', ...PEER_COLUMNS.map(([, l]) => `${l} F1`), 'best'];

/** Rows of one mode: per set (mean over its pages), then per site. */
function modeTable(title: string, pages: readonly EvalPage[], c: Columns, perSite: (p: EvalPage) => boolean): { text: string; sets: Record<string, Record<string, number | null>> } {
  const rows: Array<string[] | null> = [];
  const sets: Record<string, Record<string, number | null>> = {};
  const scored = pages.map((p, i) => [p, i] as const).filter(([p]) => p.scored);
  const setNames = [...new Set(scored.map(([p]) => p.set))];
  const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);
  for (const s of setNames) {
    const idx = scored.filter(([p]) => p.set === s).map(([, i]) => i);
    rows.push(row(`${s} (all)`, idx, c));
    const mean = (xs: Score[] | undefined): number | null => (xs ? num(meanScore(idx.map((i) => xs[i]!)).f1) : null);
    sets[s] = { pages: idx.length, heldOut: mean(c.heldOut), inSample: mean(c.inSample), ...Object.fromEntries(PEER_COLUMNS.map(([k]) => [k, mean(c[k])])) };
  }
  rows.push(row('all (mean over pages)', scored.map(([, i]) => i), c), null);
  for (const s of setNames) {
    const sites = [...new Set(scored.filter(([p]) => p.set === s && perSite(p)).map(([p]) => p.site))];
    for (const site of sites) rows.push(row(`  ${site}`, scored.filter(([p]) => p.site === site).map(([, i]) => i), c));
  }
  if (pages.some((p) => p.set === 'sites')) {
    const sites = new Map(listSites().map((s) => [s.name, s]));
    const listing = scored.filter(([p]) => p.set === 'sites' && LISTING_CLASSES.has(classOf(sites.get(p.site)!, p.key) ?? '')).map(([, i]) => i);
    if (listing.length > 0) rows.push(null, row('listing pages of the sites', listing, c));
  }
  return { text: `${title}\n${formatTable(HEADER, rows)}\n`, sets };
}

await runEval('content', async () => {
  const say = (s: string): boolean => process.stderr.write(s);
  say('content: parsing single pages…\n');
  const single = singlePages(selected);
  say(`content: ${single.length} single pages; running the template engines of site mode…\n`);
  const site = await sitePages(selected, (s, m) => say(`content: ${s}: ${m}\n`));
  const pages = [...single, ...site];
  say(`content: ${site.filter((p) => p.scored).length} site-mode pages scored (${site.length} run)\n`);

  const t0 = performance.now();
  const inSample = scorePages(pages, base, when);
  let heldOut = inSample;
  let chosen: Map<string, number> | undefined;
  let grid: MainBlockOptions[] = [base];
  if (cv) {
    grid = cvGrid().map((o) => ({ ...base, ...o }));
    const r = leaveOneSiteOut(pages, grid, when, (k) => {
      if (k % 16 === 0) say(`content: cross-validation, candidate ${k + 1} of ${grid.length}\n`);
    });
    heldOut = r.heldOut;
    chosen = r.chosen;
  }
  const cvMs = performance.now() - t0;
  const c: Columns = { heldOut, inSample };
  if (peers) {
    say('content: peers (cached in eval/.cache/peers)…\n');
    if (peerNames.includes('readability')) c.readability = await peerScores(pages, READABILITY);
    if (peerNames.includes('defuddle')) c.defuddle = await peerScores(pages, DEFUDDLE);
  }
  if (peers && peerNames.includes('trafilatura')) {
    say(`content: trafilatura ${TRAFILATURA_VERSION} (Python, eval/.cache/python-peers), default and favor_precision…\n`);
    for (const [k, peer] of [['trafilatura', TRAFILATURA], ['trafilaturaPrecision', TRAFILATURA_PRECISION]] as const) {
      const scores = await trafilaturaScores(pages, peer);
      if (!scores) break;
      c[k] = scores;
    }
  }

  const singleIdx = (xs: Score[] | undefined): Score[] | undefined => xs?.slice(0, single.length);
  const siteIdx = (xs: Score[] | undefined): Score[] | undefined => xs?.slice(single.length);
  const part = (f: (xs: Score[] | undefined) => Score[] | undefined): Columns => {
    const out: Columns = { heldOut: f(c.heldOut)!, inSample: f(c.inSample)! };
    for (const [k] of PEER_COLUMNS) if (c[k]) out[k] = f(c[k])!;
    return out;
  };
  const notReadability = (p: EvalPage): boolean => p.set !== 'single/readability';
  const a = modeTable('content, single-page mode: each page alone (no template), main block chosen on the page', single, part(singleIdx), notReadability);
  const b = modeTable(`content, site mode: template engine of the source, then the main block (--main-block ${when}) with the site vote`, site, part(siteIdx), () => true);
  process.stdout.write(a.text + '\n' + b.text + '\n');

  // single/readability: every page under 0.5 (held out), to be explained in docs/content.md.
  const low = single.map((p, i) => [p, i] as const).filter(([p, i]) => p.set === 'single/readability' && heldOut[i]!.f1 < 0.5);
  const lowRows = low.map(([p, i]) => [p.key, fmt(heldOut[i]!.precision), fmt(heldOut[i]!.recall), fmt(heldOut[i]!.f1), ...PEER_COLUMNS.map(([k]) => fmt(c[k]?.[i]!.f1))]);
  process.stdout.write(`single/readability pages below F1 0.5 (held out): ${low.length}\n${formatTable(['page', 'P', 'R', 'F1', ...PEER_COLUMNS.map(([, l]) => `${l} F1`)], lowRows)}\n\n`);

  let cvSummary: Record<string, unknown> | undefined;
  if (chosen) {
    const counts = new Map<number, number>();
    for (const k of chosen.values()) counts.set(k, (counts.get(k) ?? 0) + 1);
    const top = [...counts.entries()].sort((x, y) => y[1] - x[1]);
    const bySet = new Map<string, Map<number, number>>();
    for (const p of pages) {
      if (!p.scored) continue;
      const m = bySet.get(cellOf(p)) ?? new Map<number, number>();
      const k = chosen.get(p.site) ?? 0;
      m.set(k, (m.get(k) ?? 0) + 1);
      bySet.set(cellOf(p), m);
    }
    process.stdout.write(
      `cross-validation: leave one site out, ${grid.length} candidates, ${chosen.size} sites (${(cvMs / 1000).toFixed(0)} s); candidates chosen (sites):\n` +
        formatTable(['candidate', 'sites', 'options'], top.slice(0, 8).map(([k, n]) => [k === 0 ? '0 (defaults)' : String(k), String(n), JSON.stringify(grid[k])])) +
        '\n\n',
    );
    cvSummary = {
      candidates: grid.length,
      sites: chosen.size,
      chosenCounts: Object.fromEntries(top.map(([k, n]) => [k, n])),
      chosenByCell: Object.fromEntries([...bySet].map(([cell, m]) => [cell, Object.fromEntries(m)])),
      grid,
    };
  }

  const headline: Record<string, number | null> = {};
  for (const [mode, t] of [['single', a], ['site', b]] as const) {
    for (const [s, v] of Object.entries(t.sets)) {
      headline[`${mode} ${s} F1 held out`] = v['heldOut'] ?? null;
      headline[`${mode} ${s} F1 in-sample`] = v['inSample'] ?? null;
      if (peers) for (const [k, l] of PEER_COLUMNS) headline[`${mode} ${s} ${l} F1`] = v[k] ?? null;
    }
  }
  const somePeers = arg('--peers') !== undefined && peerNames.length < 3 ? `peers-${peerNames.join('-')}` : '';
  const tag = [only ? `only-${only.replace(/[^\w.-]+/g, '_')}` : '', opts ? 'opts' : '', when !== 'auto' ? `main-block-${when}` : '', peers ? somePeers : 'ours', cv ? '' : 'no-cv'].filter(Boolean).join('-');
  /** P / R / F1 of a page, to 4 decimals (the results file holds every page of both modes). */
  const short = (x: Score | undefined): number[] | undefined => (x ? [x.precision, x.recall, x.f1].map((v) => Math.round(v * 1e4) / 1e4) : undefined);
  const perPage = pages.map((p, i) => ({
    mode: p.template ? 'site' : 'single', set: p.set, site: p.site, key: p.key, scored: p.scored,
    heldOut: short(heldOut[i]), inSample: short(inSample[i]), ...Object.fromEntries(PEER_COLUMNS.map(([k]) => [k, short(c[k]?.[i])])),
  })).filter((x) => x.scored);
  const path = writeResults(tag ? `content-${tag}` : 'content', headline, { mainBlock: when, options: base, peerVersions: peers ? { trafilatura: c.trafilatura ? TRAFILATURA_VERSION : null } : undefined, single: a.sets, site: b.sets, crossValidation: cvSummary, pageScores: '[precision, recall, F1]', pages: perPage });
  if (peers) process.stdout.write(`peer cache: ${cacheStats.hits} hits, ${cacheStats.misses} misses (eval/.cache/peers)\n`);
  process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
});
