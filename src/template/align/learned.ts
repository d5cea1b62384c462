/**
 * The align engine's learned template (src/template/learned.ts): the template token sequence of the
 * hierarchical consensus (paper 1, section 2: the root profile), each token by its normalised key (tag with
 * sorted attributes, `/tag`, or `#t:` and the text) with its evidence, the navigation regions and content
 * slot learned on it (navigation.ts, as template indices), the mismatch score it was aligned with, and the
 * attributes labels are made of. A site that declares several languages has one such template per
 * language (languages.ts) besides the one of its other pages. Applying it to a page (apply.ts) picks the
 * template of the page's declared language, tokenises the page with a table where the template's keys have
 * their ids and every other key one shared id (frozen-labels.ts), then aligns the page with the sequence.
 */
import { z } from 'zod';
import type { LabelTable } from '../../html/labels.ts';
import { tokenize } from '../../html/tokens.ts';
import { NodeKind, Tree } from '../../html/tree.ts';
import { FrozenLabels } from '../frozen-labels.ts';
import { type Applier, type ApplyInput, inputTree, readData, type Template, TemplateError } from '../learned.ts';
import { applyTemplate } from './apply.ts';
import type { Profile } from './consensus.ts';
import { declaredLanguage, declaredLanguageOfText, declaredLanguageOfTree } from './languages.ts';
import type { Navigation } from './navigation.ts';

/** One template sequence and what was learned on it. */
export interface AlignPart {
  /** The template sequence: each token's key and evidence (pages of the sample supporting it). */
  tokens: Array<[string, number]>;
  /** Template indices of the start tags of the navigation regions (navigation.ts), sorted. */
  navigationRegions: number[];
  /** Template index of the start tag of the content slot (navigation.ts), -1 when none. */
  contentSlot: number;
}

/** `data` of an align template: the template of the site (of its pages of no language below), and more. */
export interface AlignData extends AlignPart {
  /** Attributes that make up element labels ('all', as paper 1; 'none'; or a list). */
  attributes: 'all' | 'none' | string[];
  /** Score of a mismatch column of the alignment (defaults.ts `mismatch`). */
  mismatch: number;
  /** When the site declares several languages (languages.ts): the template of each, for its pages. */
  languages?: Array<AlignPart & { language: string }> | undefined;
}

const part = {
  tokens: z.array(z.tuple([z.string(), z.number().int().min(0)])),
  navigationRegions: z.array(z.number().int().min(0)),
  contentSlot: z.number().int().min(-1),
};
const schema: z.ZodType<AlignData> = z.object({
  attributes: z.union([z.literal('all'), z.literal('none'), z.array(z.string())]),
  mismatch: z.number().int().max(0),
  ...part,
  languages: z.array(z.object({ language: z.string().min(1), ...part })).optional(),
});

/** The part of a learned profile (its ids read in `labels`) and its navigation. */
export function alignPart(profile: Profile, nav: Navigation, labels: LabelTable): AlignPart {
  return {
    tokens: Array.from(profile.ids, (id, k) => [labels.key(id), profile.evidence[k]!] as [string, number]),
    navigationRegions: Array.from(nav.regions),
    contentSlot: nav.slot,
  };
}

/** The attributes of a label table, as `data.attributes`. */
export function labelAttributes(labels: LabelTable): AlignData['attributes'] {
  return labels.attributes === 'all' || labels.attributes === 'none' ? labels.attributes : [...labels.attributes];
}

/**
 * A Tree parsed with another label table, relabelled in `labels` (element labels from their tags and
 * attributes; other nodes keep theirs, which are fixed).
 */
function relabel(tree: Tree, labels: LabelTable): Tree {
  const label = new Int32Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) {
      label[i] = tree.label[i]!;
      continue;
    }
    const a0 = tree.attrStart[i]!;
    const a1 = tree.attrStart[i + 1]!;
    label[i] = labels.element(tree.tag(i), tree.attrNames.slice(a0, a1), tree.attrValues.slice(a0, a1));
  }
  return new Tree({ ...tree, label });
}

/** A part compiled: its token ids in the frozen table and its navigation. */
interface CompiledPart {
  ids: Int32Array;
  nav: Navigation;
}

/** The declared language of a page to apply a template to (languages.ts). */
function inputLanguage(input: ApplyInput): string | undefined {
  if (input instanceof Tree) return declaredLanguageOfTree(input);
  if (typeof input === 'string') return declaredLanguageOfText(input);
  if ('html' in input) return declaredLanguageOfText(input.html);
  return declaredLanguage(input.bytes);
}

/** Compiles an align template for applying. */
export function compileAlign(template: Template): Applier {
  const d = readData(template, schema);
  const all: AlignPart[] = [d, ...(d.languages ?? [])];
  const labels = new FrozenLabels({ attributes: d.attributes }, all.flatMap((p) => p.tokens.map(([k]) => k)));
  const compile = (p: AlignPart): CompiledPart => {
    for (const j of [...p.navigationRegions, p.contentSlot]) {
      if (j >= p.tokens.length) throw new TemplateError(`align template: navigation index ${j} outside its template of ${p.tokens.length} tokens`);
    }
    return { ids: Int32Array.from(p.tokens, ([k]) => labels.lookup(k)), nav: { regions: Int32Array.from(p.navigationRegions), slot: p.contentSlot } };
  };
  const site = compile(d);
  const byLanguage = new Map((d.languages ?? []).map((p) => [p.language, compile(p)] as const));
  const lineRule = template.options['lineRule'] !== false;
  return {
    template,
    apply(input: ApplyInput) {
      const language = byLanguage.size > 0 ? inputLanguage(input) : undefined;
      const p = (language !== undefined ? byLanguage.get(language) : undefined) ?? site;
      const tree = input instanceof Tree ? relabel(input, labels) : inputTree(input, labels);
      const seq = tokenize(tree, labels);
      const a = applyTemplate(tree, seq, p.ids, { lineRule, mismatch: d.mismatch, navigation: p.nav });
      const info: Record<string, unknown> = { matchedTokens: a.matched, tokens: seq.length };
      if (byLanguage.size > 0) info['language'] = p === site ? null : language;
      return { tree: input instanceof Tree ? input : tree, template: a.template, info };
    },
  };
}
