import type { ReactNode } from 'react';
import type { UseQueryState } from 'urql';
import { ErrorNotice, Loading } from './query-state';

/** A page's query: its loading state, its error (with the API's message), or its data. */
export function QueryResult<Data>({ result, what, children }: { result: UseQueryState<Data>; what?: string; children: (data: Data) => ReactNode }) {
  if (result.error && !result.data) return <ErrorNotice error={result.error} />;
  if (!result.data) return <Loading what={what} />;
  return <>{children(result.data)}</>;
}
