import { errorCode, errorText, type ApiRefusal } from '../api/errors';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

/** An API error (top-level, or a mutation's user errors) as the visitor sees it: the API's message, with its code for support. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: ApiRefusal; title?: string }) {
  const code = errorCode(error);
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}.</strong> {errorText(error)}
      {code ? <small className="error-code"> ({code})</small> : null}
    </div>
  );
}
