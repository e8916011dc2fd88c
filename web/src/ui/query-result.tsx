import { useDeferredValue, type ReactNode } from 'react';
import type { CombinedError, UseQueryState } from 'urql';
import { ErrorNotice, Loading } from './query-state';

/**
 * A page's query: its loading state, its error (with the API's message), or its data. A lookup the
 * API answered null comes with its error beside the rest of the data; the page shows `Missing` there.
 */
export function QueryResult<Data>({ result, what, children }: { result: UseQueryState<Data>; what?: string; children: (data: Data) => ReactNode }) {
  // The page is rendered from an answer as a deferred update: React renders it in slices and gives
  // the main thread back between them, instead of one task as long as the whole page (a product
  // page's first render held a phone's main thread for 300 ms).
  const data = useDeferredValue(result.data);
  if (result.error && !result.data) return <ErrorNotice error={result.error} />;
  if (!data) return <Loading what={what} />;
  return <>{children(data)}</>;
}

/** Where a looked-up object is null (missing, or not the visitor's: the API answers both alike): the API's reason. */
export function Missing({ error, what }: { error: CombinedError | undefined; what: string }) {
  if (error) return <ErrorNotice error={error} title={`No such ${what}`} />;
  return (
    <div className="notice notice-error" role="alert">
      <strong>No such {what}.</strong>
    </div>
  );
}
