/**
 * Counted words in generated sentences ("1 question", "2 questions"). English plural categories
 * come from Intl.PluralRules, so every sentence the service writes agrees on what "one" is.
 */
const rules = new Intl.PluralRules('en-US');

/** The word alone, chosen for `n`: `noun(1, 'body', 'bodies')` → "body". */
export function noun(n: number, one: string, many: string): string {
  return rules.select(n) === 'one' ? one : many;
}

/** The count and its word: `count(1, 'question', 'questions')` → "1 question". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${noun(n, one, many)}`;
}
