/**
 * Every option of every command is exercised through the command line at least once: by a test (an args
 * array given to `gabarit([...])`, or spawned after `...CLI`) or by a documented command line
 * (`gabarit <command> …` in a code span or code block of README.md or docs/*.md).
 *
 * The rule, strict on purpose:
 *  - an option of a command counts when its flag (long or short, `--flag=value` too) is a string literal of
 *    an invocation whose command words (the first words that are not flags: `crawl`, `wrapper create`) are
 *    literal and name that command;
 *  - an option of a template engine (`--method <engine>`) counts for that engine only: the invocation is a
 *    `template` one whose `--method` is that engine (literal), or none for the default engine;
 *  - the source options (declared once for every command with a `<source>`, and read by one function) and
 *    the global options count with any command that has them;
 *  - a `--no-x` flag is an option of its own;
 *  - in a test that runs the command line, an array literal that starts with a command's words counts too
 *    (a helper's argument, a table of command lines), and a spread `const` array of the file is read as its
 *    words.
 * The test sources are test/**\/*.ts but test/package/ (run by `npm run test:package`, not `npm test`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';
import type { Option } from 'commander';
import { commandParts, isListed, loadProgram } from '../../examples/readme-options.ts';
import { ROOT } from './gabarit-process.ts';

/** One option that some invocation must use. */
interface Need {
  /** How the failure names it: `crawl --top`, `source --delay`, `template --method hyperlink --key`. */
  name: string;
  /** The command (its words joined by a space) it belongs to; undefined: any command that has it. */
  command?: string;
  /** The commands that have it, for a need of any command. */
  commands?: ReadonlySet<string>;
  /** Its flags (long, short). */
  flags: string[];
  /** For an engine option: the engine `--method` must name. */
  method?: string;
}

/** One command line: the file and line it is at, its words (undefined: not a literal). */
interface Invocation {
  where: string;
  words: (string | undefined)[];
  /** An array found by its shape only: it counts when its first word names a command. */
  loose?: boolean;
}

function flagsOf(o: Option): string[] {
  return [o.long, o.short].filter((f): f is string => f !== undefined);
}

/** What must be exercised, from the program itself (the walk of docs/cli.md) and the engines' declarations. */
async function needs(): Promise<{ needs: Need[]; commands: Map<string, string[]>; defaultMethod: string }> {
  const { program, ENGINE_OPTIONS, SOURCE_OPTION_NAMES } = await loadProgram();
  const out: Need[] = [];
  const commands = new Map<string, string[]>();
  const source = new Map<string, Need>();
  let defaultMethod = '';
  for (const cmd of program.commands) {
    for (const { c, path } of commandParts(cmd)) {
      const command = path.join(' ');
      commands.set(command, path);
      // The source options of a command with a <source>: one need each, met by any such command.
      const shared = c === cmd;
      for (const o of c.options) {
        if (!isListed(o)) continue;
        if (shared && SOURCE_OPTION_NAMES.has(o.attributeName())) {
          const n = source.get(o.long!) ?? { name: `source ${o.long!}`, commands: new Set<string>(), flags: flagsOf(o) };
          (n.commands as Set<string>).add(command);
          source.set(o.long!, n);
          continue;
        }
        out.push({ name: `${command} ${o.long!}`, command, flags: flagsOf(o) });
        if (command === 'template' && o.long === '--method') defaultMethod = String(o.defaultValue);
      }
    }
  }
  // --json and --quiet with some command; --version alone ('' is the program without a command).
  for (const o of program.options) {
    if (o.long !== '--help') out.push({ name: `global ${o.long!}`, commands: new Set(o.long === '--version' ? [''] : commands.keys()), flags: flagsOf(o) });
  }
  out.push(...source.values());
  // The engine options of `template`: declared when the command runs, one need per engine.
  for (const [engine, decl] of Object.entries(ENGINE_OPTIONS)) {
    for (const f of decl.cliFlags()) out.push({ name: `template --method ${engine} ${f.flags.split(' ')[0]!}`, command: 'template', flags: [f.flags.split(' ')[0]!], method: engine });
  }
  return { needs: out, commands, defaultMethod };
}

