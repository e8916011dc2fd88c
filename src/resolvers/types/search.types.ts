import { Field, Int, ObjectType } from 'type-graphql';
import { SuggestionKind } from '../../entities/search-suggestion.entity.js';
import { SuggestionKindEnum } from './enums.js';


// Facets and suggestions carry their names: read in the facets' own statement, no field resolvers (no N+1).

@ObjectType('CategoryFacet')
export class CategoryFacetType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
  @Field() name!: string;
  @Field(() => Int) depth!: number;
  @Field(() => Int, { description: "Matching products in the category's whole subtree" }) count!: number;
}

@ObjectType('BrandFacet')
export class BrandFacetType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => Int) count!: number;
}

@ObjectType('ShopFacet')
export class ShopFacetType {
  @Field(() => Int) id!: number;
  @Field() slug!: string;
  @Field() name!: string;
  @Field(() => Int) count!: number;
}

@ObjectType('PriceBucket', { description: 'Lowest SKU prices from min to max, both inclusive (minor units); pass them as priceMin and priceMax' })
export class PriceBucketType {
  @Field(() => Int) min!: number;
  @Field(() => Int, { nullable: true, description: 'Null: no upper end' }) max!: number | null;
  @Field(() => Int) count!: number;
}

@ObjectType('ProductFacets', { description: "Counts for the listing's parameters; each facet ignores its own filter" })
export class ProductFacetsType {
  @Field(() => Int, { description: 'Products the listing with these parameters counts' }) total!: number;
  @Field(() => [CategoryFacetType], { description: 'Rolled up the tree, in tree order' }) categories!: CategoryFacetType[];
  @Field(() => [BrandFacetType], { description: 'Most matches first' }) brands!: BrandFacetType[];
  @Field(() => [ShopFacetType], { description: 'Most matches first' }) shops!: ShopFacetType[];
  @Field(() => [PriceBucketType], { description: 'About five, ascending, at whole units of the currency' }) prices!: PriceBucketType[];
}

@ObjectType('SearchSuggestion')
export class SearchSuggestionType {
  @Field(() => SuggestionKindEnum) kind!: SuggestionKind;
  @Field(() => Int, { description: 'The brand, category or product id' }) id!: number;
  @Field() text!: string;
  @Field({ description: 'The storefront route it leads to, e.g. `/products/12`' }) path!: string;
}
