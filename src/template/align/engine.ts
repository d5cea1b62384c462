/**
 * The `align` template engine: paper 1 (alignment-template-detection) end to end.
 *  1. List the pages of the source (failures are reported and skipped).
 *  2. Learn: choose t sample pages spread over the site (sample.ts), tokenise them (html/tokens.ts) and
 *     build the hierarchical consensus (consensus.ts); the root profile is the template.
 *  3. Apply: align every page of the source with the template (apply.ts) and emit its marks.
 * Pages are read once; up to `ALIGN_DEFAULTS.cacheBytes` of them are kept between steps 1 and 3, the
 * others are loaded again by key (`source.get`). Sample pages are parsed once.
 */
import { tokenize } from '../../html/tokens.ts';
import type { Tree } from '../../html/tree.ts';
import { EngineError } from '../../errors.ts';
import { parsePage, type Page } from '../../site/page.ts';
import type { EngineContext, EngineOption, EngineRun, TemplateEngine } from '../engine.ts';
import { applyTemplate } from './apply.ts';
import { hierarchicalConsensus, type LevelStats, pageProfile, type Profile } from './consensus.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { declaredLanguage, languageGroups } from './languages.ts';
import { type AlignedPage, learnNavigation, type Navigation } from './navigation.ts';
import { chooseSample } from './sample.ts';

/** Options of the align engine, as `gabarit template --method align` takes them. */
export const ALIGN_OPTIONS: readonly EngineOption[] = [
  {
    flags: '--sample <n>',
    description: 'number of sample pages the template is learned from (paper 1: 16), spread over the site',
    defaultValue: ALIGN_DEFAULTS.sample,
    parse: (raw: string) => positiveInt(raw, '--sample'),
  },
  {
    flags: '--min-evidence <fraction>',
    description: 'a consensus token is kept when at least this fraction of the pages below it support it',
    defaultValue: ALIGN_DEFAULTS.minEvidence,
    parse: (raw: string) => fraction(raw, '--min-evidence'),
  },
  {
    flags: '--mismatch <score>',
    description: 'score of a column of two different tokens (gap -1, match 1): 0 as in paper 1, -2 to maximise the matched tokens',
    defaultValue: ALIGN_DEFAULTS.mismatch,
    parse: (raw: string) => mismatchScore(raw),
  },
  { flags: '--no-line-rule', description: 'mark matched text as template even when its line of text holds kept text (default: such a line is kept whole)' },
  { flags: '--no-languages', description: 'learn one template for all pages even when the site declares several languages (default: one per language)' },
  { flags: '--no-navigation-regions', description: 'do not treat template elements whose changing text is made of links (tables of contents, open menu sections) as template' },
];

function positiveInt(raw: string, flag: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new EngineError('bad-option', `${flag} must be a positive integer, got "${raw}"`);
  return n;
}
function mismatchScore(raw: string): number {
  const x = Number(raw);
  if (!Number.isInteger(x) || x > 0) throw new EngineError('bad-option', `--mismatch must be an integer <= 0, got "${raw}"`);
  return x;
}
function fraction(raw: string, flag: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new EngineError('bad-option', `${flag} must be in (0, 1], got "${raw}"`);
  return x;
}

/** Reads a numeric option given either parsed (a number) or raw (a string, e.g. from a config). */
function numberOption(ctx: EngineContext, name: string, fallback: number, check: (raw: string, flag: string) => number, flag: string): number {
  const v = ctx.options[name];
  if (v === undefined || v === null) return fallback;
  return check(String(v), flag);
}

/** One learned template sequence, as template.json holds it. */
export interface AlignTemplatePart {
  /** Keys of the sample pages, in consensus order. */
  sample: string[];
  /** The template sequence: each token's normalised key (tag, '/tag' or '#t:text') and its evidence. */
  tokens: Array<[string, number]>;
  /** Template indices of the start tags of the navigation regions (navigation.ts). */
  navigationRegions: number[];
  /** Template index of the start tag of the content slot (navigation.ts), -1 when none. */
  contentSlot: number;
  levels: unknown[];
}

/** A learned template, as template.json holds it: the first template, and all of them when the site has several languages (languages.ts). */
export interface AlignTemplateJson extends AlignTemplatePart {
  method: 'align';
  minEvidence: number;
  mismatch: number;
  languages?: Array<AlignTemplatePart & { language: string | null; pages: number }>;
}

/** What one template learned (per language, languages.ts). */
interface Learned {
  language: string | undefined;
  /** Pages it marks. */
  serves: number;
  used: string[];
  template: Profile;
  levels: LevelStats[];
  nav: Navigation;
}

