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
