/**
 * The installed package, as a user gets it (`npm run test:package`, run by .ci/run; not part of `npm test`,
 * as it builds, packs and installs from the registry, about a minute). The repository is packed, the
 * tarball installed into an empty project in a temporary folder, and from that project (not the package's
 * folder, not the repository):
 *  - `gabarit --version` and `--help` start, and `--help` loads no engine, parser, HTTP, WARC or DuckDB
 *    module;
 *  - `gabarit template` with each engine (pagelets with its worker threads, local and global on DuckDB) and
 *    `gabarit content` run on the demo site (44 pages), the demo site twice over (88 pages: itself and a copy
 *    in a subfolder, so the pagelets engine hands pages to its workers) and the corpus site jekyll-blog (88 pages; skipped without the
 *    corpus), with every page done and none failed;
 *  - an ES module imports the root API and each subpath; importing the root loads neither undici, warcio
 *    nor DuckDB; `gabarit/crawlee` imports and learns without Crawlee installed (an optional peer);
 *  - a TypeScript file type-checks against the installed types, and a wrong one does not;
 *  - `gabarit shards run`, and `analyse`, `global`, `mark` one by one, on a crawl of two shards (the demo site as a directory, a generated shop as a WARC
 *    file) on DuckDB, the same page files as from the sources, and `gabarit shards run` on Spark `local[2]`
 *    with spark-submit on PATH (the package's Spark scripts; skipped where Spark is missing, failing in CI);
 *  - no `@types/node` comes into the project through gabarit's dependencies (it would replace the
 *    project's own Node typings), and `gabarit demo` runs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { gabarit as sourceGabarit, ROOT, runProcess, type Ran } from '../cli/gabarit-process.ts';
import { writeWarc } from '../../src/site/warc-source.ts';
import { shop } from '../fixtures/synthetic-sites.ts';
import { sparkOrSkip } from '../spark/cluster.ts';
import { differingFiles, globalRows } from '../spark/compare.ts';
import { installedBin, packAndInstall, type Installed } from './installed.ts';

const LOADED_MODULES = join(ROOT, 'test', 'package', 'loaded-modules.mjs');
const DEMO_SITE = join(ROOT, 'examples', 'site');
const JEKYLL = join(CORPUS_DIR, 'sites', 'jekyll-blog', 'pages');

let installed: Installed;
let work: string;

before(async () => {
  installed = await packAndInstall(['@types/node@^20']);
  work = await mkdtemp(join(tmpdir(), 'gabarit-package-work-'));
});
after(async () => {
  await installed?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs the installed `gabarit` from the project folder. */
function gabarit(args: readonly string[], env: NodeJS.ProcessEnv = process.env, preload: readonly string[] = []): Promise<Ran> {
  return runProcess(process.execPath, [...preload, installedBin(installed), ...args], { cwd: installed.project, env });
}

/** Runs node with `args` from the project folder and returns the modules it loaded (URLs). */
async function loadedModules(args: readonly string[]): Promise<{ ran: Ran; modules: string[] }> {
  const list = join(work, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const ran = await runProcess(process.execPath, ['--import', LOADED_MODULES, ...args], { cwd: installed.project, env: { ...process.env, GABARIT_MODULES_OUT: list } });
  const modules = [...new Set((await readFile(list, 'utf8')).split('\n').filter(Boolean))];
  return { ran, modules };
}

/** The packages among `modules` (URLs) whose names are in `names`. */
function packagesAmong(modules: readonly string[], names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const m of modules) {
    const i = m.lastIndexOf('/node_modules/');
    if (i < 0) continue;
    const parts = m.slice(i + '/node_modules/'.length).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    if (names.some((n) => name === n || name.startsWith(n + '/'))) found.add(name);
  }
  return [...found].sort();
}

/** HTML files below `dir`. */
async function htmlFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((e) => /\.html?$/i.test(e)).length;
}

/** Text files below `dir` (the `<page>.txt` of the output contract). */
async function textFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((e) => e.endsWith('.txt')).length;
}

test('gabarit --version and --help start from the installed package; --help loads no engine, parser or I/O stack', async (t) => {
  const v = await gabarit(['--version']);
  assert.equal(v.code, 0, v.stderr);
  assert.equal(v.stdout.trim(), installed.version);
  const { ran, modules } = await loadedModules([installedBin(installed), '--help']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, /template/);
  assert.deepEqual(packagesAmong(modules, ['parse5', 'htmlparser2', 'css-select', 'undici', 'warcio', 'pako', '@duckdb', 'cli-progress']), []);
  const own = modules.filter((m) => m.startsWith(new URL(`file://${installed.packageDir}/`).href));
  // An area's defaults and option declarations may serve the help text; its algorithms may not.
  const engines = own.filter((m) => /\/dist\/(template\/(align|hyperlink|pagelets)|content|wrapper|collect|cluster)\/(?!(defaults|options)\.js$)/.test(m));
  assert.deepEqual(engines.map((m) => relative(installed.packageDir, new URL(m).pathname)), [], '--help loads no engine module');
  t.diagnostic(`gabarit --help loaded ${modules.length} modules (${own.length} of gabarit)`);
});

