/** The longest keyword the API takes, in characters (code points): docs/api.md "Product listing". */
export const KEYWORD_MAX_LENGTH = 200;

const LETTER_OR_DIGIT = /[\p{L}\p{M}\p{N}]/u;
/** Kana, ideographs and hangul: one such character is already a word worth suggesting for. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/**
 * What the page sends as `q`: the text trimmed and cut to 200 characters, or null when it holds no
 * letter or digit. The API answers 400 to a longer or punctuation-only keyword; the storefront
 * searches by the first 200 characters and treats punctuation alone as no keyword.
 */
export function searchableKeyword(text: string): string | null {
  const cut = [...text.trim()].slice(0, KEYWORD_MAX_LENGTH).join('').trim();
  return LETTER_OR_DIGIT.test(cut) ? cut : null;
}

/**
 * The prefix worth asking suggestions for: two characters, or one CJK character (a word on its own),
 * since one Latin letter matches too much to help. Null: ask nothing.
 */
export function suggestionPrefix(text: string): string | null {
  const keyword = searchableKeyword(text);
  if (!keyword) return null;
  return [...keyword].length >= 2 || CJK.test(keyword) ? keyword : null;
}
