import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, type AnyVariables, type CombinedError, type DocumentInput } from 'urql';
import { refusalOf, type UserErrorFields } from '../api/errors';
import { ErrorNotice } from '../ui/query-state';
import { formatDateTime } from '../ui/dates';

/** The page the console's tables show, from `?page=` (server pagination: the API pages, the table shows one page). */
export function usePageParam(name = 'page'): [number, (next: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get(name)) || 1);
  const set = (next: number) => {
    const copy = new URLSearchParams(params);
    if (next <= 1) copy.delete(name);
    else copy.set(name, String(next));
    setParams(copy);
  };
  return [page, set];
}

/**
 * Filters kept in the query string, so a filtered table survives a reload and a shared link; changing
 * them goes back to page 1. Changed together in one step (a search form's fields): one setter per
 * filter, called one after the other, would each start from the same address and undo the others.
 */
export function useFilterParams<N extends string>(names: readonly N[]): [Record<N, string>, (values: Partial<Record<N, string>>) => void] {
  const [params, setParams] = useSearchParams();
  const set = (values: Partial<Record<N, string>>) => {
    const copy = new URLSearchParams(params);
    for (const [name, value] of Object.entries(values) as [N, string | undefined][]) {
      if (value) copy.set(name, value);
      else copy.delete(name);
    }
    copy.delete('page');
    setParams(copy);
  };
  return [Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<N, string>, set];
}

/** One filter kept in the query string (`useFilterParams` of one name). */
export function useFilterParam(name: string): [string, (value: string) => void] {
  const [values, set] = useFilterParams([name]);
  return [values[name], (value) => set({ [name]: value })];
}

/**
 * The query context of a list: urql's document cache refetches a query after a mutation returning a
 * type the query's last result held, so an empty list would not notice the first item created.
 * Naming the list's item types here makes it refetch anyway.
 */
export function useListContext(...typenames: string[]) {
  const key = typenames.join(',');
  return useMemo(() => ({ additionalTypenames: key.split(',') }), [key]);
}

/**
 * A list's filter by state: the "any" choice (every state, `anyValue`) or one of `states`; the value
 * is kept by the caller (`useFilterParam`).
 */
