/**
 * `gabarit shards serve`: runs `gabarit` command lines one after another in this process, read as JSON
 * lines on stdin, so that the Spark tasks of `shards run --backend spark` (spark/gabarit_shards.py) do not
 * each start Node, load the package and warm up a pool of worker threads: one process per Python worker
 * of an executor serves every shard that worker runs, its worker threads kept from one to the next
 * (pagelet-shards.ts `keepWorkersAcrossRuns`).
 *
 * Protocol (one JSON object a line each way):
 *   first, from the server:  {"version": "<gabarit's version>"}
 *   request:                 {"argv": ["--json", "shards", "analyse", …]}   (the arguments after `gabarit`)
 *   reply:                   {"code": <exit code>, "stdout": "…", "stderr": "…"}
 * as the command line would have exited and printed. The server ends at the end of its input. A request
 * that is not a JSON object with `argv` is answered with code 2 and the reason. Requests for another
 * command than `shards analyse` or `shards mark` are refused alike: only those keep nothing between runs
 * but the worker threads.
 */
import { createInterface } from 'node:readline';
import { keepWorkersAcrossRuns } from '../run/pagelet-shards.ts';

/** What a request may run: the phases a Spark task runs. */
function allowed(argv: readonly string[]): boolean {
  const words = argv.filter((a) => !a.startsWith('-'));
  return words[0] === 'shards' && (words[1] === 'analyse' || words[1] === 'mark');
}

/**
 * Serves requests from stdin until it ends. `run` runs one command line (main.ts `main`) and resolves to
 * its exit code; what it writes on stdout and stderr meanwhile is captured into the reply.
 */
export async function serveTasks(version: string, run: (argv: readonly string[]) => Promise<number>): Promise<void> {
  const out = process.stdout;
  const err = process.stderr;
  const writeOut = out.write.bind(out);
  const writeErr = err.write.bind(err);
  const reply = (value: unknown): Promise<void> => new Promise((resolve) => writeOut(JSON.stringify(value) + '\n', () => resolve()));
  const keep = keepWorkersAcrossRuns();
  try {
    await reply({ version });
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      let argv: string[];
      try {
        const req = JSON.parse(line) as { argv?: unknown };
        if (!Array.isArray(req.argv) || !req.argv.every((a) => typeof a === 'string')) throw new Error('expected {"argv": [strings]}');
        argv = req.argv as string[];
      } catch (e) {
        await reply({ code: 2, stdout: '', stderr: `gabarit: shards serve: ${(e as Error).message}\n` });
        continue;
      }
      if (!allowed(argv)) {
        await reply({ code: 2, stdout: '', stderr: `gabarit: shards serve runs \`shards analyse\` and \`shards mark\` only, not: ${argv.join(' ')}\n` });
        continue;
      }
      let stdout = '';
      let stderr = '';
      const capture =
        (append: (s: string) => void) =>
        (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
          append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
          const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
          if (done) queueMicrotask(done);
          return true;
        };
      out.write = capture((s) => (stdout += s)) as typeof out.write;
      err.write = capture((s) => (stderr += s)) as typeof err.write;
      let code: number;
      try {
        code = await run(['gabarit', 'gabarit', ...argv]);
      } finally {
        out.write = writeOut as typeof out.write;
        err.write = writeErr as typeof err.write;
      }
      await reply({ code, stdout, stderr });
    }
  } finally {
    await keep.close();
  }
}
