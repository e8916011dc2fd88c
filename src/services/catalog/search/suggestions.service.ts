import type { ServiceContext } from '../../../shared/context.js';
import { parseInput, z } from '../../../shared/validate.js';
import { queryRows } from '../../../db/prepared-statements.js';
import { SuggestionKind } from '../../../entities/search-suggestion.entity.js';
import type { Database } from '../../../db/typed-sql.js';
import { keywordParam } from './keyword.js';

export const SUGGESTIONS_MAX = 8;

export const SuggestInput = z.strictObject({ q: keywordParam.optional() });

export interface Suggestion {
  kind: SuggestionKind;
  /** The brand, category or product id. */
  id: number;
  text: string;
  /** The storefront route it leads to. */
  path: string;
}

const PATHS: Record<SuggestionKind, string> = {
  [SuggestionKind.Brand]: '/brands/',
  [SuggestionKind.Category]: '/categories/',
  [SuggestionKind.Product]: '/products/',
};

const KIND_ORDER = [SuggestionKind.Brand, SuggestionKind.Category, SuggestionKind.Product];

/** The largest code point: every text that starts with a prefix sorts (byte-wise) below prefix + this. */
const LAST_CHARACTER = '\u{10FFFF}';

/**
 * Up to 8 names starting with what the shopper typed (case-insensitive, spaces collapsed): brands
 * first, then categories, then published products (one per distinct name), each kind in byte-wise
 * alphabetical order. Each kind is one range scan of a few entries on the `search_suggestion` prefix index,
 * so a keystroke costs the same whatever the catalog's size. A blank `q` suggests nothing.
 */
export async function searchSuggestions(ctx: ServiceContext, input: unknown = {}): Promise<{ items: Suggestion[] }> {
  const { q } = parseInput(SuggestInput, input);
  if (q === undefined) return { items: [] };
  const prefix = q.toLowerCase().replace(/\s+/g, ' ');
  // `using ~<~`: the index's own (byte-wise) order, so each branch reads the index in order and stops
  // at its limit. Products: a few more than 8, as names repeat across shops (one per name is kept).
  const branch = (kind: SuggestionKind, limit: number) =>
    `(select kind, ref_id as "refId", text, norm from search_suggestion where kind = '${kind}' and norm ~>=~ ? and norm ~<~ ? order by norm using ~<~ limit ${limit})`;
  const rows = await queryRows<Pick<Database['SearchSuggestion'], 'kind' | 'refId' | 'text' | 'norm'>>(
    ctx.em,
    [branch(SuggestionKind.Brand, SUGGESTIONS_MAX), branch(SuggestionKind.Category, SUGGESTIONS_MAX), branch(SuggestionKind.Product, 4 * SUGGESTIONS_MAX)].join(' union all '),
    [prefix, prefix + LAST_CHARACTER, prefix, prefix + LAST_CHARACTER, prefix, prefix + LAST_CHARACTER],
  );
  // Each branch in its own order; kinds in their order (a stable sort); one product per name.
  const seen = new Set<string>();
  const items = rows
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind))
    .filter((r) => r.kind !== SuggestionKind.Product || (!seen.has(r.norm) && Boolean(seen.add(r.norm))))
    .slice(0, SUGGESTIONS_MAX)
    .map((r) => ({ kind: r.kind, id: r.refId, text: r.text, path: `${PATHS[r.kind]}${r.refId}` }));
  return { items };
}
