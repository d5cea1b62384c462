/**
 * The wrapper file (paper 5, Section 4): named patterns located by CSS or XPath selectors, nested
 * hierarchically (a record pattern and its field patterns, evaluated inside each record instance), each
 * with integrity constraints (occurrence restrictions, child instance counts, data types) and a tree-gram,
 * plus the adaptation settings (threshold, order of algorithms, node-label flags, triggers, whether to
 * update tree-grams and selectors after a successful adaptation) and the history of adaptations.
 * Validated with zod; `parseWrapper` turns schema issues into one clear message naming the file and the
 * JSON path of each problem, an invalid selector among them. Files are versioned (WRAPPER_VERSIONS).
 */
import { z } from 'zod';
import { GabaritError } from '../errors.ts';
import { compileSelector } from '../html/select.ts';
import { TreeBuilder } from '../html/tree.ts';
import { evaluateXPath } from '../html/xpath.ts';
import { WRAPPER_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../filled.ts';

/** A wrapper file that does not follow the schema (or is not JSON). */
export class WrapperError extends GabaritError {}

const ALGORITHMS = ['ctm', 'stm', 'bigram', 'jw'] as const;
/** Data types a pattern's values can be required to have (Section 4, "data types"; constraints.ts `hasType`). */
export const DATA_TYPES = ['string', 'non-empty', 'integer', 'number', 'date', 'url', 'text'] as const;
export type DataType = (typeof DATA_TYPES)[number];

const contextStep = z.object({ tag: z.string(), id: z.string().optional(), class: z.string().optional() }).strict();
const gramInstance = z
  .object({
    tags: z.array(z.string()).min(1),
    parents: z.array(z.number().int().min(-1)),
    ids: z.record(z.string()),
    classes: z.record(z.string()),
    texts: z.record(z.string()),
    context: z.array(contextStep),
    text: z.string(),
    cut: z.number().int().min(0).optional(),
    blocks: z.array(z.string()).optional(),
    title: z.string().optional(),
  })
  .strict()
  .refine((g) => g.tags.length === g.parents.length, { message: 'tags and parents must have the same length' });

const constraints = z
  .object({
    /** Fewest instances per page (or per parent instance). Default 1. */
    minOccurs: z.number().int().min(0).optional(),
    /** Most instances; default 1 for a single pattern, unbounded for `multiple`. */
    maxOccurs: z.number().int().min(1).optional(),
    /** Fewest / most child pattern instances inside each instance (all children together). */
    minChildren: z.number().int().min(0).optional(),
    maxChildren: z.number().int().min(0).optional(),
    /** Data type of every value; default 'non-empty'. */
    type: z.enum(DATA_TYPES).optional(),
    /** A regular expression every value must match (JavaScript syntax, unanchored). */
    regex: z
      .string()
      .refine((r) => {
        try {
          new RegExp(r, 'u');
          return true;
        } catch {
          return false;
        }
      }, 'not a valid regular expression')
      .optional(),
  })
  .strict();

const choose = z
  .object({
    label: z.string().min(1).optional(),
    where: z.enum(['row', 'block', 'before']).optional(),
    rank: z.number().int().min(1).optional(),
    rule: z.string(),
  })
  .strict();

/** A pattern as written in the file (children are patterns too). */
export interface Pattern {
  name: string;
  /** A CSS selector, or an XPath when it starts with '/' or '(' or `xpath: true`. */
  selector: string;
  xpath?: boolean | undefined;
  /** Several instances (a list) instead of one. */
  multiple?: boolean | undefined;
  /**
   * What a value is (VALUE_MODES): the element's text (default), its own text nodes only (`own`), the
   * text after it when it is a label (`after`: `<b>Date:</b> 2008<br>` gives 2008; run.ts `textAfter`), or
   * an attribute (`@href`, `@content`).
   */
  value?: string | undefined;
  constraints?: z.infer<typeof constraints> | undefined;
  /**
   * How the elements the selector matches are told apart (label.ts): the label the example values had
   * (`label`, found at `where`), the rank of their block among its siblings of the same kind (`rank`), and
   * the rule in words (`rule`, for a person reading the file; a run follows the fields).
   */
  choose?: z.infer<typeof choose> | undefined;
  children?: Pattern[] | undefined;
  treeGram?: z.infer<typeof treeGram> | undefined;
}

const treeGram = z.object({ instances: z.array(gramInstance) }).strict();

const pattern: z.ZodType<Pattern> = z.lazy(() =>
  z
    .object({
      name: z.string().regex(/^[A-Za-z_][\w-]*$/, 'a name of letters, digits, _ and -, not starting with a digit'),
      selector: z.string().min(1, 'must not be empty'),
      xpath: z.boolean().optional(),
      multiple: z.boolean().optional(),
      value: z
        .string()
        .regex(/^(text|own|after|@[\w:-]+)$/, "'text', 'own', 'after' or '@attribute'")
        .optional(),
      constraints: constraints.optional(),
      choose: choose.optional(),
      children: z.array(pattern).optional(),
      treeGram: treeGram.optional(),
    })
    .strict(),
);

const adaptation = z
  .object({
    threshold: z.number().gt(0).max(1).optional(),
    /** Per-algorithm thresholds (override `threshold` for that algorithm). */
    thresholds: z
      .object({ ctm: z.number().gt(0).max(1).optional(), stm: z.number().gt(0).max(1).optional(), bigram: z.number().gt(0).max(1).optional(), jw: z.number().gt(0).max(1).optional() })
      .strict()
      .optional(),
    algorithms: z.array(z.enum(ALGORITHMS)).min(1).optional(),
    labels: z.object({ tag: z.boolean(), id: z.boolean(), class: z.boolean() }).strict().optional(),
    triggers: z.object({ topDown: z.boolean(), bottomUp: z.boolean() }).strict().optional(),
    update: z.boolean().optional(),
    content: z.boolean().optional(),
    contentThreshold: z.number().gt(0).max(1).optional(),
    document: z.boolean().optional(),
    documentThreshold: z.number().gt(0).max(1).optional(),
    /** defaults.ts `ambiguityMargin`: how close two candidates' identities must be to be ambiguous. */
    ambiguityMargin: z.number().min(0).max(1).optional(),
  })
  .strict();

const historyEntry = z
  .object({
    date: z.string(),
    page: z.string(),
    pattern: z.string(),
    from: z.string(),
    to: z.string(),
    step: z.string(),
    similarity: z.number(),
  })
  .strict();

/**
 * The wrapper file versions this code reads. 2 added the `after` value (the text after a label), 3 a
 * pattern's `choose` (its label and place); an older file is a newer one without them, and loads as it
 * is. Files are written as WRAPPER_VERSION.
 */
export const WRAPPER_VERSIONS = [1, 2, 3] as const;
export const WRAPPER_VERSION = 3;

const wrapperSchema = z
  .object({
    version: z.number().refine((v): v is 1 | 2 | 3 => (WRAPPER_VERSIONS as readonly number[]).includes(v), (v) => ({
      message: `version ${v} is not one this gabarit reads (${WRAPPER_VERSIONS.join(', ')}); ${v > WRAPPER_VERSION ? 'a newer gabarit wrote it' : 'recreate the wrapper'}`,
    })),
    name: z.string().optional(),
    /** The page the wrapper was built on (for the record). */
    source: z.string().optional(),
    /**
     * The address (URL) of the page the wrapper was built on: its site (registrable domain) is where the
     * document view may look for a moved document (match/document.ts).
     */
    url: z.string().url().optional(),
    patterns: z.array(pattern).min(1, 'a wrapper needs at least one pattern'),
    adaptation: adaptation.optional(),
    history: z.array(historyEntry).optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    const seen = new Set<string>();
    const visit = (ps: readonly Pattern[], path: (string | number)[]): void => {
      ps.forEach((p, k) => {
        if (seen.has(p.name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path, k, 'name'], message: `pattern name "${p.name}" is used twice` });
        seen.add(p.name);
        const c = p.constraints;
        if (c?.minOccurs !== undefined && c.maxOccurs !== undefined && c.minOccurs > c.maxOccurs)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path, k, 'constraints'], message: 'minOccurs is above maxOccurs' });
        if (c?.minChildren !== undefined && c.maxChildren !== undefined && c.minChildren > c.maxChildren)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path, k, 'constraints'], message: 'minChildren is above maxChildren' });
        const bad = selectorProblem(p);
        if (bad !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...path, k, 'selector'], message: bad });
        if (p.children) visit(p.children, [...path, k, 'children']);
      });
    };
    visit(w.patterns, ['patterns']);
  });

