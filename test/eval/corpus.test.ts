import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../../src/html/parse.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import {
  classOf,
  declarationAt,
  cutComments,
  decodeGold,
  goldContainers,
  goldContentText,
  listSamesite,
  listSites,
  listVersions,
  loadClusters,
  loadRecords,
  parseGroundTruth,
  readTree,
  samesiteGoldText,
  stemDate,
  type OtaDocument,
} from '../../src/eval/corpus.ts';
import { words } from '../../src/eval/metrics.ts';

const skip = corpusSkip();

test('goldContentText on an inline page: containers minus exclusions, null without gold', () => {
  const tree = parseHtml('<body><nav>Menu</nav><section><nav class="header">Next: 1.2</nav><p>Real text</p></section><section><p>More</p></section></body>');
  const site = { gold: { content: ['article', 'body > section'], exclude: ['nav.header'] } };
  assert.equal(goldContentText(site, tree), 'Real text\nMore');
  assert.equal(goldContainers(site, tree)!.length, 2);
  assert.equal(goldContentText({ gold: { content: ['main'], exclude: [] } }, tree), null);
});

test('parseGroundTruth: BOM, CRLF, tabs, <NULL>', () => {
  const text = '\uFEFFbook\tbooksamillion\tauthor\r\n3\t3\t3\t2\r\n0000\t1\tStephenie Meyer\r\n0001\t2\tA & B\tC D\r\n0002\t1\t<NULL>\r\n';
  const gt = parseGroundTruth(text);
  assert.equal(gt.vertical, 'book');
  assert.equal(gt.site, 'booksamillion');
  assert.equal(gt.attribute, 'author');
  assert.deepEqual(gt.values.get('0000'), ['Stephenie Meyer']);
  assert.deepEqual(gt.values.get('0001'), ['A & B', 'C D']);
  assert.deepEqual(gt.values.get('0002'), []);
  assert.equal(gt.values.size, 3);
});

test('stemDate', () => {
  assert.equal(stemDate('2022-01-20T143327Z'), '2022-01-20T14:33:27Z');
  assert.equal(stemDate('other'), 'other');
});

test('sites: every site, page counts as site.json says, gold on most pages', { skip }, () => {
  const sites = listSites();
  const names = sites.map((s) => s.name);
  for (const n of ['django-rest-framework-docs', 'httpx-docs', 'jekyll-blog', 'peps', 'retrofit-javadoc', 'sicp', 'thingspanel-docs']) assert.ok(names.includes(n), `site ${n} listed`);
  assert.deepEqual(names, [...names].sort());
  for (const s of sites) {
    const declared = JSON.parse(readFileSync(join(s.dir, 'site.json'), 'utf8')).pages as number;
    assert.equal(s.files().length, declared, s.name);
    assert.ok(s.files().includes(s.entry), `${s.name}: entry ${s.entry} listed`);
    assert.deepEqual(s.files(), [...s.files()].sort());
  }
  const sicp = sites.find((s) => s.name === 'sicp')!;
  assert.equal(sicp.classes, undefined);
  const tree = readTree(join(sicp.pagesDir, '1_002e1.xhtml'));
  const gold = goldContentText(sicp, tree)!;
  assert.match(gold, /The Elements of Programming/);
  // nav.header is excluded: its "Next:" / "Previous:" links are not gold text
  assert.doesNotMatch(gold, /Previous:/);
  assert.ok(tree.text.includes('Previous:'));
  const peps = sites.find((s) => s.name === 'peps')!;
  assert.equal(classOf(peps, 'pep-0001/index.html'), 'pep');
  assert.equal(classOf(peps, 'index.html'), undefined);
  const drf = sites.find((s) => s.name === 'django-rest-framework-docs')!;
  // a theme partial of the copied site has no gold; the 404 page has the article container
  assert.equal(goldContentText(drf, readTree(join(drf.pagesDir, 'theme/main.html'))), null);
  assert.match(goldContentText(drf, readTree(join(drf.pagesDir, '404.html')))!, /404 - Not found/);
});

test('samesite: 35 groups, 262 pages, gold text read', { skip }, () => {
  const groups = listSamesite();
  assert.deepEqual([...new Set(groups.map((g) => g.set))], ['cleanportaleval', 'dragnet', 'l3s-gn1']);
  assert.equal(groups.length, 35);
  assert.equal(groups.reduce((n, g) => n + g.pages.length, 0), 262);
  const bbc = groups.find((g) => g.site === 'bbc.co.uk_news')!;
  const first = bbc.pages[0]!;
  assert.equal(first.id, '01');
  assert.ok(words(samesiteGoldText(first)).includes('balance'));
  // Every gold text reads as text, none as letters split by NULs (the mangled UTF-16 files).
  for (const g of groups) for (const p of g.pages) assert.ok(!samesiteGoldText(p).includes('\0'), p.goldPath);
  // Reader comments behind dragnet's separator are not gold (johndcook 20: 133 words of post, 1,900 of comments).
  const cook = groups.find((g) => g.site === 'www.johndcook.com')!.pages.find((p) => p.id === '20')!;
  assert.ok(words(samesiteGoldText(cook)).includes('tides'));
  assert.ok(!words(samesiteGoldText(cook)).includes('nahr'));
  // A page without an article: its gold is a note in an HTML comment, so it is empty.
  assert.equal(samesiteGoldText(bbc.pages.find((p) => p.id === '04')!).trim(), '');
});

