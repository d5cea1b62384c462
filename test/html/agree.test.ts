/**
 * The fast and the browser-exact parser agree on well-formed pages (STYLE.md 10), compared as the
 * sequence, in document order, of elements (tag + attributes) and non-blank text, after these documented
 * normalisations:
 *  - html, head, body and tbody elements are left out (parse5 inserts them when the source omits them);
 *  - tag and attribute names are lowercased (parse5 keeps SVG's camelCase: clipPath, viewBox);
 *  - attributes are sorted by name; text is whitespace-collapsed and adjacent text pieces are joined;
 *  - the content of noscript is left out (parse5 parses it as raw text, scripting being on; htmlparser2
 *    parses it as markup).
 * On well-formed hand-written pages the tree shapes (each element's chain of ancestors) must agree as well.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { NodeKind, type Tree } from '../../src/html/tree.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusPages } from './corpus-pages.ts';

const IMPLIED = new Set(['html', 'head', 'body', 'tbody']);

/** The normalised event sequence of a tree; with `shape`, each element also carries its ancestor chain. */
function events(t: Tree, shape = false): string[] {
  const out: string[] = [];
  let text = '';
  const flush = (): void => {
    const s = text.replace(/\s+/g, ' ').trim();
    if (s) out.push('#' + s);
    text = '';
  };
  for (let i = 1; i < t.size; i++) {
    const k = t.kind[i];
    if (k === NodeKind.Text || k === NodeKind.Blank) {
      text += t.nodeText(i);
      continue;
    }
    if (k !== NodeKind.Element) continue;
    const tag = t.tag(i).toLowerCase();
    if (IMPLIED.has(tag)) continue;
    flush();
    const attrs = t
      .attrs(i)
      .map(([n, v]) => `${n.toLowerCase()}=${JSON.stringify(v)}`)
      .sort();
    let e = `<${tag}${attrs.length ? ' ' + attrs.join(' ') : ''}>`;
    if (shape) {
      const chain: string[] = [];
      for (let p = t.parent[i]!; p > 0; p = t.parent[p]!) if (!IMPLIED.has(t.tag(p))) chain.push(t.tag(p));
      e += ' in ' + chain.join('<');
    }
    out.push(e);
    if (tag === 'noscript') i = t.end[i]! - 1;
  }
  flush();
  return out;
}

const WELL_FORMED = [
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A &amp; B</title><link rel="stylesheet" href="s.css"></head>
<body class="page"><header id="top"><nav><ul><li><a href="/">Home</a></li><li><a href="/b?x=1&amp;y=2">B</a></li></ul></nav></header>
<main><article><h1>Title</h1><p>Para <em>one</em> &lt;tag&gt; &nbsp; &#169; &#x263A;</p><p>Two<br>lines</p>
<img src="a.png" alt="A"><hr><table><thead><tr><th>h</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>
<pre>  keep
  spaces </pre><!-- a comment --><script>var s = "<p>not a tag</p>";</script><style>p > a { color: red }</style>
<form><input type="text" name="q" value="v"><select name="s"><option value="1" selected>one</option></select><textarea>&lt;t&gt;</textarea></form>
</article></main><footer><p>© 2024</p></footer></body></html>`,
  `<html><head><title>t</title></head><body><div><div><span>a</span><span>b</span></div><ol><li>x</li><li>y</li></ol></div>
<dl><dt>k</dt><dd>v</dd></dl><svg viewBox="0 0 10 10"><path d="M0 0L10 10"></path></svg><p>after</p></body></html>`,
];

test('fast and exact agree on well-formed hand-written pages, shapes included', () => {
  for (const html of WELL_FORMED) {
    const a = events(parseHtml(html), true);
    const b = events(parseHtmlExact(html), true);
    assert.deepEqual(a, b);
    assert.ok(a.length > 10);
  }
});

test('the comparison sees differences (implied tbody/body are normalised, misnesting is not)', () => {
  assert.deepEqual(events(parseHtml('<table><tr><td>x</td></tr></table>')), events(parseHtmlExact('<table><tr><td>x</td></tr></table>')));
  // A stray text in a table is moved before it by a browser (foster parenting), not by the fast path.
  const html = '<table><tr><td>x</td></tr>stray</table>';
  assert.notDeepEqual(events(parseHtml(html)), events(parseHtmlExact(html)));
});

test('fast and exact agree on corpus pages', { skip: corpusSkip() }, () => {
  const pages = corpusPages(4);
  assert.ok(pages.length >= 15);
  for (const p of pages) {
    const a = events(parseHtml(p.html, { selfClosing: p.key.endsWith('.xhtml') }));
    const b = events(parseHtmlExact(p.html));
    if (a.join('\n') === b.join('\n')) continue;
    let k = 0;
    while (k < a.length && a[k] === b[k]) k++;
    assert.fail(`${p.site}/${p.key}: sequences differ at event ${k}: fast ${JSON.stringify(a.slice(k, k + 3))} vs exact ${JSON.stringify(b.slice(k, k + 3))}`);
  }
});
