import { Args, Ctx, Query, Resolver } from 'type-graphql';
import * as auditLog from '../services/platform/audit-log.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';
import { AuditEntryListArgs, AuditEntryPage } from './types/audit.types.js';

@Resolver()
export class AuditLogResolver {
  @Allow(Permission.PlatformAuditRead, Permission.ShopAuditRead)
  @Query(() => AuditEntryPage, { description: "Platform admin: every write of shop members and staff, newest first, filtered; a shop member: their own shop's entries" })
  auditEntries(@Args(() => AuditEntryListArgs) args: AuditEntryListArgs, @Ctx() { ctx }: GraphQLContext) {
    return auditLog.listAuditEntries(ctx, withoutNulls(args));
  }
}

