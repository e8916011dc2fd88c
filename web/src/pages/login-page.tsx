import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
import { graphql } from '../gql';
import { ErrorNotice } from '../ui/query-state';
import { usePageTitle } from '../ui/page-title';
import { useFinishSignIn } from '../auth/use-finish-sign-in';
import { deviceTokenFor } from '../auth/device-tokens';

const Login = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      session {
        ...SessionFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

export default function LoginPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const [state, login] = useMutation(Login);
  const finish = useFinishSignIn();
  const [afterError, setAfterError] = useState<ApiRefusal | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const result = await login({ input: { email, password: String(form.get('password')), deviceToken: deviceTokenFor(email) } });
    const session = result.data?.login.session;
    if (session) setAfterError(await finish(session));
  };
  const refused = refusalOf(state.error, state.data?.login);
  const redirect = params.get('redirect');
  return (
    <section className="auth-form">
      <h1>Sign in</h1>
      {redirect ? <p>Sign in to continue.</p> : null}
      {refused ? <ErrorNotice error={refused} title="Not signed in" /> : null}
      {afterError ? <ErrorNotice error={afterError} title="Signed in, but the item was not added to your cart" /> : null}
      <form onSubmit={submit}>
        <label>
          Email <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password <input name="password" type="password" required autoComplete="current-password" />
        </label>
        <button type="submit" className="primary" disabled={state.fetching}>
          {state.fetching ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        New here? <Link to={`/register${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`}>Create an account</Link>
      </p>
    </section>
  );
}
