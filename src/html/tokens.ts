/**
 * Token sequences, as paper 1 (alignment-template-detection, section 2) defines them: "a token corresponds
 * to a single HTML tag or to the text snippet contained between two consecutive tags", normalised (extra
 * white space removed, lowercased, attributes sorted). Tokens are integer ids from the site's LabelTable:
 *  - a start tag is its element label (tag + normalised attributes, labels.ts);
 *  - an end tag is the label of `/tag` (void elements have none);
 *  - a text snippet is the label of its whitespace-collapsed, lowercased text.
 * Choices the paper leaves open, made here: whitespace-only text, comments and the character data of
 * script/style elements give no token (they vary without meaning and are not content); the document node
 * gives none. Every token maps back to its node (`node[k]`), so a result on tokens is a result on nodes.
 */
import { collapseSpace, LabelTable } from './labels.ts';
import { NodeKind, tagId, type Tree, VOID_TAGS } from './tree.ts';

export const TokenType = { Open: 0, Close: 1, Text: 2 } as const;
export type TokenType = (typeof TokenType)[keyof typeof TokenType];

export interface TokenSequence {
  /** Token ids (labels from the site's LabelTable). */
  readonly ids: Int32Array;
  /** Node of each token in its Tree. */
  readonly node: Int32Array;
  /** TokenType of each token. */
  readonly type: Uint8Array;
  readonly length: number;
}

export interface TokenOptions {
  /** Root of the subtree to tokenise (default: the whole document). */
  root?: number;
  /** Include end tags (default true, paper 1: every tag is a token). */
  endTags?: boolean;
}

const SKIP_TEXT_OF = new Set(['script', 'style']);

/** Tokenises a Tree into a TokenSequence over `labels` (which must be the table the Tree was parsed with). */
export function tokenize(tree: Tree, labels: LabelTable, options: TokenOptions = {}): TokenSequence {
  const root = options.root ?? 0;
  const endTags = options.endTags ?? true;
  const skipIds = new Set<number>();
  for (const t of SKIP_TEXT_OF) skipIds.add(tagId(t));
  const voidIds = new Set<number>();
  for (const t of VOID_TAGS) voidIds.add(tagId(t));
  const last = tree.end[root]!;
  const cap = (last - root) * 2 + 2;
  const ids = new Int32Array(cap);
  const node = new Int32Array(cap);
  const type = new Uint8Array(cap);
  let n = 0;
  // Pending end tags: a stack of open elements whose end tag is emitted when the walk leaves them.
  const open: number[] = [];
  const closeLabel = new Map<number, number>();
  const closeUntil = (pos: number): void => {
    while (open.length > 0 && tree.end[open[open.length - 1]!]! <= pos) {
      const e = open.pop()!;
      const nm = tree.name[e]!;
      let id = closeLabel.get(nm);
      if (id === undefined) {
        id = labels.endTag(tree.tag(e));
        closeLabel.set(nm, id);
      }
      ids[n] = id;
      node[n] = e;
      type[n] = TokenType.Close;
      n++;
    }
  };
  for (let i = root; i < last; i++) {
    if (endTags) closeUntil(i);
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      ids[n] = tree.label[i]!;
      node[n] = i;
      type[n] = TokenType.Open;
      n++;
      if (endTags && !voidIds.has(tree.name[i]!)) open.push(i);
      if (skipIds.has(tree.name[i]!)) {
        // Skip the character data of scripts and styles, but still close the element.
        i = tree.end[i]! - 1;
      }
    } else if (k === NodeKind.Text) {
      const t = collapseSpace(tree.nodeText(i)).toLowerCase();
      if (t.length === 0) continue;
      ids[n] = labels.text(t);
      node[n] = i;
      type[n] = TokenType.Text;
      n++;
    }
  }
  if (endTags) closeUntil(last);
  return { ids: ids.slice(0, n), node: node.slice(0, n), type: type.slice(0, n), length: n };
}
