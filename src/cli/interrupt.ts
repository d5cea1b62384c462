/**
 * A command interrupted by SIGINT (Ctrl-C) or SIGTERM while it reads its source. The first signal aborts
 * `interruptSignal`: the source stops yielding pages and fetching (requests under way are abandoned), the
 * command finishes with the pages done and writes its summary, with an `interrupted` field; main.ts then
 * names the interruption on stderr and exits with 128 + the signal's number (130, 143). A second signal
 * exits at once. With `--store`, the pages fetched so far are stored and a rerun resumes from them.
 */
import { setMaxListeners } from 'node:events';
import { writeSync } from 'node:fs';

/** The signals watched, with their numbers (the exit code is 128 + the number, as a shell reports it). */
const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;
type SignalName = keyof typeof SIGNALS;

const controller = new AbortController();
// Every request under way listens to it: as many listeners as requests, not a leak.
setMaxListeners(0, controller.signal);
let received: SignalName | undefined;
let watching = false;
/** Pages the source yielded (the count named when no summary was written). */
let pagesRead = 0;
/** Where the command wrote its summary, and the pages done it counts. */
let written: { path: string | null; pagesDone: number } | undefined;

/** Aborted on the first signal received while watching. */
export const interruptSignal: AbortSignal = controller.signal;

function onSignal(name: SignalName): void {
  if (received !== undefined) {
    writeSync(2, `gabarit: ${name} again: exiting at once\n`);
    process.exit(128 + SIGNALS[name]);
  }
  received = name;
  writeSync(2, `gabarit: ${name}: stopping; the pages done are kept (send it again to exit at once)\n`);
  controller.abort(new Error(`interrupted by ${name}`));
}

const handlers = new Map<SignalName, () => void>((Object.keys(SIGNALS) as SignalName[]).map((n) => [n, () => onSignal(n)]));

/** Starts watching SIGINT and SIGTERM (once per process; a later call does nothing). */
export function watchInterrupts(): void {
  if (watching) return;
  watching = true;
  for (const [name, handler] of handlers) process.on(name, handler);
}

/** Stops watching (for a command that waits for a signal as its normal end, such as `gabarit ui`). */
export function unwatchInterrupts(): void {
  if (!watching) return;
  watching = false;
  for (const [name, handler] of handlers) process.off(name, handler);
}

/** The signal that interrupted the command, if one did. */
export function interruptedBy(): SignalName | undefined {
  return received;
}

/** Counts a page the source yielded. */
export function notePageRead(): void {
  pagesRead++;
}

/** Remembers where the command wrote its summary (null: none, the output went to stdout) and its pages done. */
export function noteSummary(path: string | null, pagesDone: number): void {
  written = { path, pagesDone };
}

/** summary.json's `interrupted` field when the command was interrupted (else nothing). */
export function interruptionField(): { interrupted?: { signal: SignalName; message: string } } {
  if (received === undefined) return {};
  return { interrupted: { signal: received, message: `interrupted by ${received}: the source was not read to its end; the pages done before are kept` } };
}

/** The exit code and the stderr line of an interrupted command, or undefined when it was not interrupted. */
export function interruption(): { code: number; line: string } | undefined {
  if (received === undefined) return undefined;
  const done = written?.pagesDone ?? pagesRead;
  const where = written?.path ? `summary in ${written.path}` : written ? 'output on stdout' : 'no summary written';
  return { code: 128 + SIGNALS[received], line: `gabarit: interrupted by ${received}; ${done} pages done, ${where}` };
}
