import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import * as auditLog from '../services/platform/audit-log.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { AuditEntryListArgs, AuditEntryPage, AuditFieldChange } from './types/audit.types.js';

@Resolver()
export class AuditLogResolver {
  @Query(() => AuditEntryPage, { description: "Platform admin: every write of shop members and staff, newest first, filtered; a shop member: their own shop's entries" })
  auditEntries(@Args(() => AuditEntryListArgs) args: AuditEntryListArgs, @Ctx() { ctx }: GraphQLContext) {
    return auditLog.listAuditEntries(ctx, withoutNulls(args));
  }
}

/** A logged value as JSON text: the schema has no JSON scalar (test/graphql-conventions.test.ts). */
const jsonText = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

@Resolver(() => AuditFieldChange)
export class AuditFieldChangeResolver {
  @FieldResolver(() => String, { nullable: true, description: 'The value before, as JSON text; null where the row did not exist' })
  before(@Root() change: auditLog.AuditFieldChange) {
    return jsonText(change.before);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The value after, as JSON text; null where the row no longer exists' })
  after(@Root() change: auditLog.AuditFieldChange) {
    return jsonText(change.after);
  }
}
