import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charsetFromContentType, charsetFromMeta, decodeHtml, looksBinary, plainUtf8 } from '../../src/html/charset.ts';
import { parseHtml } from '../../src/html/parse.ts';

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
const bytes = (...parts: Array<string | number[]>): Uint8Array => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? ascii(p) : p)));

test('a byte-order mark wins over everything', () => {
  const u8 = decodeHtml(bytes([0xef, 0xbb, 0xbf], '<p>caf', [0xc3, 0xa9], '</p>'), 'text/html; charset=iso-8859-1');
  assert.deepEqual([u8.text, u8.charset, u8.source], ['<p>café</p>', 'utf-8', 'bom']);
  const le = decodeHtml(new Uint8Array([0xff, 0xfe, ...Buffer.from('<p>é€</p>', 'utf16le')]));
  assert.deepEqual([le.text, le.charset, le.source], ['<p>é€</p>', 'utf-16le', 'bom']);
  const be = Buffer.from('<p>é€</p>', 'utf16le').swap16();
  const dbe = decodeHtml(new Uint8Array([0xfe, 0xff, ...be]));
  assert.deepEqual([dbe.text, dbe.charset, dbe.source], ['<p>é€</p>', 'utf-16be', 'bom']);
});

test('the Content-Type header comes next, then meta charset, then meta http-equiv', () => {
  const latin = bytes('<meta charset="utf-8"><p>caf', [0xe9], '</p>');
  const h = decodeHtml(latin, 'text/html; charset=ISO-8859-1');
  assert.deepEqual([h.text.endsWith('café</p>'), h.charset, h.source], [true, 'windows-1252', 'header']);
  const m = decodeHtml(bytes('<head><meta charset="iso-8859-15"></head><p>', [0xa4], '</p>'));
  assert.deepEqual([m.text.endsWith('<p>€</p>'), m.charset, m.source], [true, 'iso-8859-15', 'meta']);
  const eq = decodeHtml(bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>', [0xcf, 0xf0, 0xe8], '</p>'));
  assert.deepEqual([eq.text.endsWith('<p>При</p>'), eq.charset, eq.source], [true, 'windows-1251', 'meta']);
  assert.equal(charsetFromContentType('text/html;charset="UTF-8"'), 'utf-8');
  assert.equal(charsetFromContentType('text/html'), undefined);
  assert.equal(charsetFromMeta(bytes(' '.repeat(1100), '<meta charset="koi8-r">')), undefined, 'only the first 1024 bytes are looked at');
});

test('undeclared pages: valid UTF-8, else windows-1252 (latin-1 pages)', () => {
  const u = decodeHtml(bytes('<p>', [0xe2, 0x82, 0xac], '</p>'));
  assert.deepEqual([u.text, u.source], ['<p>€</p>', 'utf8-valid']);
  const l = decodeHtml(bytes('<p>na', [0xef], 've ', [0x80], '</p>'));
  assert.deepEqual([l.text, l.charset, l.source], ['<p>naïve €</p>', 'windows-1252', 'default']);
  assert.equal(parseHtml(l.text).nodeText(2), 'naïve €');
  // windows-1252's 0x80–0x9F are typographic characters (Node's decoder alone gives C1 controls).
  const q = decodeHtml(bytes([0x93], 'q', [0x94, 0x20, 0x99, 0x20, 0x96, 0x20, 0x81]), 'text/html; charset=latin1');
  assert.equal(q.text, '\u201Cq\u201D \u2122 \u2013 \u0081');
});

test('a wrong or unknown declared charset never crashes', () => {
  // Declared UTF-8, bytes are latin-1: the declaration wins (as in browsers), bad bytes become U+FFFD.
  const w = decodeHtml(bytes('<meta charset=utf-8><p>caf', [0xe9], '</p>'));
  assert.deepEqual([w.text.endsWith('caf\uFFFD</p>'), w.source], [true, 'meta']);
  const x = decodeHtml(bytes('<meta charset="x-no-such-charset"><p>ok</p>'));
  assert.equal(x.source, 'utf8-valid');
  assert.match(x.warning ?? '', /unsupported charset "x-no-such-charset"/);
  // A meta claiming UTF-16 in an ASCII-compatible page is read as UTF-8.
  const s = decodeHtml(bytes('<meta charset="utf-16"><p>', [0xc3, 0xa9], '</p>'));
  assert.deepEqual([s.text.endsWith('<p>é</p>'), s.charset], [true, 'utf-8']);
});

test('undecodable bytes in any declared charset never throw', () => {
  let seed = 7;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
  for (const cs of ['utf-8', 'shift_jis', 'euc-kr', 'gb18030', 'utf-16le', 'windows-1252', 'iso-2022-jp', 'big5']) {
    const body = new Uint8Array(3000);
    for (let k = 0; k < body.length; k++) body[k] = rnd();
    const d = decodeHtml(body, `text/html; charset=${cs}`);
    assert.equal(typeof d.text, 'string');
    assert.ok(parseHtml(d.text).size >= 1);
  }
  assert.equal(decodeHtml(new Uint8Array(0)).text, '');
  assert.equal(decodeHtml(new Uint8Array([0xff])).text, 'ÿ');
});

test('looksBinary tells images from pages', () => {
  assert.equal(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), true);
  assert.equal(looksBinary(bytes('<!DOCTYPE html><p>hello</p>')), false);
  assert.equal(looksBinary(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x70, 0x00])), false, 'UTF-16 text has NUL bytes but is text');
});

