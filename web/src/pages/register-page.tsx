import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
import { graphql } from '../gql';
import { ErrorNotice } from '../ui/query-state';
import { usePageTitle } from '../ui/page-title';
import { useFinishSignIn } from '../auth/use-finish-sign-in';

const Register = graphql(`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      session {
        ...SessionFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

export default function RegisterPage() {
  usePageTitle('Create an account');
  const [params] = useSearchParams();
  const [state, register] = useMutation(Register);
  const finish = useFinishSignIn();
  const [afterError, setAfterError] = useState<ApiRefusal | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { email: String(form.get('email')), password: String(form.get('password')), displayName: String(form.get('displayName')) };
    const result = await register({ input });
    const session = result.data?.register.session;
    if (session) setAfterError(await finish(session));
  };
  const refused = refusalOf(state.error, state.data?.register);
  const redirect = params.get('redirect');
  return (
    <section className="auth-form">
      <h1>Create an account</h1>
      {refused ? <ErrorNotice error={refused} title="Not registered" /> : null}
      {afterError ? <ErrorNotice error={afterError} title="Registered, but the item was not added to your cart" /> : null}
      <form onSubmit={submit}>
        <label>
          Name <input name="displayName" required maxLength={80} autoComplete="nickname" />
        </label>
        <label>
          Email <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <button type="submit" className="primary" disabled={state.fetching}>
          {state.fetching ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Have an account? <Link to={`/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`}>Sign in</Link>
      </p>
    </section>
  );
}
