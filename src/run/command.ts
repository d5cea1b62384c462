/**
 * A command's run as `gabarit <command>` makes it, for any caller: from the flags the command line parses
 * (src/run/options.ts), the source opened with the source options, the pipeline run, its files and its
 * summary.json written. What the run tells as it goes (failed pages, warnings, progress, the cap that left
 * pages out) and what may end it early (a signal) come through `CommandHooks`; the command line gives its
 * stderr reporter and its signal handling (src/cli/), a library caller what it wants, or nothing.
 */
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { EngineError, UsageError } from '../errors.ts';
import type { PageFailure } from '../output.ts';
import type { PageSource } from '../site/page.ts';
import type { SourceOptions } from '../site/source.ts';
import { BAD_OPTION } from '../template/options.ts';
import type { PipelineRun, RenderingRun } from './drive.ts';
import type { SourceFlags } from './options.ts';
import { openWithOptions, type OpenedSource } from './source.ts';
import type { PageDone, PageRendered, RunControls } from './types.ts';
import type { Written } from './write.ts';

/** What a command's run tells as it goes, and what may stop its reading; every member may be left out. */
export interface CommandHooks {
  /** Progress of long phases. */
  progress?(phase: string, done: number, total?: number): void;
  /** A page that failed. */
  failure?(f: PageFailure): void;
  /** A diagnostic (not a failure). */
  warn?(message: string): void;
  /** A line of information (what the sitemaps gave). */
  info?(message: string): void;
  /** A line told as it is (`gabarit: <source>: stopped at the cap…`). */
  note?(line: string): void;
  /** The source is read: progress ends (before the failures found with the result are told). */
  stop?(): void;
  /** Ends the reading: the source stops yielding pages once it is aborted. */
  signal?: AbortSignal;
  /** Called for each page read. */
  onPageRead?(): void;
  /** summary.json's `interrupted` field, when the run was interrupted (by `signal`). */
  interrupted?(): { signal: string; message: string } | undefined;
  /** Where the run wrote its summary.json (null: on stdout) and the pages it counts as done. */
  onSummary?(path: string | null, pagesDone: number): void;
}

/** summary.json's `interrupted` field of a run, or nothing when it was not interrupted. */
export function interruptionOf(hooks: CommandHooks): { interrupted?: { signal: string; message: string } } {
  const interrupted = hooks.interrupted?.();
  return interrupted ? { interrupted } : {};
}

/** The line naming a source that a cap left pages of unread, or undefined when none did. */
export function cutMessage(spec: string, source: PageSource): string | undefined {
  const c = source.cut;
  if (!c) return undefined;
  const left = source.kind === 'http' ? `${c.left} or more addresses found and not loaded` : `${c.left} pages left unread`;
  return `gabarit: ${spec}: stopped at the cap of ${c.maxPages} pages (--max-pages); ${left}`;
}

/**
 * Opens `<source>` with the source options (`openWithOptions`) for a command's run: the hooks' signal stops
 * the reading, warnings and information go to the hooks, and `close()` notes the cap that left pages out.
 */
export async function openForCommand(spec: string, flags: SourceFlags, hooks: CommandHooks, extra: Pick<SourceOptions, 'linkPriority'> = {}): Promise<OpenedSource> {
  const opened = await openWithOptions(spec, flags, {
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onPageRead ? { onPageRead: () => hooks.onPageRead?.() } : {}),
    warn: (m: string) => hooks.warn?.(m),
    info: (m: string) => hooks.info?.(m),
    ...(extra.linkPriority ? { linkPriority: extra.linkPriority } : {}),
  });
  return {
    source: opened.source,
    close: async () => {
      await opened.close();
      const cut = cutMessage(spec, opened.source);
      if (cut !== undefined) hooks.note?.(cut);
    },
  };
}

/**
 * Runs `work` over `<source>` opened for a command (`openForCommand`), then ends the progress and closes
 * the source, whatever happened.
 */
export async function overSource<T>(spec: string, flags: SourceFlags, hooks: CommandHooks, work: (source: PageSource) => Promise<T>, extra: Pick<SourceOptions, 'linkPriority'> = {}): Promise<T> {
  const opened = await openForCommand(spec, flags, hooks, extra);
  try {
    return await work(opened.source);
  } finally {
    hooks.stop?.();
    await opened.close();
  }
}

/** Where a pipeline command (template, content, apply) writes: a directory (absolute), or a stream for jsonl records. */
export interface PipelineDestination {
  out: string | Writable;
  jsonl: boolean;
}

/** Starts a pipeline (its call checks its options at once): a bad option is a UsageError. */
export function startPipeline<T>(start: () => T): T {
  try {
    return start();
  } catch (err) {
    if (err instanceof EngineError && err.code === BAD_OPTION) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * A pipeline command's run (template, content, apply): opens `spec` with the source options, starts the
 * pipeline on it (`start`, told of progress and warnings through the hooks) and writes the output contract
 * to `to` (`writeOutputs`), failed and no-content pages to the hooks. `extra.summary` adds summary.json
 * fields; `extra.onPage` runs after each page is written (another format beside it).
 */
export async function pipelineCommand(
  spec: string,
  flags: SourceFlags,
  to: PipelineDestination,
  hooks: CommandHooks,
  start: (source: PageSource, controls: Pick<RunControls, 'onProgress' | 'onWarning'>) => PipelineRun | RenderingRun,
  extra: { summary?: Record<string, unknown>; onPage?: (p: PageDone | PageRendered, stem?: string) => Promise<void> } = {},
): Promise<Written> {
  const { writeOutputs } = await import('./write.ts');
  return overSource(spec, flags, hooks, async (source) => {
    const run = startPipeline(() => start(source, { onProgress: (p, d, t) => hooks.progress?.(p, d, t), onWarning: (m) => hooks.warn?.(m) }));
    let written = 0;
    const out = await writeOutputs(run, {
      out: to.out,
      format: to.jsonl ? 'jsonl' : 'files',
      onFailure: (f) => hooks.failure?.(f),
      onNoContent: (f) => hooks.failure?.(f),
      onPage: async (p, stem) => {
        hooks.progress?.('write', ++written);
        await extra.onPage?.(p, stem);
      },
      summary: () => ({ source: spec, ...(extra.summary ?? {}), ...interruptionOf(hooks) }),
    });
    hooks.onSummary?.(typeof to.out === 'string' ? join(to.out, 'summary.json') : null, out.summary.pagesDone);
    return out;
  });
}
