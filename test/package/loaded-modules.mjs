// Preloaded with `node --import <this file>`: records every module the process loads (ES modules through a
// load hook, CommonJS ones from require's cache) and writes their URLs, one a line, to the file named by
// $GABARIT_MODULES_OUT when the process exits. Plain JavaScript: it runs in the installed-package checks
// and the start-up benchmark, outside the repository's TypeScript loader.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const out = process.env.GABARIT_MODULES_OUT;
if (out) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      appendFileSync(${JSON.stringify(out)}, url + '\\n');
      return next(url, context);
    }`;
  register('data:text/javascript,' + encodeURIComponent(hooks));
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const urls = Object.keys(cache).map((p) => pathToFileURL(p).href);
    if (urls.length > 0) appendFileSync(out, urls.join('\n') + '\n');
  });
}
