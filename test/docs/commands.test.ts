/**
 * The docs are tests: every `gabarit …` command shown in README.md and docs/*.md is run through the command
 * line (test/cli/gabarit-process.ts `CLI`: the package the suite built, or the sources), and its exit code
 * and the outputs it names are checked.
 *
 * The rules:
 *  1. What is a command. A line of a fenced or indented code block, or an inline code span, that starts with
 *     `gabarit `, `npx gabarit ` or `npm run gabarit -- ` (continuation lines ending in `\` joined; a `#`
 *     comment outside quotes is not part of it). docs/cli.md's generated section (between its
 *     `options:begin` and `options:end` markers) is reference, not examples, and is not read.
 *  2. Reference forms. An inline span that only names a command or shows its syntax is not run: one with a
 *     placeholder (`<source>`, `…`, an upper-case word such as `NAME`) or fewer arguments than its command
 *     requires (`gabarit collect`, `gabarit wrapper run --update`). It is checked instead: the command
 *     exists and every option it shows is one of that command's options. Code blocks hold no reference
 *     forms: each of their commands runs.
 *  3. Inputs. Each positional argument of a command that runs is a name from PLACEHOLDERS (below: what the
 *     test prepares under that name in the command's own empty working directory; a path below a
 *     placeholder directory counts), an http(s) URL (served locally, rule 5), or what an earlier command of
 *     the same doc file wrote (its `--out`, e.g. `t/template.json` after `gabarit template site/ -o t`: that
 *     command runs first and its output is copied in). Any other name fails the test: add it to
 *     PLACEHOLDERS, or fix the doc. A command with a `--work` directory (`gabarit shards`) runs in the
 *     working directory of the previous command of the same doc that names it (analyse, then global, then
 *     mark on the same sources).
 *  4. REWRITES change the few things that cannot run as written on a test machine (absolute paths, a fixed
 *     port, a Spark master's host); each says why.
 *  5. URLs (`https://example.com/…`, `http://localhost:8080/…`) are rewritten to a server on 127.0.0.1 that
 *     serves the demo site, from a copy that also holds a `sitemap.xml` listing the shop's pages (written
 *     once the server's address, which its URLs hold, is known).
 *  6. The exit code expected is 0, unless the command's comment says `exit N`. After the run, the output
 *     (its `-o/--out`, else the option's default such as `out/template`) exists: a directory holds
 *     summary.json, or each of its folders does (one per shard), or it holds the file OUTPUT_FILE names;
 *     `--out -` printed something; files named in the comment (e.g.
 *     `# out/wrapper/records.jsonl and summary.json`) exist, relative to the output directory when they
 *     have no `/`.
 *  7. `gabarit serve` and `gabarit ui` run until stopped: the test waits for the address they print, asks
 *     it for its page (status 200), and stops the process.
 *  8. A command with `--backend spark` runs when Spark is installed (GABARIT_SPARK_VENV, as CI sets it, or
 *     spark/install.sh's cached environment), with the master `local[2]`; otherwise it is skipped with the
 *     reason (in CI a missing Spark fails). A
 *     command reading the corpus (`../shared/corpus`) is skipped with a message when the corpus is absent.
 * Each command is its own test, named by doc file and line.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Command, Option } from 'commander';
import { ROOT, CLI, type Ran } from '../cli/gabarit-process.ts';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { writeWarc, type WarcPage } from '../../src/site/warc-source.ts';
import { serveDirectory, type Served } from '../../src/site/serve.ts';
import { findSpark, sparkSkip } from '../spark/cluster.ts';

const DEMO = join(ROOT, 'examples', 'site');

/** A product page of a small hand-written shop: a title, a price, an image and a dated label. */
function productPage(name: string, price: string, year: number): string {
  return `<!doctype html><html><head><title>${name} | Trailhead</title>
<meta property="og:image" content="https://shop.example/img/${name.toLowerCase().replace(/\W+/g, '-')}.jpg"></head>
<body><header><a href="index.html">Trailhead</a> <nav><a href="tents.html">Tents</a> <a href="packs.html">Packs</a></nav></header>
<main id="content"><article class="product"><h1>${name}</h1><p class="price">${price}</p>
<p><b>Date:</b> ${year}<br>In stock.</p>
<p>A sturdy piece of kit for long days on the hill, tested in wind and rain over a whole season.</p></article></main>
<footer>© Trailhead, a shop that does not exist</footer></body></html>
`;
}

