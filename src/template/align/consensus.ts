/**
 * The hierarchical consensus of paper 1 (section 2): "At each step the k input sequences are paired and
 * aligned to yield k/2 template profile candidates, starting from the initial t sequences representing
 * the available samples. The template candidate originating from a given pair of sequences is obtained by
 * pruning those tokens that have receive[d] low evidence in the alignment steps performed so far. The
 * procedure iterates until it remains only a single profile that is returned as final Web template (i.e.
 * log2(t) steps are required)."
 *
 * Choices the paper leaves open, made here:
 *  - A profile is a token sequence where each token carries its evidence: the number of sample pages below
 *    this node of the binary tree that support it. A page's own sequence has evidence 1 everywhere.
 *  - Merging two profiles aligns their token ids with Needleman–Wunsch (align.ts; evidence does not enter
 *    the score, as in the paper). A match column gives one token with the sum of both evidences; a
 *    mismatch column gives both tokens (the left profile's first), a gap column the one token, each with
 *    its own evidence; order follows the alignment columns, so the result is again a sequence.
 *  - Pruning: a node covering p pages keeps the tokens with evidence >= ceil(minEvidence * p). The
 *    threshold is a fraction so that it means the same at every level; the default 0.5 (a majority from
 *    level 2 on, the union of both pages at level 1) was chosen by measurement: figures in defaults.ts.
 *  - Pairing: profiles are paired in the order given (0 with 1, 2 with 3, ...); with an odd count the last
 *    one goes up a level unpaired. The caller fixes the order (sample.ts sorts the sample by page key), so
 *    the template does not depend on the order in which pages arrive.
 */
import { type AlignOptions, alignSequences } from './align.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { filled } from '../../filled.ts';

/** A consensus sequence: token ids and, for each, how many pages below support it. */
export interface Profile {
  readonly ids: Int32Array;
  readonly evidence: Int32Array;
  /** Number of sample pages this profile was built from. */
  readonly pages: number;
}

/** What one level of the consensus tree did (for summary.json and the evaluation). */
export interface LevelStats {
  level: number;
  /** Profiles entering the level. */
  profiles: number;
  /** Tokens before pruning (summed over the level's merges), and kept after. */
  tokensMerged: number;
  tokensKept: number;
  /** Alignments of this level made by the explicit anchored fallback (not proved optimal, align.ts). */
  notExact: number;
}

export interface ConsensusOptions extends AlignOptions {
  /** Fraction of the pages below a node that must support a token (default ALIGN_DEFAULTS.minEvidence). */
  minEvidence?: number;
}

/** The profile of one page: its token ids with evidence 1. */
export function pageProfile(ids: Int32Array): Profile {
  return { ids, evidence: new Int32Array(ids.length).fill(1), pages: 1 };
}

/** Smallest evidence a token needs to survive in a node covering `pages` pages. */
export function evidenceThreshold(pages: number, minEvidence: number): number {
  return Math.max(1, Math.ceil(minEvidence * pages - 1e-9));
}

/**
 * Aligns two profiles and merges them into one (columns as described above), then prunes the tokens below
 * the evidence threshold. Returns the merged profile, the number of tokens merged before pruning, and whether the alignment is
 * proved optimal (align.ts).
 */
export function mergeProfiles(x: Profile, y: Profile, options: ConsensusOptions = {}): { profile: Profile; merged: number; exact: boolean } {
  const { minEvidence } = filled(options, ALIGN_DEFAULTS, ['minEvidence']);
  const pages = x.pages + y.pages;
  const keep = evidenceThreshold(pages, minEvidence);
  const aln = alignSequences(x.ids, y.ids, options);
  const cap = x.ids.length + y.ids.length;
  const ids = new Int32Array(cap);
  const ev = new Int32Array(cap);
  let n = 0;
  let merged = 0;
  const push = (id: number, e: number): void => {
    merged++;
    if (e >= keep) {
      ids[n] = id;
      ev[n] = e;
      n++;
    }
  };
  for (let k = 0; k < aln.length; k++) {
    const i = aln.colA[k]!;
    const j = aln.colB[k]!;
    if (i >= 0 && j >= 0 && x.ids[i] === y.ids[j]) {
      push(x.ids[i]!, x.evidence[i]! + y.evidence[j]!);
    } else {
      if (i >= 0) push(x.ids[i]!, x.evidence[i]!);
      if (j >= 0) push(y.ids[j]!, y.evidence[j]!);
    }
  }
  return { profile: { ids: ids.slice(0, n), evidence: ev.slice(0, n), pages }, merged, exact: aln.exact };
}

/**
 * Builds the consensus tree bottom-up from the leaf profiles (in the order given) and returns the root
 * profile, the template, with per-level statistics. With one leaf, that leaf is the template.
 */
export function hierarchicalConsensus(leaves: readonly Profile[], options: ConsensusOptions = {}): { template: Profile; levels: LevelStats[] } {
  if (leaves.length === 0) throw new RangeError('hierarchicalConsensus: no sample page');
  let level: Profile[] = [...leaves];
  const levels: LevelStats[] = [];
  let depth = 0;
  while (level.length > 1) {
    depth++;
    const next: Profile[] = [];
    const st: LevelStats = { level: depth, profiles: level.length, tokensMerged: 0, tokensKept: 0, notExact: 0 };
    for (let k = 0; k + 1 < level.length; k += 2) {
      const r = mergeProfiles(level[k]!, level[k + 1]!, options);
      st.tokensMerged += r.merged;
      st.tokensKept += r.profile.ids.length;
      if (!r.exact) st.notExact++;
      next.push(r.profile);
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    levels.push(st);
    level = next;
  }
  return { template: level[0]!, levels };
}
