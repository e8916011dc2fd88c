import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import {
  applyForShopRefusals, approveShopApplicationRefusals, rejectShopApplicationRefusals, withdrawShopApplicationRefusals,
} from '../../services/shops/shop-application.service.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { ShopApplicationView } from '../../services/shops/application-view.js';
import { PayloadType } from './payload.types.js';
import { ShopApplicationStatusEnum } from './enums.js';

// Made from the shops service's view schema (object-type.ts).
export const ShopApplication = objectType('ShopApplication', ShopApplicationView);
export type ShopApplication = ShopApplicationView;

@ObjectType()
export class ShopApplicationPage extends PageType(ShopApplication) {}

@ArgsType()
export class ShopApplicationListArgs extends PageArgs {
  @Field(() => ShopApplicationStatusEnum, { nullable: true }) status?: ShopApplicationStatus | null;
}

@ArgsType()
export class AdminShopApplicationListArgs extends ShopApplicationListArgs {
  @Field(() => String, { nullable: true, description: "Part of the shop's or the legal name, the address, the contact's or the applicant's name or email" }) q?: string | null;
}

@InputType()
export class ApplyForShopInput {
  @Field({ description: 'The registered name of the business' }) legalName!: string;
  @Field({ description: 'The name the storefront will show' }) shopName!: string;
  @Field({ description: 'Lowercase letters and digits, words joined by single hyphens; 3 to 80 characters' }) slug!: string;
  @Field() contactName!: string;
  @Field() contactPhone!: string;
  @Field() contactEmail!: string;
  @Field(() => [Int], { description: 'Existing categories the shop means to sell in (1 to 20)' }) categoryIds!: number[];
  @Field(() => String, { nullable: true, description: 'With a logo, approval creates the shop profile' }) logoUrl?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ description: 'Must be true: the platform terms are accepted' }) termsAccepted!: boolean;
}

@InputType()
export class WithdrawShopApplicationInput {
  @Field(() => Int) applicationId!: number;
}

@InputType()
export class ApproveShopApplicationInput {
  @Field(() => Int) applicationId!: number;
}

@InputType()
export class RejectShopApplicationInput {
  @Field(() => Int) applicationId!: number;
  @Field({ description: 'Told to the applicant' }) reason!: string;
}

export const ApplyForShopPayload = PayloadType('ApplyForShop', 'application', () => ShopApplication, 'The submitted application', applyForShopRefusals);
export const WithdrawShopApplicationPayload = PayloadType('WithdrawShopApplication', 'application', () => ShopApplication, 'The withdrawn application', withdrawShopApplicationRefusals);
export const ApproveShopApplicationPayload = PayloadType('ApproveShopApplication', 'application', () => ShopApplication, 'The approved application, with its new shop', approveShopApplicationRefusals);
export const RejectShopApplicationPayload = PayloadType('RejectShopApplication', 'application', () => ShopApplication, 'The rejected application', rejectShopApplicationRefusals);
