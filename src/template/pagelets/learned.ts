/**
 * The pagelets engine's learned template (src/template/learned.ts): the template shingles s(T) of the
 * templates found (paper 3, Figures 4 and 5) with the options that make a pagelet's shingle (k, shingle
 * width, min-hashes, link targets, digit folding, navigation pagelets, their content share, landmarks and
 * navigation items; a template learned before the last two has neither field and applies with both off).
 * Applying it to a page partitions the page into pagelets (Definition 2), shingles each (a navigation pagelet by its
 * place and structure, navigation.ts), and marks those whose shingle is a template shingle. For the local
 * algorithm this is the detection's own rule on the pages it saw; the global algorithm also asks a
 * template's pages to be linked (Figure 5), which a page seen alone cannot show, so a page it was not
 * learned on is marked by shingle alone (docs/library.md measures the difference).
 */
import { z } from 'zod';
import { Tree } from '../../html/tree.ts';
import type { LearnContext } from '../engine.ts';
import { FrozenLabels } from '../frozen-labels.ts';
import { type Applier, type ApplyInput, inputTree, inputUrl, makeTemplate, readData, type Template } from '../learned.ts';
import type { Detection } from './detection.ts';
import type { PageletOptions } from './options.ts';
import { pageLinks } from './links.ts';
import { navigationShingles } from './navigation.ts';
import { marksFromPagelets } from './page-analysis.ts';
import { linkCounts, partition } from './partition.ts';
import { NO_SHINGLE, shinglePagelets } from './shingle.ts';

/** `data` of a pagelets template. */
export interface PageletData {
  algorithm: 'local' | 'global';
  k: number;
  shingleWidth: number;
  minhashes: number;
  linkTargets: boolean;
  foldDigits: boolean;
  /** Navigation pagelets get a navigation shingle (navigation.ts), in a content region of this share. */
  navigationPagelets: boolean;
  contentShare: number;
  /** Landmarks as pagelet boundaries, `<nav>` pagelets navigation (absent in templates learned before: off). */
  landmarks?: boolean | undefined;
  /** Navigation pagelets shingled by their items (absent in templates learned before: off). */
  navigationItems?: boolean | undefined;
  /** The template shingles, sorted. */
  shingles: number[];
}

const schema: z.ZodType<PageletData> = z.object({
  algorithm: z.enum(['local', 'global']),
  k: z.number().int().min(1),
  shingleWidth: z.number().int().min(1),
  minhashes: z.number().int().min(1),
  linkTargets: z.boolean(),
  foldDigits: z.boolean(),
  navigationPagelets: z.boolean(),
  contentShare: z.number().gt(0).max(1),
  landmarks: z.boolean().optional(),
  navigationItems: z.boolean().optional(),
  shingles: z.array(z.number().int().min(0)),
});

/** The data of a detection. */
export function pageletData(detection: Detection, o: PageletOptions): PageletData {
  const shingles = [...new Set(detection.templates.map((t) => t.shingle))].sort((a, b) => a - b);
  return { algorithm: detection.algorithm, k: o.k, shingleWidth: o.shingleWidth, minhashes: o.minhashes, linkTargets: o.linkTargets, foldDigits: o.foldDigits, navigationPagelets: o.navigationPagelets, contentShare: o.contentShare, landmarks: o.landmarks, navigationItems: o.navigationItems, shingles };
}

/** The template of a detection, as the engine's run and `learn` give it. */
export function pageletTemplate(detection: Detection, o: PageletOptions, ctx: LearnContext, about: Record<string, unknown>): Template<PageletData> {
  const options: Record<string, unknown> = { ...o };
  delete options['db'];
  return makeTemplate('pagelets', options, ctx.site ?? ctx.source.root, detection.counts.pages, pageletData(detection, o), about);
}

/** Compiles a pagelets template for applying. */
export function compilePagelets(template: Template): Applier {
  const d = readData(template, schema);
  const set = new Set(d.shingles);
  const labels = new FrozenLabels({ attributes: 'none' }, []);
  const options = { width: d.shingleWidth, minhashes: d.minhashes, linkTargets: d.linkTargets, foldDigits: d.foldDigits };
  return {
    template,
    apply(input: ApplyInput) {
      const tree = input instanceof Tree ? input : inputTree(input, labels);
      const pagelets = partition(tree, { k: d.k, counts: linkCounts(tree), landmarks: d.landmarks ?? false });
      // Links count even without their targets: a pagelet of links alone (image links) has a shingle.
      const links = pageLinks(tree, inputUrl(input) ?? 'http://page.invalid/');
      const shingles = shinglePagelets(tree, pagelets, links.node, links.dest, options);
      if (d.navigationPagelets) navigationShingles(tree, pagelets, shingles, { ...options, contentShare: d.contentShare, landmarks: d.landmarks ?? false, items: d.navigationItems ?? false });
      const ordinals: number[] = [];
      for (let o = 0; o < shingles.length; o++) if (shingles[o] !== NO_SHINGLE && set.has(shingles[o]!)) ordinals.push(o);
      return { tree, template: marksFromPagelets(tree, pagelets, ordinals), info: { pagelets: pagelets.length, templatePagelets: ordinals.length } };
    },
  };
}
