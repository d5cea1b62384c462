/**
 * Decoding page bytes to text, in the order browsers use (WHATWG Encoding and the HTML "encoding sniffing
 * algorithm", simplified): a byte-order mark wins; then the charset of the HTTP Content-Type header; then a
 * `<meta charset>` or `<meta http-equiv="content-type">` in the first 1024 bytes, unless the bytes are UTF-8
 * under another declaration (`MISLABELLED_MIN_BYTES`: read as UTF-8 with a warning, where a browser shows
 * mojibake); otherwise UTF-8 when the
 * bytes are valid UTF-8; else the encoding a statistical detector (chardet, the ICU detector's port) finds
 * in the bytes around the first non-ASCII byte, with a warning when its confidence is low; windows-1252
 * when it finds none that can be decoded, or is unsure on a page with few non-ASCII bytes. Undecodable bytes become U+FFFD; decoding never throws.
 * docs/robustness.md gives the detector's measured accuracy.
 */
import { isAscii, isUtf8, transcode } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { analyse } from 'chardet';

/** Which rule chose the encoding. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'utf8-valid' | 'sniffed' | 'default';

export interface Decoded {
  text: string;
  /** WHATWG encoding name actually used (e.g. 'utf-8', 'windows-1252'). */
  charset: string;
  source: CharsetSource;
  /** For a sniffed encoding: the detector's confidence, 0–1. */
  confidence?: number;
  /** Set when a declared charset was not supported and a fallback was used, or a sniffed one is unsure. */
  warning?: string;
}

/**
 * Bytes given to the detector: from a little before the first non-ASCII byte (what comes before is ASCII
 * markup, which says nothing of the encoding), so that a long ASCII head does not hide the text.
 */
export const SNIFF_BYTES = 16 * 1024;
/** Context kept before the first non-ASCII byte. */
const SNIFF_BEFORE = 1024;
/**
 * Below this confidence a sniffed encoding is used with a warning. On the measured samples every wrong
 * answer had a confidence of 0.50 or less, every right CJK answer 0.63 or more; right answers for Latin and
 * Cyrillic pages are often below it (those encodings are hard to tell apart), and say so.
 */
export const SNIFF_LOW_CONFIDENCE = 0.6;

/**
 * Non-ASCII bytes the sample must hold for an unsure answer to be taken: with fewer (a page with a few
 * accented letters), a low-confidence guess is no better than the default, windows-1252.
 */
export const SNIFF_MIN_EVIDENCE = 32;

/** What the detector found in undeclared, non-UTF-8 bytes. */
export interface Sniffed {
  /** A decoder of the best answer that can be decoded, or undefined when there is none. */
  decoder?: TextDecoder;
  /** Its confidence, 0–1 (0 when none). */
  confidence: number;
  /** Non-ASCII bytes in the sample the detector read. */
  evidence: number;
}

/** Runs the detector on the bytes around the first non-ASCII byte (see SNIFF_BYTES). */
export function sniffCharset(bytes: Uint8Array): Sniffed {
  let first = 0;
  while (first < bytes.length && bytes[first]! < 0x80) first++;
  const from = Math.max(0, first - SNIFF_BEFORE);
  const sample = bytes.subarray(from, from + SNIFF_BYTES);
  let evidence = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i]! >= 0x80) evidence++;
  for (const m of analyse(sample)) {
    // Names the detector gives that decoders do not know (EBCDIC, UTF-32, ISO-2022-KR/CN) are passed over.
    const decoder = decoderFor(m.name);
    if (decoder) return { decoder, confidence: m.confidence / 100, evidence };
  }
  return { confidence: 0, evidence };
}

/** The charset parameter of a Content-Type header value, lowercased, or undefined. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Finds a charset declared by a meta element in the first 1024 bytes (read as ASCII). */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  const head = latin1(bytes.subarray(0, 1024));
  const re = /<meta\b[^>]*>/gi;
  for (let m = re.exec(head); m; m = re.exec(head)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct) return direct[1]!.toLowerCase();
  }
  return undefined;
}

/** Each byte as the character of the same code (ISO-8859-1 proper, not the WHATWG windows-1252 label). */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * Characters of bytes 0x80–0x9F in windows-1252 (WHATWG Encoding's index; the five unassigned bytes map
 * to the same code point). Node's TextDecoder decodes the 'windows-1252' family (also labelled latin1,
 * iso-8859-1, ascii) as ISO-8859-1, giving C1 controls where a browser shows € ‘ ’ “ ” – — ™ …
 */
