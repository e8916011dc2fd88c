import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './Migration20261122000000Foundation.js';
import { Migration20261122000100BackfillBalances } from './Migration20261122000100BackfillBalances.js';
import { Migration20261122020000PurchaseFlow } from './Migration20261122020000PurchaseFlow.js';
import { Migration20261122010000Catalog } from './Migration20261122010000Catalog.js';
import { Migration20261122050000Coupons } from './Migration20261122050000Coupons.js';
import { Migration20261122070000GroupBuying } from './Migration20261122070000GroupBuying.js';
import { Migration20261122060000FlashSales } from './Migration20261122060000FlashSales.js';
import { Migration20261122100000AfterSale } from './Migration20261122100000AfterSale.js';
import { Migration20261122030000PointsMallAndFavorites } from './Migration20261122030000PointsMallAndFavorites.js';
import { Migration20261122110000CatalogVersion } from './Migration20261122110000CatalogVersion.js';
import { Migration20261122120000CheckoutRefusal } from './Migration20261122120000CheckoutRefusal.js';
import { Migration20261122130000SalesVersion } from './Migration20261122130000SalesVersion.js';
import { Migration20261125000000IdempotencyInTheWork } from './Migration20261125000000IdempotencyInTheWork.js';
import { Migration20261125010000OperationsIndexes } from './Migration20261125010000OperationsIndexes.js';
import { Migration20261125100000AuthThrottle } from './Migration20261125100000AuthThrottle.js';
import { Migration20261125110000EntitiesExact } from './Migration20261125110000EntitiesExact.js';
import { Migration20261125200000Search } from './Migration20261125200000Search.js';
import { Migration20261126100000AuthAttemptCounts } from './Migration20261126100000AuthAttemptCounts.js';
import { Migration20261126250000OrderAddressRequired } from './Migration20261126250000OrderAddressRequired.js';
import { Migration20261126300000StockMovements } from './Migration20261126300000StockMovements.js';
import { Migration20261126300100StructuredRefusals } from './Migration20261126300100StructuredRefusals.js';
import { Migration20261126400000Outbox } from './Migration20261126400000Outbox.js';
import { Migration20261126500000OrderCompleted } from './Migration20261126500000OrderCompleted.js';
import { Migration20261126510000SettlementLedger } from './Migration20261126510000SettlementLedger.js';
import { Migration20261126600000AddressBook } from './Migration20261126600000AddressBook.js';
import { Migration20261126800000ReadYourWrites } from './Migration20261126800000ReadYourWrites.js';
import { Migration20261126900000RelayRound } from './Migration20261126900000RelayRound.js';
import { Migration20261127100000SalesChangeLog } from './Migration20261127100000SalesChangeLog.js';
import { Migration20261127200000CategoryCoverIndex } from './Migration20261127200000CategoryCoverIndex.js';
import { Migration20261201200000IdempotencyKeyPerOperation } from './Migration20261201200000IdempotencyKeyPerOperation.js';
import { Migration20261202100000Payments } from './Migration20261202100000Payments.js';
import { Migration20261202110000PaymentRefunds } from './Migration20261202110000PaymentRefunds.js';
import { Migration20261202200000HomeContentNotify } from './Migration20261202200000HomeContentNotify.js';
import { Migration20261201300000IdempotentAnswerText } from './Migration20261201300000IdempotentAnswerText.js';
import { Migration20261202300000ShopApplications } from './Migration20261202300000ShopApplications.js';

/**
 * Every migration, in order. Listed explicitly so that the compiled server and the ts-jest suite load
 * the same classes without scanning folders. Add new migrations at the end.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122000100BackfillBalances', class: Migration20261122000100BackfillBalances },
  { name: 'Migration20261122010000Catalog', class: Migration20261122010000Catalog },
  { name: 'Migration20261122020000PurchaseFlow', class: Migration20261122020000PurchaseFlow },
  { name: 'Migration20261122030000PointsMallAndFavorites', class: Migration20261122030000PointsMallAndFavorites },
  { name: 'Migration20261122050000Coupons', class: Migration20261122050000Coupons },
  { name: 'Migration20261122060000FlashSales', class: Migration20261122060000FlashSales },
  { name: 'Migration20261122070000GroupBuying', class: Migration20261122070000GroupBuying },
  { name: 'Migration20261122100000AfterSale', class: Migration20261122100000AfterSale },
  { name: 'Migration20261122110000CatalogVersion', class: Migration20261122110000CatalogVersion },
  { name: 'Migration20261122120000CheckoutRefusal', class: Migration20261122120000CheckoutRefusal },
  { name: 'Migration20261122130000SalesVersion', class: Migration20261122130000SalesVersion },
  { name: 'Migration20261125000000IdempotencyInTheWork', class: Migration20261125000000IdempotencyInTheWork },
  { name: 'Migration20261125010000OperationsIndexes', class: Migration20261125010000OperationsIndexes },
  { name: 'Migration20261125100000AuthThrottle', class: Migration20261125100000AuthThrottle },
  { name: 'Migration20261125110000EntitiesExact', class: Migration20261125110000EntitiesExact },
  { name: 'Migration20261125200000Search', class: Migration20261125200000Search },
  { name: 'Migration20261126100000AuthAttemptCounts', class: Migration20261126100000AuthAttemptCounts },
  { name: 'Migration20261126250000OrderAddressRequired', class: Migration20261126250000OrderAddressRequired },
  { name: 'Migration20261126300000StockMovements', class: Migration20261126300000StockMovements },
  { name: 'Migration20261126300100StructuredRefusals', class: Migration20261126300100StructuredRefusals },
  { name: 'Migration20261126400000Outbox', class: Migration20261126400000Outbox },
  { name: 'Migration20261126500000OrderCompleted', class: Migration20261126500000OrderCompleted },
  { name: 'Migration20261126510000SettlementLedger', class: Migration20261126510000SettlementLedger },
  { name: 'Migration20261126600000AddressBook', class: Migration20261126600000AddressBook },
  { name: 'Migration20261126800000ReadYourWrites', class: Migration20261126800000ReadYourWrites },
  { name: 'Migration20261126900000RelayRound', class: Migration20261126900000RelayRound },
  { name: 'Migration20261127100000SalesChangeLog', class: Migration20261127100000SalesChangeLog },
  { name: 'Migration20261127200000CategoryCoverIndex', class: Migration20261127200000CategoryCoverIndex },
  { name: 'Migration20261201200000IdempotencyKeyPerOperation', class: Migration20261201200000IdempotencyKeyPerOperation },
  { name: 'Migration20261201300000IdempotentAnswerText', class: Migration20261201300000IdempotentAnswerText },
  { name: 'Migration20261202100000Payments', class: Migration20261202100000Payments },
  { name: 'Migration20261202110000PaymentRefunds', class: Migration20261202110000PaymentRefunds },
  { name: 'Migration20261202200000HomeContentNotify', class: Migration20261202200000HomeContentNotify },
  { name: 'Migration20261202300000ShopApplications', class: Migration20261202300000ShopApplications },
];
