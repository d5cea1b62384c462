/**
 * Evaluation of the main-content extractor (issue 8, "Done when"): content P/R/F1 (corpus README scoring,
 * src/eval/metrics.ts) of `gabarit content` (src/content/: template engine chosen per source, then the
 * main block) next to two single-page extractors run on the same pages, each on a real DOM (jsdom):
 *  - Mozilla Readability (@mozilla/readability), the reader view of Firefox;
 *  - Defuddle (defuddle/node), the engine of the Obsidian web clipper.
 * A peer's text is its title (when its content does not already start with it) and its content HTML,
 * turned into text by the same code as ours (parseHtml + textOf), so that every method is scored alike.
 * Rows: every corpus site, every samesite group, then per set; and the listing pages of the sites (tag,
 * listing and topic classes of site.json) on their own, where single-page extractors are weakest.
 * Peers run once per page: their outputs are cached on disk (eval/peers.ts), so a rerun only scores.
 * Run: `npx tsx eval/content.eval.ts [--only <name>] [--no-peers] [--ablation] [--no-cv] [--method NAME]
 * [--main-block auto|always|never] [--no-site-vote] [--l3s-unique-lines]`; writes eval/results/content.json (content-ours.json with --no-peers,
 * content-<method>.json with --method). `--ablation` adds the template-only variant (no main-block choice); the
 * leave-one-set-out cross-validation of the main-block options on samesite runs unless `--no-cv`.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chooseWithSite, contentEngine, siteVote as voteOfSite, type ContentEngineOptions } from '../src/content/engine.ts';
import { pathKeys } from '../src/content/site-vote.ts';
import { classOf, goldContentText, samesiteGoldText } from '../src/eval/corpus.ts';
import { contentScore, meanScore, type Score } from '../src/eval/metrics.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import { textOf } from '../src/html/text.ts';
import { evaluateTarget, fmt, formatTable, REPO_ROOT, runEval, templateTargets, writeResults, type EvalTarget, type GroupResult, type PageScore } from './harness.ts';
import type { MainBlockOptions } from '../src/content/main-block.ts';
import { LabelTable } from '../src/html/labels.ts';
import type { Tree } from '../src/html/tree.ts';
import { loadEngine } from '../src/template/engines.ts';
import { runEngine } from '../src/run/drive.ts';
import { keptText } from '../src/template/result.ts';
import { cacheStats, DEFUDDLE, peerOutput, peerText, READABILITY, type Peer } from './peers.ts';

const args = process.argv.slice(2);
const only = args.includes('--only') ? [args[args.indexOf('--only') + 1]!] : [];
const peers = !args.includes('--no-peers');
const ablation = args.includes('--ablation');
/** The cross-validation runs unless `--no-cv` (about half a minute on 2 shared cores); `--cv` is accepted too. */
const cv = !args.includes('--no-cv');
/** `--method NAME`: the template engine for every target (default: chosen per source, as the CLI does). */
const method = args.includes('--method') ? args[args.indexOf('--method') + 1] : undefined;
/** `--main-block auto|always|never` (default auto, as the CLI). */
const mainBlock = (args.includes('--main-block') ? args[args.indexOf('--main-block') + 1] : 'auto') as 'auto' | 'always' | 'never';
/** `--no-site-vote`: main blocks chosen page by page only (src/content/site-vote.ts off). */
const siteVote = !args.includes('--no-site-vote');
const engineOptions = { ...(method ? { method } : {}), mainBlock, siteVote };

/** Page classes counted as listing pages (site.json classes): collections of links to other pages. */
const LISTING_CLASSES = new Set(['tag', 'listing', 'topic']);

/** One peer's per-page scores on a target. */
interface PeerResult {
  perPage: PageScore[];
  failed: number;
  /** Wall-clock ms of this run (cache reads included). */
  ms: number;
  /** Sum of the peer's own ms per page, as measured when each cache entry was made. */
  peerMs: number;
}

