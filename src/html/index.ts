/**
 * `gabarit/html`: the HTML layer in full (DESIGN.md, "The compact Tree"): parsing to a Tree, node labels,
 * the token sequences of paper 1, text, serialisation, CSS selectors, XPath and node paths, charset
 * detection. It knows nothing of sites or engines.
 */
export { Tree, NodeKind, tagId, tagName } from './tree.ts';
export { parseHtml, parseHtmlExact, type ParseOptions } from './parse.ts';
export { LabelTable, type LabelOptions, type LabelAttributes } from './labels.ts';
export { decodeHtml, type Decoded } from './charset.ts';
export { tokenize, TokenType, type TokenSequence, type TokenOptions } from './tokens.ts';
export { textOf } from './text.ts';
export { serialize, type SerializeOptions } from './serialize.ts';
export { selectAll, selectOne, matches, compileSelector, type CompiledSelector } from './select.ts';
export { cssPath, cssPathWithin, xpathOf } from './paths.ts';
export { evaluateXPath, evaluateXPathValue } from './xpath.ts';