/** A book page with labelled fields. */
const BOOK = `<!doctype html><html><head><title>Game Over</title></head><body>
<h1>Game Over</h1><div class="details"><p>By <a href="/a/fern-michaels">Fern Michaels</a></p>
<ul><li><strong>Publisher</strong>: Zebra</li><li><strong>Publication date</strong>: June 2008</li></ul></div>
<p>A novel of the Sisterhood, in which old friends settle an account.</p></body></html>
`;

/** A second book page: its author, and a series line of the same kind after it. */
const BOOK_2 = BOOK.replace('Game Over', 'Deep Water').replace('<p>By <a href="/a/fern-michaels">Fern Michaels</a></p>', '<p>By <a href="/a/ann-cleeves">Ann Cleeves</a></p><p>More in <a href="/s/shetland">Shetland</a></p>');

/** The demo site's pages as WARC records (key relative to the site). */
function demoPages(): WarcPage[] {
  return (readdirSync(DEMO, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((key) => ({ key: key.split('\\').join('/'), body: readFileSync(join(DEMO, key)) }));
}

/** Two WARC files holding the demo site between them (a crawl written in parts). */
async function demoWarcs(dir: string, prefix: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const pages = demoPages();
  const options = { baseUrl: 'https://shop.example/', date: new Date('2024-01-01T00:00:00Z') };
  await writeWarc(pages.filter((_, i) => i % 2 === 0), join(dir, `${prefix}-1.warc.gz`), options);
  await writeWarc(pages.filter((_, i) => i % 2 === 1), join(dir, `${prefix}-2.warc.gz`), options);
}

/** Every name a doc command may read, and what the test prepares under it in the working directory. */
const PLACEHOLDERS: Record<string, (cwd: string) => Promise<void>> = {
  'examples/site': async (cwd) => linkDemo(join(cwd, 'examples', 'site')),
  'site/': async (cwd) => linkDemo(join(cwd, 'site')),
  'mirror/': async (cwd) => linkDemo(join(cwd, 'mirror')),
  // New pages of the site a template was learned on: the demo shop's folder.
  'new-pages/': async (cwd) => cp(join(DEMO, 'shop'), join(cwd, 'new-pages'), { recursive: true }),
  'page.html': async (cwd) => writeFile(join(cwd, 'page.html'), productPage('Ridge 40 Pack', '£179.00', 2008)),
  'other.html': async (cwd) => writeFile(join(cwd, 'other.html'), productPage('Cirrus Tent', '£249.00', 2011)),
  'pages/*.html': async (cwd) => {
    await mkdir(join(cwd, 'pages'));
    await writeFile(join(cwd, 'pages', 'cirrus-tent.html'), productPage('Cirrus Tent', '£249.00', 2011));
    await writeFile(join(cwd, 'pages', 'fell-jacket.html'), productPage('Fell Jacket', '£129.50', 2019));
  },
  'book.html': async (cwd) => writeFile(join(cwd, 'book.html'), BOOK),
  'book-2.html': async (cwd) => writeFile(join(cwd, 'book-2.html'), BOOK_2),
  "'crawl-*.warc.gz'": async (cwd) => demoWarcs(cwd, 'crawl'),
  "'crawl/crawl-*.warc.gz'": async (cwd) => demoWarcs(join(cwd, 'crawl'), 'crawl'),
  'crawl.warc.gz': async (cwd) => writeWarc(demoPages(), join(cwd, 'crawl.warc.gz'), { baseUrl: 'https://shop.example/' }).then(() => undefined),
};

async function linkDemo(at: string): Promise<void> {
  await mkdir(dirname(at), { recursive: true });
  await symlink(DEMO, at, 'dir');
}

/** Text replaced in a command before it runs, and why. */
const REWRITES: ReadonlyArray<{ from: RegExp; to: string; why: string }> = [
  { from: /(^|\s)\/shared\//g, to: '$1shared/', why: 'a shared folder of several machines: a folder of the working directory' },
  { from: /spark:\/\/HOST:7077/g, to: 'local[2]', why: 'a Spark master on this machine' },
  { from: /--port 8800\b/g, to: '--port 0', why: 'a fixed port may be taken on a shared machine' },
  { from: /(^|\s)\.\.\/shared\/corpus/g, to: `$1${CORPUS_DIR}`, why: 'the corpus beside the repository, not beside the working directory' },
];

/** The file an output directory holds, for the commands that write no summary.json at its top (rule 6). */
const OUTPUT_FILE: Record<string, string> = { report: 'index.html', demo: 'report/index.html' };

/** Commands that run until stopped. */
const LONG_RUNNING = new Set(['serve', 'ui']);
/** A Spark command starts a JVM and runs its jobs: on a loaded 2-core machine that has taken over 2 minutes. */
const COMMAND_TIMEOUT_MS = 300_000;

// ---------------------------------------------------------------------------------------------------------
// Reading the docs

interface DocCommand {
  file: string;
  line: number;
  /** The command as the doc writes it (continuations joined, comment removed). */
  text: string;
  comment: string;
  inCode: boolean;
}

const PREFIX = /^(?:npx |npm run )?gabarit(?: --)?(?= )/;

/** The text up to an unquoted ` #`, and the comment after it. */
function splitComment(line: string): [string, string] {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
  }
  return [line.trimEnd(), ''];
}

function docCommands(file: string): DocCommand[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found: DocCommand[] = [];
  const prose: string[] = [];
  let fence = false;
  let generated = false;
  let prevBlank = true;
  let prevCode = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.includes('<!-- options:begin')) generated = true;
    if (l.includes('<!-- options:end')) generated = false;
    const isFence = /^\s*(```|~~~)/.test(l);
    const isCode: boolean = fence || isFence || (/^ {4}/.test(l) && (prevBlank || prevCode));
    if (isFence) fence = !fence;
    prose.push(isCode || generated ? '' : l);
    prevCode = isCode && !isFence;
    prevBlank = l.trim() === '';
    if (!isCode || isFence || generated) continue;
    let logical = l.trim();
    const start = i;
    while (logical.endsWith('\\') && i + 1 < lines.length) logical = logical.slice(0, -1).trimEnd() + ' ' + lines[++i]!.trim();
    const [text, comment] = splitComment(logical);
    if (PREFIX.test(text)) found.push({ file, line: start + 1, text, comment, inCode: true });
  }
  // Inline spans, which may run over a line break within a paragraph.
  const body = prose.join('\n');
  const span = /`([^`\n]+(?:\n[^`\n]+)*?)`/g;
  for (let m = span.exec(body); m; m = span.exec(body)) {
    const text = m[1]!.replace(/\s*\n\s*/g, ' ').trim();
    if (!/^(?:npx )?gabarit [-a-z]/.test(text)) continue;
    found.push({ file, line: body.slice(0, m.index).split('\n').length, text, comment: '', inCode: false });
  }
  return found.sort((a, b) => a.line - b.line);
}

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const COMMANDS = DOCS.flatMap(docCommands);

// ---------------------------------------------------------------------------------------------------------
// Parsing a command as the command line does

interface Word {
  text: string;
  /** As written, quotes included (how PLACEHOLDERS names it). */
  raw: string;
}

/** Shell words (single and double quotes, backslash escapes). */
function words(line: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i]!)) i++;
    if (i >= line.length) break;
    const from = i;
    let text = '';
    while (i < line.length && !/\s/.test(line[i]!)) {
      const c = line[i]!;
      if (c === "'" || c === '"') {
        const end = line.indexOf(c, i + 1);
        assert.ok(end > i, `unbalanced quote in: ${line}`);
        text += line.slice(i + 1, end);
        i = end + 1;
      } else if (c === '\\') {
        text += line[i + 1] ?? '';
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    out.push({ text, raw: line.slice(from, i) });
  }
  return out;
}

interface Parsed {
  /** The command's path, e.g. ['wrapper', 'run'] ([] for `gabarit --help`). */
  path: string[];
  command: Command;
  positionals: Word[];
  /** Option values by long name (`--out`), and the options shown. */
  values: Map<string, string>;
  options: string[];
  unknown: string[];
}

let program: Command;

function findOption(commands: readonly Command[], flag: string): Option | undefined {
  for (const c of commands) {
    // commander keeps -h/--help apart from the declared options
    const help = (c as unknown as { _getHelpOption?(): Option | null })._getHelpOption?.();
    if (help && (help.long === flag || help.short === flag)) return help;
    const o = c.options.find((o) => o.long === flag || o.short === flag);
    if (o) return o;
  }
  return undefined;
}

function parse(text: string): Parsed {
  const ws = words(text.replace(PREFIX, 'gabarit')).slice(1);
  let command = program;
  const path: string[] = [];
  const scope: Command[] = [program];
  const positionals: Word[] = [];
  const values = new Map<string, string>();
  const options: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (w.text.startsWith('-') && w.text !== '-') {
      const [flag, inline] = w.text.split(/=(.*)/s) as [string, string | undefined];
      options.push(flag);
      const o = findOption(scope, flag);
      if (!o) {
        unknown.push(flag);
        continue;
      }
      const takes = o.required || (o.optional && i + 1 < ws.length && !ws[i + 1]!.text.startsWith('-') && positionals.length >= requiredArgs(command));
      const value = inline ?? (takes ? ws[++i]?.text : undefined);
      values.set(o.long ?? flag, value ?? '');
      continue;
    }
    const sub = positionals.length === 0 ? command.commands.find((c) => c.name() === w.text || c.aliases().includes(w.text)) : undefined;
    if (sub) {
      command = sub;
      path.push(w.text);
      scope.unshift(sub);
    } else positionals.push(w);
  }
  return { path, command, positionals, values, options, unknown };
}

function requiredArgs(c: Command): number {
  return c.registeredArguments.filter((a) => a.required).length;
}

/** Why a span is a reference form (rule 2), or '' when it is a command to run. */
function referenceForm(c: DocCommand, p: Parsed): string {
  if (c.inCode) return '';
  if (/<[a-z][\w-]*>|…/i.test(c.text)) return 'a placeholder';
  if (words(c.text).some((w) => /^[A-Z]{3,}$/.test(w.text))) return 'an upper-case placeholder';
  if (p.command.commands.length > 0 && p.path.length > 0) return 'a command group';
  if (p.positionals.length < requiredArgs(p.command)) return 'fewer arguments than the command requires';
  return '';
}

// ---------------------------------------------------------------------------------------------------------
// Running a command

let work: string;
let bin: string;
let server: Served | undefined;
let serving: Promise<Served> | undefined;

/** The demo site on 127.0.0.1 with a sitemap of its shop (rule 5). */
async function serveDemo(): Promise<Served> {
  const dir = join(work, 'demo-site');
  await cp(DEMO, dir, { recursive: true });
  const s = await serveDirectory(dir, { port: 0 });
  const root = s.url.replace(/\/?$/, '/');
  const shop = (await readdir(join(dir, 'shop'))).filter((n) => n.endsWith('.html')).sort();
  const urls = shop.map((n) => `<url><loc>${root}shop/${n}</loc></url>`).join('\n');
  await writeFile(join(dir, 'sitemap.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  return s;
}

before(async () => {
  // The command line's own definitions, read without running it (the child processes run it).
  process.env['GABARIT_NO_MAIN'] = '1';
  const [{ buildProgram }, { addEngineFlags }] = await Promise.all([import('../../src/cli/main.ts'), import('../../src/cli/template.ts')]);
  delete process.env['GABARIT_NO_MAIN'];
  program = await buildProgram();
  await addEngineFlags(program.commands.find((c) => c.name() === 'template')!);
  work = await mkdtemp(join(tmpdir(), 'gabarit-docs-'));
  bin = join(work, 'bin');
  await mkdir(bin);
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  await writeFile(join(bin, 'gabarit'), `#!/bin/sh\nexec ${[process.execPath, ...CLI].map(q).join(' ')} "$@"\n`);
  await chmod(join(bin, 'gabarit'), 0o755);
});
after(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Outcome {
  cwd: string;
  ran: Ran;
  parsed: Parsed;
  /** The output the command names (relative to cwd), if any. */
  out: string | undefined;
  /** The command line as run, after the rewrites. */
  line: string;
}

const runs = new Map<string, Promise<Outcome>>();
let dirs = 0;

/** The placeholder a positional argument names, if any (rule 3). */
function placeholderOf(w: Word): string | undefined {
  for (const name of Object.keys(PLACEHOLDERS)) {
    const bare = name.replace(/\/$/, '');
    if (w.raw === name || w.raw === bare || (!name.includes('*') && w.raw.startsWith(bare + '/'))) return name;
  }
  return undefined;
}

/** The output a command writes: its --out value, else the option's default (a path). */
function outputOf(p: Parsed): string | undefined {
  const out = p.command.options.find((o) => o.long === '--out');
  if (!out) return undefined;
  const v = p.values.get('--out') ?? (typeof out.defaultValue === 'string' && /^out\//.test(out.defaultValue) ? out.defaultValue : undefined);
  return v === undefined || v === '' ? undefined : v;
}

/** The earlier command of the same doc whose output holds `path`. */
function producerOf(c: DocCommand, path: string): DocCommand | undefined {
  const earlier = COMMANDS.slice(0, COMMANDS.indexOf(c)).filter((d) => d.file === c.file);
  for (const d of earlier.reverse()) {
    const out = outputOf(parse(d.text));
    if (out && out !== '-' && (path === out || path.startsWith(out.replace(/\/$/, '') + '/'))) return d;
  }
  return undefined;
}

function rewrite(text: string): string {
  let line = text.replace(PREFIX, 'gabarit');
  for (const r of REWRITES) line = line.replace(r.from, r.to);
  return line.replace(/\bhttps?:\/\/(?:example\.com|www\.example\.com|localhost:8080)\//g, () => {
    assert.ok(server, 'the local server is started before a command with a URL');
    return server.url.replace(/\/?$/, '/');
  });
}

/**
 * The run of a command, once: commands of the same text that read only placeholders (e.g. `gabarit demo`
 * and `npx gabarit demo`) share one run; one reading what an earlier command wrote runs for its doc.
 */
function runDoc(c: DocCommand): Promise<Outcome> {
  const line = c.text.replace(PREFIX, 'gabarit');
  const p = parse(c.text);
  const own = !p.values.has('--work') && p.positionals.every((w) => placeholderOf(w) || /^https?:\/\/|^\.\.\/shared\/corpus/.test(w.text));
  const key = own ? line : `${c.file}:${c.line}:${line}`;
  let r = runs.get(key);
  if (!r) {
    r = prepareAndRun(c);
    runs.set(key, r);
  }
  return r;
}

/** The placeholders prepared in each working directory. */
const preparedIn = new Map<string, Set<string>>();

async function prepareAndRun(c: DocCommand): Promise<Outcome> {
  const parsed = parse(c.text);
  // A shards work directory is the state of a sequence (analyse, then global, then mark, on the same
  // sources): such a command runs in the working directory of the previous command of its doc that names it.
  const workDir = parsed.values.get('--work');
  const previous = workDir
    ? COMMANDS.slice(0, COMMANDS.indexOf(c))
        .filter((d) => d.file === c.file && parse(d.text).values.get('--work') === workDir)
        .pop()
    : undefined;
  const cwd = previous ? (await runDoc(previous)).cwd : join(work, `${++dirs}-${c.file.replace(/\W+/g, '-')}-${c.line}`);
  if (!previous) await mkdir(cwd);
  const prepared = preparedIn.get(cwd) ?? new Set<string>();
  preparedIn.set(cwd, prepared);
  for (const w of parsed.positionals) {
    if (/^https?:\/\//.test(w.text)) {
      server = await (serving ??= serveDemo());
      continue;
    }
    if (w.text.startsWith('../shared/corpus')) continue;
    const name = placeholderOf(w);
    if (name) {
      if (!prepared.has(name)) await PLACEHOLDERS[name]!(cwd);
      prepared.add(name);
      continue;
    }
    const producer = producerOf(c, w.text);
    assert.ok(
      producer,
      `${c.file}:${c.line}: \`${c.text}\` reads ${w.raw}, which no earlier command of ${c.file} writes and PLACEHOLDERS in test/docs/commands.test.ts does not prepare: add it there, or fix the doc`,
    );
    const made = await runDoc(producer);
    assert.equal(made.ran.code, 0, `${c.file}:${c.line}: ${w.raw} comes from ${producer.file}:${producer.line}, which failed`);
    const out = made.out!;
    await mkdir(dirname(join(cwd, out)), { recursive: true });
    await cp(join(made.cwd, out), join(cwd, out), { recursive: true });
  }
  const line = rewrite(c.text);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` };
  let shellLine = line;
  if (parsed.values.get('--backend') === 'spark') {
    const spark = findSpark();
    assert.ok(typeof spark !== 'string', spark as string);
    Object.assign(env, spark.env, { PATH: `${bin}:${spark.env['PATH'] ?? ''}` });
    shellLine += ` --spark-submit '${spark.sparkSubmit}'`;
  }
  const ran = LONG_RUNNING.has(parsed.path[0] ?? '') ? await runUntilServing(shellLine, cwd, env) : await runShell(shellLine, cwd, env);
  return { cwd, ran, parsed, out: outputOf(parsed), line };
}

/** Runs one command line through sh (globs as a user's shell expands them). */
function runShell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec ${line}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n(test: stopped after ${COMMAND_TIMEOUT_MS / 1000} s)`;
      child.kill('SIGKILL');
    }, COMMAND_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a server command, waits for the address it prints, asks it for that page, stops it (rule 7). */
function runUntilServing(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec ${line}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let asked = false;
    const timer = setTimeout(() => {
      stderr += `\n(test: no address printed within ${COMMAND_TIMEOUT_MS / 1000} s)`;
      child.kill('SIGKILL');
    }, COMMAND_TIMEOUT_MS);
    const look = (): void => {
      const url = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(stdout + stderr)?.[0];
      if (!url || asked) return;
      asked = true;
      fetch(url)
        .then(async (res) => {
          await res.arrayBuffer();
          stdout += `\n(test: GET ${url} answered ${res.status})`;
          if (res.status === 200) stdout += '\n(test: served)';
        })
        .catch((err: Error) => (stderr += `\n(test: GET ${url} failed: ${err.message})`))
        .finally(() => child.kill('SIGTERM'));
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => ((stdout += d), look()));
    child.stderr.setEncoding('utf8').on('data', (d: string) => ((stderr += d), look()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Stopped by the test after it answered: that is the server's success.
      resolve({ code: signal === 'SIGTERM' && stdout.includes('(test: served)') ? 0 : code ?? -1, stdout, stderr });
    });
  });
}

