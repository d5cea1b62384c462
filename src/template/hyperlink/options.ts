/**
 * Options of the hyperlink engine, declared once (src/template/options.ts): types, defaults (defaults.ts),
 * command-line flags and validation.
 */
import { z } from 'zod';
import { declareOptions, finiteNumber, option, type OptionValues, wholeNumber } from '../options.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';

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
