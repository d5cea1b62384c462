/**
 * The `align` template engine: paper 1 (alignment-template-detection) end to end.
 *  1. List the pages of the source (failures are reported and skipped), each with its declared language.
 *  2. Learn, once per language when the site declares several (languages.ts), else once: choose t sample
 *     pages spread over the pages (sample.ts), tokenise them (html/tokens.ts) and build the hierarchical
 *     consensus (consensus.ts); the root profile is the template; then the navigation regions and content
 *     slot on the sample pages aligned with it (navigation.ts). learned.ts writes it as a serialisable
 *     Template.
 *  3. Apply: align every page of the source with its template (apply.ts) and emit its marks.
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
import { declaredLanguage, languageGroups } from './languages.ts';
import { type AlignData, alignPart, compileAlign, labelAttributes } from './learned.ts';
import { type AlignedPage, learnNavigation, type Navigation } from './navigation.ts';
import { type AlignOptions, ALIGN_OPTIONS } from './options.ts';
import { chooseSample, duplicatesAmong, pageShingles } from './sample.ts';

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

/** What one template learned (one per language, languages.ts). */
interface LearnedPart {
  /** Its language; undefined: the site's template (its pages of no other template, or all of them). */
  language: string | undefined;
  /** Keys of the pages it marks. */
  serves: string[];
  /** Keys of the sample pages, in consensus order. */
  used: string[];
  /** Sample pages left out as copies of another sample page. */
  copies: Array<{ key: string; copyOf: string }>;
  template: Profile;
  levels: LevelStats[];
  nav: Navigation;
}

/** Steps 1 and 2: what was learned, and the pages read on the way (for step 3). */
interface Learned {
  options: AlignOptions;
  keys: string[];
  cache: Map<string, Page>;
  sampleTrees: Map<string, Tree>;
  /** The templates: the site's first, then one per language when the site declares several. */
  parts: LearnedPart[];
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
  const languageOf = new Map<string, string | undefined>();
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
    if (options.languages) languageOf.set(p.key, declaredLanguage(p.body));
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

  // 2. Learn: one template per language when the site declares several (languages.ts), else one. The
  // site's template (language undefined) goes first.
  t0 = performance.now();
  const sampleTrees = new Map<string, Tree>();
  const groups = languageGroups(keys, languageOf).sort((a, b) => (a.language === undefined ? -1 : b.language === undefined ? 1 : 0));
  const parts: LearnedPart[] = [];
  for (const group of groups) {
    const sampleKeys = chooseSample(group.keys, options.sample);
    const leaves: Profile[] = [];
    const used: string[] = [];
    for (const key of sampleKeys) {
      let tree = sampleTrees.get(key);
      if (!tree) {
        const page = await load(key);
        const parsed = page && parse(page);
        if (!parsed) continue;
        sampleTrees.set(key, (tree = parsed));
      }
      leaves.push(pageProfile(tokenize(tree, ctx.labels).ids));
      used.push(key);
      ctx.onProgress?.('learn', used.length, sampleKeys.length);
    }
    const of = group.language ? ` (language ${group.language})` : '';
    if (leaves.length === 0) throw new EngineError('no-sample', `align: no sample page could be read${of}`);
    // Copies of one page (the same article under two addresses) would make their own text template:
    // the first of each group of copies is kept.
    const copyOf = duplicatesAmong(used.map((key) => pageShingles(sampleTrees.get(key)!)), options.duplicateScore);
    const copies: Array<{ key: string; copyOf: string }> = [];
    for (let k = used.length - 1; k >= 0; k--) {
      if (copyOf[k] === -1) continue;
      copies.unshift({ key: used[k]!, copyOf: used[copyOf[k]!]! });
      used.splice(k, 1);
      leaves.splice(k, 1);
    }
    const consensus = hierarchicalConsensus(leaves, { minEvidence: options.minEvidence, mismatch: options.mismatch });
    // A template is what pages share: a token seen on one page only is never template. From three sample
    // pages on, the root's majority already demands two; with two pages the consensus is their union
    // (minEvidence 0.5 of 2), and with one page the page itself, which would mark every page whole.
    const template = seenOnTwo(consensus.template);
    let nav: Navigation = { regions: new Int32Array(0), slot: -1 };
    if (options.navigationRegions && template.ids.length > 0) {
      const aligned: AlignedPage[] = used.map((key) => {
        const tree = sampleTrees.get(key)!;
        const a = applyTemplate(tree, tokenize(tree, ctx.labels), template.ids, { lineRule: options.lineRule, mismatch: options.mismatch });
        return { tree, template: a.template, openMatch: a.openMatch };
      });
      nav = learnNavigation(template.ids.length, aligned, { linkShare: ALIGN_DEFAULTS.navigationLinkShare, slotShare: ALIGN_DEFAULTS.contentSlotShare });
    }
    if (template.ids.length === 0 && group.serves.length > 0) {
      ctx.onWarning?.(`align: the learned template${of} is empty (no token has enough evidence); its pages get no template marks`);
    }
    parts.push({ language: group.language, serves: group.serves, used, copies, template, levels: consensus.levels, nav });
  }
  timings['learn'] = performance.now() - t0;
  return { options, keys, cache, sampleTrees, parts, timings, load, parse };
}