export function StateSelect({ label: caption, value, states, onChange, any = 'Any', anyValue = '' }: {
  label: string;
  value: string;
  states: readonly string[];
  onChange: (value: string) => void;
  any?: string;
  anyValue?: string;
}) {
  return (
    <label>
      {caption}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={anyValue}>{any}</option>
        {states.map((s) => (
          <option key={s} value={s}>
            {label(s)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Previous / next over a server page, with the total the API counted. */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (n: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-current="page">
        Page {page} of {pages} · {total} in all
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A destructive or irreversible action: the first press asks, the second (on "Yes, …") does it.
 * Inline rather than `window.confirm`, so it stays keyboard reachable and styled.
 */
export function ConfirmButton({ label, question, onConfirm, disabled }: { label: string; question: string; onConfirm: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>{' '}
      <button
        type="button"
        className="danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** What every console mutation answers besides its result: the refusals of its input. */
type Payload = { userErrors: readonly UserErrorFields[] };

/**
 * A mutation of the console: `run` resolves to its payload when the server did it and to null when
 * it refused (top-level error or user errors); `refusal` shows that refusal where it is put, or a
 * form shows `errors` on their fields and the `unshown` rest below. `invalidates`: the item types of
 * the lists it changes when its answer holds none of them (a delete answers only the id it deleted),
 * so those lists are read again.
 */
export function useAction<Data, Variables extends AnyVariables, P extends Payload>(
  mutation: DocumentInput<Data, Variables>,
  payloadOf: (data: Data) => P | null | undefined,
  refused: string,
  invalidates: readonly string[] = [],
) {
  const [state, execute] = useMutation<Data, Variables>(mutation);
  const payload = state.data ? payloadOf(state.data) : undefined;
  const errors = new FormErrors(payload?.userErrors ?? []);
  return {
    fetching: state.fetching,
    errors,
    refusal: <Refusal error={state.error} payload={payload} title={refused} />,
    /** For a form whose fields show their own user errors: the top-level error, or the user errors no field shows. */
    unshown: (shown: (key: string) => boolean) => {
      const left = state.error ?? errors.rest(shown);
      return Array.isArray(left) && left.length === 0 ? null : <ErrorNotice error={left} title={refused} />;
    },
    run: async (variables: Variables): Promise<P | null> => {
      const result = await execute(variables, invalidates.length > 0 ? { additionalTypenames: [...invalidates] } : undefined);
      const answer = result.data ? payloadOf(result.data) : undefined;
      return refusalOf(result.error, answer) || !answer ? null : answer;
    },
  };
}

/**
 * One button for one mutation, asking first when `confirm` is given (a destructive or irreversible
 * action), with the server's refusal shown beside it; the lists showing what it changed refetch.
 */
export function ActionButton<Data, Variables extends AnyVariables, P extends Payload>({
  mutation, variables, payload, label, confirm, refused, invalidates,
}: {
  mutation: DocumentInput<Data, Variables>;
  variables: Variables;
  payload: (data: Data) => P | null | undefined;
  label: string;
  confirm?: string;
  refused: string;
  /** See `useAction`. */
  invalidates?: readonly string[];
}) {
  const action = useAction(mutation, payload, refused, invalidates);
  return (
    <>
      <RunButton label={label} confirm={confirm} onRun={() => void action.run(variables)} disabled={action.fetching} />
      {action.refusal}
    </>
  );
}

/** A plain button, or a `ConfirmButton` when the action asks first. */
export function RunButton({ label, confirm, onRun, disabled, className }: { label: string; confirm?: string; onRun: () => void; disabled?: boolean; className?: string }) {
  if (confirm) return <ConfirmButton label={label} question={confirm} onConfirm={onRun} disabled={disabled} />;
  return (
    <button type="button" className={className} onClick={onRun} disabled={disabled}>
      {label}
    </button>
  );
}

/**
 * A state the server owns, changed by the user: the new state shows at once; the server's answer
 * replaces it when it comes, and a refusal rolls it back. Once the query shows a state other than
 * the one overridden, the query wins again.
 */
export function useOptimisticValue<T>(server: T) {
  const [override, setOverride] = useState<{ value: T; over: T } | null>(null);
  const shown = override && Object.is(override.over, server) ? override.value : server;
  return {
    shown,
    expect: (value: T) => setOverride({ value, over: server }),
    settle: (answer: T | null) => setOverride(answer === null ? null : { value: answer, over: server }),
  };
}

/** The switch from the state shown: the state it leads to, its button, and the mutation (the server's resulting state, or null when refused). */
export interface SwitchAction<T> {
  to: T;
  label: string;
  confirm?: string;
  run: () => Promise<T | null>;
}

/**
 * An on/off state switched optimistically (publish, enable, hide): the state and the button that
 * changes it, with the mutations' refusals as children.
 */
export function OptimisticSwitch<T>({ value, text, action, busy, children }: { value: T; text: (shown: T) => ReactNode; action: (shown: T) => SwitchAction<T> | null; busy: boolean; children?: ReactNode }) {
  const state = useOptimisticValue(value);
  const next = action(state.shown);
  const go = async (switchTo: SwitchAction<T>) => {
    state.expect(switchTo.to);
    state.settle(await switchTo.run());
  };
  return (
    <span className="row-actions" aria-busy={busy || undefined}>
      {text(state.shown)}
      {next ? <RunButton label={next.label} confirm={next.confirm} onRun={() => void go(next)} disabled={busy} /> : null}
      {children}
    </span>
  );
}

/** A user error's field path without the argument name: `["input","skus","0","price"]` → `skus.0.price`. */
const fieldKey = (field: readonly string[] | null | undefined) => (field && field.length > 1 ? field.slice(1).join('.') : '');

/** The user errors of one form, looked up by field so each input shows its own. */
export class FormErrors {
  constructor(readonly errors: readonly UserErrorFields[]) {}
  static none = new FormErrors([]);
  of(key: string): string | undefined {
    const hit = this.errors.filter((e) => fieldKey(e.field) === key);
    return hit.length ? hit.map((e) => e.message).join(' ') : undefined;
  }
  /** Errors no field shows: the input as a whole, or a field the form does not have. */
  rest(shown: (key: string) => boolean): UserErrorFields[] {
    return this.errors.filter((e) => !fieldKey(e.field) || !shown(fieldKey(e.field)));
  }
}

/** The attributes a checked input carries: its id, name, and `aria-invalid` and `aria-describedby` while a message shows under it. */
export interface CheckedInputProps {
  id: string;
  name: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

/**
 * A labelled input with its message under it (`aria-invalid`, `aria-describedby`): `problem` is what
 * the form's own check (`useFormCheck`) finds as it is typed, `error` the server's refusal of the
 * field, shown while no problem is.
 */
export function Field({ label, name, error, problem, children }: { label: string; name: string; error?: string; problem?: string; children: (props: CheckedInputProps) => ReactNode }) {
  const id = `f-${name.replace(/\W/g, '-')}`;
  // A refused form takes the keyboard to its first field marked invalid, so the person reads the
  // message there and fixes it, instead of staying on the button (each field checks whether it is
  // that first one; only it moves the focus). The form's own problems move it only on submit
  // (`useFormCheck`): typing in one field never sends the keyboard to another.
  useEffect(() => {
    if (!error) return;
    const input = document.getElementById(id);
    if (input && input.closest('form')?.querySelector('[aria-invalid="true"]') === input) input.focus();
  }, [error, id]);
  const message = problem ?? error;
  return (
    <div className={`field${message ? ' field-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(checkedProps(id, name, message))}
      <FieldMessage id={id} message={message} />
    </div>
  );
}

/** The attributes of an input with `message` (or none) under it, for inputs laid out without `Field` (a table's cells). */
export const checkedProps = (id: string, name: string, message: string | undefined): CheckedInputProps => ({
  id,
  name,
  'aria-invalid': Boolean(message),
  'aria-describedby': message ? `${id}-error` : undefined,
});

/** The message under an input whose id is `id` (`checkedProps` points to it). */
export function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="field-message" role="alert">
      {message}
    </p>
  ) : null;
}

/** The outcome of a mutation: its refusal (top-level error or user errors) or nothing. */
export function Refusal({ error, payload, title }: { error: CombinedError | undefined; payload: { userErrors: readonly UserErrorFields[] } | null | undefined; title: string }) {
  const refused = refusalOf(error, payload);
  return refused ? <ErrorNotice error={refused} title={title} /> : null;
}

/** Minor units from a form's decimal amount ("12.50" → 1250); NaN stays NaN so the server refuses it on its field. */
export const toMinor = (value: FormDataEntryValue | null): number => Math.round(Number(String(value ?? '').trim()) * 100);
export const fromMinor = (value: number | null | undefined): string => (value == null ? '' : (value / 100).toFixed(2));
export const optionalMinor = (value: FormDataEntryValue | null): number | null => (String(value ?? '').trim() === '' ? null : toMinor(value));
export const text = (value: FormDataEntryValue | null): string => String(value ?? '').trim();
export const optionalText = (value: FormDataEntryValue | null): string | null => text(value) || null;
export const int = (value: FormDataEntryValue | null): number => Number.parseInt(String(value ?? ''), 10);

/** `datetime-local` values are local wall time; the API takes instants. */
export const toInstant = (local: FormDataEntryValue | null): string => new Date(String(local ?? '')).toISOString();
export const toLocalInput = (iso: string | Date): string => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const when = (iso: string | null | undefined): string => (iso ? formatDateTime(iso) : '—');
export const label = (value: string): string => value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, ' ');
