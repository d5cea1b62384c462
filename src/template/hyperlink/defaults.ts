/**
 * Defaults of the hyperlink engine (paper 2, "Web Template Extraction Based on Hyperlink Analysis",
 * Alarte, Insa, Silva, Tamarit), each with where its value comes from. src/defaults.ts re-exports them;
 * options override every one of them.
 */
export const HYPERLINK_DEFAULTS = {
  /**
   * n, the size of the complete subdigraph Algorithm 1 stops at. Paper 2, section 4.1: "We have
   * empirically approximated the optimal value for n, which is 4." 3 is what leave-one-generator-out
   * cross-validation prefers over {3, 4, 5} (docs/engines.md): the same content F1 on every site but the
   * Javadoc one, better there, and one page fewer loaded on every site (4.7 on average against 5.9).
   */
  n: 3,
  /**
   * Most pages Algorithm 1 loads (besides the key page) before it settles for the biggest m-CS found.
   * The paper has no cap (it explores every link of the key page when no n-CS exists); a crawler is a
   * guest, and on a listing page with hundreds of links the paper's average of 7 loads is far exceeded
   * long before a bigger CS turns up. 24 is three times the paper's average.
   */
  maxLoad: 24,
  /**
   * Pages loaded (besides the key page) after which Algorithm 1 takes the biggest CS found, when it has at
   * least 3 pages, rather than loading on toward an n-CS (complete-subdigraph.ts). The paper reports about
   * 7 pages loaded on average, the key page included; the widening (`agreeingPages`) may load one more.
   * With the default n = 3 it never applies (a 3-CS is complete); it bounds the loads of a larger n. 5 and
   * 6 measured (docs/engines.md): with n = 4, 5 keeps every site within 7 pages loaded on average.
   */
  loadBudget: 5,
  /**
   * How the key page's links are ordered before Algorithm 1 walks them (link-order.ts). 'density' puts
   * the links of the most link-dense DOM regions first (menus), the paper's future work (section 6);
   * 'document' is the paper's own order; 'proximity' the links into the key page's own folder first, in
   * density order. Chosen by leave-one-generator-out cross-validation (docs/engines.md).
   */
  linkOrder: 'proximity' as 'density' | 'document' | 'proximity',
  /**
   * Navigation bars (navigation-regions.ts, ours): in a template bar whose other cells are fixed words, one
   * of them a link, the cells written as changing text (a breadcrumb's current entry, a "Prev" with no
   * previous page) are template (`markNavigationCells`); and a template region of mostly fixed text (a
   * prev/next bar) is navigation even where it holds more changing text than the content slot (a stub
   * page whose content is one heading). Chosen by leave-one-generator-out cross-validation
   * (docs/engines.md).
   */
  navigationBars: true,
  /**
   * Navigation bars' cells the ETDM left unmapped (navigation-regions.ts `markNavigationCells`): a
   * breadcrumb's entry beyond the CS pages' depth is a changing cell in lists marked up as breadcrumbs
   * ('breadcrumbs'), in any bar ('anywhere'), or never ('none').
   */
  unmappedCells: 'breadcrumbs' as UnmappedCells,
  /**
   * Fewest pages of the complete subdigraph (or its fallback set) the template must rest on once the pages
   * of another template are set aside (template-extraction.ts, `differentTemplates`). A node is template
   * when it repeats on other pages; a single other page that repeats the key page's content (a tag page
   * listing the same posts as the blog index) would make that content template. When setting aside leaves
   * fewer pages, further linked pages are loaded (at most `n`) to find more of the key page's template and,
   * failing that, no page is set aside. Chosen by leave-one-generator-out cross-validation (docs/engines.md).
   */
  agreeingPages: 2,
  /**
   * A CS page whose ETDM pairs fewer than this share of the key page's texts that the best CS page pairs is
   * taken for a page of another template and set aside (template-extraction.ts, `differentTemplates`).
   * One half: pages of one template share most of their fixed texts (menus, headers, footers); a page of
   * another template shares a few words at best. Chosen by leave-one-generator-out cross-validation
   * (docs/engines.md).
   */
  differentTemplateShare: 0.5,
  /**
   * CS pages whose page schema (paper 4's link collections and layout, src/collect/) is not similar to the
   * key page's, at the threshold T INDESIT uses, are set aside as pages of another class
   * (page-classes.ts), under the same `agreeingPages` rule. T is not tuned here: it is the one chosen
   * out of sample for collecting and clustering. Grid row `no page classes` (docs/engines.md): key page
   * F1 lower on three sites without it, equal on the others.
   */
  pageClasses: true,
  /**
   * Same-word elements (template-extraction.ts `sameWordElements`, ours): a template element whose words are
   * the same on the key page and on its image in every CS page, whatever its markup, is template whole:
   * Definition 3.3 read by words. Grid row `no same words` (docs/engines.md): key page F1 lower on the
   * Javadoc without it, equal on the others (where it finds a menu's current entry, already template).
   */
  sameWords: true,
  /**
   * Link-density regions (link-order.ts): a link's region is its nearest ancestor holding at least this
   * many distinct same-site links. A menu has several items; 3 is the smallest list that is not a
   * sentence with two links in it.
   */
  minRegionLinks: 3,
  /**
   * Node equality ≜ (node-equality.ts), paper 2 section 4.2: "a ponderation that compares two nodes
   * considering their classname, their number of children, their relative position in the DOM tree, and
   * their HTML attributes". Elements of different tags are never equal (ETDM "can force all pairwise
   * mapped nodes to have the same label", section 3). Weights sum to 1.
   */
  weightClass: 0.4,
  weightAttributes: 0.2,
  weightChildren: 0.2,
  weightPosition: 0.2,
  /**
   * Two elements are equal (mapped) when ≜ >= this. 0.65 is above 0.6, the best score two elements with
   * disjoint class lists can reach (0.2 + 0.2 + 0.2), so a class change alone breaks the mapping, while a
   * partly shared class list (a menu item marked `--active` on its own page) still maps. Cross-validation
   * (docs/engines.md): 0.55 and 0.75 give the same content F1 on every site but the Javadoc one, where
   * 0.55 is better (a list item whose class marks the current page then maps): a gain one site alone
   * brings, so the default stays.
   */
  threshold: 0.65,
  /**
   * The document skeleton is always mapped (node-equality.ts): `<html>`, `<head>` and `<body>` are equal
   * whenever their tags are, whatever their attributes. HTML gives every document exactly one of each, so
   * their correspondence is fixed by the document structure, not by similarity; their attributes describe
   * the page, not the template (WordPress `<body class="single post-123">`, `lang`, `data-page`). The
   * paper's ETDM starts at the root, so one varying class there would empty the whole template.
   */
  documentSkeleton: true,
  /**
   * Top wrappers (node-equality.ts): down to this many levels below `<body>`, an element that is the only
   * one of its tag among its parent's children on both pages, under a body or top wrapper, is compared
   * without its class names (the other terms of ≜ still count). Themes put page-type classes on the
   * wrapper right under the body (`<div id="page" class="layout-single">`) as on the body itself; 1
   * covers that wrapper; 2 also pairs per-page field lists (docs/engines.md). 0 turns it off.
   */
  topWrapperDepth: 1,
  /**
   * Attributes left out of the attribute comparison: they change with the page even inside a template
   * (relative links depend on the page's depth, images and forms likewise).
   */
  ignoreAttributes: ['href', 'src', 'srcset', 'action', 'style', 'value', 'checked', 'selected', 'aria-current', 'tabindex'] as readonly string[],
  /**
   * Navigation regions (navigation-regions.ts, our extension): a template region whose changing text is
   * at least this share of link text (by characters) on the key page and every CS page is wholly
   * template. One half: a region whose changing words are mostly links is navigation, one whose changing
   * words are mostly prose is the content slot.
   */
  navigationLinkShare: 0.5,
  /**
   * Which pages decide that a template region is navigation (navigation-regions.ts): 'all', the key page
   * and every CS page; 'key', the key page alone (the region must still have an image on every CS page).
   * Chosen by leave-one-generator-out cross-validation (docs/engines.md).
   */
  regionsDecidedBy: 'all' as 'all' | 'key',
  /**
   * The content slot (navigation-regions.ts): the deepest template element holding at least this share of
   * the key page's changing prose. More than half: there is one such element per level, and it is where
   * the page's own text goes.
   */
  contentSlotShare: 0.5,
  /**
   * Child lists longer than this product fall back from the optimal alignment (O(k1·k2)) to a greedy
   * in-order matching, to bound time and memory on pathological pages (thousands of siblings).
   */
  maxAlignmentCells: 4_000_000,
} as const;

/** Where a bar's unmapped cells count as changing cells (`unmappedCells`). */
export type UnmappedCells = 'none' | 'breadcrumbs' | 'anywhere';
