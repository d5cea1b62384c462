/**
 * The output files of a page without its tree: what `<page>.html` (the page with its template elements
 * marked) and `<page>.txt` (the text kept) need is recorded in pass 1, while the tree is at hand, so the
 * output phase writes them from the template pagelets' node ranges without parsing the page again:
 *  - the page serialised once without marks, as the UTF-8 bytes of its file (html/serialize.ts
 *    `serializeUtf8`), with the byte offset where each element's mark attribute goes (just before the `>`
 *    of its start tag) and the element's node number; marking is copying byte ranges;
 *  - the text walk of html/text.ts `textOf` as a program: each text node's text (its white space already
 *    collapsed), in order, and the points where a block ends a line; replayed with the template nodes'
 *    text left out (a space, as textOf does).
 * The written files are byte for byte what OutputWriter.writePage writes from the marked tree (tested).
 * A record travels as bytes (`encodeRender`): moved from a worker, spooled to disk between the passes.
 */
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writevSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isWideSpace } from '../../html/labels.ts';
import { escapeAttr, serializeUtf8, utf8Above127, Utf8Sink } from '../../html/serialize.ts';
import { OVERLAY_STYLE } from '../result.ts';
import { pageTitle, textTables } from '../../html/text.ts';
import { NodeKind, type Tree } from '../../html/tree.ts';

/** What writing a page's output needs (see the module comment). */
export interface RenderRecord {
  /** The page's file without marks (UTF-8). */
  html: Uint8Array;
  /** Per element, in node order: the byte offset in `html` where its mark attribute goes, and its node number. */
  markAt: Int32Array;
  elems: Int32Array;
  /** The body's text nodes' texts (white space collapsed, `collapsed`), concatenated, and each one's length. */
  text: string;
  textLen: Int32Array;
  /** The text walk: a text node's number, or -1 where a line ends. */
  seq: Int32Array;
  /** A text record's (`recordText`): the document's title; `html`, `markAt` and `elems` are then empty. */
  title?: string;
}

/** The thread's serialisation buffer (records copy what they keep out of it). */
const sink = new Utf8Sink();
/** The thread's buffer for the title of a text record. */
const titleSink = new Utf8Sink();

/** Scratch arrays of the text walk (one set per thread, grown as needed). */
let seqBuf: Int32Array = new Int32Array(4096);
let lenBuf: Int32Array = new Int32Array(4096);
let stack: Int32Array = new Int32Array(256);
function grown(a: Int32Array, n: number): Int32Array {
  if (n < a.length) return a;
  const b = new Int32Array(Math.max(n + 1, a.length * 2));
  b.set(a);
  return b;
}

/**
 * What a record holds: `page`, the page's file and the text walk (what `<page>.html` and `<page>.txt`
 * need); `text`, the text walk and the document's title only (what a JSON-lines record needs: no
 * serialisation of the page).
 */
export type RecordKind = 'page' | 'text';

/** A page's record of `kind` as bytes (see `recordRender`, `recordText`). */
export function recordOfKind(tree: Tree, kind: RecordKind): Uint8Array | undefined {
  return kind === 'text' ? recordText(tree) : recordRender(tree);
}

/**
 * Records what writing the page needs, as bytes (`decodeRender` reads them back); undefined when its
 * strings hold an unpaired surrogate.
 */
export function recordRender(tree: Tree): Uint8Array | undefined {
  const doc = serializeUtf8(tree, sink, { inject: OVERLAY_STYLE });
  if (!doc) return undefined;
  const walk = textWalk(tree);
  if (!walk) return undefined;
  return encodeRender({ html: doc.bytes, markAt: doc.markAt, elems: doc.elems, ...walk });
}

/**
 * Records the text walk and the document's `<title>` only (its UTF-8 in place of the page's file, no
 * element places): what the kept text and a JSON-lines record need. Undefined on an unpaired surrogate.
 */
