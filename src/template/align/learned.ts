/**
 * The align engine's learned template (src/template/learned.ts): the template token sequence of the
 * hierarchical consensus (paper 1, section 2: the root profile), each token by its normalised key (tag with
 * sorted attributes, `/tag`, or `#t:` and the text) with its evidence, and the attributes labels are made
 * of. Applying it to a page (apply.ts) tokenises the page with a table where the template's keys have their
 * ids and every other key one shared id (frozen-labels.ts), then aligns the page with the sequence.
 */
import { z } from 'zod';
import type { LabelTable } from '../../html/labels.ts';
import { tokenize } from '../../html/tokens.ts';
import { NodeKind, Tree } from '../../html/tree.ts';
import { FrozenLabels } from '../frozen-labels.ts';
import { type Applier, type ApplyInput, inputTree, readData, type Template } from '../learned.ts';
import { applyTemplate } from './apply.ts';
import type { Profile } from './consensus.ts';

/** `data` of an align template. */
export interface AlignData {
  /** Attributes that make up element labels ('all', as paper 1; 'none'; or a list). */
  attributes: 'all' | 'none' | string[];
  /** The template sequence: each token's key and evidence (pages of the sample supporting it). */
  tokens: Array<[string, number]>;
}

const schema: z.ZodType<AlignData> = z.object({
  attributes: z.union([z.literal('all'), z.literal('none'), z.array(z.string())]),
  tokens: z.array(z.tuple([z.string(), z.number().int().min(0)])),
});

/** The data of a learned profile (its ids read in `labels`). */
export function alignData(profile: Profile, labels: LabelTable): AlignData {
  const attributes = labels.attributes === 'all' || labels.attributes === 'none' ? labels.attributes : [...labels.attributes];
  return { attributes, tokens: Array.from(profile.ids, (id, k) => [labels.key(id), profile.evidence[k]!] as [string, number]) };
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

/** Compiles an align template for applying. */
export function compileAlign(template: Template): Applier {
  const d = readData(template, schema);
  const labels = new FrozenLabels({ attributes: d.attributes }, d.tokens.map(([k]) => k));
  const ids = Int32Array.from(d.tokens, ([k]) => labels.lookup(k));
  const lineRule = template.options['lineRule'] !== false;
  return {
    template,
    apply(input: ApplyInput) {
      const tree = input instanceof Tree ? relabel(input, labels) : inputTree(input, labels);
      const seq = tokenize(tree, labels);
      const a = applyTemplate(tree, seq, ids, { lineRule });
      return { tree: input instanceof Tree ? input : tree, template: a.template, info: { matchedTokens: a.matched, tokens: seq.length } };
    },
  };
}
