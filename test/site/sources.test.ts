/**
 * The shared PageSource suite run against every implementation over the same fixture site.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirSource } from '../../src/site/dir-source.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { MemorySource } from '../../src/site/memory-source.ts';
import { serveDirectory, type Served } from '../../src/site/serve.ts';
import { WarcSource, writeWarc } from '../../src/site/warc-source.ts';
import { FIXTURE_KEYS, FIXTURE_SITE, pageSourceSuite } from './page-source-suite.ts';

pageSourceSuite('DirSource', { open: async () => new DirSource(FIXTURE_SITE) });

const tmp = mkdtempSync(join(tmpdir(), 'gabarit-warc-'));
for (const name of ['site.warc', 'site.warc.gz']) {
  const file = join(tmp, name);
  let written: Promise<number> | undefined;
  pageSourceSuite(`WarcSource (${name})`, {
    open: async () => {
      written ??= writeWarc(FIXTURE_SITE, file, { baseUrl: 'https://basic.example.invalid/site/' });
      await written;
      return WarcSource.open(file);
    },
    after: async () => rmSync(file, { force: true }),
  });
}

pageSourceSuite('MemorySource', {
  open: async () => new MemorySource(FIXTURE_KEYS.map((key) => ({ key, body: readFileSync(join(FIXTURE_SITE, key)) }))),
});

let served: Served | undefined;
pageSourceSuite('HttpSource', {
  open: async () => {
    served ??= await serveDirectory(FIXTURE_SITE);
    return new HttpSource(served.url, { delayMs: 0, concurrencyPerHost: 4, retries: 0 });
  },
  expectedFailures: [{ key: 'gone.html', code: 'not-found' }],
  after: async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  },
});
