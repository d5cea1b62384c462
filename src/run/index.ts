/**
 * The pipelines users call (DESIGN.md, "run/"): each takes a source (a PageSource, or a path or URL it
 * opens) and gives an async iterable of per-page outcomes plus a result; `writeOutputs` writes a run as the
 * output contract or as jsonl records. The command line, the evaluation, the benchmarks and the examples
 * all run through these.
 */
export { detectTemplate, type DetectOptions, type MethodOptions } from './template.ts';
export { extractContent, CONTENT_OPTIONS, type ExtractOptions, type ContentOptions } from './content.ts';
export { learnTemplate, applyTemplate, applyToSource, compileTemplate, type AppliedPage, type ApplyOptions } from './learn.ts';
export { type Template, type TemplateSet, type ApplyInput, type Applier, readTemplate, TemplateError, TEMPLATE_VERSION } from '../template/learned.ts';
export { writeOutputs, recordOf, type WriteOptions, type Written, type WrittenSummary, type PageRecord, type OutputFormat } from './write.ts';
export { crawl, writeCrawl, type CrawlOptions, type CrawlOutcome, type CrawlPage, type CrawlResult, type CrawlSummary, type GraphFigures } from './crawl.ts';
export { collect, type IndesitOptions, type IndesitResult } from './collect.ts';
export { report, writeReport, REPORT_MAX_SHOWN, type ReportOptions } from './report.ts';
export { RunStream, RunAbandoned } from './stream.ts';
export { runEngine, type PipelineRun, type RunEngineOptions } from './drive.ts';
export { limitPages, withPages } from './source.ts';
export { NO_CONTENT, noContentOf } from './no-content.ts';
export { createWrapperOn, runWrapperOn, PageLoader, type Created, type CreateOnOptions, type ExampleValues, type WrapperPageRun } from './wrapper.ts';
export type { PageDone, PageNotDone, PageOutcome, RunControls, RunError, RunResult, SourceInput } from './types.ts';