/** The runs every site gets: each template engine, pagelets with workers (local, and global on DuckDB), content. */
const RUNS: ReadonlyArray<{ name: string; args: readonly string[]; workers?: boolean }> = [
  { name: 'align', args: ['template', '--method', 'align'] },
  { name: 'hyperlink', args: ['template', '--method', 'hyperlink'] },
  { name: 'pagelets', args: ['template', '--method', 'pagelets', '--workers', '2'], workers: true },
  { name: 'pagelets-global', args: ['template', '--method', 'pagelets', '--global', '--workers', '2'], workers: true },
  { name: 'content', args: ['content'] },
];

/** Runs every command of RUNS on `site` from the project folder: exit 0, every page done, none failed. */
async function runAll(t: { diagnostic(s: string): void }, label: string, site: string, minPages: number): Promise<void> {
  const pages = await htmlFiles(site);
  assert.ok(pages >= minPages, `${site} has ${pages} pages, fewer than ${minPages}`);
  for (const run of RUNS) {
    const out = join(work, 'out', label, run.name);
    const r = await gabarit(['-q', ...run.args, site, '--out', out]);
    assert.equal(r.code, 0, `${label} ${run.name}: exit ${r.code}\n${r.stderr}`);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number; failures: unknown[]; engine?: { pagelets?: { workers?: number } } };
    assert.equal(summary.pagesFailed, 0, `${label} ${run.name}: ${JSON.stringify(summary.failures.slice(0, 3))}`);
    assert.equal(summary.pagesDone, pages, `${label} ${run.name}: every page done`);
    assert.equal(await textFiles(out), pages, `${label} ${run.name}: a .txt per page`);
    assert.doesNotMatch(r.stderr, /^gabarit: (?!warning: )/m, `${label} ${run.name}: no failure named on stderr`);
    if (run.workers && pages > 48) assert.ok((summary.engine?.pagelets?.workers ?? 0) >= 1, `${label} ${run.name}: worker threads used`);
    t.diagnostic(`${label} ${run.name}: ${summary.pagesDone} pages, none failed${run.workers ? `, ${summary.engine?.pagelets?.workers ?? 0} workers` : ''}`);
  }
}

test('every engine and content on the demo site (44 pages), from the project folder', async (t) => {
  await runAll(t, 'demo', DEMO_SITE, 40);
});

test('every engine and content, pagelets in worker threads, on the demo site twice over (88 pages)', async (t) => {
  // The site at the root (the engines start from its index.html) and a copy of it in mirror/.
  const site = join(work, 'demo-twice');
  await cp(DEMO_SITE, site, { recursive: true });
  await cp(DEMO_SITE, join(site, 'mirror'), { recursive: true });
  await runAll(t, 'demo-twice', site, 80);
});

test('every engine and content, pagelets in worker threads, on the corpus site jekyll-blog (88 pages)', { skip: corpusSkip() }, async (t) => {
  await runAll(t, 'jekyll-blog', JEKYLL, 80);
});

test('an ES module imports the root API and each subpath; the root loads neither undici, warcio nor DuckDB', async () => {
  const script = join(installed.project, 'use.mjs');
  await writeFile(
    script,
    `import { parseHtml, textOf, openSource, MemorySource, loadEngine, createWrapper, DEFAULTS } from 'gabarit';
const tree = parseHtml('<html><body><nav>Menu</nav><p>Hello <b>world</b></p></body></html>');
const source = new MemorySource([{ key: 'a.html', body: '<p>a</p>' }]);
const report = { size: tree.size, text: textOf(tree), kinds: [typeof openSource, typeof loadEngine, typeof createWrapper], source: source.kind, userAgent: typeof DEFAULTS.userAgent };
if (process.argv[2] === 'all') {
  const html = await import('gabarit/html');
  const site = await import('gabarit/site');
  const wrapper = await import('gabarit/wrapper');
  report.subpaths = [typeof html.tokenize, typeof html.evaluateXPath, typeof site.WarcSource, typeof site.HttpSource, typeof wrapper.adapt, typeof wrapper.simpleTreeMatching];
}
console.log(JSON.stringify(report));
`,
  );
  const root = await loadedModules([script]);
  assert.equal(root.ran.code, 0, root.ran.stderr);
  const report = JSON.parse(root.ran.stdout) as Record<string, unknown>;
  assert.equal(report['text'], 'Menu\nHello world');
  assert.deepEqual(report['kinds'], ['function', 'function', 'function']);
  assert.equal(report['source'], 'memory');
  assert.equal(report['userAgent'], 'string');
  assert.deepEqual(packagesAmong(root.modules, ['undici', 'warcio', 'pako', '@duckdb']), []);
  const all = await runProcess(process.execPath, [script, 'all'], { cwd: installed.project });
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual((JSON.parse(all.stdout) as { subpaths: string[] }).subpaths, ['function', 'function', 'function', 'function', 'function', 'function']);
});

