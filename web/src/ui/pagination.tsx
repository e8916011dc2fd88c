import { Link, useLocation } from 'react-router';

/** Previous / next links that keep the rest of the query string. */
export function Pagination({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const to = (n: number) => {
    const params = new URLSearchParams(location.search);
    if (n === 1) params.delete('page');
    else params.set('page', String(n));
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ''}`;
  };
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev">
          Previous
        </Link>
      ) : (
        <span aria-disabled="true">Previous</span>
      )}
      <span aria-current="page">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span aria-disabled="true">Next</span>
      )}
    </nav>
  );
}
