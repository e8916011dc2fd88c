// The folders of src/ form a one-way graph; `npm run check:layers` (part of `npm test`) fails on an
// arrow that runs back up. Type-only imports count (`tsPreCompilationDeps`). README "Architecture"
// draws the same layers; docs/decisions.md says why each is where it is.

/**
 * The layers, top to bottom. A module may import its own layer and any layer below it, never one
 * above, nor a peer on its own row (two doors, or two domains with no order between them, stay
 * apart). Services are split by domain, each domain its own row: a domain may call the ones below it.
 */
const LAYERS = [
  { name: 'entry', paths: ['^src/main\\.ts$', '^src/start\\.ts$', '^src/cli/'], why: 'the process entry and the commands start everything' },
  { name: 'telemetry', paths: ['^src/telemetry/'], why: 'the OpenTelemetry SDK, loaded by the entry before the rest when tracing is on' },
  { name: 'server', paths: ['^src/server/'], peers: ['seed'], why: 'the HTTP server composes the doors' },
  { name: 'seed', paths: ['^src/seed/'], peers: ['server'], why: 'the demo seed calls the use cases like a client' },
  { name: 'rest', paths: ['^src/rest/'], peers: ['resolvers'], why: 'a door: thin routes over one service call each' },
  { name: 'resolvers', paths: ['^src/resolvers/'], peers: ['rest'], why: 'a door: thin GraphQL fields over one service call each' },
  { name: 'graphql', paths: ['^src/graphql/'], why: "the GraphQL door's machinery (loaders, limits, errors) under its resolvers" },
  {
    name: 'wiring',
    paths: ['^src/services/(wiring|repositories)\\.ts$'],
    why: 'the service wiring names every domain that acts on an order move, and the list of repositories every hot statement; only doors import them',
  },
  // The domains, top to bottom: checkout places orders with everything below; after-sale undoes
  // parts of orders; promotions and points act on order moves (subscribers); orders own the order's
  // life; shipping, catalog, inventory, accounts and events know no order.
  { name: 'platform', paths: ['^src/services/platform/'], why: "the platform's views across shops put the views of the domains below side by side" },
  { name: 'checkout', paths: ['^src/services/checkout/'], why: 'checkout prices and places orders with the domains below it' },
  { name: 'after-sale', paths: ['^src/services/after-sale/'], why: 'refunds and reviews act on orders, stock, points and balances' },
  { name: 'payments', paths: ['^src/services/payments/'], why: 'the payment module owns payments and is the only way an order is paid (through the order lifecycle)' },
  { name: 'settlement', paths: ['^src/services/settlement/'], why: "shops' earnings, commissions and payouts act on order moves and refunds through the ledger" },
  { name: 'promotions', paths: ['^src/services/promotions/'], why: 'coupons, flash sales and group buying subscribe to order moves' },
  { name: 'points', paths: ['^src/services/points/'], why: 'points subscribe to order moves' },
  { name: 'shops', paths: ['^src/services/shops/'], why: 'shop onboarding creates shops and their operators; order-facing domains above may ask it about a shop' },
  { name: 'orders', paths: ['^src/services/orders/'], why: 'the order lifecycle: others attach to its moves, it imports none of them' },
  { name: 'shipping', paths: ['^src/services/shipping/'], why: 'freight and shipping companies know no order' },
  { name: 'catalog', paths: ['^src/services/catalog/'], why: 'products, search and content know no order' },
  { name: 'inventory', paths: ['^src/services/inventory/'], why: 'stock and its movements, for whoever takes or gives back' },
  { name: 'accounts', paths: ['^src/services/accounts/'], why: 'sign-in, balances, favorites: used by every domain above' },
  { name: 'media', paths: ['^src/services/media/'], why: 'uploaded pictures: their store, thumbnails and assets, for the domains above' },
  { name: 'mail', paths: ['^src/services/mail/'], why: 'outgoing email: the transport and the messages, for the domains above' },
  { name: 'events', paths: ['^src/services/events/'], why: 'the event bus and feed: the bottom of the services' },
  { name: 'shared', paths: ['^src/shared/'], why: 'plumbing of every use case (context, transaction, validation), no domain' },
  { name: 'db', paths: ['^src/db/'], why: 'the database machinery, no domain' },
  { name: 'entities', paths: ['^src/entities/'], why: 'the one description of the data' },
  {
    name: 'foundation',
    paths: ['^src/(config|settings|logger|metrics|tracing|errors|error-codes|currency)\\.ts$'],
    why: 'configuration and its declared settings, logging, metrics, the tracing facade, the error family and the currency: imported by every layer, import nothing of them',
  },
];

