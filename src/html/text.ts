/**
 * Text of a subtree, blocks on their own lines: block-level elements (p, div, li, h1…, tr, br…) start a new
 * line; inline text is joined with single spaces; scripts, styles and other non-text elements are skipped.
 * `keep(i)` lets a caller drop nodes (template text): a text node is output only when keep(i) is true.
 */
import { NodeKind, NON_TEXT_TAGS, tagId, type Tree } from './tree.ts';

export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li',
  'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'tr', 'ul', 'html', 'center', 'menu', 'legend', 'select', 'textarea', 'img',
]);

let tables: { block: Uint8Array; skip: Uint8Array } | null = null;
/** By tag id: 1 for block-level tags (`block`), 1 for non-text tags (`skip`); ids past the end are neither. */
export function textTables(): { block: Uint8Array; skip: Uint8Array } {
  if (!tables) {
    const max = 1 + Math.max(...[...BLOCK_TAGS, ...NON_TEXT_TAGS].map((t) => tagId(t)));
    tables = { block: new Uint8Array(max), skip: new Uint8Array(max) };
    for (const t of BLOCK_TAGS) tables.block[tagId(t)] = 1;
    for (const t of NON_TEXT_TAGS) tables.skip[tagId(t)] = 1;
  }
  return tables;
}

/** True when element i is block-level (starts a new line in extracted text). */
export function isBlock(tree: Tree, i: number): boolean {
  const { block } = textTables();
  return tree.kind[i] === NodeKind.Element && block[tree.name[i]!] === 1;
}

/** True when element i holds no page text (script, style, head, svg…). */
export function isNonText(tree: Tree, i: number): boolean {
  const { skip } = textTables();
  return tree.kind[i] === NodeKind.Element && skip[tree.name[i]!] === 1;
}

/**
 * The text of the subtree of `root` (default: the body, or the document when there is no body), with one
 * line per block and runs of white space collapsed. Text nodes for which `keep` returns false are left out.
 */
export function textOf(tree: Tree, root = tree.body(), keep?: (node: number) => boolean): string {
  const { block, skip } = textTables();
  const lines: string[] = [];
  let line = '';
  const flush = (): void => {
    const t = line.replace(/[\s\u00a0]+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const closers: number[] = [];
  const last = tree.end[root]!;
  for (let i = root; i < last; i++) {
    while (closers.length > 0 && closers[closers.length - 1]! <= i) {
      closers.pop();
      flush();
    }
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      const nm = tree.name[i]!;
      if (nm < skip.length && skip[nm] === 1 && i !== root) {
        i = tree.end[i]! - 1;
        continue;
      }
      if (nm < block.length && block[nm] === 1) {
        flush();
        closers.push(tree.end[i]!);
      }
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      if (keep && !keep(i)) {
        line += ' ';
        continue;
      }
      line += tree.text.slice(tree.textStart[i]!, tree.textEnd[i]!);
    }
  }
  flush();
  return lines.join('\n');
}

const NON_WORD = /[^\p{L}\p{N}]+/u;

/** The words of a text: lowercased, split on runs of Unicode non-letters/non-digits, empty pieces dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().split(NON_WORD)) if (w !== '') out.push(w);
  return out;
}

/** The text of the document's `<title>` ('' when none). */
export function pageTitle(tree: Tree): string {
  const t = tree.find('title');
  if (t < 0) return '';
  let s = '';
  for (let i = t + 1; i < tree.end[t]!; i++) if (tree.kind[i] === NodeKind.Text || tree.kind[i] === NodeKind.Blank) s += tree.nodeText(i);
  return s.replace(/\s+/g, ' ').trim();
}
