/**
 * Decoding page bytes to text, in the order browsers use (WHATWG Encoding and the HTML "encoding sniffing
 * algorithm", simplified): a byte-order mark wins; then the charset of the HTTP Content-Type header; then a
 * `<meta charset>` or `<meta http-equiv="content-type">` in the first 1024 bytes; otherwise UTF-8 when the
 * bytes are valid UTF-8, else windows-1252. Undecodable bytes become U+FFFD; decoding never throws.
 */
import { TextDecoder } from 'node:util';

/** Which rule chose the encoding. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'utf8-valid' | 'default';

export interface Decoded {
  text: string;
  /** WHATWG encoding name actually used (e.g. 'utf-8', 'windows-1252'). */
  charset: string;
  source: CharsetSource;
  /** Set when a declared charset was not supported and a fallback was used. */
  warning?: string;
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

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/**
 * Characters of bytes 0x80–0x9F in windows-1252 (WHATWG Encoding's index; the five unassigned bytes map
 * to the same code point). Node's TextDecoder decodes the 'windows-1252' family (also labelled latin1,
 * iso-8859-1, ascii) as ISO-8859-1, giving C1 controls where a browser shows € ‘ ’ “ ” – — ™ …
 */
const WINDOWS_1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/** Decodes with `dec`, correcting Node's windows-1252 (see WINDOWS_1252_HIGH). */
function decodeWith(dec: TextDecoder, bytes: Uint8Array): string {
  const text = dec.decode(bytes);
  if (dec.encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    return undefined;
  }
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
      const out: Decoded = { text: decodeWith(dec, bytes), charset: dec.encoding, source };
      if (warning) out.warning = warning;
      return out;
    }
    warning = `unsupported charset "${label}" (${source}); falling back`;
  }
  // 4. Valid UTF-8, else windows-1252.
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const out: Decoded = { text, charset: 'utf-8', source: 'utf8-valid' };
    if (warning) out.warning = warning;
    return out;
  } catch {
    const out: Decoded = { text: decodeWith(new TextDecoder('windows-1252'), bytes), charset: 'windows-1252', source: 'default' };
    if (warning) out.warning = warning;
    return out;
  }
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
