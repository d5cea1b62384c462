/**
 * What the sources whose pages are indexed by key under a URL root share (MemorySource, WarcSource): the
 * root, the key ↔ URL mapping under it, and the count of pages loaded.
 */
import { keyFromUrl, urlFromKey } from './keys.ts';
import { normalizeUrl } from './links.ts';

export abstract class RootedSource {
  readonly root: string;
  /** Pages loaded so far (successful `page` calls). */
  protected count = 0;

  protected constructor(root: string) {
    this.root = root;
  }

  get loaded(): number {
    return this.count;
  }

  keyOf(url: string): string | undefined {
    const n = normalizeUrl(url);
    return n === undefined ? undefined : keyFromUrl(n, this.root);
  }

  urlOf(key: string): string {
    return urlFromKey(key, this.root);
  }
}