/** The Template of what was learned. */
function toTemplate(l: Learned, ctx: LearnContext): AlignTemplate {
  const [site, ...languages] = l.parts;
  const data: AlignData = { attributes: labelAttributes(ctx.labels), mismatch: l.options.mismatch, ...alignPart(site!.template, site!.nav, ctx.labels) };
  if (languages.length > 0) data.languages = languages.map((p) => ({ language: p.language!, ...alignPart(p.template, p.nav, ctx.labels) }));
  const about: Record<string, unknown> = { sample: site!.used, templateTokens: site!.template.ids.length, levels: site!.levels };
  if (site!.copies.length > 0) about['sampleCopies'] = site!.copies;
  if (languages.length > 0) about['languages'] = languages.map((p) => ({ language: p.language, pages: p.serves.length, sample: p.used, templateTokens: p.template.ids.length, levels: p.levels }));
  return makeTemplate('align', { ...l.options }, ctx.site ?? ctx.source.root, new Set(l.parts.flatMap((p) => p.used)).size, data, about);
}

/** The figures of summary.json for what was learned. */
function learnedSummary(l: Learned): Record<string, unknown> {
  return {
    sample: new Set(l.parts.flatMap((p) => p.used)).size,
    templateTokens: l.parts.reduce((t, p) => t + p.template.ids.length, 0),
    navigationRegions: l.parts.reduce((t, p) => t + p.nav.regions.length, 0),
    languages: l.parts.length > 1 ? l.parts.slice(1).map((p) => p.language!) : [],
    alignmentsNotExact: notExactIn(l.parts),
    sampleCopies: l.parts.flatMap((p) => p.copies),
  };
}

/** Alignments of the consensus not proved optimal (align.ts's explicit fallback). */
function notExactIn(parts: readonly LearnedPart[]): number {
  return parts.reduce((t, p) => t + p.levels.reduce((u, l) => u + l.notExact, 0), 0);
}

const engine: LearningEngine<typeof ALIGN_OPTIONS.shape> = {
  name: 'align',
  description: 'paper 1: multiple alignment of token sequences (Needleman–Wunsch, hierarchical consensus)',
  options: ALIGN_OPTIONS,
  async run(ctx: EngineContext): Promise<EngineRun> {
    const l = await learnAlign(ctx, ctx.source.kind === 'http' ? ALIGN_DEFAULTS.cacheBytes : ALIGN_DEFAULTS.localCacheBytes);
    const { keys, cache, sampleTrees, options } = l;
    const timings = { ...l.timings };
    const partOf = new Map<string, LearnedPart>();
    for (const p of l.parts) for (const key of p.serves) partOf.set(key, p);
    const languages = l.parts.length > 1;

    // 3. Apply to every page.
    const t0 = performance.now();
    let done = 0;
    let notExact = notExactIn(l.parts);
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
      const p = partOf.get(key)!;
      const seq = tokenize(tree, ctx.labels);
      const applied = applyTemplate(tree, seq, p.template.ids, { lineRule: options.lineRule, mismatch: options.mismatch, navigation: p.nav });
      if (!applied.exact) notExact++;
      const extra: Record<string, unknown> = { matchedTokens: applied.matched, tokens: seq.length };
      if (languages) extra['language'] = p.language ?? null;
      await ctx.onPage({ key, url, tree, template: applied.template }, extra);
      ctx.onProgress?.('apply', ++done, keys.length);
    }
    timings['apply'] = performance.now() - t0;
    if (notExact > 0) {
      ctx.onWarning?.(`align: ${notExact} alignment(s) above ${ALIGN_DEFAULTS.maxExactCells} DP cells were split on anchors (explicit fallback) and are not proved optimal`);
    }
    return {
      template: toTemplate(l, ctx),
      summary: { ...learnedSummary(l), pagesMarked: done, alignmentsNotExact: notExact },
      timings,
    };
  },
  async learn(ctx: LearnContext): Promise<LearnRun> {
    const l = await learnAlign(ctx, 0);
    return { template: toTemplate(l, ctx), summary: learnedSummary(l), timings: l.timings };
  },
  compile: compileAlign,
};

export default engine;
