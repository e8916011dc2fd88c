import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../auth/safe-redirect';
import type { SuggestionKind } from '../gql/graphql';
import { useSuggestions, type Suggestion } from './use-suggestions';

const KIND_LABELS: Record<SuggestionKind, string> = { BRAND: 'Brand', CATEGORY: 'Category', PRODUCT: 'Product' };

/** The search page's address for a keyword (`/search` alone lists everything). */
export function searchPath(text: string): string {
  const q = text.trim();
  return q ? `/search?q=${encodeURIComponent(q)}` : '/search';
}

/** One search box per page (in the header): its ids are fixed. */
const INPUT_ID = 'site-search';
const LIST_ID = 'site-search-suggestions';
const optionId = (i: number) => `site-search-option-${i}`;

/**
 * The header's search box: a combobox (WAI-ARIA 1.2, list autocomplete) whose listbox shows
 * suggestions as the shopper types. Down and Up move through them (the focus stays in the box,
 * `aria-activedescendant` points at the option), Enter on an option or a click goes where it leads,
 * Escape closes the list, and Enter without an option searches for the text. Suggestions are asked
 * only while the shopper types, never for the keyword a page was opened with.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const urlKeyword = pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(urlKeyword);
  // The box shows the keyword of the page (after a search, back or forward), until the shopper types.
  const [shownKeyword, setShownKeyword] = useState(urlKeyword);
  if (shownKeyword !== urlKeyword) {
    setShownKeyword(urlKeyword);
    setText(urlKeyword);
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useSuggestions(open ? text : '');
  const expanded = open && suggestions.length > 0;
  // A new list starts with no option chosen.
  const listKey = suggestions.map((s) => `${s.kind}-${s.id}`).join(' ');
  const [shownList, setShownList] = useState(listKey);
  if (shownList !== listKey) {
    setShownList(listKey);
    setActive(-1);
  }

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (s: Suggestion) => {
    close();
    setText('');
    navigate(safeRedirect(s.path));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    close();
    navigate(searchPath(text));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const n = suggestions.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // From the box, Down goes to the first option and Up to the last; past either end, back to the box.
      setActive((i) => (i === -1 ? (step === 1 ? 0 : n - 1) : i + step >= n || i + step < 0 ? -1 : i + step));
    } else if (event.key === 'Enter' && expanded && active >= 0 && active < n) {
      event.preventDefault();
      choose(suggestions[active]);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      close();
    }
  };

  return (
    <form role="search" className="search-form" onSubmit={submit}>
      <label htmlFor={INPUT_ID} className="visually-hidden">
        Search products
      </label>
      <div className="search-combobox">
        <input
          id={INPUT_ID}
          name="q"
          type="search"
          placeholder="Search products, brands, categories"
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={LIST_ID}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        <ul id={LIST_ID} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
          {expanded
            ? suggestions.map((s, i) => (
                <li
                  key={`${s.kind}-${s.id}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={i === active ? 'suggestion active' : 'suggestion'}
                  // Keep the focus in the box, so the click is not lost to its blur. Hovering only
                  // highlights (CSS): a list opening under a resting pointer must not pick what Enter does.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(s)}
                >
                  <span className="suggestion-text">{s.text}</span>
                  <span className={`suggestion-kind kind-${s.kind.toLowerCase()}`}>{KIND_LABELS[s.kind]}</span>
                </li>
              ))
            : null}
        </ul>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {expanded ? `${suggestions.length} ${suggestions.length === 1 ? 'suggestion' : 'suggestions'}` : ''}
      </p>
      <button type="submit">Search</button>
    </form>
  );
}
