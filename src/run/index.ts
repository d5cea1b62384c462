/**
 * The pipelines users call (DESIGN.md, "run/"), one per command: each takes a source (a PageSource, or a
 * path or URL it opens) and gives an async iterable of per-page outcomes plus a result (template, content,
 * apply, crawl), or a result with its failures and its summary.json (collect, cluster, hits, cocited,
 * report, shards); `writeOutputs` and the `write…` functions write them as their commands do. Each
 * command's whole run from its flags (source opened with the source options, files written) is a
 * `…Command` function (`crawlCommand`, `templateCommand`…; src/run/command.ts): the command line parses,
 * calls it and prints. The command line, the evaluation, the benchmarks and the examples all run through these.
 */
export { detectTemplate, templateCommand, type DetectOptions, type MethodOptions } from './template.ts';
export { extractContent, contentCommand, CONTENT_OPTIONS, type ExtractOptions, type ContentOptions } from './content.ts';
export { learnTemplate, applyTemplate, applyToSource, applyCommand, compileTemplate, type AppliedPage, type ApplyOptions } from './learn.ts';
export { type Template, type TemplateSet, type ApplyInput, type Applier, readTemplate, TemplateError, TEMPLATE_VERSION } from '../template/learned.ts';
export { writeOutputs, recordOf, type WriteOptions, type Written, type WrittenSummary, type PageRecord, type OutputFormat } from './write.ts';
export { crawl, crawlCommand, writeCrawl, type CrawlOptions, type CrawlOutcome, type CrawlPage, type CrawlResult, type CrawlSummary, type GraphFigures } from './crawl.ts';
export { collect, collectCommand, collectSample, writeCollect, type CollectOptions, type CollectResult, type CollectSummary, type IndesitOptions, type IndesitResult } from './collect.ts';
export { cluster, clusterCommand, readGold, writeCluster, type ClusterBy, type ClusterEntry, type ClusterOptions, type ClusterResult } from './cluster.ts';
export { hits, hitsCommand, writeHits, HITS_TOP, type Authority, type Hub, type HitsOptions, type HitsResult, type HitsSummary } from './hits.ts';
export { cocited, cocitedCommand, writeCocited, COCITED_TOP, COCITED_PAGE_WEIGHT, type CocitedOptions, type CocitedResult, type CocitedSummary, type RelatedPage } from './cocited.ts';
export { report, reportCommand, writeReport, REPORT_MAX_SHOWN, type ReportOptions, type ReportRun } from './report.ts';
export { shards, type ShardPhase, type ShardsOptions, type ShardsResult } from './shards.ts';
export { RunStream, RunAbandoned } from './stream.ts';
export { runEngine, type PipelineRun, type RunEngineOptions } from './drive.ts';
export { limitPages, withPages, openWithOptions, type OpenedSource, type SourceHooks } from './source.ts';
export { openForCommand, overSource, pipelineCommand, startPipeline, cutMessage, type CommandHooks, type PipelineDestination } from './command.ts';
export { NO_CONTENT, noContentOf } from './no-content.ts';
export { createWrapperOn, runWrapperOn, PageLoader, type Created, type CreateOnOptions, type ExampleValues, type WrapperPageRun } from './wrapper.ts';
export { runWrapperFile, readWrapperFile, stepsOf, type WrapperFileOptions, type WrapperFileResult } from './wrapper-records.ts';
export { parsePatternFlags, parseExampleFlags, readExamplesFile, selectorAndValue } from './wrapper-syntax.ts';
export * from './options.ts';
export type { CommandSummary, PageDone, PageNotDone, PageOutcome, RunControls, RunError, RunResult, SourceInput } from './types.ts';
