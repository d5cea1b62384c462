/**
 * Options of the hyperlink engine, declared once (src/template/options.ts): types, defaults (defaults.ts),
 * command-line flags and validation.
 */
import { z } from 'zod';
import { EngineError } from '../../errors.ts';
import { BAD_OPTION, declareOptions, finiteNumber, option, type OptionValues, wholeNumber } from '../options.ts';
import { HYPERLINK_DEFAULTS, type UnmappedCells } from './defaults.ts';
import type { LinkOrder } from './link-order.ts';
import { nodeEquality, type NodeEquality } from './node-equality.ts';

/** Options of the hyperlink engine, declared once (types, defaults, flags, validation). */
export const HYPERLINK_OPTIONS = declareOptions('hyperlink', {
  key: option(z.string().min(1, 'must not be empty').optional(), { arg: 'url-or-key', description: "the key page (URL or key relative to the source root); default: the source's entry page" }),
  n: option(wholeNumber(2).default(HYPERLINK_DEFAULTS.n), { arg: 'n', description: 'size of the complete subdigraph to look for (paper: 4)' }),
  maxLoad: option(wholeNumber(1).default(HYPERLINK_DEFAULTS.maxLoad), { arg: 'n', description: 'most pages loaded to find it' }),
  loadBudget: option(wholeNumber(1).default(HYPERLINK_DEFAULTS.loadBudget), { arg: 'n', description: 'pages loaded after which a complete subdigraph of at least 3 pages found so far is taken rather than loading on toward n' }),
  linkOrder: option(z.enum(['density', 'document', 'proximity']).default(HYPERLINK_DEFAULTS.linkOrder), {
    arg: 'order',
    description: "order of the key page's links: density (menus first), document (the paper's), or proximity (the key page's folder first, then density)",
  }),
  equalityThreshold: option(finiteNumber().default(HYPERLINK_DEFAULTS.threshold), { arg: 'x', description: 'node equality: two nodes are equal when ≜ >= x' }),
  weightClass: option(finiteNumber().default(HYPERLINK_DEFAULTS.weightClass), { arg: 'w', description: 'node equality: weight of the class names' }),
  weightAttributes: option(finiteNumber().default(HYPERLINK_DEFAULTS.weightAttributes), { arg: 'w', description: 'node equality: weight of the other attributes' }),
  weightChildren: option(finiteNumber().default(HYPERLINK_DEFAULTS.weightChildren), { arg: 'w', description: 'node equality: weight of the number of children' }),
  weightPosition: option(finiteNumber().default(HYPERLINK_DEFAULTS.weightPosition), { arg: 'w', description: 'node equality: weight of the relative position among siblings' }),
  textEquality: option(z.enum(['exact', 'kind']).default('exact'), { arg: 'mode', description: 'node equality of texts: exact (same text) or kind (any text)' }),
  documentSkeleton: option(z.boolean().default(HYPERLINK_DEFAULTS.documentSkeleton), { description: 'node equality: compare <html>, <head>, <body> by their attributes too (default: always equal)' }),
  topWrapperDepth: option(wholeNumber(0).default(HYPERLINK_DEFAULTS.topWrapperDepth), { arg: 'n', description: 'node equality: levels below <body> where a tag-unique wrapper is compared without its classes (0: none)' }),
  navigationRegions: option(z.boolean().default(true), { description: 'do not treat link-made regions with changing text as template' }),
  navigationLinkShare: option(z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').default(HYPERLINK_DEFAULTS.navigationLinkShare), {
    arg: 'x',
    description: 'navigation regions: share of the changing text that must be link text',
  }),
  regionsDecidedBy: option(z.enum(['all', 'key']).default(HYPERLINK_DEFAULTS.regionsDecidedBy), {
    arg: 'pages',
    description: 'navigation regions: decided by all (the key page and every CS page) or key (the key page alone)',
  }),
  navigationBars: option(z.boolean().default(HYPERLINK_DEFAULTS.navigationBars), { description: "navigation bars: do not take a bar's plain-text cells (a breadcrumb's current entry) for template, nor a region of mostly fixed text beside a short content slot for navigation" }),
  unmappedCells: option(z.enum(['none', 'breadcrumbs', 'anywhere']).default(HYPERLINK_DEFAULTS.unmappedCells), {
    arg: 'where',
    description: "navigation bars: a cell the mapping left unmapped (a breadcrumb's entry beyond the other pages' depth) is a changing cell in breadcrumbs (by their markup), in any bar, or none",
  }),
  agreeingPages: option(wholeNumber(1).default(HYPERLINK_DEFAULTS.agreeingPages), {
    arg: 'n',
    description: 'fewest CS pages of the key page\'s template the template rests on: when setting pages of another template aside leaves fewer, further linked pages are loaded and, failing that, none is set aside',
  }),
  differentTemplateShare: option(z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').default(HYPERLINK_DEFAULTS.differentTemplateShare), {
    arg: 'x',
    description: "a CS page sharing less than this share of the key page's texts that the best CS page shares is set aside as another template",
  }),
  pageClasses: option(z.boolean().default(HYPERLINK_DEFAULTS.pageClasses), { description: "do not set aside CS pages whose structure (page schema, as INDESIT reads it) is of another page class than the key page's" }),
  sameWords: option(z.boolean().default(HYPERLINK_DEFAULTS.sameWords), { description: "do not take for template a template element whose words are the same on every CS page while its markup differs (a bar's entry, a link on one page and plain text on another)" }),
  siblings: option(z.boolean().default(true), { description: "when no 2-CS exists, do not complete the set with the key page's siblings" }),
});

