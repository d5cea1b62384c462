/**
 * gabarit: learn the structure of websites from their pages. The root API, what a user needs for each task:
 * parse pages, open a source, run a template or content engine and write its outputs, wrappers, collect
 * and cluster pages, a report. More of each layer is in the subpaths: `gabarit/html` (the whole HTML layer:
 * tokens, labels, selectors, XPath, charset), `gabarit/site` (every kind of source, fetching, links, the
 * site store), `gabarit/wrapper` (wrapper files and the tree-matching algorithms).
 *
 * Importing the root loads neither the HTTP stack, the WARC reader nor DuckDB: `openSource` and
 * `loadEngine` load them when a source or an engine needs them.
 */
// Pages as compact trees (html/)
export { parseHtml, parseHtmlExact, type ParseOptions } from './html/parse.ts';
export { Tree, NodeKind } from './html/tree.ts';
export { LabelTable } from './html/labels.ts';
export { textOf } from './html/text.ts';
export { serialize, type SerializeOptions } from './html/serialize.ts';
export { selectAll, selectOne } from './html/select.ts';

// Sources of pages (site/)
export { openSource, type SourceOptions } from './site/source.ts';
export { MemorySource } from './site/memory-source.ts';
export { type Page, type PageSource, type PageResult, parsePage } from './site/page.ts';
export { LinkGraph } from './site/graph.ts';

// The pipelines (run/): template, content, learn once and apply many, outputs
export { detectTemplate, templateCommand, type DetectOptions } from './run/template.ts';
export { extractContent, contentCommand, type ExtractOptions } from './run/content.ts';
export { learnTemplate, applyTemplate, applyToSource, applyCommand, compileTemplate, type AppliedPage, type ApplyOptions } from './run/learn.ts';
export { writeOutputs, type WriteOptions, type Written, type PageRecord } from './run/write.ts';
export { runEngine, type PipelineRun } from './run/drive.ts';
export type { PageOutcome, PageDone, PageNotDone, RunResult, RunControls, SourceInput, CommandSummary } from './run/types.ts';
export { type Template, type TemplateSet, type ApplyInput, readTemplate, TemplateError } from './template/learned.ts';
export { crawl, crawlCommand, writeCrawl, type CrawlResult } from './run/crawl.ts';
export { report, reportCommand, writeReport, type ReportRun } from './run/report.ts';
// Each command's run from its flags (`…Command`), with what it tells as it goes (CommandHooks).
export { openForCommand, pipelineCommand, type CommandHooks, type PipelineDestination } from './run/command.ts';
// `shards` loads the sharded pagelets pipeline (DuckDB, or Spark) when called.
export { shards, type ShardPhase, type ShardsOptions, type ShardsResult } from './run/shards.ts';

// Template engines (papers 1–3), main content, and their outputs
export { loadEngine } from './template/engines.ts';
export { type TemplateEngine, type EngineContext, type EngineRun } from './template/engine.ts';
export { type PageMarks, keptText, templateFraction } from './template/result.ts';
export { contentEngine, type ContentEngineOptions } from './content/engine.ts';
export { extractMainContent, type MainContent, type MainContentOptions } from './content/extract.ts';
export { OutputWriter, type Summary, type PageFailure } from './output.ts';

// Pages like a sample (paper 4), pages grouped by structure or content, the pagelet graph (paper 3, section 4)
// `collect` (also named `indesit`) loads the collector and its HTTP stack when called. Each is what its
// command runs (`gabarit collect`, `cluster`, `hits`, `cocited`), with a `write…` for the command's files.
export { collect, collect as indesit, collectCommand, collectSample, writeCollect, type CollectOptions, type CollectResult, type CollectSummary, type IndesitOptions, type IndesitResult } from './run/collect.ts';
export { cluster, clusterCommand, writeCluster, type ClusterBy, type ClusterEntry, type ClusterOptions, type ClusterResult } from './run/cluster.ts';
export { hits, hitsCommand, writeHits, type Authority, type Hub, type HitsOptions, type HitsResult, type HitsSummary } from './run/hits.ts';
export { cocited, cocitedCommand, writeCocited, type CocitedOptions, type CocitedResult, type CocitedSummary, type RelatedPage } from './run/cocited.ts';
export { clusterSourceBySchema, clusterSourceByShape, clusterSourceByStructure, type SchemaClustering, type ShapeClusteringResult, type StructureClustering } from './cluster/schema.ts';
export { clusterByContent, type ContentClustering } from './cluster/content.ts';


// Self-healing wrappers (paper 5)
export { createWrapper, type PatternSpec } from './wrapper/create.ts';
export { runWrapper, updateWrapper, type PageRun } from './wrapper/run.ts';
export { parseWrapper, type Wrapper } from './wrapper/wrapper.ts';
export { createWrapperOn, runWrapperOn, type Created, type CreateOnOptions, type ExampleValues, type WrapperPageRun } from './run/wrapper.ts';
export { runWrapperFile, readWrapperFile, type WrapperFileOptions, type WrapperFileResult } from './run/wrapper-records.ts';
export { parsePatternFlags, parseExampleFlags, readExamplesFile } from './run/wrapper-syntax.ts';

// Errors and defaults
export { GabaritError, PageError, UsageError, EngineError, type PageErrorCode } from './errors.ts';
export { DEFAULTS } from './defaults.ts';
// The commands' options, each declared once (type, default, range, help), as the command line takes them
export { SOURCE_OPTIONS, COLLECT_OPTIONS, CLUSTER_OPTIONS, HITS_OPTIONS, COCITED_OPTIONS, CRAWL_OPTIONS, REPORT_OPTIONS, TEMPLATE_OPTIONS, CONTENT_COMMAND_OPTIONS, type SourceFlags } from './run/options.ts';
