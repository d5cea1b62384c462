/**
 * Every threshold and default of gabarit in one place (STYLE.md 6), each with where its value comes from.
 * Options override them; the README lists them.
 */
// The fetch politeness and size figures (fetching is the site layer's, below every engine).
export { FETCH_DEFAULTS as DEFAULTS } from './site/defaults.ts';

// Each area keeps its thresholds beside its code, with the paper's value and why; they are gathered here
// so that one import shows every default of gabarit.
export { SITE_DEFAULTS, SITEMAP_DEFAULTS } from './site/defaults.ts';
export { ALIGN_DEFAULTS } from './template/align/defaults.ts';
export { HYPERLINK_DEFAULTS } from './template/hyperlink/defaults.ts';
export { PAGELET_DEFAULTS } from './template/pagelets/defaults.ts';
export { COLLECT_DEFAULTS } from './structure/defaults.ts';
export { CONTENT_CLUSTER_DEFAULTS } from './cluster/defaults.ts';
export { CONTENT_DEFAULTS } from './content/defaults.ts';
export { WRAPPER_DEFAULTS } from './wrapper/defaults.ts';