export type HyperlinkOptionValues = OptionValues<typeof HYPERLINK_OPTIONS.shape>;

/** The engine's options, resolved. */
export interface HyperlinkOptions {
  key: string | undefined;
  n: number;
  maxLoad: number;
  /** Pages loaded after which a CS of at least 3 pages is taken (complete-subdigraph.ts). */
  loadBudget: number;
  linkOrder: LinkOrder;
  equality: NodeEquality;
  navigationRegions: boolean;
  /** Share of a region's changing text that must be link text (navigation-regions.ts). */
  linkShare: number;
  /** Which pages decide that a region is navigation (navigation-regions.ts). */
  regionsDecidedBy: 'all' | 'key';
  /** Navigation bars (defaults.ts): plain-text cells of a bar, and bars beside a stub's content slot. */
  navigationBars: boolean;
  /** Where a bar's unmapped cells are changing cells (defaults.ts). */
  unmappedCells: UnmappedCells;
  /** Fewest pages of the key page's template the template rests on (defaults.ts). */
  agreeingPages: number;
  /** A CS page sharing less than this share of the key page's texts that the best one shares is set aside. */
  differentTemplateShare: number;
  /** Set aside CS pages of another page class than the key page's (page-classes.ts). */
  pageClasses: boolean;
  /** Same-word elements are template whole (template-extraction.ts `sameWordElements`). */
  sameWords: boolean;
  siblings: boolean;
}

/** Reads engine options (any subset, validated) into HyperlinkOptions; throws EngineError `bad-option`. */
export function readOptions(input: Readonly<Record<string, unknown>>): HyperlinkOptions {
  const o = HYPERLINK_OPTIONS.parse(input);
  let equality: NodeEquality;
  try {
    equality = nodeEquality({
      threshold: o.equalityThreshold,
      weightClass: o.weightClass,
      weightAttributes: o.weightAttributes,
      weightChildren: o.weightChildren,
      weightPosition: o.weightPosition,
      text: o.textEquality,
      documentSkeleton: o.documentSkeleton,
      topWrapperDepth: o.topWrapperDepth,
    });
  } catch (err) {
    throw new EngineError(BAD_OPTION, (err as Error).message);
  }
  return {
    key: o.key,
    n: o.n,
    maxLoad: o.maxLoad,
    loadBudget: o.loadBudget,
    linkOrder: o.linkOrder,
    equality,
    navigationRegions: o.navigationRegions,
    linkShare: o.navigationLinkShare,
    regionsDecidedBy: o.regionsDecidedBy,
    navigationBars: o.navigationBars,
    unmappedCells: o.unmappedCells,
    agreeingPages: o.agreeingPages,
    differentTemplateShare: o.differentTemplateShare,
    pageClasses: o.pageClasses,
    sameWords: o.sameWords,
    siblings: o.siblings,
  };
}
