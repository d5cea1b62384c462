/**
 * The fast parse's tree construction: htmlparser2's tokenizer, and on its events the rules of htmlparser2's
 * Parser (the same events, so the same trees), kept on tag-name ids instead of strings. A tag's name is
 * found from its characters in a table of names (no string made for a name seen before), the open elements
 * are a stack of ids, and the rules (implied end tags, void elements, foreign content) are tables by id.
 * htmlparser2's Parser makes two strings a tag (its name, lowercased), shifts its stack array at the
 * front, and looks names up in maps: about a sixth of the parse's time on real pages.
 *
 * The rules, as htmlparser2 (10.x) applies them in HTML mode:
 *  - a start tag first closes the innermost open elements it implies closed (`<li>` an open `li`, `<p>`
 *    and block elements an open `p`, `<td>` a `td` or `th`…), one by one while the innermost is such;
 *  - a void element (br, img, meta…) is opened and closed at once; other elements stay open;
 *  - an end tag closes down to the innermost open element of its name; with none, `</p>` opens and closes
 *    an empty `p` and `</br>` an empty `br`, any other end tag is ignored;
 *  - `<x/>` closes its element at once inside svg or math (and everywhere with `selfClosing`);
 *  - CDATA sections are comments, declarations and processing instructions are reported with their name.
 * The depth limit of depth-limit.ts applies: a start tag that would open an element deeper than MAX_DEPTH
 * (raw-text elements excepted) opens and closes it at once, and its end tag only forgets it.
 * test/html/tree-parser.test.ts checks the events against htmlparser2's Parser. One file over 400 lines: the
 * tokenizer's events, the rules they apply and the name table they look names up in are one state machine.
 */
import { decodeHTMLAttribute } from 'entities';
import { Tokenizer, type QuoteType } from 'htmlparser2';
import { DEPTH_RAW_TEXT, MAX_DEPTH, Overflow } from './depth-limit.ts';
import { tagId, tagName } from './tree.ts';

/** What the parse builds from the events (ids are `tagId`s of the lowercased names as written). */
export interface TreeEvents {
  /**
   * An element opens; its start tag is the page's [start, end) (for `</p>` and `</br>`, the end tag), its
   * attributes `TreeParser.attributes`. A void element is closed at once by `close`. `how` is what `known`
   * returns to have this tag's text replayed when it is met again (0: it cannot be).
   */
  open(id: number, start: number, end: number, how: number): void;
  /**
   * Optional: the page's [start, end), from a `<` and a letter to the first `>` after them, is a start tag
   * whose `how` (from `open`) the tree side kept, and whose attributes it holds: that `how`, else 0. The
   * tokenizer then passes over the tag, whose events are replayed, and `open` gets the same range.
   */
  known?(start: number, end: number): number;
  /** The innermost open element closes. */
  close(): void;
  /** Text (character references not decoded: `TreeParser.decodesText` tells whether they should be). */
  text(start: number, end: number): void;
  comment(data: string): void;
  /** `!doctype…` or `?xml…`: the lowercased name and the whole text, as htmlparser2 reports them. */
  instruction(name: string, data: string): void;
}

/** Rule tables by tag id, made on first use (so that importing this interns no tag name). */
interface Rules {
  void: Uint8Array;
  /** 1: svg, math (open foreign content); 2: integration points (mi… desc, title; back to HTML). */
  context: Uint8Array;
  /** Raw-text elements, never closed at the depth limit. */
  rawText: Uint8Array;
  /** Per tag id: the ids of the open elements its start tag closes, or undefined. */
  closes: (Int32Array | undefined)[];
  p: number;
  br: number;
}
let rules: Rules | undefined;

function table(names: readonly string[], value = 1, into?: Uint8Array): Uint8Array {
  const ids = names.map((n) => tagId(n));
  const t = into ?? new Uint8Array(256);
  const out = Math.max(...ids) < t.length ? t : grown(t, Math.max(...ids) + 1);
  for (const id of ids) out[id] = value;
  return out;
}

