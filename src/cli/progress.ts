/**
 * Progress on stderr for long runs (DESIGN.md, "Commands": long runs show progress on stderr). Bars are
 * drawn with cli-progress only when stderr is a terminal and `--quiet` was not given; otherwise progress is
 * silent, so that logs and pipes receive only the messages that matter (failures, the result).
 *
 * One bar per phase ("load", "learn", "mark"…); a phase with an unknown total shows a counter instead of a
 * bar. Messages printed while bars are drawn go through `log` so they do not tear the bars.
 */
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';

/** cli-progress, loaded when a first bar is drawn (a run without bars, and `--help`, never load it). */
let cliProgress: typeof cliProgressModule | undefined;
function bars(): typeof cliProgressModule {
  cliProgress ??= createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
  return cliProgress;
}

export interface Progress {
  /** Reports `done` items of `total` (unknown when undefined) in `phase`; a new phase starts a new bar. */
  update(phase: string, done: number, total?: number): void;
  /** Prints one line on stderr (a failure, a warning) without breaking the bars. */
  log(line: string): void;
  /** Stops drawing (bars stay on screen, completed). Idempotent. */
  stop(): void;
}

export interface ProgressOptions {
  /** No bars at all (`--quiet`); lines given to `log` are still printed. */
  quiet: boolean;
  /** Where to draw (default process.stderr). */
  stream?: NodeJS.WriteStream;
}

/** Phase names padded to this width so that bars line up. */
const PHASE_WIDTH = 8;

/** A Progress that draws bars when `stream` is a TTY and not quiet, else prints only logged lines. */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet || !stream.isTTY) return new PlainProgress(stream);
  return new BarProgress(stream);
}

/** No bars: `log` writes straight to the stream. */
class PlainProgress implements Progress {
  constructor(private readonly stream: NodeJS.WritableStream) {}
  update(): void {}
  log(line: string): void {
    this.stream.write(line.endsWith('\n') ? line : line + '\n');
  }
  stop(): void {}
}

class BarProgress implements Progress {
  private readonly multi: cliProgressModule.MultiBar;
  private readonly bars = new Map<string, { bar: cliProgressModule.SingleBar; known: boolean }>();
  private stopped = false;

  constructor(private readonly stream: NodeJS.WriteStream) {
    const cliProgress = bars();
    this.multi = new cliProgress.MultiBar(
      {
        stream,
        format: '{phase} [{bar}] {value}/{total}',
        barsize: 30,
        hideCursor: true,
        clearOnComplete: false,
        stopOnComplete: false,
        gracefulExit: true,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  update(phase: string, done: number, total?: number): void {
    if (this.stopped) return;
    let entry = this.bars.get(phase);
    const known = total !== undefined;
    if (!entry) {
      // Earlier phases are over once a new one starts: show them complete.
      for (const e of this.bars.values()) if (e.known) e.bar.update(e.bar.getTotal());
      const format = known ? '{phase} [{bar}] {value}/{total}' : '{phase} {value}';
      const bar = this.multi.create(total ?? 0, done, { phase: phase.padEnd(PHASE_WIDTH) }, { format });
      entry = { bar, known };
      this.bars.set(phase, entry);
    }
    if (known && total !== entry.bar.getTotal()) entry.bar.setTotal(total);
    entry.bar.update(done);
  }

  log(line: string): void {
    if (this.stopped) {
      this.stream.write(line.endsWith('\n') ? line : line + '\n');
      return;
    }
    this.multi.log(line.endsWith('\n') ? line : line + '\n');
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.multi.stop();
  }
}
