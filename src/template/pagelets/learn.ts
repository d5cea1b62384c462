/**
 * `learn` of the pagelets engine: the detection phase (engine.ts `detectPagelets`, the paper's job) gives
 * the templates; no page is marked. The template (learned.ts) holds their shingles.
 */
import type { LearnContext, LearnRun } from '../engine.ts';
import { detectPagelets } from './engine.ts';
import { pageletTemplate } from './learned.ts';

/** Learns the template shingles of a source (the detection phase; no page is marked). */
export async function learnPagelets(ctx: LearnContext): Promise<LearnRun> {
  const run = await detectPagelets(ctx);
  const d = run.detection;
  return {
    template: pageletTemplate(d, run.options, ctx, { algorithm: d.algorithm, counts: d.counts, templateCount: d.templates.length }),
    summary: { pagelets: { algorithm: d.algorithm, ...d.counts, workers: run.workers } },
    timings: run.timings,
  };
}
