/**
 * Pages of another page class set aside (page-classes.ts) and same-word elements
 * (template-extraction.ts `sameWordElements`), on a small hand-written API reference shaped as Javadoc
 * writes one: class pages that link to their package's pages and to the previous and next class only, so
 * that the mutually linked pages Algorithm 1 finds first are the package summary and tree, and one class.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { MemorySource, type MemoryPage } from '../../../src/site/memory-source.ts';
import { applyTemplate, learnTemplate } from '../../../src/run/learn.ts';
import { detectTemplate } from '../../../src/run/template.ts';
import engine from '../../../src/template/hyperlink/engine.ts';
import type { Template } from '../../../src/template/learned.ts';
import { nodeEquality, NodeFeatures } from '../../../src/template/hyperlink/node-equality.ts';
import { extractTemplate, markSameWords, sameWordElements, wordsOf } from '../../../src/template/hyperlink/template-extraction.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';

const CLASSES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];

/** The top bar: the current entry is plain text, the others links (as Javadoc's `navBarCell1Rev`). */
function bar(current: 'Package' | 'Class' | 'Tree'): string {
  const cell = (name: string, href: string): string => (name === current ? `<li class="navBarCell1Rev">${name}</li>` : `<li><a href="${href}">${name}</a></li>`);
  return `<div class="topNav"><ul class="navList"><li><a href="../overview.html">Overview</a></li>${cell('Package', 'package-summary.html')}${cell('Class', 'Alpha.html')}${cell('Tree', 'package-tree.html')}<li><a href="../help.html">Help</a></li></ul></div>`;
}

/** Rows every page has (frames, all classes, the legal notice): the texts the package pages share with a class page. */
const SHARED = '<ul class="navList"><li><a href="../index.html">Frames</a></li><li><a href="#">No Frames</a></li><li><a href="../allclasses.html">All Classes</a></li><li><a href="../deprecated.html">Deprecated</a></li><li><a href="../index-all.html">Index</a></li></ul>';
const FOOT = `<div class="bottomNav">${SHARED}<p class="legalCopy">Copyright Example Project contributors, all rights reserved.</p><p class="legalCopy">Licensed under the Example Licence.</p></div>`;

/**
 * A class page: prev/next links, a summary bar whose entries are links when the class has such members
 * (fields here, on every other class; none has constructors or methods listed: a bar with no fixed link).
 */
function classPage(i: number): string {
  const c = CLASSES[i]!;
  const prev = i > 0 ? `<li><a href="${CLASSES[i - 1]}.html">Prev Class</a></li>` : '<li>Prev Class</li>';
  const next = i < CLASSES.length - 1 ? `<li><a href="${CLASSES[i + 1]}.html">Next Class</a></li>` : '<li>Next Class</li>';
  const fields = i % 2 === 0;
  const entry = (name: string, linked: boolean): string => (linked ? `<li><a href="#${name.toLowerCase()}.summary">${name}</a> | </li>` : `<li>${name} | </li>`);
  const summary = `<ul class="subNavList"><li>Summary: </li>${entry('Field', fields)}${entry('Constructor', false)}${entry('Method', false)}</ul>`;
  const members = [`${c.toLowerCase()}Open`, `${c.toLowerCase()}Close`, `${c.toLowerCase()}Flush`]
    .map((m) => `<tr><td class="colFirst">void</td><td class="colLast"><code>${m}()</code><div class="block">Makes the ${c} ${m} happen, once per ${c.toLowerCase()}word call.</div></td></tr>`)
    .join('');
  return `<html><head><title>${c}</title></head><body>${bar('Class')}${SHARED}<div class="subNav"><ul class="navList">${prev}${next}</ul>${summary}</div>
<div class="header"><h2 class="title">Class ${c}</h2></div>
<div class="contentContainer"><div class="description"><p>The ${c} class stands for ${c.toLowerCase()}word things in the example library, and says so at some length.</p></div>
<table class="memberSummary">${members}</table></div>${FOOT}</body></html>`;
}

function packagePage(kind: 'summary' | 'tree'): string {
  const list = CLASSES.map((c) => `<li><a href="${c}.html">${c}</a></li>`).join('');
  const body = kind === 'summary' ? `<h1 class="title">Package example</h1><ul class="classList">${list}</ul>` : `<h1 class="title">Hierarchy for package example</h1><div class="tree"><ul>${list}</ul></div>`;
  return `<html><head><title>package ${kind}</title></head><body>${bar(kind === 'summary' ? 'Package' : 'Tree')}${SHARED}<div class="pkg">${body}</div>${FOOT}</body></html>`;
}

function site(): MemoryPage[] {
  return [
    { key: 'example/package-summary.html', body: packagePage('summary') },
    { key: 'example/package-tree.html', body: packagePage('tree') },
    { key: 'overview.html', body: `<html><body><p><a href="example/package-summary.html">example</a> <a href="help.html">help</a></p>${FOOT}</body></html>` },
    { key: 'help.html', body: `<html><body><p>How this reference is organised: <a href="overview.html">overview</a>.</p>${FOOT}</body></html>` },
    ...CLASSES.map((c, i) => ({ key: `example/${c}.html`, body: classPage(i) })),
  ];
}

async function run(options: Record<string, unknown>): Promise<{ marks: Map<string, PageMarks>; summary: Record<string, unknown>; warnings: string[] }> {
  const marks = new Map<string, PageMarks>();
  const warnings: string[] = [];
  const r = await engine.run({
    source: new MemorySource(site()),
    labels: new LabelTable(),
    options,
    onPage: async (m) => {
      marks.set(m.key, m);
    },
    onFailure: () => {},
    onWarning: (w) => warnings.push(w),
  });
  return { marks, summary: r.summary, warnings };
}