/** A wrapper (the validated file). */
export type Wrapper = z.infer<typeof wrapperSchema>;
export type Constraints = z.infer<typeof constraints>;
export type AdaptationSettings = z.infer<typeof adaptation>;

/** The adaptation settings with every default filled in. */
export interface ResolvedSettings {
  threshold: number;
  /** The threshold of each algorithm (defaults.ts `thresholds` apply only when the wrapper sets no `threshold`). */
  thresholds: Record<(typeof ALGORITHMS)[number], number>;
  algorithms: Array<(typeof ALGORITHMS)[number]>;
  labels: { tag: boolean; id: boolean; class: boolean };
  triggers: { topDown: boolean; bottomUp: boolean };
  update: boolean;
  /** Try the content view when the element labels find nothing (defaults.ts). */
  content: boolean;
  contentThreshold: number;
  /** Try the document view when the content view finds nothing (defaults.ts). */
  document: boolean;
  documentThreshold: number;
  /** Two candidates closer than this are ambiguous (defaults.ts). */
  ambiguityMargin: number;
}

/** The defaults of the settings one value stands for (the label and trigger flags typed as any flags). */
const SETTINGS_DEFAULTS: Omit<ResolvedSettings, 'thresholds' | 'algorithms'> & Pick<typeof WRAPPER_DEFAULTS, 'algorithms'> = WRAPPER_DEFAULTS;

