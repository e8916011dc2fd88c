import express, { type Router } from 'express';
import { authRoutes } from './auth.routes.js';
import { purchaseRoutes } from './purchase.routes.js';
import { catalogRoutes } from './catalog.routes.js';
import { merchantProductRoutes } from './merchant-products.routes.js';
import { couponRoutes } from './coupon.routes.js';
import { groupBuyRoutes } from './group-buy.routes.js';
import { flashSaleRoutes } from './flash-sale.routes.js';
import { reviewRoutes } from './review.routes.js';
import { freightRoutes } from './freight.routes.js';
import { refundRoutes } from './refund.routes.js';
import { favoritesRoutes } from './favorites.routes.js';
import { addressBookRoutes } from './address-book.routes.js';
import { pointsRoutes } from './points.routes.js';
import { operationsRoutes } from './operations.routes.js';
import { settlementRoutes } from './settlement.routes.js';
import { eventRoutes } from './events.routes.js';
import { webhookRoutes } from './webhook.routes.js';
import { paymentRoutes } from './payment.routes.js';
import { shopApplicationRoutes } from './shop-application.routes.js';
import { disputeRoutes } from './dispute.routes.js';
import { shopStateRoutes } from './shop-state.routes.js';

/** The REST facade: every route calls one service method, like its GraphQL twin. */
export function apiRouter(): Router {
  const router = express.Router();
  authRoutes(router);
  purchaseRoutes(router);
  catalogRoutes(router);
  merchantProductRoutes(router);
  couponRoutes(router);
  groupBuyRoutes(router);
  flashSaleRoutes(router);
  reviewRoutes(router);
  freightRoutes(router);
  refundRoutes(router);
  pointsRoutes(router);
  favoritesRoutes(router);
  addressBookRoutes(router);
  operationsRoutes(router);
  settlementRoutes(router);
  eventRoutes(router);
  webhookRoutes(router);
  paymentRoutes(router);
  shopApplicationRoutes(router);
  disputeRoutes(router);
  shopStateRoutes(router);
  return router;
}
