/**
 * Step 5's contiguity (main-block.ts): inside the main block, the text nodes in document order form runs (a
 * run ends where the block changes); each run is valued like a block. Only the runs of the maximum-sum
 * stretch (Kadane) stay content: far-away text separated from the main text by link lists and boilerplate
 * is left out. A run of negative value counts `gapPenalty` times, so that teasers after the story do not
 * extend it; a comment thread's heading ("Comments", "12 responses", "Leave a reply") found after
 * `threadAfter` of the block's value ends the stretch.
 */
import { lazyTagSet, NodeKind } from '../html/tree.ts';
import { blockValue, listTags, type BlockTable, type ValueParams } from './block-table.ts';
import { visibleChars } from './headline.ts';

/** What the stretch reads of the options (resolved). */
export interface StretchParams {
  value: ValueParams;
  gapPenalty: number;
  /** Look for a comment thread's heading. */
  threadHeading: boolean;
  threadAfter: number;
}

/**
 * The heading of a reader-comment thread: a short block without links saying "Comments", "12 comments",
 * "Leave a reply", "Post a comment", "3 responses to …"… (English only; bare "Discussion" or "Responses"
 * are section titles of documents, e.g. PEPs, and do not count).
 */
const THREAD_HEADING = /^(\d+\s+)?(reader\s+)?comments?(\s*\(\d+\))?\s*:?$|^\d+\s+(comments?|responses?|replies)\b|^(post|leave|add|write)\s+(a|your)\s+(comment|reply|response)\b|^comments?\s+(are\s+)?closed\b|^(there\s+are\s+)?no\s+comments\b/i;
/** Longest text (visible characters) taken for a thread heading. */
const THREAD_HEADING_MAX = 60;

/** Tags whose text is a cell or an item, never a heading: a table's "Comment" column is not a comment thread. */
const cellTags = lazyTagSet(['td', 'th', 'li', 'dt', 'dd']);

/**
 * Block b is a label in a table cell or list item: its nearest cell or item holds no more text than a
 * heading would (a data table's "Comment" column; a layout table's cell holding the story is no cell).
 */
function inCell(t: BlockTable, b: number): boolean {
  const cellTag = cellTags();
  for (let a = b; a > t.body; a = t.tree.parent[a]!) if (cellTag[t.tree.name[a]!] === 1) return t.sub[a - t.body]! <= THREAD_HEADING_MAX;
  return false;
}

/** The text runs of `roots` (consecutive subtrees) in document order: each run's value, and the runs that are thread headings. */
interface Runs {
  /** Run index of each text node from roots[0] (-1 when in none). */
  segOf: Int32Array;
  vals: number[];
  heads: number[];
}

/** Cuts the text of `roots` into runs (a run ends where the block changes) and values each. */
function textRuns(t: BlockTable, roots: readonly number[], p: StretchParams): Runs {
  const { tree, template, skip, blockOf, inLink, named, extra } = t;
  const listTag = listTags();
  const root = roots[0]!;
  const end = tree.end[roots[roots.length - 1]!]!;
  const segOf = new Int32Array(end - root).fill(-1);
  const vals: number[] = [];
  const heads: number[] = [];
  let r = 0;
  let short = '';
  let cur = -1;
  let c = 0;
  let l = 0;
  let bc = 0;
  let nc = 0;
  const close = (): void => {
    if (cur < 0) return;
    const v0 = blockValue(p.value, c, l, bc, nc, listTag[tree.name[cur]!] === 1);
    const v = v0 < 0 ? v0 * p.gapPenalty : v0;
    if (p.threadHeading && l === 0 && short.length > 0 && c <= THREAD_HEADING_MAX && !inCell(t, cur) && THREAD_HEADING.test(short.trim())) heads.push(vals.length);
    vals.push(v);
    c = l = bc = nc = 0;
    short = '';
  };
  for (let i = root; i < end; i++) {
    while (r < roots.length && tree.end[roots[r]!]! <= i) r++;
    if (r >= roots.length) break;
    if (i < roots[r]!) {
      i = roots[r]! - 1;
      continue;
    }
    if (tree.kind[i] !== NodeKind.Text || skip[i] === 1 || template[i] === 1) continue;
    const par = tree.parent[i]!;
    if (skip[par] === 1) continue;
    const b = blockOf[par]!;
    if (b !== cur) {
      close();
      cur = b;
    }
    segOf[i - root] = vals.length;
    const k = visibleChars(tree, i, t.cjk);
    if (p.threadHeading && c + k <= THREAD_HEADING_MAX) short += tree.nodeText(i) + ' ';
    c += k;
    if (inLink[par] === 1) l += k;
    if (named[par] === 1 || (extra !== undefined && extra[i] === 1)) bc += k;
    else if (named[par] === 2) nc += k;
  }
  close();
  return { segOf, vals, heads };
}

/** The first run that is a thread heading found after `threadAfter` of the positive value (vals.length when none). */
function threadStop(runs: Runs, threadAfter: number): number {
  const { vals, heads } = runs;
  let stop = vals.length;
  if (heads.length === 0) return stop;
  let positive = 0;
  for (const v of vals) if (v > 0) positive += v;
  let before = 0;
  let h = 0;
  for (let k = 0; k < vals.length && stop === vals.length; k++) {
    while (h < heads.length && heads[h]! < k) h++;
    if (heads[h] === k && before >= threadAfter * positive) stop = k;
    if (vals[k]! > 0) before += vals[k]!;
  }
  return stop;
}

/** The maximum-sum stretch [a, b] of vals[0, stop) (Kadane); b = -1 when there is none. */
function bestStretch(vals: readonly number[], stop: number): [number, number] {
  let bestSum = -Infinity;
  let bestA = 0;
  let bestB = -1;
  let sum = 0;
  let a = 0;
  for (let k = 0; k < stop; k++) {
    if (sum <= 0) {
      sum = 0;
      a = k;
    }
    sum += vals[k]!;
    if (sum > bestSum) {
      bestSum = sum;
      bestA = a;
      bestB = k;
    }
  }
  return [bestA, bestB];
}

/** Leaves out of `content` the text of `roots` outside its maximum-value stretch of runs. */
export function keepBestStretch(t: BlockTable, content: Uint8Array, roots: readonly number[], p: StretchParams): void {
  const runs = textRuns(t, roots, p);
  const [a, b] = bestStretch(runs.vals, threadStop(runs, p.threadAfter));
  const root = roots[0]!;
  const end = t.tree.end[roots[roots.length - 1]!]!;
  for (let i = root; i < end; i++) {
    const sg = runs.segOf[i - root]!;
    if (sg >= 0 && (sg < a || sg > b)) content[i] = 0;
  }
}

