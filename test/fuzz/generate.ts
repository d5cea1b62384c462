/**
 * The fuzzer's inputs: generated documents (random tag soup with the parts of HTML that are hard to get
 * right: raw-text and RCDATA elements, svg and math, tables, templates, forms, broken entities, comments
 * and doctypes, NUL and control characters, deep nesting past the parsers' depth limit, huge attributes,
 * odd URLs in links) and mutations of real pages (ranges cut, repeated or moved, markup or bytes
 * inserted, the page cut short), then turned into bytes in an odd way now and then (a legacy charset with
 * or without a declaration, a wrong declaration, a byte-order mark, binary bytes). Every choice comes from
 * the seeded Rng, so a case is reproduced from its seed.
 */
import iconv from 'iconv-lite';
import type { Rng } from './rng.ts';

const ELEMENTS = [
  'div', 'p', 'span', 'a', 'b', 'i', 'em', 'strong', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'section', 'article',
  'nav', 'header', 'footer', 'main', 'aside', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'caption', 'colgroup', 'col', 'form',
  'input', 'select', 'option', 'optgroup', 'button', 'label', 'textarea', 'pre', 'listing', 'code', 'br', 'hr', 'img', 'script',
  'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext', 'title', 'template', 'svg', 'math', 'foreignObject',
  'desc', 'path', 'mi', 'mtext', 'annotation-xml', 'html', 'head', 'body', 'frameset', 'frame', 'base', 'meta', 'link', 'font',
  'nobr', 'object', 'embed', 'param', 'ruby', 'rt', 'rp', 'image', 'isindex', 'marquee', 'applet', 'wbr', 'area', 'map', 'x-custom',
  'DIV', 'Svg', 'p:q', 'a1',
];
const ATTRS = ['class', 'id', 'href', 'src', 'title', 'style', 'alt', 'name', 'value', 'type', 'rel', 'content', 'charset', 'http-equiv', 'data-x', 'onclick', 'xmlns', 'xlink:href', 'viewBox', 'encoding', 'selected', 'lang'];
const ENTITIES = ['&amp;', '&lt;', '&gt;', '&quot;', '&nbsp;', '&#169;', '&#x263A;', '&#0;', '&#xD800;', '&#x110000;', '&#99999999;', '&amp', '&notin', '&notanentity;', '&#x;', '&#;', '&', '&#128;', '&copy', '&AElig'];
const WORDS = ['lorem', 'ipsum', 'dolor', 'café', 'naïve', '東京', '한국어', 'Привет', 'שלום', '\u00a0', ' ', '\t', '\n', '\r\n', 'x<y', 'a>b', '"q"', "'s'", '\u0000', '\u0001', '\ufeff', '\ud83d\ude00', '\ud800', '\uffff', '`', ']]>', '-->', '<!--', '</', '<x', '&'];
/** Link targets that are odd in one way or another. */
export const ODD_HREFS = [
  'page.html', '/abs/path.html', '../up.html', './a/../b.html', 'dir/', '?q=1', '#frag', 'bad%00name.html', '%2e%2e/%2e%2e/etc/passwd',
  'con.html', 'aux', 'trailing.', 'sp ace.html', 'x'.repeat(300) + '.html', 'q.html?' + 'y=1&'.repeat(300), 'javascript:alert(1)',
  'mailto:a@b.c', '//other.host/x', 'http://[::1]/', 'http://a b/', 'http:///x', 'data:text/html,<p>x</p>', 'é/ü.html', '%E9.html',
  '%', '%zz', '\\\\back\\slash.html', 'a\u0000b.html', '  spaced  ', 'file:///etc/passwd', 'HTTP://UPPER.case/X',
];

function text(rng: Rng): string {
  const n = rng.between(1, 6);
  let s = '';
  for (let k = 0; k < n; k++) s += rng.chance(0.15) ? rng.pick(ENTITIES) : rng.pick(WORDS) + (rng.chance(0.7) ? ' ' : '');
  return s;
}

function attrValue(rng: Rng): string {
  const r = rng.next();
  if (r < 0.05) return 'v'.repeat(rng.between(1000, 100_000));
  if (r < 0.25) return rng.pick(ODD_HREFS);
  if (r < 0.4) return text(rng);
  return rng.pick(['nav', 'menu main', 'content', 'x y z', '', 'a\u0000b', 'é', '1', 'text/html; charset=shift_jis', 'utf-8']);
}

