import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** A page that failed to load (a chunk after a deploy, an unexpected exception). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <main className="page">
      <div className="notice notice-error" role="alert">
        <strong>This page could not be shown.</strong> {message}
      </div>
      <p>
        <Link to="/">Back to the home page</Link> or reload to try again.
      </p>
    </main>
  );
}
