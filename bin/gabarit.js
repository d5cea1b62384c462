#!/usr/bin/env node
// The gabarit command: runs the compiled command line of this package (dist/, built by `npm run build`;
// the published package ships it). In the repository, `npm run gabarit -- …` runs the sources instead.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(`gabarit: ${main.pathname} is missing: run \`npm run build\` first (or \`npm run gabarit -- …\` for the sources)\n`);
  process.exit(1);
}
await import(main.href);
