/**
 * The headline of the main content, and the head zone around it (position; main-block.ts, step 6). The
 * headline is the block that says what the page is about: the one whose words are the document `<title>`'s,
 * else an `<h1>`, else an `<h2>`. It is looked for in two places, the nearest of the best rank winning:
 *  - the first block of the main content (an article that opens with its own `<h1>`);
 *  - within `max` characters of non-template text before the main content (a headline above the story's
 *    container, as news pages and blogs print it).
 * The head zone is the headline and what lies between it and the main content: a deck, a standfirst, a video
 * caption — not a link list, not named boilerplate, and either a heading or at least `minChars` long (not a
 * byline or a dateline). The headline is reported on its own (extract.ts: the `title` of the main content).
 * Last, section headings left heading nothing are left out (dropOrphanHeadings).
 */
import { textOf } from '../html/text.ts';
import { lazyTagSet, NodeKind, tagId, type Tree } from '../html/tree.ts';

/** The per-node arrays of the main-block passes the head zone reads (main-block.ts). */
export interface HeadPass {
  tree: Tree;
  template: Uint8Array;
  /** 1 for nodes that hold no page text (non-text elements, hidden elements, and all they hold). */
  skip: Uint8Array;
  /** Nearest block-level ancestor (or self) of each element. */
  blockOf: Int32Array;
  /** Non-template characters and link characters per block. */
  chars: Int32Array;
  linkChars: Int32Array;
  /** 1 inside a boilerplate-named element. */
  named: Uint8Array;
  maxLinkDensity: number;
  body: number;
  bodyEnd: number;
}

/** A separator between the parts of a `<title>` (headline and site name): a dash, bar, colon, guillemet or bullet with spaces around it. */
const TITLE_SEPARATOR = /\s+[-–—|:»·•]+\s+/u;

/** True when block b is, or is inside, an h1–h3. */
function isHeading(tree: Tree, b: number): boolean {
  const tags = headlineTags();
  for (let a = b; a >= 0; a = tree.parent[a]!) if (tree.kind[a] === NodeKind.Element && tags[tree.name[a]!] === 1) return true;
  return false;
}

/** Largest element (nodes in its subtree) whose text is compared with the page title. */
const HEADLINE_MAX_NODES = 64;

/** Words of a string, lowercased (letters and digits). */
function titleWords(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/**
 * Number of non-space characters of a text node, each character of a script written without spaces
 * between words (Han, kana, Hangul) counting `cjk` (a character there says about as much as a short word).
 */
export function visibleChars(tree: Tree, i: number, cjk = 1): number {
  let n = 0;
  const t = tree.text;
  for (let k = tree.textStart[i]!, e = tree.textEnd[i]!; k < e; k++) {
    const c = t.charCodeAt(k);
    if (c < 0x3040) {
      if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 160) n++;
    } else n += (c <= 0x30ff || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)) ? cjk : 1;
  }
  return n;
}

/** Ranks blocks as headlines: 3 its words are the `<title>`'s, 2 an h1, 1 an h2, 0 not. */
function headlineRanker(p: HeadPass): (b: number) => number {
  const { tree, body } = p;
  const TITLE = tagId('title');
  let title: string[] = [];
  /** The title's parts around a separator ("nook — A Blog": "nook" and "a blog"), as word strings. */
  let parts: string[] = [];
  for (let i = 0; i < body; i++) {
    if (tree.kind[i] === NodeKind.Element && tree.name[i] === TITLE) {
      const raw = textOf(tree, i);
      title = titleWords(raw);
      parts = raw.split(TITLE_SEPARATOR).map((s) => titleWords(s).join(' ')).filter((s) => s !== '');
      break;
    }
  }
  const titleSet = new Set(title);
  const H1 = tagId('h1');
  const H2 = tagId('h2');
  return (b: number): number => {
    // A headline is a small element: larger ones are not read (their text would cost a pass over them).
    if (title.length > 0 && tree.end[b]! - b <= HEADLINE_MAX_NODES) {
      const ws = titleWords(textOf(tree, b));
      // A heading that is one whole part of the title is the headline however short ("nook — A Blog").
      if (parts.length > 1 && ws.length > 0 && parts.includes(ws.join(' ')) && isHeading(tree, b)) return 3;
      if (ws.length >= 2 && ws.length >= 0.4 * title.length) {
        let inTitle = 0;
        for (const w of ws) if (titleSet.has(w)) inTitle++;
        if (inTitle >= 0.8 * ws.length) return 3;
      }
    }
    for (let a = b; a > body; a = tree.parent[a]!) {
      const nm = tree.name[a];
      if (nm === H1 || nm === H2) return nm === H1 ? 2 : 1;
    }
    return 0;
  };
}