function attrs(rng: Rng): string {
  let s = '';
  const n = rng.chance(0.6) ? rng.int(3) : rng.int(6);
  for (let k = 0; k < n; k++) {
    const name = rng.chance(0.9) ? rng.pick(ATTRS) : rng.pick(['=x', '"q', "a'b", '<', 'a/b', 'ä', '1', 'x\u0000']);
    const q = rng.pick(['"', "'", '', '"']);
    const v = attrValue(rng);
    s += rng.chance(0.1) ? ` ${name}` : ` ${name}=${q}${q === '' ? v.replace(/[\s>]/g, '') : v.split(q).join('')}${q}`;
  }
  return s;
}

/** A random fragment of tag soup, nested up to `depth`. */
function soup(rng: Rng, depth: number, budget: { n: number }): string {
  let s = '';
  const parts = rng.between(1, 5);
  for (let k = 0; k < parts && budget.n > 0; k++) {
    budget.n--;
    const r = rng.next();
    if (r < 0.35) {
      s += text(rng);
    } else if (r < 0.8 && depth > 0) {
      const tag = rng.pick(ELEMENTS);
      s += `<${tag}${attrs(rng)}${rng.chance(0.05) ? '/' : ''}>`;
      s += soup(rng, depth - 1, budget);
      if (rng.chance(0.8)) s += `</${rng.chance(0.9) ? tag : rng.pick(ELEMENTS)}>`;
    } else if (r < 0.86) {
      s += rng.pick(['<!-- c -->', '<!-->', '<!--->', '<!-- a -- b --!>', '<!-- unclosed', '<![CDATA[x<y]]>', '<?php x ?>', '<!x>', '</ x>', '<!DOCTYPE html>', '< p>', '<>', '</>']);
    } else if (r < 0.92) {
      s += `<a href="${rng.pick(ODD_HREFS)}">${text(rng)}</a>`;
    } else {
      s += rng.pick(['<', '>', '&', '"', "'", '/', '=', '\u0000', '<p', '</div', '<script>', '<table>', '<svg>', '<math>', '<select>', '<template>']);
    }
  }
  return s;
}

/** A generated document: a random head and body of tag soup, sometimes very deep or with many links. */
export function generatedPage(rng: Rng): string {
  const doctype = rng.pick(['<!DOCTYPE html>', '', '<!doctype html public "-//W3C//DTD HTML 4.01 Transitional//EN">', '<!DOCTYPE>', '<!DOCTYPE html SYSTEM "about:legacy-compat">']);
  const head = rng.chance(0.7) ? `<head><title>${text(rng)}</title>${rng.chance(0.3) ? `<meta charset="${rng.pick(['utf-8', 'shift_jis', 'x-nope', 'utf-16', 'windows-1251'])}">` : ''}${rng.chance(0.2) ? `<base href="${rng.pick(ODD_HREFS)}">` : ''}</head>` : '';
  let body = soup(rng, rng.between(2, 8), { n: rng.between(20, 200) });
  const r = rng.next();
  if (r < 0.04) {
    // Past the parsers' depth limit.
    const d = rng.between(500, 3000);
    const tag = rng.pick(['div', 'b', 'span', 'li', 'table', 'svg', 'a', 'p', 'font']);
    body += `<${tag}>`.repeat(d) + text(rng) + (rng.chance(0.5) ? `</${tag}>`.repeat(d) : '') + '<p>after</p>';
  } else if (r < 0.07) {
    body += '<p>' + Array.from({ length: rng.between(200, 3000) }, (_, k) => `<a href="/l${k}.html">l${k}</a>`).join(rng.chance(0.5) ? ' ' : '') + '</p>';
  } else if (r < 0.09) {
    body += `<div class="${'c '.repeat(rng.between(1000, 50_000))}">${text(rng)}</div>`;
  }
  return `${doctype}<html${attrs(rng)}>${head}<body${attrs(rng)}>${body}</body></html>`;
}