/** Text written for these tests (test/fixtures/charset/<lang>.txt), in a small page with no charset declared. */
async function undeclaredPage(lang: string): Promise<{ html: string; text: string }> {
  const { readFile } = await import('node:fs/promises');
  const text = (await readFile(new URL(`../fixtures/charset/${lang}.txt`, import.meta.url), 'utf8')).trim();
  const html = `<!DOCTYPE html><html><head><title>${text.slice(0, 12)}</title></head><body><nav><a href="/">Home</a> <a href="/news/">News</a></nav><main><h1>${text.slice(0, 20)}</h1><p>${text}</p></main><footer>(c) 2024</footer></body></html>`;
  return { html, text };
}

test('undeclared legacy encodings are sniffed: Shift_JIS, EUC-KR, GB18030, windows-1251 (and UTF-8 stays UTF-8)', async () => {
  const iconv = (await import('iconv-lite')).default;
  for (const [lang, encoding] of [['ja', 'shift_jis'], ['ja', 'euc-jp'], ['ko', 'euc-kr'], ['zh', 'gb18030'], ['ru', 'windows-1251'], ['ru', 'koi8-r'], ['fr', 'windows-1252'], ['ru', 'utf-8'], ['ja', 'utf-8']] as const) {
    const { html, text } = await undeclaredPage(lang);
    const d = decodeHtml(new Uint8Array(iconv.encode(html, encoding)));
    assert.equal(d.charset, encoding, `${lang} in ${encoding}: decoded as ${d.charset} (${d.source}, ${d.confidence})`);
    assert.equal(d.source, encoding === 'utf-8' ? 'utf8-valid' : 'sniffed');
    assert.ok(d.text.includes(text), `${lang} in ${encoding}: the text comes back`);
    const tree = parseHtml(d.text);
    assert.equal(tree.nodeText(tree.find('p') + 1), text);
  }
});

test('a declared charset still wins over sniffing; an unsure sniff says so in a warning', async () => {
  const iconv = (await import('iconv-lite')).default;
  const { html } = await undeclaredPage('ja');
  const sjis = new Uint8Array(iconv.encode(html, 'shift_jis'));
  const header = decodeHtml(sjis, 'text/html; charset=euc-kr');
  assert.deepEqual([header.charset, header.source], ['euc-kr', 'header']);
  const meta = decodeHtml(new Uint8Array(iconv.encode(html.replace('<head>', '<head><meta charset="windows-1252">'), 'shift_jis')));
  assert.deepEqual([meta.charset, meta.source], ['windows-1252', 'meta']);
  // Confident: no warning.
  assert.equal(decodeHtml(sjis).warning, undefined);
  // Cyrillic single-byte encodings are hard to tell apart: right, but unsure, and the warning says so.
  const ru = decodeHtml(new Uint8Array(iconv.encode((await undeclaredPage('ru')).html, 'windows-1251')));
  assert.ok(ru.confidence !== undefined && ru.confidence < 0.6, `confidence ${ru.confidence}`);
  assert.match(ru.warning ?? '', /no charset declared and not UTF-8; decoded as windows-1251, sniffed with low confidence \(0\.\d\d\)/);
  // Two accented letters are too little to go on: the usual default, and a word about the other guess.
  const few = decodeHtml(bytes('<p>na', [0xef], 've ', [0x80], '</p>'));
  assert.deepEqual([few.charset, few.source], ['windows-1252', 'default']);
});

