/**
 * One page file as a PageSource (`gabarit content page.html`): its directory is the root (so its links to
 * sibling files resolve, and `get` loads them as a directory source does), but `pages()` yields the one
 * page. A single page is a valid source: the pipelines give it the best single-page answer.
 */
import { basename, dirname, resolve } from 'node:path';
import { loadEach } from './check.ts';
import { DirSource, type DirSourceOptions } from './dir-source.ts';
import type { Page, PageResult, PageSource, PageSourceOptions } from './page.ts';

export class FileSource implements PageSource {
  readonly kind = 'dir' as const;
  /** Absolute path of the file. */
  readonly file: string;
  private readonly dir: DirSource;
  private readonly key: string;

  constructor(file: string, options: Omit<DirSourceOptions, 'entry'> = {}) {
    this.file = resolve(file);
    this.key = basename(this.file);
    this.dir = new DirSource(dirname(this.file), { ...options, entry: this.key });
  }

  get root(): string {
    return this.dir.root;
  }
  get entry(): string {
    return this.dir.entry;
  }
  get loaded(): number {
    return this.dir.loaded;
  }

  pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    return loadEach([this.key], options, (key) => this.dir.urlOf(key), (key) => this.dir.get(key));
  }

  get(urlOrKey: string): Promise<Page> {
    return this.dir.get(urlOrKey);
  }
  keyOf(url: string): string | undefined {
    return this.dir.keyOf(url);
  }
  urlOf(key: string): string {
    return this.dir.urlOf(key);
  }
  async close(): Promise<void> {}
}
