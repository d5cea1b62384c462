/**
 * A learned template, serialisable and versioned (DESIGN.md, "Learn, then apply"): what an engine learns
 * from some pages of a site (`learn`), written as `template.json`, read back and applied to any page of the
 * site (`apply`), including pages it was not learned on. One envelope for every engine:
 *  - `format` `gabarit-template`, `version` (this file's VERSION; a reader refuses another version);
 *  - `method` (the engine) and `options` (what it was learned with; `apply` uses those it needs);
 *  - `site` and `pages`: where it was learned;
 *  - `data`: the engine's own learned state (align: the template token sequence; hyperlink: the key page
 *    and its template nodes; pagelets: the template shingles), validated by the engine when compiled;
 *  - `about`: what the engine says of it, for people (sample pages, counts).
 * A source of several sites gives a `gabarit-templates` set: one template per site.
 */
import { z } from 'zod';
import { GabaritError } from '../errors.ts';
import { decodeHtml } from '../html/charset.ts';
import type { LabelTable } from '../html/labels.ts';
import { parseHtml } from '../html/parse.ts';
import { Tree } from '../html/tree.ts';

export const TEMPLATE_FORMAT = 'gabarit-template';
export const TEMPLATE_SET_FORMAT = 'gabarit-templates';
/** Version of the template format; bumped when an engine's `data` changes incompatibly. */
export const TEMPLATE_VERSION = 2;

/** A template file that cannot be read (not JSON, another format or version, bad engine data). */
export class TemplateError extends GabaritError {
  override readonly name = 'TemplateError';
}

export interface Template<D = unknown> {
  format: typeof TEMPLATE_FORMAT;
  version: number;
  method: string;
  options: Record<string, unknown>;
  /** The site it was learned on (host, or the source's root), and from how many pages. */
  site: string;
  pages: number;
  data: D;
  about?: Record<string, unknown>;
}

/** One template per site of a source. */
export interface TemplateSet {
  format: typeof TEMPLATE_SET_FORMAT;
  version: number;
  sites: Template[];
}

const envelope = z
  .object({
    format: z.literal(TEMPLATE_FORMAT),
    version: z.number().int(),
    method: z.string().min(1),
    options: z.record(z.unknown()),
    site: z.string(),
    pages: z.number().int().min(0),
    data: z.unknown(),
    about: z.record(z.unknown()).optional(),
  })
  .passthrough();

/** Reads a template or a template set from its JSON value (a parsed template.json); throws TemplateError. */
export function readTemplate(value: unknown, name = 'template'): Template | TemplateSet {
  const v = value as { format?: unknown; version?: unknown; sites?: unknown };
  if (v && typeof v === 'object' && v.format === TEMPLATE_SET_FORMAT && Array.isArray(v.sites)) {
    checkVersion(v.version, name);
    return { format: TEMPLATE_SET_FORMAT, version: TEMPLATE_VERSION, sites: v.sites.map((t, i) => readOne(t, `${name}: site ${i}`)) };
  }
  return readOne(value, name);
}

function checkVersion(version: unknown, name: string): void {
  if (version !== TEMPLATE_VERSION) throw new TemplateError(`${name}: template format version ${String(version)}, this gabarit reads version ${TEMPLATE_VERSION}`);
}

function readOne(value: unknown, name: string): Template {
  const r = envelope.safeParse(value);
  if (!r.success) {
    const what = (value as { format?: unknown })?.format;
    if (what !== TEMPLATE_FORMAT) throw new TemplateError(`${name}: not a gabarit template (format ${JSON.stringify(what)}; write one with \`gabarit template\`)`);
    throw new TemplateError(`${name}: ${r.error.issues.map((i) => `${i.path.join('.') || 'template'}: ${i.message}`).join('; ')}`);
  }
  checkVersion(r.data.version, name);
  return r.data as Template;
}

/** What one page becomes when a template is applied to it. */
export interface AppliedMarks {
  tree: Tree;
  /** 1 where the node is template (length tree.size). */
  template: Uint8Array;
  /** The engine's figures for the page. */
  info: Record<string, unknown>;
}

/**
 * A page to apply a template to: its HTML (decoded text, or bytes with their content type), or a parsed
 * Tree. `url` is the page's address, for templates that read link targets (pagelets `--link-targets`).
 */
export type ApplyInput = string | { html: string; xhtml?: boolean; url?: string } | { bytes: Uint8Array; contentType?: string; key?: string; url?: string } | Tree;

/** The address given with a page to apply a template to, if any. */
export function inputUrl(input: ApplyInput): string | undefined {
  return typeof input === 'object' && !(input instanceof Tree) ? input.url : undefined;
}

/** A template compiled for applying: built once, applied to any number of pages. */
export interface Applier {
  readonly template: Template;
  apply(input: ApplyInput): AppliedMarks;
}

/** Reads an engine's `data` with its schema; a mismatch is a TemplateError naming the method. */
export function readData<T>(template: Template, schema: z.ZodType<T>): T {
  const r = schema.safeParse(template.data);
  if (!r.success) throw new TemplateError(`${template.method} template: ${r.error.issues.map((i) => `data.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** The envelope of a template an engine learned. */
export function makeTemplate<D>(method: string, options: Record<string, unknown>, site: string, pages: number, data: D, about?: Record<string, unknown>): Template<D> {
  return { format: TEMPLATE_FORMAT, version: TEMPLATE_VERSION, method, options, site, pages, data, ...(about ? { about } : {}) };
}

/** The Tree of a page to apply a template to, parsed with `labels` (a Tree given is returned as it is). */
export function inputTree(input: ApplyInput, labels: LabelTable): Tree {
  if (input instanceof Tree) return input;
  if (typeof input === 'string') return parseHtml(input, { labels });
  if ('html' in input) return parseHtml(input.html, { labels, selfClosing: input.xhtml ?? false });
  const { text } = decodeHtml(input.bytes, input.contentType);
  const xhtml = (input.contentType ?? '').includes('xhtml') || /\.xhtml$/i.test(input.key ?? '');
  return parseHtml(text, { labels, selfClosing: xhtml });
}
