import { ArgsType, Field, ObjectType } from 'type-graphql';
import type { ShopStatus } from '../../entities/shop.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { AdminShopBalanceView, AdminShopView } from '../../services/platform/admin-shop-view.js';
import type { NameSort } from '../../shared/pagination.js';
import { NameSortEnum, ShopStatusEnum } from './enums.js';

// Made from the platform service's view schemas (object-type.ts).
export const AdminShopBalance = objectType('AdminShopBalance', AdminShopBalanceView);
export type AdminShopBalance = AdminShopBalanceView;
export const AdminShop = objectType('AdminShop', AdminShopView);
export type AdminShop = AdminShopView;

@ObjectType()
export class AdminShopPage extends PageType(AdminShop) {}

@ArgsType()
export class AdminShopListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "Part of the shop's name or slug" }) q?: string | null;
  @Field(() => ShopStatusEnum, { nullable: true }) status?: ShopStatus | null;
  @Field(() => NameSortEnum, { nullable: true, description: 'Default: newest first' }) sort?: NameSort | null;
}
