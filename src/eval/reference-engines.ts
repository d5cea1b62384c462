/**
 * Reference "engines" every template engine is compared with (eval/baseline.eval.ts), behind the same
 * TemplateEngine interface so that the same harness scores them:
 *  - `wholeBodyEngine`: the floor: no template removal, the whole `<body>` is kept;
 *  - `goldOracleEngine(gold)`: the ceiling on sites/: marks exactly the gold template (everything in
 *    `<body>` outside the gold containers and not an ancestor of one, plus the `exclude` matches). Its
 *    content F1 must be 1.0 on every page with gold: a check of the scoring itself (that the kept text of
 *    marks, `keptText`, and the gold text, `goldContentText`, agree).
 * Neither learns anything; they read the source's pages in order and emit marks.
 */
import type { Tree } from '../html/tree.ts';
import { parsePage } from '../site/page.ts';
import type { EngineContext, EngineRun, TemplateEngine } from '../template/engine.ts';
import { noOptions } from '../template/options.ts';
import { goldTemplateMask, type GoldSelectors } from './metrics.ts';

/** Parses every page of the source and emits `mark(tree)` for it; failures are passed on. */
async function eachPage(ctx: EngineContext, mark: (tree: Tree) => Uint8Array): Promise<EngineRun> {
  const t0 = performance.now();
  let pages = 0;
  for await (const r of ctx.source.pages()) {
    if (!r.ok) {
      ctx.onFailure({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
      continue;
    }
    const tree = parsePage(r.page, ctx.labels);
    await ctx.onPage({ key: r.page.key, url: r.page.url, tree, template: mark(tree) });
    pages++;
  }
  return { template: null, summary: { pages }, timings: { pages: performance.now() - t0 } };
}

/** Keeps the whole body: marks nothing as template (the floor of every comparison). */
export const wholeBodyEngine: TemplateEngine = {
  name: 'whole-body',
  description: 'no template removal: keeps the whole <body> (baseline)',
  options: noOptions('whole-body'),
  run: (ctx) => eachPage(ctx, (tree) => new Uint8Array(tree.size)),
};

/**
 * Marks exactly the gold template of each page (nothing on pages without gold): the ceiling, and the
 * check that a perfect method scores 1.0.
 */
export function goldOracleEngine(gold: GoldSelectors): TemplateEngine {
  return {
    name: 'gold-oracle',
    description: 'marks exactly the gold template (upper bound; a check of the scoring)',
    options: noOptions('gold-oracle'),
    run: (ctx) => eachPage(ctx, (tree) => goldTemplateMask(tree, gold) ?? new Uint8Array(tree.size)),
  };
}
