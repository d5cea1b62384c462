/**
 * What the commands over a pipeline of src/run/ share (`template`, `content`, `apply`; their runs are
 * src/run/command.ts `pipelineCommand`): where the output goes (`--out DIR`, or `-` for stdout with
 * `--format jsonl`), the lines printed, and the outcome as an exit code (see main.ts):
 *  - the engine could not justify a result: its error (exit 1), after summary.json is written;
 *  - no page done, or every page done kept no content: nothing was done (exit 1);
 *  - otherwise the work was done (exit 0), with failed and no-content pages named on stderr.
 */
import { EngineError } from '../errors.ts';
import { BAD_OPTION } from '../template/options.ts';
import type { PipelineDestination } from '../run/command.ts';
import type { Written, WrittenSummary } from '../run/write.ts';
import { emit, type GlobalOptions, NothingDone, outDir, summaryLines } from './run.ts';
import { UsageError } from '../errors.ts';

/** `--out -`: the jsonl records go to stdout. */
export const STDOUT = '-';

/** Where a pipeline command writes, from its flags: `out` is the directory, or stdout. */
export interface Destination extends PipelineDestination {
  /** The output directory (absolute), or null for stdout. */
  dir: string | null;
}

/** Checks `--out` and `--format` together; `--out -` needs jsonl and no `--json` (both use stdout). */
export function destination(out: string, format: string, g: GlobalOptions): Destination {
  const jsonl = format === 'jsonl';
  if (out === STDOUT) {
    if (!jsonl) throw new UsageError('--out - (stdout) needs --format jsonl');
    if (g.json) throw new UsageError('--json and --out - both write to stdout; give --out a directory');
    return { dir: null, out: process.stdout, jsonl };
  }
  const dir = outDir(out);
  return { dir, out: dir, jsonl };
}

/** The short lines of a pipeline's summary. */
export function pipelineLines(summary: WrittenSummary, to: Pick<Destination, 'dir'>): string[] {
  const lines = summaryLines(summary, to.dir ?? 'stdout');
  const nc = Number(summary['pagesNoContent'] ?? 0);
  if (nc > 0) lines.splice(2, 0, `pages with no content: ${nc}`);
  return lines;
}

/**
 * Prints the result (on stdout, or on stderr when stdout holds the records) and throws what makes the exit
 * code (see the module comment).
 */
export function finishRun(g: GlobalOptions, written: Written, to: Destination, spec: string, lines: readonly string[]): void {
  const { summary, result } = written;
  if (result.error?.code === BAD_OPTION) throw new UsageError(result.error.message);
  if (to.dir === null) {
    if (!g.quiet) process.stderr.write(lines.join('\n') + '\n');
  } else emit(g, summary, lines);
  const where = to.dir === null ? '' : `; see ${to.dir}/summary.json`;
  if (result.error) throw new EngineError(result.error.code, result.error.message);
  if (summary.pagesDone === 0) throw new NothingDone(`no page processed from ${spec} (${summary.pagesFailed} failed${where})`);
  if (Number(summary['pagesNoContent'] ?? 0) === summary.pagesDone) throw new NothingDone(`no content kept on any of the ${summary.pagesDone} page(s) of ${spec}${where}`);
}
