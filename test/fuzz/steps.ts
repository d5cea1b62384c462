/**
 * Every per-page step of gabarit, each a function of one parsed page: what the pathological-shape test,
 * the benchmark and the fuzzer run on every page they make. A step returns a small summary (a number) so
 * that its work cannot be optimised away.
 */
import { TagLists } from '../../src/structure/link-collections.ts';
import { readStructure, schemaOfStructure } from '../../src/structure/page-structure.ts';
import { elementHints } from '../../src/content/hints.ts';
import { chooseMainBlock } from '../../src/content/main-block.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { cssPath, xpathOf } from '../../src/html/paths.ts';
import { selectAll } from '../../src/html/select.ts';
import { serialize } from '../../src/html/serialize.ts';
import { textOf } from '../../src/html/text.ts';
import { tokenize } from '../../src/html/tokens.ts';
import { NodeKind, type Tree } from '../../src/html/tree.ts';
import { evaluateXPath } from '../../src/html/xpath.ts';
import { extractLinks } from '../../src/site/links.ts';
import { analyseTree } from '../../src/template/pagelets/page-analysis.ts';
import { keptText, templateFraction } from '../../src/template/result.ts';

/** A parsed page as the steps see it. */
export interface StepInput {
  html: string;
  url: string;
  tree: Tree;
  labels: LabelTable;
}

/** One per-page step. */
export interface PageStep {
  name: string;
  run(p: StepInput): number;
}

/** Elements to take paths of: the last element, the deepest one and one in the middle. */
function someElements(tree: Tree): number[] {
  let last = -1;
  let deepest = -1;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    last = i;
    if (deepest < 0 || tree.depth[i]! > tree.depth[deepest]!) deepest = i;
  }
  const out = new Set<number>();
  for (const i of [last, deepest, last >> 1]) {
    let e = i;
    while (e > 0 && tree.kind[e] !== NodeKind.Element) e--;
    if (e > 0) out.add(e);
  }
  return [...out];
}

/** Parses a page on the fast path, as every engine does. */
export function parseInput(html: string, url = 'http://shape.test/dir/page.html'): StepInput {
  const labels = new LabelTable();
  return { html, url, tree: parseHtml(html, { labels }), labels };
}

/** The steps after parsing, in pipeline order. */
export const PAGE_STEPS: readonly PageStep[] = [
  { name: 'parse (exact path)', run: (p) => parseHtmlExact(p.html).size },
  { name: 'tokens', run: (p) => tokenize(p.tree, p.labels).length },
  { name: 'text', run: (p) => textOf(p.tree).length },
  { name: 'links', run: (p) => extractLinks(p.tree, p.url).length },
  { name: 'partition + shingles', run: (p) => analyseTree(p.tree, 'page.html', p.url).pagelets.length },
  {
    name: 'page schema',
    run: (p) => {
      const tagLists = new TagLists();
      const s = readStructure(p.tree, p.url, tagLists);
      const schema = schemaOfStructure(s, tagLists, Math.max(0, s.contentDepth));
      return schema.links.length + schema.layout.length + schema.content.length;
    },
  },
  { name: 'hints', run: (p) => elementHints(p.tree).length },
  { name: 'main block', run: (p) => chooseMainBlock(p.tree, new Uint8Array(p.tree.size)).content.length },
  {
    name: 'kept text',
    run: (p) => {
      const template = new Uint8Array(p.tree.size);
      return keptText({ key: 'page.html', url: p.url, tree: p.tree, template }).length + templateFraction({ key: 'page.html', url: p.url, tree: p.tree, template });
    },
  },
  { name: 'serialize', run: (p) => serialize(p.tree).length },
  { name: 'select', run: (p) => selectAll(p.tree, 'div > p, a[href^="/"], li:nth-child(2n+1), td:last-child, b i').length },
  { name: 'xpath', run: (p) => evaluateXPath(p.tree, '//a[@href]').length },
  { name: 'css and xpath of nodes', run: (p) => someElements(p.tree).reduce((n, i) => n + cssPath(p.tree, i).length + xpathOf(p.tree, i).length, 0) },
];
