import { RouterProvider } from 'react-router';
import { SessionProvider } from '../auth/session';
import { ApiProvider } from './api-provider';
import { router } from './router';

export function App() {
  return (
    <SessionProvider>
      <ApiProvider>
        <RouterProvider router={router} />
      </ApiProvider>
    </SessionProvider>
  );
}
