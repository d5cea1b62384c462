import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { evaluateXPath, evaluateXPathValue } from '../../src/html/xpath.ts';
import { selectAll, selectOne } from '../../src/html/select.ts';
import type { Tree } from '../../src/html/tree.ts';

const PAGE = `<html><head><title>T</title></head><body>
<div id="main" class="content wide"><h1>Head</h1><p>one</p><p class="x">two <b>bold</b></p><p>three</p></div>
<div class="side"><ul><li><a href="/a">A</a></li><li><a href="/b" title="bee">B</a></li><li>C</li></ul></div>
<!-- note -->
</body></html>`;

/** The text of the first text node of each node, or its tag, for readable assertions. */
function show(t: Tree, nodes: number[]): string[] {
  return nodes.map((i) => (t.isElement(i) ? t.tag(i) + (t.firstChild(i) >= 0 && !t.isElement(t.firstChild(i)) ? ':' + t.nodeText(t.firstChild(i)).trim() : '') : JSON.stringify(t.nodeText(i))));
}

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: location paths, axes and node tests`, () => {
    const t = parse(PAGE);
    assert.deepEqual(show(t, evaluateXPath(t, '/html/body/div/p')), ['p:one', 'p:two', 'p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, '//p')), ['p:one', 'p:two', 'p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, '//div//a')), ['a:A', 'a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//li/*')), ['a:A', 'a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//b/parent::p')), ['p:two']);
    assert.deepEqual(show(t, evaluateXPath(t, '//b/..')), ['p:two']);
    assert.deepEqual(show(t, evaluateXPath(t, '//b/ancestor::div')), ['div']);
    assert.deepEqual(show(t, evaluateXPath(t, '//h1/following-sibling::p')), ['p:one', 'p:two', 'p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, '//p[2]/preceding-sibling::*')), ['h1:Head', 'p:one']);
    assert.deepEqual(show(t, evaluateXPath(t, '//p/self::p[@class]')), ['p:two']);
    assert.deepEqual(show(t, evaluateXPath(t, '//div[1]/descendant::b')), ['b:bold']);
    assert.deepEqual(show(t, evaluateXPath(t, '//li/text()')), ['"C"']);
    assert.deepEqual(evaluateXPath(t, '//li[3]/node()').length, 1);
    assert.deepEqual(show(t, evaluateXPath(t, '//comment()')), ['" note "']);
    assert.deepEqual(show(t, evaluateXPath(t, '//DIV/P[1]')), ['p:one'], 'names are case-insensitive (HTML)');
  });

  test(`${label}: predicates and functions`, () => {
    const t = parse(PAGE);
    assert.deepEqual(show(t, evaluateXPath(t, '//div/p[1]')), ['p:one']);
    assert.deepEqual(show(t, evaluateXPath(t, '//div/p[last()]')), ['p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, '(//li)[2]/a')), ['a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//div[@id="main"]/h1')), ['h1:Head']);
    assert.deepEqual(show(t, evaluateXPath(t, '//div[contains(@class,"wide")]/p[@class="x"]')), ['p:two']);
    assert.deepEqual(show(t, evaluateXPath(t, '//a[@href="/b" and @title]')), ['a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//a[@href="/a" or @title="bee"]')), ['a:A', 'a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//p[contains(., "bold")]')), ['p:two']);
    assert.deepEqual(show(t, evaluateXPath(t, '//p[not(@class)][position() > 1]')), ['p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, '//h1 | //b')), ['h1:Head', 'b:bold'], 'a union comes back in document order');
  });

  test(`${label}: attribute steps return their owners; values`, () => {
    const t = parse(PAGE);
    assert.deepEqual(show(t, evaluateXPath(t, '//a/@href')), ['a:A', 'a:B']);
    assert.deepEqual(show(t, evaluateXPath(t, '//@title')), ['a:B']);
    assert.equal(evaluateXPathValue(t, 'count(//li)'), 3);
    assert.equal(evaluateXPathValue(t, 'string((//a)[2]/@href)'), '/b');
    assert.equal(evaluateXPathValue(t, 'string(//a[2]/@href)'), '', '//a[2] is an a that is the 2nd a of its parent: none');
    assert.equal(evaluateXPathValue(t, 'normalize-space(//p[2])'), 'two bold');
    assert.equal(evaluateXPathValue(t, 'boolean(//table)'), false);
  });

  test(`${label}: relative paths from a context node`, () => {
    const t = parse(PAGE);
    const main = selectOne(t, '#main');
    assert.deepEqual(show(t, evaluateXPath(t, 'p', main)), ['p:one', 'p:two', 'p:three']);
    assert.deepEqual(show(t, evaluateXPath(t, './p[2]/b', main)), ['b:bold']);
    assert.deepEqual(show(t, evaluateXPath(t, './/a', main)), []);
    assert.deepEqual(show(t, evaluateXPath(t, '//a', main)), ['a:A', 'a:B'], '// starts at the document root');
    assert.deepEqual(evaluateXPath(t, '.', main), [main]);
    assert.deepEqual(evaluateXPath(t, '..', main), [t.parent[main]!]);
    // Agrees with CSS on the same question.
    assert.deepEqual(evaluateXPath(t, '//ul/li[position() mod 2 = 1]'), selectAll(t, 'ul > li:nth-child(odd)'));
  });
}

test('errors name the expression', () => {
  const t = parseHtml(PAGE);
  assert.throws(() => evaluateXPath(t, '//p['), /invalid XPath "\/\/p\["/);
  assert.throws(() => evaluateXPath(t, 'count(//p)'), /XPath "count\(\/\/p\)" does not select nodes/);
  assert.throws(() => evaluateXPath(t, '//x:p'), /XPath "\/\/x:p" failed: .*x/);
  assert.throws(() => evaluateXPath(t, '//p[nosuchfn()]'), /nosuchfn/);
  assert.throws(() => evaluateXPath(t, '//p', t.size), /not in this tree/);
});

test('the same expression runs on many trees (facades are per tree)', () => {
  const a = parseHtml('<div><p>1</p></div>');
  const b = parseHtml('<div><p>1</p><p>2</p></div><p>3</p>');
  assert.deepEqual(evaluateXPath(a, '//div/p'), [2]);
  assert.deepEqual(evaluateXPath(b, '//div/p'), [2, 4]);
  assert.deepEqual(evaluateXPath(a, '//div/p'), [2]);
});