/**
 * `--l3s-unique-lines` (a diagnostic, not the headline figure): l3s-gn1's gold texts repeat their blocks
 * (the text of nested labelled elements, each written out: a sentence, then its pieces, up to five times),
 * so no method's recall can pass the ceiling column there. With the flag, each l3s-gn1 gold line is kept
 * once, for every method alike.
 */
const l3sUniqueLines = args.includes('--l3s-unique-lines');

/** The gold text of a page of a target, or null (no gold). */
function goldOf(target: EvalTarget, key: string, html: string): string | null {
  if (target.site) return goldContentText(target.site, parseHtml(html, { selfClosing: key.endsWith('.xhtml') }));
  const page = target.group?.pages.find((p) => `${p.id}.html` === key);
  if (!page) return null;
  let g = samesiteGoldText(page);
  if (l3sUniqueLines && page.goldPath.includes('/l3s-gn1/')) g = [...new Set(g.split('\n').map((l) => l.trim()).filter((l) => l !== ''))].join('\n');
  return g.trim() === '' ? null : g;
}

/**
 * Our run on a target: the content engine through the harness, pages rescored against goldOf when the
 * gold differs from the harness's (`--l3s-unique-lines`).
 */
async function runOurs(target: EvalTarget, options: ContentEngineOptions): Promise<GroupResult> {
  const engine = contentEngine(options);
  if (!l3sUniqueLines || target.set !== 'samesite') return evaluateTarget(engine, target);
  const kept = new Map<string, string>();
  const r = await evaluateTarget(engine, target, { onPage: (_t, m) => void kept.set(m.key, keptText(m)) });
  r.perPage = r.perPage.map((s) => ({ ...s, content: contentScore(kept.get(s.key) ?? '', goldOf(target, s.key, decodeHtml(readFileSync(join(target.dir, s.key))).text) ?? '') }));
  r.content = meanScore(r.perPage.map((s) => s.content));
  return r;
}

async function runPeer(target: EvalTarget, peer: Peer): Promise<PeerResult> {
  const t0 = performance.now();
  const perPage: PageScore[] = [];
  let failed = 0;
  let peerMs = 0;
  for (const key of target.keys) {
    const path = join(target.dir, key);
    const bytes = readFileSync(path);
    const gold = goldOf(target, key, decodeHtml(bytes).text);
    if (gold === null) continue;
    const out = await peerOutput(peer, bytes, 'file://' + path);
    if (out.error !== undefined) failed++;
    peerMs += out.ms;
    perPage.push({ key, content: contentScore(peerText(out), gold) });
  }
  return { perPage, failed, ms: performance.now() - t0, peerMs };
}

/** A row of the table: scores of each method over some pages. */
interface Row {
  set: string;
  name: string;
  pages: number;
  ours: Score;
  templateOnly?: Score;
  readability?: Score;
  defuddle?: Score;
  /** The ceiling: every word of the page's body that is in the gold kept, nothing else (precision 1). */
  ceiling: Score;
}

/**
 * The ceiling of every method on a target, page by page: keep exactly the body's words that are in the
 * gold. Its recall is below 1 where the gold has words the page has not (l3s-gn1's gold repeats blocks).
 */
function ceilingScores(target: EvalTarget): PageScore[] {
  const out: PageScore[] = [];
  for (const key of target.keys) {
    const html = decodeHtml(readFileSync(join(target.dir, key))).text;
    const gold = goldOf(target, key, html);
    if (gold === null) continue;
    const tree = parseHtml(html, { selfClosing: key.endsWith('.xhtml') });
    const r = contentScore(textOf(tree, tree.body()), gold).recall;
    out.push({ key, content: { precision: r > 0 ? 1 : 0, recall: r, f1: (2 * r) / (1 + r) } });
  }
  return out;
}

function subset(scores: readonly PageScore[], keys: ReadonlySet<string> | null): Score {
  return meanScore(scores.filter((s) => keys === null || keys.has(s.key)).map((s) => s.content));
}

/** A samesite page with its template marks (align) and gold, for the cross-validation of the main block. */
interface CvPage {
  set: string;
  group: string;
  tree: Tree;
  template: Uint8Array;
  gold: string;
}

