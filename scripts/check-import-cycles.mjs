// Fails (exit 1) on an import cycle in src/, type-only imports included. Entities may refer back to
// each other (a relation and its inverse side): those cycles are allowed by name below.
import { parseDependencyTree, parseCircular } from 'dpdm';

const ALLOWED = [
  ['src/entities/shop.entity.ts', 'src/entities/shop-profile.entity.ts'],
  ['src/entities/product.entity.ts', 'src/entities/sku.entity.ts'],
  ['src/entities/order.entity.ts', 'src/entities/order-item.entity.ts'],
  ['src/entities/order.entity.ts', 'src/entities/group-buy.entity.ts'],
];
const allowed = (cycle) => ALLOWED.some((pair) => cycle.length === pair.length && pair.every((file) => cycle.includes(file)));

const tree = await parseDependencyTree(['src/main.ts', 'src/cli/*.ts'], { context: process.cwd(), transform: false, skipDynamicImports: false });
const cycles = parseCircular(tree).filter((cycle) => !allowed(cycle));
if (cycles.length > 0) {
  console.error(`Import cycles in src/ (${cycles.length}):`);
  for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' -> ')}`);
  process.exit(1);
}
console.log('No import cycles in src/ (entity back-references allowed by name).');
