/**
 * Web page clustering by content, with and without template removal: the application paper 1
 * (alignment-template-detection, sections 1 and 3) evaluates its templates on ("the proposed extraction
 * technique can provide significant benefits in a Web mining task, namely Web page clustering").
 *
 * Choices the paper leaves open, made here:
 *  - Content of a page: the words (src/html/text.ts `words`, those the evaluation scores: lowercase, split
 *    on non-letters/digits) of the text it keeps. With template removal, the text left once the align engine (paper 1) has
 *    marked the site's template; without, the whole text of `<body>` (scripts and styles excluded).
 *  - Representation: TF-IDF vectors (term frequency 1 + ln tf, inverse document frequency ln(N / df)),
 *    L2-normalised; similarity is the cosine.
 *  - Clustering: spherical k-means (Dhillon & Modha 2001) with a deterministic farthest-first start: the
 *    page nearest to the centroid of all pages first, then repeatedly the page least similar to every
 *    chosen centre; ties go to the smaller key. Pages are processed in key order, so the result does not
 *    depend on the order a source yields them.
 *  - k: given, or chosen among 2..maxK by the best mean silhouette (cosine distance).
 */
import { LabelTable } from '../html/labels.ts';
import { textOf, words } from '../html/text.ts';
import type { PageFailure } from '../errors.ts';
import { parsePage, type PageSource } from '../site/page.ts';
import alignEngine from '../template/align/engine.ts';
import type { EngineContext, EngineRun, TemplateEngine } from '../template/engine.ts';
import { ALIGN_DEFAULTS } from '../template/align/defaults.ts';
import { keptText } from '../template/result.ts';
import { CONTENT_CLUSTER_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';

/** A page's content as clustering sees it. */
export interface ContentDocument {
  key: string;
  text: string;
}

export interface DocumentClusterOptions {
  /** Number of clusters; when absent, chosen in 2..maxK by silhouette. */
  k?: number;
  maxK?: number;
}

/** One cluster: its pages (sorted keys) and its most weighted terms. */
export interface ContentCluster {
  id: number;
  keys: string[];
  /** Up to 10 terms with the largest weight in the cluster's centroid. */
  terms: string[];
}

export interface DocumentClustering {
  clusters: ContentCluster[];
  /** Page key → cluster id. */
  assignment: Map<string, number>;
  k: number;
  /** Mean silhouette of the result (cosine distance), in [-1, 1]. */
  silhouette: number;
}

export interface ContentClusterOptions extends DocumentClusterOptions {
  /** Remove the site's template (learned with the align engine) before comparing pages (default true). */
  removeTemplate?: boolean;
  /** Align engine options when removing the template. */
  sample?: number;
  minEvidence?: number;
  /** Label table of the run (a fresh one by default). */
  labels?: LabelTable;
  /** Pages that could not be read (the run goes on without them). */
  onFailure?: (failure: PageFailure) => void;
  onProgress?: (phase: string, done: number, total?: number) => void;
  signal?: AbortSignal;
  /** Runs the align engine (default: its own `run`, on this thread; run/pooled.ts `engineRunner` marks pages on worker threads). */
  runner?: (engine: TemplateEngine, ctx: EngineContext) => Promise<EngineRun>;
}

export interface ContentClustering extends DocumentClustering {
  templateRemoved: boolean;
  failures: PageFailure[];
}

/**
 * Clusters the pages of a source by the similarity of their content, after removing the site's template
 * (paper 1's template, `removeTemplate`, default) or not. The CLI's `gabarit cluster --by content` calls this.
 */
export async function clusterByContent(source: PageSource, options: ContentClusterOptions = {}): Promise<ContentClustering> {
  const { sample, minEvidence } = filled(options, ALIGN_DEFAULTS, ['sample', 'minEvidence']);
  const labels = options.labels ?? new LabelTable();
  const failures: PageFailure[] = [];
  const fail = (f: PageFailure): void => {
    failures.push(f);
    options.onFailure?.(f);
  };
  const docs: ContentDocument[] = [];
  const removeTemplate = options.removeTemplate ?? true;
  if (removeTemplate) {
    const run = options.runner ?? ((engine: TemplateEngine, ctx: EngineContext) => engine.run(ctx));
    await run(alignEngine as TemplateEngine, {
      source,
      labels,
      options: { sample, minEvidence },
      async onPage(m) {
        docs.push({ key: m.key, text: keptText(m) });
      },
      onFailure: fail,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } else {
    for await (const r of source.pages()) {
      options.signal?.throwIfAborted();
      if (!r.ok) {
        fail({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
        continue;
      }
      try {
        const tree = parsePage(r.page, labels);
        docs.push({ key: r.page.key, text: textOf(tree, tree.body()) });
      } catch (e) {
        fail({ url: r.page.url, key: r.page.key, code: 'parse-error', message: `${r.page.url}: ${(e as Error).message}` });
      }
      options.onProgress?.('read', docs.length);
    }
  }
  const result = clusterDocuments(docs, options);
  return { ...result, templateRemoved: removeTemplate, failures };
}

/** Sparse L2-normalised TF-IDF vectors of the documents (sorted by key), with the vocabulary. */
function tfidf(docs: readonly ContentDocument[]): { vectors: Array<{ terms: Int32Array; weights: Float64Array }>; vocab: string[] } {
  const ids = new Map<string, number>();
  const vocab: string[] = [];
  const counts: Array<Map<number, number>> = [];
  const df: number[] = [];
  for (const d of docs) {
    const c = new Map<number, number>();
    for (const w of words(d.text)) {
      let id = ids.get(w);
      if (id === undefined) {
        id = vocab.length;
        vocab.push(w);
        ids.set(w, id);
        df.push(0);
      }
      c.set(id, (c.get(id) ?? 0) + 1);
    }
    for (const id of c.keys()) df[id]!++;
    counts.push(c);
  }
  const n = docs.length;
  const vectors = counts.map((c) => {
    const terms = Int32Array.from([...c.keys()].sort((x, y) => x - y));
    const weights = new Float64Array(terms.length);
    let norm = 0;
    for (let k = 0; k < terms.length; k++) {
      const t = terms[k]!;
      // Terms of a single page cannot relate two pages: left out (min df 2).
      const w = df[t]! < 2 ? 0 : (1 + Math.log(c.get(t)!)) * Math.log(n / df[t]!);
      weights[k] = w;
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let k = 0; k < weights.length; k++) weights[k]! /= norm;
    return { terms, weights };
  });
  return { vectors, vocab };
}

type Vec = { terms: Int32Array; weights: Float64Array };

function dotDense(v: Vec, c: Float64Array): number {
  let s = 0;
  for (let k = 0; k < v.terms.length; k++) s += v.weights[k]! * c[v.terms[k]!]!;
  return s;
}

function dotSparse(x: Vec, y: Vec): number {
  let s = 0;
  let i = 0;
  let j = 0;
  while (i < x.terms.length && j < y.terms.length) {
    const a = x.terms[i]!;
    const b = y.terms[j]!;
    if (a === b) s += x.weights[i++]! * y.weights[j++]!;
    else if (a < b) i++;
    else j++;
  }
  return s;
}

/** Spherical k-means with the farthest-first start described in the module comment; returns assignments. */
function sphericalKMeans(vecs: readonly Vec[], dims: number, k: number): Int32Array {
  const n = vecs.length;
  const assign = new Int32Array(n).fill(-1);
  if (n === 0) return assign;
  k = Math.min(k, n);
  // Start: the page most similar to the mean, then farthest-first.
  const mean = new Float64Array(dims);
  for (const v of vecs) for (let t = 0; t < v.terms.length; t++) mean[v.terms[t]!]! += v.weights[t]!;
  let first = 0;
  let best = -Infinity;
  for (let d = 0; d < n; d++) {
    const s = dotDense(vecs[d]!, mean);
    if (s > best + 1e-12) {
      best = s;
      first = d;
    }
  }
  const centres: number[] = [first];
  const maxSim = new Float64Array(n).fill(-Infinity);
  while (centres.length < k) {
    const c = vecs[centres[centres.length - 1]!]!;
    let pick = -1;
    let low = Infinity;
    for (let d = 0; d < n; d++) {
      const s = dotSparse(vecs[d]!, c);
      if (s > maxSim[d]!) maxSim[d] = s;
      if (!centres.includes(d) && maxSim[d]! < low - 1e-12) {
        low = maxSim[d]!;
        pick = d;
      }
    }
    if (pick < 0) break;
    centres.push(pick);
  }
  const kk = centres.length;
  let cent = centres.map((d) => {
    const c = new Float64Array(dims);
    const v = vecs[d]!;
    for (let t = 0; t < v.terms.length; t++) c[v.terms[t]!] = v.weights[t]!;
    return c;
  });
  for (let iter = 0; iter < CONTENT_CLUSTER_DEFAULTS.maxIterations; iter++) {
    let moved = 0;
    for (let d = 0; d < n; d++) {
      let bc = 0;
      let bs = -Infinity;
      for (let c = 0; c < kk; c++) {
        const s = dotDense(vecs[d]!, cent[c]!);
        if (s > bs + 1e-12) {
          bs = s;
          bc = c;
        }
      }
      if (assign[d] !== bc) {
        assign[d] = bc;
        moved++;
      }
    }
    if (moved === 0) break;
    const next = Array.from({ length: kk }, () => new Float64Array(dims));
    for (let d = 0; d < n; d++) {
      const v = vecs[d]!;
      const c = next[assign[d]!]!;
      for (let t = 0; t < v.terms.length; t++) c[v.terms[t]!]! += v.weights[t]!;
    }
    for (let c = 0; c < kk; c++) {
      const x = next[c]!;
      let norm = 0;
      for (let t = 0; t < dims; t++) norm += x[t]! * x[t]!;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let t = 0; t < dims; t++) x[t]! /= norm;
      else next[c] = cent[c]!; // an emptied cluster keeps its centre
    }
    cent = next;
  }
  return assign;
}

/** Mean silhouette with cosine distance (1 - cosine) over `idx` pages. */
function silhouette(vecs: readonly Vec[], assign: Int32Array, k: number, idx: readonly number[]): number {
  if (k < 2) return 0;
  let total = 0;
  let count = 0;
  const sum = new Float64Array(k);
  const cnt = new Int32Array(k);
  for (const d of idx) {
    sum.fill(0);
    cnt.fill(0);
    for (const e of idx) {
      if (e === d) continue;
      sum[assign[e]!]! += 1 - dotSparse(vecs[d]!, vecs[e]!);
      cnt[assign[e]!]!++;
    }
    const own = assign[d]!;
    if (cnt[own] === 0) {
      count++; // a singleton: silhouette 0 (Rousseeuw's convention), counted
      continue;
    }
    const a = sum[own]! / cnt[own]!;
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && cnt[c]! > 0) b = Math.min(b, sum[c]! / cnt[c]!);
    if (b === Infinity) continue;
    const m = Math.max(a, b);
    total += m > 0 ? (b - a) / m : 0;
    count++;
  }
  return count === 0 ? 0 : total / count;
}

/** Clusters documents by TF-IDF cosine similarity (spherical k-means); see the module comment. */
export function clusterDocuments(input: readonly ContentDocument[], options: DocumentClusterOptions = {}): DocumentClustering {
  const { maxK } = filled(options, CONTENT_CLUSTER_DEFAULTS, ['maxK']);
  const docs = [...input].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const { vectors, vocab } = tfidf(docs);
  const n = docs.length;
  const idx: number[] = [];
  const cap = CONTENT_CLUSTER_DEFAULTS.silhouetteSample;
  if (n <= cap) for (let d = 0; d < n; d++) idx.push(d);
  else for (let s = 0; s < cap; s++) idx.push(Math.floor(((s + 0.5) * n) / cap));
  let k: number;
  let assign: Int32Array;
  let sil: number;
  if (options.k !== undefined) {
    k = Math.max(1, Math.min(options.k, n));
    assign = sphericalKMeans(vectors, vocab.length, k);
    sil = silhouette(vectors, assign, k, idx);
  } else {
    const kMax = Math.min(maxK, n - 1);
    k = 1;
    assign = new Int32Array(n);
    sil = -Infinity;
    for (let kk = 2; kk <= kMax; kk++) {
      const a = sphericalKMeans(vectors, vocab.length, kk);
      const s = silhouette(vectors, a, kk, idx);
      if (s > sil + 1e-9) {
        sil = s;
        k = kk;
        assign = a;
      }
    }
    if (sil === -Infinity) sil = 0;
  }
  // Clusters numbered by their first key, so ids are stable too.
  const order = new Map<number, number>();
  for (let d = 0; d < n; d++) if (!order.has(assign[d]!)) order.set(assign[d]!, order.size);
  const clusters: ContentCluster[] = Array.from({ length: order.size }, (_, id) => ({ id, keys: [], terms: [] }));
  const assignment = new Map<string, number>();
  const centroid = Array.from({ length: order.size }, () => new Map<number, number>());
  for (let d = 0; d < n; d++) {
    const id = order.get(assign[d]!)!;
    clusters[id]!.keys.push(docs[d]!.key);
    assignment.set(docs[d]!.key, id);
    const v = vectors[d]!;
    const c = centroid[id]!;
    for (let t = 0; t < v.terms.length; t++) c.set(v.terms[t]!, (c.get(v.terms[t]!) ?? 0) + v.weights[t]!);
  }
  for (const cl of clusters) {
    cl.terms = [...centroid[cl.id]!.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, 10)
      .map(([t]) => vocab[t]!);
  }
  return { clusters, assignment, k: clusters.length, silhouette: sil };
}
