import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { tracing } from '../tracing.js';

const traced = new WeakSet<GraphQLSchema>();

/**
 * With tracing on (src/tracing.ts), each root field of a query or mutation runs in a span of its own
 * (`graphql.resolve Query.products`): these are the resolvers that call a service, and so do the
 * I/O. Nested fields get no span each (a page of 100 products would make hundreds, most of them a
 * property read); what they fetch goes through the request's loaders, one statement per relation,
 * whose `pg` spans sit under the operation's span. A subscription's `subscribe` (its first reads,
 * over the websocket, where no HTTP span is) runs in a span too (`graphql.subscribe
 * Subscription.paymentUpdates`); what a subscription reads for each later event is traced where it
 * is read (src/services/payments/payment-watch.ts). The schema's resolvers are replaced in place,
 * before Apollo and graphql-jit read them; with tracing off this is never called.
 */
export function traceRootFields(schema: GraphQLSchema): void {
  const t = tracing;
  if (!t || traced.has(schema)) return;
  traced.add(schema);
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve ?? defaultFieldResolver;
      const name = `graphql.resolve ${type.name}.${field.name}`;
      const attributes = { 'graphql.field.name': field.name, 'graphql.field.type': type.name };
      field.resolve = (source, args, context, info) => t.inSpan(name, attributes, () => Promise.resolve(resolve(source, args, context, info)));
    }
  }
  for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
    const subscribe = field.subscribe;
    if (!subscribe) continue;
    const name = `graphql.subscribe Subscription.${field.name}`;
    const attributes = { 'graphql.field.name': field.name, 'graphql.field.type': 'Subscription' };
    field.subscribe = (source, args, context, info) => t.inSpan(name, attributes, () => Promise.resolve(subscribe(source, args, context, info)));
  }
}
