/**
 * Quoted globs of sources (`'crawl/crawl-*.warc.gz'`, `'sites/*'`), expanded by gabarit as a shell would,
 * so that every machine of a crawl sees the same sorted list. `*`, `?` and `[...]` are patterns in the last
 * segment of a path only (the folder must be a plain path); names starting with '.' are not matched.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const GLOB = /[*?[]/;

/** True when the last segment of a path holds a pattern character. */
export function isGlob(spec: string): boolean {
  return GLOB.test(basename(spec));
}

/**
 * The paths a spec names, sorted: itself when it is not a pattern, else the entries of its folder whose
 * names match (none when the folder cannot be read). Throws when a folder segment is a pattern.
 */
export async function expandGlob(spec: string): Promise<string[]> {
  if (!isGlob(spec)) return [spec];
  const dir = dirname(spec);
  if (GLOB.test(dir)) throw new Error(`only the last part of a path may be a pattern: ${spec}`);
  const re = new RegExp(
    '^' +
      basename(spec)
        .replace(/[.+^${}()|\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]') +
      '$',
  );
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => re.test(n) && !n.startsWith('.'))
    .sort()
    .map((n) => join(dir, n));
}
