/**
 * The `gabarit` program: runs the command line (program.ts) and exits with its code. Importing it runs
 * it, unless NO_MAIN_ENV is set (the program's parts are program.ts's, re-exported here).
 */
import './heap.ts';
import { main } from './program.ts';

export { buildProgram, COMMANDS, type CommandModule, main } from './program.ts';

/** Waits until a stream has flushed what was written to it (so that exiting loses no output). */
function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}

/**
 * Set to '1' to import this module without running the command line (e.g. to list the commands and their
 * options for the README: examples/readme-options.ts).
 */
export const NO_MAIN_ENV = 'GABARIT_NO_MAIN';

// Running as the program (bin/gabarit.js or `tsx src/cli/main.ts`): run and exit with the code. Exiting
// explicitly ends keep-alive sockets and database handles a command may leave behind.
if (process.env[NO_MAIN_ENV] !== '1') {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `gabarit … | head`: the reader left.
  });
  const code = await main(process.argv);
  process.exitCode = code;
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}
