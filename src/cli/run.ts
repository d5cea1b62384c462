/**
 * Plumbing every command shares (STYLE.md 11: thin commands over the library): the global options, the
 * source options and opening a source from `<source>`, the output directory, failure lines on stderr, the
 * result on stdout (text or `--json`), and the outcome that main.ts turns into an exit code.
 * Nothing here exits: a command's action resolves when the work was done, and throws otherwise
 * (`NothingDone` → exit 1, `UsageError` → exit 2; see main.ts).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { GabaritError } from '../errors.ts';
import type { PageFailure, Summary } from '../output.ts';
import type { CommandHooks } from '../run/command.ts';
import type { OpenedSource } from '../run/source.ts';
import type { SourceOptions } from '../site/source.ts';
import { interruptionField, interruptSignal, notePageRead, noteSummary, watchInterrupts } from './interrupt.ts';
import { addDeclaredOptions } from './parsers.ts';
import { type GlobalFlags, outOptions, SOURCE_OPTIONS, type SourceFlags } from '../run/options.ts';
import { createProgress, type Progress } from './progress.ts';

/** The exit codes of `gabarit` (README, "Exit codes"). */
export const ExitCode = {
  /** The work was done (some pages may have failed: they are listed in summary.json and on stderr). */
  Done: 0,
  /** Nothing could be done: no page processed, source unreadable, no justified result. */
  NothingDone: 1,
  /** Usage error: bad option, unknown method or command, missing argument. */
  Usage: 2,
} as const;

/** Thrown by a command when nothing could be done (exit 1); its message says why. */
export class NothingDone extends GabaritError {
  override readonly name = 'NothingDone';
}

/** The global options (`gabarit --json --quiet <command> …`, declared in GLOBAL_OPTIONS), each on or off. */
export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
}

/** The global options as seen from a command. */
export function globalOptions(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<GlobalFlags>();
  return { json: o.json === true, quiet: o.quiet === true };
}


/** The source options of a command (`<source>` being a directory, a WARC file or a URL), declared in src/run/options.ts. */
export type { SourceFlags } from '../run/options.ts';

/** Attribute names of the source options (for documentation: they are the same on every command). */
export const SOURCE_OPTION_NAMES: ReadonlySet<string> = new Set(SOURCE_OPTIONS.names);

/** The help of a command's `<source>` argument. */
export const SOURCE_ARGUMENT = 'directory of pages, a page file, .warc/.warc.gz file, http(s) URL, or a quoted glob of WARC files or directories (\'crawl-*.warc.gz\') read as one source';

/** Adds the source options (fetch politeness, limits, resume store) to a command, as declared in SOURCE_OPTIONS. */
export function addSourceOptions(cmd: Command): Command {
  return addDeclaredOptions(cmd, SOURCE_OPTIONS);
}

/** What a command does before it parses its arguments or shows its help (e.g. declaring engine flags). */
const preparations = new WeakMap<Command, () => Promise<unknown>>();

/**
 * Runs `prepare` (once) before `cmd` parses its arguments or shows its help, so that only that command
 * loads what it needs: `gabarit <cmd> …` through commander's `preSubcommand` hook, `gabarit help <cmd>`
 * through `prepareCommand` (main.ts). Resolves to what `prepare` gives.
 */
export function prepareBeforeParse<T>(program: Command, cmd: Command, prepare: () => Promise<T>): () => Promise<T> {
  let prepared: Promise<T> | undefined;
  const once = (): Promise<T> => (prepared ??= prepare());
  preparations.set(cmd, once);
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub === cmd) await once();
  });
  return once;
}

/** Prepares `cmd` (see prepareBeforeParse); nothing when it needs nothing. */
export async function prepareCommand(cmd: Command | undefined): Promise<void> {
  if (cmd) await preparations.get(cmd)?.();
}

/** The `--out` flag of a command (outOptions). */
export type { OutFlags } from '../run/options.ts';

/** Adds `--out <dir>` (default `out/<command>`). */
export function addOutOption(cmd: Command, command: string): Command {
  return addDeclaredOptions(cmd, outOptions(command));
}

/** The output directory of a command, absolute. */
export function outDir(raw: string): string {
  return resolve(raw);
}

// ---- messages ----

/** The one-line message of a failed page: `gabarit: <url>: <reason>`. */
export function failureLine(f: PageFailure): string {
  const reason = f.message.startsWith(f.url + ': ') ? f.message.slice(f.url.length + 2) : f.message;
  return `gabarit: ${f.url}: ${reason}`;
}

/** What a command reports as it runs: progress bars, failure and warning lines, all on stderr. */
export interface Reporter {
  readonly progress: Progress;
  /** Names a failed page on stderr. */
  failure(f: PageFailure): void;
  /** A diagnostic line on stderr (not a failure). */
  warn(message: string): void;
  /** A line of information on stderr (not with --json or --quiet). */
  info(message: string): void;
  stop(): void;
}

/** A Reporter for a command run with these global options. */
export function createReporter(g: GlobalOptions): Reporter {
  const progress = createProgress({ quiet: g.quiet });
  return {
    progress,
    failure: (f) => progress.log(failureLine(f)),
    warn: (m) => progress.log(`gabarit: warning: ${m}`),
    info: (m) => {
      if (!g.quiet && !g.json) progress.log(m);
    },
    stop: () => progress.stop(),
  };
}

/**
 * Prints a command's result on stdout: `json` (pretty JSON) with --json, else the human lines.
 */
export function emit(g: GlobalOptions, json: unknown, lines: readonly string[]): void {
  if (g.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  else if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
}

/** The short lines every summary shows: pages done and failed, where the output is. */
export function summaryLines(summary: Pick<Summary, 'pagesDone' | 'pagesFailed' | 'pagesLoaded'>, dir: string): string[] {
  const lines = [`pages done: ${summary.pagesDone}`, `pages failed: ${summary.pagesFailed}`];
  if (summary.pagesLoaded > 0) lines.push(`pages loaded over the network: ${summary.pagesLoaded}`);
  lines.push(`output: ${dir}`);
  return lines;
}

// ---- sources ----

/**
 * The hooks of a command's run (src/run/command.ts) on `reporter`: failures, warnings and progress on
 * stderr; SIGINT and SIGTERM interrupt the run from here on (interrupt.ts): the source stops yielding pages.
 */
export function commandHooks(reporter: Reporter): CommandHooks {
  watchInterrupts();
  return {
    progress: (phase, done, total) => reporter.progress.update(phase, done, total),
    failure: (f) => reporter.failure(f),
    warn: (m) => reporter.warn(m),
    info: (m) => reporter.info(m),
    note: (line) => reporter.progress.log(line),
    stop: () => reporter.stop(),
    signal: interruptSignal,
    onPageRead: notePageRead,
    interrupted: () => interruptionField().interrupted,
    onSummary: noteSummary,
  };
}

/**
 * Opens `<source>` with the source options for a command (src/run/command.ts `openForCommand`, on
 * `commandHooks(reporter)`; `extra.linkPriority` orders a crawl over HTTP).
 */
export async function openFromFlags(spec: string, flags: SourceFlags, reporter: Reporter, extra: Pick<SourceOptions, 'linkPriority'> = {}): Promise<OpenedSource> {
  const { openForCommand } = await import('../run/command.ts');
  return openForCommand(spec, flags, commandHooks(reporter), extra);
}
