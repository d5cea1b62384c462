/**
 * The JSON the UI's server (server.ts) and its front end (app/) exchange: types only, shared by both sides
 * so that a change on one side is a type error on the other. Every request but the first carries the run's
 * token (security.ts); the server checks request bodies against these shapes on arrival (requests.ts); every
 * answer is one of these shapes, or `{ error }` with a 4xx/5xx status.
 */

/** One page of the source. */
export interface PageInfo {
  key: string;
  url: string;
  title: string;
  /** Its page class (structural cluster id, `c0`, `c1`, …), or null when the clustering left it out. */
  cluster: string | null;
}

/** One page class: pages of one structure (paper 4's schema clustering). */
export interface ClusterInfo {
  id: string;
  pages: number;
  /** The link collections (tag-lists) of its first page's schema (empty when grouped by page shape). */
  schema: string[];
  /** The section of the site its pages are in (src/structure/sections.ts), when the site has sections. */
  section?: string;
}

/** `GET /api/site`. */
export interface SiteInfo {
  source: string;
  /** 'dir' | 'warc' | 'http' | 'memory'. */
  kind: string;
  pages: PageInfo[];
  clusters: ClusterInfo[];
  /** Template engines to choose from; 'auto' lets the content pipeline choose. */
  engines: string[];
  /** Pages that could not be read, with the reason. */
  failures: Array<{ key: string; message: string }>;
}

/** One page as an engine marked it. */
export interface EnginePage {
  key: string;
  /** Fraction of the page's text that is template. */
  templateFraction: number;
  /** Fraction of the body's words that are main content. */
  contentFraction: number;
  contentWords: number;
  /** Why the page has no content left, when so. */
  noContent?: string;
}

/** `GET /api/engine?method=NAME`: an engine's run on the source, with the figures the report shows. */
export interface EngineInfo {
  /** The engine asked for ('auto', 'align', …). */
  requested: string;
  /** The engine that marked the pages. */
  method: string;
  /** Why that engine (the content pipeline's reason). */
  reason: string;
  pages: EnginePage[];
  failures: Array<{ key: string; message: string }>;
  /** The run's error when it ended early (its pages so far stay). */
  error: string | null;
  figures: { pages: number; failed: number; meanTemplateFraction: number; ms: number };
  /** What was learned: the size of template.json and the engine's own counts. */
  template: { bytes: number; about: Record<string, unknown> | null };
  /** The report's chart of template and main content per page (an inline SVG). */
  chart: string;
}

/** `GET /api/node?…`: what the page view shows of an element on hover. */
export interface NodeInfo {
  node: number;
  tag: string;
  cssPath: string;
  xpath: string;
  template: boolean;
  content: boolean;
  /** Its text, cut. */
  text: string;
  attributes: Record<string, string>;
}

/** A pattern as the designer edits it (flat: `parent` names the pattern it is nested under). */
export interface PatternDraft {
  name: string;
  selector: string;
  /** A list (`name[]`) rather than a single value. */
  multiple: boolean;
  /** 'text', 'own' or '@attribute'. */
  value: string;
  parent: string | null;
  /**
   * A field learned from examples (top level, no nested patterns): the elements the user picked, per page.
   * Its pattern is learned again from all of them (wrapper/create.ts `createFromExamples`, the learner of
   * `gabarit wrapper create --example`); `selector` and `value` are what it learned.
   */
  examples?: ExampleDraft[] | undefined;
}

/** The elements picked on one page of the source as examples of a field: one, or some items of a list. */
export interface ExampleDraft {
  key: string;
  nodes: number[];
}

/** `POST /api/learn`: a field's pattern learned from the elements picked on one or more pages. */
export interface LearnRequest {
  /** The field's name (without `[]`). */
  name: string;
  /** A list: the examples are some of its items, and the pattern extracts every item of their lists. */
  multiple: boolean;
  examples: ExampleDraft[];
}

export interface LearnResponse {
  /** The field as a draft: its learned selector and value, and its examples. */
  pattern: PatternDraft;
  /** Example pages where the learned pattern extracts exactly the examples, and all example pages. */
  pages: number;
  examplePages: number;
  /** The label the examples share, and the rank of their block, when the pattern keeps them (label.ts). */
  label: string | null;
  rank: number | null;
}

/** `POST /api/suggest`: a selector for the element the user clicked (inside a parent's instance when nested). */
export interface SuggestRequest {
  method: string;
  key: string;
  node: number;
  parent: string | null;
  patterns: PatternDraft[];
}

