/**
 * The fast parse's tree construction (tree-parser.ts) gives the events htmlparser2's Parser gives, on the
 * same tokenizer: elements with their attributes, end tags, texts (decoded as htmlparser2 decodes them),
 * comments and declarations, in the same order. Checked on generated markup that exercises every rule
 * (implied end tags, void elements, `</p>` and `</br>`, foreign content, self-closing tags, raw text,
 * character references, CDATA) and on corpus pages. Past the depth limit the two differ by design
 * (depth-limit.ts), so the documents stay shallower than it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { TreeParser } from '../../src/html/tree-parser.ts';
import { tagName } from '../../src/html/tree.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusPages } from './corpus-pages.ts';

/** htmlparser2's Parser's events on `html`. */
function reference(html: string, selfClosing: boolean): string[] {
  const out: string[] = [];
  let text: string | undefined;
  const flush = (): void => {
    if (text !== undefined) out.push(`#${text}`);
    text = undefined;
  };
  const p = new Parser(
    {
      onopentag(name, attribs) {
        flush();
        out.push(`<${name} ${JSON.stringify(Object.entries(attribs))}`);
      },
      onclosetag(name) {
        flush();
        out.push(`</${name}`);
      },
      ontext(data) {
        text = (text ?? '') + data;
      },
      oncomment(data) {
        flush();
        out.push(`!${data}`);
      },
      onprocessinginstruction(name, data) {
        flush();
        out.push(`?${name} ${data}`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: selfClosing },
  );
  p.end(html);
  flush();
  return out;
}

/** Start tags as the tree side keeps them to have the parser replay them (`TreeEvents.known`). */
interface Known {
  tags: Map<string, { how: number; attrs: string }>;
  replayed: number;
}

/** TreeParser's events on `html`, in the same form; with `known`, start tags met before are replayed. */
function ours(html: string, selfClosing: boolean, known?: Known): string[] {
  const out: string[] = [];
  const open: number[] = [];
  let text: string | undefined;
  const flush = (): void => {
    if (text !== undefined) out.push(`#${text}`);
    text = undefined;
  };
  const names: string[] = [];
  const values: string[] = [];
  let replaying: string | undefined;
  const parser: TreeParser = new TreeParser(
    {
      ...(known && {
        known(start: number, end: number): number {
          const k = known.tags.get(html.slice(start, end));
          if (k === undefined) return 0;
          replaying = k.attrs;
          known.replayed++;
          return k.how;
        },
      }),
      open(id, start, end, how) {
        flush();
        let attrs = replaying;
        replaying = undefined;
        if (attrs === undefined) {
          parser.attributes(false, names, values);
          attrs = JSON.stringify(names.map((n, k) => [n, values[k]]));
          if (how !== 0) known?.tags.set(html.slice(start, end), { how, attrs });
        }
        out.push(`<${tagName(id)} ${attrs}`);
        open.push(id);
      },
      close() {
        flush();
        out.push(`</${tagName(open.pop()!)}`);
      },
      text(start, end) {
        const data = html.slice(start, end);
        text = (text ?? '') + (parser.decodesText() && data.includes('&') ? decodeHTML(data) : data);
      },
      comment(data) {
        flush();
        out.push(`!${data}`);
      },
      instruction(name, data) {
        flush();
        out.push(`?${name} ${data}`);
      },
    },
    selfClosing,
    () => open.length,
  );
  parser.parse(html);
  flush();
  return out;
}

/** Markup made of pieces that exercise the rules, in a seeded random order. */
function generated(seed: number, count: number): string[] {
  let s = seed;
  const r = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % n;
  };
  const tags = ['div', 'p', 'li', 'ul', 'td', 'tr', 'th', 'table', 'tbody', 'thead', 'option', 'select', 'dd', 'dt', 'h2', 'br', 'img', 'input', 'svg', 'math', 'mi', 'desc', 'title', 'foreignObject', 'script', 'style', 'textarea', 'xmp', 'pre', 'a', 'B', 'x-y', 'head', 'body', 'html', 'rt', 'rp', 'button', 'form'];
  const attrs = ['', ' data-q="a>b"', ' class="a b"', " id='x'", ' href=/p?a=1&amp;b=2', ' title="&not=1 &not 2 &copy"', ' CLASS=c class=d', ' data-x', ' a="&#x41;&#0;&#128;"'];
  const texts = ['text', ' &amp; ', '&lt;b&gt;', '&notin', '&copy ', 'a < b', '&#10;', '\n', '<!-- c -->', '<![CDATA[x]]>', '<?php x ?>', '<!DOCTYPE html>', '&', '< p>', '</ p>', '</li >', '</td\n>'];
  const docs: string[] = [];
  for (let d = 0; d < count; d++) {
    let h = '';
    for (let k = 0, n = 5 + r(80); k < n; k++) {
      const c = r(10);
      const t = tags[r(tags.length)]!;
      if (c < 4) h += `<${r(4) === 0 ? t.toUpperCase() : t}${attrs[r(attrs.length)]}${r(6) === 0 ? '/' : ''}>`;
      else if (c < 7) h += `</${t}>`;
      else h += texts[r(texts.length)];
    }
    docs.push(h);
  }
  return docs;
}

test('tree construction gives htmlparser2 Parser\'s events on generated markup', () => {
  for (const html of generated(17, 3000)) {
    for (const selfClosing of [false, true]) assert.deepEqual(ours(html, selfClosing), reference(html, selfClosing), JSON.stringify(html));
  }
});

test('start tags met before, replayed from what was kept of them, give the same events', () => {
  for (const selfClosing of [false, true]) {
    const known: Known = { tags: new Map(), replayed: 0 };
    for (const html of generated(23, 2000)) assert.deepEqual(ours(html, selfClosing, known), reference(html, selfClosing), JSON.stringify(html));
    // most start tags of the generated markup repeat: script, style, title, textarea and xmp are never replayed
    assert.ok(known.replayed > 10000, `${known.replayed} replayed`);
  }
});

test('tree construction gives htmlparser2 Parser\'s events on corpus pages', (t) => {
  const skip = corpusSkip();
  if (skip) return t.skip(skip);
  const pages = corpusPages(12);
  assert.ok(pages.length > 50);
  for (const p of pages) assert.deepEqual(ours(p.html, false), reference(p.html, false), `${p.site}/${p.key}`);
});
