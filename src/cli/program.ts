/**
 * The `gabarit` command line (DESIGN.md, "Commands"; STYLE.md 11: a thin CLI over the library). This is
 * the only module that chooses the exit code (main.ts ends the process with it):
 *   0  the work was done (pages that failed are listed in summary.json and named on stderr);
 *   1  nothing could be done (no page processed, source unreadable, no justified result from the engine);
 *   2  usage error (bad option, unknown method or command, missing argument);
 *   130, 143  interrupted by SIGINT or SIGTERM (128 + the signal's number) after writing what was done
 *      (interrupt.ts).
 * Errors become one line each on stderr: `gabarit: <url>: <reason>` for a page, `gabarit: <reason>` else.
 *
 * Commands are modules `src/cli/<command>.ts` exporting `register(program)`; to add one, add a line to
 * COMMANDS. Command modules keep their top-level imports light and load the library inside their action,
 * so `gabarit --help` and each command only pay for what they run.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { GabaritError, UsageError } from '../errors.ts';
import { GLOBAL_OPTIONS } from '../run/options.ts';
import { interruption } from './interrupt.ts';
import { addDeclaredOptions } from './parsers.ts';
import { ExitCode, NothingDone, prepareCommand } from './run.ts';

/** A command module. `register` may be async (e.g. to read something before declaring options). */
export interface CommandModule {
  register(program: Command): void | Promise<void>;
}

/** Every command, one line each (loaded in parallel; order is the order of `gabarit --help`). */
export const COMMANDS: readonly (() => Promise<CommandModule>)[] = [
  () => import('./crawl.ts'),
  () => import('./template.ts'),
  () => import('./apply.ts'),
  () => import('./serve.ts'),
  () => import('./collect.ts'),
  () => import('./cluster.ts'),
  () => import('./wrapper.ts'),
  () => import('./hits.ts'),
  () => import('./cocited.ts'),
  () => import('./content.ts'),
  () => import('./report.ts'),
  () => import('./shards.ts'),
  () => import('./ui.ts'),
  () => import('./demo.ts'),
];

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** Commander's own error lines start with "error: "; ours start with "gabarit: ". */
function commanderLine(str: string): string {
  return 'gabarit: ' + str.replace(/^error: /, '');
}

/** The program with its global options and every command registered. */
export async function buildProgram(): Promise<Command> {
  const program = new Command('gabarit')
    .description('Learn the structure of websites from their pages: template vs content, pages of one structure.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(commanderLine(str)) });
  addDeclaredOptions(program, GLOBAL_OPTIONS);
  const modules = await Promise.all(COMMANDS.map((load) => load()));
  for (const m of modules) await m.register(program);
  // Same error handling for every command, however a module created it.
  const inherit = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      sub.exitOverride().configureOutput({ outputError: (str, write) => write(commanderLine(str)) });
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** The message line of an error, named after the page when it is a page error (its message starts with the URL). */
function errorLine(err: unknown): string {
  if (err instanceof GabaritError) return `gabarit: ${err.message}`;
  const e = err as { message?: unknown; stack?: unknown };
  const stack = typeof e?.stack === 'string' ? `\n${e.stack}` : '';
  return `gabarit: internal error: ${typeof e?.message === 'string' ? e.message : String(err)}${stack}`;
}

/** The exit code of a failure (see the module comment). */
function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.Done : ExitCode.Usage;
  if (err instanceof UsageError) return ExitCode.Usage;
  if (err instanceof NothingDone) return ExitCode.NothingDone;
  return ExitCode.NothingDone;
}

/** Runs the command line (`argv` as Node gives it: the program, the script, then the arguments); resolves to the exit code (never throws). */
export async function main(argv: readonly string[]): Promise<number> {
  let program: Command;
  try {
    program = await buildProgram();
  } catch (err) {
    process.stderr.write(errorLine(err) + '\n');
    return ExitCode.NothingDone;
  }
  try {
    // `gabarit help <command>` shows the help without commander's hooks: prepare the command first.
    const operands = argv.slice(2).filter((a) => !a.startsWith('-'));
    if (operands[0] === 'help') await prepareCommand(program.commands.find((c) => c.name() === operands[1]));
    await program.parseAsync(argv as string[]);
    const stop = interruption();
    if (stop) {
      process.stderr.write(stop.line + '\n');
      return stop.code;
    }
    return ExitCode.Done;
  } catch (err) {
    // Interrupted: the line says how far the command got; a verdict that follows from it (no page done…) is not repeated.
    const stop = interruption();
    if (stop) {
      process.stderr.write(stop.line + '\n');
      if (err instanceof GabaritError && !(err instanceof UsageError)) return stop.code;
    }
    // Commander has already printed its own message (usage errors) or the help text.
    if (!(err instanceof CommanderError)) {
      process.stderr.write(errorLine(err) + '\n');
      if (err instanceof UsageError) process.stderr.write(`gabarit: see '${['gabarit', commandName(argv), '--help'].filter(Boolean).join(' ')}'\n`);
    }
    return stop ? stop.code : exitCodeOf(err);
  }
}

/** The command named on a command line (for the usage hint), or '' when none. */
function commandName(argv: readonly string[]): string {
  const first = argv.slice(2).find((a) => !a.startsWith('-'));
  return first ?? '';
}

