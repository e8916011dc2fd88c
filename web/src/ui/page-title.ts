import { useEffect } from 'react';

/** Sets the document title for the page shown (screen readers announce it on navigation). */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Mallfront` : 'Mallfront';
  }, [title]);
}