/**
 * The grid the cross-validation searches (main-block options; the others keep their defaults): the
 * concentration decay, list items' weight, the sibling rule, the head zone (off, or within 400 or 800
 * characters), the prose rule for link-dense paragraphs and the weight of gaps in the contiguity step.
 */
function cvGrid(): MainBlockOptions[] {
  const out: MainBlockOptions[] = [];
  for (const decay of [1, 0.8, 0.7]) for (const listWeight of [1, 0.5]) for (const siblingShare of [0, 0.2]) for (const [headZone, headZoneMin] of [[0, 0], [400, 80], [800, 80]] as const) for (const proseChars of [0, 50]) for (const gapPenalty of [1, 3]) out.push({ decay, listWeight, siblingShare, headZone, headZoneMin, proseChars, gapPenalty });
  return out;
}

/** F1 of every page under `options`, main blocks chosen as the engine does (site vote per group). */
function cvScores(pages: readonly CvPage[], options: MainBlockOptions): number[] {
  const out = new Array<number>(pages.length).fill(0);
  const groups = new Map<string, number[]>();
  pages.forEach((p, i) => groups.set(p.group, [...(groups.get(p.group) ?? []), i]));
  for (const idx of groups.values()) {
    const ps = idx.map((i) => pages[i]!);
    const keys = ps.map((p) => pathKeys(p.tree));
    const siteKey = voteOfSite(ps, keys, options);
    ps.forEach((p, k) => {
      const mb = chooseWithSite(p.tree, p.template, siteKey, options, keys[k]).block;
      out[idx[k]!] = contentScore(keptText({ key: '', url: '', tree: p.tree, template: p.template, content: mb.content }), p.gold).f1;
    });
  }
  return out;
}

/**
 * Leave-one-set-out cross-validation of the main-block options on samesite: for each set, the grid point
 * best on the two other sets (mean F1 over their pages), and its F1 on the held-out set; next to it the
 * defaults' F1 on that set (in-sample: the defaults were chosen on all three).
 */
async function crossValidate(targets: readonly EvalTarget[]): Promise<Record<string, unknown>> {
  const pages: CvPage[] = [];
  for (const t of targets.filter((x) => x.set === 'samesite')) {
    const golds = new Map(t.group!.pages.map((p) => [`${p.id}.html`, samesiteGoldText(p)]));
    for await (const o of runEngine(await loadEngine('align'), t.dir)) {
      const gold = o.ok ? golds.get(o.key) : undefined;
      if (o.ok && gold !== undefined && gold.trim() !== '') pages.push({ set: t.group!.set, group: t.name, tree: o.marks.tree, template: o.marks.template, gold });
    }
  }
  const sets = [...new Set(pages.map((p) => p.set))].sort();
  const grid = cvGrid();
  const f1 = grid.map((o) => cvScores(pages, o));
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const on = (scores: number[], keep: (s: string) => boolean): number => mean(scores.filter((_, i) => keep(pages[i]!.set)));
  const folds = sets.map((held) => {
    let best = 0;
    for (let k = 1; k < grid.length; k++) if (on(f1[k]!, (s) => s !== held) > on(f1[best]!, (s) => s !== held)) best = k;
    return { heldOut: held, chosen: grid[best], trainF1: on(f1[best]!, (s) => s !== held), heldOutF1: on(f1[best]!, (s) => s === held) };
  });
  const def = cvScores(pages, {});
  const defaults = { options: 'defaults', perSet: Object.fromEntries(sets.map((s) => [s, on(def, (x) => x === s)])) };
  // Held-out mean over pages: each page scored by the options chosen without its set.
  const heldOutAll = mean(pages.map((p, i) => f1[grid.indexOf(folds.find((f) => f.heldOut === p.set)!.chosen!)]![i]!));
  process.stdout.write('\ncross-validation of the main-block options (samesite, align template, site vote; leave one set out, grid of ' + grid.length + ')\n' +
    formatTable(['held-out set', 'chosen on the two others', 'train F1', 'held-out F1', 'defaults F1 (in-sample)'], [
      ...folds.map((f) => [f.heldOut, JSON.stringify(f.chosen), fmt(f.trainF1), fmt(f.heldOutF1), fmt(defaults.perSet[f.heldOut])]),
      ['all (mean over pages)', '', '', fmt(heldOutAll), fmt(mean(def))],
    ]) + '\n');
  return { grid: grid.length, folds, defaults, heldOutAll, defaultsAll: mean(def) };
}

