/**
 * The hyperlink template engine: paper 2, Alarte, Insa, Silva, Tamarit, "Web Template Extraction Based on
 * Hyperlink Analysis". From a key page:
 *  1. its usable links (same site by `source.keyOf`, unique, no self-link), ordered menu-first
 *     (link-order.ts);
 *  2. Algorithm 1 (complete-subdigraph.ts): pages loaded one at a time through `source.get` until an
 *     n-CS of mutually linked pages exists, else the biggest m-CS; when m < 2, the key page's siblings
 *     (sibling-pages.ts) complete the set, and the run says so;
 *  3. Algorithm 2 / Definition 3.3 (template-extraction.ts): the key page's nodes that an equal top-down
 *     mapping (equal-top-down-mapping.ts, with node equality ≜ from node-equality.ts) pairs in every page
 *     of the set; CS pages of a clearly different template (by shared texts) or of another page class (by
 *     page schema, page-classes.ts) are set aside with a warning, as long as `agreeingPages` pages remain
 *     (else further linked pages are loaded, and failing that none is set aside); plus same-word elements
 *     (template-extraction.ts), navigation bars' changing cells and navigation regions
 *     (navigation-regions.ts);
 *  4. every page of the source is marked with the same mapping (page-marks.ts) and handed to `onPage`.
 * Bad input never yields a template from the key page alone: no usable link, no page loaded, or no page
 * sharing the key page's root raise an EngineError with a code; weaker fallbacks are warnings.
 * Steps 1–3 are learn-site.ts; step 4 is `run` below.
 */
import type { EngineContext, EngineRun, LearnContext, LearningEngine, LearnRun } from '../engine.ts';
import { type Applier, makeTemplate, type Template } from '../learned.ts';
import { compileHyperlink, hyperlinkData, type HyperlinkData } from './learned.ts';
import { HYPERLINK_OPTIONS } from './options.ts';
import { type HyperlinkLearned, learnSite } from './learn-site.ts';
import { NodeFeatures } from './node-equality.ts';
import { markPage } from './page-marks.ts';
import { parsePage } from '../../site/page.ts';

/** The Template of what was learned. */
function hyperlinkTemplate(l: HyperlinkLearned, ctx: LearnContext): Template<HyperlinkData> {
  return makeTemplate('hyperlink', { ...HYPERLINK_OPTIONS.parse(ctx.options) }, ctx.site ?? ctx.source.root, (l.summary['templatePages'] as string[]).length + 1, hyperlinkData(l.learned, l.keyPage, l.keyText), l.about);
}

export class HyperlinkEngine implements LearningEngine {
  readonly name = 'hyperlink';
  readonly description = 'Template of a key page from a complete subdigraph of mutually linked pages and equal top-down mappings (Alarte et al., paper 2)';
  readonly options = HYPERLINK_OPTIONS;

  async run(ctx: EngineContext): Promise<EngineRun> {
    const l = await learnSite(ctx);
    const { learned, keyPage, keyF, features, scratch, timings } = l;
    const eq = learned.eq;
    const source = ctx.source;
    // Mark every page of the source, and the key page (whose template this is) even when the source's
    // listing does not reach it (a frame of a frameset, which a crawl does not follow).
    const tMark = performance.now();
    let done = 0;
    let keyMarked = false;
    for await (const r of source.pages()) {
      ctx.signal?.throwIfAborted();
      if (!r.ok) {
        ctx.onFailure({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
        continue;
      }
      if (r.page.key === keyPage.key) keyMarked = true;
      const known = r.page.key === keyPage.key ? keyF : features.get(r.page.key);
      const f = known ?? new NodeFeatures(parsePage(r.page, ctx.labels), eq);
      const marks = markPage(learned, f, scratch);
      await ctx.onPage({ key: r.page.key, url: r.page.url, tree: f.tree, template: marks });
      ctx.onProgress?.('mark', ++done);
    }
    if (!keyMarked) {
      await ctx.onPage({ key: keyPage.key, url: keyPage.url, tree: keyF.tree, template: markPage(learned, keyF, scratch) });
      done++;
    }
    timings['mark'] = Math.round(performance.now() - tMark);

    return { template: hyperlinkTemplate(l, ctx), summary: { ...l.summary, pagesMarked: done }, timings };
  }

  async learn(ctx: LearnContext): Promise<LearnRun> {
    const l = await learnSite(ctx);
    return { template: hyperlinkTemplate(l, ctx), summary: l.summary, timings: l.timings };
  }

  compile(template: Template): Applier {
    return compileHyperlink(template);
  }
}

export { HYPERLINK_OPTIONS };

const engine: LearningEngine<typeof HYPERLINK_OPTIONS.shape> = new HyperlinkEngine();
export default engine;
