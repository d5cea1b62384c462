/**
 * Options of the pagelets engine, declared once (src/template/options.ts): their types, defaults
 * (defaults.ts), command-line flags and validation. A bad value (a k that is not a whole number, an unknown
 * backend) is an EngineError `bad-option`, from the library as from the command line.
 */
import { z } from 'zod';
import { declareOptions, option, type OptionValues, wholeNumber, WORKERS } from '../options.ts';
import { PAGELET_DEFAULTS } from './defaults.ts';

export const PAGELET_OPTIONS = declareOptions('pagelets', {
  global: option(z.boolean().default(false), {
    description: 'global template detection (paper 3, Figure 5: shingle groups split into linked components); default is the local algorithm (Figure 4)',
  }),
  k: option(wholeNumber(1).default(PAGELET_DEFAULTS.k), { arg: 'n', description: 'k of Definition 2: an element whose child holds at least k links is split into pagelets' }),
  shingleWidth: option(wholeNumber(1).default(PAGELET_DEFAULTS.shingleWidth), { arg: 'n', description: 'tokens per w-shingle of a pagelet' }),
  minhashes: option(wholeNumber(1).max(8, 'must be at most 8').default(PAGELET_DEFAULTS.minhashes), { arg: 'n', description: 'min-hash functions combined into a pagelet fingerprint' }),
  minPages: option(wholeNumber(1).default(PAGELET_DEFAULTS.minTemplatePages), { arg: 'n', description: 'distinct pages a pagelet must appear on to be template' }),
  minSupport: option(z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').default(PAGELET_DEFAULTS.minSupport), {
    arg: 'fraction',
    description: 'fraction of the pages a template must span (capped by --support-cap pages); 0 = the paper\'s "seen twice"',
  }),
  supportCap: option(wholeNumber(1).default(PAGELET_DEFAULTS.supportCap), { arg: 'n', description: 'upper bound, in pages, of the --min-support requirement' }),
  linkTargets: option(z.boolean().default(PAGELET_DEFAULTS.linkTargets), {
    description: "make link target URLs part of a pagelet's shingles (default: anchor text and structure only)",
  }),
  foldDigits: option(z.boolean().default(PAGELET_DEFAULTS.foldDigits), { description: 'keep numbers as they are in shingles (default: every number is one token)' }),
  contentShare: option(z.number().gt(0, 'must be above 0').max(1, 'must be at most 1').default(PAGELET_DEFAULTS.contentShare), {
    arg: 'fraction',
    description: 'share of the text outside links that the content region holds (navigation pagelets lie outside it)',
  }),
  landmarks: option(z.boolean().default(PAGELET_DEFAULTS.landmarks), {
    description: "treat HTML's landmarks (nav, header, footer, aside, their ARIA roles) as any element (default: each is a pagelet of its own, as is a menu's open branch inside one, and a pagelet of links inside one is a navigation pagelet shingled from it)",
  }),
  navigationItems: option(z.boolean().default(PAGELET_DEFAULTS.navigationItems), {
    description: 'shingle navigation pagelets with the words of their list items that are not links (default: a list item counts the same, linked or not, so a bar whose current entry is plain text keeps its shape)',
  }),
  navigationPagelets: option(z.boolean().default(PAGELET_DEFAULTS.navigationPagelets), {
    description: 'shingle pagelets of links outside the content by their words like the others (default: by their place and structure)',
  }),
  backend: option(z.enum(['sql', 'memory']).default('sql'), { arg: 'sql|memory', description: 'where --global runs its relational steps: DuckDB (sql) or in memory' }),
  db: option(z.string().min(1, 'must not be empty').optional(), {
    arg: 'path',
    description: 'site store (DuckDB file) to hold the --global tables, schema "pagelets" (default: a private in-memory DuckDB spilling to a temporary directory)',
  }),
  workers: WORKERS,
  keepTreesUpTo: option(wholeNumber(0).default(PAGELET_DEFAULTS.keepTreesUpTo), { cli: false, description: 'pages up to which parsed trees are kept between the two phases' }),
  workerRecycle: option(wholeNumber(1).default(PAGELET_DEFAULTS.workerRecycle), { cli: false, description: 'pages a pool of worker threads handles before a fresh pool replaces it' }),
});

export type PageletOptions = OptionValues<typeof PAGELET_OPTIONS.shape>;