/** The exit code the doc gives a command (rule 6). */
function expectedCode(c: DocCommand): number {
  const m = /\bexit(?:s| code)? (\d)\b/.exec(c.comment);
  return m ? Number(m[1]) : 0;
}

/** Files named in a command's comment (rule 6). */
function commentFiles(c: DocCommand, out: string | undefined): string[] {
  const names = c.comment.match(/[\w./-]+\.(?:jsonl?|html|txt|parquet)\b/g) ?? [];
  return names.map((n) => (n.includes('/') || !out ? n : join(out, n)));
}

async function checkOutputs(c: DocCommand, o: Outcome): Promise<void> {
  const where = `${c.file}:${c.line}`;
  if (o.out === '-') assert.ok(o.ran.stdout.trim().length > 0, `${where}: --out - printed nothing`);
  else if (o.out !== undefined) {
    const out = join(o.cwd, o.out);
    assert.ok(existsSync(out), `${where}: its output ${o.out} was not written`);
    if (statSync(out).isDirectory()) {
      const expected = OUTPUT_FILE[o.parsed.path[0] ?? ''] ?? 'summary.json';
      const there = await readdir(out, { withFileTypes: true });
      // `gabarit shards` writes one folder per shard when there are several, each with its summary.
      const folders = there.filter((d) => d.isDirectory()).map((d) => join(out, d.name));
      const summaryDirs = existsSync(join(out, expected)) || expected !== 'summary.json' || folders.length === 0 ? [out] : folders;
      for (const dir of summaryDirs) {
        assert.ok(existsSync(join(dir, expected)), `${where}: ${relative(o.cwd, dir)}/${expected} was not written (there: ${there.map((d) => d.name).join(', ')})`);
        if (expected === 'summary.json') JSON.parse(await readFile(join(dir, expected), 'utf8'));
      }
    }
  }
  for (const f of commentFiles(c, o.out)) assert.ok(existsSync(join(o.cwd, f)), `${where}: ${f}, named in its comment, was not written`);
}

