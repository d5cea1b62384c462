/**
 * Algorithm 2 and Definition 3.3 of paper 2 (Alarte et al., "Web Template Extraction Based on Hyperlink
 * Analysis", section 4.2): the template of a key page p0 with respect to pages P = {p1..pn} is the set of
 * p0's nodes that an equal top-down mapping (equal-top-down-mapping.ts) pairs with a node of every pi.
 *
 * Algorithm 2 refines the template page by page, skipping a page whose root is not ≜ the key page's. We
 * compute each ETDM between the key page and pi on the whole key page and intersect (Definition 3.3
 * literally), so that the template does not depend on the order of P (an invariance the tests check);
 * the intersection of top-down mappings is itself closed under parent, so the result is a tree.
 *
 * Marking another page of the site uses the same mapping: the ETDM from the template (the key page
 * restricted to its template nodes) to that page; the page's nodes paired with template nodes are its
 * template nodes.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { AlignmentScratch, equalTopDownMapping, mappingSize } from './equal-top-down-mapping.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { type NodeEquality, NodeFeatures } from './node-equality.ts';

/** One page of the CS as Algorithm 2 sees it. */
export interface TemplatePage {
  key: string;
  features: NodeFeatures;
}

export interface ExtractedTemplate {
  /** 1 for the key page's template nodes (length key tree size). */
  template: Uint8Array;
  /** Number of template nodes. */
  size: number;
  /** Per CS page: nodes of the key page its ETDM pairs, or 0 when the roots are not equal (skipped). */
  mapped: Array<{ key: string; mapped: number }>;
  /** CS pages whose root is not ≜ the key page's (Algorithm 2 skips them). */
  skipped: string[];
  /** Per CS page used: its ETDM from the key page (key node → page node, -1 when unmapped). */
  maps: Array<{ key: string; features: NodeFeatures; map: Int32Array }>;
}

/** Algorithm 2 / Definition 3.3: the key page's nodes mapped in every page of `pages`. */
export function extractTemplate(eq: NodeEquality, key: NodeFeatures, pages: readonly TemplatePage[], scratch = new AlignmentScratch()): ExtractedTemplate {
  const n = key.tree.size;
  const count = new Int32Array(n);
  const mapped: ExtractedTemplate['mapped'] = [];
  const skipped: string[] = [];
  const maps: ExtractedTemplate['maps'] = [];
  let used = 0;
  for (const p of pages) {
    const map = equalTopDownMapping(eq, key, p.features, { scratch });
    const m = mappingSize(map);
    mapped.push({ key: p.key, mapped: m });
    if (m === 0) {
      skipped.push(p.key);
      continue;
    }
    used++;
    maps.push({ key: p.key, features: p.features, map });
    for (let i = 0; i < n; i++) if (map[i]! >= 0) count[i]!++;
  }
  const template = new Uint8Array(n);
  let size = 0;
  if (used > 0) {
    for (let i = 0; i < n; i++) {
      if (count[i] === used) {
        template[i] = 1;
        size++;
      }
    }
  }
  return { template, size, mapped, skipped, maps };
}

/**
 * Template marks of any page of the site: the ETDM from the key page restricted to its template onto
 * `page`; the page's nodes paired with template nodes get 1. For the key page itself, pass the key
 * features (the result is the template).
 */
export function markWithTemplate(eq: NodeEquality, key: NodeFeatures, template: Uint8Array, page: NodeFeatures, scratch = new AlignmentScratch()): { marks: Uint8Array; map: Int32Array } {
  const marks = new Uint8Array(page.tree.size);
  if (page === key) {
    marks.set(template);
    const map = new Int32Array(template.length).fill(-1);
    for (let i = 0; i < map.length; i++) if (template[i] === 1) map[i] = i;
    return { marks, map };
  }
  const map = equalTopDownMapping(eq, key, page, { restrict: template, scratch });
  imageOf(map, marks);
  return { marks, map };
}

/** Sets marks[j] = 1 for every node j that `map` reaches. */
export function imageOf(map: Int32Array, marks: Uint8Array): Uint8Array {
  for (let i = 0; i < map.length; i++) {
    const j = map[i]!;
    if (j >= 0) marks[j] = 1;
  }
  return marks;
}

/** Features of a tree for ≜ (a convenience re-export for callers that hold a Tree). */
export function featuresOf(tree: Tree, eq: NodeEquality): NodeFeatures {
  return new NodeFeatures(tree, eq);
}

