/**
 * The `align` template engine: paper 1 (alignment-template-detection) end to end.
 *  1. List the pages of the source (failures are reported and skipped).
 *  2. Learn: choose t sample pages spread over the site (sample.ts), tokenise them (html/tokens.ts) and
 *     build the hierarchical consensus (consensus.ts); the root profile is the template (learned.ts: as a
 *     serialisable Template).
 *  3. Apply: align every page of the source with the template (apply.ts) and emit its marks.
 * `learn` is steps 1 and 2; `compile` (learned.ts) applies a learned template to any page. Pages are read
 * once; up to `ALIGN_DEFAULTS.cacheBytes` of them (`localCacheBytes` for a local source) are kept between
 * steps 1 and 3, the others are loaded again by key (`source.get`). Sample pages are parsed once.
 */
import { tokenize } from '../../html/tokens.ts';
import type { Tree } from '../../html/tree.ts';
import { EngineError } from '../../errors.ts';
import { parsePage, type Page } from '../../site/page.ts';
import type { EngineContext, EngineRun, LearnContext, LearningEngine, LearnRun } from '../engine.ts';
import { makeTemplate, type Template } from '../learned.ts';
import { applyTemplate } from './apply.ts';
import { hierarchicalConsensus, type LevelStats, pageProfile, type Profile } from './consensus.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { alignData, compileAlign, type AlignData } from './learned.ts';
import { type AlignOptions, ALIGN_OPTIONS } from './options.ts';
import { chooseSample } from './sample.ts';

export { ALIGN_OPTIONS };

/** A learned align template. */
export type AlignTemplate = Template<AlignData>;

/** The tokens of a profile supported by at least two pages. */
export function seenOnTwo(p: Profile): Profile {
  let n = 0;
  for (let k = 0; k < p.ids.length; k++) if (p.evidence[k]! >= 2) n++;
  if (n === p.ids.length) return p;
  const ids = new Int32Array(n);
  const evidence = new Int32Array(n);
  for (let k = 0, j = 0; k < p.ids.length; k++) {
    if (p.evidence[k]! < 2) continue;
    ids[j] = p.ids[k]!;
    evidence[j++] = p.evidence[k]!;
  }
  return { ids, evidence, pages: p.pages };
}

/** Steps 1 and 2: what was learned, and the pages read on the way (for step 3). */
interface Learned {
  options: AlignOptions;
  keys: string[];
  cache: Map<string, Page>;
  sampleTrees: Map<string, Tree>;
  used: string[];
  template: Profile;
  levels: LevelStats[];
  timings: Record<string, number>;
  /** Loads a page by key (from the cache when it holds it); a failure is reported and gives null. */
  load(key: string): Promise<Page | null>;
  /** Parses a page; a failure is reported and gives null. */
  parse(page: Page): Tree | null;
}

