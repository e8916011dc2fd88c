import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EventTypes, type EventType } from '../../services/events/event-types.js';

registerEnumType(EventTypes, {
  name: 'EventType',
  description: 'Kinds of domain event; the value `ORDER_PLACED` is the event `order.placed`, and so on',
});

@ObjectType('DomainEvent', { description: 'Something that happened in a committed transaction' })
export class DomainEventType {
  @Field(() => ID, { description: 'Unique per event: drop a duplicate delivery by it' }) id!: string;
  @Field(() => EventTypes) type!: EventType;
  @Field(() => Date) occurredAt!: string;
  @Field(() => [Int], { description: 'Shops the event concerns' }) shopIds!: number[];
  @Field(() => Int, { nullable: true, description: 'The customer the event concerns, if one' }) customerId!: number | null;
  @Field(() => GraphQLJSONObject, { description: 'Ids and states; its shape per type is in docs/api.md' }) payload!: Record<string, unknown>;
}

@ArgsType()
export class EventFeedArgs {
  @Field(() => [EventTypes], { nullable: true, description: 'Only these kinds (all when absent)' })
  types?: EventType[] | null;
}