export interface Suggestion {
  selector: string;
  /** Elements it matches on the page (inside the parent's instances when nested). */
  matches: number;
  /** The element's text and attributes, to choose the value from. */
  text: string;
  attributes: Record<string, string>;
}

/** `POST /api/preview`: the patterns on every page of the source. */
export interface PreviewRequest {
  method: string;
  key: string;
  patterns: PatternDraft[];
}

/** One pattern on one page. */
export interface PatternOnPage {
  key: string;
  /** Elements its selector matches there (inside the parent's instances when nested). */
  matches: number;
  /** The values a run of the wrapper extracts there (several for a list or under a list parent). */
  values: string[];
  /** Why the run gives no value or a questionable one (constraint violations), '' when none. */
  problem: string;
  /**
   * When the run found no value: `ambiguous` (several elements that nothing tells apart), `absent` (the
   * selector matches nothing), `wrong-value` (what it matches breaks a constraint); null when found.
   */
  notFound: NotFoundFlag | null;
  /** The page is one of the field's example pages. */
  example: boolean;
}

export type NotFoundFlag = 'ambiguous' | 'absent' | 'wrong-value';

export interface PatternPreview {
  name: string;
  selector: string;
  /** Matches on the page being designed on. */
  thisPage: number;
  /** Their node numbers (to draw them on the page). */
  nodes: number[];
  /** Other pages of the source where it matches at least once, and all other pages. */
  otherPages: { matched: number; total: number; elements: number };
  /** Integrity constraints inferred from the values on the page designed on (wrapper.ts `Constraints`). */
  constraints: Record<string, unknown>;
  perPage: PatternOnPage[];
  /** E.g. a single-value pattern matching several elements on some page (ambiguous). */
  warnings: string[];
}

export interface PreviewResponse {
  patterns: PatternPreview[];
  /** A problem of the pattern set itself (a name used twice, a missing parent), or null. */
  problem: string | null;
}

/** `POST /api/wrapper/create`: the wrapper file built on the page (same JSON as `gabarit wrapper create`). */
export interface CreateRequest {
  method: string;
  key: string;
  name: string;
  patterns: PatternDraft[];
}

export interface WrapperText {
  /** The wrapper file's text. */
  text: string;
  /** Its patterns, flat, for the designer. */
  patterns: PatternDraft[];
  name: string;
}

/** `POST /api/wrapper/load`. */
export interface LoadRequest {
  text: string;
  /** The file name, for messages. */
  file: string;
}

/** `POST /api/adapt`: run a wrapper on a page of the source or an uploaded page. */
export interface AdaptRequest {
  wrapper: string;
  /** A page of the source (with the engine whose parse to use), or an uploaded one. */
  page: { key: string; method: string } | { name: string; html: string };
}

/** A subtree drawn as an indented outline: nodes in preorder with their depth. */
export interface OutlineNode {
  depth: number;
  /** Tag name, or '#text'. */
  tag: string;
  id?: string;
  cls?: string;
  text?: string;
}

/** One pattern of an adaptation run. */
export interface AdaptReport {
  pattern: string;
  /** selector | ctm | stm | bigram | jw | string | document | not-found. */
  step: string;
  /** The view the step compared on (tags, content, document), when adaptation ran. */
  view: string | null;
  similarity: number | null;
  selector: string;
  newSelector: string | null;
  /** When not found: the constraint violations that remain; [] otherwise. */
  violations: string[];
  /** When adapted: what the selector's result broke, which started the adaptation ([] otherwise). */
  cause: string[];
  instances: number;
  trigger: string | null;
  /** The value the run extracted (JSON of the record's value). */
  value: unknown;
  /** The subtree stored at design time (the tree-gram instance closest to what was found). */
  old: OutlineNode[] | null;
  /** The subtree found on the page. */
  found: OutlineNode[] | null;
  /** The page nodes the pattern's value came from (to draw them on the page). */
  nodes: number[];
  /** Matched nodes: [index in old, index in found] (simple tree matching on tags). */
  links: Array<[number, number]>;
}

export interface AdaptResponse {
  page: string;
  ok: boolean;
  adapted: boolean;
  reports: AdaptReport[];
  /** The wrapper with the adaptations applied (selectors, tree-grams, history), when some pattern was adapted. */
  updated: string | null;
  /** Where the page is shown (a frame URL of this server). */
  frame: string;
}