/** 1 on the page nodes that are images of template nodes under `map`. */
export function imageOfTemplate(template: Uint8Array, map: Int32Array, size: number): Uint8Array {
  const marks = new Uint8Array(size);
  for (let i = 0; i < map.length; i++) if (template[i] === 1 && map[i]! >= 0) marks[map[i]!] = 1;
  return marks;
}

/**
 * CS pages of another template than the key page's (a tag page that lists the key page's posts in full
 * shares their text, which would be taken for template): a page whose ETDM pairs
 * fewer than `share` (default `DIFFERENT_TEMPLATE_SHARE`) of the key page's texts that the best page pairs is left out
 * (only when at least one other page remains). Shared texts, not shared nodes, because the ETDM also pairs
 * the content slot's skeleton, whose size follows the content, not the template.
 */
export function differentTemplates(key: NodeFeatures, ext: ExtractedTemplate, share: number = DIFFERENT_TEMPLATE_SHARE): Array<{ key: string; shared: number; best: number }> {
  if (ext.maps.length < 2) return [];
  const tree = key.tree;
  const shared = ext.maps.map((m) => {
    let s = 0;
    for (let i = 0; i < tree.size; i++) if (tree.kind[i] === 2 && m.map[i]! >= 0) s++;
    return s;
  });
  const best = Math.max(...shared);
  const out: Array<{ key: string; shared: number; best: number }> = [];
  shared.forEach((s, k) => {
    if (s < share * best) out.push({ key: ext.maps[k]!.key, shared: s, best });
  });
  return out.length < ext.maps.length ? out : [];
}

/** The default of `differentTemplates`' share (defaults.ts says why). */
export const DIFFERENT_TEMPLATE_SHARE = HYPERLINK_DEFAULTS.differentTemplateShare;

/**
 * The words of the subtree of `i` (letters and digits, any script), space-separated: markup, punctuation
 * and spacing aside ("Required&nbsp;|&nbsp;" and "<a>Required</a> | " are both "Required").
 */
export function wordsOf(tree: Tree, i: number): string {
  const out: string[] = [];
  for (let k = i; k < tree.end[i]!; k++) {
    if (tree.kind[k] !== NodeKind.Text) continue;
    const w = tree.nodeText(k).match(WORDS);
    if (w) out.push(...w);
  }
  return out.join(' ');
}
const WORDS = /[\p{L}\p{N}]+/gu;

/**
 * Same-word elements (ours, a reading of Definition 3.3): a template element of the key page holding words
 * the ETDM left out of the template, whose image on every CS page holds the same words. The template is
 * what repeats on every page; a bar's entry written as a link on one page and as plain text on another (a
 * Javadoc's "Required | Optional" where a class has such members or not, a menu's current entry) repeats
 * its words at the same mapped place, only its markup differs, which ≜ cannot pair. The topmost such
 * elements, in preorder; the caller marks their subtrees (`markSameWords`).
 */
export function sameWordElements(tree: Tree, template: Uint8Array, pages: ReadonlyArray<{ tree: Tree; map: Int32Array }>): number[] {
  const body = tree.body();
  const out: number[] = [];
  if (pages.length === 0 || body < 0) return out;
  for (let r = body + 1; r < tree.end[body]!; ) {
    if (template[r] !== 1 || tree.kind[r] !== NodeKind.Element) {
      r = template[r] !== 1 ? tree.end[r]! : r + 1;
      continue;
    }
    let open = false;
    for (let k = r; k < tree.end[r]! && !open; k++) if (tree.kind[k] === NodeKind.Text && template[k] !== 1 && WORD.test(tree.nodeText(k))) open = true;
    if (!open) {
      r = tree.end[r]!;
      continue;
    }
    const words = wordsOf(tree, r);
    if (pages.every((p) => p.map[r]! >= 0 && wordsOf(p.tree, p.map[r]!) === words)) {
      out.push(r);
      r = tree.end[r]!;
    } else r++;
  }
  return out;
}
const WORD = /[\p{L}\p{N}]/u;

/**
 * Marks the subtrees of the images of same-word elements (`sameWordElements`) on a page whose image holds the
 * same words as the key page's element. `key` is the key page's tree, `map` the ETDM from it. Returns the
 * number of subtrees marked.
 */
export function markSameWords(key: Tree, elements: readonly number[], tree: Tree, map: Int32Array, marks: Uint8Array): number {
  let n = 0;
  for (const e of elements) {
    const j = map[e] ?? -1;
    if (j < 0 || wordsOf(tree, j) !== wordsOf(key, e)) continue;
    marks.fill(1, j, tree.end[j]!);
    n++;
  }
  return n;
}