function grown(t: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(Math.max(n, t.length * 2));
  b.set(t);
  return b;
}

function makeRules(): Rules {
  const form = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
  const byName: Record<string, readonly string[]> = {
    tr: ['tr', 'th', 'td'],
    th: ['th'],
    td: ['thead', 'th', 'td'],
    body: ['head', 'link', 'script'],
    li: ['li'],
    select: form,
    input: form,
    output: form,
    button: form,
    datalist: form,
    textarea: form,
    option: ['option'],
    optgroup: ['optgroup', 'option'],
    dd: ['dd', 'dt'],
    dt: ['dd', 'dt'],
    rt: ['rt', 'rp'],
    rp: ['rt', 'rp'],
    tbody: ['thead', 'tbody'],
    tfoot: ['thead', 'tbody'],
  };
  for (const n of ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul']) {
    byName[n] = ['p'];
  }
  const closes: (Int32Array | undefined)[] = [];
  for (const [n, c] of Object.entries(byName)) closes[tagId(n)] = Int32Array.from(c, (x) => tagId(x));
  const voids = ['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'];
  let context = table(['math', 'svg'], 1);
  context = table(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title'], 2, context);
  return {
    void: table(voids),
    context,
    rawText: table(DEPTH_RAW_TEXT),
    closes,
    p: tagId('p'),
    br: tagId('br'),
  };
}

/** Tag-name ids by the characters of a name as written: FNV-1a of the lowercased characters, open addressing. */
const NAME_SLOTS_MAX = 1 << 16;
let nameSlots = new Int32Array(1 << 10);
let nameHashes = new Int32Array(1 << 10);
let nameCount = 0;

/**
 * Names of one to four ASCII characters (most tags: a, p, li, div, span…), packed with their length into
 * one integer that is the key itself: found without comparing characters.
 */
const SHORT_SLOTS = 1 << 12;
const shortKeys = new Int32Array(SHORT_SLOTS);
const shortIds = new Int32Array(SHORT_SLOTS);
let shortCount = 0;

/** The id of the name html[start, end), lowercased as `toLowerCase` does. */
function nameId(html: string, start: number, end: number): number {
  if (end - start <= 4) {
    let key = end - start;
    for (let k = start, shift = 3; k < end; k++, shift += 7) {
      let c = html.charCodeAt(k);
      if (c >= 128 || c === 0) return longNameId(html, start, end);
      if (c >= 65 && c <= 90) c += 32;
      key |= c << shift;
    }
    let s = Math.imul(key, 0x9e3779b1) >>> 20;
    for (; shortKeys[s] !== 0; s = (s + 1) & (SHORT_SLOTS - 1)) if (shortKeys[s] === key) return shortIds[s]!;
    const id = tagId(html.slice(start, end).toLowerCase());
    // at most half full; past that, names are looked up the long way
    if (shortCount * 2 < SHORT_SLOTS) {
      shortKeys[s] = key;
      shortIds[s] = id;
      shortCount++;
    }
    return id;
  }
  return longNameId(html, start, end);
}

function longNameId(html: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = start; k < end; k++) {
    let c = html.charCodeAt(k);
    // non-ASCII: toLowerCase's Unicode rules (rare), no table
    if (c >= 128) return tagId(html.slice(start, end).toLowerCase());
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  const mask = nameSlots.length - 1;
  const len = end - start;
  let s = h & mask;
  for (; ; s = (s + 1) & mask) {
    const id = nameSlots[s]! - 1;
    if (id < 0) break;
    if (nameHashes[s] !== h) continue;
    const name = tagName(id);
    if (name.length !== len) continue;
    let k = 0;
    while (k < len) {
      const c = html.charCodeAt(start + k);
      if ((c >= 65 && c <= 90 ? c + 32 : c) !== name.charCodeAt(k)) break;
      k++;
    }
    if (k === len) return id;
  }
  const id = tagId(html.slice(start, end).toLowerCase());
  if (nameCount * 2 >= nameSlots.length) {
    if (nameSlots.length >= NAME_SLOTS_MAX) {
      // names met once (made-up tags): start again rather than grow without bound
      nameSlots.fill(0);
      nameCount = 0;
    } else {
      const old = nameSlots;
      const oldHashes = nameHashes;
      nameSlots = new Int32Array(old.length * 2);
      nameHashes = new Int32Array(old.length * 2);
      nameCount = 0;
      for (let k = 0; k < old.length; k++) if (old[k]! > 0) place(oldHashes[k]!, old[k]! - 1);
    }
  }
  place(h, id);
  return id;
}

function place(h: number, id: number): void {
  const mask = nameSlots.length - 1;
  let s = h & mask;
  while (nameSlots[s] !== 0) s = (s + 1) & mask;
  nameSlots[s] = id + 1;
  nameHashes[s] = h;
  nameCount++;
}

/** A growable stack of ints. */
class IntStack {
  a = new Int32Array(64);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.n * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  pop(): number {
    return this.n > 0 ? this.a[--this.n]! : -1;
  }
  top(): number {
    return this.n > 0 ? this.a[this.n - 1]! : -1;
  }
  has(v: number): boolean {
    for (let k = this.n - 1; k >= 0; k--) if (this.a[k] === v) return true;
    return false;
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** The tokenizer's members read here. */
interface TokenizerInternals {
  buffer: string;
  index: number;
  offset: number;
  state: number;
  sectionStart: number;
  isSpecial: boolean;
  currentSequence: Uint8Array;
}

/** htmlparser2's `State.Text` (its enum is not exported). */
const TEXT_STATE = 1;

/**
 * htmlparser2's tokenizer, skipping to the next occurrence of a character (the `<` after a text, the quote
 * ending an attribute value, the `>` of a comment, the end of a script or style) with the string's own
 * search instead of a loop over its characters; it leaves the tokenizer where the loop would.
 */
class SkippingTokenizer extends Tokenizer {}
(SkippingTokenizer.prototype as unknown as { fastForwardTo(this: TokenizerInternals, c: number): boolean }).fastForwardTo = function (c) {
  const at = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
  // not found: the tokenizer's loop stops on the buffer's last character (its caller steps past it)
  this.index = (at >= 0 ? at : this.buffer.length - 1) + this.offset;
  return at >= 0;
};

/**
 * Two kinds of tag are passed over in one step each rather than a character at a time, leaving the
 * tokenizer after the tag's `>` in the text state with the events its own steps would have given:
 *  - a start tag whose text the tree side knows (`TreeEvents.known`): from the `<`, the tag's text runs to
 *    the first `>` (a tag whose quoted value holds a `>` is never known under that range), and its events
 *    are replayed (a known tag is never one whose content is raw text);
 *  - an end tag whose name runs to its `>` (`</div>`): the tokenizer reads a name from its first letter to
 *    white space or `>`, so the name is that range.
 */
const tokenizeTagName = (Tokenizer.prototype as unknown as { stateBeforeTagName(c: number): void }).stateBeforeTagName;
(SkippingTokenizer.prototype as unknown as { stateBeforeTagName(this: TokenizerInternals & { cbs: TreeParser }, c: number): void }).stateBeforeTagName =
  function (c) {
    let gt = -1;
    if (((c | 0x20) - 97) >>> 0 < 26) gt = this.cbs.replayKnown(this.index - 1 - this.offset);
    else if (c === 0x2f) {
      const html = this.buffer;
      const name = this.index + 1 - this.offset;
      if (((html.charCodeAt(name) | 0x20) - 97) >>> 0 < 26) {
        let k = name + 1;
        for (let d = html.charCodeAt(k); d !== 0x3e; d = html.charCodeAt(++k)) {
          // white space ends the name before the `>`, and past the page's end there is no `>`
          if (d === 0x20 || d === 0x0a || d === 0x09 || d === 0x0c || d === 0x0d || d !== d) {
            k = -1;
            break;
          }
        }
        if (k > 0) {
          this.cbs.onclosetag(name + this.offset, k + this.offset);
          gt = k;
        }
      }
    }
    if (gt >= 0) {
      this.index = gt + this.offset;
      this.state = TEXT_STATE;
      this.sectionStart = gt + 1 + this.offset;
      return;
    }
    tokenizeTagName.call(this, c);
  };

const NUL = /\0/g;

/**
 * One parse of one page (`parse(html)`). The tokenizer does not decode character references: it skips
 * texts and attribute values in one search each, and the few that hold a `&` are decoded by the caller
 * (`decodesText`, and `attributes`), with the decoder and modes htmlparser2 uses.
 */
export class TreeParser {
  private readonly r: Rules;
  private readonly tokenizer: SkippingTokenizer;
  private html = '';
  /** htmlparser2's open elements (ids, innermost last) and its foreign-content flags (1: foreign). */
  private readonly stack = new IntStack();
  private readonly foreign = new IntStack();
  private readonly overflow = new Overflow<number>();
  /** The start tag being read: its id, and where it started. */
  private tag = 0;
  private tagStart = 0;
  /** How the start tag being ended tokenizes, for `TreeEvents.open` (0: not to be replayed). */
  private how = 0;
  /** Whether a start tag is open, whose `open` event is due at its end. */
  private due = false;
  /** Set between the name of a start tag that went past the depth limit and the end of that tag. */
  private deep = false;
  /** Where the current token starts and ends (htmlparser2's startIndex and endIndex). */
  private startIndex = 0;
  private endIndex = 0;
  /** Attributes of the current start tag. */
  private count = 0;
  /** Per attribute: its name's start and end, and its value's first part and end of parts (4 ints). */
  private attrs = new Int32Array(64);
  /** Value parts: `start, end` of a range of the page. */
  private parts = new Int32Array(128);
  private nparts = 0;

  constructor(
    private readonly events: TreeEvents,
    private readonly selfClosing: boolean,
    /** How many elements the tree being built has open (it implies or drops some that the rules do not). */
    private readonly openDepth: () => number,
  ) {
    this.r = rules ??= makeRules();
    this.tokenizer = new SkippingTokenizer({ decodeEntities: false }, this);
    this.foreign.push(0);
  }

  parse(html: string): void {
    this.html = html;
    this.tokenizer.write(html);
    this.tokenizer.end();
  }

  /**
   * Whether htmlparser2 would decode character references in the text being reported: everywhere but in
   * the raw content of script, style, textarea and xmp (title's is decoded).
   */
  decodesText(): boolean {
    const t = this.tokenizer as unknown as TokenizerInternals;
    // `</title`: the only special sequence whose content the tokenizer decodes
    return !t.isSpecial || (t.currentSequence[3] === 0x69 && t.currentSequence[2] === 0x74);
  }

  /**
   * The current start tag's attributes into `names` and `values` (emptied first), as htmlparser2 makes
   * them: names lowercased, the first of repeated names kept; values holding a `&` decoded (entities'
   * attribute mode, as htmlparser2 decodes them); with `nul`, NUL characters in names and values are U+FFFD (a name that then repeats one is
   * dropped), as in the HTML standard's tokenizer.
   */
  attributes(nul: boolean, names: string[], values: string[]): void {
    names.length = 0;
    values.length = 0;
    const { attrs, parts, html } = this;
    const seen = this.count > 8 ? new Set<string>() : undefined;
    for (let a = 0; a < this.count; a++) {
      const k = a * 4;
      let name = html.slice(attrs[k]!, attrs[k + 1]!).toLowerCase();
      if (nul && name.includes('\0')) name = name.replace(NUL, '\uFFFD');
      if (seen ? seen.has(name) : names.includes(name)) continue;
      seen?.add(name);
      let value = '';
      for (let p = attrs[k + 2]!, e = attrs[k + 3]!; p < e; p += 2) value += html.slice(parts[p]!, parts[p + 1]!);
      if (value.includes('&')) value = decodeHTMLAttribute(value);
      if (nul && value.includes('\0')) value = value.replace(NUL, '\uFFFD');
      names.push(name);
      values.push(value);
    }
  }

  // ---- the tokenizer's events

  onopentagname(start: number, end: number): void {
    this.endIndex = end;
    this.openName(nameId(this.html, start, end));
  }

  onattribname(start: number, end: number): void {
    this.startIndex = start;
    const k = this.count * 4;
    if (k + 4 > this.attrs.length) this.attrs = grow(this.attrs);
    this.attrs[k] = start;
    this.attrs[k + 1] = end;
    this.attrs[k + 2] = this.nparts;
  }

  onattribdata(start: number, end: number): void {
    if (this.nparts + 2 > this.parts.length) this.parts = grow(this.parts);
    this.parts[this.nparts++] = start;
    this.parts[this.nparts++] = end;
  }

  onattribentity(): void {
    // not called: the tokenizer does not decode
  }

  onattribend(_quote: QuoteType, end: number): void {
    this.endIndex = end;
    this.attrs[this.count * 4 + 3] = this.nparts;
    this.count++;
  }

  onopentagend(end: number): void {
    this.endIndex = end;
    // the content of script, style, title, textarea and xmp is raw text: such a tag is not replayed
    this.how = (this.tokenizer as unknown as TokenizerInternals).isSpecial ? 0 : (this.tag << 1) + 1;
    this.endTag();
    this.startIndex = end + 1;
    this.closeDeep();
  }

  onselfclosingtag(end: number): void {
    this.endIndex = end;
    this.how = ((this.tag << 1) | 1) + 1;
    const before = this.stack.n;
    if (this.selfClosing || this.foreign.top() === 1) {
      this.closeCurrent();
      this.startIndex = end + 1;
    } else {
      this.endTag();
      this.startIndex = end + 1;
    }
    if (this.stack.n < before) this.deep = false; // closed by its own slash
    else this.closeDeep();
  }

  onclosetag(start: number, end: number): void {
    const id = nameId(this.html, start, end);
    if (this.overflow.size > 0) {
      if (this.overflow.closeTo(id)) {
        // its element was closed when it was opened; the end tag only leaves the overflow
        this.endIndex = end;
        this.startIndex = end + 1;
        return;
      }
      // an end tag of an element at or above the limit closes every deeper one too
      if (this.stack.has(id)) this.overflow.clear();
    }
    this.count = 0;
    this.nparts = 0;
    this.endIndex = end;
    const r = this.r;
    if (this.is(r.context, id)) this.foreign.pop();
    if (!this.is(r.void, id)) {
      const s = this.stack;
      let k = s.n - 1;
      while (k >= 0 && s.a[k] !== id) k--;
      if (k >= 0) {
        while (s.n > k) {
          s.n--;
          this.events.close();
        }
      } else if (id === r.p) {
        this.how = 0;
        this.startTag(id);
        this.closeCurrent();
      }
    } else if (id === r.br) {
      this.events.open(id, this.startIndex, this.endIndex + 1, 0);
      this.events.close();
    }
    this.startIndex = end + 1;
  }

  ontext(start: number, end: number): void {
    this.endIndex = end - 1;
    this.events.text(start, end);
    this.startIndex = end;
  }

  ontextentity(): void {
    // not called: the tokenizer does not decode
  }

  oncomment(start: number, end: number, offset: number): void {
    this.endIndex = end;
    this.events.comment(this.html.slice(start, end - offset));
    this.startIndex = end + 1;
  }

  oncdata(start: number, end: number, offset: number): void {
    this.endIndex = end;
    this.events.comment(`[CDATA[${this.html.slice(start, end - offset)}]]`);
    this.startIndex = end + 1;
  }

  ondeclaration(start: number, end: number): void {
    this.instruction('!', start, end);
  }

  onprocessinginstruction(start: number, end: number): void {
    this.instruction('?', start, end);
  }

  onend(): void {
    this.endIndex = this.startIndex;
    for (let k = this.stack.n; k > 0; k--) this.events.close();
  }

  /**
   * The start tag at `lt` (a `<` and a letter) when the tree side knows its text (`TreeEvents.known`): its
   * events, as the tokenizer's steps through it would give them; returns where the tag ends (its `>`), or
   * -1 when it is not known and must be tokenized.
   */
  replayKnown(lt: number): number {
    const known = this.events.known;
    if (known === undefined) return -1;
    const gt = this.html.indexOf('>', lt + 2);
    if (gt < 0) return -1;
    const how = known.call(this.events, lt, gt + 1);
    if (how === 0) return -1;
    const v = how - 1;
    this.openName(v >> 1);
    if ((v & 1) === 1) this.onselfclosingtag(gt);
    else this.onopentagend(gt);
    return gt;
  }

  // ---- the rules

  /** A start tag's name read: its element is due, and `deep` tells whether it goes past the depth limit. */
  private openName(id: number): void {
    this.count = 0;
    this.nparts = 0;
    const before = this.stack.n;
    this.startTag(id);
    // the elements it implied closed are closed already; the new one is not opened yet
    this.deep = this.stack.n > before && (this.openDepth() >= MAX_DEPTH || this.stack.n > 2 * MAX_DEPTH) && !this.is(this.r.rawText, this.stack.top());
  }

  private is(t: Uint8Array, id: number): number {
    return id >= 0 && id < t.length ? t[id]! : 0;
  }

  /** A start tag's name: the elements it implies closed are closed, and it is pushed unless void. */
  private startTag(id: number): void {
    this.tagStart = this.startIndex;
    this.tag = id;
    this.due = true;
    const closes = id < this.r.closes.length ? this.r.closes[id] : undefined;
    if (closes) {
      const s = this.stack;
      while (s.n > 0 && closes.includes(s.a[s.n - 1]!)) {
        s.n--;
        this.events.close();
      }
    }
    if (!this.is(this.r.void, id)) {
      this.stack.push(id);
      const c = this.is(this.r.context, id);
      if (c !== 0) this.foreign.push(c === 1 ? 1 : 0);
    }
  }

  /** The end of a start tag: its element opens (and a void one closes). */
  private endTag(): void {
    this.startIndex = this.tagStart;
    if (this.due) {
      this.due = false;
      this.events.open(this.tag, this.startIndex, this.endIndex + 1, this.how);
    }
    if (this.is(this.r.void, this.tag)) this.events.close();
    this.tag = 0;
  }

  /** Ends the current start tag and closes its element (a self-closing tag, an implied `<p>`). */
  private closeCurrent(): void {
    const id = this.tag;
    this.endTag();
    if (this.stack.top() === id) {
      this.events.close();
      this.stack.pop();
    }
  }

  /** Closes the element just opened past the depth limit, remembering it for its end tag. */
  private closeDeep(): void {
    if (!this.deep) return;
    this.deep = false;
    const id = this.stack.pop();
    if (this.is(this.r.context, id)) this.foreign.pop();
    this.events.close();
    this.overflow.push(id);
  }

  private instruction(mark: string, start: number, end: number): void {
    this.endIndex = end;
    const value = this.html.slice(start, end);
    const at = value.search(/\s|\//);
    const name = (at < 0 ? value : value.slice(0, at)).toLowerCase();
    this.events.instruction(`${mark}${name}`, `${mark}${value}`);
    this.startIndex = end + 1;
  }
}