test('cutComments: the text before dragnet\'s comment separator, in each of its spellings', () => {
  assert.equal(cutComments('Post.\n\n!@#$%^&*() COMMENTS\n\nAnn: nice'), 'Post.\n\n');
  assert.equal(cutComments('Post.\n@#$%^&*()  COMMENTS\nAnn'), 'Post.\n');
  assert.equal(cutComments('Post.\n!@#$%^&**()  COMMENTS\nAnn'), 'Post.\n');
  assert.equal(cutComments('Post.\n!@#$%^&*()  CORRECTED\nBrendan: yes'), 'Post.\n');
  assert.equal(cutComments('No comments here'), 'No comments here');
});

test('decodeGold: UTF-8 with or without BOM, UTF-16 with a BOM, UTF-16LE behind a mangled BOM', () => {
  const text = 'Perdão, the abbot said.';
  assert.equal(decodeGold(Buffer.from(text)), text);
  assert.equal(decodeGold(Buffer.from('\uFEFF' + text)), text);
  assert.equal(decodeGold(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), text);
  assert.equal(decodeGold(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()])), text);
  // The BOM became two U+FFFD in UTF-8, and so did the low byte of each non-ASCII character.
  const mangled = Buffer.concat([
    Buffer.from([0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd]),
    Buffer.from('Perd', 'utf16le'),
    Buffer.from([0xef, 0xbf, 0xbd, 0x00]),
    Buffer.from('o, the abbot said.', 'utf16le'),
  ]);
  assert.equal(decodeGold(mangled), 'Perd\uFFFDo, the abbot said.');
});

test('clusters: stackoverflow, five classes of 14-15 pages', { skip }, () => {
  const [so] = loadClusters();
  assert.ok(so);
  assert.equal(so.name, 'stackoverflow');
  const counts = new Map<string, number>();
  for (const p of so.pages) counts.set(p.cls, (counts.get(p.cls) ?? 0) + 1);
  assert.deepEqual([...counts.keys()].sort(), ['jobs', 'newest', 'question', 'tags', 'users']);
  for (const c of counts.values()) assert.ok(c >= 14 && c <= 15);
  assert.equal(so.gold.get('jobs-01.html'), 'jobs');
});

test('records: SWDE booksamillion, 400 pages, five attributes', { skip }, () => {
  const [r] = loadRecords();
  assert.ok(r);
  assert.equal(r.vertical, 'book');
  assert.equal(r.site, 'booksamillion');
  assert.deepEqual(r.attributes, ['author', 'isbn_13', 'publication_date', 'publisher', 'title']);
  assert.equal(r.pages.length, 400);
  const p0 = r.pages[0]!;
  assert.equal(p0.id, '0000');
  assert.deepEqual(p0.values['author'], ['Stephenie Meyer']);
  assert.deepEqual(r.pages[2]!.values['author'], ['Glenn Beck', 'Kevin Balfe', 'Emily Bestler', 'Jack Henderson']);
  // the gold title is on its page
  const title = p0.values['title']![0]!;
  assert.ok(readTree(p0.path).text.includes(title.split(' ')[0]!));
});

test('versions: OTA documents with declarations over time, snapshot series', { skip }, () => {
  const sets = listVersions();
  const names = sets.map((s) => s.name);
  assert.ok(names.includes('frontpage-web.de') && names.includes('christian-daily-reporter-home'));
  const cdr = sets.find((s) => s.name === 'christian-daily-reporter-home')!;
  assert.equal(cdr.kind, 'snapshots');
  assert.equal(cdr.snapshots.length, 16);
  // index.tsv's commit date (-05:00) in UTC
  assert.equal(cdr.snapshots[0]!.date, '2018-05-23T16:48:12Z');
  const parship = sets.find((s) => s.name === 'ota-Parship__Terms_of_Service') as OtaDocument;
  assert.equal(parship.kind, 'ota');
  assert.equal(parship.document, 'Terms of Service');
  assert.deepEqual(parship.declarations.map((d) => d.select), ['.legalTextBox', '.main']);
  assert.equal(declarationAt(parship, '2023-01-01T00:00:00Z')!.select, '.legalTextBox');
  assert.equal(declarationAt(parship, '2024-01-01T00:00:00Z')!.select, '.main');
  assert.equal(parship.snapshots.length, 61);
  assert.ok(parship.snapshots.every((s, i) => i === 0 || parship.snapshots[i - 1]!.date <= s.date));
  assert.ok(parship.versions.length > 0);
  const gh = sets.find((s) => s.name === 'ota-GitHub__Terms_of_Service') as OtaDocument;
  assert.deepEqual(gh.declarations.map((d) => d.validUntil), [null]);
});
