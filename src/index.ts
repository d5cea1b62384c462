/**
 * gabarit: learn the structure of websites from their pages. The public API.
 */
export { Tree, TreeBuilder, NodeKind, tagId, tagName } from './html/tree.ts';
export { LabelTable, type LabelOptions, type LabelAttributes } from './html/labels.ts';
export { parseHtml, parseHtmlExact, type ParseOptions } from './html/parse.ts';
export { decodeHtml, type Decoded } from './html/charset.ts';
export { tokenize, TokenType, type TokenSequence, type TokenOptions } from './html/tokens.ts';
export { textOf } from './html/text.ts';
export { serialize, type SerializeOptions } from './html/serialize.ts';
export { type Page, type PageSource, type PageResult, parsePage, pageText } from './site/page.ts';
export { type PageMarks, keptText, markSubtree, templateFraction } from './template/result.ts';
export { type TemplateEngine, type EngineContext, type EngineRun } from './template/engine.ts';
export { loadEngine } from './template/engines.ts';
export { OutputWriter, type Summary, type PageFailure } from './output.ts';
export { GabaritError, PageError, UsageError, EngineError, type PageErrorCode } from './errors.ts';
export { DEFAULTS } from './defaults.ts';
export { selectAll, selectOne, matches, compileSelector, type CompiledSelector } from './html/select.ts';
export { cssPath, cssPathWithin, xpathOf } from './html/paths.ts';
export { evaluateXPath, evaluateXPathValue } from './html/xpath.ts';
export { extractLinks, normalizeUrl, registrableDomain, sameSite, type Link } from './site/links.ts';
export { openSource, type SourceOptions } from './site/source.ts';
export { DirSource } from './site/dir-source.ts';
export { WarcSource, writeWarc } from './site/warc-source.ts';
export { HttpSource } from './site/http-source.ts';
export { MemorySource } from './site/memory-source.ts';
export { Fetcher } from './site/fetch.ts';
export { LinkGraph } from './site/graph.ts';
export { serveDirectory } from './site/serve.ts';
export { Store } from './store/store.ts';
export { words, contentScore, templateNodeScore, purity, adjustedRandIndex } from './eval/metrics.ts';
export { clusterByContent } from './cluster/content.ts';
export { indesit } from './collect/indesit.ts';
export { clusterSourceBySchema } from './cluster/schema.ts';
export { chooseMainBlock } from './content/main-block.ts';
export { contentEngine } from './content/engine.ts';
export { buildReport } from './report/build.ts';
export {
  createWrapper,
  createFromExamples,
  findValue,
  inferConstraints,
  inferType,
  type PatternSpec,
  type CreateOptions,
  type ExamplePage,
  type ExampleChoice,
  type Occurrence,
} from './wrapper/create.ts';
export { runWrapper, updateWrapper, selectPattern, type PageRun, type PatternReport, type NotFoundReason, type RunOptions, type WrapperRecord } from './wrapper/run.ts';
export { parseWrapper, validateWrapper, WrapperError, WRAPPER_VERSION, type Wrapper, type Pattern, type Constraints } from './wrapper/wrapper.ts';
export { suggestPattern, suggestPatterns, type PatternSuggestion, type SuggestOptions, type SuggestionForm, type ValueMode } from './wrapper/suggest.ts';
export { previewSelector, summarizeRuns, type PreviewPage, type SelectorPreview, type RunsSummary, type PatternTally } from './wrapper/design.ts';
export { valueOf, textAfter } from './wrapper/value.ts';
export { adapt } from './wrapper/adapt.ts';
export { clusteredTreeMatching } from './wrapper/match/clustered.ts';
export { simpleTreeMatching } from './wrapper/match/simple.ts';
