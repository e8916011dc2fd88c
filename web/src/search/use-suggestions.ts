import { useEffect, useState } from 'react';
import { useClient } from 'urql';
import { graphql } from '../gql';
import type { SearchSuggestionsQuery } from '../gql/graphql';
import { suggestionPrefix } from './keyword';

export type Suggestion = SearchSuggestionsQuery['searchSuggestions'][number];

const SearchSuggestions = graphql(`
  query SearchSuggestions($q: String!) {
    searchSuggestions(q: $q) {
      kind
      id
      text
      path
    }
  }
`);

/** Wait this long after the last keystroke before asking: a fast typist sends one request, not five. */
export const SUGGEST_DEBOUNCE_MS = 150;

interface Answer {
  prefix: string;
  items: Suggestion[];
}

/**
 * Suggestions for what is typed (up to 8, from `searchSuggestions`), asked 150 ms after the last
 * change. Only the answer for the latest text is kept: a newer keystroke unsubscribes from the
 * older request (urql aborts it), so a slow old answer can never replace a newer one. While a
 * longer prefix is on its way, the last answer stays, narrowed to the names that still match, so
 * the list does not flicker at every letter.
 */
export function useSuggestions(text: string): Suggestion[] {
  const client = useClient();
  const prefix = suggestionPrefix(text);
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    if (!prefix) return;
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      ({ unsubscribe } = client.query(SearchSuggestions, { q: prefix }).subscribe((result) => {
        if (result.data) setAnswer({ prefix, items: result.data.searchSuggestions });
      }));
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [client, prefix]);
  if (!prefix || !answer) return [];
  if (answer.prefix === prefix) return answer.items;
  const typed = prefix.toLowerCase();
  return typed.startsWith(answer.prefix.toLowerCase()) ? answer.items.filter((s) => s.text.toLowerCase().startsWith(typed)) : [];
}