// ---- invocations in the test sources ----

/** The `const NAME = [...]` arrays of a source, by name, so that a spread of one is read as its words. */
type Consts = ReadonlyMap<string, ts.ArrayLiteralExpression>;

function constArrays(sf: ts.SourceFile): Consts {
  const found = new Map<string, ts.ArrayLiteralExpression>();
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isArrayLiteralExpression(n.initializer)) {
      const list = n.parent;
      if (ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0) found.set(n.name.text, n.initializer);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/**
 * The words of an args array: string literals, those of spread arrays (literal, or a `const` array of the
 * same file) and of both branches of a condition.
 */
function arrayWords(node: ts.ArrayLiteralExpression, consts: Consts = new Map(), seen: ReadonlySet<string> = new Set()): (string | undefined)[] {
  const words: (string | undefined)[] = [];
  const visit = (e: ts.Expression): void => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) words.push(e.text);
    else if (ts.isArrayLiteralExpression(e)) e.elements.forEach((x) => visit(x));
    else if (ts.isSpreadElement(e) && ts.isIdentifier(e.expression) && consts.has(e.expression.text) && !seen.has(e.expression.text)) {
      words.push(...arrayWords(consts.get(e.expression.text)!, consts, new Set([...seen, e.expression.text])));
    } else if (ts.isSpreadElement(e)) visit(e.expression);
    else if (ts.isParenthesizedExpression(e)) visit(e.expression);
    else if (ts.isConditionalExpression(e)) {
      visit(e.whenTrue);
      visit(e.whenFalse);
    } else words.push(undefined);
  };
  node.elements.forEach((x) => visit(x));
  return words;
}

/**
 * The command lines of a test source: `gabarit([...])` calls, arrays that start with `...CLI`, and,
 * in a source that runs the command line (it imports test/cli/gabarit-process.ts), any array literal whose
 * first literal words name a command (a helper such as `ok([...])`, a table of command lines).
 */
