import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import type { z } from 'zod';
import { ErrorNotice } from '../ui/query-state';

/** A schema's problems by field key (`name`, `skus.0.price`: the path the server's user errors name), the first of each. */
function problemsByKey(issues: readonly z.core.$ZodIssue[]): Map<string, string> {
  const problems = new Map<string, string>();
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (!problems.has(key)) problems.set(key, issue.message);
  }
  return problems;
}

/**
 * A schema loaded the first time a form asks for it, once: zod and the schemas come in their own
 * chunk when a form opens, not with every console page (the landing pages have no form).
 */
export function lazySchema<S extends z.ZodType>(load: () => Promise<S>): () => Promise<S> {
  let loading: Promise<S> | undefined;
  return () => (loading ??= load());
}

/**
 * A console form checked by the zod schema the service parses the same input with (the .inputs.ts
 * files under src/services, imported as they are): each field shows its problem once it has been
 * typed in or left, in the words the server would answer; a submit with a problem sends nothing,
 * shows every field's problem and takes the keyboard to the first field marked invalid.
 *
 * `read` builds the mutation's input from the form's fields, keyed by their `name` attributes as the
 * schema's paths (`skus.0.price`). The server still checks everything: this only saves the round
 * trip, and what only the data can tell (a category deleted meanwhile) still comes back on its field.
 */
export function useFormCheck<S extends z.ZodType, I>(load: () => Promise<S>, read: (form: FormData) => I) {
  const ref = useRef<HTMLFormElement>(null);
  const [schema, setSchema] = useState<S | null>(null);
  useEffect(() => {
    let mounted = true;
    void load().then((loaded) => {
      if (!mounted) return;
      setSchema(() => loaded);
      // What was typed while the schema was on its way is checked now.
      if (ref.current) runRef.current(ref.current, loaded);
    });
    return () => {
      mounted = false;
    };
  }, [load]);
  const [problems, setProblems] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [seen, setSeen] = useState<ReadonlySet<string> | 'all'>(() => new Set());
  const [attempts, setAttempts] = useState(0);
  // Fields changed since the last submit: the server's refusal of one is about a value no longer there.
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());

  /** Checks the form with `using` (the schema, once loaded; until then typing is not checked yet). */
  const run = (form: HTMLFormElement, using: S | null = schema): I | null => {
    const input = read(new FormData(form));
    if (!using) return input;
    const result = using.safeParse(input);
    setProblems(result.success ? new Map() : problemsByKey(result.error.issues));
    return result.success ? input : null;
  };
  const runRef = useRef(run);
  runRef.current = run;
  const onField = (event: SyntheticEvent<HTMLFormElement>) => {
    const name = event.target instanceof HTMLElement ? event.target.getAttribute('name') : null;
    if (name) setSeen((before) => (before === 'all' || before.has(name) ? before : new Set(before).add(name)));
    if (name && event.type === 'input') setEdited((before) => (before.has(name) ? before : new Set(before).add(name)));
    run(event.currentTarget);
  };
  // After a refused submit has rendered its messages: the first field marked invalid takes the keyboard.
  useEffect(() => {
    if (attempts > 0) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const shown = (key: string) => seen === 'all' || seen.has(key);
  const problem = (key: string): string | undefined => (shown(key) ? problems.get(key) : undefined);
  return {
    /** Spread on the `<form>`. */
    form: { ref, noValidate: true, onInput: onField, onBlur: onField },
    /** The problem the field `key` shows now, if any. */
    problem,
    /** What the field `key` shows: its problem, else the server's refusal of it (`error`) unless it was changed since. */
    message: (key: string, error: string | undefined): string | undefined => problem(key) ?? (edited.has(key) ? undefined : error),
    /** A `Field`'s `problem` and `error` props for the field `key`, the server's refusal as `message` keeps it. */
    field: (key: string, error: string | undefined) => ({ problem: problem(key), error: edited.has(key) ? undefined : error }),
    /** Submit: the input to send, or null when a field has a problem (then nothing is sent); waits for the schema if it is still on its way. */
    check: async (): Promise<I | null> => {
      const form = ref.current;
      if (!form) return null;
      const input = run(form, schema ?? (await load()));
      setEdited(new Set());
      if (input === null) {
        setSeen('all');
        setAttempts((n) => n + 1);
      }
      return input;
    },
    /** After a refused submit: the problems no field of the form shows (the input as a whole). */
    unshown: () => {
      const form = ref.current;
      if (seen !== 'all' || !form) return null;
      const rest = [...problems].filter(([key]) => !key || !form.elements.namedItem(key));
      return rest.length === 0 ? null : <ErrorNotice error={rest.map(([key, message]) => ({ field: key ? ['input', ...key.split('.')] : null, message, code: 'VALIDATION_FAILED' }))} title="Not sent" />;
    },
  };
}
