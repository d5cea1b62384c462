/**
 * File access shared by the corpus readers (corpus.ts, corpus-versions.ts): JSON files named when they do
 * not parse, sorted folder and file listings.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Reads a JSON file, naming it when it does not parse. */
export function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    throw new Error(`corpus: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Sub-folders of `path`, sorted; none when it does not exist. */
export function dirs(path: string): string[] {
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Every file under `dir` (recursively) whose name matches `re`, as '/'-separated paths relative to `dir`, sorted. */
export function walk(dir: string, re: RegExp): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (re.test(e.name)) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  if (existsSync(dir)) visit(dir);
  return out.sort();
}
