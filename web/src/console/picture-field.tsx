import { useEffect, useId, useState } from 'react';
import { useSession } from '../auth/session';
import { sentenceOf } from '../api/error-sentences';
import { Image } from '../ui/image';

/** The types an upload may be (the server reads the bytes; this only narrows the file chooser). */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/**
 * An image field that takes an address or an uploaded picture: choosing a file sends it to the
 * library (`POST /api/merchant/media` for a shop, `/api/admin/media` for the platform) and puts the
 * picture's address in the field, with a preview. The address stays editable: a picture elsewhere
 * can still be linked. The field's own server refusal (`error`) shows under it like any field's.
 */
export function PictureField({ label, name, fieldId = name, defaultValue, library, problem: formProblem, error }: {
  label: string;
  /** The form field's name (what the form reads). */
  name: string;
  /** Unique on the page when several forms show the same field (default: the name). */
  fieldId?: string;
  defaultValue: string | null | undefined;
  library: 'shop' | 'platform';
  /** What the form's own check found (form-check.tsx), shown before the server's refusal. */
  problem?: string;
  error?: string;
}) {
  const { session, shopId } = useSession();
  const [url, setUrl] = useState(defaultValue ?? '');
  const [state, setState] = useState<{ busy: boolean; problem: string | null; uploaded: string | null }>({ busy: false, problem: null, uploaded: null });
  const id = useId();
  const inputId = `f-${fieldId.replace(/\W/g, '-')}`;
  const fileId = `${id}-file`;
  const problem = state.problem ?? formProblem ?? error;
  // A refused form takes the keyboard to its first invalid field, as `Field` does.
  useEffect(() => {
    if (!error) return;
    const input = document.getElementById(inputId);
    if (input && input.closest('form')?.querySelector('[aria-invalid="true"]') === input) input.focus();
  }, [error, inputId]);
  // The upload sets the field's value itself: the form's own check hears of it as of typing.
  useEffect(() => {
    document.getElementById(inputId)?.dispatchEvent(new Event('input', { bubbles: true }));
  }, [url, inputId]);
  const upload = async (file: File) => {
    setState({ busy: true, problem: null, uploaded: null });
    try {
      const res = await fetch(`/api/${library === 'shop' ? 'merchant' : 'admin'}/media?filename=${encodeURIComponent(file.name.slice(0, 200) || 'upload')}`, {
        method: 'POST',
        headers: {
          'content-type': file.type || 'application/octet-stream',
          ...(session ? { authorization: `Bearer ${session.token}` } : {}),
          ...(shopId === null ? {} : { 'x-shop-id': String(shopId) }),
        },
        body: file,
      });
      const body = (await res.json()) as { url?: string; error?: { code?: string; message?: string } };
      if (!res.ok || !body.url) {
        setState({ busy: false, problem: sentenceOf(body.error?.code) ?? body.error?.message ?? 'The picture could not be uploaded.', uploaded: null });
        return;
      }
      setUrl(body.url);
      setState({ busy: false, problem: null, uploaded: file.name });
    } catch {
      setState({ busy: false, problem: 'The picture could not be sent: check the connection and try again.', uploaded: null });
    }
  };
  return (
    <div className={`field picture-field${problem ? ' field-error' : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        name={name}
        type="text"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="Upload a picture, or paste https://…"
        aria-invalid={Boolean(problem)}
        aria-describedby={problem ? `${inputId}-error` : undefined}
      />
      <div className="picture-row">
        {url ? <Image src={url} alt={`Picture of ${label.toLowerCase()}`} width={96} height={96} lazy={false} /> : null}
        {/* The file input is hidden behind its label, which looks like a button; focus shows on the label (console.css). */}
        <input
          id={fileId}
          type="file"
          accept={ACCEPT}
          className="visually-hidden"
          disabled={state.busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
        <label htmlFor={fileId} className="button">
          {state.busy ? 'Uploading…' : 'Upload a picture'}
        </label>
        <span role="status" aria-live="polite">
          {state.uploaded ? `Uploaded ${state.uploaded}` : ''}
        </span>
      </div>
      {problem ? (
        <p id={`${inputId}-error`} className="field-message" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