const WINDOWS_1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * Valid UTF-8 (checked first) as a string, by the fastest of Node's decoders for it: ASCII read as
 * Latin-1, other text by ICU's transcoding into UTF-16. On valid UTF-8 every decoder gives the same
 * string; undefined when the bytes are not valid UTF-8 (the caller's decoder then replaces what is not).
 */
function validUtf8(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (isAscii(b)) return b.toString('latin1');
  if (!isUtf8(b)) return undefined;
  try {
    return transcode(b, 'utf8', 'utf16le').toString('utf16le');
  } catch {
    return undefined; // a Node built without ICU
  }
}

/** Decodes with `dec`, correcting Node's windows-1252 (see WINDOWS_1252_HIGH). */
function decodeWith(dec: TextDecoder, bytes: Uint8Array): string {
  if (dec.encoding === 'utf-8') return validUtf8(bytes) ?? dec.decode(bytes);
  const text = dec.decode(bytes);
  if (dec.encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** UTF-8 that throws on invalid bytes (rule 4). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Non-ASCII bytes a page declaring another charset must hold, all of them valid UTF-8, to be read as UTF-8:
 * text in a legacy encoding (an accented letter of ISO-8859-1, a pair of GB2312) is almost never valid
 * UTF-8 over several characters, while pages saved as UTF-8 under a template's old declaration are common.
 */
const MISLABELLED_MIN_BYTES = 6;

/** The text of `bytes` as UTF-8 when it declares another charset but is UTF-8 (MISLABELLED_MIN_BYTES). */
function mislabelledUtf8(bytes: Uint8Array): string | undefined {
  let high = 0;
  for (let i = 0; i < bytes.length && high < MISLABELLED_MIN_BYTES; i++) if (bytes[i]! >= 0x80) high++;
  if (high < MISLABELLED_MIN_BYTES) return undefined;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
/** Decoders by label (null: no such encoding), made once: a decoder used without `stream` keeps no state. */
const decoders = new Map<string, TextDecoder | null>();

function decoderFor(label: string): TextDecoder | undefined {
  let dec = decoders.get(label);
  if (dec === undefined) {
    try {
      dec = new TextDecoder(label, { fatal: false });
    } catch {
      dec = null;
    }
    if (decoders.size < 256) decoders.set(label, dec);
  }
  return dec ?? undefined;
}

/**
 * True when `decodeHtml` reads the bytes without a warning and without a replaced byte, known without
 * decoding them: a byte-order mark, or valid UTF-8 that declares UTF-8 (first in the header, else in a
 * meta) or nothing. Other pages (a legacy declaration, bytes that are not UTF-8) need the decoding to tell.
 */
export function plainUtf8(bytes: Uint8Array, contentType?: string): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) return true;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return true;
  const header = charsetFromContentType(contentType);
  const label = header ?? charsetFromMeta(bytes);
  if (label !== undefined) {
    const l = header === undefined && label.startsWith('utf-16') ? 'utf-8' : label;
    if (decoderFor(l)?.encoding !== 'utf-8') return false;
  }
  return isUtf8(bytes);
}

/** Decodes HTML bytes to a string; see the module comment for the order of rules. */
export function decodeHtml(bytes: Uint8Array, contentType?: string): Decoded {
  // 1. Byte-order mark.
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), charset: 'utf-8', source: 'bom' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), charset: 'utf-16be', source: 'bom' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), charset: 'utf-16le', source: 'bom' };
  }
  let warning: string | undefined;
  // 2. HTTP header, 3. meta.
  for (const [label, source] of [
    [charsetFromContentType(contentType), 'header'],
    [charsetFromMeta(bytes), 'meta'],
  ] as const) {
    if (!label) continue;
    // A page that declares UTF-16 in a meta tag is read as ASCII-compatible, so it cannot really be UTF-16.
    const l = source === 'meta' && label.startsWith('utf-16') ? 'utf-8' : label;
    const dec = decoderFor(l);
    if (dec) {
      const utf8 = dec.encoding === 'utf-8' ? undefined : mislabelledUtf8(bytes);
      if (utf8 !== undefined) {
        return { text: utf8, charset: 'utf-8', source: 'utf8-valid', warning: (warning ? `${warning}; ` : '') + `declares ${dec.encoding} (${source}) but its bytes are UTF-8; decoded as UTF-8` };
      }
      const out: Decoded = { text: decodeWith(dec, bytes), charset: dec.encoding, source };
      if (warning) out.warning = warning;
      return out;
    }
    warning = `unsupported charset "${label}" (${source}); falling back`;
  }
  // 4. Valid UTF-8.
  try {
    const text = validUtf8(bytes) ?? STRICT_UTF8.decode(bytes);
    const out: Decoded = { text, charset: 'utf-8', source: 'utf8-valid' };
    if (warning) out.warning = warning;
    return out;
  } catch {
    /* not UTF-8: sniff */
  }
  // 5. Sniffed, else windows-1252.
  const { decoder, confidence, evidence } = sniffCharset(bytes);
  const sure = confidence >= SNIFF_LOW_CONFIDENCE;
  const also = (w: string): string => (warning ? `${warning}; ${w}` : w);
  if (decoder && (sure || evidence >= SNIFF_MIN_EVIDENCE)) {
    const out: Decoded = { text: decodeWith(decoder, bytes), charset: decoder.encoding, source: 'sniffed', confidence };
    if (!sure) warning = also(`no charset declared and not UTF-8; decoded as ${decoder.encoding}, sniffed with low confidence (${confidence.toFixed(2)})`);
    if (warning) out.warning = warning;
    return out;
  }
  const out: Decoded = { text: decodeWith(new TextDecoder('windows-1252'), bytes), charset: 'windows-1252', source: 'default' };
  // Few non-ASCII bytes and an unsure detector: the usual legacy encoding, without a warning unless the
  // detector had something else to say.
  if (decoder && decoder.encoding !== 'windows-1252') {
    warning = also(`no charset declared and not UTF-8; decoded as windows-1252 (${evidence} non-ASCII bytes; ${decoder.encoding} sniffed with low confidence ${confidence.toFixed(2)})`);
  }
  if (warning) out.warning = warning;
  return out;
}

/**
 * True when bytes look binary rather than text (a NUL byte, or many control characters, in the first
 * 4 KiB, after any BOM). Used to refuse images and archives served as pages.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  if (n === 0) return false;
  const utf16 = (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe);
  if (utf16) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control / n > 0.1;
}
