import type { ServiceContext } from '../../../shared/context.js';
import { parseInput, z } from '../../../shared/validate.js';
import { SuggestionKind } from '../../../entities/search-suggestion.entity.js';
import { keywordParam } from './keyword.js';
import type { SuggestionView } from './search-views.js';
import { LAST_CHARACTER, SUGGESTIONS_MAX, suggestions } from './search.repository.js';

export { SUGGESTIONS_MAX };


export const SuggestInput = z.strictObject({ q: keywordParam.optional() });

const PATHS: Record<SuggestionKind, string> = {
  [SuggestionKind.Brand]: '/brands/',
  [SuggestionKind.Category]: '/categories/',
  [SuggestionKind.Product]: '/products/',
};

const KIND_ORDER = [SuggestionKind.Brand, SuggestionKind.Category, SuggestionKind.Product];


/**
 * Up to 8 names starting with what the shopper typed (case-insensitive, spaces collapsed): brands
 * first, then categories, then published products (one per distinct name), each kind in byte-wise
 * alphabetical order. Each kind is one range scan of a few entries on the `search_suggestion` prefix index,
 * so a keystroke costs the same whatever the catalog's size. A blank `q` suggests nothing.
 */
export async function searchSuggestions(ctx: ServiceContext, input: unknown = {}): Promise<{ items: SuggestionView[] }> {
  const { q } = parseInput(SuggestInput, input);
  if (q === undefined) return { items: [] };
  const prefix = q.toLowerCase().replace(/\s+/g, ' ');
  const rows = await suggestions.run(ctx.em, {}, { prefix, end: prefix + LAST_CHARACTER });
  // Each branch in its own order; kinds in their order (a stable sort); one product per name.
  const seen = new Set<string>();
  const items = rows
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind))
    .filter((r) => r.kind !== SuggestionKind.Product || (!seen.has(r.norm) && Boolean(seen.add(r.norm))))
    .slice(0, SUGGESTIONS_MAX)
    .map((r): SuggestionView => ({ kind: r.kind, id: r.refId, text: r.text, path: `${PATHS[r.kind]}${r.refId}` }));
  return { items };
}
