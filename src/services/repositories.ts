/**
 * Every repository of hot statements, for the SQL snapshot (`npm run sql:print`, test/sql-snapshot.test.ts)
 * and the row test: importing them registers their statements.
 */
import '../db/read-routing.repository.js';
import './accounts/auth.repository.js';
import './catalog/catalog.repository.js';
import './catalog/product.repository.js';
import './catalog/sales-changes.repository.js';
import './catalog/search/search.repository.js';
import './checkout/cart.repository.js';
import './checkout/place-orders.repository.js';
import './orders/order.repository.js';
import './payments/payment.repository.js';
import './shipping/freight.repository.js';
import './events/outbox.repository.js';
import './events/webhooks/webhooks.repository.js';
import '../shared/outbox.repository.js';
import '../shared/audit.repository.js';