const engine: TemplateEngine = {
  name: 'align',
  description: 'paper 1: multiple alignment of token sequences (Needleman–Wunsch, hierarchical consensus)',
  options: ALIGN_OPTIONS,
  async run(ctx: EngineContext): Promise<EngineRun> {
    const sampleSize = numberOption(ctx, 'sample', ALIGN_DEFAULTS.sample, positiveInt, '--sample');
    const minEvidence = numberOption(ctx, 'minEvidence', ALIGN_DEFAULTS.minEvidence, fraction, '--min-evidence');
    const lineRule = ctx.options['lineRule'] !== false;
    const useRegions = ctx.options['navigationRegions'] !== false;
    const mismatch = numberOption(ctx, 'mismatch', ALIGN_DEFAULTS.mismatch, (raw) => mismatchScore(raw), '--mismatch');
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
      languageOf.set(p.key, declaredLanguage(p.body));
      if (cachedBytes + p.body.length <= ALIGN_DEFAULTS.cacheBytes) {
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

    // 2. Learn: one template per language when the site declares several (languages.ts), else one.
    t0 = performance.now();
    const sampleTrees = new Map<string, Tree>();
    const groups = ctx.options['languages'] === false ? languageGroups(keys, new Map()) : languageGroups(keys, languageOf);
    const learned: Learned[] = [];
    for (const group of groups) {
      const sampleKeys = chooseSample(group.keys, sampleSize);
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
      if (leaves.length === 0) throw new EngineError('no-sample', `align: no sample page could be read${group.language ? ` (language ${group.language})` : ''}`);
      const { template, levels } = hierarchicalConsensus(leaves, { minEvidence, mismatch });
      let nav: Navigation = { regions: new Int32Array(0), slot: -1 };
      if (useRegions && template.ids.length > 0) {
        const aligned: AlignedPage[] = used.map((key) => {
          const tree = sampleTrees.get(key)!;
          const a = applyTemplate(tree, tokenize(tree, ctx.labels), template.ids, { lineRule, mismatch });
          return { tree, template: a.template, openMatch: a.openMatch };
        });
        nav = learnNavigation(template.ids.length, aligned, { linkShare: ALIGN_DEFAULTS.navigationLinkShare, slotShare: ALIGN_DEFAULTS.contentSlotShare });
      }
      if (template.ids.length === 0) ctx.onWarning?.(`align: the learned template${group.language ? ` of language ${group.language}` : ''} is empty (no token has enough evidence); its pages get no template marks`);
      learned.push({ language: group.language, serves: group.serves.length, used, template, levels, nav });
    }
    const templateOf = new Map<string, Learned>();
    groups.forEach((g, k) => {
      for (const key of g.serves) templateOf.set(key, learned[k]!);
    });
    timings['learn'] = performance.now() - t0;

    // 3. Apply to every page.
    t0 = performance.now();
    let done = 0;
    let notExact = learned.reduce((t, x) => t + x.levels.reduce((u, l) => u + l.notExact, 0), 0);
    for (const key of keys) {
      ctx.signal?.throwIfAborted();
      let tree = sampleTrees.get(key) ?? null;
      let url = ctx.source.urlOf(key);
      if (!tree) {
        const page = await load(key);
        if (!page) continue;
        url = page.url;
        tree = parse(page);
        if (!tree) continue;
      } else {
        url = cache.get(key)?.url ?? url;
      }
      cache.delete(key);
      sampleTrees.delete(key);
      const { template, nav } = templateOf.get(key)!;
      const seq = tokenize(tree, ctx.labels);
      const applied = applyTemplate(tree, seq, template.ids, { lineRule, navigation: nav, mismatch });
      if (!applied.exact) notExact++;
      await ctx.onPage({ key, url, tree, template: applied.template }, { matchedTokens: applied.matched, tokens: seq.length });
      ctx.onProgress?.('apply', ++done, keys.length);
    }
    timings['apply'] = performance.now() - t0;
    if (notExact > 0) {
      ctx.onWarning?.(`align: ${notExact} alignment(s) above ${ALIGN_DEFAULTS.maxExactCells} DP cells were split on anchors (explicit fallback) and are not proved optimal`);
    }

    const describe = (x: Learned): AlignTemplatePart => ({
      sample: x.used,
      tokens: Array.from(x.template.ids, (id, k) => [ctx.labels.key(id), x.template.evidence[k]!] as [string, number]),
      navigationRegions: Array.from(x.nav.regions),
      contentSlot: x.nav.slot,
      levels: x.levels,
    });
    const json: AlignTemplateJson = { method: 'align', minEvidence, mismatch, ...describe(learned[0]!) };
    if (learned.length > 1) json.languages = learned.map((x) => ({ language: x.language ?? null, pages: x.serves, ...describe(x) }));
    return {
      template: json,
      summary: {
        sample: learned.reduce((t, x) => t + x.used.length, 0),
        templateTokens: learned.reduce((t, x) => t + x.template.ids.length, 0),
        navigationRegions: learned.reduce((t, x) => t + x.nav.regions.length, 0),
        languages: learned.length > 1 ? learned.map((x) => x.language ?? 'other') : [],
        pagesMarked: done,
        alignmentsNotExact: notExact,
      },
      timings,
    };
  },
};

export default engine;
