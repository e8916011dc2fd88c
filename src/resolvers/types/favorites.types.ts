import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageType } from './page.types.js';
import { ShopSummary } from './order.types.js';
import { PayloadType } from './payload.types.js';
import { objectType } from './object-type.js';
import { FavoriteShopSummaryView, FavoriteShopView } from '../../services/accounts/favorites-view.js';
import { favoriteProductRefusals, favoriteShopRefusals, unfavoriteProductRefusals, unfavoriteShopRefusals } from '../../services/accounts/favorites.service.js';

// Made from the favorites' view schemas (object-type.ts); ProductSummary and FavoriteProduct name the
// product's shop by the three-field ShopSummary, so they are held to their schemas by test/one-description.test.ts.
export const FavoriteShopSummaryType = objectType('FavoriteShopSummary', FavoriteShopSummaryView, {
  // On the type, not the schema: a described schema would lend its words to every field holding it.
  description: 'A shop as the favorites list shows it',
});

@ObjectType('ProductSummary')
export class ProductSummaryType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) imageUrl?: string;
  @Field(() => Int, { description: 'Lowest SKU price, in minor units of the base currency' }) priceFrom!: number;
  @Field({ description: 'False once the product is withdrawn from sale' }) available!: boolean;
  @Field(() => ShopSummary) shop!: ShopSummary;
}

@ObjectType('FavoriteProduct')
export class FavoriteProductType {
  @Field(() => ProductSummaryType) product!: ProductSummaryType;
  @Field() favoritedAt!: Date;
}

export const FavoriteShopType = objectType('FavoriteShop', FavoriteShopView);

@ObjectType('FavoriteProductPage')
export class FavoriteProductPage extends PageType(FavoriteProductType) {}

@ObjectType('FavoriteShopPage')
export class FavoriteShopPage extends PageType(FavoriteShopType) {}

@ObjectType('Favorites', { description: "The caller's favorites, newest first; the page arguments apply to each list" })
export class FavoritesType {
  @Field(() => FavoriteProductPage) products!: FavoriteProductPage;
  @Field(() => FavoriteShopPage) shops!: FavoriteShopPage;
}

@InputType()
export class FavoriteProductInput {
  @Field(() => Int) productId!: number;
}

@InputType()
export class UnfavoriteProductInput {
  @Field(() => Int) productId!: number;
}

@InputType()
export class FavoriteShopInput {
  @Field(() => Int) shopId!: number;
}

@InputType()
export class UnfavoriteShopInput {
  @Field(() => Int) shopId!: number;
}

export const FavoriteProductPayload = PayloadType('FavoriteProduct', 'favorite', () => FavoriteProductType, 'The favorite (the existing one when it was already there)', favoriteProductRefusals);
export const UnfavoriteProductPayload = PayloadType('UnfavoriteProduct', 'productId', () => Int, 'The product, no longer a favorite', unfavoriteProductRefusals);
export const FavoriteShopPayload = PayloadType('FavoriteShop', 'favorite', () => FavoriteShopType, 'The favorite (the existing one when it was already there)', favoriteShopRefusals);
export const UnfavoriteShopPayload = PayloadType('UnfavoriteShop', 'shopId', () => Int, 'The shop, no longer a favorite', unfavoriteShopRefusals);