function sourceInvocations(file: string, text: string): Invocation[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const consts = constArrays(sf);
  const runsCli = /from '[^']*gabarit-process\.ts'/.test(text);
  const found: Invocation[] = [];
  const where = (n: ts.Node): string => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'gabarit' && n.arguments[0] && ts.isArrayLiteralExpression(n.arguments[0])) {
      found.push({ where: where(n), words: arrayWords(n.arguments[0], consts) });
    } else if (ts.isArrayLiteralExpression(n)) {
      const first = n.elements[0];
      if (first && ts.isSpreadElement(first) && ts.isIdentifier(first.expression) && first.expression.text === 'CLI') {
        found.push({ where: where(n), words: arrayWords(ts.factory.createArrayLiteralExpression(n.elements.slice(1)), consts) });
      } else if (runsCli) found.push({ where: where(n), words: arrayWords(n, consts), loose: true });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

// ---- documented command lines ----

/** The words of a shell command line (quotes removed; a comment, pipe or redirection ends it). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    const w = m[1] ?? m[2] ?? m[3]!;
    if (m[3] !== undefined && (/^(#|\||&&|;|>|2>)/.test(w))) break;
    words.push(w);
  }
  return words;
}

/** The `gabarit …` command lines of a Markdown text: in code spans, and in code blocks (lines joined at `\`). */
function docInvocations(file: string, text: string): Invocation[] {
  const found: Invocation[] = [];
  const lines = text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    const candidates: string[] = [];
    if (fenced || /^ {4}/.test(line)) {
      let joined = line;
      while (joined.endsWith('\\') && i + 1 < lines.length) joined = joined.slice(0, -1) + ' ' + lines[++i]!;
      candidates.push(joined);
    } else {
      for (const m of line.matchAll(/`([^`]+)`/g)) candidates.push(m[1]!);
    }
    for (const c of candidates) {
      const words = shellWords(c);
      const at = words.indexOf('gabarit');
      if (at >= 0) found.push({ where: `${file}:${i + 1}`, words: words.slice(at + 1) });
    }
  }
  return found;
}

async function filesUnder(dir: string, keep: (path: string) => boolean): Promise<string[]> {
  const files: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await filesUnder(path, keep)));
    else if (e.isFile() && keep(path)) files.push(path);
  }
  return files.sort();
}

async function invocations(): Promise<Invocation[]> {
  const self = join(ROOT, 'test', 'cli', 'option-coverage.test.ts');
  const sources = await filesUnder(join(ROOT, 'test'), (p) => p.endsWith('.ts') && p !== self && !relative(ROOT, p).startsWith(join('test', 'package')));
  const docs = [join(ROOT, 'README.md'), ...(await filesUnder(join(ROOT, 'docs'), (p) => p.endsWith('.md')))];
  const all: Invocation[] = [];
  for (const f of sources) all.push(...sourceInvocations(relative(ROOT, f), await readFile(f, 'utf8')));
  for (const f of docs) all.push(...docInvocations(relative(ROOT, f), await readFile(f, 'utf8')));
  return all;
}

// ---- matching ----

/**
 * The command an invocation runs (its first words that are not flags), '' for none (literal flags only),
 * or undefined when not literal or unknown.
 */
function commandOf(words: readonly (string | undefined)[], commands: ReadonlyMap<string, string[]>): string | undefined {
  const rest = words.filter((w) => w === undefined || !w.startsWith('-'));
  if (rest.length === 0) return '';
  for (const [name, path] of commands) if (path.every((p, i) => rest[i] === p)) return name;
  return undefined;
}

/** The `--method` of an invocation: its literal value, the default when absent, undefined when not literal. */
function methodOf(words: readonly (string | undefined)[], defaultMethod: string): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '-m' || w === '--method') return words[i + 1];
    if (w?.startsWith('--method=')) return w.slice('--method='.length);
  }
  return defaultMethod;
}

function uses(words: readonly (string | undefined)[], flags: readonly string[]): boolean {
  return words.some((w) => w !== undefined && flags.some((f) => w === f || (f.startsWith('--') && w.startsWith(f + '='))));
}

function meets(need: Need, inv: Invocation, command: string, defaultMethod: string): boolean {
  if (need.command !== undefined ? need.command !== command : !need.commands!.has(command)) return false;
  if (need.method !== undefined && methodOf(inv.words, defaultMethod) !== need.method) return false;
  return uses(inv.words, need.flags);
}

test('every option of every command is exercised through the command line by a test or a documented command', async () => {
  const [{ needs: all, commands, defaultMethod }, found] = await Promise.all([needs(), invocations()]);
  // The walk and the scan are not vacuous.
  assert.ok(all.some((n) => n.name === 'crawl --top') && all.some((n) => n.name === 'source --delay') && all.some((n) => n.name === 'global --json'), 'the walk finds the options');
  assert.ok(all.some((n) => n.name === 'template --method hyperlink --key'), 'the walk finds the engine options');
  assert.equal(defaultMethod, 'align');
  assert.ok(found.filter((i) => commandOf(i.words, commands) !== undefined).length > 50, 'the scan finds the command lines of the tests');
  const located = found
    .map((inv) => ({ inv, command: commandOf(inv.words, commands) }))
    .filter((x): x is { inv: Invocation; command: string } => x.command !== undefined && !(x.inv.loose && x.command === ''));
  const exercised = (need: Need): boolean => located.some(({ inv, command }) => meets(need, inv, command, defaultMethod));
  const missing = all.filter((n) => !exercised(n)).map((n) => n.name);
  assert.ok(missing.length === 0, `options never exercised through the command line (in a gabarit([...]) args array of a test, or a documented \`gabarit …\` line):\n  ${missing.join('\n  ')}`);
});