test('a page declaring a legacy charset whose bytes are UTF-8 (6 non-ASCII bytes or more) is read as UTF-8, with a warning', () => {
  const utf8 = new Uint8Array(Buffer.from('<meta charset="iso-8859-1"><p>crème brûlée, naïve</p>', 'utf8'));
  const u = decodeHtml(utf8);
  assert.deepEqual([u.text.endsWith('<p>crème brûlée, naïve</p>'), u.charset, u.source], [true, 'utf-8', 'utf8-valid']);
  assert.match(u.warning ?? '', /declares windows-1252 \(meta\) but its bytes are UTF-8/);
  const gb = decodeHtml(new Uint8Array(Buffer.from('<p>这是一个网页</p>', 'utf8')), 'text/html; charset=gb2312');
  assert.deepEqual([gb.text, gb.source], ['<p>这是一个网页</p>', 'utf8-valid']);
  // Real ISO-8859-1 text is not valid UTF-8: the declaration stands.
  const latin = decodeHtml(bytes('<meta charset="iso-8859-1"><p>cr', [0xe8], 'me br', [0xfb], 'l', [0xe9], 'e, na', [0xef], 've</p>'));
  assert.deepEqual([latin.text.endsWith('crème brûlée, naïve</p>'), latin.source, latin.warning], [true, 'meta', undefined]);
  // One accented letter is too little to overrule a declaration.
  const one = decodeHtml(new Uint8Array(Buffer.from('<meta charset="iso-8859-1"><p>café</p>', 'utf8')));
  assert.equal(one.source, 'meta');
});

test('plainUtf8: true only where decodeHtml reads the bytes as UTF-8 without a warning or a replaced byte', () => {
  const enc = new TextEncoder();
  const page = (head: string, body: string): Uint8Array => enc.encode(`<html><head>${head}</head><body>${body}</body></html>`);
  const latin1 = Uint8Array.from([...enc.encode('<html><head><meta charset="utf-8"></head><body>caf'), 0xe9, ...enc.encode('</body></html>')]);
  const cases: Array<[Uint8Array, string | undefined, boolean]> = [
    [page('', 'plain text, café'), undefined, true],
    [page('<meta charset="utf-8">', 'café'), undefined, true],
    [page('', 'café'), 'text/html; charset=UTF-8', true],
    [page('<meta charset="utf-16">', 'café'), undefined, true],
    [Uint8Array.from([0xef, 0xbb, 0xbf, ...page('', 'café')]), undefined, true],
    [latin1, undefined, false],
    [page('<meta charset="iso-8859-1">', 'café'), undefined, false],
    [page('<meta charset="utf-8">', 'café'), 'text/html; charset=windows-1252', false],
    [page('', 'café'), 'text/html; charset=no-such-charset', false],
  ];
  for (const [bytes, ct, expected] of cases) {
    assert.equal(plainUtf8(bytes, ct), expected, `${ct ?? 'no header'}: ${new TextDecoder().decode(bytes).slice(0, 60)}`);
    if (expected) {
      const d = decodeHtml(bytes, ct);
      assert.equal(d.warning, undefined);
      assert.ok(!d.text.includes('\ufffd'));
    }
  }
});

test('UTF-8, declared or not, gives the string the WHATWG decoder gives, valid or not', () => {
  // every length of UTF-8 sequence, the byte-order mark's character and U+FFFD inside a text, and bytes
  // changed at random (an invalid page is replaced as TextDecoder replaces it)
  const cps = [0x41, 0x3c, 0x20, 0xe9, 0xa0, 0x7ff, 0x800, 0x2019, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff];
  let s = 11;
  const r = (k: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % k;
  };
  const whatwg = new TextDecoder();
  let invalid = 0;
  for (let d = 0; d < 3000; d++) {
    let text = 'x';
    for (let k = 0, m = r(40); k < m; k++) text += String.fromCodePoint(cps[r(cps.length)]!);
    const bytes = Buffer.from(text, 'utf8');
    if (r(3) === 0) bytes[1 + r(bytes.length - 1)] = 0x80 + r(128);
    const valid = whatwg.decode(bytes) === text;
    if (!valid) invalid++;
    assert.equal(decodeHtml(bytes, 'text/html; charset=utf-8').text, whatwg.decode(bytes), JSON.stringify(text));
    if (valid) assert.equal(decodeHtml(bytes).text, text, JSON.stringify(text));
  }
  assert.ok(invalid > 300, `${invalid} invalid`);
});