/** A mutation of `html`: a range cut, repeated or moved, markup or bytes inserted, the page cut short. */
export function mutate(rng: Rng, html: string): string {
  let s = html;
  const n = rng.between(1, 4);
  for (let k = 0; k < n; k++) {
    const at = rng.int(s.length + 1);
    const len = rng.int(Math.min(2000, s.length - at) + 1);
    switch (rng.int(8)) {
      case 0:
        s = s.slice(0, at) + s.slice(at + len);
        break;
      case 1:
        s = s.slice(0, at + len) + s.slice(at, at + len) + s.slice(at + len);
        break;
      case 2: {
        const to = rng.int(s.length + 1);
        const piece = s.slice(at, at + len);
        const rest = s.slice(0, at) + s.slice(at + len);
        s = rest.slice(0, Math.min(to, rest.length)) + piece + rest.slice(Math.min(to, rest.length));
        break;
      }
      case 3:
        s = s.slice(0, at) + soup(rng, 4, { n: 20 }) + s.slice(at);
        break;
      case 4:
        s = s.slice(0, at) + rng.pick(['<', '>', '&', '"', '</', '<!--', '\u0000', '<script>', '<svg>', '<table>', '<plaintext>', '<xmp>', '<textarea>', '</body>', '</html>', '<html>']) + s.slice(at);
        break;
      case 5:
        s = s.slice(0, Math.max(1, at));
        break;
      case 6:
        s = s.slice(0, at) + s.slice(at, at + len).toUpperCase() + s.slice(at + len);
        break;
      default:
        s = s.slice(0, at) + `<a href="${rng.pick(ODD_HREFS)}">${text(rng)}</a>` + s.slice(at);
    }
  }
  return s;
}

const CHARSETS = ['shift_jis', 'euc-kr', 'gb18030', 'windows-1251', 'windows-1252', 'big5', 'koi8-r', 'utf-16le', 'iso-8859-2'];

/** How a case's text becomes bytes, and the content type that comes with them (if any). */
export interface EncodedPage {
  bytes: Uint8Array;
  contentType?: string;
  /** How, in a few words (for the failure report). */
  how: string;
}

/** The bytes of a page: UTF-8 mostly; sometimes a legacy charset, a wrong or no declaration, a BOM, binary bytes. */
export function encodePage(rng: Rng, html: string): EncodedPage {
  const r = rng.next();
  if (r < 0.7) return { bytes: new TextEncoder().encode(html), how: 'utf-8' };
  if (r < 0.85) {
    const cs = rng.pick(CHARSETS);
    const bytes = new Uint8Array(iconv.encode(html, cs));
    const declared = rng.pick([undefined, cs, rng.pick(CHARSETS), 'x-unknown']);
    return declared === undefined ? { bytes, how: `${cs}, undeclared` } : { bytes, contentType: `text/html; charset=${declared}`, how: `${cs}, declared ${declared}` };
  }
  if (r < 0.92) {
    const bom = rng.pick([[0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff]]);
    return { bytes: new Uint8Array([...bom, ...new TextEncoder().encode(html)]), how: `BOM ${bom.join(',')} + utf-8` };
  }
  const bytes = new TextEncoder().encode(html);
  const out = new Uint8Array(bytes);
  const k = rng.between(1, 20);
  for (let j = 0; j < k && out.length > 0; j++) out[rng.int(out.length)] = rng.int(256);
  return { bytes: out, how: `utf-8 with ${k} random bytes` };
}

/** A page key: ordinary most of the time, odd (NUL, long, reserved names, '..', long query) now and then. */
export function pageKey(rng: Rng, index: number): string {
  if (rng.chance(0.7)) return rng.pick(['', 'a/', 'b/c/']) + `p${index}.html`;
  return rng.pick([
    `bad\u0000${index}.html`, `${'x'.repeat(rng.between(250, 600))}${index}.html`, `con${index === 0 ? '' : index}.html`, 'con.html', `lpt1/p${index}.html`,
    `dots./p${index}.html`, `q${index}.html?${'y=1&'.repeat(rng.between(10, 400))}`, `a:b|c*${index}?.html`, `sp ace ${index}.html`, `é/ü${index}.html`,
    `${'d/'.repeat(rng.between(100, 400))}p${index}.html`,
  ]);
}
