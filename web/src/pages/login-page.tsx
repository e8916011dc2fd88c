import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
import { graphql } from '../gql';
import { ErrorNotice, Loading } from '../ui/query-state';
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
  // Signed in and on the way: the next page's code may still be loading, and this page stays on screen
  // meanwhile; it must not go on asking a signed-in person to sign in.
  const [opening, setOpening] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const result = await login({ input: { email, password: String(form.get('password')), deviceToken: deviceTokenFor(email) } });
    const session = result.data?.login.session;
    if (!session) return;
    setOpening(true);
    const error = await finish(session);
    setAfterError(error);
    if (error) setOpening(false);
  };
  const refused = refusalOf(state.error, state.data?.login);
  const redirect = params.get('redirect');
  if (opening) {
    return (
      <section className="auth-form">
        <h1>Signed in</h1>
        <Loading what="Opening the page" />
      </section>
    );
  }
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
