/**
 * Integrity constraints (paper 5, Section 4): occurrence restrictions (minimum / maximum instances of a
 * pattern, minimum / maximum child pattern instances) and data types (integer, number, date, URL, a
 * regular expression, non-empty). A violated constraint is what starts the adaptation of a pattern.
 * Checks return human-readable violations ([] when all hold).
 */
import type { Constraints, DataType } from './wrapper.ts';

/** The occurrence bounds of a pattern: minOccurs default 1; maxOccurs default 1, or unbounded for a list. */
export function occurrenceBounds(c: Constraints | undefined, multiple: boolean): { min: number; max: number } {
  return { min: c?.minOccurs ?? 1, max: c?.maxOccurs ?? (multiple ? Infinity : 1) };
}

const INTEGER = /^[+-]?\d{1,3}(?:[ ,.\u00a0\u202f]?\d{3})*$|^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d{1,3}(?:[ ,.\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d+)?$/;
const MONTHS = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b/i;
/** A percentage (`33%`, `% 12`) or an amount of money (`£12.99`, `12,00 €`) inside a text. */
const PERCENT_OR_MONEY = /\d\s*%|%\s*\d|[$€£¥₹]\s*\d|\d\s*[$€£¥₹]/u;

/** Most words of letters a value with a percentage or an amount of money has and is still not `text`. */
const BADGE_WORDS = 3;

/**
 * Does `value` (trimmed; a currency sign or unit around a number is allowed) have data type `type`?
 * `text` is words: at least one letter, and not a short text around a percentage or an amount of money
 * (BADGE_WORDS words or fewer: "33% Off", "Save £5", "Now only $4.99" are another kind of data than a
 * name, a title or a publisher; "Devil's Prize ($4.99 Value Promotion Edition)" is a title).
 */
export function hasType(value: string, type: DataType): boolean {
  const v = value.replace(/\s+/g, ' ').trim();
  switch (type) {
    case 'string':
      return true;
    case 'non-empty':
      return v.length > 0;
    case 'integer':
      return INTEGER.test(stripUnit(v));
    case 'number':
      return NUMBER.test(stripUnit(v));
    case 'url':
      // An absolute URL (scheme:), a protocol-relative or path URL (//, /, ./, ../), or a host name with
      // an optional path; no white space. A bare word is not a URL (it would be a relative one, but no
      // one means "Zebra" as a link).
      return v.length > 0 && !/\s/.test(v) && (/^[a-z][a-z0-9+.-]*:\S+$/i.test(v) || /^(\/|\.\.?\/)/.test(v) || /^[\w-]+(\.[\w-]+)+(\/\S*)?$/.test(v));
    case 'text':
      return /\p{L}/u.test(v) && !(PERCENT_OR_MONEY.test(v) && (v.match(/\p{L}+/gu) ?? []).length <= BADGE_WORDS);
    case 'date': {
      if (v === '') return false;
      if (/^\d{4}-\d{2}-\d{2}/.test(v) || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(v)) return true;
      return MONTHS.test(v) && /\d/.test(v);
    }
  }
}

/** The kind of data a value is (`valueKind`). */
export type ValueKind = 'empty' | 'number' | 'date' | 'url' | 'words' | 'mixed';

/**
 * The kind of data a value is: a number (with a sign, a currency or a unit), a date, a URL, words (no
 * digit), or mixed (a code like "Item CAIRN45B", a badge like "33% Off"). Two values of one field on
 * different pages have different words but usually one kind; a field's value and its neighbour's (a
 * price and a SKU) usually do not.
 */
export function valueKind(value: string): ValueKind {
  const v = value.replace(/\s+/g, ' ').trim();
  if (v === '') return 'empty';
  if (hasType(v, 'number')) return 'number';
  if (hasType(v, 'date')) return 'date';
  if (hasType(v, 'url')) return 'url';
  if (!/\p{N}/u.test(v) && /\p{L}/u.test(v)) return 'words';
  return 'mixed';
}

/** Removes a leading / trailing currency sign or unit and separators like ':' around a number. */
function stripUnit(v: string): string {
  // Before the number: symbols (`£`, `$ `) or a currency code (`USD `), not words ("June 2008" is a date).
  return v.replace(/^(?:[^\p{L}\d+-]{0,4}|\p{Lu}{3}\s?)/u, '').replace(/[^\d]{0,6}$/, '').trim();
}

/** Violations of the data-type and regex constraints by `values`. */
export function valueViolations(values: readonly string[], c: Constraints | undefined): string[] {
  const type = c?.type ?? 'non-empty';
  const re = c?.regex !== undefined ? new RegExp(c.regex, 'u') : null;
  const out: string[] = [];
  for (const v of values) {
    if (!hasType(v, type)) {
      out.push(`value ${quote(v)} is not of type ${type}`);
      break;
    }
    if (re && !re.test(v)) {
      out.push(`value ${quote(v)} does not match /${c!.regex}/`);
      break;
    }
  }
  return out;
}

/** Violations of the occurrence restriction by `count` instances. */
export function occurrenceViolations(count: number, c: Constraints | undefined, multiple: boolean): string[] {
  const { min, max } = occurrenceBounds(c, multiple);
  if (count < min) return [count === 0 ? 'no instance found' : `${count} instances, at least ${min} required`];
  if (count > max) return [`${count} instances, at most ${max} allowed`];
  return [];
}

/** Violations of the child-instance restriction by an instance with `children` child instances. */
export function childViolations(children: number, c: Constraints | undefined): string[] {
  if (c?.minChildren !== undefined && children < c.minChildren) return [`${children} child instances, at least ${c.minChildren} required`];
  if (c?.maxChildren !== undefined && children > c.maxChildren) return [`${children} child instances, at most ${c.maxChildren} allowed`];
  return [];
}

function quote(v: string): string {
  const s = v.replace(/\s+/g, ' ').trim();
  return JSON.stringify(s.length > 60 ? s.slice(0, 57) + '…' : s);
}
