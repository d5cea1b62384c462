/**
 * Options of the align engine, declared once (src/template/options.ts): types, defaults (defaults.ts),
 * command-line flags and validation.
 */
import { z } from 'zod';
import { declareOptions, option, type OptionValues, wholeNumber } from '../options.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';

/** Options of the align engine (`gabarit template --method align`, `learnTemplate(…, { method: 'align' })`). */
export const ALIGN_OPTIONS = declareOptions('align', {
  sample: option(wholeNumber(1).default(ALIGN_DEFAULTS.sample), {
    arg: 'n',
    description: 'number of sample pages the template is learned from (paper 1: 16), spread over the site',
  }),
  minEvidence: option(z.number().gt(0, 'must be above 0').max(1, 'must be at most 1').default(ALIGN_DEFAULTS.minEvidence), {
    arg: 'fraction',
    description: 'a consensus token is kept when at least this fraction of the pages below it support it',
  }),
  duplicateScore: option(z.number().gt(0, 'must be above 0').max(1, 'must be at most 1').default(ALIGN_DEFAULTS.duplicateScore), {
    arg: 'score',
    description: 'sample pages whose own text overlaps this much (Jaccard of word shingles not on other sample pages) are copies of one page: one is kept (1: identical text only)',
  }),
  mismatch: option(z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').max(0, 'must be at most 0').default(ALIGN_DEFAULTS.mismatch), {
    arg: 'score',
    description: 'score of a column of two different tokens (gap -1, match 1): 0 as in paper 1, -2 to maximise the matched tokens',
  }),
  lineRule: option(z.boolean().default(ALIGN_DEFAULTS.lineRule), {
    description: 'mark matched text as template even when its line of text holds kept text (default: such a line is kept whole)',
  }),
  languages: option(z.boolean().default(true), {
    description: 'learn one template for all pages even when the site declares several languages (default: one per language)',
  }),
  navigationRegions: option(z.boolean().default(ALIGN_DEFAULTS.navigationRegions), {
    description: 'do not treat template elements whose changing text is made of links (tables of contents, open menu sections) as template',
  }),
});
export type AlignOptions = OptionValues<typeof ALIGN_OPTIONS.shape>;
