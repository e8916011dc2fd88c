import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import type { AuditAction } from '../../entities/audit-entry.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { AuditActionEnum } from './enums.js';

// Written here rather than made from services/platform/audit-entry-view.ts (the id is a GraphQL ID, fields described
// in GraphQL's own names), and held to those schemas by test/one-description.test.ts.
@ObjectType({ description: 'One field an audited write changed, its values as JSON texts (the schema has no JSON scalar; REST gives the same texts)' })
export class AuditFieldChange {
  @Field({ description: 'The column, as the database names it' }) field!: string;
  @Field(() => String, { nullable: true, description: 'The value before, as JSON text (`"draft"`, `12`, `null`); null where the row did not exist' }) before!: string | null;
  @Field(() => String, { nullable: true, description: 'The value after, as JSON text; null where the row no longer exists' }) after!: string | null;
}

@ObjectType({ description: 'A row a shop member or platform staff changed: who, in which role, for which shop, by which operation, and the fields before and after' })
export class AuditEntry {
  @Field(() => ID, { description: 'Growing: `beforeId` reads on from it' }) id!: string;
  @Field() occurredAt!: Date;
  @Field(() => Int) actorId!: number;
  @Field(() => String, { nullable: true }) actorEmail!: string | null;
  @Field({ description: 'The role the actor wrote in' }) actorRole!: string;
  @Field(() => Int, { nullable: true, description: 'The shop the write was for; null for a platform row (a brand, an account)' }) shopId!: number | null;
  @Field(() => String, { nullable: true, description: "That shop's name; null for a platform row" }) shopName!: string | null;
  @Field({ description: 'The operation, by its field name in this schema (the same through REST)' }) operation!: string;
  @Field({ description: 'The changed row\'s type (`Product`)' }) targetType!: string;
  @Field({ description: 'The changed row\'s id, as text' }) targetId!: string;
  @Field(() => String, { nullable: true, description: "The changed row's name (a product's, a shop's, a user's; a SKU's product and SKU, an order's number and customer); null when the row is gone or its type has none" }) targetName!: string | null;
  @Field(() => AuditActionEnum) action!: AuditAction;
  @Field(() => [AuditFieldChange], { description: 'The fields the write changed: every field of a created or deleted row' }) changes!: AuditFieldChange[];
  @Field({ description: 'The request\'s id (`X-Request-Id`)' }) requestId!: string;
}

@ObjectType()
export class AuditEntryPage extends PageType(AuditEntry) {}

@ArgsType()
export class AuditEntryListArgs extends PageArgs {
  @Field(() => Int, { nullable: true, description: 'A shop\'s entries; a shop member may name only their own shop' }) shopId?: number | null;
  @Field(() => Int, { nullable: true }) actorId?: number | null;
  @Field(() => String, { nullable: true, description: 'An operation, by its field name (`upsertProduct`)' }) operation?: string | null;
  @Field(() => String, { nullable: true, description: 'The changed row\'s type (`Product`)' }) targetType?: string | null;
  @Field(() => String, { nullable: true, description: 'The changed row\'s id; needs targetType' }) targetId?: string | null;
  @Field(() => Date, { nullable: true, description: 'Entries at or after this time' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Entries before this time' }) to?: Date | null;
  @Field(() => ID, { nullable: true, description: 'Entries older than this one: the next page without an offset' }) beforeId?: string | null;
}
