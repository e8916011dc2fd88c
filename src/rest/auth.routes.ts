import type { Router } from 'express';
import * as auth from '../accounts/auth.service.js';
import { route, Reply } from './route.js';

export function authRoutes(router: Router) {
  route(router, '/auth/register', { post: async ({ ctx, body }) => new Reply(201, await auth.register(ctx, body)) });
  route(router, '/auth/login', { post: ({ ctx, body }) => auth.login(ctx, body) });
  route(router, '/auth/logout', { post: async ({ ctx }) => new Reply(204, await auth.logout(ctx).then(() => undefined)) });
  route(router, '/me', { get: ({ ctx }) => auth.me(ctx) });
}