export function recordText(tree: Tree): Uint8Array | undefined {
  const walk = textWalk(tree);
  if (!walk) return undefined;
  const title = titleSink;
  title.reset();
  const t = pageTitle(tree);
  title.raw(t, 0, t.length);
  if (title.lone) return undefined;
  const none = new Int32Array(0);
  return encodeRender({ html: title.document().bytes, markAt: none, elems: none, ...walk });
}

/**
 * textOf's walk over the body (html/text.ts) as a program: blocks end lines, non-text elements are
 * skipped. Views of the thread's buffers; undefined when the text holds an unpaired surrogate.
 */
function textWalk(tree: Tree): { text: Uint8Array; textLen: Int32Array; seq: Int32Array } | undefined {
  const { block, skip } = textTables();
  const { kind, name, end } = tree;
  const root = tree.body();
  const text = tree.text;
  textPos = 0;
  let ns = 0;
  let nt = 0;
  let depth = 0;
  const last = end[root]!;
  for (let i = root; i < last; i++) {
    while (depth > 0 && stack[depth - 1]! <= i) {
      depth--;
      seqBuf = grown(seqBuf, ns);
      seqBuf[ns++] = -1;
    }
    const k = kind[i];
    if (k === NodeKind.Element) {
      const nm = name[i]!;
      if (i !== root && nm < skip.length && skip[nm] === 1) {
        i = end[i]! - 1;
        continue;
      }
      if (nm < block.length && block[nm] === 1) {
        seqBuf = grown(seqBuf, ns);
        seqBuf[ns++] = -1;
        stack = grown(stack, depth);
        stack[depth++] = end[i]!;
      }
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      seqBuf = grown(seqBuf, ns);
      seqBuf[ns++] = i;
      lenBuf = grown(lenBuf, nt);
      // the node's text with its runs of white space collapsed (as textOf collapses a line)
      const len = k === NodeKind.Blank ? collapsedUtf8(' ', 0, 1) : collapsedUtf8(text, tree.textStart[i]!, tree.textEnd[i]!);
      if (len < 0) return undefined;
      lenBuf[nt++] = len;
    }
  }
  seqBuf = grown(seqBuf, ns);
  seqBuf[ns++] = -1;
  return { text: textBuf.subarray(0, textPos), textLen: lenBuf.subarray(0, nt), seq: seqBuf.subarray(0, ns) };
}

/** The UTF-8 bytes of ` name="value"` for each of `attr`. */
function attrBytes(attr: Readonly<Record<string, string>>): Uint8Array {
  let text = '';
  for (const [n, v] of Object.entries(attr)) text += ` ${n}="${escapeAttr(v)}"`;
  return new TextEncoder().encode(text);
}

/** The marked page (`<page>.html`, UTF-8): `attr` inserted in every element of the node ranges [start, start + count). */
export function renderHtml(r: RenderRecord, start: ArrayLike<number>, count: ArrayLike<number>, attr: Readonly<Record<string, string>>): Uint8Array {
  const mark = attrBytes(attr);
  const elems = r.elems;
  // the marked elements' indexes in `elems`: ranges [lo, hi) of them, one per node range
  let marked = 0;
  let j = 0;
  for (let k = 0; k < start.length; k++) {
    const s = start[k]!;
    const e = s + count[k]!;
    while (j < elems.length && elems[j]! < s) j++;
    for (; j < elems.length && elems[j]! < e; j++) marked++;
  }
  const out = new Uint8Array(r.html.length + marked * mark.length);
  let from = 0;
  let at = 0;
  j = 0;
  for (let k = 0; k < start.length; k++) {
    const s = start[k]!;
    const e = s + count[k]!;
    while (j < elems.length && elems[j]! < s) j++;
    for (; j < elems.length && elems[j]! < e; j++) {
      const to = r.markAt[j]!;
      out.set(r.html.subarray(from, to), at);
      at += to - from;
      out.set(mark, at);
      at += mark.length;
      from = to;
    }
  }
  out.set(r.html.subarray(from), at);
  return out;
}

/**
 * The kept text's UTF-8, written a code unit at a time by `collapsedUtf8` (a text node's text is short: a
 * call of the platform's encoder costs more than the loop, and the loop collapses as it goes).
 */
