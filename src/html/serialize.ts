/**
 * A Tree back to HTML, optionally with marks: `mark(i)` returns extra attributes for element i (e.g.
 * `data-gabarit="template"`). The output parses back to the same Tree with the rules that built it (up to
 * the marks), a tested invariant (test/html/serialize.test.ts, and the fuzzer):
 *  - the document's own doctype is written (none when it had none: a browser's quirks mode stays);
 *  - text is escaped, except in the elements whose content the tree's parser read as raw text: script,
 *    style and xmp for both (iframe, noembed, noframes, noscript and plaintext too for the exact path,
 *    which follows browsers with scripting on); inside svg and math, script and style are ordinary elements
 *    and their text is escaped;
 *  - a newline is added after `<pre>`, `<listing>` and `<textarea>` when their text starts with one (the
 *    parsers drop the first); carriage returns in escaped text and attributes are written `&#13;`;
 *  - void elements get no end tag; after an exact-path `<plaintext>` no end tag is written (its text runs
 *    to the end of the document).
 */
import { childNamespace, Namespace, namespaceOf } from './namespace.ts';
import { NodeKind, type Tree, tagId, tagName, VOID_TAGS } from './tree.ts';

/** Elements whose text is raw for both parsers (htmlparser2 and the WHATWG algorithm). */
const RAW_BOTH = ['script', 'style', 'xmp'];
/** Also raw for the WHATWG algorithm with scripting on (htmlparser2 parses them as markup). */
const RAW_EXACT = [...RAW_BOTH, 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'];
const RAW_FAST_IDS = new Set(RAW_BOTH.map(tagId));
/** htmlparser2 reads these as raw text (script, style, xmp) or RCDATA (title, textarea) after `<tag>`. */
const FAST_SPECIAL = new Set([...RAW_BOTH, 'title', 'textarea'].map(tagId));
const RAW_EXACT_IDS = new Set(RAW_EXACT.map(tagId));
/** HTML raw-text elements whose text the fast path decodes in svg and math (parse.ts). */
const FOREIGN_ORDINARY = new Set(['script', 'style'].map(tagId));
const LEADING_NEWLINE = new Set(['pre', 'listing', 'textarea'].map(tagId));
const PLAINTEXT = tagId('plaintext');

/**
 * True when element i (script, style, xmp, title or textarea, fast path) can be written as `<tag>…</tag>`
 * and read back the same: it holds text only, and, when its text is written raw, none that would end it
 * (`</tag`).
 */
function specialReadable(tree: Tree, i: number, tag: string, raw: boolean): boolean {
  const end = raw ? new RegExp(`</${tag}[\\s/>]`, 'i') : null;
  for (let c = i + 1, e = tree.end[i]!; c < e; c = tree.end[c]!) {
    const k = tree.kind[c];
    if (k === NodeKind.Element || k === NodeKind.Comment) return false;
    if (end && end.test(tree.nodeText(c) + ' ')) return false;
  }
  return true;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u00a0': '&nbsp;', '\r': '&#13;' };
const escapeOne = (c: string): string => ESCAPES[c]!;

/** Text for HTML: `& < >`, no-break spaces and carriage returns (a parser would turn a CR into a LF) escaped. */
export function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0\r]/g, escapeOne);
}
/** An attribute value for a double-quoted attribute (see escapeText). */
export function escapeAttr(s: string): string {
  return s.replace(/[&"\u00a0\r]/g, escapeOne);
}

export interface SerializeOptions {
  /** Root of the subtree to write (default: the document). */
  root?: number;
  /** Extra attributes for element i, or undefined. */
  mark?: (i: number) => Readonly<Record<string, string>> | undefined;
  /**
   * Write the document's doctype first when serialising the whole document (default true). A document
   * without one gets none.
   */
  doctype?: boolean;
  /**
   * Raw HTML written as the first thing inside the document's `<head>` (e.g. a `<style>`), or, when the
   * document has no head, right after the `<html>` start tag, else first. Only when serialising the whole
   * document.
   */
  inject?: string;
  /** Leave element i out, with everything inside it (default: every node is written). */
  skip?: (i: number) => boolean;
  /** The value written for attribute `name` of element i, or undefined to leave it out (default: its own). */
  attr?: (i: number, name: string, value: string) => string | undefined;
}

/** What the serialiser asks of a tag, as bits by tag id (one lookup per element; see the sets above). */
const F_RAW_FAST = 1;
const F_RAW_EXACT = 2;
const F_FAST_SPECIAL = 4;
const F_FOREIGN_ORDINARY = 8;
const F_LEADING_NEWLINE = 16;
const F_VOID = 32;
/** Bits 6-7: the namespace of an element of this tag whose parent is in HTML content (namespace.ts). */
const NS_SHIFT = 6;
/** 0: not computed yet (every computed entry has bit 8 set). */
const F_KNOWN = 256;
let tagFlags = new Uint16Array(256);
function flagsOf(id: number): number {
  if (id >= tagFlags.length) {
    const t = new Uint16Array(Math.max(id + 1, tagFlags.length * 2));
    t.set(tagFlags);
    tagFlags = t;
  }
  let f = tagFlags[id]!;
  if (f === 0) {
    const name = tagName(id);
    f = F_KNOWN | (childNamespace(Namespace.Html, '', undefined, name) << NS_SHIFT);
    if (RAW_FAST_IDS.has(id)) f |= F_RAW_FAST;
    if (RAW_EXACT_IDS.has(id)) f |= F_RAW_EXACT;
    if (FAST_SPECIAL.has(id)) f |= F_FAST_SPECIAL;
    if (FOREIGN_ORDINARY.has(id)) f |= F_FOREIGN_ORDINARY;
    if (LEADING_NEWLINE.has(id)) f |= F_LEADING_NEWLINE;
    if (VOID_TAGS.has(name)) f |= F_VOID;
    tagFlags[id] = f;
  }
  return f;
}

/** How the content of an open element is written. */
const enum Content {
  Escaped = 0,
  Raw = 1,
  /** Exact-path plaintext: raw, and nothing closes it. */
  Endless = 2,
}

/**
 * Where serialisation writes: a string (`serialize`) or UTF-8 bytes (`serializeUtf8`). Markup is written as
 * is; text and attribute values are escaped by the sink as `escapeText` and `escapeAttr` do.
 */
interface Sink {
  /** s[from, to) as is (markup, raw text, comments, the doctype). */
  raw(s: string, from: number, to: number): void;
  /** s[from, to) escaped for text, or with `attr` for a double-quoted attribute value. */
  escaped(s: string, from: number, to: number, attr: boolean): void;
  /** `<name` (of tag id `id`), or with `end` `</name>`. */
  tag(id: number, name: string, end: boolean): void;
  /** ` name="value"`, the value escaped. */
  attr(name: string, value: string): void;
  /**
   * Start tags by their source text (tree.ts `tagSource`), for a sink that keeps them: writes the start
   * tag (`<name` and its attributes) kept for `src` under `owner`, or returns false.
   */
  keptStart?(owner: object, src: number): boolean;
  /** Keeps what was written since `from` as the start tag of `src` under `owner`. */
  keepStart?(owner: object, src: number, from: number): void;
  /** Where the next write goes (a sink that keeps start tags). */
  readonly pos?: number;
}

class StringSink implements Sink {
  out = '';
  raw(s: string, from: number, to: number): void {
    this.out += from === 0 && to === s.length ? s : s.slice(from, to);
  }
  escaped(s: string, from: number, to: number, attr: boolean): void {
    const t = from === 0 && to === s.length ? s : s.slice(from, to);
    this.out += attr ? escapeAttr(t) : escapeText(t);
  }
  tag(_id: number, name: string, end: boolean): void {
    this.out += end ? '</' + name + '>' : '<' + name;
  }
  attr(name: string, value: string): void {
    this.out += ` ${name}="${escapeAttr(value)}"`;
  }
}

export function serialize(tree: Tree, options: SerializeOptions = {}): string {
  const sink = new StringSink();
  const mark = options.mark;
  writeTree(tree, sink, options, mark ? (i) => writeAttrs(sink, mark(i)) : undefined);
  return sink.out;
}

/** ` name="value"` for each attribute (the value escaped). */
function writeAttrs(sink: Sink, attrs: Readonly<Record<string, string>> | undefined): void {
  if (attrs) for (const n of Object.keys(attrs)) sink.attr(n, attrs[n]!);
}

/** A document serialised to UTF-8, with the place of every element's marks (see `serializeUtf8`). */
export interface Utf8Document {
  /** The bytes (a view of the sink's buffer: valid until its next use). */
  bytes: Uint8Array;
  /** Every element, in node order, and the byte offset where its extra attributes would go. */
  elems: Int32Array;
  markAt: Int32Array;
}

/** How many bytes each escaped ASCII character takes as its reference (0: written as is). */
const TEXT_REF = new Uint8Array(128);
const ATTR_REF = new Uint8Array(128);
for (const [c, r] of Object.entries(ESCAPES)) {
  if (c.charCodeAt(0) >= 128) continue;
  if ('&<>\r'.includes(c)) TEXT_REF[c.charCodeAt(0)] = r.length;
  if ('&"\r'.includes(c)) ATTR_REF[c.charCodeAt(0)] = r.length;
}
const REF_BYTES: Uint8Array[] = Array.from({ length: 128 }, (_, c) => new TextEncoder().encode(ESCAPES[String.fromCharCode(c)] ?? ''));
const NBSP_BYTES = new TextEncoder().encode(ESCAPES['\u00a0']!);
const ENCODER = new TextEncoder();
/** Pieces at least this long go to the platform's encoder (below, a loop costs less than the call). */
const NATIVE_MIN = 24;
const TEXT_SPECIAL = /[&<>\u00a0\r]/g;
/** Most bytes of start tags a Utf8Sink keeps (then it forgets them all and starts again). */
const KEPT_TAGS_MAX = 8 << 20;
const ATTR_SPECIAL = /[&"\u00a0\r]/g;

/**
 * A reusable UTF-8 writer (one per thread): grows by doubling, never shrinks. A string with an unpaired
 * surrogate sets `lone` (a whole-string encoder would pair a high and a low surrogate written apart; the
 * caller falls back to `serialize` then).
 */
export class Utf8Sink implements Sink {
  buf = new Uint8Array(1 << 16);
  pos = 0;
  lone = false;
  /** `<name` and `</name>` in bytes, by tag id (tag ids are per thread, so is the sink). */
  private readonly tags: Array<Uint8Array | undefined> = [];
  private readonly ends: Array<Uint8Array | undefined> = [];
  private elems = new Int32Array(1024);
  private markAt = new Int32Array(1024);
  private marks = 0;
  /**
   * Start tags written before, by start-tag integer under `keptOwner` (tree.ts `tagSource`): their bytes
   * at keptAt[src] - 1 (0: none) in `kept`, keptLen[src] long. Most tags of a site repeat on every page.
   */
  private keptOwner: object | undefined;
  private keptAt = new Int32Array(0);
  private keptLen = new Int32Array(0);
  private kept = new Uint8Array(1 << 16);
  private keptUsed = 0;

  keptStart(owner: object, src: number): boolean {
    if (owner !== this.keptOwner || src >= this.keptAt.length) return false;
    const at = this.keptAt[src]! - 1;
    if (at < 0) return false;
    const n = this.keptLen[src]!;
    this.room(n);
    const buf = this.buf;
    const kept = this.kept;
    let p = this.pos;
    if (n < 64) for (let k = at, e = at + n; k < e; k++) buf[p++] = kept[k]!;
    else {
      buf.set(kept.subarray(at, at + n), p);
      p += n;
    }
    this.pos = p;
    return true;
  }

  keepStart(owner: object, src: number, from: number): void {
    if (this.lone) return;
    const n = this.pos - from;
    if (owner !== this.keptOwner || this.keptUsed + n > KEPT_TAGS_MAX) {
      this.keptOwner = owner;
      this.keptAt.fill(0);
      this.keptUsed = 0;
    }
    if (src >= this.keptAt.length) {
      const size = Math.max(src + 1, this.keptAt.length * 2, 1024);
      const at = new Int32Array(size);
      at.set(this.keptAt);
      this.keptAt = at;
      const len = new Int32Array(size);
      len.set(this.keptLen);
      this.keptLen = len;
    }
    if (this.keptUsed + n > this.kept.length) {
      const k = new Uint8Array(Math.max(this.keptUsed + n, this.kept.length * 2));
      k.set(this.kept.subarray(0, this.keptUsed));
      this.kept = k;
    }
    this.kept.set(this.buf.subarray(from, this.pos), this.keptUsed);
    this.keptAt[src] = this.keptUsed + 1;
    this.keptLen[src] = n;
    this.keptUsed += n;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.pos));
    this.buf = b;
  }

  raw(s: string, from: number, to: number): void {
    if (to - from >= NATIVE_MIN) this.encode(s, from, to, null, null);
    else if (to - from === 1 && s.charCodeAt(from) < 0x80) {
      this.room(1);
      this.buf[this.pos++] = s.charCodeAt(from);
    } else this.put(s, from, to, null);
  }

  escaped(s: string, from: number, to: number, attr: boolean): void {
    if (to - from >= NATIVE_MIN) this.encode(s, from, to, attr ? ATTR_SPECIAL : TEXT_SPECIAL, attr ? ATTR_REF : TEXT_REF);
    else this.put(s, from, to, attr ? ATTR_REF : TEXT_REF);
  }

  /**
   * A long piece: the runs between the characters to escape are encoded by the platform's encoder (much
   * faster than a loop over code units), the characters themselves by `put`.
   */
  private encode(s: string, from: number, to: number, special: RegExp | null, refs: Uint8Array | null): void {
    const t = from === 0 && to === s.length ? s : s.slice(from, to);
    if (!(t as unknown as { isWellFormed(): boolean }).isWellFormed()) {
      this.put(s, from, to, refs);
      return;
    }
    let at = 0;
    if (special !== null) {
      special.lastIndex = 0;
      for (let m = special.exec(t); m !== null; m = special.exec(t)) {
        if (m.index > at) this.native(t.slice(at, m.index));
        this.put(t, m.index, m.index + 1, refs);
        at = m.index + 1;
      }
    }
    this.native(at === 0 ? t : t.slice(at));
  }

  /** A well-formed string, with nothing to escape, by the platform's encoder. */
  private native(t: string): void {
    this.room(t.length * 3);
    this.pos += ENCODER.encodeInto(t, this.buf.subarray(this.pos)).written;
  }

  tag(id: number, name: string, end: boolean): void {
    const cache = end ? this.ends : this.tags;
    let b = cache[id];
    if (b === undefined) {
      b = new TextEncoder().encode(end ? '</' + name + '>' : '<' + name);
      cache[id] = b;
    }
    this.room(b.length);
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < b.length; k++) buf[p++] = b[k]!;
    this.pos = p;
  }

  attr(name: string, value: string): void {
    this.room(4);
    this.buf[this.pos++] = 32;
    this.put(name, 0, name.length, null);
    this.room(2);
    this.buf[this.pos++] = 61;
    this.buf[this.pos++] = 34;
    this.escaped(value, 0, value.length, true);
    this.room(1);
    this.buf[this.pos++] = 34;
  }

  /** Records where element i's marks go: here. */
  slot(i: number): void {
    if (this.marks === this.elems.length) {
      const e = new Int32Array(this.marks * 2);
      e.set(this.elems);
      this.elems = e;
      const m = new Int32Array(this.marks * 2);
      m.set(this.markAt);
      this.markAt = m;
    }
    this.elems[this.marks] = i;
    this.markAt[this.marks++] = this.pos;
  }

  private put(s: string, from: number, to: number, refs: Uint8Array | null): void {
    // at most 6 bytes a UTF-16 unit (`&nbsp;`)
    this.room((to - from) * 6);
    const b = this.buf;
    let p = this.pos;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (refs !== null && refs[c] !== 0) {
          b.set(REF_BYTES[c]!, p);
          p += refs[c]!;
        } else b[p++] = c;
      } else if (c === 0xa0 && refs !== null) {
        b.set(NBSP_BYTES, p);
        p += NBSP_BYTES.length;
      } else {
        const q = utf8Above127(b, p, c, i + 1 < to ? s.charCodeAt(i + 1) : 0);
        if (q < 0) {
          this.lone = true;
          b[p++] = 0xef;
          b[p++] = 0xbf;
          b[p++] = 0xbd;
        } else {
          if (q - p === 4) i++; // a surrogate pair: both units written
          p = q;
        }
      }
    }
    this.pos = p;
  }

  /** Starts a new document. */
  reset(): void {
    this.pos = 0;
    this.marks = 0;
    this.lone = false;
  }

  /** What was written since `reset` (views of the sink's buffers). */
  document(): Utf8Document {
    return { bytes: this.buf.subarray(0, this.pos), elems: this.elems.subarray(0, this.marks), markAt: this.markAt.subarray(0, this.marks) };
  }
}