test('gabarit/crawlee imports without Crawlee installed (a peer dependency) and learns a site from a store given', async () => {
  const script = join(installed.project, 'crawlee.mjs');
  await writeFile(
    script,
    `import { SiteModels, templateKey } from 'gabarit/crawlee';
const saved = new Map();
const store = { getValue: async (k) => saved.get(k) ?? null, setValue: async (k, v) => void saved.set(k, v) };
const models = new SiteModels({ store, minPages: 2 });
const page = (n) => '<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Post ' + n + '</h1><p>' + 'Words of post ' + n + ' and more. '.repeat(20) + '</p></article><footer>Shop 2026</footer></body></html>';
const seen = [];
for (const n of [1, 2, 3]) seen.push((await models.page(page(n), 'http://shop.test/p' + n)).learned);
console.log(JSON.stringify({ seen, stored: saved.has(templateKey('shop.test')) }));
`,
  );
  const ran = await runProcess(process.execPath, [script], { cwd: installed.project });
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { seen: [false, true, true], stored: true });
});

test('a TypeScript file type-checks against the installed types, and a wrong one does not', async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const config = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, types: ['node'] } };
  await writeFile(join(installed.project, 'tsconfig.json'), JSON.stringify({ ...config, files: ['good.ts'] }));
  await writeFile(
    join(installed.project, 'good.ts'),
    `import { parseHtml, textOf, openSource, loadEngine, keptText, LabelTable, type Tree, type PageSource, type PageMarks } from 'gabarit';
import { tokenize, type TokenSequence } from 'gabarit/html';
import { WarcSource } from 'gabarit/site';
import { adapt } from 'gabarit/wrapper';
import { SiteModels, type GabaritPage } from 'gabarit/crawlee';
const labels = new LabelTable();
const tree: Tree = parseHtml('<p>hello</p>', { labels });
const text: string = textOf(tree);
const size: number = tree.size;
const tokens: TokenSequence = tokenize(tree, labels);
export async function open(dir: string): Promise<PageSource> {
  return openSource(dir);
}
export async function engineName(): Promise<string> {
  return (await loadEngine('align')).name;
}
export const kept = (m: PageMarks): string => keptText(m);
export const pageText = async (html: string): Promise<string> => ((await new SiteModels({ minPages: 2 }).page(html, 'http://a.test/')) satisfies GabaritPage).text;
export { text, size, tokens, WarcSource, adapt };
`,
  );
  const good = await runProcess(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: installed.project });
  assert.equal(good.code, 0, `the installed types reject a correct program:\n${good.stdout}${good.stderr}`);
  await writeFile(join(installed.project, 'tsconfig.json'), JSON.stringify({ ...config, files: ['bad.ts'] }));
  await writeFile(join(installed.project, 'bad.ts'), `import { parseHtml } from 'gabarit';\nexport const size: string = parseHtml('<p>x</p>').size;\n`);
  const bad = await runProcess(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: installed.project });
  assert.notEqual(bad.code, 0, 'a number assigned to a string type-checks: the types are not what they should be');
  assert.match(bad.stdout, /bad\.ts\(2,14\): error TS2322/);
});