/** Steps 1 and 2 (see the module comment); `cacheBytes` of pages are kept for step 3. */
async function learnAlign(ctx: LearnContext, cacheBytes: number): Promise<Learned> {
  const options = ALIGN_OPTIONS.parse(ctx.options);
  const timings: Record<string, number> = {};
  let t0 = performance.now();

  // 1. List (and cache) the pages.
  const keys: string[] = [];
  const seen = new Set<string>();
  const cache = new Map<string, Page>();
  let cachedBytes = 0;
  for await (const r of ctx.source.pages()) {
    ctx.signal?.throwIfAborted();
    if (!r.ok) {
      ctx.onFailure({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
      continue;
    }
    if (r.warnings) for (const w of r.warnings) ctx.onWarning?.(w);
    const p = r.page;
    if (seen.has(p.key)) continue;
    seen.add(p.key);
    keys.push(p.key);
    if (cachedBytes + p.body.length <= cacheBytes) {
      cache.set(p.key, p);
      cachedBytes += p.body.length;
    }
    ctx.onProgress?.('read', keys.length);
  }
  timings['read'] = performance.now() - t0;
  if (keys.length === 0) throw new EngineError('no-pages', 'align: the source gave no page to learn a template from');

  const load = async (key: string): Promise<Page | null> => {
    const hit = cache.get(key);
    if (hit) return hit;
    try {
      return await ctx.source.get(key);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      ctx.onFailure({ url: ctx.source.urlOf(key), key, code: err.code ?? 'read-error', message: err.message ?? String(e) });
      return null;
    }
  };
  const parse = (page: Page): Tree | null => {
    try {
      return parsePage(page, ctx.labels);
    } catch (e) {
      ctx.onFailure({ url: page.url, key: page.key, code: 'parse-error', message: `${page.url}: ${(e as Error).message}` });
      return null;
    }
  };

  // 2. Learn.
  t0 = performance.now();
  const sampleKeys = chooseSample(keys, options.sample);
  const sampleTrees = new Map<string, Tree>();
  const leaves: Profile[] = [];
  const used: string[] = [];
  for (const key of sampleKeys) {
    const page = await load(key);
    if (!page) continue;
    const tree = parse(page);
    if (!tree) continue;
    sampleTrees.set(key, tree);
    leaves.push(pageProfile(tokenize(tree, ctx.labels).ids));
    used.push(key);
    ctx.onProgress?.('learn', used.length, sampleKeys.length);
  }
  if (leaves.length === 0) throw new EngineError('no-sample', 'align: no sample page could be read');
  const consensus = hierarchicalConsensus(leaves, { minEvidence: options.minEvidence });
  // A template is what pages share: a token seen on one page only is never template. From three sample
  // pages on, the root's majority already demands two; with two pages the consensus is their union
  // (minEvidence 0.5 of 2), and with one page the page itself, which would mark every page whole.
  const template = seenOnTwo(consensus.template);
  timings['learn'] = performance.now() - t0;
  if (template.ids.length === 0) ctx.onWarning?.('align: the learned template is empty (no token has enough evidence); no page gets template marks');
  return { options, keys, cache, sampleTrees, used, template, levels: consensus.levels, timings, load, parse };
}

/** The Template of what was learned. */
function toTemplate(l: Learned, ctx: LearnContext): AlignTemplate {
  return makeTemplate('align', { ...l.options }, ctx.site ?? ctx.source.root, l.used.length, alignData(l.template, ctx.labels), { sample: l.used, templateTokens: l.template.ids.length, levels: l.levels });
}

/** Alignments of the consensus not proved optimal (align.ts's explicit fallback). */
function notExactIn(levels: readonly LevelStats[]): number {
  return levels.reduce((t, l) => t + l.notExact, 0);
}

const engine: LearningEngine = {
  name: 'align',
  description: 'paper 1: multiple alignment of token sequences (Needleman–Wunsch, hierarchical consensus)',
  options: ALIGN_OPTIONS,
  async run(ctx: EngineContext): Promise<EngineRun> {
    const l = await learnAlign(ctx, ctx.source.kind === 'http' ? ALIGN_DEFAULTS.cacheBytes : ALIGN_DEFAULTS.localCacheBytes);
    const { keys, cache, sampleTrees, template } = l;
    const timings = { ...l.timings };

    // 3. Apply to every page.
    const t0 = performance.now();
    let done = 0;
    let notExact = notExactIn(l.levels);
    for (const key of keys) {
      ctx.signal?.throwIfAborted();
      let tree = sampleTrees.get(key) ?? null;
      let url = ctx.source.urlOf(key);
      if (!tree) {
        const page = await l.load(key);
        if (!page) continue;
        url = page.url;
        tree = l.parse(page);
        if (!tree) continue;
      } else {
        url = cache.get(key)?.url ?? url;
      }
      cache.delete(key);
      sampleTrees.delete(key);
      const seq = tokenize(tree, ctx.labels);
      const applied = applyTemplate(tree, seq, template.ids, { lineRule: l.options.lineRule });
      if (!applied.exact) notExact++;
      await ctx.onPage({ key, url, tree, template: applied.template }, { matchedTokens: applied.matched, tokens: seq.length });
      ctx.onProgress?.('apply', ++done, keys.length);
    }
    timings['apply'] = performance.now() - t0;
    if (notExact > 0) {
      ctx.onWarning?.(`align: ${notExact} alignment(s) above ${ALIGN_DEFAULTS.maxExactCells} DP cells were split on anchors (explicit fallback) and are not proved optimal`);
    }
    return {
      template: toTemplate(l, ctx),
      summary: { sample: l.used.length, templateTokens: template.ids.length, pagesMarked: done, alignmentsNotExact: notExact },
      timings,
    };
  },
  async learn(ctx: LearnContext): Promise<LearnRun> {
    const l = await learnAlign(ctx, 0);
    return { template: toTemplate(l, ctx), summary: { sample: l.used.length, templateTokens: l.template.ids.length, alignmentsNotExact: notExactIn(l.levels) }, timings: l.timings };
  },
  compile: compileAlign,
};

export default engine;