/**
 * The UTF-8 of code unit `c` (at least 0x80; `d` the unit after it, or 0) into `b` at `p`, both units of a
 * surrogate pair at once (4 bytes: the caller steps over `d`); returns the position after it, or -1 for
 * an unpaired surrogate (nothing written).
 */
export function utf8Above127(b: Uint8Array, p: number, c: number, d: number): number {
  if (c < 0x800) {
    b[p] = 0xc0 | (c >> 6);
    b[p + 1] = 0x80 | (c & 0x3f);
    return p + 2;
  }
  if (c < 0xd800 || c > 0xdfff) {
    b[p] = 0xe0 | (c >> 12);
    b[p + 1] = 0x80 | ((c >> 6) & 0x3f);
    b[p + 2] = 0x80 | (c & 0x3f);
    return p + 3;
  }
  if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) return -1;
  const u = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  b[p] = 0xf0 | (u >> 18);
  b[p + 1] = 0x80 | ((u >> 12) & 0x3f);
  b[p + 2] = 0x80 | ((u >> 6) & 0x3f);
  b[p + 3] = 0x80 | (u & 0x3f);
  return p + 4;
}

/**
 * The document (`root`, `mark` ignored) as `serialize` writes it, in UTF-8 (what writing its string to a
 * file gives), into `sink` (reset first), with the offset where each element's marks go; undefined when the
 * tree's strings hold an unpaired surrogate (then encode `serialize`'s string).
 */
