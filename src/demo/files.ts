/**
 * Where the demo's files are: the demo site (examples/site, written by examples/generate.ts) and the
 * wrapper demo's pages and wrappers (examples/wrapper, written by examples/wrapper/redesign.ts). They ship
 * in the package (package.json `files`), so `gabarit demo` finds them beside the compiled code too: this
 * module is src/demo/ or dist/demo/, two levels below the package root either way.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's (or the repository's) root folder. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The demo site: a fictional outdoor-gear shop and magazine of 44 pages. */
export const DEMO_SITE = join(PACKAGE_ROOT, 'examples', 'site');
const WRAPPER_DIR = join(PACKAGE_ROOT, 'examples', 'wrapper');

/** The shop pages redesigned for the wrapper demo. */
export const DEMO_PAGES = ['cairn-45-backpack.html', 'ridgeline-2-tent.html', 'merino-base-layer.html'];
export const REDESIGNED_DIR = join(WRAPPER_DIR, 'redesigned');
/** The wrapper built on the original shop design. */
export const WRAPPER_FILE = join(WRAPPER_DIR, 'product.wrapper.json');
/** The document page of the second change, and its wrapper. */
export const POLICY_PAGE = 'privacy.html';
export const POLICY_WRAPPER_FILE = join(WRAPPER_DIR, 'policy.wrapper.json');
/** The terms page before and after it moved (the third change), and its wrapper. */
export const TERMS_PAGE = join(WRAPPER_DIR, 'legal', 'terms.html');
export const MOVED_TERMS_PAGE = join(WRAPPER_DIR, 'moved', 'terms.html');
export const TERMS_WRAPPER_FILE = join(WRAPPER_DIR, 'terms.wrapper.json');
