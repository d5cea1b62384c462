/** Defaults of content clustering (cluster/content.ts); src/defaults.ts gathers them with the others. */
export const CONTENT_CLUSTER_DEFAULTS = {
  /** Largest k tried when k is not given. */
  maxK: 10,
  /** k-means stops after this many rounds if assignments still move (they settle in < 20 on the corpus). */
  maxIterations: 50,
  /** Silhouettes are computed on at most this many pages (evenly spread over the keys): O(n²). */
  silhouetteSample: 1500,
} as const;