let textBuf = new Uint8Array(1 << 16);
let textPos = 0;

/**
 * Writes text[from, to) as UTF-8 to `textBuf` with each run of white space as one space (what
 * `.replace(/[\s\u00a0]+/g, ' ')` gives, without making the string); returns its length in code units, or -1
 * when it holds an unpaired surrogate (a pair split between two text nodes counts as unpaired, as when each
 * node was encoded apart).
 */
function collapsedUtf8(text: string, from: number, to: number): number {
  // at most 3 bytes a code unit (a pair, two units, takes 4)
  if (textPos + (to - from) * 3 > textBuf.length) {
    const b = new Uint8Array(Math.max(textPos + (to - from) * 3, textBuf.length * 2));
    b.set(textBuf.subarray(0, textPos));
    textBuf = b;
  }
  const b = textBuf;
  let p = textPos;
  let len = 0;
  let run = false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x80 ? c === 32 || (c >= 9 && c <= 13) : isWideSpace(c)) {
      if (!run) {
        b[p++] = 32;
        len++;
        run = true;
      }
      continue;
    }
    if (c < 0x80) b[p++] = c;
    else {
      const q = utf8Above127(b, p, c, k + 1 < to ? text.charCodeAt(k + 1) : 0);
      if (q < 0) return -1;
      if (q - p === 4) {
        // a surrogate pair: both units written
        k++;
        len++;
      }
      p = q;
    }
    len++;
    run = false;
  }
  textPos = p;
  return len;
}

/**
 * The kept text (`<page>.txt` without its final newline): textOf with the ranges' text nodes left out.
 * textOf joins a line's texts (a left-out node is a space), collapses its runs of white space and trims
 * it, and drops empty lines; with each node's runs already collapsed, that is: a node's text without its
 * first and last space, one space where either side of a join had one, nothing at the ends of a line.
 */
export function renderText(r: RenderRecord, start: ArrayLike<number>, count: ArrayLike<number>): string {
  const text = r.text;
  let out = '';
  let any = false;
  let inLine = false;
  let space = false;
  let k = 0;
  let at = 0;
  let t = 0;
  for (let q = 0; q < r.seq.length; q++) {
    const i = r.seq[q]!;
    if (i < 0) {
      inLine = false;
      space = false;
      continue;
    }
    const len = r.textLen[t++]!;
    let a = at;
    let b = at + len;
    at = b;
    while (k < start.length && start[k]! + count[k]! <= i) k++;
    if (k < start.length && start[k]! <= i) {
      space = true;
      continue;
    }
    const lead = a < b && text.charCodeAt(a) === 32;
    if (lead) a++;
    const trail = a < b && text.charCodeAt(b - 1) === 32;
    if (trail) b--;
    if (a === b) {
      if (lead) space = true;
      continue;
    }
    if (inLine) {
      if (space || lead) out += ' ';
    } else {
      if (any) out += '\n';
      inLine = true;
      any = true;
    }
    out += text.slice(a, b);
    space = trail;
  }
  return out;
}

const HEADER = 5;

/** A record as bytes: a header of five lengths, the page's bytes, the text in UTF-8, then the four arrays. */
function encodeRender(r: Omit<RenderRecord, 'text'> & { text: Uint8Array }): Uint8Array {
  const text = r.text;
  const pad = (n: number): number => (n + 3) & ~3;
  const ints = r.markAt.length * 2 + r.textLen.length + r.seq.length;
  const bytes = new Uint8Array(HEADER * 4 + pad(r.html.length) + pad(text.length) + ints * 4);
  const head = new Int32Array(bytes.buffer, 0, HEADER);
  head.set([r.html.length, text.length, r.markAt.length, r.textLen.length, r.seq.length]);
  let at = HEADER * 4;
  bytes.set(r.html, at);
  at += pad(r.html.length);
  bytes.set(text, at);
  at += pad(text.length);
  const body = new Int32Array(bytes.buffer, at, ints);
  body.set(r.markAt, 0);
  body.set(r.elems, r.markAt.length);
  body.set(r.textLen, r.markAt.length * 2);
  body.set(r.seq, r.markAt.length * 2 + r.textLen.length);
  return bytes;
}

