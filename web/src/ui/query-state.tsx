import { errorCode, errorText, type ApiRefusal } from '../api/errors';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

/** An API error (top-level, or a mutation's user errors) as the visitor sees it: a sentence; the code stays in `data-code` for support. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: ApiRefusal; title?: string }) {
  const code = errorCode(error);
  return (
    <div className="notice notice-error" role="alert" data-code={code}>
      <strong>{title}.</strong> {errorText(error)}
    </div>
  );
}
