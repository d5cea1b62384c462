/**
 * A site-level signal for the main block: the pages of one site put their main content in the same place.
 * Each element gets a path key (a hash of the tag, id and class of it and of every ancestor up to the root);
 * the main blocks chosen page by page vote with their keys, and when enough pages agree (`voteShare` of the
 * pages that voted, at least `voteMinPages`), a page whose own choice lies elsewhere takes the element of
 * the winning key instead, if it has one holding text of positive value. Pages of another layout have no
 * such element and keep their own choice. Measured on the corpus (eval/content.eval.ts --ablation;
 * docs/content.md, `voteShare`).
 */
import { NodeKind, type Tree } from '../html/tree.ts';

/** FNV-1a of a string, continuing from `h`. */
function fnv(h: number, s: string): number {
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h;
}

/** Path key of every element (0 for other nodes): tag, id and class of the element and its ancestors. */
export function pathKeys(tree: Tree): Int32Array {
  const keys = new Int32Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const h = fnv(fnv(fnv(0x811c9dc5 | 0, tree.tag(i)), '#' + (tree.attr(i, 'id') ?? '')), '.' + (tree.attr(i, 'class') ?? ''));
    const p = tree.parent[i]!;
    const up = p >= 0 && tree.kind[p] === NodeKind.Element ? keys[p]! : 0x2545f491;
    keys[i] = Math.imul(up ^ h, 0x01000193) ^ (up >>> 15);
  }
  return keys;
}

/** The key most main blocks share, or null when too few agree. */
export function voteKey(votes: readonly number[], share: number, minPages: number): number | null {
  if (votes.length < minPages) return null;
  const count = new Map<number, number>();
  let best: number | null = null;
  let n = 0;
  for (const k of votes) {
    const c = (count.get(k) ?? 0) + 1;
    count.set(k, c);
    if (c > n) {
      n = c;
      best = k;
    }
  }
  return n >= Math.max(2, share * votes.length) ? best : null;
}
