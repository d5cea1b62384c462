/**
 * Options filled with their defaults in one place: a function that takes options resolves them once, at
 * its start, instead of merging each option with its default where it is used. A leaf module (no import)
 * that every layer may use.
 */

/**
 * A default's type, widened (a `0.8` default takes any number). A union of a number and a word (`number | 'gap'`)
 * is kept as it is: its word is one of the values the option takes, not an example of any string.
 */
export type Widened<T> = [T] extends [number] ? number : [T] extends [boolean] ? boolean : [T] extends [string] ? string : T;

/** Every option that `defaults` declares: as given (an undefined value counts as not given), else its default. */
export function withDefaults<D extends object>(defaults: D, given: { readonly [K in keyof D]?: Widened<D[K]> | undefined }): { [K in keyof D]: Widened<D[K]> } {
  const out = { ...defaults } as { [K in keyof D]: Widened<D[K]> };
  for (const k of Object.keys(defaults) as Array<keyof D>) {
    const v = given[k];
    if (v !== undefined) out[k] = v as Widened<D[typeof k]>;
  }
  return out;
}

/** The options named by `keys` only: each as given, else its default (what a run reports as its options). */
export function filled<D extends object, K extends keyof D>(given: { [P in K]?: Widened<D[P]> | undefined }, defaults: D, keys: readonly K[]): { [P in K]: Widened<D[P]> } {
  const out = {} as { [P in K]: Widened<D[P]> };
  for (const k of keys) out[k] = (given[k] ?? defaults[k]) as Widened<D[typeof k]>;
  return out;
}
