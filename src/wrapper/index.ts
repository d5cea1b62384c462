/**
 * `gabarit/wrapper`: self-healing wrappers (paper 5) in full: creating a wrapper from a page or from
 * examples, running and updating it, reading and validating wrapper files, adapting a pattern to a changed
 * page, and the tree-matching algorithms adaptation uses.
 */
export { createWrapper, createFromExamples, type CreateOptions, type ExamplePage, type PatternSpec } from './create.ts';
export { runWrapper, updateWrapper, type PageRun, type PatternReport, type RunOptions, type WrapperRecord } from './run.ts';
export { parseWrapper, validateWrapper, WrapperError, type Pattern, type Wrapper } from './wrapper.ts';
export { adapt, type Adaptation, type AdaptOptions, type Step } from './adapt.ts';
export { simpleTreeMatching } from './match/simple.ts';
export { clusteredTreeMatching } from './match/clustered.ts';
