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
 * Run: `npx tsx eval/content.eval.ts [--only <name>] [--no-peers] [--ablation]`; writes
 * eval/results/content.json. `--ablation` adds the template-only variant (no main-block choice).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { contentEngine } from '../src/content/engine.ts';
import { classOf, goldContentText, samesiteGoldText } from '../src/eval/corpus.ts';
import { contentScore, meanScore, type Score } from '../src/eval/metrics.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import { evaluateTarget, fmt, formatTable, REPO_ROOT, runEval, templateTargets, writeResults, type EvalTarget, type GroupResult, type PageScore } from './harness.ts';
import { cacheStats, DEFUDDLE, peerOutput, peerText, READABILITY, type Peer } from './peers.ts';

const args = process.argv.slice(2);
const only = args.includes('--only') ? [args[args.indexOf('--only') + 1]!] : [];
const peers = !args.includes('--no-peers');
const ablation = args.includes('--ablation');

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

/** The gold text of a page of a target, or null (no gold). */
function goldOf(target: EvalTarget, key: string, html: string): string | null {
  if (target.site) return goldContentText(target.site, parseHtml(html, { selfClosing: key.endsWith('.xhtml') }));
  const page = target.group?.pages.find((p) => `${p.id}.html` === key);
  if (!page) return null;
  const g = samesiteGoldText(page);
  return g.trim() === '' ? null : g;
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
}

function subset(scores: readonly PageScore[], keys: ReadonlySet<string> | null): Score {
  return meanScore(scores.filter((s) => keys === null || keys.has(s.key)).map((s) => s.content));
}

await runEval('content', async () => {
  const targets = templateTargets('both', only);
  const results: Array<{ target: EvalTarget; ours: GroupResult; tpl?: GroupResult; readability?: PeerResult; defuddle?: PeerResult }> = [];
  for (const target of targets) {
    const ours = await evaluateTarget(contentEngine(), target);
    const r: (typeof results)[number] = { target, ours };
    if (ablation) r.tpl = await evaluateTarget(contentEngine({ templateOnly: true }), target);
    if (peers) {
      r.readability = await runPeer(target, READABILITY);
      r.defuddle = await runPeer(target, DEFUDDLE);
    }
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
    const row: Row = { set, name, pages: oursPages.length, ours: pick((r) => r.ours.perPage) };
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
    rows.push(rowOf(set, `all ${rs.length} (mean over pages)`, rs, () => null));
  }
  // Listing pages of the sites (tag, listing, topic classes).
  const listingKeys = (r: (typeof results)[number]): ReadonlySet<string> =>
    new Set(r.target.site ? r.target.keys.filter((k) => LISTING_CLASSES.has(classOf(r.target.site!, k) ?? '')) : []);
  const withListings = results.filter((r) => r.target.site && listingKeys(r).size > 0);
  for (const r of withListings) rows.push(rowOf('listing', `${r.target.name}: ${[...new Set(r.target.keys.map((k) => classOf(r.target.site!, k)).filter((c) => LISTING_CLASSES.has(c ?? '')))].join(', ')}`, [r], listingKeys));
  if (withListings.length > 0) rows.push(rowOf('listing', 'all listing pages', withListings, listingKeys));
  rows.push(rowOf('overall', 'all pages', results, () => null));

  const header = ['set', 'site / group [method]', 'pages', 'ours P', 'ours R', 'ours F1', ...(ablation ? ['tpl-only F1'] : []), ...(peers ? ['Readability F1', 'Defuddle F1', 'best'] : [])];
  const table = rows.map((r) => {
    const best = peers ? ([['ours', r.ours.f1], ['readability', r.readability?.f1 ?? NaN], ['defuddle', r.defuddle?.f1 ?? NaN]] as const).reduce((a, b) => (b[1] > a[1] ? b : a))[0] : '';
    return [r.set, r.name, String(r.pages), fmt(r.ours.precision), fmt(r.ours.recall), fmt(r.ours.f1), ...(ablation ? [fmt(r.templateOnly?.f1)] : []), ...(peers ? [fmt(r.readability?.f1), fmt(r.defuddle?.f1), best] : [])];
  });
  process.stdout.write('content — word F1 of the main content vs gold (corpus README), ours vs single-page extractors on the same pages\n' + formatTable(header, table) + '\n');
  const headline: Record<string, number | null> = {};
  const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);
  for (const r of rows.filter((x) => x.name.startsWith('all'))) {
    headline[`${r.set} content F1`] = num(r.ours.f1);
    if (peers) {
      headline[`${r.set} Readability F1`] = num(r.readability?.f1);
      headline[`${r.set} Defuddle F1`] = num(r.defuddle?.f1);
    }
  }
  const path = writeResults(peers ? 'content' : 'content-ours', headline, {
    rows,
    groups: results.map((r) => ({
      set: r.target.set, name: r.target.name, method: r.ours.summary['method'], reason: r.ours.summary['reason'],
      failed: r.ours.failed, failures: r.ours.failures, ms: r.ours.ms, ours: r.ours.perPage,
      readability: r.readability?.perPage, defuddle: r.defuddle?.perPage,
    })),
  });
  process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
});