test('learnTemplate, applyTemplate and gabarit apply from the installed package', async () => {
  // `gabarit apply` of the template.json `gabarit template` wrote: the same kept text, page for page.
  for (const method of ['align', 'hyperlink', 'pagelets']) {
    const out = join(work, 'apply', method);
    const t = await gabarit(['-q', 'template', DEMO_SITE, '--method', method, '--out', join(out, 'template')]);
    assert.equal(t.code, 0, t.stderr);
    const a = await gabarit(['-q', 'apply', join(out, 'template', 'template.json'), DEMO_SITE, '--out', join(out, 'apply')]);
    assert.equal(a.code, 0, a.stderr);
    const files = (await readdir(join(out, 'template'), { recursive: true })).filter((f) => f.endsWith('.txt'));
    assert.ok(files.length >= 40, `${method}: ${files.length} pages`);
    for (const f of files) assert.equal(await readFile(join(out, 'apply', f), 'utf8'), await readFile(join(out, 'template', f), 'utf8'), `${method} ${f}`);
  }
  // The library from an ES module: learn on the demo site, JSON round trip, apply to a page.
  const script = join(installed.project, 'learn.mjs');
  await writeFile(
    script,
    `import { readFileSync } from 'node:fs';
import { learnTemplate, applyTemplate, keptText } from 'gabarit';
const template = JSON.parse(JSON.stringify((await learnTemplate(process.argv[2], { method: 'align' })).template));
const page = applyTemplate(template, readFileSync(process.argv[3], 'utf8'));
console.log(JSON.stringify({ method: template.method, format: template.format, text: keptText(page) }));
`,
  );
  const r = await runProcess(process.execPath, [script, DEMO_SITE, join(DEMO_SITE, 'about.html')], { cwd: installed.project });
  assert.equal(r.code, 0, r.stderr);
  const got = JSON.parse(r.stdout) as { method: string; format: string; text: string };
  assert.equal(got.method, 'align');
  assert.equal(got.format, 'gabarit-template');
  assert.equal(got.text + '\n', await readFile(join(work, 'apply', 'align', 'template', 'about.txt'), 'utf8'));
  // And from TypeScript, with the installed types.
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const config = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, types: ['node'] }, files: ['learn.ts'] };
  await writeFile(join(installed.project, 'tsconfig.json'), JSON.stringify(config));
  await writeFile(
    join(installed.project, 'learn.ts'),
    `import { learnTemplate, applyTemplate, keptText, type Template, type TemplateSet, type AppliedPage } from 'gabarit';
export async function learn(dir: string): Promise<Template | TemplateSet> {
  return (await learnTemplate(dir, { method: 'pagelets', k: 3 })).template;
}
export function mark(t: Template, html: string): string {
  const page: AppliedPage = applyTemplate(t, html, { url: 'https://example.org/a' });
  return keptText(page);
}
`,
  );
  const types = await runProcess(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: installed.project });
  assert.equal(types.code, 0, `${types.stdout}${types.stderr}`);
});

/** The sharded runs' crawl (made by the DuckDB test, also used by the Spark one) and its two shards. */
const SHARDS = ['site-a', 'site-b.warc'];
const shardsGlob = (): string => join(work, 'shards-crawl', 'site-*');
const w = (name: string): string => join(work, 'shards', name);