test('page classes: the package pages of the complete subdigraph are set aside, and a class page linked from the key page takes their place', async () => {
  const r = await run({ key: 'example/Charlie.html' });
  const cs = r.summary['cs'] as string[];
  assert.ok(cs.includes('example/package-summary.html') && cs.includes('example/package-tree.html'), `the CS holds the package pages: ${cs.join(', ')}`);
  assert.deepEqual([...(r.summary['droppedPages'] as string[])].sort(), ['example/package-summary.html', 'example/package-tree.html']);
  for (const p of r.summary['templatePages'] as string[]) assert.match(p, /^example\/[A-Z][a-z]+\.html$/, 'the template rests on class pages only');
  assert.ok(r.warnings.some((w) => /package-tree\.html/.test(w) && /another page class/.test(w)), r.warnings.join('\n'));
  const kept = keptText(r.marks.get('example/Charlie.html')!);
  assert.match(kept, /charlieOpen/);
  assert.match(kept, /charlieword things/);
  // The class pages' own bars are template now.
  assert.doesNotMatch(kept, /Prev Class|Summary|Copyright/);

  // Without page classes, the package pages stay (they share the top bar and the footer), and the class
  // pages' own bars are content.
  const paper = await run({ key: 'example/Charlie.html', pageClasses: false });
  assert.deepEqual(paper.summary['droppedPages'], []);
  assert.match(keptText(paper.marks.get('example/Charlie.html')!), /Prev Class/);
});

test('same-word elements: a bar entry that is a link on some pages and plain text on others is template on every page', async () => {
  // Charlie (index 2) has fields: its "Field" entry is a link; Bravo and Delta have none: plain text. The
  // bar has no other link, so it is not a navigation bar (navigation-regions.ts `markNavigationCells`).
  const on = await run({ key: 'example/Charlie.html' });
  const off = await run({ key: 'example/Charlie.html', sameWords: false });
  assert.ok((on.summary['sameWordElements'] as number) > 0);
  assert.equal(off.summary['sameWordElements'], 0);
  assert.doesNotMatch(keptText(on.marks.get('example/Charlie.html')!), /\bField\b/);
  assert.match(keptText(off.marks.get('example/Charlie.html')!), /\bField\b/, 'without the rule the entry is kept as content');
  // On another class page, where the entry is written the other way, it is template as well.
  assert.doesNotMatch(keptText(on.marks.get('example/Delta.html')!), /\bField\b/);
  assert.match(keptText(on.marks.get('example/Delta.html')!), /deltaword things/);
});

test('same-word elements: only elements whose words are the same on every page, topmost first', () => {
  const labels = new LabelTable();
  const eq = nodeEquality();
  const f = (html: string): NodeFeatures => new NodeFeatures(parseHtml(html, { labels }), eq);
  const page = (a: string, b: string, text: string): string => `<html><body><ul class="bar"><li class="one">${a}</li><li class="two">${b}</li></ul><div class="main"><p>${text}</p></div></body></html>`;
  const key = f(page('Guide', '<a href="/api">API</a>', 'Key page words here'));
  const others = [f(page('<a href="/guide">Guide</a>', 'API', 'Second page words')), f(page('<a href="/guide">Guide</a>', 'Reference', 'Third page words'))];
  const ext = extractTemplate(eq, key, others.map((features, i) => ({ key: String(i), features })));
  const found = sameWordElements(key.tree, ext.template, ext.maps.map((m) => ({ tree: m.features.tree, map: m.map })));
  // "Guide" is the same on all three pages; the second entry reads "Reference" on one page; the paragraphs differ.
  assert.deepEqual(found.map((e) => wordsOf(key.tree, e)), ['Guide']);
  assert.equal(key.tree.attr(found[0]!, 'class'), 'one');
  // Marking: the image on a page is marked when its words are the same there, not otherwise.
  const m = ext.maps[0]!;
  const marks = new Uint8Array(m.features.tree.size);
  assert.equal(markSameWords(key.tree, found, m.features.tree, m.map, marks), 1);
  const li = m.map[found[0]!]!;
  assert.ok(marks.subarray(li, m.features.tree.end[li]!).every((x) => x === 1));
  const differs = f(page('Handbook', 'API', 'Fourth'));
  const ext2 = extractTemplate(eq, key, [{ key: 'x', features: differs }]);
  assert.equal(markSameWords(key.tree, found, differs.tree, ext2.maps[0]!.map, new Uint8Array(differs.tree.size)), 0);
});

test('same-word elements travel with the template: applied, it marks every page as the one-shot run does', async () => {
  const options = { method: 'hyperlink', key: 'example/Charlie.html' } as const;
  const template = JSON.parse(JSON.stringify((await learnTemplate(new MemorySource(site()), options)).template)) as Template;
  assert.ok(((template.data as { sameWords?: number[] }).sameWords ?? []).length > 0);
  let checked = 0;
  for await (const o of detectTemplate(new MemorySource(site()), options)) {
    if (!o.ok) continue;
    const p = site().find((x) => x.key === o.key)!;
    assert.equal(typeof p.body, 'string');
    assert.equal(keptText(applyTemplate(template, p.body as string, { key: p.key })), keptText(o.marks), o.key);
    checked++;
  }
  assert.equal(checked, site().length);
  assert.throws(() => applyTemplate({ ...template, data: { ...(template.data as object), sameWords: [1e6] } }, '<p>x</p>'), /same-word element 1000000 outside the key page/);
});
