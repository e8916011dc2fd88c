import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Keyword } from './keyword.js';

/** How a keyword matches: its words (full text), or names similar to it (trigrams). */
export type MatchKind = 'words' | 'similar';

/** One way a keyword selects products: how, and the text bound as the statement's value. */
export interface KeywordMatch {
  by: MatchKind;
  /** The `to_tsquery` text (words) or the keyword's words (similar names). */
  text: string;
}

/** A keyword match as SQL on a product's name and search document: whether it matches, and how well (`real`, higher is better). */
export interface MatchSql {
  where: RawBuilder<SqlBool>;
  rank: RawBuilder<number>;
}

/**
 * The service boundary of keyword search. The listing and the facets ask it how a keyword selects
 * and ranks products and apply every other filter, order, page and count themselves; suggestions are
 * their own table (suggestions.service.ts). Today's implementation is PostgreSQL full text and pg_trgm
 * on the product table (docs/decisions.md, "Search inside PostgreSQL"). A dedicated engine would
 * implement it by returning candidate ids and scores instead, read as `unnest(ids, scores)` the way
 * `sort=sales` already reads a remembered ranking.
 */
export interface ProductSearch {
  /** The matches to try, in order: the next one only when the previous one finds nothing under the same filters. */
  matchesOf(keyword: Keyword): KeywordMatch[];
  /** The match as SQL on `p`: its text is the statement's value `text` (a stand-in while it compiles). */
  sqlOf(by: MatchKind, product: { name: Expression<string>; searchDocument: Expression<string | null> }, text: Expression<string>): MatchSql;
}

/**
 * Words first: every word of the keyword in the product's search document (name, brand, shop,
 * category path, description), ranked by `ts_rank_cd` with the document's weights (a word in the name
 * counts ten times one in the description). When the words match nothing, names similar to the
 * keyword (pg_trgm word similarity, which forgives a typo or two), ranked by that similarity.
 */
export const postgresProductSearch: ProductSearch = {
  matchesOf(keyword) {
    const words: KeywordMatch = { by: 'words', text: keyword.tsquery };
    return keyword.similarText === null ? [words] : [words, { by: 'similar', text: keyword.similarText }];
  },
  sqlOf(by, product, text) {
    if (by === 'words') {
      return {
        where: sql<SqlBool>`${product.searchDocument} @@ to_tsquery('simple', ${text})`,
        rank: sql<number>`ts_rank_cd(${product.searchDocument}, to_tsquery('simple', ${text}))`,
      };
    }
    return { where: sql<SqlBool>`${text} <% ${product.name}`, rank: sql<number>`word_similarity(${text}, ${product.name})` };
  },
};