/** A record back from its bytes: views of them (no copy), valid as long as the bytes are not reused. */
export function decodeRender(bytes: Uint8Array): RenderRecord {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const head = new Int32Array(aligned.buffer, aligned.byteOffset, HEADER);
  const [hl, tl, ne, nt, ns] = [head[0]!, head[1]!, head[2]!, head[3]!, head[4]!];
  const pad = (n: number): number => (n + 3) & ~3;
  let at = HEADER * 4;
  const html = aligned.subarray(at, at + hl);
  at += pad(hl);
  const text = new TextDecoder().decode(aligned.subarray(at, at + tl));
  at += pad(tl);
  const ints = new Int32Array(aligned.buffer, aligned.byteOffset + at, ne * 2 + nt + ns);
  return { html, text, markAt: ints.subarray(0, ne), elems: ints.subarray(ne, ne * 2), textLen: ints.subarray(ne * 2, ne * 2 + nt), seq: ints.subarray(ne * 2 + nt) };
}

/** What pass 1 spools for a page: its record (of the spool's kind), or its bytes when it has none. */
export type SpoolEntry = { kind: 'render'; bytes: Uint8Array } | { kind: 'page'; body: Uint8Array; contentType: string | undefined };

/** An entry's kind in the spool file: a page record, the page's bytes, a text record. */
const ENTRY_CODE = { page: 1, bytes: 2, text: 3 } as const;

/**
 * Render records between the passes, on disk (a few integers a page in memory): pass 1 appends each page's
 * record by page id, the output phase reads them back. A temporary spool (`open`) lives as long as the run;
 * a shard's (`create`, then `save`) stays in the work directory beside its rows, with its index in
 * `<path>.idx`, for the output phase of another process (`read`).
 */
