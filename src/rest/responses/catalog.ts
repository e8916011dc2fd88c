import { itemsOf, named, page } from './common.js';
import {
  BrandView, CategoryNode as CategoryNodeView, CategoryView, CurrencyView, MerchantProductView, ProductDetailView, ProductView, ShopProfileView, ShopView, SkuView,
} from '../../services/catalog/catalog-views.js';
import { ContentItemView, ContentKindListView, HomeContentView } from '../../services/catalog/home-content.service.js';
import { SkuSummaryView } from '../../services/catalog/sku-summaries.js';
import { RatingSummary as RatingSummaryView, StarCount as StarCountView } from '../../services/catalog/rating-summary.js';

export const Currency = named('Currency', CurrencyView);

export const Category = named('Category', CategoryView);
export const CategoryNode = named('CategoryNode', CategoryNodeView);
export const CategoryTree = named('CategoryTree', itemsOf(CategoryNode));

export const Brand = named('Brand', BrandView);
export const BrandList = named('BrandList', itemsOf(Brand));

export const ShopProfile = named('ShopProfile', ShopProfileView);

export const Shop = named('Shop', ShopView);
export const ShopPage = named('ShopPage', page(Shop));

export const Sku = named('Sku', SkuView);

export const SkuSummary = named('SkuSummary', SkuSummaryView);
export const SkuSummaryList = named('SkuSummaryList', itemsOf(SkuSummary));

export const Product = named('Product', ProductView);
export const ProductPage = named('ProductPage', page(Product));

export const StarCount = named('StarCount', StarCountView);
export const RatingSummary = named('RatingSummary', RatingSummaryView);

export const ProductDetail = named('ProductDetail', ProductDetailView);

export const MerchantProduct = named('MerchantProduct', MerchantProductView);
export const MerchantProductPage = named('MerchantProductPage', page(MerchantProduct));

export const ContentItem = named('ContentItem', ContentItemView);
export const HomeContent = named('HomeContent', HomeContentView);
export const ContentKindList = named('ContentKindList', ContentKindListView);
