/**
 * The hyperlink engine's learned template (src/template/learned.ts). Paper 2's template is a set of nodes
 * of the key page (Definition 3.3), and marking another page maps the key page onto it (an equal top-down
 * mapping restricted to the template, template-extraction.ts), so the template holds the key page itself:
 * its HTML (decoded), the template nodes (preorder ranges of its Tree), the navigation regions
 * (navigation-regions.ts), and the node equality ≜ it was learned with. Compiling parses the key page
 * again (the same parser gives the same Tree: the node count is checked) and applying marks a page as the
 * engine does (page-marks.ts).
 */
import { z } from 'zod';
import { parseHtml } from '../../html/parse.ts';
import { Tree } from '../../html/tree.ts';
import type { Page } from '../../site/page.ts';
import { type Applier, type ApplyInput, inputTree, readData, type Template, TemplateError } from '../learned.ts';
import { FrozenLabels } from '../frozen-labels.ts';
import { AlignmentScratch } from './equal-top-down-mapping.ts';
import type { UnmappedCells } from './defaults.ts';
import { nodeEquality, NodeFeatures } from './node-equality.ts';
import { type LearnedTemplate, markPage } from './page-marks.ts';

/** `data` of a hyperlink template. */
export interface HyperlinkData {
  keyPage: { key: string; url: string };
  /** The key page's HTML (decoded text), and whether it was parsed as XHTML (self-closing tags). */
  html: string;
  xhtml: boolean;
  /** Nodes of the key page's Tree (checked when compiled). */
  nodes: number;
  /** Template nodes of the key page as [start, end) preorder ranges. */
  template: Array<[number, number]>;
  /** Navigation regions (key page nodes). */
  regions: number[];
  equality: {
    threshold: number;
    weightClass: number;
    weightAttributes: number;
    weightChildren: number;
    weightPosition: number;
    ignoreAttributes: string[];
    text: 'exact' | 'kind';
    documentSkeleton: boolean;
    topWrapperDepth: number;
  };
  linkShare: number;
  /** Which pages decided the regions (navigation-regions.ts); 'key' tests a page's images against its content slot. */
  regionsDecidedBy: 'all' | 'key';
  slotShare: number;
  /** Plain-text cells of navigation bars are template (navigation-regions.ts); absent in older templates: false. */
  cells?: boolean | undefined;
  /** Where a bar's unmapped cells are changing cells (defaults.ts); absent in older templates: 'none'. */
  unmappedCells?: UnmappedCells | undefined;
  /** Same-word elements (key page nodes, template-extraction.ts); absent in older templates: none. */
  sameWords?: number[] | undefined;
}

const schema: z.ZodType<HyperlinkData> = z.object({
  keyPage: z.object({ key: z.string(), url: z.string() }),
  html: z.string(),
  xhtml: z.boolean(),
  nodes: z.number().int().min(1),
  template: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
  regions: z.array(z.number().int().min(0)),
  equality: z.object({
    threshold: z.number(),
    weightClass: z.number(),
    weightAttributes: z.number(),
    weightChildren: z.number(),
    weightPosition: z.number(),
    ignoreAttributes: z.array(z.string()),
    text: z.enum(['exact', 'kind']),
    documentSkeleton: z.boolean(),
    topWrapperDepth: z.number().int().min(0),
  }),
  linkShare: z.number(),
  regionsDecidedBy: z.enum(['all', 'key']),
  slotShare: z.number(),
  cells: z.boolean().optional(),
  unmappedCells: z.enum(['none', 'breadcrumbs', 'anywhere']).optional(),
  sameWords: z.array(z.number().int().min(0)).optional(),
});

/** Ranges [start, end) of the 1s of a mark array. */
function ranges(marks: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < marks.length; i++) {
    if (marks[i] !== 1) continue;
    let j = i;
    while (j < marks.length && marks[j] === 1) j++;
    out.push([i, j]);
    i = j;
  }
  return out;
}

/** The data of a learned template (`keyText`: the key page's decoded text, which its Tree was parsed from). */
export function hyperlinkData(l: LearnedTemplate, keyPage: Page, keyText: string): HyperlinkData {
  const eq = l.eq;
  const ct = keyPage.headers['content-type'] ?? '';
  return {
    keyPage: { key: keyPage.key, url: keyPage.url },
    html: keyText,
    xhtml: ct.includes('xhtml') || /\.xhtml$/i.test(keyPage.key),
    nodes: l.key.tree.size,
    template: ranges(l.template),
    regions: [...l.regions],
    equality: {
      threshold: eq.threshold,
      weightClass: eq.weightClass,
      weightAttributes: eq.weightAttributes,
      weightChildren: eq.weightChildren,
      weightPosition: eq.weightPosition,
      ignoreAttributes: [...eq.ignoreAttributes],
      text: eq.text,
      documentSkeleton: eq.documentSkeleton,
      topWrapperDepth: eq.topWrapperDepth,
    },
    linkShare: l.linkShare,
    regionsDecidedBy: l.regionsDecidedBy,
    slotShare: l.slotShare,
    cells: l.cells,
    unmappedCells: l.unmappedCells,
    sameWords: [...l.sameWords],
  };
}

/** Compiles a hyperlink template for applying (parses its key page once). */
export function compileHyperlink(template: Template): Applier {
  const d = readData(template, schema);
  const labels = new FrozenLabels({}, []);
  const keyTree = parseHtml(d.html, { labels, selfClosing: d.xhtml });
  if (keyTree.size !== d.nodes) throw new TemplateError(`hyperlink template: its key page parses into ${keyTree.size} nodes, not the ${d.nodes} it was learned on`);
  const marks = new Uint8Array(keyTree.size);
  for (const [a, b] of d.template) {
    if (b > keyTree.size || a > b) throw new TemplateError(`hyperlink template: node range [${a}, ${b}) outside the key page`);
    marks.fill(1, a, b);
  }
  for (const e of d.sameWords ?? []) if (e >= keyTree.size) throw new TemplateError(`hyperlink template: same-word element ${e} outside the key page`);
  let eq;
  try {
    eq = nodeEquality(d.equality);
  } catch (err) {
    throw new TemplateError(`hyperlink template: ${(err as Error).message}`);
  }
  const learned: LearnedTemplate = { eq, key: new NodeFeatures(keyTree, eq), template: marks, regions: d.regions, linkShare: d.linkShare, regionsDecidedBy: d.regionsDecidedBy, slotShare: d.slotShare, cells: d.cells ?? false, unmappedCells: d.unmappedCells ?? 'none', sameWords: d.sameWords ?? [] };
  const scratch = new AlignmentScratch();
  return {
    template,
    apply(input: ApplyInput) {
      const tree = input instanceof Tree ? input : inputTree(input, labels);
      return { tree, template: markPage(learned, new NodeFeatures(tree, eq), scratch), info: {} };
    },
  };
}
