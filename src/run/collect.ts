/**
 * `collect(source, sample, options)`: the pages of a site like a sample page (INDESIT, paper 4;
 * src/collect/indesit.ts), as a library call. The collector crawls with the HTTP stack, so it is loaded
 * when called: importing the root API loads neither it nor undici.
 */
import type { IndesitOptions, IndesitResult } from '../collect/indesit.ts';
import type { PageSource } from '../site/page.ts';

export type { IndesitOptions, IndesitResult };

/** The pages of `source` like the page `sample` (a key or a URL of the source); see src/collect/indesit.ts. */
export async function collect(source: PageSource, sample: string, options: IndesitOptions = {}): Promise<IndesitResult> {
  const { indesit } = await import('../collect/indesit.ts');
  return indesit(source, sample, options);
}
