import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** Line drawings (inline, so an empty page asks for nothing more), in the page's own colours. */
const PICTURES = {
  cart: (
    <>
      <path d="M8 12h7l6 28h26l5-20H19" />
      <circle cx="24" cy="50" r="4" />
      <circle cx="44" cy="50" r="4" />
    </>
  ),
  search: (
    <>
      <circle cx="27" cy="27" r="15" />
      <path d="M38 38l14 14M21 27h12" />
    </>
  ),
  orders: (
    <>
      <rect x="14" y="8" width="36" height="48" rx="4" />
      <path d="M22 20h20M22 30h20M22 40h12" />
    </>
  ),
} as const;

/**
 * A page with nothing to list yet: a picture, what is going on in a few words, and the one thing to
 * do next, instead of a grey sentence.
 */
export function EmptyState({ picture, title, action, children }: { picture: keyof typeof PICTURES; title: string; action?: { to: string; label: string }; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <svg viewBox="0 0 64 64" width="88" height="88" aria-hidden="true" className="empty-picture">
        {PICTURES[picture]}
      </svg>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action ? (
        <Link to={action.to} className="button primary">
          {action.label}
        </Link>
      ) : null}
    </div>
  );
}