/** `wrapper.adaptation` with the defaults (defaults.ts) for what it leaves out. */
export function resolveSettings(w: Pick<Wrapper, 'adaptation'>): ResolvedSettings {
  const a = w.adaptation ?? {};
  const o = withDefaults(SETTINGS_DEFAULTS, a);
  return {
    threshold: o.threshold,
    // The per-algorithm defaults hold only while the wrapper sets no threshold of its own.
    thresholds: thresholdsFor(o.threshold, a.threshold === undefined ? WRAPPER_DEFAULTS.thresholds : {}, a.thresholds ?? {}),
    algorithms: [...o.algorithms],
    labels: { ...o.labels },
    triggers: { ...o.triggers },
    update: o.update,
    content: o.content,
    contentThreshold: o.contentThreshold,
    document: o.document,
    documentThreshold: o.documentThreshold,
    ambiguityMargin: o.ambiguityMargin,
  };
}

/** Per-algorithm thresholds: `explicit`, else `defaults`, else `threshold`. */
export function thresholdsFor(
  threshold: number,
  defaults: Readonly<Partial<Record<(typeof ALGORITHMS)[number], number | undefined>>> = {},
  explicit: Readonly<Partial<Record<(typeof ALGORITHMS)[number], number | undefined>>> = {},
): Record<(typeof ALGORITHMS)[number], number> {
  const out = {} as Record<(typeof ALGORITHMS)[number], number>;
  for (const a of ALGORITHMS) out[a] = explicit[a] ?? defaults[a] ?? threshold;
  return out;
}

/** True when a selector text is an XPath: it starts with `/`, `(` or `./` (relative to the instance); else CSS. */
export function looksLikeXPath(selector: string): boolean {
  return /^\s*(?:[/(]|\.\.?\/)/.test(selector);
}

/** True when the pattern's selector is an XPath (`xpath`, else by its text: `looksLikeXPath`). */
export function isXPath(p: Pick<Pattern, 'selector' | 'xpath'>): boolean {
  return p.xpath ?? looksLikeXPath(p.selector);
}

/** A document with nothing in it, to try selectors on. */
const EMPTY_TREE = new TreeBuilder(1).finish();

/**
 * Why the pattern's selector cannot be evaluated (a CSS syntax error, an XPath that does not parse or
 * does not select nodes), or null when it can.
 */
export function selectorProblem(p: Pick<Pattern, 'selector' | 'xpath'>): string | null {
  try {
    if (isXPath(p)) evaluateXPath(EMPTY_TREE, p.selector);
    else compileSelector(p.selector);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Validates a parsed JSON value as a wrapper; throws a WrapperError listing every problem with its path. */
export function validateWrapper(value: unknown, file = 'wrapper'): Wrapper {
  const r = wrapperSchema.safeParse(value);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(top)'}: ${i.message}`);
  throw new WrapperError(`${file}: not a valid wrapper:\n${lines.join('\n')}`);
}

/** Parses wrapper JSON text; throws a WrapperError naming the file for bad JSON or schema problems. */
export function parseWrapper(text: string, file = 'wrapper'): Wrapper {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new WrapperError(`${file}: not JSON: ${(e as Error).message}`);
  }
  return validateWrapper(value, file);
}

/** Every pattern of a wrapper, depth first, with its parent (null at the top). */
export function allPatterns(w: Pick<Wrapper, 'patterns'>): Array<{ pattern: Pattern; parent: Pattern | null }> {
  const out: Array<{ pattern: Pattern; parent: Pattern | null }> = [];
  const visit = (ps: readonly Pattern[], parent: Pattern | null): void => {
    for (const p of ps) {
      out.push({ pattern: p, parent });
      if (p.children) visit(p.children, p);
    }
  };
  visit(w.patterns, null);
  return out;
}
