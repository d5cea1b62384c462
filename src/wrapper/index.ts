/**
 * `gabarit/wrapper`: self-healing wrappers (paper 5) in full: creating a wrapper from a page or from
 * examples, running and updating it, reading and validating wrapper files, adapting a pattern to a changed
 * page, and the tree-matching algorithms adaptation uses; for tools that build wrappers interactively,
 * patterns proposed for a node, selector previews over pages, inferred constraints and run summaries
 * (docs/wrapper.md, "For tools that build wrappers").
 */
export {
  createWrapper,
  createFromExamples,
  findValue,
  inferConstraints,
  inferType,
  type CreateOptions,
  type ExampleChoice,
  type ExamplePage,
  type Occurrence,
  type PatternSpec,
} from './create.ts';
export { runWrapper, updateWrapper, selectPattern, collapseRepeats, type NotFoundReason, type PageRun, type PatternReport, type RunOptions, type WrapperRecord } from './run.ts';
export { parseWrapper, validateWrapper, WrapperError, WRAPPER_VERSION, WRAPPER_VERSIONS, type Constraints, type Pattern, type Wrapper } from './wrapper.ts';
export { suggestPattern, suggestPatterns, FORM_ROBUSTNESS, type PatternSuggestion, type SuggestOptions, type SuggestionForm, type ValueMode } from './suggest.ts';
export { previewSelector, summarizeRuns, type PatternTally, type PreviewPage, type RunsSummary, type SelectorPreview } from './design.ts';
export { valueOf, textAfter } from './value.ts';
export { labelOf, placeOf, learnChoose, tellApart, type Choose, type Label } from './label.ts';
export { valueKind, type ValueKind } from './constraints.ts';
export { adapt, type Adaptation, type AdaptOptions, type Step } from './adapt.ts';
export { simpleTreeMatching } from './match/simple.ts';
export { clusteredTreeMatching } from './match/clustered.ts';
