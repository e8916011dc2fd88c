import { z } from '../../../shared/validate.js';

/** The longest keyword, in characters (code points). */
export const KEYWORD_MAX_LENGTH = 200;

/** A word: letters (with their combining marks) and digits. Everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/**
 * Runs of CJK characters (kana, ideographs, hangul): the same ranges as the `product_search_document`
 * trigger (migration Search), which writes such runs as single characters and overlapping bigrams.
 */
const CJK_RUN = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)/u;

/** A keyword holds a letter or a digit, or is blank (no keyword): the document states this pattern. */
const KEYWORD_PATTERN = /^\s*$|[\p{L}\p{M}\p{N}]/u;

/**
 * `q` of the listing, facets and suggestions: at most 200 characters (code points, as JSON Schema's
 * `maxLength` counts them), holding a letter or a digit; otherwise VALIDATION_FAILED on `q`. Trimmed;
 * blank means no keyword (undefined).
 */
export const keywordParam = z
  .string()
  .refine((s) => [...s].length <= KEYWORD_MAX_LENGTH, `must be at most ${KEYWORD_MAX_LENGTH} characters`)
  .refine((s) => KEYWORD_PATTERN.test(s), 'must contain a letter or a digit')
  .transform((s) => s.trim() || undefined)
  .meta({ maxLength: KEYWORD_MAX_LENGTH, pattern: KEYWORD_PATTERN.source });

/** A keyword as the database matches it. */
export interface Keyword {
  /** The text as given (trimmed). */
  text: string;
  /**
   * A `to_tsquery('simple', ...)` text: every word must match. Non-CJK words match as prefixes
   * (`'blue':*`); a CJK run is the AND of its bigrams (one character: that character). Built only from
   * the words' letters and digits, each quoted: no character of the input is a tsquery operator. It is
   * bound as a parameter like any other value.
   */
  tsquery: string;
  /** The non-CJK words, lower-cased, for name similarity (pg_trgm), or null when there are none long enough. */
  similarText: string | null;
}

/** Parsing only: `text` has passed `keywordParam`, so it holds at least one word. */
export function keywordOf(text: string): Keyword {
  const terms = new Set<string>();
  const latin: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    // split with a capturing group: CJK runs at the odd indexes.
    word.split(CJK_RUN).forEach((part, i) => {
      if (part === '') return;
      if (i % 2 === 0) {
        const lower = part.toLowerCase();
        latin.push(lower);
        terms.add(`'${lower}':*`);
        return;
      }
      const chars = [...part];
      if (chars.length === 1) terms.add(`'${part}'`);
      for (let k = 0; k + 1 < chars.length; k++) terms.add(`'${chars[k]}${chars[k + 1]}'`);
    });
  }
  const similar = latin.join(' ');
  return { text, tsquery: [...terms].join(' & '), similarText: [...similar].length >= 3 ? similar : null };
}
