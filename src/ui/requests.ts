/**
 * The shapes of the API's request bodies (api.ts's request types), checked when a request arrives so that a
 * body of the wrong shape (`null`, an array, a string where a list is, a number as a string) is refused with
 * a short message naming the field instead of failing somewhere inside. Server side only: the front end
 * imports the types of api.ts, not zod. A field the front end may leave out gets its default.
 */
import { z } from 'zod';
import type { AdaptRequest, CreateRequest, ExampleDraft, LearnRequest, LoadRequest, PatternDraft, PreviewRequest, SuggestRequest } from './api.ts';

const name = z.string().min(1);

/** Example pages of a field at most, and elements picked on one page (some items of a list). */
export const MAX_EXAMPLE_PAGES = 100;
export const MAX_EXAMPLE_NODES = 50;

const example = z.object({
  key: name,
  // Node numbers of the page (checked against the page by the designer).
  nodes: z.array(z.number().int().positive()).min(1).max(MAX_EXAMPLE_NODES),
}) satisfies z.ZodType<ExampleDraft, z.ZodTypeDef, unknown>;
const examples = z.array(example).min(1).max(MAX_EXAMPLE_PAGES);

const draft = z.object({
  name: z.string(),
  selector: z.string(),
  multiple: z.boolean().default(false),
  value: z.string().default('text'),
  parent: z.string().nullable().default(null),
  examples: examples.optional(),
}) satisfies z.ZodType<PatternDraft, z.ZodTypeDef, unknown>;
const drafts = z.array(draft).default([]);

export const suggestRequest = z.object({
  method: name,
  key: name,
  // A node number of the page (checked against the page by the server).
  node: z.number().int().positive(),
  parent: z.string().nullable().default(null),
  patterns: drafts,
}) satisfies z.ZodType<SuggestRequest, z.ZodTypeDef, unknown>;

export const previewRequest = z.object({
  method: name,
  key: name,
  patterns: drafts,
}) satisfies z.ZodType<PreviewRequest, z.ZodTypeDef, unknown>;

export const createRequest = z.object({
  method: name,
  key: name,
  name: z.string().default(''),
  patterns: drafts,
}) satisfies z.ZodType<CreateRequest, z.ZodTypeDef, unknown>;

export const learnRequest = z.object({
  name,
  multiple: z.boolean().default(false),
  examples,
}) satisfies z.ZodType<LearnRequest, z.ZodTypeDef, unknown>;

export const loadRequest = z.object({
  text: name,
  file: z.string().default('wrapper'),
}) satisfies z.ZodType<LoadRequest, z.ZodTypeDef, unknown>;

/** A page is one of the two, with nothing else (a page with a key and html would be ambiguous). */
const adaptPage = z.union([z.object({ key: name, method: name }).strict(), z.object({ name, html: z.string() }).strict()], {
  errorMap: (issue, ctx) => ({ message: issue.code === 'invalid_union' ? 'expected { key, method } (a page of the source) or { name, html } (an uploaded page)' : ctx.defaultError }),
});

export const adaptRequest = z.object({
  wrapper: name,
  page: adaptPage,
}) satisfies z.ZodType<AdaptRequest, z.ZodTypeDef, unknown>;

/** `body` as `schema`'s shape, or the first problem as `<field>: <what is wrong>` (`body` for the whole). */
export function parseRequest<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): { ok: true; value: T } | { ok: false; message: string } {
  const r = schema.safeParse(body);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  return { ok: false, message: `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}` };
}