// ---------------------------------------------------------------------------------------------------------

test('the docs show commands, and the reader finds those of each kind', () => {
  // A reader that found nothing would pass every doc; these are known to be there.
  const texts = COMMANDS.map((c) => `${c.file} ${c.text}`);
  for (const t of ['README.md gabarit template examples/site --method align', 'docs/ui.md gabarit ui examples/site', 'docs/install.md npm run gabarit -- --help', 'docs/install.md gabarit --help']) {
    assert.ok(texts.includes(t), `not found: ${t}`);
  }
  assert.ok(COMMANDS.length >= 40, `${COMMANDS.length} commands`);
});

describe('commands in the docs', { concurrency: 2 }, () => {
  for (const c of COMMANDS) {
    const name = `${c.file}:${c.line} ${c.text}`;
    const spark = /--backend spark\b/.test(c.text) ? sparkSkip() : false;
    const corpus = /\.\.\/shared\/corpus/.test(c.text) ? corpusSkip() : false;
    test(name, { skip: spark || corpus }, async (t) => {
      const p = parse(c.text);
      const why = referenceForm(c, p);
      if (why) {
        // Rule 2: the command exists and shows only its own options.
        assert.deepEqual(p.unknown, [], `${c.file}:${c.line}: \`${c.text}\` shows options that \`gabarit ${p.path.join(' ')}\` does not have`);
        assert.ok(p.path.length > 0 || p.options.length > 0, `${c.file}:${c.line}: \`${c.text}\` names no command`);
        t.diagnostic(`reference form (${why}): checked against the command's options`);
        return;
      }
      assert.deepEqual(p.unknown, [], `${c.file}:${c.line}: unknown options`);
      const o = await runDoc(c);
      const expected = expectedCode(c);
      assert.equal(o.ran.code, expected, `${c.file}:${c.line}: \`${o.line}\` exited ${o.ran.code}, the doc expects ${expected}\n${o.ran.stderr.slice(-3000)}`);
      await checkOutputs(c, o);
      t.diagnostic(`ran \`${o.line}\` in ${relative(work, o.cwd)}`);
    });
  }
});
