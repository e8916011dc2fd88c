import type { Router } from 'express';
import * as auth from '../services/accounts/auth.service.js';
import { route, Reply } from './route.js';
import { Session, User } from './responses/accounts.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Accounts';

export function authRoutes(router: Router) {
  route(router, '/auth/register', {
    post: {
      doc: {
        tag, summary: 'Register a customer account and sign in', permission: Permission.Public, body: auth.RegisterInput, response: Session, status: 201,
        errors: auth.registerRefusals,
      },
      handle: async ({ ctx, body }) => new Reply(201, await auth.register(ctx, body)),
    },
  });
  route(router, '/auth/login', {
    post: {
      doc: { tag, summary: 'Sign in: a bearer token', permission: Permission.Public, body: auth.LoginInput, response: Session, errors: auth.loginRefusals },
      handle: ({ ctx, body }) => auth.login(ctx, body),
    },
  });
  route(router, '/auth/logout', {
    post: {
      doc: { tag, summary: 'Revoke the token of this request', permission: Permission.SignedIn, response: null },
      handle: async ({ ctx }) => new Reply(204, await auth.logout(ctx).then(() => undefined)),
    },
  });
  route(router, '/me', {
    get: { doc: { tag, summary: 'The signed-in user', permission: Permission.SignedIn, response: User }, handle: ({ ctx }) => auth.me(ctx) },
  });
}