const pathOf = (layer) => layer.paths.join('|');
const byName = new Map(LAYERS.map((l) => [l.name, l]));

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(0, i).filter((l) => !(layer.peers ?? []).includes(l.name));
  const peers = (layer.peers ?? []).map((name) => byName.get(name));
  const rules = [];
  if (above.length > 0) {
    rules.push({
      name: `${layer.name}-not-up`,
      severity: 'error',
      comment: `${layer.name} (${layer.why}) may not import a layer above it: ${above.map((l) => l.name).join(', ')}. Move what both need down, or attach to an order move (services/wiring.ts).`,
      from: { path: pathOf(layer) },
      to: { path: above.map(pathOf).join('|') },
    });
  }
  if (peers.length > 0) {
    rules.push({
      name: `${layer.name}-not-sideways`,
      severity: 'error',
      comment: `${layer.name} and ${peers.map((p) => p.name).join(', ')} sit side by side: neither imports the other (what both need lives below them).`,
      from: { path: pathOf(layer) },
      to: { path: peers.map(pathOf).join('|') },
    });
  }
  return rules;
});

/** MikroORM relation/inverse pairs name each other; the ORM resolves them lazily. No other cycle is allowed. */
const ENTITY_PAIRS = '^src/entities/(shop|shop-profile|product|sku|order|order-item|group-buy)\\.entity\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other in a circle: one of them belongs lower. Only entity relation/inverse pairs may name each other.',
      from: {},
      to: { circular: true, viaSomeNot: ENTITY_PAIRS },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'Two folders import each other (through any modules): the layers and domains have one direction, see README "Architecture".',
      from: {},
      to: { circular: true },
    },
    {
      name: 'in-a-layer',
      severity: 'error',
      comment: 'Every module of src/ belongs to a layer of .dependency-cruiser.cjs: add a new folder to LAYERS where it belongs.',
      from: { path: '^src/', pathNot: LAYERS.map(pathOf).join('|') },
      to: {},
    },
    {
      name: 'inputs-for-the-web',
      severity: 'error',
      comment:
        "An input schema file (*.inputs.ts) is imported by the web app's console forms too, which check each field by the server's rules: it may import only zod, the shared field rules (src/shared/input-rules.ts) and other input schema files, never server code.",
      from: { path: '\\.inputs\\.ts$|^src/shared/input-rules\\.ts$' },
      to: { pathNot: '\\.inputs\\.ts$|^src/shared/input-rules\\.ts$|(^|/)node_modules/zod/' },
    },
    {
      name: 'sql-in-repositories',
      severity: 'error',
      comment:
        'A service runs SQL through its domain\'s repository files (*.repository.ts: Kysely statements prepared once, or SQL text with its row schema); only src/db runs SQL text itself (queryRows).',
      from: { path: '^src/(services|shared)/' },
      to: { path: '^src/db/prepared-statements\\.ts$' },
    },
    {
      name: 'statements-in-repositories',
      severity: 'error',
      comment: 'Hot statements are defined in repository files (*.repository.ts), where the SQL snapshot (sql/statements.sql) finds them.',
      from: { path: '^src/services/', pathNot: '\\.repository\\.ts$' },
      to: { path: '^src/db/prepared-queries\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
