import { ArgsType, Field, Int } from 'type-graphql';
import { OperationsTodayView } from '../../services/orders/operations-view.js';
import { objectType } from './object-type.js';
import { PageArgs } from './page.types.js';

// Made from the operations page's view schema (object-type.ts).
export const OperationsTodayType = objectType('OperationsToday', OperationsTodayView);

@ArgsType()
export class AwaitingShipmentListArgs extends PageArgs {
  @Field(() => Int, { nullable: true }) shopId?: number | null;
}
