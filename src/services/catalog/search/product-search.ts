import type { Keyword } from './keyword.js';

/** A piece of SQL with `?` placeholders and their values, in order. Values are always bound, never spliced. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** One way a keyword selects and ranks products: SQL on `product p`. */
export interface KeywordMatch {
  /** What matched: the words (full text), or names similar to the keyword (trigrams). */
  by: 'words' | 'similar';
  where: SqlPart;
  /** Relevance of `p` (a `real`), higher is better. */
  rank: SqlPart;
}

/**
 * The service boundary of keyword search. The listing and the facets ask it how a keyword selects
 * and ranks products and apply every other filter, order, page and count themselves; suggestions are
 * their own table (suggestions.ts). Today's implementation is PostgreSQL full text and pg_trgm on the
 * product table (docs/decisions.md, "Search inside PostgreSQL"). A dedicated engine would implement
 * it by returning candidate ids and scores instead of SQL, read as `unnest(?::int[], ?::real[])` the
 * way `sort=sales` already reads a remembered ranking.
 */
export interface ProductSearch {
  /** The matches to try, in order: the next one only when the previous one finds nothing under the same filters. */
  matchesOf(keyword: Keyword): KeywordMatch[];
}

/**
 * Words first: every word of the keyword in the product's search document (name, brand, shop,
 * category path, description), ranked by `ts_rank_cd` with the document's weights (a word in the name
 * counts ten times one in the description). When the words match nothing, names similar to the
 * keyword (pg_trgm word similarity, which forgives a typo or two), ranked by that similarity.
 */
export const postgresProductSearch: ProductSearch = {
  matchesOf(keyword) {
    const words: KeywordMatch = {
      by: 'words',
      where: { sql: `p.search_document @@ to_tsquery('simple', ?)`, params: [keyword.tsquery] },
      rank: { sql: `ts_rank_cd(p.search_document, to_tsquery('simple', ?))`, params: [keyword.tsquery] },
    };
    if (keyword.similarText === null) return [words];
    const similar: KeywordMatch = {
      by: 'similar',
      where: { sql: '? <% p.name', params: [keyword.similarText] },
      rank: { sql: 'word_similarity(?, p.name)', params: [keyword.similarText] },
    };
    return [words, similar];
  },
};