/** The first content text node of the body holding visible text (-1 when none). */
function firstContentText(p: HeadPass, content: Uint8Array): number {
  const { tree } = p;
  for (let i = p.body; i < p.bodyEnd; i++) if (tree.kind[i] === NodeKind.Text && content[i] === 1 && visibleChars(tree, i) > 0) return i;
  return -1;
}

/**
 * The headline's block (-1 when none): the first block of the content when it ranks, else the best-ranked
 * block within `max` characters before it (the nearest of the best rank; a byline in an h2 does not hide
 * the h1). A block holding the main block's root is never the headline.
 */
export function findHeadline(p: HeadPass, content: Uint8Array, root: number, max: number): number {
  const { tree, skip, template, blockOf } = p;
  const first = firstContentText(p, content);
  if (first < 0) return -1;
  const rank = headlineRanker(p);
  const own = blockOf[tree.parent[first]!]!;
  let head = -1;
  let headRank = 0;
  if (!tree.contains(own, root) || own === root) {
    const r = own === root ? 0 : rank(own);
    if (r > 0) {
      head = own;
      headRank = r;
    }
  }
  let seen = 0;
  let lastBlock = -1;
  for (let i = first - 1; i > p.body && headRank < 3; i--) {
    if (tree.kind[i] !== NodeKind.Text || skip[tree.parent[i]!] === 1 || template[i] === 1) continue;
    const c = visibleChars(tree, i);
    if (c === 0) continue;
    seen += c;
    if (seen > max) break;
    const b = blockOf[tree.parent[i]!]!;
    if (b !== lastBlock) {
      lastBlock = b;
      if (tree.contains(b, root)) continue;
      const r = rank(b);
      if (r > headRank) {
        head = b;
        headRank = r;
      }
    }
  }
  return head;
}

/**
 * The page's own headline heading the text of `root`: a block whose words are the `<title>`'s that opens it
 * or lies within `max` characters before it (findHeadline, rank 3); -1 when none.
 */
export function titleHeadline(p: HeadPass, root: number, max: number): number {
  const { tree, skip, template } = p;
  const marks = new Uint8Array(tree.size);
  for (let i = root; i < tree.end[root]!; i++) if (tree.kind[i] === NodeKind.Text && skip[tree.parent[i]!] !== 1 && template[i] !== 1) marks[i] = 1;
  const head = findHeadline(p, marks, root, max);
  return head >= 0 && headlineRanker(p)(head) === 3 ? head : -1;
}

/** True when `root` is headed by the page's own headline (titleHeadline). */
export function titledRegion(p: HeadPass, root: number, max: number): boolean {
  return titleHeadline(p, root, max) >= 0;
}

/** Tags of the headings a story's headline is printed in (h1–h3), by tag id. */
const headlineTags = lazyTagSet(['h1', 'h2', 'h3']);

/**
 * The page's own headline as a heading: the first h1–h3 outside the template whose words are the `<title>`'s
 * (-1 when none).
 */
export function titledHeading(p: HeadPass): number {
  const { tree, skip, template, body, bodyEnd } = p;
  const tags = headlineTags();
  const rank = headlineRanker(p);
  for (let i = body + 1; i < bodyEnd; i++) {
    if (tree.kind[i] !== NodeKind.Element || skip[i] === 1 || template[i] === 1 || tags[tree.name[i]!] !== 1) continue;
    if (rank(i) === 3) return i;
    i = tree.end[i]! - 1;
  }
  return -1;
}

/**
 * The elements whose text starts within `max` characters of non-template text after the heading `head`
 * (each text node's ancestors that begin after the heading): where the story printed under it lies.
 */
