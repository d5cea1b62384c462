/**
 * The content extractor as a TemplateEngine (so the CLI, the output contract and the evaluation drive it
 * like any engine): it runs the template engine chosen for the source (method.ts, or the one given), and
 * on every page it emits adds the main-content marks chosen among the non-template nodes
 * (main-block.ts). Two signals come from the site, not the page: the template (what every page repeats is
 * not content) and the site vote (site-vote.ts: the first `voteSample` pages are held until their main
 * blocks have voted for the place of the site's main content). The output contract's `<page>.txt` then
 * holds the main content.
 */
import { EngineError } from '../errors.ts';
import type { PageSource } from '../site/page.ts';
import type { EngineContext, EngineRun, TemplateEngine } from '../template/engine.ts';
import { engineOptions, loadEngine } from '../template/engines.ts';
import { noOptions } from '../template/options.ts';
import type { PageMarks, RenderedPage } from '../template/result.ts';
import { CONTENT_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';
import type { Tree } from '../html/tree.ts';
import { chooseMainBlock, type MainBlock, type MainBlockOptions } from './main-block.ts';
import { placeHeadline, titleFields, type HeadlinePlacement } from './extract.ts';
import { chooseMethod, type MethodChoice } from './method.ts';
import { pathKeys, voteKey } from './site-vote.ts';

/**
 * Methods after which `mainBlock: 'auto'` takes the whole main block (see ContentEngineOptions.mainBlock);
 * after the others only the per-page navigation around it is left out.
 */
export const BLOCK_AFTER: ReadonlySet<string> = new Set(['align', 'pagelets']);

/** When and how the main block is chosen after the template engine (ContentEngineOptions.mainBlock). */
export type MainBlockWhen = 'auto' | 'always' | 'navigation' | 'never';

/**
 * The main-block options of a page after template engine `method` (null: no main block, the content is
 * the non-template text): 'always' the whole main block, 'navigation' only the per-page navigation around
 * it left out (MainBlockOptions.navigationOnly), 'auto' the first after align and pagelets and the second
 * after the others.
 */
export function blockOptionsFor(when: MainBlockWhen, method: string, block: MainBlockOptions = {}): MainBlockOptions | null {
  if (when === 'never') return null;
  if (when === 'always' || (when === 'auto' && BLOCK_AFTER.has(method))) return block;
  return { ...block, navigationOnly: true };
}

/** Options of the content engine. */
export interface ContentEngineOptions {
  /** Template engine to use; chosen from the source when absent. */
  method?: string;
  /** Options of the main-block choice. */
  block?: MainBlockOptions;
  /**
   * How the main block is chosen among the non-template nodes (blockOptionsFor): 'auto' (default) the
   * whole main block after align and pagelets, and after hyperlink, whose template is already the site's
   * whole navigation, only the per-page navigation around the main block left out (prev / next bars,
   * breadcrumbs: docs/content.md); 'always' the whole main block; 'navigation' the per-page navigation
   * only; 'never' (content = all non-template text).
   */
  mainBlock?: MainBlockWhen;
  /**
   * Site vote (site-vote.ts): the first `voteSample` pages are held, their main blocks vote for the place
   * of the site's main content, and a page whose own choice lies elsewhere takes that place when it has it
   * (default true).
   */
  siteVote?: boolean;
  /** Pages held for the site vote (default CONTENT_DEFAULTS.voteSample). */
  voteSample?: number;
  /** Worker threads of the template engine's per-page work, given to an engine that takes them (pagelets) unless its options say. */
  workers?: number;
  /**
   * Runs the template engine on its context (default `engine.run`): the run layer's, marking pages in worker
   * threads; given `finish` when the caller takes rendered pages, it may do the content step there too.
   */
  runner?: (engine: TemplateEngine, ctx: EngineContext, finish?: PageFinish) => Promise<EngineRun>;
  /** Same as mainBlock: 'never'. */
  templateOnly?: boolean;
  /**
   * Options of the template engine (those `gabarit template` takes): the ones the method used takes are
   * given to it (and validated by it); the others are named by a warning and not applied.
   */
  engineOptions?: Readonly<Record<string, unknown>>;
  /**
   * Where the main block's headline goes (extract.ts): 'field' (default) in the page's `title` (the extra
   * data of each page) and out of the content marks, so that the kept text is the body; 'first' kept in
   * the marks as well, at the start of the text.
   */
  headline?: HeadlinePlacement;
}

/**
 * The main block of a page once the site has voted (`siteKey`: the winning path key, or null / undefined
 * when there is none): the page's own choice, unless it lies elsewhere than the site's place and the page
 * has that place (site-vote.ts). `keys` are the page's path keys (computed when absent); `own`, the page's
 * own choice with `block` when already made (the site vote makes it).
 */
export function chooseWithSite(tree: Tree, template: Uint8Array, siteKey: number | null | undefined, block?: MainBlockOptions, keys?: Int32Array, own?: MainBlock): { block: MainBlock; moved: boolean } {
  const mb = own ?? chooseMainBlock(tree, template, block);
  if (siteKey === null || siteKey === undefined || mb.root < 0 || mb.listing) return { block: mb, moved: false };
  const k = keys ?? pathKeys(tree);
  if (k[mb.root] === siteKey) return { block: mb, moved: false };
  const other = chooseMainBlock(tree, template, { ...block, site: { keys: k, key: siteKey } });
  return { block: other, moved: other.root !== mb.root };
}

/**
 * The site vote over a group of pages (the engine's first `voteSample` pages): each page's own main block
 * votes with its path key; the winning key, or null when too few agree (CONTENT_DEFAULTS.voteShare,
 * voteMinPages). Each page's own choice is put in `choices` when given (chooseWithSite takes it back).
 */
export function siteVote(pages: ReadonlyArray<{ tree: Tree; template: Uint8Array }>, keys: readonly Int32Array[], block?: MainBlockOptions, choices?: MainBlock[]): number | null {
  const votes: number[] = [];
  pages.forEach((p, k) => {
    const mb = chooseMainBlock(p.tree, p.template, block);
    choices?.push(mb);
    if (mb.root >= 0 && !mb.listing) votes.push(keys[k]![mb.root]!);
  });
  return voteKey(votes, CONTENT_DEFAULTS.voteShare, CONTENT_DEFAULTS.voteMinPages);
}

/**
 * What is done to a page the template engine marked, once the site has voted: its main block chosen
 * (`block`; null: the content is every non-template node) with the site's place (`siteKey`), its headline
 * placed. Plain data: worker threads are given it.
 */
export interface ContentStep {
  block: MainBlockOptions | null;
  siteKey: number | null;
  headline: HeadlinePlacement;
}

/** A page after the content step: its marks and info as the engine hands them on, whether it is a listing and the site vote moved its main block. */
export interface SteppedPage {
  marks: PageMarks;
  info: Record<string, unknown> | undefined;
  listing: boolean;
  moved: boolean;
}

/** The content step on one marked page (`keys`: its path keys, computed when absent; `own`: chooseWithSite's). */
export function contentStep(marks: PageMarks, extra: Record<string, unknown> | undefined, step: ContentStep, keys?: Int32Array, own?: MainBlock): SteppedPage {
  if (step.block === null) {
    // Content = every non-template node (the template engine's result, as content marks).
    const content = new Uint8Array(marks.template.length);
    for (let i = 0; i < content.length; i++) content[i] = marks.template[i] === 1 ? 0 : 1;
    return { marks: { ...marks, content }, info: extra, listing: false, moved: false };
  }
  const { block: mb, moved } = chooseWithSite(marks.tree, marks.template, step.siteKey, step.block, keys, own);
  const placed = placeHeadline(marks.tree, mb, step.headline);
  return { marks: { ...marks, content: placed.marks }, info: { ...(extra ?? {}), listing: mb.listing, ...titleFields(marks.tree, placed.headline) }, listing: mb.listing, moved };
}

/**
 * How a runner that marks pages elsewhere (worker threads) may finish them there, for a caller that takes
 * rendered pages: the content step once it is known (`step()`, undefined until the site vote is taken:
 * until then pages come back to the engine's `onPage`), and `done` for each page so finished.
 */
export interface PageFinish {
  step(): ContentStep | undefined;
  done(page: RenderedPage, info: Record<string, unknown>, stepped: { listing: boolean; moved: boolean }): Promise<void>;
}

/** The method a run used, and why (the content engine's summary carries it too). */
export async function resolveMethod(source: PageSource, options: ContentEngineOptions): Promise<MethodChoice> {
  if (options.method) return { method: options.method, reason: 'given (--method)' };
  return chooseMethod(source);
}

/**
 * A TemplateEngine giving content marks: template engine first, then the main block of each page. When the
 * method was chosen (not given) and hyperlink cannot find a template before any page is emitted (no usable
 * link), the run falls back to alignment and says so with a warning.
 */
export function contentEngine(options: ContentEngineOptions = {}): TemplateEngine {
  const { voteSample } = filled(options, CONTENT_DEFAULTS, ['voteSample']);
  const warned = new Set<string>();
  /** The engine options `method` takes, validated by it (EngineError `bad-option`); the others named once. */
  const optionsOf = (method: string, warn?: (message: string) => void): Record<string, unknown> => {
    const declared = engineOptions(method);
    const mine: Record<string, unknown> = {};
    const others: string[] = [];
    for (const [k, v] of Object.entries(options.engineOptions ?? {})) {
      if (declared.names.includes(k)) mine[k] = v;
      else others.push(k);
    }
    const message = `${others.length === 1 ? 'option' : 'options'} ${others.join(', ')} not taken by ${method}, the template engine used: not applied`;
    if (others.length > 0 && !warned.has(message)) {
      warned.add(message);
      warn?.(message);
    }
    if (options.workers !== undefined && declared.names.includes('workers') && !('workers' in mine)) mine['workers'] = options.workers;
    return declared.parse(mine) as Record<string, unknown>;
  };
  return {
    name: 'content',
    description: 'main content: template removed by the best engine for the source, then the main block chosen by text concentration, link density and position',
    options: noOptions('content'),
    async run(ctx: EngineContext): Promise<EngineRun> {
      const t0 = performance.now();
      let choice = await resolveMethod(ctx.source, options);
      const tChoose = performance.now() - t0;
      let listing = 0;
      let emitted = 0;
      const useVote = options.siteVote ?? true;
      /** Pages held until the site vote is taken (the first `voteSample` pages). */
      let held: Array<{ marks: PageMarks; extra: Record<string, unknown> | undefined }> = [];
      /** The site's main-block key: undefined until voted, null when the pages did not agree. */
      let siteKey: number | null | undefined = useVote ? undefined : null;
      let moved = 0;
      /** The main-block options after the chosen method (null: no main block). */
      const blockOptions = (): MainBlockOptions | null => blockOptionsFor(options.templateOnly ? 'never' : (options.mainBlock ?? 'auto'), choice.method, options.block);
      const headline = options.headline ?? 'field';
      const emitBlock = async (marks: PageMarks, extra: Record<string, unknown> | undefined, keys?: Int32Array, own?: MainBlock): Promise<void> => {
        const s = contentStep(marks, extra, { block: blockOptions() ?? {}, siteKey: siteKey ?? null, headline }, keys, own);
        if (s.moved) moved++;
        if (s.listing) listing++;
        await ctx.onPage(s.marks, s.info);
      };
      /** Takes the vote over the held pages, then emits them. */
      const decide = async (): Promise<void> => {
        const keys = held.map((h) => pathKeys(h.marks.tree));
        // Each page's own choice, made for the vote, is not made again.
        const own: MainBlock[] = [];
        siteKey = siteVote(held.map((h) => h.marks), keys, blockOptions() ?? {}, own);
        const pages = held;
        held = [];
        for (let k = 0; k < pages.length; k++) await emitBlock(pages[k]!.marks, pages[k]!.extra, keys[k], own[k]);
      };
      // Rendered pages come only from the runner's `finish`, after the content step: the template engine
      // itself is not given `onRendered` (it would render pages without their main content).
      const { onRendered, ...plain } = ctx;
      const finish: PageFinish | undefined = onRendered
        ? {
            step: () => {
              const block = blockOptions();
              if (block === null) return { block: null, siteKey: null, headline };
              return siteKey === undefined ? undefined : { block, siteKey, headline };
            },
            done: async (page, info, stepped) => {
              emitted++;
              if (stepped.moved) moved++;
              if (stepped.listing) listing++;
              await onRendered(page, info);
            },
          }
        : undefined;
      const wrapped = (): EngineContext => ({
        ...plain,
        options: optionsOf(choice.method, ctx.onWarning),
        onPage: async (marks, extra) => {
          emitted++;
          if (blockOptions() === null) return ctx.onPage(contentStep(marks, extra, { block: null, siteKey: null, headline }).marks, extra);
          if (siteKey !== undefined) return emitBlock(marks, extra);
          held.push({ marks, extra });
          if (held.length >= voteSample) await decide();
        },
      });
      let run: EngineRun;
      const engine = await loadEngine(choice.method);
      const runOn = (e: TemplateEngine, c: EngineContext): Promise<EngineRun> => (options.runner ? options.runner(e, c, finish) : e.run(c));
      // Built before the run: a bad engine option is the user's error, not a reason to fall back.
      const first = wrapped();
      try {
        run = await runOn(engine, first);
      } catch (err) {
        if (!(err instanceof EngineError) || options.method || emitted > 0 || choice.method === 'align') throw err;
        ctx.onWarning?.(`${choice.method} found no template (${err.message}); falling back to align`);
        choice = { method: 'align', reason: `${choice.reason}; ${choice.method} failed (${err.message}), fell back to alignment` };
        run = await runOn(await loadEngine('align'), wrapped());
      }
      if (held.length > 0) await decide();
      return {
        template: { method: choice.method, reason: choice.reason, template: run.template },
        summary: { method: choice.method, reason: choice.reason, listingPages: listing, siteVote: siteKey !== null && siteKey !== undefined, movedBySiteVote: moved, ...run.summary },
        timings: { choose: tChoose, ...run.timings, total: performance.now() - t0 },
      };
    },
  };
}
