import { Extensions, UseMiddleware } from 'type-graphql';
import type { MiddlewareFn } from 'type-graphql';
import { Permission } from '../shared/permissions.js';
import { requireAnyPermission } from '../shared/guards.js';
import type { GraphQLContext } from './graphql-context.js';

/**
 * The permission a GraphQL operation (a Query, Mutation or Subscription field) needs, declared once
 * on its resolver method, as REST declares it on its route: kept in the field's `extensions`
 * (`permissions`, where the authorization matrix reads it) and checked before the resolver runs; the
 * use case checks it again. Several: any of them (the webhook fields serve the platform's staff and a
 * shop's members alike). A public field gets no check, so a storefront read pays nothing for it.
 */
export function Allow(...permissions: [Permission, ...Permission[]]): MethodDecorator {
  const declared = Extensions({ permissions });
  const check: MiddlewareFn<GraphQLContext> = ({ context }, next) => {
    requireAnyPermission(context.ctx, permissions);
    return next();
  };
  const guarded = permissions.includes(Permission.Public) ? null : UseMiddleware(check);
  return (target, key, descriptor) => {
    declared(target, key, descriptor);
    guarded?.(target, key, descriptor);
  };
}