export function regionsAfter(p: HeadPass, head: number, max: number): number[] {
  const { tree, skip, template, bodyEnd, body } = p;
  const out: number[] = [];
  const seen = new Set<number>();
  let chars = 0;
  for (let i = tree.end[head]!; i < bodyEnd && chars <= max; i++) {
    if (tree.kind[i] !== NodeKind.Text || template[i] === 1 || skip[tree.parent[i]!] === 1) continue;
    const c = visibleChars(tree, i);
    if (c === 0) continue;
    for (let a = tree.parent[i]!; a > body && a >= tree.end[head]! && !seen.has(a); a = tree.parent[a]!) {
      seen.add(a);
      out.push(a);
    }
    chars += c;
  }
  return out;
}

/**
 * Marks the head zone as content: the headline `head` (kept whole: it is often a link to the page itself)
 * and, between it and the first content text, the blocks that are neither link-dense nor named
 * boilerplate and are a heading or at least `minChars` long.
 */
export function keepHeadZone(p: HeadPass, content: Uint8Array, head: number, minChars: number): void {
  const { tree, skip, template, blockOf, chars, linkChars, named } = p;
  const first = firstContentText(p, content);
  if (first < 0 || head < 0) return;
  const rank = headlineRanker(p);
  let zoneBlock = -1;
  let zoneKeep = false;
  for (let i = head; i < first; i++) {
    if (skip[i] === 1 || template[i] === 1) continue;
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      content[i] = 1;
      continue;
    }
    if (k !== NodeKind.Text && k !== NodeKind.Blank) continue;
    const q = tree.parent[i]!;
    if (skip[q] === 1 || named[q] === 1) continue;
    const b = blockOf[q]!;
    if (b !== zoneBlock) {
      zoneBlock = b;
      zoneKeep = b === head || tree.contains(head, b) || (linkChars[b]! <= p.maxLinkDensity * chars[b]! && (chars[b]! >= minChars || rank(b) > 0));
    }
    if (zoneKeep) content[i] = 1;
  }
}

/** Marks the headline's subtree as content (its non-template, non-skipped nodes). */
export function keepHeadline(p: HeadPass, content: Uint8Array, head: number): void {
  const { tree, skip, template } = p;
  for (let i = head; i < tree.end[head]!; i++) if (skip[i] !== 1 && template[i] !== 1 && tree.kind[i] !== NodeKind.Comment) content[i] = 1;
}

/**
 * A section heading (h2–h6) inside the main block heads the text that follows it in its container; when
 * that text (the first non-template text after it, past any heading right after it) was left out —
 * "Related stories" above a dropped link list — the heading heads nothing, and is left out too. The
 * story's headline (`headline`, from the head zone) always stays.
 */
export function dropOrphanHeadings(tree: Tree, template: Uint8Array, content: Uint8Array, skip: Uint8Array, root: number, headline: number): void {
  const heads = sectionHeadings();
  const H1 = tagId('h1');
  for (let h = root + 1; h < tree.end[root]!; h++) {
    if (tree.kind[h] !== NodeKind.Element || content[h] !== 1 || heads[tree.name[h]!] !== 1) continue;
    if (headline >= 0 && (tree.contains(h, headline) || tree.contains(headline, h))) continue;
    const end = tree.end[tree.parent[h]!]!;
    let next = -1;
    for (let i = tree.end[h]!; i < end; i++) {
      // A heading right after it opens a section of its own: what this one heads lies beyond.
      if (tree.kind[i] === NodeKind.Element && (heads[tree.name[i]!] === 1 || tree.name[i] === H1)) {
        i = tree.end[i]! - 1;
        continue;
      }
      if (tree.kind[i] === NodeKind.Text && template[i] !== 1 && skip[i] !== 1 && visibleChars(tree, i) > 0) {
        next = i;
        break;
      }
    }
    if (next >= 0 && content[next] !== 1) for (let i = h; i < tree.end[h]!; i++) content[i] = 0;
  }
}

/** Tags of section headings (h2–h6), by tag id. */
const sectionHeadings = lazyTagSet(['h2', 'h3', 'h4', 'h5', 'h6']);