export class RenderSpool {
  private pos = 0;
  private at = new Float64Array(1024);
  private len = new Int32Array(1024);
  private buf = new Uint8Array(1 << 16);
  /** One more than the largest page id put. */
  private count = 0;
  private closed = false;
  private constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly temporary: boolean,
    /** The kind of the records `put` takes (a spool read back holds whichever its entries say). */
    readonly kind: RecordKind = 'page',
  ) {}

  /** A spool of records of `kind` in a new temporary file. */
  static open(kind: RecordKind = 'page'): RenderSpool {
    const dir = mkdtempSync(join(tmpdir(), 'gabarit-render-'));
    const path = join(dir, 'spool');
    return new RenderSpool(openSync(path, 'w+'), path, true, kind);
  }

  /** A spool of records of `kind` written at `path`, kept after `close` once `save` wrote its index. */
  static create(path: string, kind: RecordKind = 'page'): RenderSpool {
    return new RenderSpool(openSync(path, 'w+'), path, false, kind);
  }

  /** A spool `save` wrote, for reading; undefined when its file or index is missing or their sizes disagree. */
  static read(path: string): RenderSpool | undefined {
    let idx: Uint8Array<ArrayBuffer>;
    try {
      idx = new Uint8Array(readFileSync(`${path}.idx`));
    } catch {
      return undefined;
    }
    if (idx.length < 16 || idx.length % 4 !== 0) return undefined;
    const head = new Float64Array(idx.buffer, 0, 2);
    const [n, size] = [head[0]!, head[1]!];
    if (idx.length !== 16 + n * 12) return undefined;
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    if (fstatSync(fd).size !== size) {
      closeSync(fd);
      return undefined;
    }
    const spool = new RenderSpool(fd, path, false);
    spool.at = new Float64Array(idx.buffer, 16, n);
    spool.len = new Int32Array(idx.buffer, 16 + n * 8, n);
    spool.count = n;
    spool.pos = size;
    return spool;
  }

  /** Writes the index beside the spool (`<path>.idx`: page count, spool size, then each page's offset and length). */
  save(): void {
    const n = this.count;
    const idx = new Uint8Array(16 + n * 12);
    new Float64Array(idx.buffer, 0, 2).set([n, this.pos]);
    new Float64Array(idx.buffer, 16, n).set(this.at.subarray(0, n));
    new Int32Array(idx.buffer, 16 + n * 8, n).set(this.len.subarray(0, n));
    writeFileSync(`${this.path}.idx`, idx);
  }

  /**
   * Appends page `id`'s entry: its URL, its number of pagelets, and either its record of the spool's kind
   * (bytes as encodeRender gives them) or, for a page that has none, its bytes to parse again.
   */
  put(id: number, url: string, pagelets: number, entry: SpoolEntry): void {
    if (id >= this.at.length) {
      const at = new Float64Array(Math.max(id + 1, this.at.length * 2));
      at.set(this.at);
      this.at = at;
      const len = new Int32Array(at.length);
      len.set(this.len);
      this.len = len;
    }
    const enc = new TextEncoder();
    const u = enc.encode(url);
    const ct = enc.encode(entry.kind === 'page' ? (entry.contentType ?? '') : '');
    const payload = entry.kind === 'render' ? entry.bytes : entry.body;
    const head = new Int32Array([entry.kind === 'page' ? ENTRY_CODE.bytes : ENTRY_CODE[this.kind], pagelets, u.length, ct.length, entry.kind === 'page' && entry.contentType === undefined ? 1 : 0]);
    const pad = (n: number): number => (n + 3) & ~3;
    // the header and names, then the payload as it is (not copied)
    const bytes = new Uint8Array(20 + pad(u.length) + pad(ct.length));
    bytes.set(new Uint8Array(head.buffer), 0);
    bytes.set(u, 20);
    bytes.set(ct, 20 + pad(u.length));
    const n = bytes.length + payload.length;
    if (writevSync(this.fd, [bytes, payload], this.pos) !== n) throw new Error(`render spool: short write to ${this.path}`);
    this.at[id] = this.pos;
    this.len[id] = n;
    this.pos += n;
    if (id >= this.count) this.count = id + 1;
  }

  /** Page `id`'s entry, or undefined when none was put; a render record's arrays are valid until the next `get`. */
  get(id: number): { url: string; pagelets: number; entry: { kind: 'render'; record: RenderRecord } | { kind: 'page'; body: Uint8Array; contentType: string | undefined } } | undefined {
    const n = id < this.len.length ? this.len[id]! : 0;
    if (n === 0) return undefined;
    if (n > this.buf.length) this.buf = new Uint8Array(Math.max(n, this.buf.length * 2));
    readSync(this.fd, this.buf, 0, n, this.at[id]!);
    const b = this.buf.subarray(0, n);
    const head = new Int32Array(b.buffer, b.byteOffset, 5);
    const [kind, pagelets, ul, cl, noCt] = [head[0]!, head[1]!, head[2]!, head[3]!, head[4]!];
    const pad = (x: number): number => (x + 3) & ~3;
    const dec = new TextDecoder();
    const url = dec.decode(b.subarray(20, 20 + ul));
    const contentType = noCt ? undefined : dec.decode(b.subarray(20 + pad(ul), 20 + pad(ul) + cl));
    const payload = b.subarray(20 + pad(ul) + pad(cl));
    if (kind === ENTRY_CODE.page) return { url, pagelets, entry: { kind: 'render', record: decodeRender(payload) } };
    if (kind === ENTRY_CODE.text) {
      const r = decodeRender(payload);
      return { url, pagelets, entry: { kind: 'render', record: { ...r, title: dec.decode(r.html), html: new Uint8Array(0) } } };
    }
    return { url, pagelets, entry: { kind: 'page', body: payload.slice(), contentType } };
  }

  /** Bytes spooled. */
  get size(): number {
    return this.pos;
  }

  /** Closes the file (once; again is a no-op), and removes a temporary spool. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.temporary) rmSync(dirname(this.path), { recursive: true, force: true });
  }
}