/** Each shard's output: every page done, none failed, template marks written. */
async function checkShardsOut(out: string): Promise<void> {
  for (const name of SHARDS) {
    const summary = JSON.parse(await readFile(join(out, name, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number };
    assert.equal(summary.pagesFailed, 0, name);
    assert.equal(summary.pagesDone, await htmlFiles(join(out, name)), `${name}: every page written`);
    assert.match(await readFile(join(out, name, 'index.html'), 'utf8'), /data-gabarit="template"/, `${name}: template marked`);
  }
}

test('gabarit shards run from the installed package on DuckDB: the same files as from the sources', async () => {
  const crawl = join(work, 'shards-crawl');
  await mkdir(crawl);
  await cp(DEMO_SITE, join(crawl, 'site-a'), { recursive: true });
  await writeWarc([...shop().files].map(([key, body]) => ({ key, body })), join(crawl, 'site-b.warc'), { baseUrl: 'https://shop.example.invalid/' });
  const glob = shardsGlob();
  const r = await gabarit(['-q', '--json', 'shards', 'run', glob, '--work', w('work'), '--out', w('out'), '--workers', '2']);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(await readFile(join(w('work'), 'global', 'result.json'), 'utf8')) as { backend: string; counts: Record<string, number> };
  assert.equal(result.backend, 'duckdb');
  assert.ok(result.counts['template_pagelets']! > 0);
  assert.deepEqual((JSON.parse(r.stdout) as { marked: Array<{ name: string }> }).marked.map((s) => s.name), SHARDS);
  await checkShardsOut(w('out'));
  // the same files as the command line from the sources
  const src = await sourceGabarit(['-q', 'shards', 'run', glob, '--work', w('work-src'), '--out', w('out-src'), '--workers', '2']);
  assert.equal(src.code, 0, src.stderr);
  assert.deepEqual(differingFiles(w('out-src'), w('out')), []);
  // phase by phase, as on several machines (one part each): the same files as `run`
  for (const part of ['0/2', '1/2']) {
    const a = await gabarit(['-q', 'shards', 'analyse', glob, '--work', w('work-phases'), '--part', part]);
    assert.equal(a.code, 0, `analyse ${part}: ${a.stderr}`);
  }
  const g = await gabarit(['-q', 'shards', 'global', '--work', w('work-phases'), '--backend', 'duckdb']);
  assert.equal(g.code, 0, g.stderr);
  for (const part of ['0/2', '1/2']) {
    const m = await gabarit(['-q', 'shards', 'mark', glob, '--work', w('work-phases'), '--out', w('out-phases'), '--part', part]);
    assert.equal(m.code, 0, `mark ${part}: ${m.stderr}`);
  }
  assert.deepEqual(await globalRows(w('work-phases')), await globalRows(w('work')));
  assert.deepEqual(differingFiles(w('out'), w('out-phases')), []);
});

test('gabarit shards run from the installed package on Spark local[2]: the same results as on DuckDB', async (t) => {
  const spark = sparkOrSkip(t);
  if (!spark) return;
  const result = JSON.parse(await readFile(join(w('work'), 'global', 'result.json'), 'utf8')) as { counts: Record<string, number>; support: unknown };
  // spark-submit found on PATH (spark.env puts the virtual environment's bin/ first); the shards analysed on DuckDB
  await cp(join(w('work'), 'shards'), join(w('work-spark'), 'shards'), { recursive: true });
  const s = await gabarit(['--json', 'shards', 'run', shardsGlob(), '--work', w('work-spark'), '--out', w('out-spark'), '--backend', 'spark', '--spark-master', 'local[2]', '--spark-conf', 'spark.ui.enabled=false', '--driver-memory', '512m'], spark.env);
  assert.equal(s.code, 0, s.stderr);
  // the shards analysed with the same options: the run analyses nothing again
  const run = JSON.parse(s.stdout) as { analysed?: Array<{ skipped: boolean }> };
  assert.ok(run.analysed && run.analysed.length > 0 && run.analysed.every((a) => a.skipped), s.stdout.slice(0, 500));
  const sr = JSON.parse(await readFile(join(w('work-spark'), 'global', 'result.json'), 'utf8')) as { backend: string; master: string; counts: Record<string, number>; components?: string; support: unknown };
  assert.equal(sr.backend, 'spark');
  assert.equal(sr.master, 'local[2]');
  // spark/install.sh installs the graph components' libraries
  assert.equal(sr.components, 'graph');
  assert.deepEqual(sr.support, result.support);
  assert.deepEqual(sr.counts, result.counts);
  assert.deepEqual(await globalRows(w('work-spark')), await globalRows(w('work')));
  assert.deepEqual(differingFiles(w('out'), w('out-spark')), []);
  await checkShardsOut(w('out-spark'));
});

// ---- what the package brings into a project, and its demo ----

/** Every package below `tree` in `npm ls --json --all` output, as `name@version`. */
function packagesBelow(tree: { dependencies?: Record<string, unknown> }): string[] {
  const found: string[] = [];
  for (const [name, sub] of Object.entries(tree.dependencies ?? {})) {
    const node = sub as { version?: string; dependencies?: Record<string, unknown> };
    found.push(`${name}@${node.version ?? '?'}`, ...packagesBelow(node));
  }
  return found;
}

test('the installed package brings no @types/node into the project', async () => {
  // The check installs @types/node itself, beside gabarit; none may come through gabarit's dependencies, whose
  // own typings (of the syntax trees the Markdown writer uses) are left to them.
  const npmBin = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const ls = await runProcess(npmBin, ['ls', '--all', '--json'], { cwd: installed.project });
  const tree = JSON.parse(ls.stdout) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> };
  const below = packagesBelow(tree.dependencies['gabarit']!);
  assert.ok(below.length > 10, `gabarit's dependencies are listed (${below.length})`);
  assert.deepEqual(below.filter((p) => p.startsWith('@types/node@')), [], '@types/node installed through gabarit');
});

test('gabarit demo runs from the installed package', async () => {
  const out = join(work, 'demo');
  const r = await gabarit(['demo', '--out', out]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  for (const name of ['crawl', 'align', 'hyperlink', 'pagelets']) {
    const summary = JSON.parse(await readFile(join(out, name, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number };
    assert.ok(summary.pagesDone >= 40 && summary.pagesFailed === 0, `${name}: ${JSON.stringify(summary).slice(0, 200)}`);
  }
  assert.match(r.stdout, /fields: \d+ right, \d+ refused, 0 wrong/);
  assert.match(await readFile(join(out, 'report', 'index.html'), 'utf8'), /<html/i);
});