/** The README table: one row per set (sites, each samesite set, samesite, listing pages), P / R / F1 of each method. */
function summaryMarkdown(rows: readonly Row[]): string {
  const pick = rows.filter((r) => r.name.startsWith('all') || r.name.includes('sites (mean'));
  const prf = (x: Score | undefined): string => (x ? `${fmt(x.precision)} / ${fmt(x.recall)} / **${fmt(x.f1)}**` : '—');
  const lines = ['| set | pages | ours P / R / F1 | Readability P / R / F1 | Defuddle P / R / F1 |', '|---|---:|---|---|---|'];
  for (const r of pick) {
    const name = r.name.includes('sites (mean') ? `samesite ${r.name.split(':')[0]}` : r.set === 'overall' ? 'all pages' : r.set === 'listing' ? 'listing pages of the sites' : `${r.set} (all)`;
    lines.push(`| ${name} | ${r.pages} | ${prf(r.ours)} | ${prf(r.readability)} | ${prf(r.defuddle)} |`);
  }
  return lines.join('\n');
}

await runEval('content', async () => {
  const targets = templateTargets('both', only);
  const results: Array<{ target: EvalTarget; ours: GroupResult; tpl?: GroupResult; readability?: PeerResult; defuddle?: PeerResult; ceiling?: PageScore[] }> = [];
  for (const target of targets) {
    const ours = await runOurs(target, engineOptions);
    const r: (typeof results)[number] = { target, ours };
    if (ablation) r.tpl = await evaluateTarget(contentEngine({ ...engineOptions, templateOnly: true }), target);
    if (peers) {
      r.readability = await runPeer(target, READABILITY);
      r.defuddle = await runPeer(target, DEFUDDLE);
    }
    r.ceiling = ceilingScores(target);
    results.push(r);
    const method = String(ours.summary['method'] ?? '?');
    process.stderr.write(
      `content: ${target.set} ${target.name} [${method}]: ${ours.pages} pages, ours ${fmt(ours.content.f1)}` +
        (r.readability ? `, readability ${fmt(subset(r.readability.perPage, null).f1)}` : '') +
        (r.defuddle ? `, defuddle ${fmt(subset(r.defuddle.perPage, null).f1)}` : '') +
        (ours.error ? `  ERROR: ${ours.error}` : '') +
        '\n',
    );
  }
  const rows: Row[] = [];
  const rowOf = (set: string, name: string, rs: typeof results, keys: (r: (typeof results)[number]) => ReadonlySet<string> | null): Row => {
    const pick = (f: (r: (typeof results)[number]) => readonly PageScore[] | undefined): Score =>
      meanScore(rs.flatMap((r) => (f(r) ?? []).filter((s) => { const k = keys(r); return k === null || k.has(s.key); }).map((s) => s.content)));
    const oursPages = rs.flatMap((r) => r.ours.perPage.filter((s) => { const k = keys(r); return k === null || k.has(s.key); }));
    const row: Row = { set, name, pages: oursPages.length, ours: pick((r) => r.ours.perPage), ceiling: pick((r) => r.ceiling ?? []) };
    if (ablation) row.templateOnly = pick((r) => r.tpl?.perPage);
    if (peers) {
      row.readability = pick((r) => r.readability?.perPage);
      row.defuddle = pick((r) => r.defuddle?.perPage);
    }
    return row;
  };
  for (const set of ['sites', 'samesite'] as const) {
    const rs = results.filter((r) => r.target.set === set);
    if (rs.length === 0) continue;
    for (const r of rs) rows.push({ ...rowOf(set, r.target.name, [r], () => null), name: `${r.target.name} [${String(r.ours.summary['method'] ?? '?')}]` });
    if (set === 'samesite') {
      for (const sub of [...new Set(rs.map((r) => r.target.group!.set))].sort()) {
        const sr = rs.filter((r) => r.target.group!.set === sub);
        rows.push(rowOf(set, `${sub}: ${sr.length} sites (mean over pages)`, sr, () => null));
      }
    }
    rows.push(rowOf(set, `all ${rs.length} (mean over pages)`, rs, () => null));
  }
  // Listing pages of the sites (tag, listing, topic classes).
  const listingKeys = (r: (typeof results)[number]): ReadonlySet<string> =>
    new Set(r.target.site ? r.target.keys.filter((k) => LISTING_CLASSES.has(classOf(r.target.site!, k) ?? '')) : []);
  const withListings = results.filter((r) => r.target.site && listingKeys(r).size > 0);
  for (const r of withListings) if (r.ours.perPage.some((x) => listingKeys(r).has(x.key))) rows.push(rowOf('listing', `${r.target.name}: ${[...new Set(r.target.keys.map((k) => classOf(r.target.site!, k)).filter((c) => LISTING_CLASSES.has(c ?? '')))].join(', ')}`, [r], listingKeys));
  if (withListings.length > 0) rows.push(rowOf('listing', 'all listing pages', withListings, listingKeys));
  rows.push(rowOf('overall', 'all pages', results, () => null));

  const header = ['set', 'site / group [method]', 'pages', 'ours P', 'ours R', 'ours F1', ...(ablation ? ['tpl-only F1'] : []), ...(peers ? ['Readability F1', 'Defuddle F1', 'best'] : []), 'ceiling F1'];
  const table = rows.map((r) => {
    const best = peers ? ([['ours', r.ours.f1], ['readability', r.readability?.f1 ?? NaN], ['defuddle', r.defuddle?.f1 ?? NaN]] as const).reduce((a, b) => (b[1] > a[1] ? b : a))[0] : '';
    return [r.set, r.name, String(r.pages), fmt(r.ours.precision), fmt(r.ours.recall), fmt(r.ours.f1), ...(ablation ? [fmt(r.templateOnly?.f1)] : []), ...(peers ? [fmt(r.readability?.f1), fmt(r.defuddle?.f1), best] : []), fmt(r.ceiling.f1)];
  });
  process.stdout.write('content — word F1 of the main content vs gold (corpus README), ours vs single-page extractors on the same pages\n' + formatTable(header, table) + '\n');
  if (peers) process.stdout.write('\nper set, P / R / F1 (Markdown, the README table)\n' + summaryMarkdown(rows) + '\n');
  const headline: Record<string, number | null> = {};
  const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);
  for (const r of rows.filter((x) => x.name.startsWith('all') || x.name.includes('sites (mean'))) {
    const label = r.name.startsWith('all') ? r.set : r.name.split(':')[0]!;
    headline[`${label} content F1`] = num(r.ours.f1);
    if (peers) {
      headline[`${label} Readability F1`] = num(r.readability?.f1);
      headline[`${label} Defuddle F1`] = num(r.defuddle?.f1);
    }
  }
  const crossValidation = cv ? await crossValidate(targets) : undefined;
  const path = writeResults(method ? `content-${method}` : l3sUniqueLines ? 'content-l3s-unique-lines' : peers ? 'content' : 'content-ours', headline, {
    rows,
    crossValidation,
    groups: results.map((r) => ({
      set: r.target.set, name: r.target.name, method: r.ours.summary['method'], reason: r.ours.summary['reason'],
      failed: r.ours.failed, failures: r.ours.failures, ms: r.ours.ms, ours: r.ours.perPage,
      readability: r.readability?.perPage, defuddle: r.defuddle?.perPage,
    })),
  });
  if (peers) process.stdout.write(`peer cache: ${cacheStats.hits} hits, ${cacheStats.misses} misses (eval/.cache/peers)\n`);
  process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
});