export function serializeUtf8(tree: Tree, sink: Utf8Sink, options: Omit<SerializeOptions, 'root' | 'mark'> = {}): Utf8Document | undefined {
  sink.reset();
  writeTree(tree, sink, options, (i) => sink.slot(i));
  return sink.lone ? undefined : sink.document();
}

function writeTree(tree: Tree, sink: Sink, options: SerializeOptions, marks: ((i: number) => void) | undefined): void {
  const root = options.root ?? 0;
  const raw = (s: string): void => sink.raw(s, 0, s.length);
  if (root === 0 && (options.doctype ?? true) && tree.doctype !== undefined) raw(tree.doctype);
  // The element the injected HTML goes into (-1: written first).
  let injectAt = -1;
  if (root === 0 && options.inject !== undefined) {
    injectAt = tree.find('head');
    if (injectAt < 0) injectAt = tree.find('html');
    if (injectAt < 0) raw(options.inject);
  }
  const { skip, attr } = options;
  // start tags by their source text, when the sink keeps them and every attribute is written as it is
  const tagSource = attr === undefined && sink.keptStart !== undefined ? tree.tagSource : undefined;
  const owner = tree.tagSourceOwner!;
  const exact = tree.rules === 'exact';
  const rawBit = exact ? F_RAW_EXACT : F_RAW_FAST;
  // Open elements: node, how its content is written, whether it is in svg/math content.
  const closers: number[] = [];
  const content: Content[] = [];
  /** Namespace of each open element (namespace.ts), the root's parent's first. */
  const spaces: Namespace[] = [];
  let endless = false;
  const last = tree.end[root]!;
  const text = tree.text;
  const closeUntil = (pos: number): void => {
    while (closers.length > 0 && tree.end[closers[closers.length - 1]!]! <= pos) {
      const e = closers.pop()!;
      content.pop();
      spaces.pop();
      if (!endless) sink.tag(tree.name[e]!, tree.tag(e), true);
    }
  };
  const nsOf = (i: number): Namespace => {
    const p = tree.parent[i]!;
    const parentNs = spaces.length > 0 ? spaces[spaces.length - 1]! : p > 0 ? namespaceOf(tree, p) : Namespace.Html;
    // the common case without string work: an element in HTML content (as childNamespace decides it)
    if (parentNs === Namespace.Html) return ((flagsOf(tree.name[i]!) >> NS_SHIFT) & 3) as Namespace;
    return p > 0 ? childNamespace(parentNs, tree.tag(p), tree.attr(p, 'encoding'), tree.tag(i)) : childNamespace(Namespace.Html, '', undefined, tree.tag(i));
  };
  for (let i = root; i < last; i++) {
    closeUntil(i);
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      if (skip?.(i) && i !== root) {
        i = tree.end[i]! - 1;
        continue;
      }
      const id = tree.name[i]!;
      const src = tagSource !== undefined ? tagSource[i]! : -1;
      if (src < 0 || !sink.keptStart!(owner, src)) {
        const from = sink.pos ?? 0;
        sink.tag(id, tree.tag(i), false);
        for (let a = tree.attrStart[i]!, e = tree.attrStart[i + 1]!; a < e; a++) {
          const name = tree.attrNames[a]!;
          const value = attr ? attr(i, name, tree.attrValues[a]!) : tree.attrValues[a]!;
          if (value !== undefined) sink.attr(name, value);
        }
        if (src >= 0) sink.keepStart!(owner, src, from);
      }
      marks?.(i);
      const f = flagsOf(id);
      const ns = nsOf(i);
      const html = ns === Namespace.Html;
      // Raw text: exact path, HTML elements only (in svg and math every element is ordinary); fast path,
      // as htmlparser2 reads it (xmp anywhere; script and style are decoded in svg and math, parse.ts).
      let c = Content.Escaped;
      if ((f & rawBit) !== 0 && (html || (!exact && (f & F_FOREIGN_ORDINARY) === 0))) c = id === PLAINTEXT ? Content.Endless : Content.Raw;
      // htmlparser2 reads the content of `<style/>` (script, xmp, title, textarea too) as markup: such an
      // element that holds elements or comments, or text that would end it early, is written so.
      const markupInside = !exact && (f & F_FAST_SPECIAL) !== 0 && !specialReadable(tree, i, tree.tag(i), c === Content.Raw);
      if (markupInside) c = Content.Escaped;
      raw(markupInside ? '/>' : '>');
      if (i === injectAt) raw(options.inject!);
      // htmlparser2 knows no namespaces: a void tag name is void everywhere on the fast path.
      if ((f & F_VOID) !== 0 && (html || !exact)) continue;
      if ((f & F_LEADING_NEWLINE) !== 0 && (html || !exact)) {
        const first = i + 1;
        if (first < tree.end[i]! && tree.kind[first] !== NodeKind.Element && tree.kind[first] !== NodeKind.Comment) {
          const c0 = text.charCodeAt(tree.textStart[first]!);
          if (c0 === 10 || c0 === 13) raw('\n');
        }
      }
      closers.push(i);
      content.push(c);
      spaces.push(ns);
      if (c === Content.Endless) endless = true;
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      const c = content.length > 0 ? content[content.length - 1]! : Content.Escaped;
      const from = tree.textStart[i]!;
      if (from < 0) continue;
      if (c === Content.Escaped) sink.escaped(text, from, tree.textEnd[i]!, false);
      else sink.raw(text, from, tree.textEnd[i]!);
    } else if (k === NodeKind.Comment) {
      const t = tree.nodeText(i);
      // htmlparser2 reads `<![CDATA[x]]>` as a comment "[CDATA[x]]", which may hold "-->".
      if (!exact && t.includes('-->') && t.startsWith('[CDATA[') && t.endsWith(']]')) {
        raw('<!');
        raw(t);
        raw('>');
      } else {
        raw('<!--');
        raw(t);
        raw('-->');
      }
    }
  }
  closeUntil(last);
  while (closers.length > 0) {
    const e = closers.pop()!;
    if (!endless) sink.tag(tree.name[e]!, tree.tag(e), true);
  }
}
